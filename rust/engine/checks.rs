//! State checks (R14.1, E72), elimination (R15.3.1, E76), Voter takeover (R15.4.1, E77),
//! simultaneous elimination (R14.5.1, E74) and the end of the game.

use super::mode::Mode;
use super::seats::{Seats, MAX_SEATS};
use super::state::{Cid, EndReason, Game, Inst, Outcome, Zone};
use super::trace::glog;
use crate::cards::formats::Elimination;
use crate::cards::{Faction, Static, Trigger};

impl<M: Mode> Game<'_, M> {
    /// Repeat until nothing changes: destroyed Figures, Newsfeed refill, eliminations, Voter
    /// takeover, end of game; waiting "leaves play" triggers run in between.
    #[inline(always)]
    pub fn state_check(&mut self) {
        if self.state.outcome.is_some() {
            return;
        }
        if self.nothing_to_check() {
            // what the first round of the loop below would do, finding nothing
            self.cache.damaged = false;
            self.cache.checked_gen = self.cache.board_gen;
            return;
        }
        self.check_state();
    }

    /// The state check would find nothing: no Figure can have died (the fast-path test of
    /// (1) below), the Newsfeed row is full or its deck empty, no seat in the game is at 0
    /// Support or below (or eliminations wait for the end of the turn), and no "leaves
    /// play" trigger waits. Most state checks end here.
    #[inline(always)]
    fn nothing_to_check(&self) -> bool {
        let c = &self.cache;
        let scan = (c.damaged || c.checked_gen != c.board_gen) && (!c.wounded.is_empty() || c.fragile);
        let row_done = self.state.news_row.len() >= self.db.rules.newsfeed_row_size as usize || self.state.news_deck.is_empty();
        let deferred = self.db.rules.format.elimination == Elimination::EndOfTurn && !self.state.turn_end_check;
        let falling = !deferred && (0..self.state.n).any(|p| self.state.players[p].alive && self.state.support_of(p) <= 0);
        !self.hooks.full_checks && !scan && row_done && !falling && self.state.pending_leave.is_empty()
    }

    /// `state_check` past its fast path.
    #[inline(never)]
    fn check_state(&mut self) {
        loop {
            let mut changed = false;
            // (1) Figures whose damage reaches their Credibility leave play together
            let mut dying: [Cid; 32] = [0; 32];
            let mut nd = 0;
            // fast path: no new damage and no board change since the last check means no
            // Figure can have reached its Credibility (every other modifier only grows
            // until Close, which removes damage too)
            // and with no damage on any Figure only one with printed Credibility <= 0 can die
            let wounded = !self.cache.wounded.is_empty();
            let scan = (self.cache.damaged || self.cache.checked_gen != self.cache.board_gen) && (wounded || self.cache.fragile);
            self.cache.damaged = false;
            self.cache.checked_gen = self.cache.board_gen;
            if self.hooks.full_checks || (scan && self.cache.fragile) {
                for p in 0..self.state.n {
                    for &c in &self.state.players[p].play {
                        let it = &self.state.inst[c as usize];
                        let dmg = it.damage;
                        // every Credibility modifier is >= 0: an undamaged Figure with printed
                        // Credibility > 0 cannot die, so skip the full computation
                        // `&` not `&&`: one well-predicted branch per card
                        if it.is(Inst::F_FIGURE) & ((dmg > 0) | (it.base_credibility <= 0)) && dmg >= self.credibility(c) && nd < 32 {
                            dying[nd] = c;
                            nd += 1;
                        }
                    }
                }
            } else if scan {
                // only the Figures damaged this turn can hold damage
                for k in 0..self.cache.wounded.len() {
                    let c = self.cache.wounded[k];
                    let it = &self.state.inst[c as usize];
                    if it.zone == Zone::Play && it.is(Inst::F_FIGURE) && it.damage > 0 && it.damage >= self.credibility(c) && !dying[..nd].contains(&c) && nd < 32 {
                        dying[nd] = c;
                        nd += 1;
                    }
                }
            }
            if nd > 0 {
                // earliest entered first (R5.1)
                dying[..nd].sort_by_key(|&c| self.state.inst[c as usize].entered);
                for &c in &dying[..nd] {
                    glog!(self, "  {} is knocked out", self.name(c));
                    self.leave_play(c, false);
                }
                changed = true;
            }
            // (2) refill the Newsfeed row
            self.refill_row();
            // (3) eliminations (with `format.elimination = "end_of_turn"` only in the state
            // check at the end of a turn, TF 169.2.7: `end_of_turn_check`)
            let mut out = Seats::EMPTY;
            let deferred = self.db.rules.format.elimination == Elimination::EndOfTurn && !self.state.turn_end_check;
            for p in 0..self.state.n {
                if self.state.players[p].alive && self.state.support_of(p) <= 0 && !deferred {
                    if self.rescue(p) || self.rescue_by_ally(p) {
                        // the rescuer left play: check again (stats may have dropped)
                        changed = true;
                    } else {
                        out = out.with(p);
                    }
                }
            }
            if !out.is_empty() {
                changed = true;
                let before = self.alive_count();
                let eliminated = out.len();
                // (4) Voter takeover credit, decided before the players leave
                let mut gains = [0i32; MAX_SEATS];
                for p in out.iter() {
                    let credited = if self.db.rules.voter_takeover_credit_active { self.state.active as i8 } else { self.state.last_reducer[p] };
                    // "knocks out an opponent" (R15.4): an enemy of the eliminated seat
                    if credited >= 0 && credited as usize == self.state.active && self.state.is_enemy(credited as usize, p) {
                        gains[credited as usize] += self.db.rules.voter_takeover_gain;
                    }
                }
                if self.scores_points() {
                    self.credit_points(out);
                }
                for p in out.iter() {
                    self.eliminate(p);
                }
                if self.scores_points() && self.alive_count() <= 1 {
                    // V3: the most victory points win
                    self.state.outcome = Some(self.points_outcome());
                    return;
                }
                // (5) end of the game
                if eliminated == before {
                    glog!(self, "Everyone left is eliminated at once: the active player P{} wins", self.state.active);
                    self.state.outcome = Some(self.team_outcome(self.state.active, EndReason::SimultaneousElimination));
                    return;
                }
                if self.state.seating.has_teams() && self.one_team_left() {
                    // E87: the other team is out; the survivors (one team) win together
                    let w = self.state.alive_seats();
                    glog!(self, "The team of P{} wins", w.first().unwrap_or(0));
                    self.state.outcome = Some(Outcome { winners: w, reason: EndReason::LastPlayerStanding, points: None });
                    return;
                }
                if self.alive_count() == 1 {
                    // unwrap: alive_count() == 1 was just checked, so one seat is alive
                    let w = (0..self.state.n).find(|&q| self.state.players[q].alive).unwrap();
                    glog!(self, "P{w} ({}) wins", self.faction_name(w));
                    self.state.outcome = Some(Outcome::won_by(w, EndReason::LastPlayerStanding));
                    return;
                }
                for (p, &gain) in gains.iter().enumerate().take(self.state.n) {
                    if gain > 0 && self.state.players[p].alive {
                        // Border Closure stops the gain: then there is no Voter takeover to log
                        if self.logs() && !self.border_closed_for(p) {
                            glog!(self, "  Voter takeover: P{p}");
                        }
                        self.gain_support(p, gain);
                    }
                }
            }
            // waiting "leaves play" triggers (Volner János)
            if !self.state.pending_leave.is_empty() {
                let pending = std::mem::take(&mut self.state.pending_leave);
                for (c, p) in pending {
                    if self.state.players[p as usize].alive {
                        self.run_triggers(c, p as usize, Trigger::Leave);
                    }
                }
                changed = true;
            }
            if !changed || self.state.outcome.is_some() {
                break;
            }
        }
    }

    /// The state check at the end of a turn that eliminates under `format.elimination =
    /// "end_of_turn"` (TF 169.2.7): a pool still at 0 or less after Close is out; until then
    /// Support may recover. Nothing to do with immediate elimination (E2).
    pub fn end_of_turn_check(&mut self) {
        if self.db.rules.format.elimination != Elimination::EndOfTurn {
            return;
        }
        self.state.turn_end_check = true;
        self.state_check();
        self.state.turn_end_check = false;
    }

    /// The outcome in which `w` and its allies still in the game win (just `w` in the
    /// free-for-all): a team format's simultaneous elimination (E87, R14.5.1).
    fn team_outcome(&self, w: usize, reason: EndReason) -> Outcome {
        // the allies whether in the game or not: here everyone has just left
        let winners = crate::engine::Seats(crate::engine::Seats::one(w).0 | self.state.seating.allies(w).0);
        Outcome { winners, reason, points: None }
    }

    /// Whether every seat still in the game is an ally of every other (no enemies left).
    #[cold]
    fn one_team_left(&self) -> bool {
        let alive = self.state.alive_seats();
        alive.iter().all(|p| self.state.seating.enemies(p).0 & alive.0 == 0)
    }

    /// A team format (E82): a team-mate's Karácsony Gergely also saves the shared pool (the
    /// knock-out of the pool knocks out its controller too). None in the free-for-all.
    fn rescue_by_ally(&mut self, p: usize) -> bool {
        let allies = crate::engine::Seats(self.state.seating.allies(p).0 & self.state.alive_seats().0);
        for q in allies.iter() {
            if self.rescue(q) {
                return true;
            }
        }
        false
    }

    /// Karácsony Gergely's rescue: replaces a knock-out once (not under Border Closure).
    fn rescue(&mut self, p: usize) -> bool {
        let found = self.state.players[p]
            .play
            .iter()
            .copied()
            .filter(|&c| self.state.inst[c as usize].is(Inst::F_STATIC))
            .find_map(|c| self.def(c).statics.iter().find_map(|s| if let Static::Rescue { n } = *s { Some((c, n)) } else { None }));
        let Some((c, n)) = found else { return false };
        if self.border_closed_for(p) {
            return false;
        }
        glog!(self, "  {} saves P{p}: sacrificed, Support becomes {n}", self.name(c));
        self.leave_play(c, false);
        self.state.set_support(p, n as i32);
        true
    }

    /// Remove an eliminated player (R15.3.1). Rare: kept out of the state check's hot loop.
    #[cold]
    #[inline(never)]
    pub fn eliminate(&mut self, p: usize) {
        glog!(self, "P{p} ({}) is eliminated", self.faction_name(p));
        self.state.players[p].alive = false;
        // the circle closes, a seat may lose its last enemy (V3, V4)
        self.reseat();
        self.board_changed_everywhere();
        self.state.players[p].eliminated_round = self.state.round as i32;
        self.state.players[p].eliminated_order = self.state.eliminations;
        self.state.eliminations += 1;
        if self.logs() {
            let pl = &self.state.players[p];
            let own: Vec<Cid> = pl.play.iter().copied().filter(|&c| self.state.inst[c as usize].owner as usize == p).collect();
            let mut lines = vec![format!(
                "  P{p}'s own cards leave the game: {} in hand, {} in the deck, {} in Oblivion, in play: {}",
                pl.hand.len(),
                pl.deck.len(),
                pl.oblivion.len(),
                if own.is_empty() { "none".to_string() } else { self.names(&own) }
            )];
            for &c in &pl.play {
                let n = self.state.inst[c as usize].counters;
                if n > 0 {
                    lines.push(format!("  {} leaves play: its {n} Sympathy counter(s) are removed", self.name(c)));
                }
            }
            if let Some(log) = self.trace.log.as_mut() {
                log.extend(lines);
            }
        }
        // cards in play that p controls
        let play = std::mem::take(&mut self.state.players[p].play);
        for &c in &play {
            self.campaign_remove(c);
            let i = self.state.inst[c as usize];
            let f = self.def(c).faction;
            if i.owner >= 0 && i.owner as usize != p {
                // owned by another player: back to its owner's control
                let o = i.owner as usize;
                glog!(self, "  {} returns to P{o}'s control", self.name(c));
                self.state.inst[c as usize].controller = -1;
                self.state.players[p].play.push(c);
                self.change_control_from(c, p, o);
            } else if matches!(f, Faction::Newsfeed | Faction::Token) {
                self.to_graveyard(c);
            } else {
                self.remove_from_game(c);
            }
        }
        // p's own cards controlled by others leave the game
        for q in 0..self.state.n {
            if q == p {
                continue;
            }
            let mine: Vec<Cid> =
                self.state.players[q].play.iter().copied().filter(|&c| self.state.inst[c as usize].owner as usize == p && self.state.inst[c as usize].owner >= 0).collect();
            for c in mine {
                glog!(self, "  {} (P{p}'s, controlled by P{q}) leaves the game", self.name(c));
                self.campaign_remove(c);
                let pl = &mut self.state.players[q].play;
                pl.retain(|&x| x != c);
                self.remove_from_game(c);
            }
        }
        for zone in 0..3 {
            let v = match zone {
                0 => {
                    self.cache.reactions[p] = 0;
                    self.cache.reaction_floor[p] = [i16::MAX; 2];
                    std::mem::take(&mut self.state.players[p].hand)
                }
                1 => std::mem::take(&mut self.state.players[p].deck),
                _ => std::mem::take(&mut self.state.players[p].oblivion),
            };
            for c in v {
                self.remove_from_game(c);
            }
        }
        // their Action cards on the chain
        let mut i = 0;
        while i < self.state.chain.len() {
            if self.state.chain[i].controller as usize == p {
                let it = self.state.chain.remove(i);
                glog!(self, "  {} is removed from the chain", self.name(it.card));
                if self.state.inst[it.card as usize].owner as usize == p {
                    self.remove_from_game(it.card);
                } else {
                    self.to_graveyard(it.card);
                }
            } else {
                i += 1;
            }
        }
        self.state.set_scandal(p, 0);
        self.state.players[p].pool = [0; 3];
        self.cache.ready[p] = 0;
        self.cache.able[p] = 0;
        // the leave triggers of cards leaving this way do not happen
        self.state.pending_leave.retain(|&(_, q)| q as usize != p);
        if self.state.start_player == p {
            self.state.start_player = self.next_alive(p);
        }
        self.refill_row();
    }

    fn change_control_from(&mut self, c: Cid, from: usize, to: usize) {
        self.state.inst[c as usize].controller = from as i8;
        self.change_control(c, to);
        debug_assert_eq!(self.state.inst[c as usize].zone, Zone::Play);
    }
}
