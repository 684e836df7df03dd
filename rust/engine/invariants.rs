//! Whole-state consistency, checked after every action by the fuzzer and tests:
//! every card in exactly one zone (and its zone field agrees), no negative counts, controllers
//! of cards in play are players still in the game, the Newsfeed row is full when it can be.

use super::state::{Cid, GameData, Zone};
use crate::cards::Faction;

impl GameData<'_> {
    pub fn invariants(&self) -> Result<(), String> {
        let n = self.state.inst.len();
        let mut seen = vec![0u8; n];
        let mut mark = |c: Cid, z: Zone, what: &str| -> Result<(), String> {
            let i = c as usize;
            if i >= n {
                return Err(format!("{what}: card instance {i} does not exist"));
            }
            seen[i] += 1;
            if self.state.inst[i].zone != z {
                return Err(format!("{} is listed in {what} but its zone is {:?}", self.name(c), self.state.inst[i].zone));
            }
            Ok(())
        };
        for (p, pl) in self.state.players.iter().enumerate() {
            for &c in &pl.deck {
                mark(c, Zone::Deck, "a deck")?;
            }
            for &c in &pl.hand {
                mark(c, Zone::Hand, "a hand")?;
            }
            if !self.hooks.full_checks && self.cache.able[p] != self.count_able(p) {
                return Err(format!("P{p} has {} Figures counted able to attack, {} on its board", self.cache.able[p], self.count_able(p)));
            }
            if !self.hooks.full_checks && self.cache.ready[p] != self.count_ready(p) {
                return Err(format!("P{p}'s counted ready resources {:x} differ from its board {:x}", self.cache.ready[p], self.count_ready(p)));
            }
            let cached = self.cache.board_count[p].get();
            if cached.gen == self.cache.player_gen[p] && !self.hooks.full_checks && cached != self.tally_board(p) {
                return Err(format!("P{p}'s cached board counts {cached:?} are stale: {:?}", self.tally_board(p)));
            }
            let (reactions, floor) = self.tally_reactions(p);
            if reactions != self.cache.reactions[p] {
                return Err(format!("P{p} holds {reactions} Reactions but {} are counted", self.cache.reactions[p]));
            }
            if floor != self.cache.reaction_floor[p] {
                return Err(format!("P{p}'s Reactions cost at least {floor:?} but {:?} is kept", self.cache.reaction_floor[p]));
            }
            for &c in &pl.oblivion {
                mark(c, Zone::Oblivion, "an Oblivion")?;
            }
            for &c in &pl.play {
                mark(c, Zone::Play, "play")?;
                if self.state.inst[c as usize].controller as usize != p {
                    return Err(format!("{} is in P{p}'s play but controlled by {}", self.name(c), self.state.inst[c as usize].controller));
                }
                if !pl.alive {
                    return Err(format!("eliminated P{p} still controls {}", self.name(c)));
                }
            }
            if self.state.scandal_pool_of(p) < 0 {
                return Err(format!("P{p} has negative Scandal {}", self.state.scandal_pool_of(p)));
            }
            if pl.pool.iter().any(|&x| x < 0) {
                return Err(format!("P{p} has a negative resource pool {:?}", pl.pool));
            }
            if pl.alive && self.state.support_of(p) <= 0 && self.state.outcome.is_none() && self.db.rules.format.elimination == crate::cards::formats::Elimination::Immediate {
                return Err(format!("P{p} is in the game with Support {}", self.state.support_of(p)));
            }
            for &c in pl.deck.iter().chain(&pl.hand).chain(&pl.oblivion) {
                if self.state.inst[c as usize].owner as usize != p {
                    return Err(format!("{} is in P{p}'s private zones but owned by {}", self.name(c), self.state.inst[c as usize].owner));
                }
            }
        }
        for &c in &self.state.news_row {
            mark(c, Zone::NewsRow, "the Newsfeed row")?;
        }
        for &c in &self.state.news_deck {
            mark(c, Zone::NewsDeck, "the Newsfeed deck")?;
        }
        for &c in &self.state.event_deck {
            mark(c, Zone::EventDeck, "the Event deck")?;
        }
        for &c in &self.state.event_discard {
            mark(c, Zone::EventDiscard, "the Event discard pile")?;
        }
        if let Some(c) = self.state.event_in_force {
            mark(c, Zone::EventInForce, "the Event in force")?;
        }
        for &c in &self.state.token_box {
            mark(c, Zone::Box, "the box")?;
        }
        for &c in &self.state.removed {
            mark(c, Zone::Removed, "removed from the game")?;
        }
        for it in &self.state.chain {
            mark(it.card, Zone::Chain, "the chain")?;
        }
        for (i, &k) in seen.iter().enumerate() {
            if k != 1 {
                return Err(format!("{} (instance {i}) is in {k} zones", self.name(i as Cid)));
            }
        }
        for (i, it) in self.state.inst.iter().enumerate() {
            if it.damage < 0 || it.counters < 0 {
                return Err(format!("{} has damage {} counters {}", self.name(i as Cid), it.damage, it.counters));
            }
            let f = self.db.def(it.def).faction;
            if it.zone == Zone::Removed && matches!(f, Faction::Newsfeed | Faction::Token | Faction::Event) {
                return Err(format!("{} was removed from the game but is ownerless", self.name(i as Cid)));
            }
        }
        if self.state.outcome.is_none() {
            for pl in &self.state.players {
                for &c in &pl.play {
                    if self.state.inst[c as usize].is(super::state::Inst::F_FIGURE) && self.state.inst[c as usize].damage >= self.credibility(c) {
                        return Err(format!("{} has damage {} >= Credibility {} after a state check", self.name(c), self.state.inst[c as usize].damage, self.credibility(c)));
                    }
                }
            }
        }
        // the circle and war of the gods: the seating is the format's among the seats still in
        if self.seating_follows_eliminations() {
            let alive = self.state.alive_seats();
            if let Ok(s) = super::seats::Seating::of_format_among(&self.db.rules.format, self.state.n, alive) {
                if s != self.state.seating {
                    return Err(format!("the seating is not the format's among the seats still in {alive:?}"));
                }
            }
        }
        // victory points: one award per elimination and one for the last standing at most
        if self.scores_points() {
            let f = &self.db.rules.format;
            let total: i32 = self.state.points.iter().map(|&x| x as i32).sum();
            let most = self.state.eliminations as i32 * f.points_elimination + if self.state.outcome.is_some() { f.points_last_standing } else { 0 };
            if total > most || self.state.points.iter().any(|&x| x < 0) {
                return Err(format!("victory points {:?} after {} eliminations", &self.state.points[..self.state.n], self.state.eliminations));
            }
        }
        let size = self.db.rules.newsfeed_row_size as usize;
        if self.state.news_row.len() < size && !self.state.news_deck.is_empty() {
            return Err(format!("the Newsfeed row has {} cards while the Newsfeed deck has {}", self.state.news_row.len(), self.state.news_deck.len()));
        }
        Ok(())
    }
}
