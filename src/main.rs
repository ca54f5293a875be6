//! `twixt-bot`: the Twixt-PP bot for CodinGame. Everything lives in the library; see
//! `twixt-bot --help`.

fn main() {
    std::process::exit(twixt::bot::main_with_args(std::env::args().skip(1)));
}
