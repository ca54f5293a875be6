//! The fast board against the slow reference: thousands of seeded random games, swaps
//! included; after every move both must agree on pegs, links, legal holes, swap, turn and
//! result, and the incremental crossing counters must equal counters rebuilt from scratch.

mod random_games;

use random_games::{fast_links, random_move};
use twixt::rng::FastRng;
use twixt::setup::Setup;
use twixt::{Player, Position};
use twixt_reference::RefGame;

const GAMES: u64 = 3000;

fn assert_same(fast: &Position, slow: &RefGame, ctx: &str) {
    assert_eq!(fast.to_move(), slow.to_move(), "{ctx}: turn");
    assert_eq!(fast.swap_allowed(), slow.swap_allowed(), "{ctx}: swap");
    for p in Player::BOTH {
        let pegs: Vec<_> = fast.board().pegs(p).iter().collect();
        assert_eq!(pegs, slow.pegs(p), "{ctx}: pegs of {p}");
        assert_eq!(fast_links(fast, p), slow.links(p), "{ctx}: links of {p}");
        let holes: Vec<_> = fast.board().legal_holes(p).iter().collect();
        assert_eq!(holes, slow.legal_holes(p), "{ctx}: legal holes of {p}");
    }
    for c in twixt::Cell::all() {
        let by_pegs = Player::BOTH
            .into_iter()
            .find(|&p| fast.board().pegs(p).has(c));
        assert_eq!(fast.board().owner(c), by_pegs, "{ctx}: owner of {c}");
    }
    assert_eq!(fast.outcome(), slow.outcome(), "{ctx}: result");
    assert_eq!(fast.legal_moves(), slow.legal_moves(), "{ctx}: legal moves");
    assert_eq!(
        fast.board().counters(),
        &fast.board().counters_from_scratch(),
        "{ctx}: crossing counters"
    );
}

/// Loads the reference position through a listing (as a turn input gives it) and checks that
/// the fast board built from it is the same.
fn assert_loads(slow: &RefGame, ctx: &str) {
    let mut setup = Setup {
        to_move: slow.to_move(),
        ..Setup::default()
    };
    for p in Player::BOTH {
        setup.pegs[p.index()] = slow.pegs(p);
        // Ends in reverse order: loading must not care.
        setup.links[p.index()] = slow.links(p).into_iter().map(|(a, b)| (b, a)).collect();
    }
    let loaded = setup
        .validate()
        .unwrap_or_else(|e| panic!("{ctx}: a real position fails to load: {e}"));
    assert_same(&loaded, slow, &format!("{ctx} (loaded)"));
}

/// Plays game `seed` on both boards, comparing them after every move; returns how many
/// swaps it held and its winner.
fn play_both(seed: u64) -> (u32, Option<twixt::Player>) {
    let mut rng = FastRng::new(seed);
    let mut fast = Position::new();
    let mut slow = RefGame::new();
    let (mut ply, mut swaps) = (0, 0);
    while let Some(mv) = random_move(&slow, &mut rng) {
        fast.play(mv)
            .unwrap_or_else(|e| panic!("game {seed} ply {ply}: fast rejects {mv}: {e}"));
        slow.play(mv).unwrap();
        ply += 1;
        swaps += (mv == twixt::Move::Swap) as u32;
        let ctx = format!("game {seed} after ply {ply} ({mv})");
        assert_same(&fast, &slow, &ctx);
        if (ply % 16 == 0 || slow.outcome().is_some()) && slow.winner().is_none() {
            assert_loads(&slow, &ctx);
        }
    }
    (swaps, slow.winner())
}

#[test]
fn fast_board_agrees_with_the_reference_in_random_games() {
    // The games are independent, each seeded by its number: one share of them a core.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let results: Vec<(u32, Option<twixt::Player>)> = std::thread::scope(|scope| {
        let shares: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let seeds = (0..GAMES).filter(|s| s % threads == t);
                    seeds.map(play_both).collect::<Vec<_>>()
                })
            })
            .collect();
        shares
            .into_iter()
            .flat_map(|h| h.join().expect("a share of the games"))
            .collect()
    });
    assert_eq!(results.len() as u64, GAMES);
    let swaps: u32 = results.iter().map(|r| r.0).sum();
    let wins = |p: twixt::Player| results.iter().filter(|r| r.1 == Some(p)).count();
    let wins = [wins(twixt::Player::Zero), wins(twixt::Player::One)];
    assert!(swaps > 500, "swaps were played ({swaps})");
    assert!(
        wins[0] > 100 && wins[1] > 100,
        "both sides won games: {wins:?}"
    );
}
