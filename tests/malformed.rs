//! Malformed turn inputs piped into the built `twixt-bot`: whatever the input, the bot names
//! its problems and answers, and nothing panics, neither uncaught (status 101) nor caught
//! inside the search (the bot would still answer, with a fallback move).

mod bot_process;

use bot_process::{run_bot, BotRun};
use proptest::prelude::*;
use twixt::Move;

/// Fails unless the run ended in an answer or a named refusal, with no panic anywhere.
fn assert_sound(run: &BotRun, input: &str) {
    assert!(
        run.code == 0 || run.code == 2,
        "status {}\n{input}\nstderr:\n{}",
        run.code,
        run.stderr
    );
    for sign in ["panicked", "the search failed", "no search result"] {
        assert!(
            !run.stderr.contains(sign),
            "'{sign}' on stderr\ninput:\n{input}\nstderr:\n{}",
            run.stderr
        );
    }
    for line in run.stdout.lines() {
        let word = line.split_whitespace().next().unwrap_or("");
        assert!(word.parse::<Move>().is_ok(), "answer {line:?}\n{input}");
    }
}

/// The input of the review that found the network indexing input 65535: player 0's peg on
/// L8, its opponent's border.
#[test]
fn a_peg_on_its_owner_s_forbidden_border_is_named_and_left_out() {
    let input = "A1 B2\n0\n1\nx\n3\nl8\nx\nx\nQ0 Q5\n\n";
    let run = run_bot(input, 200, 1);
    assert_sound(&run, input);
    assert!(
        run.stderr
            .contains("line 6: peg L8 is on the opponent's border"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
}

/// A hole's name, now and then a name off the board or no name at all.
fn hole() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (0u8..12, 1u8..=12).prop_map(|(x, y)| format!("{}{y}", (b'A' + x) as char)),
        1 => "[a-nA-N][0-9]{1,2}",
        1 => "[A-Z0-9x ]{0,4}",
    ]
}

/// A segment: mostly a knight's move from a hole (which may leave the board), sometimes two
/// holes drawn apart.
fn segment() -> impl Strategy<Value = String> {
    const KNIGHT: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, 2),
        (-2, 1),
        (-2, -1),
        (-1, -2),
    ];
    prop_oneof![
        4 => (0i8..12, 0i8..12, 0usize..8).prop_map(|(x, y, k)| {
            let name = |x: i8, y: i8| format!("{}{}", (b'A' as i8 + x) as u8 as char, y + 1);
            let (dx, dy) = KNIGHT[k];
            format!("{} {}", name(x, y), name(x + dx, y + dy))
        }),
        1 => (hole(), hole()).prop_map(|(a, b)| format!("{a} {b}")),
    ]
}

/// A list of items after its count line: the true count, or now and then another number or
/// none.
fn listed(item: BoxedStrategy<String>, most: usize) -> impl Strategy<Value = String> {
    let count = prop_oneof![8 => Just(None), 1 => (0u32..20).prop_map(Some), 1 => Just(Some(999))];
    (prop::collection::vec(item, 0..most), count).prop_map(|(items, count)| {
        let n = count.map_or(items.len().to_string(), |n| n.to_string());
        std::iter::once(n)
            .chain(items)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// One turn: the last move's line, then pegs and segments of each player.
fn turn() -> impl Strategy<Value = String> {
    let last = prop_oneof![Just("FIRST".to_string()), Just("SWAP".to_string()), hole()];
    (
        last,
        listed(hole().boxed(), 14),
        listed(segment().boxed(), 8),
        listed(hole().boxed(), 14),
        listed(segment().boxed(), 8),
    )
        .prop_map(|(l, a, b, c, d)| [l, a, b, c, d].join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_malformed_turns_never_make_the_bot_panic(
        turns in prop::collection::vec(turn(), 1..4),
        seed in 0u64..1000,
    ) {
        let input = turns.join("\n") + "\n";
        assert_sound(&run_bot(&input, 30, seed), &input);
    }
}
