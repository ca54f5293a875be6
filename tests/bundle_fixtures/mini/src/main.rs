//! The bot's entry point (a doc comment that must not ship).

use twixt::bot::Options;

fn main() {
    let options = Options::default();
    // `twixt::` in an expression, not only in `use`.
    println!("{}", twixt::bot::run(&options));
}

#[cfg(test)]
mod tests {
    #[test]
    fn main_test_only() {}
}
