//! Events (R12): the procedure in the start player's Wake (E63, E64) and Event effects (E65).

use super::decision::{DecisionKind, Opt};
use super::mode::Mode;
use super::seats::MAX_SEATS;
use super::state::{Game, GameData, RoundMods, Zone};
use super::trace::glog;
use crate::cards::{Effect, RoundMod, Trigger};

impl<M: Mode> Game<'_, M> {
    /// R12.6: flip an Event, rotate the Newsfeed, apply the Event.
    pub fn event_procedure(&mut self) {
        // one Event a round (R12.1): a second flip in the same round breaks an invariant
        if self.checks() && self.trace.invariant_error.is_none() && self.state.event_round == self.state.round {
            self.trace.invariant_error = Some(format!("turn {}: a second Event procedure in round {}", self.state.turn, self.state.round));
        }
        self.state.event_round = self.state.round;
        // (1) reshuffle the discard pile if the deck is empty
        if self.state.event_deck.is_empty() && !self.state.event_discard.is_empty() {
            let mut d = std::mem::take(&mut self.state.event_discard);
            for &c in &d {
                self.state.inst[c as usize].zone = Zone::EventDeck;
            }
            self.state.rng_events.shuffle(&mut d);
            self.state.event_deck = d;
            glog!(self, "The Event discard pile is shuffled into a new Event deck");
        }
        // (2)+(3) flip; the previous Event goes to the discard pile and its round effect ends
        let new = self.state.event_deck.pop();
        if let Some(old) = self.state.event_in_force.take() {
            self.state.inst[old as usize].zone = Zone::EventDiscard;
            self.state.event_discard.push(old);
            glog!(self, "  {} goes to the Event discard pile", self.name(old));
        }
        // round modifiers touch only attacking Figures' stats, and no Campaign is under way
        // during the Event procedure, so no memoised stats change here
        debug_assert!(!self.state.campaign.active);
        self.state.round_mods = RoundMods::default();
        // (4) the leftmost Newsfeed card goes to the bottom of the Newsfeed deck; refill
        if !self.state.news_row.is_empty() {
            let c = self.state.news_row.remove(0);
            self.state.inst[c as usize].zone = Zone::NewsDeck;
            self.state.news_deck.insert(0, c);
            glog!(self, "  Newsfeed rotation: {} goes to the bottom of the Newsfeed deck", self.name(c));
        }
        self.refill_row();
        // (5) the new Event
        if let Some(e) = new {
            self.state.inst[e as usize].zone = Zone::EventInForce;
            self.state.event_in_force = Some(e);
            glog!(self, "Event: {}", self.name(e));
            let d = self.def(e);
            for ab in d.abilities.iter().filter(|a| a.trigger == Trigger::Event) {
                self.event_effect(&ab.effect);
                if self.state.outcome.is_some() {
                    return;
                }
            }
        }
        // (6) state checks
        self.state_check();
    }

    /// Players in turn order from the start player (E65).
    fn event_order(&self) -> impl Iterator<Item = usize> + '_ {
        let s = self.state.start_player;
        (0..self.state.n).map(move |i| (s + i) % self.state.n).filter(move |&q| self.state.players[q].alive)
    }

    pub fn event_effect(&mut self, e: &Effect) {
        let order: [usize; MAX_SEATS] = {
            let mut o = [usize::MAX; MAX_SEATS];
            for (i, q) in self.event_order().enumerate() {
                o[i] = q;
            }
            o
        };
        let order = order.into_iter().filter(|&q| q != usize::MAX);
        match *e {
            Effect::AllGainSupport { n } => order.for_each(|q| self.gain_support(q, n as i32)),
            Effect::LowestSupportGainSupport { n } => {
                let low = (0..self.state.n).filter(|&q| self.state.players[q].alive).map(|q| self.state.support_of(q)).min().unwrap_or(0);
                order.filter(|&q| self.state.support_of(q) == low).collect::<Vec<_>>().into_iter().for_each(|q| self.gain_support(q, n as i32));
            }
            Effect::AllGainScandal { n } => order.for_each(|q| self.gain_scandal(q, n as i32)),
            Effect::MostInstitutionsGainScandal { n, min } => {
                let most = (0..self.state.n).filter(|&q| self.state.players[q].alive).map(|q| self.institutions(q)).max().unwrap_or(0);
                if most >= min as i32 {
                    let who: Vec<usize> = order.filter(|&q| self.institutions(q) == most).collect();
                    who.into_iter().for_each(|q| self.gain_scandal(q, n as i32));
                }
            }
            Effect::AllSupportPerFigure { per, max } => {
                for q in order {
                    let g = (self.figure_count(q) * per as i32).min(max as i32);
                    self.gain_support(q, g);
                }
            }
            Effect::RefreshNewsfeed => {
                let row = std::mem::take(&mut self.state.news_row);
                for c in row {
                    self.state.inst[c as usize].zone = Zone::NewsDeck;
                    self.state.news_deck.insert(0, c);
                    glog!(self, "  {} goes to the bottom of the Newsfeed deck", self.name(c));
                }
                self.refill_row();
            }
            Effect::AllDraw { n } => order.for_each(|q| self.draw(q, n as i32)),
            Effect::MostScandalLoseSupport { n, min } => {
                let most = (0..self.state.n).filter(|&q| self.state.players[q].alive).map(|q| self.state.scandal_pool_of(q)).max().unwrap_or(0);
                if most >= min as i32 {
                    let who: Vec<usize> = order.filter(|&q| self.state.scandal_pool_of(q) == most).collect();
                    who.into_iter().for_each(|q| self.lose_support(q, n as i32, -1));
                }
            }
            Effect::AllSympathy { n } => {
                for q in order {
                    let g: &mut GameData = self; // the state and the option list borrowed apart
                    g.scratch.opts.clear();
                    for &c in &g.state.players[q].play {
                        if g.db.def(g.state.inst[c as usize].def).ctype.is_figure() {
                            g.scratch.opts.push(Opt::Card(c));
                        }
                    }
                    if !self.scratch.opts.is_empty() {
                        if let Opt::Card(c) = self.decide(q, DecisionKind::Target) {
                            self.add_counters(c, n);
                        }
                    }
                }
            }
            Effect::Round(m) => {
                let r = &mut self.state.round_mods;
                match m {
                    RoundMod::ExposeCostIncrease(n) => r.expose_cost_increase += n,
                    RoundMod::InstitutionCostReduction(n) => r.institution_cost_reduction += n,
                    RoundMod::AttackerBonus(i, c) => {
                        r.attacker_influence += i;
                        r.attacker_credibility += c
                    }
                    RoundMod::RecruitCostReduction(n) => r.recruit_cost_delta -= n,
                    RoundMod::RecruitCostIncrease(n) => r.recruit_cost_delta += n,
                    RoundMod::BasicExposeBonus(n) => r.basic_expose_bonus += n,
                    RoundMod::MaxAttackers(n) => r.max_attackers = Some(r.max_attackers.map_or(n, |m| m.min(n))),
                    RoundMod::ReactionCostIncrease(n) => r.reaction_cost_increase += n,
                    RoundMod::SwapCostIncrease(n) => r.swap_cost_increase += n,
                    RoundMod::UnblockedExtraDamage(n) => r.unblocked_extra_damage += n,
                }
            }
            _ => {}
        }
    }
}
