//! Running a game: the turn loop, the four steps of a turn (R7) and main priority (E39).

use super::decision::{DecisionKind, Opt};
use super::mode::{in_mode, Mode};
use super::state::{EndReason, Game, GameData, Inst, Outcome, Zone};
use super::trace::glog;
use crate::cards::Trigger;

impl GameData<'_> {
    /// Play the game from setup to the end (or the safety cap, E35): `Game::play` in the
    /// mode the recorders need (`mode`).
    pub fn run(&mut self, fixed_start: Option<u8>) -> Outcome {
        in_mode!(self, |g| g.play(fixed_start))
    }

    /// Play turns from the beginning of the active player's turn until the game ends:
    /// `Game::play_turns` in the mode the recorders need.
    pub fn run_loop(&mut self) -> Outcome {
        in_mode!(self, |g| g.play_turns())
    }

    /// Continue a game stopped at the active player's main-priority decision with `choice`
    /// (used by search bots on a copy of the game): `Game::play_on` in the mode the
    /// recorders need.
    pub fn continue_with(&mut self, choice: Opt) -> Outcome {
        in_mode!(self, |g| g.play_on(choice))
    }
}

impl<M: Mode> Game<'_, M> {
    /// `GameData::run` in mode `M`.
    pub(crate) fn play(&mut self, fixed_start: Option<u8>) -> Outcome {
        self.setup(fixed_start);
        self.check();
        self.play_turns()
    }

    /// `GameData::run_loop` in mode `M`.
    pub(crate) fn play_turns(&mut self) -> Outcome {
        loop {
            let p = self.state.active;
            if p == self.state.start_player {
                self.state.round += 1;
                if self.state.round as i32 > self.db.rules.max_rounds || self.state.round > self.state.round_limit {
                    self.state.round -= 1;
                    self.state.outcome = Some(Outcome::no_winner(EndReason::UnfinishedRoundCap));
                    glog!(self, "Safety cap: {} rounds, the game is unfinished", self.db.rules.max_rounds);
                    break;
                }
            }
            self.take_turn();
            if self.state.outcome.is_some() {
                break;
            }
            self.state.active = self.next_alive(self.state.active);
        }
        // unwrap: the loop exits only by `break`, each right after the outcome is set
        self.state.outcome.unwrap()
    }

    /// `GameData::continue_with` in mode `M`.
    pub(crate) fn play_on(&mut self, choice: Opt) -> Outcome {
        let p = self.state.active;
        self.count_action();
        if self.state.outcome.is_none() && self.apply_main(p, choice) {
            self.action_phase(p);
        }
        self.close(p);
        self.state.first_turn_done = true;
        if self.state.outcome.is_none() {
            self.state.active = self.next_alive(self.state.active);
            self.play_turns();
        }
        // unwrap: play_turns returns only once an outcome is set (game end or safety cap)
        self.state.outcome.unwrap()
    }

    /// Count one action against the per-turn safety cap.
    pub fn count_action(&mut self) {
        self.state.actions_this_turn += 1;
        self.state.total_actions += 1;
        if self.state.actions_this_turn as i32 > self.db.rules.max_actions_per_turn && self.state.outcome.is_none() {
            self.state.outcome = Some(Outcome::no_winner(EndReason::UnfinishedActionCap));
        }
        self.check();
    }

    /// Invariant check hook (fuzzer).
    #[inline]
    pub fn check(&mut self) {
        if self.checks() {
            self.check_now();
        }
    }

    /// The invariant check itself (the fuzzer's; a batch game never checks).
    #[cold]
    #[inline(never)]
    fn check_now(&mut self) {
        if self.trace.invariant_error.is_none() {
            if let Err(e) = self.invariants() {
                self.trace.invariant_error = Some(format!("turn {} round {}: {e}", self.state.turn, self.state.round));
            }
        }
    }

    pub fn take_turn(&mut self) {
        let p = self.state.active;
        if self.checks() && self.trace.invariant_error.is_none() && self.state.players.iter().any(|q| q.pool != [0; 3]) {
            self.trace.invariant_error = Some(format!("turn {}: resources did not vanish at the end of the turn", self.state.turn));
        }
        if self.checks() && self.trace.invariant_error.is_none() {
            let lasting = self.state.players.iter().flat_map(|q| q.play.iter()).find(|&&c| {
                let i = &self.state.inst[c as usize];
                i.fresh || i.damage != 0 || i.eot_influence != 0 || i.eot_credibility != 0 || i.eot_propaganda || i.eot_momentum
            });
            if let Some(&c) = lasting {
                self.trace.invariant_error = Some(format!("turn {}: {} kept damage, Freshness or an end-of-turn change", self.state.turn, self.name(c)));
            }
        }
        if self.checks() && self.trace.invariant_error.is_none() && self.state.outcome.is_none() {
            // every format: a seat in the game starts a turn above 0 (end-of-turn elimination
            // lets a pool sit at 0 only within a turn, TF 169.2.7)
            if let Some(q) = (0..self.state.n).find(|&q| self.state.players[q].alive && self.state.support_of(q) <= 0) {
                self.trace.invariant_error = Some(format!("turn {}: P{q} is in the game with Support {} as a turn starts", self.state.turn, self.state.support_of(q)));
            }
        }
        self.state.turn += 1;
        self.state.actions_this_turn = 0;
        {
            let pl = &mut self.state.players[p];
            pl.bases_played = 0;
            pl.recruits = 0;
            pl.exposes = 0;
            pl.campaigns = 0;
            pl.turns_taken += 1;
        }
        glog!(
            self,
            "-- Round {} turn {}: P{} ({}) Support {} Scandal {} hand {} deck {}",
            self.state.round,
            self.state.turn,
            p,
            self.faction_name(p),
            self.state.support_of(p),
            self.state.scandal_pool_of(p),
            self.state.players[p].hand.len(),
            self.state.players[p].deck.len()
        );
        self.wake(p);
        if !self.halted() {
            self.draw_step(p);
        }
        if !self.halted() {
            self.action_phase(p);
        }
        self.close(p);
        self.state.first_turn_done = true;
    }

    /// Wake (E29): ready, start-of-turn effects, the Event procedure, Wake window.
    fn wake(&mut self, p: usize) {
        // a new round begins only if `p` is the start player as its turn begins: one who
        // becomes it during this Wake (the start player knocked out by a start-of-turn
        // Exposé) begins the next round with its next turn (R12.1, R12.9, E66)
        let starts_round = p == self.state.start_player;
        let (mut ready, mut able) = (0u64, 0u16);
        // the play list and the instances borrowed apart, so the list is read once, not
        // reloaded (with its bounds checks) after every write to an instance
        let st = &mut self.state;
        for &c in &st.players[p].play {
            let it = &mut st.inst[c as usize];
            it.exhausted = false;
            ready = ready.wrapping_add(GameData::ready_word(it));
            able += GameData::able(it);
        }
        self.cache.ready[p] = ready;
        self.cache.able[p] = able;
        let per = self.db.rules.movement_per_turn as i16;
        let mut i = 0;
        loop {
            // the next card with something to do at Wake, from `i` on (a scan of the list as
            // it is now: the work below may change it)
            let st = &self.state;
            let play = &st.players[p].play;
            let Some(k) = play[i.min(play.len())..].iter().position(|&c| st.inst[c as usize].is(Inst::F_WAKE)) else { break };
            i += k;
            let c = play[i];
            let d = self.def(c);
            if d.kw.movement > 0 && self.state.inst[c as usize].counters < d.kw.movement {
                self.add_counters(c, per);
            }
            if d.has_start_of_turn {
                self.run_triggers(c, p, Trigger::StartOfTurn);
                self.state_check();
                if self.halted() {
                    return;
                }
            }
            // the card may have left (Simicska defecting): only advance if it is still here
            if self.state.players[p].play.get(i) == Some(&c) {
                i += 1;
            }
        }
        if starts_round {
            self.event_procedure();
            if self.halted() {
                return;
            }
        }
        self.window(p);
    }

    /// Draw (E30): draw, Scandal threshold, Draw window.
    fn draw_step(&mut self, p: usize) {
        let r = &self.db.rules;
        let skip = !self.state.first_turn_done && r.start_player_skips_first_draw && p == self.state.start_player;
        if !skip {
            self.draw(p, r.draws_per_turn);
        }
        self.scandal_threshold_check(p);
        self.state_check();
        if !self.halted() {
            self.window(p);
        }
    }

    /// Main priority options (E39), in a fixed order: end, hand (in hand order, one per
    /// card name), activations, recruits, Exposés, Campaign.
    pub fn main_options(&mut self, p: usize) {
        // the list is built in a local (taken from the scratch buffer and put back), so its
        // pointer and length stay in registers across the checks, which only read the game
        let mut opts = std::mem::take(&mut self.scratch.opts);
        self.list_main_options(p, &mut opts);
        self.scratch.opts = opts;
    }

    #[inline(always)]
    fn list_main_options(&self, p: usize, opts: &mut Vec<Opt>) {
        opts.clear();
        opts.push(Opt::EndPhase);
        let r = &self.db.rules;
        let pl = &self.state.players[p];
        let base_ok = (pl.bases_played as i32) < r.bases_per_turn;
        let avail = self.available(p);
        let swap_ok = GameData::can_pay_from(avail, self.swap_cost());
        // one option per card name; the pushes are branch-free (`push_if`) because whether a
        // card is a Base, a repeat or affordable is anyone's guess for the branch predictor
        // `seen`: a filter of the card names met so far (bit = name mod 64); a hit is
        // confirmed by looking back through the hand (repeats are rare)
        let mut seen: u64 = 0;
        let hand = &pl.hand[..];
        // room for two options per card (`push_if` writes without a capacity check)
        opts.reserve(2 * hand.len());
        for (i, &c) in hand.iter().enumerate() {
            let it = &self.state.inst[c as usize];
            let def = it.def;
            let bit = 1u64 << (def & 63);
            let mut first = seen & bit == 0;
            seen |= bit;
            if !first {
                first = !hand[..i].iter().any(|&x| self.state.inst[x as usize].def == def);
            }
            let base = it.is(Inst::F_BASE);
            let play = !base && self.can_play_from_hand_with(p, c, false, avail);
            // a Base offers PlayBase then Swap, any other card Play
            let (o, ok) = if base { (Opt::PlayBase(c), base_ok) } else { (Opt::Play(c), play) };
            push_if(opts, o, first & ok);
            push_if(opts, Opt::Swap(c), first & base & swap_ok);
        }
        let bc = self.board_count(p);
        if bc.activated > 0 {
            // a full list may have left cards out: then scan the whole board
            let full = bc.activated as usize == bc.with_abilities.len();
            let n = if full { pl.play.len() } else { bc.activated as usize };
            for i in 0..n {
                let c = if full { pl.play[i] } else { bc.with_abilities[i] };
                if self.state.inst[c as usize].is(Inst::F_ACTIVATED) {
                    let d = self.def(c);
                    for a in 0..d.abilities.len() {
                        if self.can_activate(c, a, false) {
                            opts.push(Opt::Activate(c, a as u8));
                        }
                    }
                }
            }
        }
        if (pl.recruits as i32) < r.recruits_per_turn {
            let row = &self.state.news_row[..];
            opts.reserve(row.len());
            for &c in row {
                let ok = GameData::can_pay_from(avail, self.recruit_cost(c)) && self.recruit_extra_ok(p, c);
                push_if(opts, Opt::Recruit(c), ok);
            }
        }
        if (pl.exposes as i32) < r.exposes_per_turn {
            // every opponent (an enemy still in the game, `seats`), in turn order after p
            let enemies = self.state.seating.enemies(p);
            opts.reserve(self.state.n);
            let mut q = p;
            for _ in 1..self.state.n {
                q = if q + 1 == self.state.n { 0 } else { q + 1 };
                let ok = self.state.players[q].alive & enemies.contains(q) & GameData::can_pay_from(avail, self.expose_cost(q));
                push_if(opts, Opt::Expose(q as u8), ok);
            }
        }
        if self.can_start_campaign(p) {
            opts.push(Opt::Campaign);
        }
    }

    /// The Action phase: main priority until the player ends it.
    fn action_phase(&mut self, p: usize) {
        loop {
            if self.halted() {
                return;
            }
            self.main_options(p);
            if self.scratch.opts.len() > 1 {
                self.state.players[p].main_decisions += 1;
            }
            let choice = self.decide(p, DecisionKind::Main);
            self.count_action();
            if self.state.outcome.is_some() || !self.apply_main(p, choice) {
                return;
            }
        }
    }

    /// Carry out one main-priority choice and the after-action window (E38 c). Returns
    /// false when the Action phase is over (ended, or the game or the turn stopped).
    pub fn apply_main(&mut self, p: usize, choice: Opt) -> bool {
        match choice {
            Opt::EndPhase => return false,
            Opt::PlayBase(c) => {
                self.take_from_hand(p, c);
                self.state.players[p].bases_played += 1;
                self.state.players[p].cards_played += 1;
                self.record_play(p, c);
                glog!(self, "P{p} plays Base {}", self.name(c));
                self.enter_play(c, p);
                self.state_check();
            }
            Opt::Swap(c) => {
                glog!(self, "P{p} swaps {}: discards it to Oblivion and draws", self.name(c));
                let cost = self.swap_cost();
                self.pay(p, cost);
                self.take_from_hand(p, c);
                self.state.inst[c as usize].zone = Zone::Oblivion;
                self.state.players[p].oblivion.push(c);
                self.draw(p, 1);
                self.state_check();
            }
            Opt::Play(c) => self.play_card(p, c),
            Opt::Activate(c, a) => self.activate(c, a as usize),
            Opt::Recruit(c) => self.recruit(p, c),
            Opt::Expose(q) => {
                glog!(self, "P{p} uses the basic Exposé against P{q}");
                let cost = self.expose_cost(q as usize);
                self.pay(p, cost);
                self.state.players[p].exposes += 1;
                let n = self.db.rules.expose_max_taken;
                self.expose(p, q as usize, n, true);
                self.state_check();
            }
            Opt::Campaign => {
                glog!(self, "P{p} starts a Campaign");
                self.campaign();
            }
            _ => {}
        }
        if self.halted() {
            return false;
        }
        // after-action window, led by the next player (E38 c)
        let lead = self.next_alive(p);
        self.window(lead);
        self.check();
        !self.halted()
    }

    /// Close (E31): damage and "until end of turn" effects end, hand limit, pools empty.
    fn close(&mut self, p: usize) {
        // an eliminated active player's Actions left on the chain go away without effect (E34)
        while let Some(it) = self.state.chain.pop() {
            if self.state.inst[it.card as usize].zone == Zone::Chain {
                self.to_graveyard(it.card);
            }
        }
        self.invalidate_attackers();
        self.state.campaign.active = false;
        self.state.campaign.attackers.clear();
        self.state.campaign.blocks.clear();
        self.end_turn_changes();
        if self.state.outcome.is_some() || !self.state.players[p].alive {
            return;
        }
        // the end of "until end of turn" toughness can't kill (damage is gone too)
        let limit = self.db.rules.hand_limit as usize;
        while self.state.players[p].hand.len() > limit {
            let g: &mut GameData = self; // the state and the option list borrowed apart
            g.scratch.opts.clear();
            for &c in &g.state.players[p].hand {
                g.scratch.opts.push(Opt::Card(c));
            }
            if let Opt::Card(c) = self.decide(p, DecisionKind::Discard) {
                self.take_from_hand(p, c);
                self.state.inst[c as usize].zone = Zone::Oblivion;
                self.state.players[p].oblivion.push(c);
                glog!(self, "  P{p} discards {} to Oblivion (hand limit)", self.name(c));
            }
        }
        self.state_check();
        // TF 169.2.7: the loss is checked at the end of the turn (a no-op for E2)
        self.end_of_turn_check();
        self.check();
    }
}

/// Push `o` and keep it only if `ok`, without a branch on `ok` and without a capacity check:
/// the caller reserved room for every `push_if` of its loop.
#[inline(always)]
pub(crate) fn push_if<T: Copy>(v: &mut Vec<T>, o: T, ok: bool) {
    debug_assert!(v.len() < v.capacity(), "push_if without reserved room");
    let n = v.len();
    // SAFETY: the caller reserved room (`Vec::reserve`) for this push, so `n < capacity`: the
    // write is inside the allocation; `T` is `Copy` (nothing to drop), and the length only
    // grows over the slot just written
    unsafe {
        v.as_mut_ptr().add(n).write(o);
        v.set_len(n + ok as usize);
    }
}
