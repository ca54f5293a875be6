// A stand-in for the bot's main.rs, bundled with this crate's real library by
// tests/bundle_crate.rs: it plays a seeded random game and prints it.

mod random_game;

fn main() {
    let seed = std::env::args().nth(1).map_or(1, |s| s.parse().unwrap());
    println!("{}", random_game::play(seed));
}
