//! `twixt-referee test A B`: OpenBench's kind of test, two commits in and an Elo out. A and B
//! are commits, built as CodinGame runs them ([`crate::build`]), or binaries (`bin:PATH`);
//! they play a match by `match`'s own machinery (pairs with seats swapped, SPRT or a fixed
//! count, resume, shards) at CodinGame's clocks unless told, from the balanced book, random
//! pegs or the empty board, and every game's record names what played each seat.

use crate::build::cache::{sha256_file, Cache, BINARY};
use crate::build::{build_commit, commit, repo_root, shown};
use crate::engines::{EngineOptions, Engines};
use crate::matches::{run_printed, MatchConfig, MatchOptions};
use crate::record::{read_readable, EngineId};
use crate::report;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// The balanced book, from the repository's top folder.
pub const BALANCED_BOOK: &str = "docs/openings/balanced-gen13.txt";

/// Random pegs a pair starts from with `--openings random` (as the recorded matches did).
pub const RANDOM_PEGS: usize = 2;

/// The options of `test`: `match`'s, its `--openings` taking `balanced`, `random` or `empty`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("openings", |a| a.value_name("balanced|random|empty|FILE").help(
    "Where each pair starts: the balanced book (docs/openings/balanced-gen13.txt, the \
     default), two random pegs, the empty board, or a file of one opening a line"
)))]
#[command(mut_arg("results", |a| a.help(
    "Keep one JSON line per game here [default: target/tests/test-A-vs-B-OPENINGS.jsonl, A \
     and B short hashes or file names]"
)))]
// `match`'s --resume needs --results; a test has a results file of its own.
#[command(mut_arg("resume", |_| clap::Arg::new("resume")
    .long("resume")
    .action(clap::ArgAction::SetTrue)
    .help("Go on with the games already in the results file")))]
pub struct TestArgs {
    /// Engine A, the one the statistics are about: a commit (anything `git rev-parse` takes),
    /// or `bin:PATH` for a binary.
    pub a: String,
    /// Engine B: a commit, or `bin:PATH`.
    pub b: String,
    /// The HTML report to write [default: target/tests/RESULTS.html, RESULTS the results
    /// file's name; none for a shard, whose games are a slice].
    #[arg(long, value_name = "FILE.html", conflicts_with = "shard")]
    pub report: Option<PathBuf>,
    /// Flags both bots are given after their seed, such as "--playouts 50" for a quick
    /// screen; a verdict is made without, at the clocks the bots are judged by.
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub bot_args: Option<String>,
    #[command(flatten)]
    pub options: MatchOptions,
    #[command(flatten)]
    pub engines: EngineOptions,
}

/// Where a test's pairs start.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Start {
    Book(PathBuf),
    Random(usize),
    Empty,
}

impl Start {
    /// What `--openings` (and `--random-openings`) ask for; a bare `test` plays the balanced
    /// book.
    fn of(options: &MatchOptions, root: &Path) -> Start {
        let balanced = Start::Book(root.join(BALANCED_BOOK));
        match (&options.openings, options.random_openings) {
            (Some(file), _) => match file.to_str() {
                Some("balanced") => balanced,
                Some("random") => Start::Random(RANDOM_PEGS),
                Some("empty") => Start::Empty,
                _ => Start::Book(file.clone()),
            },
            (None, Some(pegs)) => Start::Random(pegs),
            (None, None) => balanced,
        }
    }

    /// Its name in the default results file's.
    fn name(&self, root: &Path) -> String {
        match self {
            Start::Book(file) if *file == root.join(BALANCED_BOOK) => "balanced".into(),
            Start::Book(file) => file
                .file_stem()
                .map_or("book".into(), |s| s.to_string_lossy().into_owned()),
            Start::Random(RANDOM_PEGS) => "random".into(),
            Start::Random(pegs) => format!("random{pegs}"),
            Start::Empty => "empty".into(),
        }
    }

    /// `options` with the openings as `match` reads them.
    fn apply(self, mut options: MatchOptions) -> MatchOptions {
        (options.openings, options.random_openings) = match self {
            Start::Book(file) => (Some(file), None),
            Start::Random(pegs) => (None, Some(pegs)),
            Start::Empty => (None, None),
        };
        options
    }
}

/// Builds A and B, plays the test, writes its report; the exit code is `match`'s.
pub fn run(args: TestArgs) -> Result<i32> {
    let root = repo_root();
    let cache = Cache::at(&root);
    let mut ids = [
        engine(&cache, &root, &args.a).context("engine A")?,
        engine(&cache, &root, &args.b).context("engine B")?,
    ];
    if let Some(flags) = &args.bot_args {
        let words = shlex::split(flags).with_context(|| format!("--bot-args {flags:?}"))?;
        let quoted = shlex::try_join(words.iter().map(String::as_str))
            .with_context(|| format!("--bot-args {flags:?}: cannot be quoted"))?;
        for id in &mut ids {
            id.cmd = format!("{} {quoted}", id.cmd);
        }
    }
    let start = Start::of(&args.options, &root);
    let mut options = start.clone().apply(args.options);
    let results = options.results.take().unwrap_or_else(|| {
        let name = format!(
            "test-{}-vs-{}-{}",
            ids[0].label,
            ids[1].label,
            start.name(&root)
        );
        root.join("target/tests").join(name + ".jsonl")
    });
    check_results(&results, options.resume)?;
    options.results = Some(results.clone());
    let report = args.report.clone().or_else(|| {
        let name = results.file_stem().unwrap_or_default().to_string_lossy();
        let default = root.join("target/tests").join(format!("{name}.html"));
        options.shard.is_none().then_some(default)
    });
    let mut engines = Engines::new(&ids[0].cmd, &ids[1].cmd, &args.engines)?;
    engines.ids = ids.clone().map(Some);
    let cfg = MatchConfig::new(engines, options)?;
    println!("{}", heading(&ids, &start, &results));
    let end = run_printed(&cfg, [&ids[0].label, &ids[1].label])?;
    if let Some(page) = report {
        write_report(&results, &page, &cfg)?;
    }
    Ok(end.exit_code())
}

/// What an argument names: `bin:PATH` a binary, anything else a commit (built if need be).
fn engine(cache: &Cache, root: &Path, arg: &str) -> Result<EngineId> {
    if let Some(path) = arg.strip_prefix("bin:") {
        let path = Path::new(path);
        if !path.is_file() {
            bail!("{arg}: no such file");
        }
        let commit = cached_commit(path);
        let label = match &commit {
            Some(sha) => sha[..7].to_string(),
            None => path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into(),
        };
        return Ok(EngineId {
            label,
            commit,
            sha256: Some(sha256_file(path)?),
            cmd: seeded(path)?,
        });
    }
    let built = build_commit(cache, root, arg)?;
    Ok(EngineId {
        label: commit::label(arg, &built.commit),
        cmd: seeded(&shown(&built.binary))?,
        commit: Some(built.commit),
        sha256: None,
    })
}

/// The commit of a binary from `build`'s cache (`.../commits/<full hash>/twixt-codingame`,
/// as sent to machines that have no repository), which names it better than its file name.
fn cached_commit(path: &Path) -> Option<String> {
    let dir = path.parent()?;
    let sha = dir.file_name()?.to_str()?;
    let hex = sha.len() == 40 && sha.chars().all(|c| c.is_ascii_hexdigit());
    let cached = path.file_name()? == BINARY && dir.parent()?.file_name()? == "commits";
    (hex && cached).then(|| sha.to_string())
}

/// The command of a binary in a match: a seed of its own each game.
fn seeded(program: &Path) -> Result<String> {
    let text = program
        .to_str()
        .with_context(|| format!("{}: not a UTF-8 path", program.display()))?;
    let quoted = shlex::try_quote(text).with_context(|| format!("{text}: cannot be quoted"))?;
    Ok(format!("{quoted} --seed {{seed}}"))
}

/// A results file that holds games is gone on with by `--resume` only: another run's games
/// are never mixed in by accident.
fn check_results(results: &Path, resume: bool) -> Result<()> {
    let holds_games = std::fs::metadata(results).is_ok_and(|m| m.len() > 0);
    if holds_games && !resume {
        bail!(
            "{} holds games already: --resume goes on with them (or give another --results)",
            results.display()
        );
    }
    if let Some(dir) = results.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    Ok(())
}

/// The test's first lines: what A and B are, the openings, where the games go.
fn heading(ids: &[EngineId; 2], start: &Start, results: &Path) -> String {
    let what = |id: &EngineId| match (&id.commit, &id.sha256) {
        (Some(sha), _) => format!("{} (commit {sha})", id.label),
        (None, Some(sum)) => format!("{} (sha256 {sum})", id.label),
        (None, None) => id.label.clone(),
    };
    let openings = match start {
        Start::Book(file) => format!("the openings of {}", shown(file).display()),
        Start::Random(pegs) => format!("{pegs} random pegs"),
        Start::Empty => "the empty board".into(),
    };
    format!(
        "test: A = {}, B = {}\nfrom {openings}; games in {}",
        what(&ids[0]),
        what(&ids[1]),
        shown(results).display()
    )
}

fn write_report(results: &Path, page: &Path, cfg: &MatchConfig) -> Result<()> {
    let source = shown(results).display().to_string();
    let made = report::match_report(read_readable(results)?, &source, cfg.sprt.as_ref())?;
    if let Some(dir) = page.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    std::fs::write(page, made.html).with_context(|| page.display().to_string())?;
    println!("report: {}", shown(page).display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::options;

    fn start(args: &[&str]) -> (Start, String) {
        let root = Path::new("/repo");
        let s = Start::of(&options::<MatchOptions>(args), root);
        let name = s.name(root);
        (s, name)
    }

    #[test]
    fn openings_are_named_by_a_word_and_default_to_the_balanced_book() {
        let book = Start::Book(PathBuf::from("/repo/docs/openings/balanced-gen13.txt"));
        assert_eq!(start(&[]), (book.clone(), "balanced".into()));
        assert_eq!(
            start(&["--openings", "balanced"]),
            (book, "balanced".into())
        );
        assert_eq!(
            start(&["--openings", "random"]),
            (Start::Random(2), "random".into())
        );
        assert_eq!(
            start(&["--openings", "empty"]),
            (Start::Empty, "empty".into())
        );
        assert_eq!(
            start(&["--random-openings", "3"]),
            (Start::Random(3), "random3".into())
        );
        let file = Start::Book(PathBuf::from("my/lines.txt"));
        assert_eq!(
            start(&["--openings", "my/lines.txt"]),
            (file, "lines".into())
        );
    }

    #[test]
    fn the_match_reads_the_openings_the_test_names() {
        let o = |s: Start| s.apply(options::<MatchOptions>(&["--openings", "x"]));
        let book = o(Start::Book("b.txt".into()));
        assert_eq!(
            (book.openings, book.random_openings),
            (Some("b.txt".into()), None)
        );
        let random = o(Start::Random(2));
        assert_eq!((random.openings, random.random_openings), (None, Some(2)));
        let empty = o(Start::Empty);
        assert_eq!((empty.openings, empty.random_openings), (None, None));
    }

    #[test]
    fn a_binary_is_named_by_its_file_or_cached_commit_and_its_hash() {
        let dir = std::env::temp_dir().join(format!("twixt-abtest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bot = dir.join("my bot");
        std::fs::write(&bot, "abc").unwrap();
        let cache = Cache::at(&dir);
        let id = engine(&cache, &dir, &format!("bin:{}", bot.display())).unwrap();
        assert_eq!(id.label, "my bot");
        assert_eq!(id.commit, None);
        assert_eq!(
            id.sha256.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert_eq!(id.cmd, format!("'{}' --seed {{seed}}", bot.display()));
        let sha = "251a39c374fc576c283e3c87dd7cab28becb4b65";
        let built = dir.join("commits").join(sha).join(BINARY);
        std::fs::create_dir_all(built.parent().unwrap()).unwrap();
        std::fs::write(&built, "abc").unwrap();
        let id = engine(&cache, &dir, &format!("bin:{}", built.display())).unwrap();
        assert_eq!(
            (id.label.as_str(), id.commit.as_deref()),
            ("251a39c", Some(sha))
        );
        assert!(id.sha256.is_some());
        let missing = engine(&cache, &dir, "bin:/no/such/bot").unwrap_err();
        assert_eq!(missing.to_string(), "bin:/no/such/bot: no such file");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_results_file_with_games_needs_resume() {
        let dir = std::env::temp_dir().join(format!("twixt-abtest-r-{}", std::process::id()));
        let file = dir.join("sub/r.jsonl");
        check_results(&file, false).unwrap();
        assert!(dir.join("sub").is_dir(), "its folder is made");
        std::fs::write(&file, "").unwrap();
        check_results(&file, false).unwrap();
        std::fs::write(&file, "{}\n").unwrap();
        let err = check_results(&file, false).unwrap_err().to_string();
        assert!(err.ends_with(
            "holds games already: --resume goes on with them (or give another --results)"
        ));
        check_results(&file, true).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
