//! The Newsfeed row and Recruit (R11).

use super::mode::Mode;
use super::state::{Cid, Game, Inst, Zone};
use super::trace::glog;

impl<M: Mode> Game<'_, M> {
    /// Refill the row from the top of the Newsfeed deck (E58, E59).
    #[inline(always)]
    pub fn refill_row(&mut self) {
        // usually full: the test inline, the refill (and its log line) out of line
        if self.state.news_row.len() < self.db.rules.newsfeed_row_size as usize {
            self.refill_row_now();
        }
    }

    #[inline(never)]
    fn refill_row_now(&mut self) {
        let size = self.db.rules.newsfeed_row_size as usize;
        while self.state.news_row.len() < size {
            let Some(c) = self.state.news_deck.pop() else { break };
            self.state.inst[c as usize].zone = Zone::NewsRow;
            self.state.news_row.push(c);
            glog!(self, "  Newsfeed row: {} is turned face up", self.name(c));
        }
    }

    pub fn can_recruit(&self, p: usize, c: Cid) -> bool {
        self.state.players[p].recruits < self.db.rules.recruits_per_turn as u8 && self.can_pay(p, self.recruit_cost(c)) && self.recruit_extra_ok(p, c)
    }

    /// A recruited Action needs what playing it needs (a target, a Figure to Sacrifice).
    #[inline(always)]
    pub(crate) fn recruit_extra_ok(&self, p: usize, c: Cid) -> bool {
        self.state.inst[c as usize].flags & (Inst::F_SACRIFICE_CAST | Inst::F_NEEDS_TARGET) == 0 || self.can_play_extra(p, c)
    }

    /// Recruit (E60): pay, the card enters play under `p`'s control, the row is refilled. A
    /// Newsfeed Action is played instead: it goes on the chain like an Action played with
    /// main priority and afterwards to the bottom of the Newsfeed deck (E61).
    pub fn recruit(&mut self, p: usize, c: Cid) {
        let cost = self.recruit_cost(c);
        self.state.players[p].recruits += 1;
        self.record_play(p, c);
        // unwrap: Recruit is offered only for cards in the row (turn.rs), and paying does not change it
        let i = self.state.news_row.iter().position(|&x| x == c).expect("not in row");
        self.state.news_row.remove(i);
        glog!(self, "P{p} recruits {}", self.name(c));
        if self.state.inst[c as usize].is(Inst::F_ACTION) {
            self.cast_action(p, c, cost);
        } else {
            self.pay(p, cost);
            self.enter_play(c, p);
        }
        self.refill_row();
        self.state_check();
    }
}
