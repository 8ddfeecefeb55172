// TEMPORARY debugging aid (deleted before hand-back).
#[test]
#[ignore]
fn dbg_artifact() {
    let path = std::env::var("ART").unwrap();
    let target = std::env::var("TGT").unwrap();
    let data = std::fs::read(path).unwrap();
    let f = tumble_tests::fuzz_checks::TARGETS.iter().find(|t| t.0 == target).unwrap().1;
    f(&data);
}
