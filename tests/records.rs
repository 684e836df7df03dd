//! Card records kept per game and seat (for card analytics): the kept opening hand, cards drawn
//! later, cards played or recruited.

use ketharmad::batch::{play_one_with, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::engine::{scenario, Opt};

fn bit(g: &ketharmad::engine::Game, c: ketharmad::engine::Cid) -> u128 {
    1u128 << g.state().inst[c as usize].def
}

#[test]
fn records_follow_draws_and_plays() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let top = g.put_on_deck(0, "ner_szijjarto_peter");
    g.draw(0, 1);
    assert_ne!(g.state().players[0].drawn & bit(&g, top), 0, "a card drawn after setup is recorded as drawn");
    assert_eq!(g.state().players[0].played & bit(&g, top), 0);
    g.add_bases(0, 0, 1);
    g.add_bases(0, 1, 1);
    g.add_bases(0, 0, 1);
    g.play_card(0, top);
    assert_ne!(g.state().players[0].played & bit(&g, top), 0, "a card played from hand is recorded as played");
    let base = g.put_in_hand(0, "ner_base_stadion");
    g.script(0, &[Opt::PlayBase(base), Opt::EndPhase]);
    g.take_turn();
    assert_ne!(g.state().players[0].played & bit(&g, base), 0, "a Base put into play is recorded as played");
}

#[test]
fn opening_hand_and_play_log_in_a_whole_game() {
    let db = scenario::db(&[]);
    let spec = BatchSpec { factions: vec![0, 2], bots: vec![BotSpec::random(); 2], games: 1, seed: 3, threads: Some(1), start_player: None, ..Default::default() };
    for i in 0..20 {
        let (r, _) = play_one_with(&db, &spec, i, false, false, true);
        for s in 0..2 {
            let p = &r.players[s];
            // every opening card is a card of the seat's own deck: 7 cards at most (E6)
            assert!(p.opening.count_ones() <= 7);
            let mine = &db.decks[spec.factions[s] as usize];
            for d in 0..128u16 {
                if p.opening >> d & 1 == 1 {
                    assert!(mine.contains(&d), "opening card {d} is not in the deck");
                }
            }
            // the play log and the played set agree
            let mut logged = 0u128;
            for &(seat, card, turn) in &r.plays {
                if seat as usize == s {
                    logged |= 1u128 << card;
                    assert!(turn >= 1 && turn as i32 <= r.turns);
                }
            }
            assert_eq!(logged, p.played, "game {i} seat {s}");
        }
    }
}
