//! The stages of a generation, in order: each builds its commands from the config, and
//! [`Generation::stage`] runs it unless it is done. Paths are relative to the repository root
//! the command runs in.

use super::run::Generation;
use crate::data::packed;
use crate::regenerate::entry;
use anyhow::{Context, Result};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The candidate's source tree: a git worktree of HEAD in the generation's folder.
pub const CANDIDATE: &str = "candidate";
/// The modules and the golden values `export` writes, under the candidate's tree.
pub const EXPORTED: [&str; 3] = [
    "src/knowledge/weights.rs",
    "src/knowledge/net_weights.rs",
    "train/models/value-golden.txt",
];
/// The gate's default shipped side: HEAD's bundle, compiled beside the candidate's.
pub const SHIPPED: &str = "shipped";
/// The fitted models, in the folder and under `train/models/`.
pub const MODELS: [&str; 2] = ["value.txt", "policy.txt"];

/// The gate's verdict, from `twixt-referee test`'s exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The candidate is stronger: it may be promoted.
    H1,
    /// It is not.
    H0,
    /// The games ran out first.
    Inconclusive,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1",
            Verdict::H0 => "H0",
            Verdict::Inconclusive => "inconclusive",
        })
    }
}

/// The stages in order, by name.
pub const STAGES: [&str; 7] = ["selfplay", "pack", "net", "fit", "export", "bundle", "gate"];

/// Runs (or skips) every stage, or those up to `until`, and returns the gate's verdict (none
/// when the run stopped before the gate).
pub fn all(gen: &mut Generation, until: Option<&str>) -> Result<Option<Verdict>> {
    let last = match until {
        Some(stage) => STAGES.iter().position(|s| *s == stage).with_context(|| {
            format!(
                "--until {stage}: no such stage (one of {})",
                STAGES.join(", ")
            )
        })?,
        None => STAGES.len() - 1,
    };
    let steps: [fn(&mut Generation) -> Result<()>; 6] = [selfplay, pack, net, fit, export, bundle];
    for step in &steps[..last.min(steps.len() - 1) + 1] {
        step(gen)?;
    }
    match last == STAGES.len() - 1 {
        true => gate(gen).map(Some),
        false => Ok(None),
    }
}

/// `selfplay`'s options from the config, as one machine's command takes them (no file, no
/// shard, no `--resume`: a local run and `scripts/cluster` each add their own).
pub fn selfplay_args(gen: &Generation) -> Vec<String> {
    let s = &gen.config.selfplay;
    let mut args = vec!["selfplay".to_string()];
    let mut push = |flag: &str, value: String| args.extend([flag.to_string(), value]);
    push("--games", s.games.to_string());
    push("--iterations", s.iterations.to_string());
    if let Some(fast) = s.fast {
        push("--fast", fast.to_string());
    }
    if let Some(share) = s.full_share {
        push("--full-share", share.to_string());
    }
    if let Some(opening) = s.opening {
        push("--opening", opening.to_string());
    }
    if let Some(starts) = &s.starts {
        push("--starts", starts.display().to_string());
    }
    push("--seed", s.seed.to_string());
    for set in &s.set {
        push("--set", set.clone());
    }
    args
}

/// The self-play stage's command: this build's `selfplay` here, or through `scripts/cluster`.
pub fn selfplay_command(gen: &Generation) -> Command {
    let s = &gen.config.selfplay;
    match &s.cluster {
        None => {
            let mut command = Command::new(&gen.exe);
            command.args(selfplay_args(gen));
            if let Some(threads) = s.threads {
                command.args(["--threads", &threads.to_string()]);
            }
            command.arg("--out").arg(gen.path("selfplay.bin"));
            command.arg("--resume");
            command
        }
        Some(options) => {
            let mut command = Command::new("scripts/cluster");
            command.args(options).arg("--dir").arg(gen.path("cluster"));
            // The machines of the ssh mode need the starts file too (Slurm's share this tree).
            if let (Some(starts), true) = (&s.starts, options.iter().any(|o| o == "--ssh")) {
                command.arg("--send").arg(starts);
            }
            // A program under here goes by a relative path: the ssh mode sends it.
            let here = std::env::current_dir().unwrap_or_default();
            let exe = gen.exe.strip_prefix(&here).unwrap_or(&gen.exe);
            command.arg("--").arg(exe).args(selfplay_args(gen));
            command
        }
    }
}

fn selfplay(gen: &mut Generation) -> Result<()> {
    let mut command = selfplay_command(gen);
    let cluster = gen.config.selfplay.cluster.is_some();
    gen.stage(
        "selfplay",
        &format!("{command:?}"),
        &[],
        &["selfplay.bin"],
        |gen| {
            // The commit the games are played by, kept from the run's first start.
            let teacher = gen.path(TEACHER);
            if !teacher.exists() {
                std::fs::write(&teacher, head()? + "\n")
                    .with_context(|| teacher.display().to_string())?;
            }
            gen.command("selfplay", &mut command, &[0])?;
            if cluster {
                let merged = gen.path("cluster/merged.bin");
                std::fs::copy(&merged, gen.path("selfplay.bin"))
                    .with_context(|| merged.display().to_string())?;
            }
            let file = gen.path("selfplay.bin");
            Ok(crate::info::summary(&file, &crate::data::read(&file)?))
        },
    )?;
    Ok(())
}

/// The file where the self-play stage keeps HEAD as it starts: the games' teacher.
const TEACHER: &str = "teacher";

/// The teacher the self-play stage kept, or HEAD (said so) for games played before it kept one.
fn teacher(gen: &Generation) -> Result<(String, &'static str)> {
    match std::fs::read_to_string(gen.path(TEACHER)) {
        Ok(text) => Ok((text.trim().to_string(), "HEAD as the games began")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Ok((head()?, "HEAD now: the run kept no teacher"))
        }
        Err(e) => Err(e).with_context(|| gen.path(TEACHER).display().to_string()),
    }
}

/// Packs the games, and writes their `[[part]]` for `train/data/regenerate.toml` (`part.toml`):
/// the commit self-play began at as the teacher, the run's command, the sums of the file and
/// of its first games.
fn pack(gen: &mut Generation) -> Result<()> {
    let (input, output) = (gen.path("selfplay.bin"), gen.path("selfplay.pack"));
    let name = format!("{}/shard1", gen.config.name);
    // HEAD is not in the key: a commit since the games does not make them again.
    let what = format!("pack, part {name}");
    gen.stage(
        "pack",
        &what,
        std::slice::from_ref(&input),
        &["selfplay.pack", "part.toml"],
        |gen| {
            let _ = std::fs::remove_file(&output);
            let mut figures = packed::pack_file(&input, &output, false)?;
            let args: Vec<String> = selfplay_args(gen).into_iter().skip(3).collect();
            let committed = PathBuf::from(format!("train/data/{}.zst", name));
            let (teacher, which) = teacher(gen)?;
            let run = entry::Run {
                name: &name,
                teacher: &teacher,
                run_games: gen.config.selfplay.games,
                shard: "1/1",
                args: &args,
                committed: Some(&committed),
            };
            let part = gen.path("part.toml");
            std::fs::write(&part, entry::part_toml(&run, &input)?)
                .with_context(|| part.display().to_string())?;
            figures += &format!(
                "part.toml: its [[part]] for train/data/regenerate.toml, teacher {teacher} \
                 ({which}; `twixt-train regenerate --sample {name}` checks that its build \
                 plays them)\n"
            );
            Ok(figures)
        },
    )?;
    Ok(())
}

/// What a fit reads: the committed generations (the fit's `own` list, else the config's),
/// then the new one.
fn data(gen: &Generation, own: &Option<Vec<String>>) -> Vec<PathBuf> {
    let committed = own.as_ref().unwrap_or(&gen.config.data);
    let mut data: Vec<PathBuf> = committed.iter().map(PathBuf::from).collect();
    data.push(gen.path("selfplay.pack"));
    data
}

/// `net` on the data from the shipped network, for `epochs` epochs, into `out`.
fn net_command(gen: &Generation, epochs: u32, out: &Path) -> Command {
    let n = &gen.config.net;
    let mut command = Command::new(&gen.exe);
    command
        .arg("net")
        .args(data(gen, &n.data))
        .arg("--init")
        .arg(&n.init);
    command
        .args(["--epochs", &epochs.to_string()])
        .arg("-o")
        .arg(out);
    command.args(&n.args);
    command
}

/// The network trained on from the shipped one; the shipped one scored (`--epochs 0`) on the
/// same held-out games first, so the report shows both.
fn net(gen: &mut Generation) -> Result<()> {
    let mut shipped = net_command(gen, 0, &gen.path("value-shipped.txt"));
    let mut fitted = net_command(gen, gen.config.net.epochs, &gen.path("value.txt"));
    let mut inputs = data(gen, &gen.config.net.data);
    inputs.push(gen.config.net.init.clone());
    let what = format!("{shipped:?}\n{fitted:?}");
    gen.stage("net", &what, &inputs, &["value.txt"], |gen| {
        gen.command("net-shipped", &mut shipped, &[0])?;
        gen.command("net", &mut fitted, &[0])?;
        let (old, new) = (gen.figures("net-shipped"), gen.figures("net"));
        Ok(format!(
            "the shipped network:\n{old}\n\nthe new one:\n{new}"
        ))
    })?;
    Ok(())
}

/// The policy, fitted on from the shipped one where the config says `init`, else from scratch
/// (`fit` scores the shipped policy on the same held-out games).
fn fit(gen: &mut Generation) -> Result<()> {
    let mut command = Command::new(&gen.exe);
    command
        .arg("fit")
        .args(data(gen, &gen.config.fit.data))
        .arg("-o")
        .arg(gen.path("policy.txt"));
    let mut inputs = data(gen, &gen.config.fit.data);
    if let Some(init) = &gen.config.fit.init {
        command.arg("--init").arg(init);
        inputs.push(init.clone());
    }
    command.args(&gen.config.fit.args);
    gen.stage(
        "fit",
        &format!("{command:?}"),
        &inputs,
        &["policy.txt"],
        |gen| {
            gen.command("fit", &mut command, &[0])?;
            Ok(gen.figures("fit"))
        },
    )?;
    Ok(())
}

/// HEAD's full hash, in the repository the command runs in.
fn head() -> Result<String> {
    twixt_host::commit::resolve(Path::new("."), "HEAD", |program| Command::new(program))
}

/// The candidate's tree at HEAD (made, or moved there), HEAD's bundle from it (the shipped bot,
/// `shipped.rs`), then the models in it and its modules.
fn export(gen: &mut Generation) -> Result<()> {
    let sha = head()?;
    let tree = gen.path(CANDIDATE);
    let inputs: Vec<PathBuf> = MODELS.iter().map(|m| gen.path(m)).collect();
    let mut outputs: Vec<String> = EXPORTED
        .iter()
        .map(|f| format!("{CANDIDATE}/{f}"))
        .collect();
    outputs.push("shipped.rs".to_string());
    let outputs: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let what = format!("export at {sha}");
    gen.stage("export", &what, &inputs, &outputs, |gen| {
        let mut git = Command::new("git");
        if tree.join(".git").exists() {
            git.arg("-C")
                .arg(&tree)
                .args(["checkout", "--force", "--detach", &sha]);
        } else {
            git.args(["worktree", "add", "--force", "--detach"])
                .arg(&tree)
                .arg(&sha);
        }
        gen.command("export", &mut git, &[0])?;
        let chars = write_bundle(&tree, &gen.path("shipped.rs"))?;
        for model in MODELS {
            let to = tree.join("train/models").join(model);
            std::fs::copy(gen.path(model), &to).with_context(|| to.display().to_string())?;
        }
        gen.command("export", &mut export_policy(gen, &tree), &[0])?;
        gen.command("export", &mut export_net(gen, &tree), &[0])?;
        let figures = gen.figures("export");
        Ok(format!(
            "{what}; HEAD's bundle: {chars} characters\n{figures}"
        ))
    })?;
    Ok(())
}

/// Bundles the engine's tree `tree` into `out` (the bundler's library, as `twixt-bundle` does)
/// and returns its characters.
fn write_bundle(tree: &Path, out: &Path) -> Result<usize> {
    let made = twixt_bundle::bundle(&twixt_bundle::Options::for_crate(tree))?;
    std::fs::write(out, &made.source).with_context(|| out.display().to_string())?;
    Ok(made.chars())
}

/// `export` in the candidate's tree, of its copy of the model: the module's header then names
/// the path the model is committed at, as `train/tests/export.rs` wants after a promotion.
fn export_policy(gen: &Generation, tree: &Path) -> Command {
    let mut command = Command::new(&gen.exe);
    command.current_dir(tree);
    command.args(["export", "train/models/policy.txt", "--out", EXPORTED[0]]);
    command
}

/// `export-net` in the candidate's tree, as [`export_policy`].
fn export_net(gen: &Generation, tree: &Path) -> Command {
    let mut command = Command::new(&gen.exe);
    command.current_dir(tree);
    command.args(["export-net", "train/models/value.txt"]);
    command.args(["--row-bits", &gen.config.net.row_bits.to_string()]);
    command.args(["--out", EXPORTED[1], "--golden", EXPORTED[2]]);
    command
}

/// The candidate's bundle, compiled as CodinGame does (`twixt-referee build --bundle`) beside
/// HEAD's: the binaries are kept as `candidate-bin` and `shipped-bin`.
fn bundle(gen: &mut Generation) -> Result<()> {
    let tree = gen.path(CANDIDATE);
    let mut inputs: Vec<PathBuf> = EXPORTED.iter().map(|f| tree.join(f)).collect();
    inputs.push(gen.path("shipped.rs"));
    let outputs = ["candidate.rs", "candidate-bin", "shipped-bin"];
    gen.stage("bundle", "bundle", &inputs, &outputs, |gen| {
        let chars = write_bundle(&tree, &gen.path("candidate.rs"))?;
        let mut build = Command::new(&gen.referee);
        build.arg("build");
        for name in ["candidate.rs", "shipped.rs"] {
            build.arg("--bundle").arg(gen.path(name));
        }
        let out = build.output().with_context(|| format!("{build:?}"))?;
        std::fs::write(gen.log("bundle"), &out.stderr)?;
        anyhow::ensure!(out.status.success(), "{build:?}: {}", gen.figures("bundle"));
        let built = String::from_utf8_lossy(&out.stdout);
        let binaries: Vec<&str> = built.lines().collect();
        anyhow::ensure!(binaries.len() == 2, "{build:?} printed {built}");
        for (binary, kept) in binaries.iter().zip(["candidate-bin", "shipped-bin"]) {
            let kept = gen.path(kept);
            std::fs::copy(binary, &kept)
                .with_context(|| format!("{binary} to {}", kept.display()))?;
        }
        Ok(format!(
            "the candidate's bundle: {chars} characters of {}",
            twixt_bundle::LIMIT
        ))
    })?;
    Ok(())
}

/// The gate's shipped side: HEAD's bundle compiled by the bundle stage, or what the config
/// names (a commit, `bin:PATH`).
fn against(gen: &Generation) -> String {
    match gen.config.gate.against.as_deref() {
        None | Some(SHIPPED) => format!("bin:{}", gen.path("shipped-bin").display()),
        Some(other) => other.to_string(),
    }
}

/// The gate: the candidate's binary against the shipped bot, `twixt-referee test` with an SPRT.
fn gate(gen: &mut Generation) -> Result<Verdict> {
    let g = &gen.config.gate;
    let mut test = Command::new(&gen.referee);
    let candidate = format!("bin:{}", gen.path("candidate-bin").display());
    test.args([
        "test",
        &candidate,
        &against(gen),
        "--games",
        &g.games.to_string(),
    ]);
    test.arg("--sprt").args(&g.sprt).args(&g.args);
    test.arg("--results")
        .arg(gen.path("gate.jsonl"))
        .arg("--resume");
    test.arg("--report").arg(gen.path("gate.html"));
    let inputs = [gen.path("candidate-bin"), gen.path("shipped-bin")];
    let record = gen.stage(
        "gate",
        &format!("{test:?}"),
        &inputs,
        &["gate.jsonl"],
        |gen| {
            let code = gen.command("gate", &mut test, &[0, 1, 3])?;
            let verdict = [Verdict::H1, Verdict::H0, Verdict::Inconclusive]
                [[0, 1, 3].iter().position(|&c| c == code).unwrap_or(2)];
            Ok(format!("verdict: {verdict}\n{}", gen.figures("gate")))
        },
    )?;
    Ok(verdict_of(&record.figures))
}

/// The verdict a gate's figures begin with.
fn verdict_of(figures: &str) -> Verdict {
    match figures.lines().next() {
        Some("verdict: H1") => Verdict::H1,
        Some("verdict: H0") => Verdict::H0,
        _ => Verdict::Inconclusive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generation::config::{tests::TOY, Config};

    fn generation(config: &str) -> Generation {
        let config = Config::parse(config).unwrap();
        let exe = std::env::current_dir()
            .unwrap()
            .join("target/release/twixt-train");
        Generation::new(config, "gen6".into(), exe, "twixt-referee".into()).unwrap()
    }

    fn args(command: &Command) -> Vec<String> {
        command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    /// Through `scripts/cluster`, the command after `--` is the local one without what the
    /// script adds to each shard (`--out`, `--resume`) and without the local `--threads`.
    #[test]
    fn the_cluster_runs_the_local_selfplay_line() {
        let local = args(&selfplay_command(&generation(TOY)));
        let toml = TOY.replace(
            "threads = 2",
            r#"cluster = ["--ssh", "m.txt", "--shards", "2"]"#,
        );
        let cluster = selfplay_command(&generation(&toml));
        assert_eq!(cluster.get_program(), "scripts/cluster");
        let cluster = args(&cluster);
        let split = cluster.iter().position(|a| a == "--").unwrap();
        assert_eq!(
            cluster[..split],
            ["--ssh", "m.txt", "--shards", "2", "--dir", "gen6/cluster"]
        );
        // The program under here goes relative, so that the ssh mode sends it.
        assert_eq!(cluster[split + 1], "target/release/twixt-train");
        let mut expected = local.clone();
        let threads = expected.iter().position(|a| a == "--threads").unwrap();
        expected.drain(threads..);
        assert_eq!(cluster[split + 2..], expected[..]);
        assert_eq!(
            local[threads..],
            ["--threads", "2", "--out", "gen6/selfplay.bin", "--resume"]
        );
    }

    /// A starts file goes to `selfplay`, and to the machines of the ssh mode.
    #[test]
    fn a_starts_file_is_passed_on_and_sent() {
        let toml = TOY.replace("seed = 7", "seed = 7\nstarts = \"s.txt\"");
        let local = args(&selfplay_command(&generation(&toml)));
        let at = local.iter().position(|a| a == "--starts").unwrap();
        assert_eq!(local[at + 1], "s.txt");
        let ssh = toml.replace(
            "threads = 2",
            r#"cluster = ["--ssh", "m.txt", "--shards", "2"]"#,
        );
        let cluster = args(&selfplay_command(&generation(&ssh)));
        let split = cluster.iter().position(|a| a == "--").unwrap();
        assert_eq!(cluster[split - 2..split], ["--send", "s.txt"]);
        assert!(cluster[split..].contains(&"--starts".to_string()));
    }

    /// A fit's own `data` replaces the config's for it alone; the new games come last.
    #[test]
    fn each_fit_reads_its_own_data_or_the_configs() {
        let toml = TOY
            .replace("train/data/gen8/shard1.zst:2", "old.zst")
            .replace("[fit]", "[fit]\ndata = [\"newer.zst:9\"]");
        let gen = generation(&toml);
        let new = PathBuf::from("gen6/selfplay.pack");
        let net = data(&gen, &gen.config.net.data);
        assert_eq!(net, [PathBuf::from("old.zst"), new.clone()]);
        assert_eq!(
            data(&gen, &gen.config.fit.data),
            [PathBuf::from("newer.zst:9"), new]
        );
        let command = args(&net_command(&gen, 1, Path::new("v.txt")));
        assert_eq!(command[1..3], ["old.zst", "gen6/selfplay.pack"]);
    }

    #[test]
    fn the_gate_plays_heads_bundle_unless_told_otherwise() {
        assert_eq!(against(&generation(TOY)), "bin:gen6/shipped-bin");
        let toml = TOY.replace("games = 2", "games = 2\nagainst = \"251a39c\"");
        assert_eq!(against(&generation(&toml)), "251a39c");
    }

    #[test]
    fn until_an_unknown_stage_is_refused_naming_the_stages() {
        let err = all(&mut generation(TOY), Some("gates"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("--until gates") && err.contains(&STAGES.join(", ")),
            "{err}"
        );
    }

    #[test]
    fn a_verdict_is_read_back_from_its_figures() {
        for verdict in [Verdict::H1, Verdict::H0, Verdict::Inconclusive] {
            assert_eq!(
                verdict_of(&format!("verdict: {verdict}\nElo: ...")),
                verdict
            );
        }
    }
}
