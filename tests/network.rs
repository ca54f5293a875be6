//! The shipped value network: it decodes, and the engine's inference gives the golden values
//! that the trainer's own arithmetic wrote (`train/models/value-golden.txt`, written by
//! `twixt-train export-net` with the weights).

use twixt::knowledge::network::Network;
use twixt::{Move, Position};

#[test]
fn the_engine_gives_the_trainer_s_golden_values() {
    let net = Network::shipped().expect("the shipped network decodes");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/train/models/value-golden.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#'))
    {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let want: f32 = words.pop().unwrap().parse().unwrap();
        let mut pos = Position::new();
        for w in words {
            pos.play(w.parse::<Move>().unwrap()).unwrap();
        }
        let got = net.value(&net.accumulate(pos.board()), pos.to_move());
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "line {}: {got} {want}",
            n + 1
        );
        checked += 1;
    }
    assert_eq!(checked, 20, "five games at four plies");
}
