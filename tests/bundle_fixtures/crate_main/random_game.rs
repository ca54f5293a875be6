// One seeded random game through the library's rules (paths in expressions on purpose: the
// bundler must rewrite `twixt::` in a module of the binary too).

use twixt::position::Move;

pub fn play(mut seed: u64) -> String {
    let mut position = twixt::Position::new();
    let mut moves: Vec<Move> = Vec::new();
    while position.outcome().is_none() {
        let legal = position.legal_moves();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal[(seed >> 33) as usize % legal.len()];
        position.play(mv).expect("a legal move");
        moves.push(mv);
    }
    let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
    format!("{} => {:?}", moves.join(" "), position.outcome())
}
