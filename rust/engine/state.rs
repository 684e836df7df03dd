//! The rules state (`State`: card instances, zones, players …), the `Game` that holds it
//! beside its caches, buffers, recorders and agents, and the primitive card moves (draw,
//! enter and leave play, change control), which keep the caches in step (`caches`).

use crate::cards::{CardDb, CardDef, CardType, Faction};
use crate::engine::agent::{Agent, Agents, IntoAgents};
use crate::engine::caches::Caches;
use crate::engine::hooks::TestHooks;
use crate::engine::mode::{Mode, Traced};
use crate::engine::scratch::Scratch;
use crate::engine::seats::{Seating, Seats, MAX_SEATS};
use crate::engine::trace::Trace;
use crate::rng::{Rng, Stream};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// A card instance in one game: at most `MAX_INSTS` (512) per game, enough for nine seats of
/// 31-card decks with the Newsfeed, Events and tokens (war of the gods, V4).
pub type Cid = u16;

/// Most card instances a game holds (`Insts`, `StatMemo`: a fixed array each, indexed by a
/// `Cid` masked with `MAX_INSTS - 1`, so no bounds check).
pub const MAX_INSTS: usize = 512;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Deck,
    Hand,
    Oblivion,
    Play,
    NewsRow,
    NewsDeck,
    EventDeck,
    EventDiscard,
    EventInForce,
    /// Token cards not in play.
    Box,
    Chain,
    /// Removed from the game (an eliminated player's cards).
    Removed,
}

/// Aligned to 64 bytes (its 47 bytes of fields padded to one cache line): a card's address is
/// its `Cid` shifted, not multiplied, and one card never straddles two lines.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
pub struct Inst {
    pub def: u16,
    /// Owning seat; -1 for ownerless cards (Newsfeed, tokens, Events).
    pub owner: i8,
    /// Controlling seat while in play (or on the chain).
    pub controller: i8,
    pub zone: Zone,
    pub exhausted: bool,
    pub fresh: bool,
    pub damage: i16,
    pub counters: i16,
    pub eot_influence: i16,
    pub eot_credibility: i16,
    pub eot_propaganda: bool,
    pub eot_momentum: bool,
    /// Order of entering play (R5.1).
    pub entered: u32,
    /// Copied from the card definition for the hot loop (`Inst::F_*` bits).
    pub flags: u16,
    /// Resource source: 0..3 a fixed resource, 3 = any, -1 = none; and units per exhaust.
    pub source: i8,
    pub source_units: i8,
    /// Printed cost and Defector N, copied for `play_cost`.
    pub cost: crate::cards::Cost,
    pub defector: i8,
    /// Printed Influence, Credibility and Lone N, copied for the stat functions.
    pub base_influence: i16,
    pub base_credibility: i16,
    pub lone: i16,
    /// Payment order of its resource source: Base 0, Institution 1, Figure 2, "any" 3.
    pub src_rank: u8,
    /// Exposé tax of its statics (Médiatörvény, Közmédia), copied for the board counts.
    pub expose_tax: i16,
    /// Its party (one bit; Figures only), copied for the board counts (Unity).
    pub party_bit: u32,
}

impl Inst {
    pub const F_FIGURE: u16 = 1;
    pub const F_REACTION: u16 = 2;
    pub const F_INSTANT: u16 = 4;
    pub const F_MOMENTUM: u16 = 8;
    pub const F_BASE: u16 = 16;
    pub const F_INSTITUTION: u16 = 32;
    /// Has static abilities (lords, Exposé taxes, Border Closure …).
    pub const F_STATIC: u16 = 64;
    /// Can't attack (Kerítés).
    pub const F_CANT_ATTACK: u16 = 128;
    /// Has an activated ability other than adding resources.
    pub const F_ACTIVATED: u16 = 256;
    /// A Move or a Reaction.
    pub const F_ACTION: u16 = 512;
    /// Joint Candidate.
    pub const F_JOINT: u16 = 1024;
    /// Playing it needs an additional Sacrifice (Visszalépés).
    pub const F_SACRIFICE_CAST: u16 = 2048;
    /// An Action with a required target.
    pub const F_NEEDS_TARGET: u16 = 4096;
    /// Does something at Wake: Movement N or a start-of-turn ability.
    pub const F_WAKE: u16 = 8192;
    /// Propaganda (printed).
    pub const F_PROPAGANDA: u16 = 16384;
    /// Border Closure.
    pub const F_BORDER: u16 = 32768;
    /// The bits `BoardCount::flags` collects: a card with any of them changes the cached
    /// board when it enters or leaves, even a Base.
    pub const F_COUNTED: u16 = Self::F_STATIC | Self::F_ACTIVATED | Self::F_INSTANT | Self::F_FIGURE | Self::F_INSTITUTION | Self::F_BORDER;

    fn for_def(def: u16, d: &CardDef, owner: i8, zone: Zone) -> Inst {
        let mut flags = 0;
        if d.ctype.is_figure() {
            flags |= Self::F_FIGURE;
        }
        if d.ctype == CardType::Reaction {
            flags |= Self::F_REACTION;
        }
        if d.has_instant_ability {
            flags |= Self::F_INSTANT;
        }
        if d.kw.momentum {
            flags |= Self::F_MOMENTUM;
        }
        if d.ctype == CardType::Base {
            flags |= Self::F_BASE;
        }
        if d.ctype == CardType::Institution {
            flags |= Self::F_INSTITUTION;
        }
        if !d.statics.is_empty() || d.kw.border_closure {
            flags |= Self::F_STATIC;
        }
        if d.statics.iter().any(|s| matches!(s, crate::cards::Static::CantAttack)) {
            flags |= Self::F_CANT_ATTACK;
        }
        if d.has_activated {
            flags |= Self::F_ACTIVATED;
        }
        if d.ctype.is_action() {
            flags |= Self::F_ACTION;
        }
        if d.kw.joint_candidate {
            flags |= Self::F_JOINT;
        }
        if d.sacrifice_to_cast {
            flags |= Self::F_SACRIFICE_CAST;
        }
        if d.kw.movement > 0 || d.has_start_of_turn {
            flags |= Self::F_WAKE;
        }
        if d.kw.propaganda {
            flags |= Self::F_PROPAGANDA;
        }
        if d.kw.border_closure {
            flags |= Self::F_BORDER;
        }
        if d.ctype.is_action()
            && d.abilities.iter().any(|a| {
                a.trigger == crate::cards::Trigger::Resolve
                    && !matches!(a.target, crate::cards::TargetKind::None | crate::cards::TargetKind::OtherFigureOptional | crate::cards::TargetKind::InstitutionOptional)
            })
        {
            flags |= Self::F_NEEDS_TARGET;
        }
        let (source, source_units) = match (d.produces, d.mana_ability) {
            (Some(r), _) => (r as i8, 1),
            (None, Some((Some(r), n))) => (r as i8, n as i8),
            (None, Some((None, n))) => (3, n as i8),
            _ => (-1, 0),
        };
        Inst {
            def,
            owner,
            controller: -1,
            zone,
            flags,
            source,
            source_units,
            cost: d.cost,
            defector: d.kw.defector as i8,
            base_influence: d.influence,
            base_credibility: d.credibility,
            lone: d.kw.lone,
            src_rank: if source == 3 {
                3
            } else if d.ctype == CardType::Base {
                0
            } else if d.ctype == CardType::Institution {
                1
            } else {
                2
            },
            expose_tax: d.statics.iter().map(|s| if let crate::cards::Static::ExposeTax { n } = *s { n } else { 0 }).sum::<i16>(),
            party_bit: d.party_bit,
            ..Default::default()
        }
    }
    /// This instance as a copy of definition `def` (re-dealt hidden cards, `step`): the
    /// printed values change, where it is and what happened to it stay.
    pub(crate) fn with_def(self, def: u16, d: &CardDef) -> Inst {
        let mut n = Inst::for_def(def, d, self.owner, self.zone);
        n.controller = self.controller;
        n.exhausted = self.exhausted;
        n.fresh = self.fresh;
        n.damage = self.damage;
        n.counters = self.counters;
        n.eot_influence = self.eot_influence;
        n.eot_credibility = self.eot_credibility;
        n.eot_propaganda = self.eot_propaganda;
        n.eot_momentum = self.eot_momentum;
        n.entered = self.entered;
        n
    }
    #[inline]
    pub fn is(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }

    /// What ends at Close (E31): damage, "until end of turn" changes, Freshness.
    #[inline]
    pub fn end_turn_state(&mut self) {
        self.damage = 0;
        self.eot_influence = 0;
        self.eot_credibility = 0;
        self.eot_propaganda = false;
        self.eot_momentum = false;
        self.fresh = false;
    }
}

/// The card instances of a game, at most `MAX_INSTS`: a fixed array, so that indexing by a
/// `Cid` (masked to the array) needs no bounds check.
pub struct Insts {
    /// Always a box: `ManuallyDrop` only so that `drop` can hand it back to the pool.
    v: std::mem::ManuallyDrop<Box<[Inst; MAX_INSTS]>>,
    len: usize,
}

/// Instance arrays kept for reuse per thread: a game copy (every search iteration, every
/// checkpoint of a driven game) takes one instead of a new zeroed allocation, whose 25,000
/// instructions of `memset` were over a third of a search iteration.
const INSTS_KEPT: usize = 16;

thread_local! {
    static INSTS_POOL: std::cell::RefCell<Vec<Box<[Inst; MAX_INSTS]>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Insts {
    /// An array from the pool (its slots hold the instances of an earlier game: valid
    /// values, never read past `len`) or, when the pool is empty, a zeroed one.
    fn fresh_array() -> Box<[Inst; MAX_INSTS]> {
        let kept = INSTS_POOL.try_with(|p| p.borrow_mut().pop()).ok().flatten();
        // a zeroed allocation, not 512 defaults built and moved to the heap
        // SAFETY: all-zero bytes are a valid `Inst`, and they are `Inst::default()`: every
        // field is an integer, a bool, a `Zone` (its default `Deck` is discriminant 0) or a
        // `Cost` of integers (`tests::a_zeroed_inst_is_the_default`)
        kept.unwrap_or_else(|| unsafe { Box::<[Inst; MAX_INSTS]>::new_zeroed().assume_init() })
    }
}

impl Drop for Insts {
    fn drop(&mut self) {
        // SAFETY: `v` is taken once, here, and never used again
        let v = unsafe { std::mem::ManuallyDrop::take(&mut self.v) };
        let _ = INSTS_POOL.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                if p.len() < INSTS_KEPT {
                    p.push(v);
                }
            }
        });
    }
}

impl Clone for Insts {
    fn clone(&self) -> Insts {
        let mut n = Insts { v: std::mem::ManuallyDrop::new(Insts::fresh_array()), len: 0 };
        n.clone_from(self);
        n
    }
    /// Copies only the instances in use (a checkpoint of the step API is taken at every
    /// main-priority decision).
    fn clone_from(&mut self, src: &Insts) {
        self.v[..src.len].copy_from_slice(&src.v[..src.len]);
        self.len = src.len;
    }
}

impl Default for Insts {
    fn default() -> Insts {
        Insts { v: std::mem::ManuallyDrop::new(Insts::fresh_array()), len: 0 }
    }
}

impl std::fmt::Debug for Insts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Insts {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Inst> {
        self.v[..self.len].iter()
    }
    pub fn as_slice(&self) -> &[Inst] {
        &self.v[..self.len]
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Add an instance (a game has at most `MAX_INSTS`; `BatchSpec::validate` checks it fits).
    pub fn push(&mut self, i: Inst) {
        self.v[self.len] = i;
        self.len += 1;
    }
    pub fn extend_from_slice(&mut self, s: &[Inst]) {
        self.v[self.len..self.len + s.len()].copy_from_slice(s);
        self.len += s.len();
    }
}

impl std::ops::Index<usize> for Insts {
    type Output = Inst;
    #[inline(always)]
    fn index(&self, i: usize) -> &Inst {
        debug_assert!(i < self.len, "card instance {i} of {}", self.len);
        &self.v[i & (MAX_INSTS - 1)]
    }
}

impl std::ops::IndexMut<usize> for Insts {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut Inst {
        debug_assert!(i < self.len, "card instance {i} of {}", self.len);
        &mut self.v[i & (MAX_INSTS - 1)]
    }
}

#[derive(Debug, Default)]
pub struct Player {
    pub faction: u8,
    /// Support and Scandal of the pool this seat holds (`State::seating.pool`): read and
    /// change them through `State::support_of` / `scandal_pool_of` and their setters, which
    /// map a seat to its pool (its own in the free-for-all, a team's in Coalition).
    pub support: i32,
    pub scandal: i32,
    /// Resource pool: F, M, U (R6.4.1).
    pub pool: [i16; 3],
    /// Top of the deck is the end of the vector.
    pub deck: Vec<Cid>,
    pub hand: Vec<Cid>,
    pub oblivion: Vec<Cid>,
    /// Cards in play this player controls, in the order they entered.
    pub play: Vec<Cid>,
    pub alive: bool,
    /// The turn in which one of its opponents first gained Scandal (Outrage), or u32::MAX.
    pub outrage_turn: u32,
    pub eliminated_round: i32,
    pub eliminated_order: i8,
    // per-turn counters (R7.3.1)
    pub bases_played: u8,
    pub recruits: u8,
    pub exposes: u8,
    pub campaigns: u8,
    // statistics
    pub cards_played: u32,
    pub attacks: u32,
    pub exposes_total: u32,
    pub mulligans: u8,
    pub turns_taken: u32,
    /// Main-priority decisions taken (with more than one option).
    pub main_decisions: u32,
    /// Non-aggression pacts this seat broke (diplomacy, V1).
    pub pacts_broken: u32,
    /// Card records (bit = card definition index): in the kept opening hand, drawn later,
    /// played from hand or recruited.
    pub opening: u128,
    pub drawn: u128,
    pub played: u128,
}

impl Clone for Player {
    fn clone(&self) -> Player {
        let Player {
            faction,
            support,
            scandal,
            pool,
            deck,
            hand,
            oblivion,
            play,
            alive,
            outrage_turn,
            eliminated_round,
            eliminated_order,
            bases_played,
            recruits,
            exposes,
            campaigns,
            cards_played,
            attacks,
            exposes_total,
            mulligans,
            turns_taken,
            main_decisions,
            pacts_broken,
            opening,
            drawn,
            played,
        } = self;
        Player {
            faction: *faction,
            support: *support,
            scandal: *scandal,
            pool: *pool,
            deck: deck.clone(),
            hand: hand.clone(),
            oblivion: oblivion.clone(),
            play: play.clone(),
            alive: *alive,
            outrage_turn: *outrage_turn,
            eliminated_round: *eliminated_round,
            eliminated_order: *eliminated_order,
            bases_played: *bases_played,
            recruits: *recruits,
            exposes: *exposes,
            campaigns: *campaigns,
            cards_played: *cards_played,
            attacks: *attacks,
            exposes_total: *exposes_total,
            mulligans: *mulligans,
            turns_taken: *turns_taken,
            main_decisions: *main_decisions,
            pacts_broken: *pacts_broken,
            opening: *opening,
            drawn: *drawn,
            played: *played,
        }
    }
    /// Field by field, reusing this one's vectors.
    fn clone_from(&mut self, src: &Player) {
        let Player {
            faction,
            support,
            scandal,
            pool,
            deck,
            hand,
            oblivion,
            play,
            alive,
            outrage_turn,
            eliminated_round,
            eliminated_order,
            bases_played,
            recruits,
            exposes,
            campaigns,
            cards_played,
            attacks,
            exposes_total,
            mulligans,
            turns_taken,
            main_decisions,
            pacts_broken,
            opening,
            drawn,
            played,
        } = src;
        self.faction = *faction;
        self.support = *support;
        self.scandal = *scandal;
        self.pool = *pool;
        self.deck.clone_from(deck);
        self.hand.clone_from(hand);
        self.oblivion.clone_from(oblivion);
        self.play.clone_from(play);
        self.alive = *alive;
        self.outrage_turn = *outrage_turn;
        self.eliminated_round = *eliminated_round;
        self.eliminated_order = *eliminated_order;
        self.bases_played = *bases_played;
        self.recruits = *recruits;
        self.exposes = *exposes;
        self.campaigns = *campaigns;
        self.cards_played = *cards_played;
        self.attacks = *attacks;
        self.exposes_total = *exposes_total;
        self.mulligans = *mulligans;
        self.turns_taken = *turns_taken;
        self.main_decisions = *main_decisions;
        self.pacts_broken = *pacts_broken;
        self.opening = *opening;
        self.drawn = *drawn;
        self.played = *played;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    LastPlayerStanding = 0,
    SimultaneousElimination = 1,
    UnfinishedRoundCap = 2,
    UnfinishedActionCap = 3,
}

impl EndReason {
    pub const NAMES: [&'static str; 4] = ["last_player_standing", "simultaneous_elimination", "unfinished_round_cap", "unfinished_action_cap"];
}

/// How a game ended: the seats that won (one seat in the free-for-all, a team in a team
/// format, none when unfinished) and, in a format that scores them, victory points per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winners: Seats,
    pub reason: EndReason,
    /// Victory points per seat (`None` when the format scores none: every format so far).
    pub points: Option<[i16; MAX_SEATS]>,
}

impl Outcome {
    /// `seat` alone won.
    pub fn won_by(seat: usize, reason: EndReason) -> Outcome {
        Outcome { winners: Seats::one(seat), reason, points: None }
    }
    /// Nobody won (an unfinished game).
    pub fn no_winner(reason: EndReason) -> Outcome {
        Outcome { winners: Seats::EMPTY, reason, points: None }
    }
    /// The winning seat: the single winner in the free-for-all (the lowest seat of a winning
    /// team), None when nobody won. This is the `winner` column.
    #[inline]
    pub fn winner(&self) -> Option<u8> {
        self.winners.first().map(|w| w as u8)
    }
    /// Whether `seat` is among the winners.
    #[inline]
    pub fn won(&self, seat: usize) -> bool {
        self.winners.contains(seat)
    }
}

/// Target chosen when a card is played or an ability is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tgt {
    #[default]
    None,
    Player(u8),
    Card(Cid),
}

#[derive(Clone, Copy, Debug)]
pub struct ChainItem {
    pub card: Cid,
    pub controller: u8,
    pub targets: [Tgt; 4],
}

/// "This round" Event modifiers currently in force (R12.2).
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundMods {
    pub expose_cost_increase: i16,
    pub institution_cost_reduction: i16,
    pub attacker_influence: i16,
    pub attacker_credibility: i16,
    pub recruit_cost_delta: i16,
    pub basic_expose_bonus: i16,
    /// At most this many attackers per Campaign this round (None: no limit; 0: no attacks).
    pub max_attackers: Option<i16>,
    pub reaction_cost_increase: i16,
    pub swap_cost_increase: i16,
    pub unblocked_extra_damage: i16,
}

/// The Campaign in progress (R9).
#[derive(Debug, Default)]
pub struct Campaign {
    pub active: bool,
    /// (attacker, attacked seat)
    pub attackers: Vec<(Cid, u8)>,
    /// (blocker, attacker)
    pub blocks: Vec<(Cid, Cid)>,
    /// attackers that were blocked when blocks were declared (R9.3.2)
    pub blocked: Vec<Cid>,
}

impl Clone for Campaign {
    fn clone(&self) -> Campaign {
        let Campaign { active, attackers, blocks, blocked } = self;
        Campaign { active: *active, attackers: attackers.clone(), blocks: blocks.clone(), blocked: blocked.clone() }
    }
    /// Field by field, reusing this one's vectors.
    fn clone_from(&mut self, src: &Campaign) {
        let Campaign { active, attackers, blocks, blocked } = src;
        self.active = *active;
        self.attackers.clone_from(attackers);
        self.blocks.clone_from(blocks);
        self.blocked.clone_from(blocked);
    }
}

/// Inputs of one game besides the card set.
#[derive(Clone, Debug, Default)]
pub struct GameConfig {
    /// Each seat's faction (for a Mixed deck or a list: `Deck::faction`).
    pub factions: Vec<u8>,
    pub seed: u64,
    /// Fixed start player (seat) or None for a random one (R3.6.1).
    pub start_player: Option<u8>,
    /// Each seat's deck when not every seat plays its faction's own deck (Mixed decks,
    /// custom lists: `cards::decks`); empty: seat i plays the deck of `factions[i]`.
    pub decks: Vec<crate::cards::Deck>,
}

/// The rules state of one game: everything that decides what happens next, and nothing
/// else. Caches, buffers, recorders, test switches and the agents live beside it in `Game`.
/// Plain data: read it through `Game::state`; only the engine changes it (and scenario tests,
/// through `Game::state_mut`).
pub struct State {
    /// Seats (2 to 4 today; the arrays hold `seats::MAX_SEATS`).
    pub n: usize,
    pub players: Vec<Player>,
    /// The card instances, indexed by `Cid`.
    pub inst: Insts,
    pub news_row: Vec<Cid>,
    pub news_deck: Vec<Cid>,
    pub event_deck: Vec<Cid>,
    pub event_discard: Vec<Cid>,
    pub event_in_force: Option<Cid>,
    pub token_box: Vec<Cid>,
    pub removed: Vec<Cid>,
    pub chain: Vec<ChainItem>,
    pub campaign: Campaign,
    pub round_mods: RoundMods,
    pub active: usize,
    pub start_player: usize,
    pub first_start_player: usize,
    pub turn: u32,
    pub round: u32,
    /// The game ends unfinished (round cap) before round `round_limit + 1` starts: set by the
    /// search bot on its rollouts (`rollout_rounds`); u32::MAX (no limit) otherwise.
    pub round_limit: u32,
    pub seq: u32,
    pub actions_this_turn: u32,
    pub total_actions: u32,
    pub first_turn_done: bool,
    /// The round of the latest Event procedure (0: none yet); the fuzzer checks one a round.
    pub event_round: u32,
    pub outcome: Option<Outcome>,
    /// Who is credited with the latest Support reduction of each seat (-1 = nobody) (R15.4.1).
    pub last_reducer: [i8; MAX_SEATS],
    /// Opponents, allies and Support/Scandal pools of the seats (`seats`).
    pub seating: Seating,
    pub eliminations: i8,
    /// Victory points of each seat in tenths (V3; all 0 in a format without points).
    pub points: [i16; MAX_SEATS],
    pub rng_shuffle: Rng,
    pub rng_events: Rng,
    pub rng_dice: Rng,
    /// The card whose target is being chosen (shown to policies).
    pub target_source: Option<Cid>,
    /// "Leaves play" triggers waiting for the next state check (R8.6): (card, controller).
    pub pending_leave: Vec<(Cid, u8)>,
    /// The game's seed (its random streams derive from it).
    pub seed: u64,
    /// The end-of-turn state check of `format.elimination = "end_of_turn"` is running
    /// (TF 169.2.7): only then does a pool at 0 eliminate.
    pub turn_end_check: bool,
    /// Pacts (index into `format.pacts`, bit i) that were broken and no longer hold (V1).
    pub pacts_void: u16,
}

impl Clone for State {
    fn clone(&self) -> State {
        let State {
            n,
            players,
            inst,
            news_row,
            news_deck,
            event_deck,
            event_discard,
            event_in_force,
            token_box,
            removed,
            chain,
            campaign,
            round_mods,
            active,
            start_player,
            first_start_player,
            turn,
            round,
            round_limit,
            seq,
            actions_this_turn,
            total_actions,
            first_turn_done,
            event_round,
            outcome,
            last_reducer,
            seating,
            eliminations,
            points,
            rng_shuffle,
            rng_events,
            rng_dice,
            target_source,
            pending_leave,
            seed,
            turn_end_check,
            pacts_void,
        } = self;
        State {
            n: *n,
            players: players.clone(),
            inst: inst.clone(),
            news_row: news_row.clone(),
            news_deck: news_deck.clone(),
            event_deck: event_deck.clone(),
            event_discard: event_discard.clone(),
            event_in_force: *event_in_force,
            token_box: token_box.clone(),
            removed: removed.clone(),
            chain: chain.clone(),
            campaign: campaign.clone(),
            round_mods: *round_mods,
            active: *active,
            start_player: *start_player,
            first_start_player: *first_start_player,
            turn: *turn,
            round: *round,
            round_limit: *round_limit,
            seq: *seq,
            actions_this_turn: *actions_this_turn,
            total_actions: *total_actions,
            first_turn_done: *first_turn_done,
            event_round: *event_round,
            outcome: *outcome,
            last_reducer: *last_reducer,
            seating: *seating,
            eliminations: *eliminations,
            points: *points,
            rng_shuffle: rng_shuffle.clone(),
            rng_events: rng_events.clone(),
            rng_dice: rng_dice.clone(),
            target_source: *target_source,
            pending_leave: pending_leave.clone(),
            seed: *seed,
            turn_end_check: *turn_end_check,
            pacts_void: *pacts_void,
        }
    }
    /// Field by field, reusing this state's vectors (the step API's checkpoints).
    fn clone_from(&mut self, src: &State) {
        // exhaustive: a new field fails to compile here until it is copied
        let State {
            n,
            players,
            inst,
            news_row,
            news_deck,
            event_deck,
            event_discard,
            event_in_force,
            token_box,
            removed,
            chain,
            campaign,
            round_mods,
            active,
            start_player,
            first_start_player,
            turn,
            round,
            round_limit,
            seq,
            actions_this_turn,
            total_actions,
            first_turn_done,
            event_round,
            outcome,
            last_reducer,
            seating,
            eliminations,
            points,
            rng_shuffle,
            rng_events,
            rng_dice,
            target_source,
            pending_leave,
            seed,
            turn_end_check,
            pacts_void,
        } = src;
        self.n = *n;
        self.players.clone_from(players);
        self.inst.clone_from(inst);
        self.news_row.clone_from(news_row);
        self.news_deck.clone_from(news_deck);
        self.event_deck.clone_from(event_deck);
        self.event_discard.clone_from(event_discard);
        self.event_in_force = *event_in_force;
        self.token_box.clone_from(token_box);
        self.removed.clone_from(removed);
        self.chain.clone_from(chain);
        self.campaign.clone_from(campaign);
        self.round_mods = *round_mods;
        self.active = *active;
        self.start_player = *start_player;
        self.first_start_player = *first_start_player;
        self.turn = *turn;
        self.round = *round;
        self.round_limit = *round_limit;
        self.seq = *seq;
        self.actions_this_turn = *actions_this_turn;
        self.total_actions = *total_actions;
        self.first_turn_done = *first_turn_done;
        self.event_round = *event_round;
        self.outcome = *outcome;
        self.last_reducer = *last_reducer;
        self.seating = *seating;
        self.eliminations = *eliminations;
        self.points = *points;
        self.rng_shuffle = rng_shuffle.clone();
        self.rng_events = rng_events.clone();
        self.rng_dice = rng_dice.clone();
        self.target_source = *target_source;
        self.pending_leave.clone_from(pending_leave);
        self.seed = *seed;
        self.turn_end_check = *turn_end_check;
        self.pacts_void = *pacts_void;
    }
}

/// What a game holds: the rules state and what the engine keeps beside it. Fields are
/// crate-private; outside the crate a game is read through `state()`, `opts()`, `trace()` and
/// `policies()`. The rules code runs it as a `Game` (below).
pub struct GameData<'db> {
    pub(crate) db: &'db CardDb,
    /// The rules state.
    pub(crate) state: State,
    /// The agents answering each seat's decisions (the step API of issue 12 moves them out
    /// of the engine).
    pub(crate) policies: Agents,
    /// Derived from the rules state, for speed (`caches`).
    pub(crate) cache: Caches,
    /// Reusable buffers (no meaning between actions).
    pub(crate) scratch: Scratch,
    /// Recorders (log, decisions, plays, invariant checking).
    pub(crate) trace: Trace,
    /// Test switches.
    pub(crate) hooks: TestHooks,
    /// Driving from outside (`step`): checkpoint and answers; None in the batch fast path.
    pub(crate) drive: Option<Box<crate::engine::step::Drive>>,
    /// The starting card instances of this game (copied by the next game that reuses this
    /// one's buffers, `Game::new_reusing`).
    proto: Proto,
}

/// One game, run by the rules code compiled for mode `M` (`mode`): `Traced` (the default:
/// the log and the invariant checks as the recorders say) or `Untraced` (both compiled out).
/// The rules functions are methods of `Game<'db, M>`; everything else (the fields, the stats,
/// costs and caches, `decide`) is reached through `GameData`, which a `Game` dereferences
/// to. Only the entry points (`GameData::run`, `run_loop`, `continue_with`, a driven game's
/// run) choose the mode, so agents, views and callers see a plain `Game` (`Traced`).
#[repr(transparent)]
pub struct Game<'db, M: Mode = Traced> {
    data: GameData<'db>,
    mode: PhantomData<M>,
}

impl<'db, M: Mode> Game<'db, M> {
    /// `data` as a game run in mode `M`.
    pub(crate) fn wrap(data: GameData<'db>) -> Game<'db, M> {
        Game { data, mode: PhantomData }
    }

    /// `data` run in mode `M`.
    #[inline(always)]
    pub(crate) fn of<'a>(data: &'a mut GameData<'db>) -> &'a mut Game<'db, M> {
        // SAFETY: `Game` is `repr(transparent)` over `GameData` (its other field is a
        // zero-sized marker), so both have the same layout; the borrow is carried over.
        unsafe { &mut *(data as *mut GameData<'db> as *mut Game<'db, M>) }
    }
}

impl<'db> GameData<'db> {
    /// This game as the plain (`Traced`) `Game` that views and agents read.
    #[inline(always)]
    pub(crate) fn as_game(&self) -> &Game<'db> {
        // SAFETY: as in `Game::of`, for a shared borrow.
        unsafe { &*(self as *const GameData<'db> as *const Game<'db>) }
    }
}

impl<'db, M: Mode> Deref for Game<'db, M> {
    type Target = GameData<'db>;
    #[inline(always)]
    fn deref(&self) -> &GameData<'db> {
        &self.data
    }
}

impl<'db, M: Mode> DerefMut for Game<'db, M> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut GameData<'db> {
        &mut self.data
    }
}

impl<M: Mode> Clone for Game<'_, M> {
    fn clone(&self) -> Self {
        Game::wrap(self.data.clone())
    }
}

impl Clone for GameData<'_> {
    fn clone(&self) -> Self {
        self.copy_with_state(self.state.clone())
    }
}

impl<'db> GameData<'db> {
    /// A copy of this game with another rules state (`step`'s rebuilt copies take their
    /// checkpoint's, so the current state is not copied only to be replaced).
    pub(crate) fn copy_with_state(&self, state: State) -> GameData<'db> {
        // exhaustive: a new field fails to compile here until it is copied
        let GameData { db, state: _, policies, cache, scratch, trace, hooks, drive, proto } = self;
        GameData {
            db,
            state,
            policies: policies.clone(),
            cache: cache.clone(),
            scratch: scratch.clone(),
            trace: trace.clone(),
            hooks: *hooks,
            drive: drive.clone(),
            proto: proto.clone(),
        }
    }
}

/// Starting card instances kept for reuse, with what they depend on: the card set (by
/// address) and the factions. A copy of a game (search) does not carry them.
#[derive(Debug, Default)]
pub struct Proto {
    insts: Vec<Inst>,
    db: usize,
    factions: Vec<u8>,
    decks: Vec<crate::cards::Deck>,
}

impl Clone for Proto {
    fn clone(&self) -> Proto {
        Proto::default()
    }
}

/// The vectors of a finished game, cleared, for the next one (`Game::new_reusing`).
#[derive(Default)]
struct Buffers {
    players: Vec<Player>,
    inst: Insts,
    news_row: Vec<Cid>,
    news_deck: Vec<Cid>,
    event_deck: Vec<Cid>,
    event_discard: Vec<Cid>,
    token_box: Vec<Cid>,
    removed: Vec<Cid>,
    chain: Vec<ChainItem>,
    campaign: Campaign,
    scratch: Scratch,
    pending_leave: Vec<(Cid, u8)>,
    cache: Caches,
    proto: Proto,
}

impl From<GameData<'_>> for Buffers {
    fn from(g: GameData<'_>) -> Buffers {
        fn clear<T>(mut v: Vec<T>) -> Vec<T> {
            v.clear();
            v
        }
        let c = g.state.campaign;
        Buffers {
            players: g.state.players,
            inst: {
                let mut i = g.state.inst;
                i.clear();
                i
            },
            news_row: clear(g.state.news_row),
            news_deck: clear(g.state.news_deck),
            event_deck: clear(g.state.event_deck),
            event_discard: clear(g.state.event_discard),
            token_box: clear(g.state.token_box),
            removed: clear(g.state.removed),
            chain: clear(g.state.chain),
            campaign: Campaign { active: false, attackers: clear(c.attackers), blocks: clear(c.blocks), blocked: clear(c.blocked) },
            scratch: {
                let mut s = g.scratch;
                s.clear();
                s
            },
            pending_leave: clear(g.state.pending_leave),
            cache: g.cache,
            proto: g.proto,
        }
    }
}

use super::trace::{cards, glog};

impl<'db> Game<'db> {
    /// A game ready to be set up: every card instance created, in its starting zone.
    pub fn new(db: &'db CardDb, cfg: &GameConfig, policies: impl IntoAgents) -> Game<'db> {
        Self::new_reusing(db, cfg, policies, None)
    }

    /// `new`, reusing the buffers of a finished game (`donor`) so that a batch allocates
    /// nothing per game. Every field is set afresh; only vector capacities carry over.
    pub fn new_reusing(db: &'db CardDb, cfg: &GameConfig, policies: impl IntoAgents, donor: Option<Game<'db>>) -> Game<'db> {
        let policies = policies.into_agents();
        let n = cfg.factions.len();
        let b = donor.map(|g| Buffers::from(g.data)).unwrap_or_default();
        let mut players = b.players;
        players.truncate(n);
        for pl in players.iter_mut() {
            let mut fresh = Player::default();
            for (new, old) in [(&mut fresh.deck, &mut pl.deck), (&mut fresh.hand, &mut pl.hand), (&mut fresh.oblivion, &mut pl.oblivion), (&mut fresh.play, &mut pl.play)] {
                std::mem::swap(new, old);
                new.clear();
            }
            *pl = fresh;
        }
        players.resize_with(n, Player::default);
        let state = State {
            n,
            players,
            inst: b.inst,
            news_row: b.news_row,
            news_deck: b.news_deck,
            event_deck: b.event_deck,
            event_discard: b.event_discard,
            event_in_force: None,
            token_box: b.token_box,
            removed: b.removed,
            chain: b.chain,
            campaign: b.campaign,
            round_mods: RoundMods::default(),
            active: 0,
            start_player: 0,
            first_start_player: 0,
            turn: 0,
            round: 0,
            round_limit: u32::MAX,
            seq: 0,
            actions_this_turn: 0,
            total_actions: 0,
            first_turn_done: false,
            event_round: 0,
            outcome: None,
            last_reducer: [-1; MAX_SEATS],
            // BatchSpec::validate and the step API check the format seats `n`
            seating: Seating::of_format(&db.rules.format, n).unwrap_or_else(|_| Seating::free_for_all(n)),
            eliminations: 0,
            points: [0; MAX_SEATS],
            rng_shuffle: Rng::stream(cfg.seed, Stream::Shuffle as u64),
            rng_events: Rng::stream(cfg.seed, Stream::Events as u64),
            rng_dice: Rng::stream(cfg.seed, Stream::Dice as u64),
            target_source: None,
            pending_leave: b.pending_leave,
            seed: cfg.seed,
            turn_end_check: false,
            pacts_void: 0,
        };
        let mut g = GameData {
            db,
            state,
            policies,
            scratch: b.scratch,
            // reset once the instances are made (below): it clears their memo entries
            cache: b.cache,
            trace: Trace::default(),
            hooks: TestHooks::default(),
            drive: None,
            proto: Proto::default(),
        };
        // capacities for a whole game (no-ops for reused buffers)
        g.state.news_row.reserve(4);
        g.state.news_deck.reserve(16);
        g.state.event_deck.reserve(20);
        g.state.event_discard.reserve(20);
        g.state.token_box.reserve(8);
        g.state.chain.reserve(8);
        g.scratch.reserve();
        // the starting instances depend only on the card set and the factions: a reused
        // game that had the same ones copies them instead of building each from its card
        let mut proto = b.proto;
        let db_key = db as *const CardDb as usize;
        let copy = proto.db == db_key && proto.factions == cfg.factions && proto.decks == cfg.decks && cfg.decks.iter().all(|d| d.is_fixed()) && !proto.insts.is_empty();
        if copy {
            g.state.inst.extend_from_slice(&proto.insts);
        }
        let mut next: usize = 0;
        let mut make = |g: &mut GameData<'db>, d: u16, owner: i8, zone: Zone| -> Cid {
            if !copy {
                g.state.inst.push(Inst::for_def(d, db.def(d), owner, zone));
            }
            next += 1;
            (next - 1) as Cid
        };
        for (seat, &f) in cfg.factions.iter().enumerate() {
            let p = &mut g.state.players[seat];
            p.faction = f;
            p.alive = true;
            p.outrage_turn = u32::MAX;
            p.eliminated_round = -1;
            p.eliminated_order = -1;
            p.deck.reserve(40);
            p.hand.reserve(16);
            p.oblivion.reserve(40);
            p.play.reserve(24);
            if let Some(deck) = cfg.decks.get(seat) {
                // a Mixed deck or a list (cards::decks; a Mixed deck's choice is per game)
                let mut defs = Vec::new();
                deck.deal(db, cfg.seed, seat, &mut defs);
                for d in defs {
                    let c = make(&mut g, d, seat as i8, Zone::Deck);
                    g.state.players[seat].deck.push(c);
                }
                continue;
            }
            for &d in &db.decks[f as usize] {
                let c = make(&mut g, d, seat as i8, Zone::Deck);
                g.state.players[seat].deck.push(c);
            }
        }
        for &d in &db.newsfeed {
            let c = make(&mut g, d, -1, Zone::NewsDeck);
            g.state.news_deck.push(c);
        }
        for &d in &db.events {
            let c = make(&mut g, d, -1, Zone::EventDeck);
            g.state.event_deck.push(c);
        }
        for &(d, count) in &db.tokens {
            for _ in 0..count {
                let c = make(&mut g, d, -1, Zone::Box);
                g.state.token_box.push(c);
            }
        }
        debug_assert_eq!(next, g.state.inst.len());
        if !copy {
            proto.insts.clear();
            proto.insts.extend_from_slice(g.state.inst.as_slice());
            proto.db = db_key;
            proto.factions.clear();
            proto.factions.extend_from_slice(&cfg.factions);
            proto.decks.clone_from(&cfg.decks);
        }
        g.proto = proto;
        g.cache.reset(g.state.inst.len());
        g.cache.fragile = g.state.inst.iter().any(|i| i.is(Inst::F_FIGURE) && i.base_credibility <= 0);
        Game::wrap(g)
    }
}

impl<'db> GameData<'db> {
    /// The card set.
    #[inline]
    pub fn db(&self) -> &'db CardDb {
        self.db
    }

    /// The rules state, read-only: the engine changes it only through its rules functions,
    /// which keep the caches in step (`caches`).
    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// What the recorders hold.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Turn recorders on or off, or take what they recorded (recording changes no game).
    pub fn trace_mut(&mut self) -> &mut Trace {
        &mut self.trace
    }

    /// The policy of each seat.
    pub fn policies(&self) -> &[Box<dyn Agent>] {
        &self.policies
    }

    /// Seat `seat`'s agent as a `T`, if it is one (e.g. `g.policy::<bots::Policy>(0)`).
    pub fn policy<T: 'static>(&self, seat: usize) -> Option<&T> {
        self.policies.get(seat)?.as_any().downcast_ref::<T>()
    }

    /// The options of the latest decision built (`main_options`, target options …).
    pub fn opts(&self) -> &[crate::engine::Opt] {
        &self.scratch.opts
    }

    #[inline]
    pub fn def(&self, c: Cid) -> &'db CardDef {
        self.db.def(self.state.inst[c as usize].def)
    }
    #[inline]
    pub fn ctype(&self, c: Cid) -> CardType {
        self.def(c).ctype
    }
    #[inline]
    pub fn name(&self, c: Cid) -> &'db str {
        &self.def(c).name
    }
    #[inline]
    pub fn controller(&self, c: Cid) -> usize {
        self.state.inst[c as usize].controller as usize
    }
    #[inline]
    pub fn in_play(&self, c: Cid) -> bool {
        self.state.inst[c as usize].zone == Zone::Play
    }
    /// Halt every loop of the current turn: the game is over or the active player is out.
    #[inline]
    pub fn halted(&self) -> bool {
        self.state.outcome.is_some() || !self.state.players[self.state.active].alive
    }
    #[inline]
    pub fn alive(&self, p: usize) -> bool {
        self.state.players[p].alive
    }
    /// The next seat after `p` in turn order that is still in the game.
    pub fn next_alive(&self, p: usize) -> usize {
        let mut q = p;
        for _ in 0..self.state.n {
            q = (q + 1) % self.state.n;
            if self.state.players[q].alive {
                return q;
            }
        }
        p
    }
    pub fn alive_count(&self) -> usize {
        self.state.players.iter().filter(|p| p.alive).count()
    }
    pub fn faction_name(&self, p: usize) -> &'static str {
        crate::cards::FACTIONS[self.state.players[p].faction as usize]
    }

    // ----- primitive moves -------------------------------------------------------------

    /// The names of `cs`, comma-separated (for the log).
    pub fn names(&self, cs: &[Cid]) -> String {
        cs.iter().map(|&c| self.name(c)).collect::<Vec<_>>().join(", ")
    }

    /// Record that `p` played (or recruited) card `c` now.
    pub fn record_play(&mut self, p: usize, c: Cid) {
        let d = self.state.inst[c as usize].def;
        self.state.players[p].played |= 1u128 << (d & 127);
        if let Some(v) = self.trace.plays.as_mut() {
            v.push((p as u8, d, self.state.turn.min(u16::MAX as u32) as u16));
        }
    }

    #[inline]
    pub fn take_from_hand(&mut self, p: usize, c: Cid) {
        let pl = &mut self.state.players[p];
        // unwrap: every caller passes an option built from `p`'s hand (play, Base, Swap, bottom, discard)
        let i = pl.hand.iter().position(|&x| x == c).expect("card not in hand");
        pl.hand.remove(i);
        if self.state.inst[c as usize].is(Inst::F_REACTION) {
            self.recount_reactions(p);
        }
    }

    /// Add `c` to the end of `p`'s hand (the caller sets its zone).
    #[inline]
    pub fn hand_push(&mut self, p: usize, c: Cid) {
        self.state.players[p].hand.push(c);
        if self.state.inst[c as usize].is(Inst::F_REACTION) {
            self.recount_reactions(p);
        }
    }

    /// Recount what is kept in step with the hands (after editing hands directly).
    pub fn recount_hands(&mut self) {
        for p in 0..self.state.n {
            self.recount_reactions(p);
        }
    }

    /// Count `p`'s Reactions in hand afresh (`Caches::reactions`, `Caches::reaction_floor`).
    #[inline(never)]
    pub(crate) fn recount_reactions(&mut self, p: usize) {
        let (n, floor) = self.tally_reactions(p);
        self.cache.reactions[p] = n;
        self.cache.reaction_floor[p] = floor;
    }

    /// `p`'s Reactions in hand: how many, and the fewest units one of them could cost (see
    /// `Caches::reaction_floor`).
    pub(crate) fn tally_reactions(&self, p: usize) -> (u8, [i16; 2]) {
        let mut n = 0u8;
        let mut floor = [i16::MAX; 2];
        for &c in &self.state.players[p].hand {
            let i = &self.state.inst[c as usize];
            if !i.is(Inst::F_REACTION) {
                continue;
            }
            n += 1;
            // at least its pips and what Defector leaves of its generic part
            let low = i.cost.pips.iter().sum::<i16>() + (i.cost.generic - i.defector.max(0) as i16).max(0);
            let needs_chain = self.def(c).abilities.iter().any(|a| a.trigger == crate::cards::Trigger::Resolve && a.target == crate::cards::TargetKind::Action);
            if !needs_chain {
                floor[0] = floor[0].min(low);
            }
            floor[1] = floor[1].min(low);
        }
        (n, floor)
    }
}

impl<M: Mode> Game<'_, M> {
    /// Draw `n` cards; each card that cannot be drawn costs `empty_deck_loss` Support (R7.6.1).
    /// The log names the cards drawn in parentheses: those names are private to `p` (the log
    /// is one omniscient view; a seat's own view would show only the count to the others).
    pub fn draw(&mut self, p: usize, n: i32) {
        let mut k = 0;
        for _ in 0..n {
            if let Some(c) = self.state.players[p].deck.pop() {
                self.state.inst[c as usize].zone = Zone::Hand;
                self.hand_push(p, c);
                k += 1;
                if self.state.turn > 0 {
                    self.state.players[p].drawn |= 1u128 << (self.state.inst[c as usize].def & 127);
                }
            } else {
                // the deck stays empty: the cards drawn are all drawn before the first loss
                if k > 0 {
                    glog!(self, "  P{p} draws {} ({})", cards(k), self.names(&self.state.players[p].hand[self.state.players[p].hand.len() - k..]));
                    k = 0;
                }
                let loss = self.db.rules.empty_deck_loss;
                glog!(self, "  P{p} cannot draw from an empty deck: loses {loss} Support");
                self.lose_support(p, loss, -1);
            }
        }
        if k > 0 {
            glog!(self, "  P{p} draws {} ({})", cards(k), self.names(&self.state.players[p].hand[self.state.players[p].hand.len() - k..]));
        }
    }

    /// Put a card into a player's Oblivion, a Newsfeed card to the bottom of the Newsfeed
    /// deck, a token card back to the box (R5.2.1).
    pub fn to_graveyard(&mut self, c: Cid) {
        let db = self.db;
        let i = &mut self.state.inst[c as usize];
        let f = db.def(i.def).faction;
        i.controller = -1;
        match f {
            Faction::Newsfeed => {
                i.zone = Zone::NewsDeck;
                self.state.news_deck.insert(0, c);
                glog!(self, "  {} goes to the bottom of the Newsfeed deck", self.name(c));
            }
            Faction::Token => {
                i.zone = Zone::Box;
                self.state.token_box.push(c);
                glog!(self, "  {} goes back to the box", self.name(c));
            }
            _ => {
                i.zone = Zone::Oblivion;
                let o = i.owner as usize;
                self.state.players[o].oblivion.push(c);
                glog!(self, "  {} goes to P{o}'s Oblivion", self.name(c));
            }
        }
    }

    /// A card enters play under `p`'s control (R6.6.1, R10.1.1); its "enters play" abilities
    /// follow at once (they are the only waiting triggers of this event, R8.6).
    pub fn enter_play(&mut self, c: Cid, p: usize) {
        let d = self.def(c);
        {
            let seq = self.state.seq;
            let i = &mut self.state.inst[c as usize];
            i.zone = Zone::Play;
            i.controller = p as i8;
            i.end_turn_state();
            i.exhausted = false;
            i.fresh = d.ctype.is_figure();
            i.counters = 0;
            i.entered = seq;
        }
        self.state.seq += 1;
        self.state.players[p].play.push(c);
        if self.state.inst[c as usize].fresh {
            self.cache.fresh_cards.push(c);
        }
        self.ready_in(c);
        self.board_in(c);
        if d.kw.scandal > 0 {
            self.gain_scandal(p, d.kw.scandal as i32);
        }
        if d.ctype == CardType::Base {
            self.base_played_triggers(p);
        }
        if d.has_enter {
            self.run_triggers(c, p, crate::cards::Trigger::Enter);
        }
    }

    /// A card leaves play to `dest` (Oblivion/hand/box/Newsfeed deck by the card's kind).
    /// `to_hand`: Return to hand (R13.6). Leave triggers wait in `pending_leave`.
    pub fn leave_play(&mut self, c: Cid, to_hand: bool) {
        self.ready_out(c);
        self.board_out(c);
        let ctrl = self.state.inst[c as usize].controller as usize;
        let pl = &mut self.state.players[ctrl].play;
        if let Some(i) = pl.iter().position(|&x| x == c) {
            pl.remove(i);
        }
        self.campaign_remove(c);
        let d = self.def(c);
        let lost = self.state.inst[c as usize].counters;
        {
            let i = &mut self.state.inst[c as usize];
            i.end_turn_state();
            i.counters = 0;
            i.exhausted = false;
        }
        if lost > 0 {
            glog!(self, "  {} leaves play: its {lost} Sympathy counter(s) are removed", self.name(c));
        }
        if to_hand && matches!(d.faction, Faction::Ner | Faction::Osszefogas | Faction::Tisza | Faction::Radikalisok) {
            let owner = self.state.inst[c as usize].owner as usize;
            self.state.inst[c as usize].zone = Zone::Hand;
            self.state.inst[c as usize].controller = -1;
            self.hand_push(owner, c);
            glog!(self, "  {} returns to P{owner}'s hand", self.name(c));
        } else {
            self.to_graveyard(c);
        }
        if d.has_leave {
            self.state.pending_leave.push((c, ctrl as u8));
        }
    }
}

impl<'db> GameData<'db> {
    /// A card leaves the game for good (an eliminated player's card, R15.3.1).
    pub fn remove_from_game(&mut self, c: Cid) {
        self.ready_out(c);
        self.board_changed(c);
        let i = &mut self.state.inst[c as usize];
        i.zone = Zone::Removed;
        i.controller = -1;
        self.state.removed.push(c);
    }

    pub fn campaign_remove(&mut self, c: Cid) {
        if self.state.campaign.active {
            // the attackers' count changes (Lone): forget their memoised stats
            self.invalidate_attackers();
            self.forget_stats(c);
            self.state.campaign.attackers.retain(|a| a.0 != c);
            self.state.campaign.blocks.retain(|b| b.0 != c && b.1 != c);
        }
    }

    /// Change control of a card in play (R5.3.1): it keeps its state and is not Fresh anew.
    pub fn change_control(&mut self, c: Cid, to: usize) {
        let from = self.controller(c);
        if from == to {
            return;
        }
        self.board_changed(c);
        self.ready_out(c);
        let pl = &mut self.state.players[from].play;
        if let Some(i) = pl.iter().position(|&x| x == c) {
            pl.remove(i);
        }
        self.campaign_remove(c);
        self.state.inst[c as usize].controller = to as i8;
        self.ready_in(c);
        self.board_changed(c);
        // keep entered order: insert by `entered`
        let e = self.state.inst[c as usize].entered;
        let pos = self.state.players[to].play.iter().position(|&x| self.state.inst[x as usize].entered > e).unwrap_or(self.state.players[to].play.len());
        self.state.players[to].play.insert(pos, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An instance is one cache line (`Inst`'s alignment).
    #[test]
    fn an_inst_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Inst>(), 64);
    }

    /// `Insts::default` allocates zeroed instances: all-zero bytes must be `Inst::default()`.
    #[test]
    fn a_zeroed_inst_is_the_default() {
        let zeroed = Insts::default();
        assert_eq!(format!("{:?}", zeroed.v[0]), format!("{:?}", Inst::default()));
        assert_eq!(format!("{:?}", zeroed.v[MAX_INSTS - 1]), format!("{:?}", Inst::default()));
        assert_eq!(Zone::default() as u8, 0);
    }
}
