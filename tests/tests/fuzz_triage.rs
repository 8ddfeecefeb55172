//! Triage of fuzz crash artifacts: replays every file of a folder through its target's check
//! (the same `tumble_tests::fuzz_checks` function the fuzz target runs), catches the panic,
//! and groups the inputs by message shape (numbers masked) and, for pair checks, by the pair
//! of shape kinds. Prints one line per class with its count and an example file.
//!
//! ```text
//! TUMBLE_TRIAGE_DIR=/path/to/fuzz/artifacts \
//!     cargo test -p tumble-tests --test fuzz_triage -- --ignored --nocapture
//! ```
//!
//! `TUMBLE_TRIAGE_TARGET=<target>` limits the run to one target; `TUMBLE_TRIAGE_VERBOSE=1`
//! prints the whole message of each class's example.
//! `TUMBLE_TRIAGE_DIR` defaults to `fuzz/artifacts`; each sub-folder named after a target
//! (`fuzz/artifacts/<target>/`) is replayed. Ignored because it reads untracked files and
//! reports rather than asserts.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tumble_tests::fuzz_checks::TARGETS;

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The message with every number (sign, digits, dot and exponent) masked as `#`,
/// so that cases differing only in their numbers fall in one class.
fn shape_of(message: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in message.chars() {
        let numeric = c.is_ascii_digit() || (in_number && matches!(c, '.' | 'e' | '-' | '+'));
        if numeric {
            if !in_number {
                if out.ends_with('-') {
                    out.pop();
                }
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// The shape kinds named in a printed `PairCase` (`a: Hull(..)`, `b: Ball(..)`).
fn pair_kinds(message: &str) -> String {
    let kind = |tag: &str| {
        message
            .find(tag)
            .map(|i| {
                message[i + tag.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect::<String>()
            })
            .unwrap_or_default()
    };
    let (a, b) = (kind("{ a: "), kind(", b: "));
    if a.is_empty() {
        String::new()
    } else {
        format!("[{a}-{b}] ")
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| !n.ends_with(".log"))
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
#[ignore = "reads untracked crash artifacts and reports classes; run by hand"]
fn triage_fuzz_artifacts() {
    let root = std::env::var("TUMBLE_TRIAGE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/artifacts"));
    let only = std::env::var("TUMBLE_TRIAGE_TARGET").ok();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = format!("{at}: {msg}"));
    }));
    for (name, check) in TARGETS {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let inputs = files(&root.join(name));
        if inputs.is_empty() {
            continue;
        }
        let mut classes: BTreeMap<String, (usize, PathBuf, String)> = BTreeMap::new();
        let mut passing = 0;
        for file in &inputs {
            let data = std::fs::read(file).expect("unreadable input");
            if std::panic::catch_unwind(|| check(&data)).is_ok() {
                passing += 1;
                continue;
            }
            let full = LAST_PANIC.with(|p| p.borrow().clone());
            let first = full.lines().next().unwrap_or_default();
            let key = format!("{}{}", pair_kinds(&full), shape_of(first));
            classes
                .entry(key)
                .or_insert((0, file.clone(), full.clone()))
                .0 += 1;
        }
        println!(
            "== {name}: {} inputs, {passing} pass now, {} fail in {} classes",
            inputs.len(),
            inputs.len() - passing,
            classes.len()
        );
        let mut sorted: Vec<_> = classes.into_iter().collect();
        sorted.sort_by_key(|c| std::cmp::Reverse(c.1 .0));
        let verbose = std::env::var("TUMBLE_TRIAGE_VERBOSE").is_ok();
        for (key, (count, example, full)) in sorted {
            println!("{count:6}  {key}\n        e.g. {}", example.display());
            if verbose {
                println!("        {full}");
            }
        }
    }
    std::panic::set_hook(hook);
}
