//! Carrying out card effects: targets (R13.3), triggered abilities (R8.6), activated
//! abilities, and every `Effect` of the vocabulary.

use super::decision::{DecisionKind, Opt};
use super::mode::Mode;
use super::state::{Cid, Game, Inst, Tgt, Zone};
use super::trace::glog;
use crate::cards::{Ability, ActivationCost, Effect, TargetKind, Trigger};

impl<M: Mode> Game<'_, M> {
    /// Call `f` with every legal target of `kind` for `p`'s `source` (R13.3).
    pub fn for_each_target(&self, p: usize, kind: TargetKind, source: Cid, mut f: impl FnMut(Opt)) {
        match kind {
            TargetKind::None => f(Opt::NoTarget),
            TargetKind::Opponent => {
                for q in self.opponents(p) {
                    f(Opt::Player(q as u8));
                }
            }
            TargetKind::Figure | TargetKind::OtherFigureOptional | TargetKind::FigureOrInstitution | TargetKind::InstitutionOptional => {
                for q in 0..self.state.n {
                    for &c in &self.state.players[q].play {
                        let it = &self.state.inst[c as usize];
                        let fig = it.is(Inst::F_FIGURE);
                        let inst = it.is(Inst::F_INSTITUTION);
                        let ok = match kind {
                            TargetKind::Figure => fig,
                            TargetKind::OtherFigureOptional => fig && c != source,
                            TargetKind::FigureOrInstitution => fig || inst,
                            _ => inst,
                        };
                        if ok {
                            f(Opt::Card(c));
                        }
                    }
                }
                if matches!(kind, TargetKind::OtherFigureOptional | TargetKind::InstitutionOptional) {
                    f(Opt::NoTarget);
                }
            }
            TargetKind::OwnFigure | TargetKind::OtherOwnFigure => {
                for &c in &self.state.players[p].play {
                    if self.state.inst[c as usize].is(Inst::F_FIGURE) && !(kind == TargetKind::OtherOwnFigure && c == source) {
                        f(Opt::Card(c));
                    }
                }
            }
            TargetKind::Action => {
                for it in &self.state.chain {
                    if it.card != source {
                        f(Opt::Card(it.card));
                    }
                }
            }
        }
    }

    /// Fill `self.scratch.opts` with the legal targets.
    pub fn target_options(&mut self, p: usize, kind: TargetKind, source: Cid) {
        let mut opts = std::mem::take(&mut self.scratch.opts);
        opts.clear();
        self.for_each_target(p, kind, source, |o| opts.push(o));
        self.scratch.opts = opts;
    }

    /// Whether `kind` has a legal target (optional targets always do).
    pub fn has_target(&self, p: usize, kind: TargetKind, source: Cid) -> bool {
        let fig = |c: Cid| self.state.inst[c as usize].is(Inst::F_FIGURE);
        let inst = |c: Cid| self.state.inst[c as usize].is(Inst::F_INSTITUTION);
        let any_in_play = |f: &dyn Fn(Cid) -> bool| (0..self.state.n).any(|q| self.state.players[q].play.iter().any(|&c| f(c)));
        match kind {
            TargetKind::None | TargetKind::OtherFigureOptional | TargetKind::InstitutionOptional => true,
            TargetKind::Opponent => self.opponents(p).next().is_some(),
            TargetKind::Figure => any_in_play(&fig),
            TargetKind::FigureOrInstitution => any_in_play(&|c| fig(c) || inst(c)),
            TargetKind::OwnFigure => self.state.players[p].play.iter().any(|&c| fig(c)),
            TargetKind::OtherOwnFigure => self.state.players[p].play.iter().any(|&c| fig(c) && c != source),
            TargetKind::Action => self.state.chain.iter().any(|it| it.card != source),
        }
    }

    /// Choose a target; None if there is no legal one.
    pub fn choose_target(&mut self, p: usize, kind: TargetKind, source: Cid) -> Option<Tgt> {
        if kind == TargetKind::None {
            return Some(Tgt::None);
        }
        self.target_options(p, kind, source);
        if self.scratch.opts.is_empty() {
            return None;
        }
        self.state.target_source = Some(source);
        let t = match self.decide(p, DecisionKind::Target) {
            Opt::Player(q) => Tgt::Player(q),
            Opt::Card(c) => Tgt::Card(c),
            _ => Tgt::None,
        };
        match t {
            Tgt::Player(q) => glog!(self, "  {}: P{p} targets P{q}", self.name(source)),
            Tgt::Card(c) => glog!(self, "  {}: P{p} targets {}", self.name(source), self.target_label(c)),
            Tgt::None => glog!(self, "  {}: P{p} chooses no target", self.name(source)),
        }
        Some(t)
    }

    /// A card as a target in the log: its name and where it is.
    fn target_label(&self, c: Cid) -> String {
        let i = &self.state.inst[c as usize];
        match i.zone {
            Zone::Chain => format!("{} (P{}'s, on the chain)", self.name(c), i.controller),
            _ => format!("{} (P{}'s)", self.name(c), i.controller),
        }
    }

    /// A chosen target is still there (R13.3.1).
    pub fn target_valid(&self, kind: TargetKind, t: Tgt) -> bool {
        match t {
            Tgt::None => true,
            Tgt::Player(q) => self.state.players[q as usize].alive,
            Tgt::Card(c) => {
                if kind == TargetKind::Action {
                    self.state.inst[c as usize].zone == Zone::Chain
                } else {
                    self.in_play(c)
                }
            }
        }
    }

    /// Run the abilities of `c` with trigger `t` for controller `p` (targets chosen now).
    pub fn run_triggers(&mut self, c: Cid, p: usize, t: Trigger) {
        let d = self.def(c);
        for ab in d.abilities.iter().filter(|a| a.trigger == t) {
            if self.state.outcome.is_some() {
                return;
            }
            let Some(tgt) = self.choose_target(p, ab.target, c) else { continue };
            self.do_effect(p, c, ab, tgt);
        }
    }

    /// "Whenever you put a Base into play" (Magyar Péter).
    pub fn base_played_triggers(&mut self, p: usize) {
        for i in 0..self.state.players[p].play.len() {
            let c = self.state.players[p].play[i];
            if self.def(c).has_base_played {
                self.run_triggers(c, p, Trigger::BasePlayed);
            }
        }
    }

    /// Activated ability `idx` of `c` may be used by its controller now.
    pub fn can_activate(&self, c: Cid, idx: usize, in_window: bool) -> bool {
        let d = self.def(c);
        let ab = &d.abilities[idx];
        if ab.trigger != Trigger::Activated || matches!(ab.effect, Effect::AddResource { .. } | Effect::AddAnyResources { .. }) {
            return false;
        }
        if in_window && !ab.any_time {
            return false;
        }
        let p = self.controller(c);
        if ab.cost == ActivationCost::Exhaust && (self.state.inst[c as usize].exhausted || (d.ctype.is_figure() && self.summoning_sick(c))) {
            return false;
        }
        if !self.condition(p, ab.condition) {
            return false;
        }
        self.has_target(p, ab.target, c)
    }

    /// Use an activated ability (R8.5: it takes effect at once, without the chain).
    pub fn activate(&mut self, c: Cid, idx: usize) {
        let p = self.controller(c);
        let ab = self.def(c).abilities[idx];
        glog!(self, "P{p} uses {}", self.name(c));
        let Some(tgt) = self.choose_target(p, ab.target, c) else { return };
        match ab.cost {
            ActivationCost::Exhaust => self.set_exhausted(c, true),
            ActivationCost::SacrificeSelf => {
                self.leave_play(c, false);
            }
        }
        self.do_effect(p, c, &ab, tgt);
        self.state_check();
    }

    /// Carry out one effect for controller `p` from `source`.
    pub fn do_effect(&mut self, p: usize, source: Cid, ab: &Ability, tgt: Tgt) {
        if !self.target_valid(ab.target, tgt) {
            glog!(self, "  {}: the target is gone", self.name(source));
            return;
        }
        let cond_ok = self.condition(p, ab.condition);
        let tcard = if let Tgt::Card(c) = tgt { Some(c) } else { None };
        let tplayer = if let Tgt::Player(q) = tgt { Some(q as usize) } else { None };
        match ab.effect {
            Effect::AddResource { res, n } => self.state.players[p].pool[res] += n,
            Effect::AddAnyResources { n } => self.state.players[p].pool[crate::cards::M] += n,
            Effect::RemoveScandal { n } => self.remove_scandal(p, n as i32),
            Effect::RemoveAllScandal => {
                let s = self.state.scandal_pool_of(p);
                self.remove_scandal(p, s)
            }
            Effect::GainSupport { n } => self.gain_support(p, n as i32),
            Effect::GainScandal { n } => self.gain_scandal(p, n as i32),
            Effect::OpponentGainsScandal { n } => {
                if let Some(q) = tplayer {
                    self.gain_scandal(q, n as i32)
                }
            }
            Effect::OpponentLosesSupport { n } => {
                if let Some(q) = tplayer {
                    self.lose_support(q, n as i32, p as i32)
                }
            }
            Effect::EachOpponentLosesSupport { n } => {
                // every enemy in turn order (Support changes eliminate no one before the state check)
                for q in self.state.seating.enemy_order(p) {
                    self.lose_support(q, n as i32, p as i32);
                }
            }
            Effect::Draw { n } => {
                if cond_ok {
                    self.draw(p, n as i32)
                }
            }
            Effect::Damage { n } => {
                if let Some(c) = tcard {
                    self.damage_card(c, n);
                    glog!(self, "  {} takes {n} damage", self.name(c));
                }
            }
            Effect::ExhaustTarget => {
                if let Some(c) = tcard {
                    self.set_exhausted(c, true);
                    glog!(self, "  {} is exhausted", self.name(c));
                }
            }
            Effect::GrantPropaganda => {
                if let Some(c) = tcard {
                    self.until_end_of_turn(c, |i| i.eot_propaganda = true);
                }
            }
            Effect::ReturnToHand { controller_scandal } => {
                if let Some(c) = tcard {
                    let q = self.controller(c);
                    // the log line names where it goes (a Newsfeed card: the Newsfeed deck)
                    self.leave_play(c, true);
                    if controller_scandal > 0 && cond_ok {
                        self.gain_scandal(q, controller_scandal as i32);
                    }
                }
            }
            Effect::Neutralize => {
                if let Some(c) = tcard {
                    if let Some(i) = self.state.chain.iter().position(|it| it.card == c) {
                        self.state.chain.remove(i);
                        glog!(self, "  {} is Neutralized", self.name(c));
                        self.to_graveyard(c);
                    }
                }
            }
            Effect::Expose { n } => {
                if let Some(q) = tplayer {
                    self.expose(p, q, n as i32, false)
                }
            }
            Effect::Sympathy { n } => {
                if tcard.is_none() {
                    if let Some(Tgt::Card(c)) = self.choose_target(p, TargetKind::OwnFigure, source) {
                        self.add_counters(c, n);
                    }
                } else if let Some(c) = tcard {
                    self.add_counters(c, n);
                }
            }
            Effect::SympathySelf { n } => self.add_counters(source, n),
            Effect::SympathyEach { n } => {
                for i in 0..self.state.players[p].play.len() {
                    let c = self.state.players[p].play[i];
                    self.add_counters(c, n);
                }
            }
            Effect::PumpByOpponentScandal { max } => {
                if let Some(c) = tcard {
                    let x = self.opponents(p).map(|q| self.state.scandal_pool_of(q)).max().unwrap_or(0).min(max as i32) as i16;
                    self.until_end_of_turn(c, |i| {
                        i.eot_influence += x;
                        i.eot_credibility += x;
                    });
                    glog!(self, "  {} gets +{x}/+{x}", self.name(c));
                }
            }
            Effect::Rally { influence, credibility } => {
                for i in 0..self.state.players[p].play.len() {
                    let c = self.state.players[p].play[i];
                    if self.ctype(c).is_figure() {
                        self.until_end_of_turn(c, |it| {
                            it.eot_influence += influence;
                            it.eot_credibility += credibility;
                            it.eot_momentum = true;
                        });
                    }
                }
            }
            Effect::SupportPerFigure { per, max } => {
                let g = (self.figure_count(p) * per as i32).min(max as i32);
                self.gain_support(p, g);
            }
            Effect::CreateTokens { token, n } => self.create_tokens(p, token, n as i32),
            Effect::Defect { n } => self.defect(p, source, n as i32),
            Effect::DieRoll(t) => {
                let roll = match self.hooks.forced_die {
                    Some(r) => r as i16,
                    None => self.state.rng_dice.below(6) as i16 + 1,
                };
                glog!(self, "  {} rolls {roll}", self.name(source));
                if roll <= t.self_max {
                    self.gain_scandal(p, t.self_scandal as i32);
                } else if roll <= t.opp_max {
                    if let Some(Tgt::Player(q)) = self.choose_target(p, TargetKind::Opponent, source) {
                        self.gain_scandal(q as usize, t.opp_scandal as i32);
                    }
                } else if roll <= t.draw_max {
                    self.draw(p, t.draw as i32);
                } else if let Some(Tgt::Player(q)) = self.choose_target(p, TargetKind::Opponent, source) {
                    self.expose(p, q as usize, t.expose as i32, false);
                }
            }
            Effect::SacrificeFigure => {}
            Effect::AllGainSupport { .. }
            | Effect::LowestSupportGainSupport { .. }
            | Effect::AllGainScandal { .. }
            | Effect::MostInstitutionsGainScandal { .. }
            | Effect::AllSupportPerFigure { .. }
            | Effect::RefreshNewsfeed
            | Effect::AllDraw { .. }
            | Effect::MostScandalLoseSupport { .. }
            | Effect::AllSympathy { .. }
            | Effect::Round(_) => self.event_effect(&ab.effect),
        }
    }

    /// Create up to `n` token cards of kind `token` under `p`'s control (E3: limited supply).
    pub fn create_tokens(&mut self, p: usize, token: u16, n: i32) {
        for _ in 0..n {
            let Some(i) = self.state.token_box.iter().position(|&c| self.state.inst[c as usize].def == token) else { return };
            let c = self.state.token_box.remove(i);
            glog!(self, "  P{p} creates {}", self.name(c));
            self.enter_play(c, p);
        }
    }

    /// Simicska Lajos: at 4+ Scandal his owner loses him to the opponent with most Support.
    fn defect(&mut self, p: usize, c: Cid, n: i32) {
        if !self.in_play(c) || self.state.inst[c as usize].owner as usize != p || self.controller(c) != p {
            return;
        }
        if self.state.scandal_pool_of(p) < n {
            return;
        }
        let mut best: Option<usize> = None;
        for q in self.opponents(p) {
            if best.is_none_or(|b| self.state.support_of(q) > self.state.support_of(b)) {
                best = Some(q);
            }
        }
        if let Some(q) = best {
            glog!(self, "  {} defects to P{q}", self.name(c));
            self.change_control(c, q);
        }
    }
}
