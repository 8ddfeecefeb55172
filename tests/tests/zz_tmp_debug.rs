// TEMPORARY debugging aid (deleted before hand-back).
#[test]
#[ignore]
fn dbg_artifact() {
    let dir = std::env::var("ART").unwrap();
    let target = std::env::var("TGT").unwrap();
    let f = tumble_tests::fuzz_checks::TARGETS.iter().find(|t| t.0 == target).unwrap().1;
    std::panic::set_hook(Box::new(|i| {
        let m = i.payload().downcast_ref::<String>().cloned().unwrap_or_default();
        println!("MSG {}", m.replace('\n', " | "));
    }));
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for p in files.iter().take(400) {
        let data = std::fs::read(p).unwrap();
        let _ = std::panic::catch_unwind(|| f(&data));
    }
}
