//! The Newsfeed row and Recruit (R11).

use super::state::{glog, Cid, Game, Zone};

impl Game<'_> {
    /// Refill the row from the top of the Newsfeed deck (E58, E59).
    pub fn refill_row(&mut self) {
        let size = self.db.rules.newsfeed_row_size as usize;
        while self.news_row.len() < size {
            let Some(c) = self.news_deck.pop() else { break };
            self.inst[c as usize].zone = Zone::NewsRow;
            self.news_row.push(c);
        }
    }

    pub fn can_recruit(&self, p: usize, c: Cid) -> bool {
        self.players[p].recruits < self.db.rules.recruits_per_turn as u8 && self.can_pay(p, self.recruit_cost(c))
    }

    /// Recruit (E60): pay, the card enters play under `p`'s control, the row is refilled.
    pub fn recruit(&mut self, p: usize, c: Cid) {
        let cost = self.recruit_cost(c);
        self.pay(p, cost);
        self.players[p].recruits += 1;
        self.record_play(p, c);
        // unwrap: Recruit is offered only for cards in the row (turn.rs), and paying does not change it
        let i = self.news_row.iter().position(|&x| x == c).expect("not in row");
        self.news_row.remove(i);
        glog!(self, "P{p} recruits {}", self.name(c));
        self.enter_play(c, p);
        self.refill_row();
        self.state_check();
    }
}
