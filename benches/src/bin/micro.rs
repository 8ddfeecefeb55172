//! Narrow-phase micro benchmark (work in progress).
fn main() {
    eprintln!("micro: not implemented yet");
    std::process::exit(2);
}
