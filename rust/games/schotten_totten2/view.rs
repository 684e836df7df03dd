//! The viewers' picture of a game (`GameState::view`, issue 28): each section's face and both
//! sides, the hands (each seen by its owner only), the discard pile, the deck (its order seen
//! by nobody); the scores charted over a game: the Attacker's damaged sections and the
//! Defender's cauldrons left and both sides' cards on the wall.

use super::cards::{self, name};
use super::state::{Phase, State, ATTACKER, DEFENDER};
use super::wall::{COND_NAMES, SECTION_IDS};
use crate::harness::{TableView, Zone};

const SEATS: [&str; 2] = ["attacker", "defender"];

fn names(set: u64) -> Vec<String> {
    cards::iter(set).map(name).collect()
}

pub fn view(s: &State) -> TableView {
    let mut v = TableView::default();
    v.score(ATTACKER, "damaged sections", s.damaged.count_ones() as f64);
    v.score(DEFENDER, "cauldrons left", s.cauldrons as f64);
    for seat in [ATTACKER, DEFENDER] {
        let on_wall: usize = (0..7).map(|sec| s.sides[seat][sec].n as usize).sum();
        v.score(seat, "cards on the wall", on_wall as f64);
    }
    let phase = match s.phase {
        Phase::Prep => "preparation",
        Phase::Play => "play",
        Phase::PostPlay => "claims after the play",
        Phase::Over => "over",
    };
    v.fact("turn", s.turn.to_string());
    v.fact("to move", if s.phase == Phase::Over { "-".into() } else { SEATS[s.current as usize].to_string() });
    v.fact("phase", phase);
    v.fact("deck", format!("{} cards", s.deck_len));
    v.fact("cauldrons", s.cauldrons.to_string());
    v.fact("damaged sections", format!("{} of {} to win", s.damaged.count_ones(), s.p.damages_to_win));
    if s.last_turn {
        v.fact("last turn", "the Attacker's last turn");
    }
    for (sec, id) in SECTION_IDS.iter().enumerate() {
        let f = s.face(sec);
        let side = if s.damaged >> sec & 1 == 1 { "damaged" } else { "intact" };
        let claim = if s.claimable >> sec & 1 == 1 { ", claimable" } else { "" };
        let head = format!("{side}: {} cards, {}{claim}", f.cards, COND_NAMES[f.cond as usize]);
        v.zones.push(Zone::public(format!("{id} ({head})"), None, Vec::new()));
        for seat in [ATTACKER, DEFENDER] {
            let cards = s.sides[seat][sec].cards().iter().map(|&c| name(c)).collect();
            v.zones.push(Zone::public(format!("{id}: {}", SEATS[seat]), Some(seat), cards));
        }
    }
    for seat in [ATTACKER, DEFENDER] {
        v.zones.push(Zone::private("hand", seat, names(s.hands[seat])));
    }
    v.zones.push(Zone::public("discard", None, names(s.discard)));
    let deck = s.deck[..s.deck_len as usize].iter().rev().map(|&c| name(c)).collect();
    v.zones.push(Zone { name: "deck (top first)".into(), owner: None, seen_by: 0, items: deck });
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::schotten_totten2::Params;

    #[test]
    fn hands_are_private_and_every_card_is_somewhere() {
        let s = State::new(Params::default(), 1, 0);
        let v = view(&s);
        let hand = |seat: usize| v.zones.iter().find(|z| z.name == "hand" && z.owner == Some(seat)).unwrap();
        assert_eq!(hand(ATTACKER).items.len(), s.p.hand_size as usize);
        assert!(hand(ATTACKER).seen(ATTACKER) && !hand(ATTACKER).seen(DEFENDER));
        assert!(hand(DEFENDER).seen(DEFENDER) && !hand(DEFENDER).seen(ATTACKER));
        let total: usize = v.zones.iter().map(|z| z.items.len()).sum();
        assert_eq!(total as u32, cards::full_set(s.p.colours, s.p.max_value).count_ones());
        assert_eq!(v.scores.len(), 4);
    }
}
