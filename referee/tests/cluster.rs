//! Many machines, for real: `scripts/cluster` and `tune --runner` through GNU parallel over ssh
//! (an sshd this test starts on the loopback) and through a single-node Slurm (munged,
//! slurmctld and slurmd this test starts), each checked against the same run on one machine:
//! the merged self-play file byte for byte, the merged match game for game, the tune's
//! trajectory row for row; on Slurm a `test` too, its merged games naming their engines; a
//! shard killed halfway, then resumed; and `twixt-train generation`'s self-play over ssh. The
//! self-play's folder has a space in its name, and over ssh its program is named by a relative
//! path, so that the script sends it. A test ends only processes it started (by their id, found below its own
//! sshd), so both run at once beside a real self-play run. Without the tools (Debian: parallel
//! rsync openssh-server slurm-wlm munge) a test says so and passes, except in CI (`CI=true`),
//! where it fails.

mod common;
mod machines;

use common::{binary, scratch, unavailable, workspace_root};
use machines::{missing, procs, Slurm, Sshd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use twixt_referee::record::{read_records, GameRecord};

fn ok(out: Output, what: &str) -> String {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        out.status.success(),
        "{what}: {}\n{}\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Asserts that `out` is a failure of `scripts/cluster` with exit status `code` that says
/// `message`.
fn failed(out: Output, code: i32, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(message), "not {message:?}: {stderr}");
}

/// `scripts/cluster ARGS`, from `dir`.
fn cluster(dir: &Path, args: &[String], env: &[(&str, &Path)]) -> Output {
    Command::new(workspace_root().join("scripts/cluster"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The cluster's self-play folder: a space in it must survive the shards' command lines.
const SELF_PLAY: &str = "self play";

/// A self-play run of 12 games, as one machine's command line after `selfplay`.
fn selfplay_args() -> Vec<String> {
    strings(&[
        "--games",
        "12",
        "--iterations",
        "300",
        "--seed",
        "9",
        "--threads",
        "1",
    ])
}

/// The same run on one machine: its file's bytes.
fn one_machine_selfplay(dir: &Path) -> Vec<u8> {
    let out = dir.join("one.bin");
    let mut cmd = Command::new(binary("twixt-train"));
    cmd.arg("selfplay")
        .args(selfplay_args())
        .arg("--out")
        .arg(&out);
    ok(cmd.output().unwrap(), "one machine's self-play");
    std::fs::read(out).unwrap()
}

/// Engine commands of a match whose games repeat (fixed playouts, seeded).
fn bots() -> [String; 2] {
    let bot = binary("twixt-bot");
    [300, 150].map(|n| format!("{} --quiet --playouts {n} --seed {{seed}}", bot.display()))
}

fn match_args() -> Vec<String> {
    let [a, b] = bots();
    let mut args = vec![a, b];
    args.extend(strings(&[
        "--games",
        "8",
        "--random-openings",
        "2",
        "--seed",
        "3",
    ]));
    args
}

/// What makes a game the same game on another machine: not its answer times.
fn games(path: &Path) -> Vec<(Vec<String>, Option<u8>, u64, String)> {
    let mut records: Vec<GameRecord> = read_records(path).unwrap();
    records.sort_by_key(|r| r.slot.map(|s| (s.pair, s.game)));
    records
        .into_iter()
        .map(|r| (r.moves, r.winner, r.seed, format!("{:?}", r.slot)))
        .collect()
}

fn one_machine_match(dir: &Path) -> PathBuf {
    let out = dir.join("one.jsonl");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twixt-referee"));
    cmd.arg("match")
        .args(match_args())
        .arg("--results")
        .arg(&out);
    ok(cmd.output().unwrap(), "one machine's match");
    out
}

/// Asserts that the merged match in `DIR/m` holds the one-machine match's games.
fn assert_match_is_one_machine_s(dir: &Path) {
    assert_eq!(
        games(&dir.join("m/merged.jsonl")),
        games(&one_machine_match(dir))
    );
}

/// The bytes of the merged self-play file in `DIR/self play`.
fn merged_selfplay(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join(SELF_PLAY).join("merged.bin")).unwrap()
}

/// Where `twixt-train` is put in a folder, as the command names it: relative, so that the
/// script sends it to the machines.
const TRAIN: &str = "bin/twixt-train";

/// Puts `twixt-train` at `DIR/bin/twixt-train` (a hard link if it can, else a copy).
fn put_train_in(dir: &Path) {
    let to = dir.join(TRAIN);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    if std::fs::hard_link(binary("twixt-train"), &to).is_err() {
        std::fs::copy(binary("twixt-train"), &to).unwrap();
    }
}

/// The tune's trajectory on one machine, written to `DIR/one.csv`.
fn one_machine_tune(dir: &Path) -> String {
    ok(
        tune(dir, "one.csv", None).output().unwrap(),
        "one machine's tune",
    );
    std::fs::read_to_string(dir.join("one.csv")).unwrap()
}

/// A tune of two iterations of three pairs; with `runner`, through it.
fn tune(dir: &Path, out: &str, runner: Option<&str>) -> Command {
    let bot = binary("twixt-bot");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twixt-referee"));
    cmd.current_dir(dir).args([
        "tune",
        &format!("{} --playouts 100 --seed {{seed}} --quiet", bot.display()),
        "--params",
        "exploration",
        "--iterations",
        "2",
        "--pairs",
        "3",
        "--out",
        out,
    ]);
    if let Some(r) = runner {
        cmd.args(["--runner", r]);
    }
    cmd
}

/// The process of self-play shard `I/3` below process `root`, if it runs.
fn shard_process(root: u32, i: usize) -> Option<u32> {
    let shard = ["--shard".to_string(), format!("{i}/3")];
    procs::descendants(root).into_iter().find(|&pid| {
        let argv = procs::argv(pid);
        argv.get(1).is_some_and(|w| w == "selfplay") && argv.windows(2).any(|w| w == shard)
    })
}

/// Kills the first self-play shard below `sshd` (this test's machines) that has written a
/// game, as a machine that drops out would leave it; true if it found one.
fn kill_a_shard_halfway(sshd: u32, remote: &Path, until: Instant) -> bool {
    while Instant::now() < until {
        for i in 1..=3 {
            let grown = std::fs::metadata(remote.join(SELF_PLAY).join(format!("shard{i}.bin")))
                .is_ok_and(|m| m.len() > 200);
            if grown && shard_process(sshd, i).is_some_and(procs::kill) {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// The machines file: two lines of one job each, both this machine through the test's sshd.
const MACHINES: &str = "1/twixt-a\n1/twixt-b\n";

/// `scripts/cluster --ssh` through `sshd`, run in `remote`, up to COMMAND's `tool sub`.
fn ssh_head(sshd: &Sshd, remote: &Path, out: &str, tool: &str, sub: &str) -> Vec<String> {
    let mut args = strings(&["--ssh", "machines", "--shards", "3", "--dir", out]);
    args.extend([
        "--ssh-command".into(),
        sshd.ssh_command(),
        "--remote-dir".into(),
        remote.display().to_string(),
        "--".into(),
        tool.into(),
        sub.into(),
    ]);
    args
}

/// `scripts/cluster`'s self-play over ssh from `dir`, its program sent to `DIR/remote machine`.
fn ssh_self_play(dir: &Path, sshd: &Sshd) -> Vec<String> {
    std::fs::write(dir.join("machines"), MACHINES).unwrap();
    put_train_in(dir);
    let remote = dir.join("remote machine");
    let mut args = ssh_head(sshd, &remote, SELF_PLAY, TRAIN, "selfplay");
    args.extend(selfplay_args());
    args
}

/// Self-play over ssh: the program named by a relative path is sent to a working folder that
/// lacks it, and the merged shards are the one-machine run's file, the bytes returned.
fn self_play_over_ssh(dir: &Path, sshd: &Sshd) -> Vec<u8> {
    let sent = dir.join("remote machine").join(TRAIN);
    assert!(!sent.exists(), "{} is there before the run", sent.display());
    let args = ssh_self_play(dir, sshd);
    ok(cluster(dir, &args, &[]), "the cluster's self-play");
    assert!(sent.is_file(), "{} was not sent", sent.display());
    let whole = one_machine_selfplay(dir);
    assert_eq!(merged_selfplay(dir), whole, "merged = one machine");
    whole
}

/// A shard killed halfway fails the run, and nothing is merged; the same command resumes it
/// to the one-machine run's bytes, `whole`.
fn killed_and_resumed_over_ssh(again: &Path, sshd: &Sshd, whole: &[u8]) {
    std::fs::create_dir_all(again).unwrap();
    let args = ssh_self_play(again, sshd);
    let run = Command::new(workspace_root().join("scripts/cluster"))
        .args(&args)
        .current_dir(again)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    let remote = again.join("remote machine");
    assert!(
        kill_a_shard_halfway(sshd.pid(), &remote, until),
        "no shard was caught halfway"
    );
    failed(run.wait_with_output().unwrap(), 1, "shard(s) failed");
    let merged = again.join(SELF_PLAY).join("merged.bin");
    assert!(!merged.exists(), "nothing is merged short");
    ok(cluster(again, &args, &[]), "the resumed self-play");
    assert_eq!(merged_selfplay(again), whole, "resumed = one machine");
}

/// A match over ssh: the merged games are the one-machine match's, and the SPRT judges them.
fn match_over_ssh(dir: &Path, sshd: &Sshd) {
    let referee = env!("CARGO_BIN_EXE_twixt-referee");
    let mut args = ssh_head(sshd, &dir.join("remote machine"), "m", referee, "match");
    args.extend(match_args());
    args.extend(strings(&[
        "--sprt",
        "elo0=0",
        "elo1=30",
        "alpha=0.05",
        "beta=0.05",
    ]));
    let out = ok(cluster(dir, &args, &[]), "the cluster's match");
    assert!(
        out.contains("--- merged: 8 games ---") && out.contains("LLR"),
        "{out}"
    );
    assert_match_is_one_machine_s(dir);
}

/// A tune whose pairs go through parallel over ssh: its trajectory is the one-machine run's.
fn tune_over_ssh(dir: &Path, sshd: &Sshd) {
    let one = one_machine_tune(dir);
    let runner = format!(
        "parallel --will-cite --ssh '{}' --sshloginfile machines",
        sshd.ssh_command()
    );
    ok(
        tune(dir, "ssh.csv", Some(&runner)).output().unwrap(),
        "the tune over ssh",
    );
    let csv = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert_eq!(csv("ssh.csv"), one);
}

/// `twixt-train generation`'s self-play stage through `scripts/cluster --ssh` (run from the
/// workspace root, its folder given relative to it): its `selfplay.bin` is the one-machine
/// run's file, `whole`.
fn generation_over_ssh(dir: &Path, sshd: &Sshd, whole: &[u8]) {
    let root = workspace_root();
    let here = |p: &Path| p.strip_prefix(root).unwrap().display().to_string();
    let cluster = [
        "--ssh".into(),
        here(&dir.join("machines")),
        "--shards".into(),
        "3".into(),
        "--ssh-command".into(),
        sshd.ssh_command(),
        "--remote-dir".into(),
        dir.join("generation remote").display().to_string(),
    ];
    let config = format!(
        "name = \"remote\"\n[selfplay]\ngames = 12\niterations = 300\nseed = 9\ncluster = {cluster:?}\n\
         [net]\ninit = \"train/models/value.txt\"\nepochs = 1\nrow_bits = 7\n[fit]\n\
         [gate]\ngames = 2\nsprt = [\"elo0=0\"]\n"
    );
    std::fs::write(dir.join("generation.toml"), config).unwrap();
    let gen = dir.join("generation");
    let out = Command::new(binary("twixt-train"))
        .args(["generation", "--until", "selfplay", "--config"])
        .arg(dir.join("generation.toml"))
        .args(["--dir", &here(&gen)])
        .current_dir(root)
        .output()
        .unwrap();
    ok(out, "the generation's self-play over ssh");
    assert_eq!(std::fs::read(gen.join("selfplay.bin")).unwrap(), whole);
}

#[test]
fn self_play_a_match_and_a_tune_over_ssh_are_one_machine_s() {
    let lack = missing(&["parallel", "rsync", "ssh", "ssh-keygen", "sshd", "kill"]);
    if !lack.is_empty() {
        unavailable(&format!(
            "NO GNU PARALLEL OVER SSH: {lack:?} missing; the cluster test did not run"
        ));
        return;
    }
    let dir = scratch("cluster-ssh");
    let sshd = Sshd::start(&dir);
    let whole = self_play_over_ssh(&dir, &sshd);
    generation_over_ssh(&dir, &sshd, &whole);
    killed_and_resumed_over_ssh(&dir.join("again"), &sshd, &whole);
    match_over_ssh(&dir, &sshd);
    tune_over_ssh(&dir, &sshd);
}

#[test]
fn self_play_a_match_and_a_tune_on_slurm_are_one_machine_s() {
    let lack = missing(&[
        "sbatch",
        "srun",
        "sinfo",
        "slurmctld",
        "slurmd",
        "munged",
        "mungekey",
        "parallel",
    ]);
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if !lack.is_empty() || !root {
        unavailable(&format!(
            "NO SINGLE-NODE SLURM: {lack:?} missing{}; the cluster test did not run",
            if root {
                ""
            } else {
                ", or not root (slurmd runs as root)"
            }
        ));
        return;
    }
    let dir = scratch("cluster-slurm");
    let slurm = Slurm::start(&dir);
    let env = [("SLURM_CONF", slurm.conf.as_path())];
    self_play_on_slurm(&dir, &env);
    failures_on_slurm(&dir, &env);
    match_on_slurm(&dir, &env);
    test_on_slurm(&dir, &env);
    tune_on_slurm(&dir, &env);
}

/// `scripts/cluster --slurm --wait` of `shards` into `out`, up to COMMAND's `tool sub`.
fn slurm_head(shards: u32, out: &str, tool: &Path, sub: &str) -> Vec<String> {
    let mut args = strings(&["--slurm", "--wait", "--shards", &shards.to_string()]);
    args.extend(strings(&["--dir", out, "--"]));
    args.extend([tool.display().to_string(), sub.to_string()]);
    args
}

/// Self-play as an array job: the merged shards are the one-machine run's file.
fn self_play_on_slurm(dir: &Path, env: &[(&str, &Path)]) {
    let mut args = slurm_head(3, SELF_PLAY, &binary("twixt-train"), "selfplay");
    args.extend(selfplay_args());
    ok(cluster(dir, &args, env), "the array job's self-play");
    let whole = one_machine_selfplay(dir);
    assert_eq!(merged_selfplay(dir), whole, "merged = one machine");
}

/// Each failure says which it is: sbatch refusing the array job, a shard that failed (so that
/// the merge job never ran: `sbatch --wait` succeeds on a job cancelled before it ran), or the
/// merge job failing.
fn failures_on_slurm(dir: &Path, env: &[(&str, &Path)]) {
    let train = binary("twixt-train");
    let mut args = strings(&["--sbatch", "--partition=nowhere"]);
    args.extend(slurm_head(3, "refused", &train, "selfplay"));
    args.extend(selfplay_args());
    failed(cluster(dir, &args, env), 1, "sbatch refused the array job");

    // A % in the folder is Slurm's pattern character: each task's log must still be its own.
    let broken = "broken 100%";
    let mut args = slurm_head(2, broken, &train, "selfplay");
    args.extend(selfplay_args());
    args.push("--no-such-option".into());
    failed(cluster(dir, &args, env), 1, "failed or a job was cancelled");
    let log = std::fs::read_to_string(dir.join(broken).join("shard-2.log")).unwrap();
    assert!(log.contains("--no-such-option"), "{log}");

    let mut args = slurm_head(1, "unmerged", &train_that_cannot_merge(dir), "selfplay");
    args.extend(strings(&["--games", "1", "--iterations", "20"]));
    failed(cluster(dir, &args, env), 1, "failed (its log above)");
}

/// `DIR/no-merge`: `twixt-train`, except that its `merge` fails.
fn train_that_cannot_merge(dir: &Path) -> PathBuf {
    let path = dir.join("no-merge");
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = merge ] && {{ echo no merge here >&2; exit 3; }}\nexec {} \"$@\"\n",
        binary("twixt-train").display()
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A match as an array job: the merged games are the one-machine match's.
fn match_on_slurm(dir: &Path, env: &[(&str, &Path)]) {
    let referee = Path::new(env!("CARGO_BIN_EXE_twixt-referee"));
    let mut args = slurm_head(3, "m", referee, "match");
    args.extend(match_args());
    let out = ok(cluster(dir, &args, env), "the array job's match");
    assert!(out.contains("--- merged: 8 games ---"), "{out}");
    assert_match_is_one_machine_s(dir);
}

/// A test between two binaries as an array job: the merged games name what played them.
fn test_on_slurm(dir: &Path, env: &[(&str, &Path)]) {
    let referee = Path::new(env!("CARGO_BIN_EXE_twixt-referee"));
    let engine = format!("bin:{}", common::bot("quick.sh"));
    let mut args = slurm_head(2, "t", referee, "test");
    args.extend([engine.clone(), engine]);
    args.extend(strings(&["--games", "4", "--openings", "random"]));
    let bot = binary("twixt-bot");
    let env: Vec<(&str, &Path)> = env.iter().copied().chain([("TWIXT_BOT", &*bot)]).collect();
    let out = ok(cluster(dir, &args, &env), "the array job's test");
    assert!(out.contains("--- merged: 4 games ---"), "{out}");
    let merged = read_records(&dir.join("t/merged.jsonl")).unwrap();
    let labels = |r: &GameRecord| [&r.engine0, &r.engine1].map(|e| e.clone().map(|e| e.label));
    assert!(merged
        .iter()
        .all(|r| labels(r) == [Some("quick.sh".into()), Some("quick.sh".into())]));
}

/// A tune in a two-task allocation, its slices run by srun: its trajectory is the one-machine
/// run's.
fn tune_on_slurm(dir: &Path, env: &[(&str, &Path)]) {
    let one = one_machine_tune(dir);
    let runner = "parallel --will-cite -j 2 srun -N1 -n1 --exclusive sh -c {}";
    let tuned = tune(dir, "srun.csv", Some(runner));
    let words: Vec<String> = std::iter::once(tuned.get_program())
        .chain(tuned.get_args())
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let line = shlex::try_join(words.iter().map(String::as_str)).unwrap();
    let mut sbatch = Command::new("sbatch");
    sbatch
        .args(["--wait", "-n", "2", "--output", "tune.log", "--wrap", &line])
        .current_dir(dir)
        .envs(env.iter().copied());
    ok(sbatch.output().unwrap(), "sbatch of the tune");
    let csv = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert_eq!(csv("srun.csv"), one, "{}", csv("tune.log"));
}

/// What the user typed wrong is refused before anything runs, each with its own message.
#[test]
fn the_script_names_each_refusal() {
    let dir = scratch("cluster-refusals");
    let rest = "--shards 3 --dir d -- t selfplay --games 3";
    let cases = [
        ("--ssh".to_string(), "--ssh needs a file of machines"),
        ("--slurm --shards".into(), "--shards needs a number"),
        (
            "--slurm --shards 3 --dir -- t selfplay".into(),
            "--dir needs a folder",
        ),
        (
            format!("--ssh m --slurm {rest}"),
            "give --ssh or --slurm, not both",
        ),
        (
            format!("--ssh m --sbatch -c2 {rest}"),
            "--sbatch is for --slurm",
        ),
        (format!("--ssh m --wait {rest}"), "--wait is for --slurm"),
        (
            format!("--slurm --remote-dir r {rest}"),
            "--remote-dir is for --ssh",
        ),
        (
            format!("--slurm {rest}").replace("--games 3", "--games"),
            "--games in COMMAND needs",
        ),
        (
            format!("--slurm {rest}").replace(" --games 3", ""),
            "COMMAND needs --games",
        ),
        (
            format!("--slurm {rest} --report r.html").replace("selfplay", "test a b"),
            "leave --report out of COMMAND",
        ),
    ];
    for (line, message) in cases {
        let args: Vec<String> = line.split(' ').map(String::from).collect();
        failed(cluster(&dir, &args, &[]), 2, message);
    }
    assert!(!dir.join("d").exists(), "a refusal made the folder");
}
