//! The generated modules the engine ships match a fresh export of their committed sources:
//! the policy's and the value network's weights (with its golden values), which the engine
//! decodes to the very weights the trainer wrote, and the book, which answers every first peg
//! as its deep search does.

use std::path::{Path, PathBuf};
use twixt::bot::book::{lookup_in, BOOK};
use twixt::knowledge::Policy;
use twixt::{Cell, Move, Player, Position};
use twixt_train::book::export::{self as book_export, ExportOptions};
use twixt_train::book::search::read_searched;
use twixt_train::net::export as net_export;
use twixt_train::policy::{export, file as policy_file};

const MODEL: &str = "train/models/policy.txt";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn the_shipped_module_is_the_export_of_the_committed_model() {
    let policy = policy_file::read(&root().join(MODEL)).unwrap();
    let module = std::fs::read_to_string(root().join(export::MODULE)).unwrap();
    assert!(
        module == export::module(&policy, MODEL),
        "{} is stale: run `cargo run --release --bin twixt-train -- export {MODEL}`",
        export::MODULE
    );
    assert_eq!(Policy::shipped(), Ok(policy));
}

const NET_MODEL: &str = "train/models/value.txt";

#[test]
fn the_shipped_network_is_the_export_of_the_committed_model() {
    let model = twixt_train::net::file::read(&root().join(NET_MODEL)).unwrap();
    // At the widths the module was exported with: a module of other widths, or of another
    // model, is stale.
    let shipped = twixt::knowledge::network::Network::shipped().unwrap();
    let policy_bits = shipped.policy.as_ref().map_or(8, |p| p.bits);
    let net = model.quantize(shipped.row_bits, policy_bits).unwrap();
    let module = std::fs::read_to_string(root().join(net_export::MODULE)).unwrap();
    let golden = std::fs::read_to_string(root().join(net_export::GOLDEN)).unwrap();
    let fix = format!(
        "run `cargo run --release --bin twixt-train -- export-net {NET_MODEL} --row-bits {} --policy-bits {policy_bits}`",
        shipped.row_bits
    );
    assert!(
        module == net_export::module(&net, NET_MODEL),
        "{} is stale: {fix}",
        net_export::MODULE
    );
    assert!(
        golden == net_export::golden(&net),
        "{} is stale: {fix}",
        net_export::GOLDEN
    );
    assert_eq!(twixt::knowledge::network::Network::shipped(), Ok(net));
    assert_eq!(
        shipped.row_bits,
        net_export::ROW_BITS,
        "export-net's default row bits are the shipped network's"
    );
}

/// The searched files `src/bot/book_moves.rs` is exported from, newest first (a key searched
/// in several is the first one's), and the least share of the iterations an entry's move needs.
const BOOK_SEARCHED: [&str; 3] = [
    "docs/openings/book-searches-gen8.jsonl",
    "docs/openings/book-searches.jsonl",
    "docs/openings/book-searches-ply1.jsonl",
];
const BOOK_MIN_SHARE: f64 = 0.3;

#[test]
fn the_shipped_book_is_the_export_of_the_committed_searches() {
    let options = ExportOptions {
        searched: BOOK_SEARCHED.iter().map(PathBuf::from).collect(),
        min_share: BOOK_MIN_SHARE,
        out: PathBuf::from(book_export::MODULE),
    };
    let book = book_export::export(&options, root()).unwrap();
    let module = std::fs::read_to_string(root().join(book_export::MODULE)).unwrap();
    assert!(
        module == book.module,
        "{} is stale: run `cargo run --release --bin twixt-train -- book export {} --min-share {BOOK_MIN_SHARE}`",
        book_export::MODULE,
        BOOK_SEARCHED.join(" ")
    );
}

/// The deep searches of the position after each first peg of the quarter board (player 1 to
/// move, swap allowed): the newest of each, at 1,280,000 iterations.
#[test]
fn the_book_answers_every_first_peg_as_its_deep_search_does() {
    let quarter = |c: &Cell| c.x() <= 5 && c.y() <= 5;
    let mut seen = std::collections::HashSet::new();
    let mut holes = Vec::new();
    for file in BOOK_SEARCHED {
        for (line, search) in read_searched(&root().join(file)).unwrap() {
            if search.moves.len() != 1 || !seen.insert(search.key.clone()) {
                continue;
            }
            assert_eq!(search.iterations, 1_280_000, "{file}: line {line}");
            let hole: Cell = search.moves[0].parse().unwrap();
            let answer: Move = search.best.parse().unwrap();
            // In all four frames: the swap, or the reply mirrored as the peg is.
            for frame in 0..4 {
                let first = hole.mirrored(frame);
                let pos = Position::after(&first.to_string()).unwrap();
                let expected = answer.mirrored(frame);
                assert_eq!(lookup_in(BOOK, &pos), Some(expected), "{file}: {first}");
            }
            holes.push(hole);
        }
    }
    holes.sort_unstable_by_key(|c| c.index());
    let expected: Vec<Cell> = Cell::all()
        .filter(|c| quarter(c) && c.allowed_for(Player::Zero))
        .collect();
    assert_eq!(holes, expected, "one search for each quarter hole");
}
