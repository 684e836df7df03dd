//! The one decision interface: at every choice the engine lists the legal options in
//! `Game::opts` and asks the seat's policy, which sees only a `SeatView`.

use super::state::{Cid, Game, GameData, Zone};

/// The Campaign in progress as a policy sees it: (attacker, attacked seat) and
/// (blocker, attacker).
pub type CampaignView<'a> = (&'a [(Cid, u8)], &'a [(Cid, Cid)]);

/// One legal answer to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    // mulligan (R3.3)
    Keep,
    Mulligan,
    // main priority (R8.4)
    EndPhase,
    PlayBase(Cid),
    Play(Cid),
    Swap(Cid),
    /// Activated ability: card, ability index.
    Activate(Cid, u8),
    Recruit(Cid),
    /// Basic Exposé against a seat.
    Expose(u8),
    Campaign,
    // windows (R8.2)
    Pass,
    // Campaign (R9)
    Attack(Cid, u8),
    Block(Cid, Cid),
    Done,
    // generic choices
    Card(Cid),
    Player(u8),
    Amount(u8),
    NoTarget,
}

/// What a decision is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    Mulligan,
    /// Choose a card to put on the bottom after a mulligan.
    Bottom,
    Main,
    /// Respond in a priority window (play a Reaction, use an ability, or pass).
    Respond,
    Target,
    Attackers,
    Blocks,
    /// Assign one point of an attacker's damage to one of its blockers.
    DivideDamage,
    /// How much Scandal an Exposé takes.
    ExposeAmount,
    Discard,
    /// An additional cost (Sacrifice a Figure).
    Sacrifice,
    /// The start player may decline to start (`format.decline_to_start`, TF 169.2.10):
    /// `Keep` starts, `Pass` declines.
    DeclineStart,
}

/// What one seat may see (R5.5): its own hand, public zones, sizes of hidden zones.
pub struct SeatView<'a, 'db> {
    g: &'a Game<'db>,
    pub seat: usize,
}

impl<'a, 'db> SeatView<'a, 'db> {
    pub fn new(g: &'a Game<'db>, seat: usize) -> Self {
        SeatView { g, seat }
    }
    pub fn n_players(&self) -> usize {
        self.g.state.n
    }
    pub fn hand(&self) -> &[Cid] {
        &self.g.state.players[self.seat].hand
    }
    pub fn hand_size(&self, p: usize) -> usize {
        self.g.state.players[p].hand.len()
    }
    pub fn deck_size(&self, p: usize) -> usize {
        self.g.state.players[p].deck.len()
    }
    pub fn support(&self, p: usize) -> i32 {
        self.g.state.support_of(p)
    }
    pub fn scandal(&self, p: usize) -> i32 {
        self.g.state.scandal_pool_of(p)
    }
    /// `p`'s opponents still in the game, in turn order after `p` (`Game::opponents`).
    pub fn opponents(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        self.g.state.opponents(p)
    }
    /// `p`'s allies still in the game (none in the free-for-all).
    pub fn allies(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        self.g.state.allies(p)
    }
    /// Whether `q` is an enemy of `p` (every other seat in the free-for-all).
    pub fn is_enemy(&self, p: usize, q: usize) -> bool {
        self.g.state.is_enemy(p, q)
    }
    /// Whether a non-aggression pact between `p` and `q` holds now (diplomacy, V1).
    pub fn pact_holds(&self, p: usize, q: usize) -> bool {
        self.g.pact_holds(p, q)
    }
    /// Whether some pact of `p` holds now.
    pub fn any_pact_of(&self, p: usize) -> bool {
        self.g.any_pact_of(p)
    }
    /// The seats with which `p` has a pact that holds now.
    pub fn pact_partners(&self, p: usize) -> super::seats::Seats {
        self.g.pact_partners(p)
    }
    pub fn alive(&self, p: usize) -> bool {
        self.g.state.players[p].alive
    }
    pub fn in_play(&self, p: usize) -> &[Cid] {
        &self.g.state.players[p].play
    }
    pub fn oblivion(&self, p: usize) -> &[Cid] {
        &self.g.state.players[p].oblivion
    }
    pub fn newsfeed_row(&self) -> &[Cid] {
        &self.g.state.news_row
    }
    pub fn active(&self) -> usize {
        self.g.state.active
    }
    pub fn round(&self) -> u32 {
        self.g.state.round
    }
    /// Whether the seat can see card `c` (R5.5): not in a deck, not in another seat's hand.
    #[inline(always)]
    fn visible(&self, c: Cid) -> bool {
        let i = &self.g.state.inst[c as usize];
        match i.zone {
            Zone::Hand => i.owner as usize == self.seat,
            Zone::Deck | Zone::NewsDeck | Zone::EventDeck => false,
            _ => true,
        }
    }
    /// Card id of a card the seat can see; None for hidden cards.
    pub fn card_id(&self, c: Cid) -> Option<&'db str> {
        self.def(c).map(|d| d.id.as_str())
    }
    /// The definition of a card the seat can see.
    #[inline]
    pub fn def(&self, c: Cid) -> Option<&'db crate::cards::CardDef> {
        self.visible(c).then(|| self.g.def(c))
    }
    /// A Base the seat can see (`def(c)` is a Base).
    #[inline]
    pub fn is_base(&self, c: Cid) -> bool {
        self.visible(c) && self.g.state.inst[c as usize].is(super::state::Inst::F_BASE)
    }
    /// A Figure the seat can see (`def(c)` is a Figure).
    #[inline]
    pub fn is_figure(&self, c: Cid) -> bool {
        self.visible(c) && self.g.state.inst[c as usize].is(super::state::Inst::F_FIGURE)
    }
    /// A Figure the seat can see that is not barred from attacking by its own statics (Kerítés).
    #[inline]
    pub fn is_figure_that_may_attack(&self, c: Cid) -> bool {
        use super::state::Inst;
        self.visible(c) && self.g.state.inst[c as usize].flags & (Inst::F_FIGURE | Inst::F_CANT_ATTACK) == Inst::F_FIGURE
    }
    /// State of a card in play: (controller, exhausted, damage, counters).
    pub fn in_play_state(&self, c: Cid) -> Option<(usize, bool, i16, i16)> {
        let i = &self.g.state.inst[c as usize];
        (i.zone == Zone::Play).then_some((i.controller as usize, i.exhausted, i.damage, i.counters))
    }
    /// A Figure in play (public information).
    #[inline]
    pub fn is_figure_in_play(&self, c: Cid) -> bool {
        let i = &self.g.state.inst[c as usize];
        i.zone == Zone::Play && i.is(super::state::Inst::F_FIGURE)
    }
    /// A ready (not exhausted) Figure in play.
    #[inline]
    pub fn is_ready_figure(&self, c: Cid) -> bool {
        let i = &self.g.state.inst[c as usize];
        i.zone == Zone::Play && i.is(super::state::Inst::F_FIGURE) && !i.exhausted
    }
    pub fn can_attack(&self, c: Cid) -> bool {
        self.g.in_play(c) && self.g.can_attack(c)
    }
    pub fn unblockable(&self, c: Cid) -> bool {
        self.g.in_play(c) && self.g.unblockable(c)
    }
    pub fn has_propaganda(&self, c: Cid) -> bool {
        self.g.in_play(c) && self.g.has_propaganda(c)
    }
    /// The Campaign in progress: (attacker, attacked seat) and (blocker, attacker).
    pub fn campaign(&self) -> CampaignView<'_> {
        (&self.g.state.campaign.attackers, &self.g.state.campaign.blocks)
    }
    /// Action cards on the chain, bottom to top: (card, controller).
    pub fn chain(&self) -> impl Iterator<Item = (Cid, usize)> + '_ {
        self.g.state.chain.iter().map(|it| (it.card, it.controller as usize))
    }
    /// The card set the game plays (public: every definition is known to everyone).
    pub fn db(&self) -> &'db crate::cards::CardDb {
        self.g.db
    }
    pub fn rules(&self) -> &'db crate::cards::Rules {
        &self.g.db.rules
    }
    pub fn pool(&self) -> [i16; 3] {
        self.g.state.players[self.seat].pool
    }
    pub fn mulligans(&self) -> u8 {
        self.g.state.players[self.seat].mulligans
    }
    pub fn turn(&self) -> u32 {
        self.g.state.turn
    }
    /// The card whose target is being chosen (for `DecisionKind::Target`).
    pub fn target_source(&self) -> Option<&'db crate::cards::CardDef> {
        self.g.state.target_source.map(|c| self.g.def(c))
    }
    /// Cost of playing own hand card `c` now, with every change.
    pub fn play_cost(&self, c: Cid) -> crate::cards::Cost {
        self.g.play_cost(self.seat, c)
    }
    /// A copy of the game in which everything this seat cannot see is re-dealt at random from
    /// what it could be (each player's hidden cards: hand (other seats) and deck; the Newsfeed
    /// and Event decks), the future randomness is reseeded, and every seat plays `policies`.
    /// The result depends only on what the seat can see and on `rng`.
    pub fn determinize(&self, rng: &mut crate::rng::Rng, policies: impl super::agent::IntoAgents) -> Game<'db> {
        let mut g = self.g.clone();
        g.trace.log = None;
        g.trace.decisions = None;
        g.trace.check_invariants = false;
        g.drive = None;
        g.policies = policies.into_agents();
        let mut pool: Vec<Cid> = Vec::with_capacity(64);
        for p in 0..g.state.n {
            pool.clear();
            let hidden_hand = p != self.seat;
            if hidden_hand {
                pool.extend_from_slice(&g.state.players[p].hand);
            }
            pool.extend_from_slice(&g.state.players[p].deck);
            // canonical order first, so the arrangement of hidden cards cannot matter
            pool.sort_unstable_by_key(|&c| (g.state.inst[c as usize].def, c));
            rng.shuffle(&mut pool);
            let hn = if hidden_hand { g.state.players[p].hand.len() } else { 0 };
            if hidden_hand {
                for (i, &c) in pool[..hn].iter().enumerate() {
                    g.state.players[p].hand[i] = c;
                    g.state.inst[c as usize].zone = Zone::Hand;
                }
            }
            let dn = g.state.players[p].deck.len();
            for (i, &c) in pool[hn..hn + dn].iter().enumerate() {
                g.state.players[p].deck[i] = c;
                g.state.inst[c as usize].zone = Zone::Deck;
            }
        }
        g.recount_hands();
        let st = &mut g.state; // borrowed apart
        for deck in [&mut st.news_deck, &mut st.event_deck] {
            deck.sort_unstable();
            rng.shuffle(deck);
        }
        // cards of the same definition are interchangeable: canonical instance order per def
        g.state.rng_shuffle = crate::rng::Rng::new(rng.next_u64());
        g.state.rng_events = crate::rng::Rng::new(rng.next_u64());
        g.state.rng_dice = crate::rng::Rng::new(rng.next_u64());
        g.hooks.forced_die = None;
        g
    }
    /// The game keeps a record of its answers (`engine::step`), so a decision other than
    /// main priority can be searched (`rollout`).
    pub fn recorded(&self) -> bool {
        self.g.drive.as_ref().is_some_and(|d| d.record)
    }

    /// One search rollout from this decision (of kind `kind`): a re-dealt copy replays the
    /// game since its last checkpoint, answers this decision with `candidate`, and `policies`
    /// play on until the end or round `round_limit`. Returns the outcome, whether the copy
    /// offered `candidate` at this decision, and the rounds played after this one.
    pub fn rollout(
        &self,
        rng: &mut crate::rng::Rng,
        kind: DecisionKind,
        candidate: Opt,
        policies: impl super::agent::IntoAgents,
        round_limit: u32,
    ) -> (super::state::Outcome, bool, u32) {
        self.g.rollout_from(self.seat, kind, rng, candidate, policies.into_agents(), round_limit)
    }

    pub fn unity(&self, p: usize) -> bool {
        self.g.unity(p)
    }
    /// Tests (a `Policy::Probe`): the whole game behind the view.
    #[cfg(any(test, feature = "scenario"))]
    pub fn game(&self) -> &'a Game<'db> {
        self.g
    }
    pub fn influence(&self, c: Cid) -> Option<i16> {
        self.g.in_play(c).then(|| self.g.influence(c))
    }
    pub fn credibility(&self, c: Cid) -> Option<i16> {
        self.g.in_play(c).then(|| self.g.credibility(c))
    }
    /// Summaries of `p`'s cards in play (public), each in one pass over its play list.
    ///
    /// The total Influence (each at least 0) of `p`'s Figures that could attack now
    /// (`can_attack`).
    pub fn attack_power(&self, p: usize) -> i32 {
        // from the newest card back (Figures tend to come after the Bases), stopping at the
        // last of them (`Caches::able` counts them; scenario games, whose readiness tests set
        // by hand, count afresh): a sum, so the order does not matter
        let mut left = if self.g.hooks.full_checks { self.g.count_able(p) } else { self.g.cache.able[p] };
        let mut sum = 0;
        for &c in self.g.state.players[p].play.iter().rev() {
            if left == 0 {
                break;
            }
            if GameData::able(&self.g.state.inst[c as usize]) != 0 {
                left -= 1;
                sum += self.g.stats(c).0.max(0) as i32;
            }
        }
        sum
    }
    /// `p`'s ready Figures (`is_ready_figure`): how many, and the highest Influence among them
    /// (`i16::MIN` when none).
    pub fn ready_figures(&self, p: usize) -> (usize, i16) {
        let mut n = 0;
        let mut max = i16::MIN;
        // from the newest card back, stopping at the last Figure (as `attack_power`)
        let mut figures = self.g.figure_count(p);
        for &c in self.g.state.players[p].play.iter().rev() {
            if figures == 0 {
                break;
            }
            let i = &self.g.state.inst[c as usize];
            figures -= i.is(super::state::Inst::F_FIGURE) as i32;
            if i.is(super::state::Inst::F_FIGURE) && !i.exhausted {
                n += 1;
                max = max.max(self.g.stats(c).0);
            }
        }
        (n, max)
    }
    /// In one pass over `p`'s play list (each Figure's stats read once): the total Influence
    /// (each at least 0) of `p`'s Figures not barred from attacking by their own statics,
    /// ready or not (the power it could swing back with), and `ready_figures(p)`.
    pub fn swing_and_ready(&self, p: usize) -> (i32, (usize, i16)) {
        use super::state::Inst;
        let (mut sum, mut n, mut max) = (0, 0, i16::MIN);
        // from the newest card back, stopping at the last Figure (as `attack_power`)
        let mut figures = self.g.figure_count(p);
        for &c in self.g.state.players[p].play.iter().rev() {
            if figures == 0 {
                break;
            }
            let i = &self.g.state.inst[c as usize];
            if !i.is(Inst::F_FIGURE) {
                continue;
            }
            figures -= 1;
            let may_attack = !i.is(Inst::F_CANT_ATTACK);
            let ready = !i.exhausted;
            if may_attack | ready {
                let inf = self.g.stats(c).0;
                if may_attack {
                    sum += inf.max(0) as i32;
                }
                if ready {
                    n += 1;
                    max = max.max(inf);
                }
            }
        }
        (sum, (n, max))
    }
    /// The party bits of `p`'s cards in play ORed together (its Figures' parties).
    pub fn parties(&self, p: usize) -> u32 {
        // the board counts keep this OR (`BoardCount::parties`)
        self.g.board_count_with(p, |b| b.parties)
    }
    /// How many Bases `p` has in play.
    pub fn bases_in_play(&self, p: usize) -> usize {
        self.g.state.players[p].play.iter().filter(|&&c| self.g.state.inst[c as usize].is(super::state::Inst::F_BASE)).count()
    }
    /// (Influence, Credibility) of a card in play: `influence` and `credibility` at once.
    #[inline]
    pub fn stats(&self, c: Cid) -> Option<(i16, i16)> {
        self.g.in_play(c).then(|| self.g.stats(c))
    }
}

impl GameData<'_> {
    /// Ask `seat`'s policy to choose among `self.scratch.opts`. A single option is taken without
    /// asking (R8.8, automatic pass).
    pub fn decide(&mut self, seat: usize, kind: DecisionKind) -> Opt {
        debug_assert!(!self.scratch.opts.is_empty(), "no options for {kind:?}");
        if self.scratch.opts.len() == 1 {
            return self.scratch.opts[0];
        }
        // an agent that needs no view (the random bot) answers in place; with pacts in the
        // format it looks (the bots honour pacts: `bots::Policy`); a driven game asks its
        // driver (`decide_asked`)
        if self.drive.is_none() && self.db.rules.format.pacts.is_empty() {
            if let Some(i) = self.policies[seat].choose_blind(self.scratch.opts.len()) {
                return self.scratch.opts[i.min(self.scratch.opts.len() - 1)];
            }
        }
        self.decide_asked(seat, kind)
    }

    /// `decide` for a decision put to the driver or to a policy with the seat's view: out of
    /// line, so that the answers above pay neither its frame nor its saved registers.
    #[inline(never)]
    fn decide_asked(&mut self, seat: usize, kind: DecisionKind) -> Opt {
        if self.drive.is_some() {
            return self.decide_driven(seat, kind);
        }
        if let Some(d) = self.trace.decisions.as_mut() {
            d.push((seat as u8, kind, self.scratch.opts.clone()));
        }
        let mut pol = std::mem::replace(&mut self.policies[seat], Box::new(super::agent::NoAgent));
        let i = {
            let view = SeatView::new(self.as_game(), seat);
            pol.choose(&view, kind, &self.scratch.opts)
        };
        self.policies[seat] = pol;
        if i >= self.scratch.opts.len() {
            // a policy answered with something not offered: recorded, never applied
            if self.trace.invariant_error.is_none() {
                self.trace.invariant_error = Some(format!("seat {seat} answered option {i} of {} ({kind:?})", self.scratch.opts.len()));
            }
            return self.scratch.opts[0];
        }
        self.scratch.opts[i]
    }
}
