//! `twixt-bot analyze` run as a user runs it: the built binary on the fixtures.

use std::io::Write;
use std::process::{Command, Stdio};

/// What one run gave: exit status, stdout, stderr.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `twixt-bot analyze ARGS` in the package's directory with `input` on stdin.
fn analyze(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twixt-bot"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("analyze")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    // The bot may not read stdin (a file was named): a closed pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// One row of the table: move, visits, share in percent, value, prior, line.
struct Row {
    mv: String,
    visits: u32,
    share: f64,
    value: f64,
    prior: f64,
    line: Vec<String>,
}

/// The table's rows: the lines after the column heads.
fn rows(out: &str) -> Vec<Row> {
    out.lines()
        .skip_while(|l| !l.starts_with("move  visits"))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Row {
                mv: f[0].to_string(),
                visits: f[1].parse().unwrap(),
                share: f[2].trim_end_matches('%').parse().unwrap(),
                value: f[3].parse().unwrap(),
                prior: f[4].parse().unwrap(),
                line: f[5..].iter().map(|s| s.to_string()).collect(),
            }
        })
        .collect()
}

#[test]
fn the_midgame_gets_a_table_of_its_best_moves() {
    let run = analyze(
        &["fixtures/midgame.txt", "--playouts", "3000", "--top", "3"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.starts_with("player 0 (rows 1 and 12) to move: 3000 iterations"),
        "{out}"
    );
    // The bot answers this position with its forced win in two, unsearched.
    assert!(out.contains("from a forced win in two"), "{out}");
    let rows = rows(out);
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows.windows(2).all(|w| w[0].visits >= w[1].visits), "{out}");
    assert!(rows.iter().map(|r| r.visits).sum::<u32>() <= 3000);
    for r in &rows {
        assert!((0.0..=100.0).contains(&r.share), "{out}");
        assert!((0.0..=1.0).contains(&r.value), "{out}");
        assert!((0.0..=1.0).contains(&r.prior), "{out}");
        assert!((1..=6).contains(&r.line.len()), "{out}");
    }
    assert!(rows[0].visits > 0 && rows[0].line.len() > 1, "{out}");
}

#[test]
fn the_picture_holds_the_heat_and_the_numbered_line() {
    let path = std::env::temp_dir().join(format!("twixt-analyze-{}.svg", std::process::id()));
    let svg_arg = path.to_string_lossy().into_owned();
    let run = analyze(
        &["--playouts", "3000", "--top", "500", "--svg", &svg_arg],
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/told-swap.txt"
        ))
        .unwrap(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    // Each visited root move of the table (all of them: --top 500) has its disc, its opacity
    // 0.08 + 0.82 · its visits over the most visited move's; no other hole has one.
    let rows = rows(&run.stdout);
    let most = rows.iter().map(|r| r.visits).max().unwrap();
    let mut want: Vec<(String, String)> = rows
        .iter()
        .filter(|r| r.visits > 0 && r.mv != "SWAP")
        .map(|r| {
            let opacity = 0.08 + 0.82 * f64::from(r.visits) / f64::from(most);
            (r.mv.clone(), format!("{opacity:.3}"))
        })
        .collect();
    let mut heat: Vec<(String, String)> = svg
        .split(r#"<circle class="heat""#)
        .skip(1)
        .map(|disc| {
            let between = |a: &str, b: &str| disc.split(a).nth(1).unwrap().split(b).next();
            let opacity = between(r#"fill-opacity=""#, "\"").unwrap().to_string();
            (between("<title>", "</title>").unwrap().to_string(), opacity)
        })
        .collect();
    want.sort();
    heat.sort();
    assert!(want.len() >= 5, "{}", run.stdout);
    assert_eq!(heat, want);
    let best = &rows[0];
    assert_eq!(
        svg.matches(r#"<circle class="num p"#).count(),
        best.line.len()
    );
    // Player 0 is to move: it plays 1, 3, 5..., player 1 plays 2, 4, 6...
    assert!(svg.contains(r##"fill="#d1495b">1</text>"##), "{svg}");
    assert!(svg.contains(r##"fill="#2e86ab">2</text>"##), "{svg}");
    assert!(svg.contains(&format!("the line: {}", best.line.join(" "))));
}

#[test]
fn a_bad_input_names_its_line_and_exits_with_status_two() {
    let run = analyze(&["fixtures/bad/unknown-hole.txt", "--playouts", "100"], "");
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(
        run.stderr.contains("line 6: 'Z9' is off the 12x12 board"),
        "{}",
        run.stderr
    );
    let run = analyze(&["--playouts", "100"], "FIRST\n0\n0\n1\n");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("line 5: the input ends"),
        "{}",
        run.stderr
    );
    let run = analyze(&["fixtures/no-such-file.txt"], "");
    assert_eq!(run.code, 2);
    assert!(run
        .stderr
        .contains("cannot read 'fixtures/no-such-file.txt'"));
    let run = analyze(&["--top", "0"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--top needs at least 1"));
}

#[test]
fn a_game_s_moves_are_analysed_as_their_turn_input_and_an_illegal_one_is_named() {
    // fixtures/losses/balanced/p32f-vs-d003f5e-balanced-18114-ply3: its moves, its turn input.
    let moves = "K1 D7 I7";
    let file = "fixtures/losses/balanced/p32f-vs-d003f5e-balanced-18114-ply3.txt";
    let by_moves = analyze(&["--moves", moves, "--playouts", "400"], "");
    let by_input = analyze(&[file, "--playouts", "400"], "");
    assert_eq!(
        (by_moves.code, by_input.code),
        (0, 0),
        "{}",
        by_moves.stderr
    );
    let (a, b) = (rows(&by_moves.stdout), rows(&by_input.stdout));
    assert!(!a.is_empty() && a.len() == b.len(), "{}", by_moves.stdout);
    let bad = analyze(&["--moves", "K1 K1"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("--moves: move 2 (K1): K1 already has a peg"),
        "{}",
        bad.stderr
    );
    let both = analyze(&[file, "--moves", moves], "");
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("not both"), "{}", both.stderr);
}
