//! Reads the resolved versions of rapier3d and parry3d from Cargo.lock, so that the JSON lines
//! name the versions actually measured.

use std::{env, fs, path::Path};

fn locked_version(lock: &str, name: &str) -> String {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == format!("name = \"{name}\"") {
            if let Some(v) = lines.next() {
                if let Some(rest) = v.trim().strip_prefix("version = \"") {
                    return rest.trim_end_matches('"').to_string();
                }
            }
        }
    }
    "unknown".to_string()
}

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let path = Path::new(&dir).join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", path.display());
    let lock = fs::read_to_string(&path).unwrap_or_default();
    for (name, var) in [
        ("rapier3d", "PEERS_RAPIER3D_VERSION"),
        ("parry3d", "PEERS_PARRY3D_VERSION"),
    ] {
        println!("cargo:rustc-env={var}={}", locked_version(&lock, name));
    }
}
