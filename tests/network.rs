//! The shipped network: it decodes, and the engine's inference gives the golden values and
//! policy logits that the trainer's own arithmetic wrote (`train/models/value-golden.txt`,
//! written by `twixt-train export-net` with the weights).

use twixt::knowledge::network::Network;
use twixt::position::last_pegs;
use twixt::{Move, Position};

/// The bits of numbers written with `{:?}`.
fn bits(words: &str) -> Vec<u32> {
    words
        .split_whitespace()
        .map(|w| w.parse::<f32>().unwrap().to_bits())
        .collect()
}

#[test]
fn the_engine_gives_the_trainer_s_golden_values_and_logits() {
    let net = Network::shipped().expect("the shipped network decodes");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/train/models/value-golden.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let parts: Vec<&str> = line.split('|').collect();
        assert!(parts.len() >= 2, "line {}: {line}", n + 1);
        let mut pos = Position::new();
        let moves: Vec<Move> = parts[0]
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        for &mv in &moves {
            pos.play(mv).unwrap();
        }
        let last = last_pegs(&moves);
        let acc = net.accumulate(pos.board());
        let got = net.value(&acc, pos.to_move());
        assert_eq!(vec![got.to_bits()], bits(parts[1]), "line {}: {got}", n + 1);
        let mut logits = Vec::new();
        let moves = pos.legal_moves();
        match net.policy_logits(&acc, &pos, last, &moves, &mut logits) {
            Some(()) => {
                let got: Vec<u32> = logits.iter().map(|l| l.to_bits()).collect();
                assert_eq!(got, bits(parts[2]), "line {}", n + 1);
                assert_eq!(got.len(), moves.len());
            }
            None => assert_eq!(parts.len(), 2, "line {}: logits without a head", n + 1),
        }
        checked += 1;
    }
    assert_eq!(checked, 20, "five games at four plies");
}
