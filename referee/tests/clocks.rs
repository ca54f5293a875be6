//! Per-engine clocks: engine B's `--first-ms-b`/`--turn-ms-b` follow it into either seat, show
//! in the output, are kept in the record, and a slow engine B loses on time without them. The
//! slow bot answers 400 ms after each turn: 100 ms over the common 300 ms clock, 600 ms within
//! engine B's 1000 ms one (results are asserted, not speed).

mod common;

use common::{bot, records_file, run, run_in, scratch, Run};
use twixt_referee::clocks::Clocks;
use twixt_referee::record::Reason;

const SLOW_B: [&str; 2] = ["--turn-ms-b", "1000"];

fn b_clock() -> Clocks {
    Clocks {
        turn_ms: 1000,
        ..Clocks::default()
    }
}

fn assert_result(run: &Run, winner: u8, detail: &str) {
    let r = run.record();
    assert_eq!(
        (r.winner, r.reason),
        (Some(winner), Reason::Timeout),
        "{}",
        r.detail
    );
    assert!(r.detail.contains(detail), "{:?} lacks {detail:?}", r.detail);
}

#[test]
fn a_slow_engine_b_loses_on_time_under_the_common_clock() {
    let (a, b) = (bot("scripted.sh E5 F7"), bot("slow.sh 0.4 C6 E9"));
    let run = run("clock-common", "game", &a, &b, &[]);
    // Its first answer fits the 1000 ms first turn; its second is late on the 300 ms clock.
    assert_result(&run, 0, "player 1 ");
    assert!(
        run.record().detail.contains("300 ms"),
        "{}",
        run.record().detail
    );
    assert_eq!(run.record().moves, ["E5", "C6", "F7"]);
    assert_eq!(run.record().clocks, Some([Clocks::default(); 2]));
}

#[test]
fn engine_b_with_a_larger_clock_is_not_late() {
    let (a, b) = (bot("scripted.sh E5 F7"), bot("slow.sh 0.4 C6 E9"));
    let run = run("clock-b", "game", &a, &b, &SLOW_B);
    // B answers both turns; A, out of moves, is the one late, on its own 300 ms clock.
    assert_result(&run, 1, "player 0 gave no answer within 300 ms");
    assert_eq!(run.record().moves, ["E5", "C6", "F7", "E9"]);
    assert_eq!(run.record().clocks, Some([Clocks::default(), b_clock()]));
    let out = run.stdout();
    assert!(
        out.contains("slow.sh 0.4 C6 E9 [clock: 1000 ms first turn, 1000 ms later]"),
        "{out}"
    );
}

#[test]
fn engine_b_keeps_its_clock_as_player_zero() {
    let (a, b) = (bot("scripted.sh C6"), bot("slow.sh 0.4 E5 F7"));
    let mut extra = SLOW_B.to_vec();
    extra.push("--swap-seats");
    let run = run("clock-swap", "game", &a, &b, &extra);
    assert_result(&run, 0, "player 1 gave no answer within 300 ms");
    assert_eq!(run.record().clocks, Some([b_clock(), Clocks::default()]));
}

#[test]
fn in_a_match_engine_b_keeps_its_clock_in_both_seats_and_resume_checks_it() {
    let (a, b) = (bot("scripted.sh C6 D8"), bot("slow.sh 0.4 H5 J7 H9"));
    let mut extra = vec!["--games", "2"];
    extra.extend_from_slice(&SLOW_B);
    let run = run("clock-match", "match", &a, &b, &extra);
    let out = run.stdout();
    assert!(out.contains("Games: 2, Wins: 0, Losses: 2"), "{out}");
    assert!(
        out.contains("[clock: 1000 ms first turn, 1000 ms later]"),
        "{out}"
    );
    assert_eq!(run.records.len(), 2);
    for r in &run.records {
        let b_player = 1 - r.slot.unwrap().a_player as usize;
        assert_eq!(r.winner, Some(b_player as u8), "{}", r.detail);
        assert_eq!(r.clocks.unwrap()[b_player], b_clock());
        assert_eq!(r.clocks.unwrap()[1 - b_player], Clocks::default());
    }
    // The same results resumed under the common clock are another match's.
    let dir = scratch("clock-match-resume");
    let text: String = run.records.iter().map(|r| r.to_json() + "\n").collect();
    std::fs::write(records_file(&dir), text).unwrap();
    let again = run_in(&dir, "match", &a, &b, &["--games", "2", "--resume"]);
    let err = String::from_utf8_lossy(&again.output.stderr);
    assert_eq!(again.output.status.code(), Some(2), "{err}");
    assert!(err.contains("under other clocks"), "{err}");
}
