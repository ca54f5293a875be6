//! Every fault loses with the right reason, its process group is killed, and the referee
//! returns promptly (a hang check with a generous bound, not a speed test).

mod common;

use common::{assert_all_dead, bot, game};
use std::time::Duration;
use twixt_referee::record::Reason;

/// Generous: the clock plus 2 s for start-up and a loaded machine.
fn bound(clock_ms: u64) -> Duration {
    Duration::from_millis(clock_ms + 2000)
}

/// The well-behaved engine's clock: generous, so that only the faulty one can be late,
/// however loaded the machine.
const GOOD_MS: &str = "3000";

/// A game of `a` (player 0) and `b`, the faulty one, whose clock is `clock_ms` on every turn.
fn with_faulty_b(name: &str, a: &str, b: &str, clock_ms: u64) -> common::Run {
    let clock = clock_ms.to_string();
    let clocks = ["--first-ms", GOOD_MS, "--turn-ms", GOOD_MS];
    let b_clocks = ["--first-ms-b", &clock, "--turn-ms-b", &clock];
    let mut args = clocks.to_vec();
    args.extend_from_slice(&b_clocks);
    common::run(name, "game", a, b, &args)
}

/// Player 0 is a scripted bot playing E5 F7 ...; player 1 is `faulty`. Returns the run.
fn faulty_second(name: &str, faulty: &str, clock_ms: u64) -> common::Run {
    let good = bot("scripted.sh E5 F7 G9 H11");
    with_faulty_b(name, &good, &bot(faulty), clock_ms)
}

fn assert_lost_by(run: &common::Run, loser: u8, reason: Reason, detail: &str) {
    let r = run.record();
    assert_eq!(r.winner, Some(1 - loser), "{}", r.detail);
    assert_eq!(r.reason, reason, "{}", r.detail);
    assert!(r.detail.contains(detail), "{:?} lacks {detail:?}", r.detail);
    assert!(run.output.status.success(), "a played game exits 0");
}

#[test]
fn a_sleeper_times_out_and_its_child_dies() {
    let run = faulty_second("sleeper", "sleeper.sh", 300);
    assert_lost_by(
        &run,
        1,
        Reason::Timeout,
        "player 1 gave no answer within 300 ms",
    );
    assert!(run.elapsed < bound(300), "took {:?}", run.elapsed);
    assert_all_dead(&run.dir);
}

#[test]
fn a_bot_that_exits_at_once_crashes() {
    let run = faulty_second("exits", "exits.sh", 1000);
    assert_lost_by(&run, 1, Reason::Crash, "exited (exit status: 3)");
    assert!(run.elapsed < bound(1000));
}

#[test]
fn garbage_is_an_illegal_answer() {
    let run = faulty_second("garbage", "garbage.sh", 1000);
    assert_lost_by(&run, 1, Reason::Illegal, "malformed answer \"hello\"");
}

#[test]
fn a_silent_bot_times_out_and_is_killed() {
    let run = faulty_second("silent", "silent.sh", 300);
    assert_lost_by(&run, 1, Reason::Timeout, "no answer within 300 ms");
    assert!(run.elapsed < bound(300));
    assert_all_dead(&run.dir);
}

#[test]
fn an_occupied_hole_is_illegal() {
    let run = faulty_second("occupied", "scripted.sh E5", 1000);
    assert_lost_by(&run, 1, Reason::Illegal, "played E5: E5 already has a peg");
    assert_eq!(run.record().moves, vec!["E5"]);
}

#[test]
fn a_barred_hole_is_illegal() {
    let run = faulty_second("barred", "scripted.sh E1", 1000);
    assert_lost_by(
        &run,
        1,
        Reason::Illegal,
        "played E1: E1 is on the opponent's border",
    );
}

#[test]
fn swap_is_illegal_for_player_zero_and_late_for_player_one() {
    let run = game(
        "swap0",
        &bot("scripted.sh SWAP"),
        &bot("scripted.sh E5"),
        1000,
        1000,
    );
    assert_lost_by(
        &run,
        0,
        Reason::Illegal,
        "played SWAP: SWAP is allowed only",
    );
    let run = faulty_second("swap1", "scripted.sh D4 SWAP", 1000);
    assert_lost_by(&run, 1, Reason::Illegal, "played SWAP");
    assert_eq!(run.record().moves, vec!["E5", "D4", "F7"]);
}

#[test]
fn a_bot_that_leaves_a_child_holding_its_output_crashes_and_the_child_dies() {
    let run = faulty_second("orphan", "orphan.sh", 1000);
    assert_lost_by(
        &run,
        1,
        Reason::Crash,
        "exited (exit status: 0) without answering",
    );
    assert!(run.elapsed < bound(1000));
    assert_all_dead(&run.dir);
}

#[test]
fn closing_the_output_is_a_crash() {
    let run = faulty_second("closes", "closes_output.sh", 1000);
    assert_lost_by(&run, 1, Reason::Crash, "closed its output");
    assert!(run.elapsed < bound(1000));
    assert_all_dead(&run.dir);
}

#[test]
fn a_late_answer_is_a_timeout() {
    let run = faulty_second("late", "late.sh 0.25", 200);
    assert_lost_by(&run, 1, Reason::Timeout, "player 1 ");
    assert!(run.elapsed < bound(200));
    assert_all_dead(&run.dir);
}

#[test]
fn a_flood_without_newline_neither_hangs_nor_fills_memory() {
    let run = faulty_second("flood", "flood.sh", 300);
    assert_lost_by(&run, 1, Reason::Timeout, "no answer within 300 ms");
    assert!(run.elapsed < bound(300));
    assert_all_dead(&run.dir);
}

#[test]
fn faults_of_player_zero_lose_too() {
    // The faulty engine as B (it keeps its clock in either seat), given player 0's seat.
    let clocks = ["--first-ms", GOOD_MS, "--turn-ms", GOOD_MS];
    let mut args = clocks.to_vec();
    args.extend_from_slice(&["--first-ms-b", "300", "--turn-ms-b", "300", "--swap-seats"]);
    let run = common::run(
        "sleeper0",
        "game",
        &bot("scripted.sh E5"),
        &bot("sleeper.sh"),
        &args,
    );
    assert_lost_by(
        &run,
        0,
        Reason::Timeout,
        "player 0 gave no answer within 300 ms",
    );
    assert!(run.elapsed < bound(300));
    assert_all_dead(&run.dir);
}

#[test]
fn an_interrupted_referee_kills_its_bots() {
    let dir = common::scratch("sigint");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_twixt-referee"))
        .args([
            "game",
            &bot("sleeper.sh"),
            &bot("sleeper.sh"),
            "--first-ms",
            "60000",
        ])
        .env("FAULT_PIDS", dir.join("pids"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first sleeper has started its child, then interrupt the referee.
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(dir.join("pids")).map_or(0, |t| t.lines().count()) < 3 {
        assert!(
            std::time::Instant::now() < until,
            "the sleepers did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a plain kill of the referee we started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_all_dead(&dir);
}

#[test]
fn an_answer_written_before_leaving_still_counts() {
    // The blurting bot answers E5 and exits without reading: E5 is played, and the bot crashes
    // on its next turn.
    let run = game(
        "blurt",
        &bot("blurt.sh E5"),
        &bot("scripted.sh E7"),
        1000,
        1000,
    );
    let r = run.record();
    assert_eq!(r.moves, vec!["E5", "E7"]);
    assert_eq!(
        (r.winner, r.reason),
        (Some(1), Reason::Crash),
        "{}",
        r.detail
    );
}

#[test]
fn a_margin_gives_every_turn_more_time() {
    let (a, b) = (bot("scripted.sh E5 F7"), bot("late.sh 0.25"));
    let extra = ["--first-ms", "200", "--margin", "1000"];
    let run = common::run("margin", "game", &a, &b, &extra);
    let r = run.record();
    // The answer came after 250 ms of a 200 ms clock, within the margin: it was read (and E5
    // is taken).
    assert_eq!(r.reason, Reason::Illegal, "{}", r.detail);
    assert!(r.detail.contains("played E5: E5 already has a peg"));
}
