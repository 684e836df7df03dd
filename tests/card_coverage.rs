//! Every card id in the card data file must be named by at least one scenario test in a
//! `tests/cards_*.rs` file (issue: each of the 113 cards proven by a test).

const CARD_TESTS: &[&str] = &[include_str!("cards_ner_osz.rs"), include_str!("cards_tisza_rad.rs"), include_str!("cards_newsfeed_events.rs")];

#[test]
fn every_card_has_a_scenario_test() {
    let raw = ketharmad::cards::load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    assert_eq!(raw.cards.len(), 113);
    let mut missing = Vec::new();
    for c in &raw.cards {
        // a test function whose name contains the id
        let named = CARD_TESTS.iter().any(|src| {
            src.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("fn ") && l.contains(c.id.as_str()) && l.contains('(')
            })
        });
        if !named {
            missing.push(c.id.clone());
        }
    }
    assert!(missing.is_empty(), "{} cards have no scenario test: {:?}", missing.len(), missing);
}
