//! Headless stress runner (work in progress).
fn main() {
    eprintln!("stress: not implemented yet");
    std::process::exit(2);
}
