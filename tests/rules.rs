//! Rule tests (rules.md R1–R17). Each test names the rule it checks.

use ketharmad::engine::scenario;
use ketharmad::engine::{Opt, Zone};

// R6.3, R6.3.1 (E22): a cost "1F" needs one Forint pip and one generic; paying exhausts Bases.
#[test]
fn r6_3_paying_coloured_and_generic_costs() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let meszaros = g.put_in_hand(0, "ner_meszaros_lorinc");
    let m = g.add_bases(0, 1, 2); // two Media Bases: no Forint
    assert!(!g.can_play_from_hand(0, meszaros, false), "1F must not be payable without a Forint source");
    let f = g.add_bases(0, 0, 1);
    assert!(g.can_play_from_hand(0, meszaros, false));
    g.play_card(0, meszaros);
    assert_eq!(g.zone_of(meszaros), Zone::Play);
    assert!(g.inst[f[0] as usize].exhausted, "the Forint Base paid the pip");
    assert_eq!(m.iter().filter(|&&c| g.inst[c as usize].exhausted).count(), 1, "one Media Base paid the generic");
    // R10.1.1: Scandal 1 on entering play
    assert_eq!(g.players[0].scandal, 1);
}

// R10.3, R10.3.3 (E53): the basic Exposé takes up to 2 Scandal, each costing 1 Support.
#[test]
fn r10_3_basic_expose_takes_up_to_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.players[1].scandal = 3;
    g.script(0, &[Opt::Amount(2)]);
    g.expose(0, 1, 2, true);
    assert_eq!(g.players[1].scandal, 1);
    assert_eq!(g.players[1].support, 18);
    assert_eq!(g.last_reducer[1], 0, "R10.3.5: credited to the exposing player");
}
