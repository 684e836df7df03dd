//! The fixed action space of the step API (issue 12): every option a decision offers (`Opt`)
//! gets a stable integer id whose meaning depends only on the card set, never on card instance
//! numbers (`Cid`, which depend on the decks) or on the seat deciding.
//!
//! An id names a card by its *definition* index plus a copy rank (the how-manieth card of
//! that definition in the zone it is in, in the zone's public order), and a seat by its
//! position *relative* to the deciding seat (0 = itself, 1 = the next seat, …). Every part of
//! an id is public to the deciding seat: the cards in play, on the chain and in the Newsfeed
//! row, the Campaign, and the seat's own hand. The layout is in docs/step_api.md
//! ("Action space").
//!
//! Every width is exact (the most copies of a definition one zone can hold in a game of this
//! card set), so two options of one decision never share an id.

use super::decision::{DecisionKind, Opt};
use super::state::{Cid, Game, Zone};
use crate::cards::{CardDb, CardType, Effect, Trigger};

/// What kind of option an id stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActKind {
    Keep,
    Mulligan,
    EndPhase,
    Campaign,
    Pass,
    Done,
    NoTarget,
    /// A seat (a target): relative seat.
    Player,
    /// Basic Exposé against a relative seat.
    Expose,
    /// A number (how much Scandal an Exposé takes).
    Amount,
    /// Play a Base from hand (one option per definition).
    PlayBase,
    /// Play a card from hand (one option per definition).
    Play,
    /// Swap a Base from hand (one option per definition).
    Swap,
    /// Recruit the copy-th card of a definition in the Newsfeed row.
    Recruit,
    /// Use ability `ability` of the copy-th card of a definition the seat controls.
    Activate,
    /// Attack a relative seat with the copy-th Figure of a definition the seat controls.
    Attack,
    /// Block the attacker at `index` of the Campaign's attacker list with the copy-th Figure
    /// of a definition the seat controls.
    Block,
    /// A card in the seat's own hand (discard, bottom after a mulligan).
    CardHand,
    /// A card in play controlled by a relative seat (targets, sacrifice, damage division).
    CardPlay,
    /// An Action on the chain controlled by a relative seat (targets).
    CardChain,
}

impl ActKind {
    pub fn name(self) -> &'static str {
        match self {
            ActKind::Keep => "keep",
            ActKind::Mulligan => "mulligan",
            ActKind::EndPhase => "end_phase",
            ActKind::Campaign => "campaign",
            ActKind::Pass => "pass",
            ActKind::Done => "done",
            ActKind::NoTarget => "no_target",
            ActKind::Player => "player",
            ActKind::Expose => "expose",
            ActKind::Amount => "amount",
            ActKind::PlayBase => "play_base",
            ActKind::Play => "play",
            ActKind::Swap => "swap",
            ActKind::Recruit => "recruit",
            ActKind::Activate => "activate",
            ActKind::Attack => "attack",
            ActKind::Block => "block",
            ActKind::CardHand => "card_hand",
            ActKind::CardPlay => "card_play",
            ActKind::CardChain => "card_chain",
        }
    }
}

/// The meaning of one id, without a game. Fields a kind does not use are 0 (`def`: None).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meaning {
    pub kind: ActKind,
    /// Card definition index (`CardDb::cards`); for Block, the blocker's.
    pub def: Option<u16>,
    /// Copy rank of the card among the cards of its definition in its zone (0 = first).
    pub copy: u16,
    /// Relative seat: Player, Expose, Attack (attacked), CardPlay and CardChain (controller).
    pub seat: u8,
    /// Ability index (Activate).
    pub ability: u8,
    /// Amount, or the attacker's index in the Campaign's attacker list (Block).
    pub index: u16,
}

const NA: u32 = u32::MAX;

/// The fixed action space of one card set. Plain tables; `id` allocates nothing.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    /// Per definition: first id of its PlayBase / Play / Swap option, NA if none.
    play_base: Vec<u32>,
    play: Vec<u32>,
    swap: Vec<u32>,
    /// Per definition: first id of its Recruit options (one per copy in the row), NA if none.
    recruit: Vec<u32>,
    /// Per definition: first id of its Activate options (copy * abilities + ability), NA if none.
    activate: Vec<u32>,
    n_abilities: Vec<u8>,
    /// Per definition: first slot among the Figures one seat can control (0..n_fig), NA if
    /// not a Figure.
    fig: Vec<u32>,
    /// Per definition: first slot among the cards one seat can have in hand (0..n_hand).
    hand: Vec<u32>,
    /// Per definition: first slot among the cards one seat can control in play (0..n_play).
    in_play: Vec<u32>,
    /// Per definition: first slot among the Actions one seat can have on the chain (0..n_chain).
    chain: Vec<u32>,
    /// Copies one zone can hold (hand, play, chain, Newsfeed row), per definition.
    cap_hand: Vec<u16>,
    cap_play: Vec<u16>,
    cap_chain: Vec<u16>,
    cap_row: Vec<u16>,
    n_fig: u32,
    n_play: u32,
    n_chain: u32,
    attack0: u32,
    block0: u32,
    hand0: u32,
    card_play0: u32,
    card_chain0: u32,
    /// The meaning of every id.
    meanings: Vec<Meaning>,
    /// Card names, for labels without a game.
    names: Vec<String>,
}

/// Seats in a game at most (relative seats 0..4).
pub const SEATS: u32 = 4;
/// Amount ids: 0..=255 (an amount is a byte).
pub const AMOUNTS: u32 = 256;

const SINGLES: [ActKind; 7] = [ActKind::Keep, ActKind::Mulligan, ActKind::EndPhase, ActKind::Campaign, ActKind::Pass, ActKind::Done, ActKind::NoTarget];
const PLAYER0: u32 = SINGLES.len() as u32;
const EXPOSE0: u32 = PLAYER0 + SEATS;
const AMOUNT0: u32 = EXPOSE0 + SEATS;
const PER_DEF0: u32 = AMOUNT0 + AMOUNTS;

impl ActionSpace {
    /// An id no option maps to (an option the engine never offers, e.g. a card in a zone no
    /// decision names).
    pub const INVALID: u32 = u32::MAX;

    pub fn new(db: &CardDb) -> ActionSpace {
        let nd = db.cards.len();
        let count = |list: &[u16], d: usize| list.iter().filter(|&&x| x as usize == d).count();
        let mut cap_hand = vec![0u16; nd];
        let mut cap_play = vec![0u16; nd];
        let mut cap_chain = vec![0u16; nd];
        let mut cap_row = vec![0u16; nd];
        for d in 0..nd {
            let per_deck: Vec<usize> = db.decks.iter().map(|deck| count(deck, d)).collect();
            let most = per_deck.iter().copied().max().unwrap_or(0);
            // a game seats each faction once unless mirrors are allowed (then up to 4 times)
            let in_decks = if db.rules.allow_mirror { most * SEATS as usize } else { per_deck.iter().sum() };
            let news = count(&db.newsfeed, d);
            let tokens: usize = db.tokens.iter().filter(|t| t.0 as usize == d).map(|t| t.1 as usize).sum();
            let total = in_decks + news + tokens;
            let def = &db.cards[d];
            // a hand holds only its owner's cards (a card returning to hand goes to its owner's)
            cap_hand[d] = most as u16;
            if def.ctype.is_action() {
                cap_chain[d] = total as u16;
            } else if def.ctype != CardType::Event {
                cap_play[d] = total as u16;
            }
            cap_row[d] = news as u16;
        }
        let mut meanings: Vec<Meaning> = Vec::new();
        let m0 = Meaning { kind: ActKind::Keep, def: None, copy: 0, seat: 0, ability: 0, index: 0 };
        for k in SINGLES {
            meanings.push(Meaning { kind: k, ..m0 });
        }
        for s in 0..SEATS {
            meanings.push(Meaning { kind: ActKind::Player, seat: s as u8, ..m0 });
        }
        for s in 0..SEATS {
            meanings.push(Meaning { kind: ActKind::Expose, seat: s as u8, ..m0 });
        }
        for a in 0..AMOUNTS {
            meanings.push(Meaning { kind: ActKind::Amount, index: a as u16, ..m0 });
        }
        debug_assert_eq!(meanings.len() as u32, PER_DEF0);
        let mut play_base = vec![NA; nd];
        let mut play = vec![NA; nd];
        let mut swap = vec![NA; nd];
        // one option per definition in hand: PlayBase and Swap for Bases, Play for the rest
        for (table, kind, base) in [(&mut play_base, ActKind::PlayBase, true), (&mut swap, ActKind::Swap, true), (&mut play, ActKind::Play, false)] {
            for d in 0..nd {
                if cap_hand[d] > 0 && (db.cards[d].ctype == CardType::Base) == base {
                    table[d] = meanings.len() as u32;
                    meanings.push(Meaning { kind, def: Some(d as u16), ..m0 });
                }
            }
        }
        let mut recruit = vec![NA; nd];
        for d in 0..nd {
            if cap_row[d] == 0 {
                continue;
            }
            recruit[d] = meanings.len() as u32;
            for k in 0..cap_row[d] {
                meanings.push(Meaning { kind: ActKind::Recruit, def: Some(d as u16), copy: k, ..m0 });
            }
        }
        let mut activate = vec![NA; nd];
        let mut n_abilities = vec![0u8; nd];
        for d in 0..nd {
            let def = &db.cards[d];
            let usable = def.abilities.iter().any(|a| a.trigger == Trigger::Activated && !matches!(a.effect, Effect::AddResource { .. } | Effect::AddAnyResources { .. }));
            if !usable || cap_play[d] == 0 {
                continue;
            }
            let na = def.abilities.len().min(255);
            n_abilities[d] = na as u8;
            activate[d] = meanings.len() as u32;
            for k in 0..cap_play[d] {
                for a in 0..na {
                    meanings.push(Meaning { kind: ActKind::Activate, def: Some(d as u16), copy: k, ability: a as u8, ..m0 });
                }
            }
        }
        // slots: (definition, copy) within one seat's Figures / hand / play / chain
        let slots = |caps: &[u16], keep: &dyn Fn(usize) -> bool| -> (Vec<u32>, u32) {
            let mut base = vec![NA; nd];
            let mut n = 0u32;
            for d in 0..nd {
                if caps[d] > 0 && keep(d) {
                    base[d] = n;
                    n += caps[d] as u32;
                }
            }
            (base, n)
        };
        let (fig, n_fig) = slots(&cap_play, &|d| db.cards[d].ctype.is_figure());
        let (hand, n_hand) = slots(&cap_hand, &|_| true);
        let (in_play, n_play) = slots(&cap_play, &|_| true);
        let (chain, n_chain) = slots(&cap_chain, &|_| true);
        // the slot -> (definition, copy) of each table, for the meanings
        let unslot = |base: &[u32], caps: &[u16], n: u32| -> Vec<(u16, u16)> {
            let mut v = vec![(0u16, 0u16); n as usize];
            for d in 0..nd {
                if base[d] != NA {
                    for k in 0..caps[d] {
                        v[(base[d] + k as u32) as usize] = (d as u16, k);
                    }
                }
            }
            v
        };
        let figs = unslot(&fig, &cap_play, n_fig);
        let attack0 = meanings.len() as u32;
        for &(d, k) in &figs {
            for s in 0..SEATS {
                meanings.push(Meaning { kind: ActKind::Attack, def: Some(d), copy: k, seat: s as u8, ..m0 });
            }
        }
        // the attackers of one Campaign are distinct Figures of the active seat: fewer than n_fig
        let block0 = meanings.len() as u32;
        for &(d, k) in &figs {
            for i in 0..n_fig {
                meanings.push(Meaning { kind: ActKind::Block, def: Some(d), copy: k, index: i as u16, ..m0 });
            }
        }
        let hand0 = meanings.len() as u32;
        for (d, k) in unslot(&hand, &cap_hand, n_hand) {
            meanings.push(Meaning { kind: ActKind::CardHand, def: Some(d), copy: k, ..m0 });
        }
        let card_play0 = meanings.len() as u32;
        let plays = unslot(&in_play, &cap_play, n_play);
        for s in 0..SEATS {
            for &(d, k) in &plays {
                meanings.push(Meaning { kind: ActKind::CardPlay, def: Some(d), copy: k, seat: s as u8, ..m0 });
            }
        }
        let card_chain0 = meanings.len() as u32;
        let chains = unslot(&chain, &cap_chain, n_chain);
        for s in 0..SEATS {
            for &(d, k) in &chains {
                meanings.push(Meaning { kind: ActKind::CardChain, def: Some(d), copy: k, seat: s as u8, ..m0 });
            }
        }
        ActionSpace {
            play_base,
            play,
            swap,
            recruit,
            activate,
            n_abilities,
            fig,
            hand,
            in_play,
            chain,
            cap_hand,
            cap_play,
            cap_chain,
            cap_row,
            n_fig,
            n_play,
            n_chain,
            attack0,
            block0,
            hand0,
            card_play0,
            card_chain0,
            meanings,
            names: db.cards.iter().map(|c| c.name.clone()).collect(),
        }
    }

    /// The number of ids (ids are 0..size).
    pub fn size(&self) -> usize {
        self.meanings.len()
    }

    /// The meaning of `id`, None if out of range.
    pub fn meaning(&self, id: u32) -> Option<Meaning> {
        self.meanings.get(id as usize).copied()
    }

    #[inline]
    fn rel(g: &Game, seat: usize, q: usize) -> u32 {
        let n = g.state.n;
        ((q + n - seat) % n) as u32
    }

    /// Copy rank of `c` among the cards of its definition before it in `list`.
    #[inline]
    fn rank_in(g: &Game, list: &[Cid], c: Cid) -> u32 {
        let d = g.state.inst[c as usize].def;
        let mut k = 0;
        for &x in list {
            if x == c {
                break;
            }
            k += (g.state.inst[x as usize].def == d) as u32;
        }
        k
    }

    /// `base + copy` for a slot table, or INVALID when the table has no entry or the copy
    /// rank is beyond the width (cannot happen for options the engine offers).
    #[inline]
    fn slot(base: &[u32], caps: &[u16], d: usize, k: u32) -> u32 {
        let b = base[d];
        if b == NA || k >= caps[d] as u32 {
            Self::INVALID
        } else {
            b + k
        }
    }

    /// Slot of Figure `c` in play among the Figures its controller can control.
    #[inline]
    fn fig_slot(&self, g: &Game, c: Cid) -> u32 {
        Self::slot(&self.fig, &self.cap_play, g.state.inst[c as usize].def as usize, Self::zone_rank(g, c))
    }

    /// The id of option `o` offered to `seat` in `g` (`INVALID` for an option the engine never
    /// offers). Reads only what `seat` can see; allocates nothing.
    pub fn id(&self, g: &Game, seat: usize, o: Opt) -> u32 {
        let def = |c: Cid| g.state.inst[c as usize].def as usize;
        let per_def = |t: &[u32], c: Cid| t[def(c)];
        let id = match o {
            Opt::Keep => 0,
            Opt::Mulligan => 1,
            Opt::EndPhase => 2,
            Opt::Campaign => 3,
            Opt::Pass => 4,
            Opt::Done => 5,
            Opt::NoTarget => 6,
            Opt::Player(q) => PLAYER0 + Self::rel(g, seat, q as usize),
            Opt::Expose(q) => EXPOSE0 + Self::rel(g, seat, q as usize),
            Opt::Amount(a) => AMOUNT0 + a as u32,
            Opt::PlayBase(c) => per_def(&self.play_base, c),
            Opt::Play(c) => per_def(&self.play, c),
            Opt::Swap(c) => per_def(&self.swap, c),
            Opt::Recruit(c) => Self::slot(&self.recruit, &self.cap_row, def(c), Self::zone_rank(g, c)),
            Opt::Activate(c, a) => {
                let d = def(c);
                let na = self.n_abilities[d] as u32;
                let k = Self::zone_rank(g, c);
                if self.activate[d] == NA || (a as u32) >= na || k >= self.cap_play[d] as u32 {
                    Self::INVALID
                } else {
                    self.activate[d] + k * na + a as u32
                }
            }
            Opt::Attack(c, q) => {
                let f = self.fig_slot(g, c);
                if f == Self::INVALID {
                    f
                } else {
                    self.attack0 + f * SEATS + Self::rel(g, seat, q as usize)
                }
            }
            Opt::Block(b, a) => {
                let f = self.fig_slot(g, b);
                let idx = g.state.campaign.attackers.iter().position(|x| x.0 == a).map_or(u32::MAX, |i| i as u32);
                if f == Self::INVALID || idx >= self.n_fig {
                    Self::INVALID
                } else {
                    self.block0 + f * self.n_fig + idx
                }
            }
            Opt::Card(c) => self.card_id(g, seat, c),
        };
        debug_assert!(id == Self::INVALID || (id as usize) < self.meanings.len());
        id
    }

    /// Copy rank of `c` among the cards of its definition in its zone, in the zone's public
    /// order: a hand (owner's), play (controller's), the chain (same controller), the Newsfeed
    /// row; 0 elsewhere.
    #[inline]
    fn zone_rank(g: &Game, c: Cid) -> u32 {
        let i = &g.state.inst[c as usize];
        match i.zone {
            Zone::Hand => Self::rank_in(g, &g.state.players[i.owner.max(0) as usize].hand, c),
            Zone::Play => Self::rank_in(g, &g.state.players[i.controller.max(0) as usize].play, c),
            Zone::NewsRow => Self::rank_in(g, &g.state.news_row, c),
            Zone::Chain => {
                let mut k = 0;
                for it in &g.state.chain {
                    if it.card == c {
                        break;
                    }
                    k += (it.controller as i8 == i.controller && g.state.inst[it.card as usize].def == i.def) as u32;
                }
                k
            }
            _ => 0,
        }
    }

    fn card_id(&self, g: &Game, seat: usize, c: Cid) -> u32 {
        let i = &g.state.inst[c as usize];
        let d = i.def as usize;
        let (base, width, table, caps) = match i.zone {
            Zone::Hand if i.owner as usize == seat => (self.hand0, 0, &self.hand, &self.cap_hand),
            Zone::Play => (self.card_play0, self.n_play, &self.in_play, &self.cap_play),
            Zone::Chain => (self.card_chain0, self.n_chain, &self.chain, &self.cap_chain),
            // another seat's hand, decks, Oblivion …: no decision offers these cards
            _ => return Self::INVALID,
        };
        let s = Self::slot(table, caps, d, Self::zone_rank(g, c));
        if s == Self::INVALID {
            return s;
        }
        // hand cards are the seat's own (width 0: no seat part)
        base + Self::rel(g, seat, i.controller.max(0) as usize) * width + s
    }

    /// The ids of `opts`, in order, into `out` (cleared first; no allocation once `out` has
    /// room).
    pub fn ids(&self, g: &Game, seat: usize, opts: &[Opt], out: &mut Vec<u32>) {
        out.clear();
        out.extend(opts.iter().map(|&o| self.id(g, seat, o)));
    }

    /// The legal-action mask of `opts`: `mask` (length `size()`) true exactly at their ids.
    pub fn mask(&self, g: &Game, seat: usize, opts: &[Opt], mask: &mut [bool]) {
        mask.fill(false);
        for &o in opts {
            if let Some(m) = mask.get_mut(self.id(g, seat, o) as usize) {
                *m = true;
            }
        }
    }

    /// The index in `opts` of the option with id `id`, None if none of them has it.
    pub fn decode(&self, g: &Game, seat: usize, id: u32, opts: &[Opt]) -> Option<usize> {
        if id == Self::INVALID {
            return None;
        }
        opts.iter().position(|&o| self.id(g, seat, o) == id)
    }

    /// A readable label of option `o` for `seat` (seats named absolutely, P0 …).
    pub fn label(&self, g: &Game, seat: usize, o: Opt) -> String {
        self.label_in(g, seat, None, o)
    }

    /// `label` with the verb of the decision kind for the generic options (Card, Player,
    /// Amount): "target …", "discard …", "sacrifice …" …
    pub fn label_in(&self, g: &Game, seat: usize, kind: Option<DecisionKind>, o: Opt) -> String {
        let card = |c: Cid| self.card_name(g, c);
        match o {
            Opt::Keep if kind == Some(DecisionKind::DeclineStart) => "start the game".into(),
            Opt::Pass if kind == Some(DecisionKind::DeclineStart) => "decline to start".into(),
            Opt::Keep => "keep the hand".into(),
            Opt::Mulligan => "mulligan".into(),
            Opt::EndPhase => "end the Action phase".into(),
            Opt::Campaign => "start a Campaign".into(),
            Opt::Pass => "pass".into(),
            Opt::Done => "done".into(),
            Opt::NoTarget => "no target".into(),
            Opt::PlayBase(c) => format!("play Base {}", card(c)),
            Opt::Play(c) => format!("play {}", card(c)),
            Opt::Swap(c) => format!("swap Base {}", card(c)),
            Opt::Activate(c, a) => format!("use {} (ability {})", card(c), a + 1),
            Opt::Recruit(c) => format!("recruit {}", card(c)),
            Opt::Expose(q) => format!("expose P{q}"),
            Opt::Attack(c, q) => format!("attack P{q} with {}", card(c)),
            Opt::Block(b, a) => format!("block {} with {}", card(a), card(b)),
            Opt::Player(q) => match kind {
                Some(DecisionKind::Target) | None => format!("target P{q}"),
                Some(_) => format!("choose P{q}"),
            },
            Opt::Amount(n) => match kind {
                Some(DecisionKind::ExposeAmount) | None => format!("take {n} Scandal"),
                Some(_) => format!("choose {n}"),
            },
            Opt::Card(c) => {
                let verb = match kind {
                    Some(DecisionKind::Target) => "target",
                    Some(DecisionKind::Discard) => "discard",
                    Some(DecisionKind::Bottom) => "put on the bottom",
                    Some(DecisionKind::Sacrifice) => "sacrifice",
                    Some(DecisionKind::DivideDamage) => "assign 1 damage to",
                    _ => "choose",
                };
                let i = &g.state.inst[c as usize];
                let whose = |p: i8| if p as usize == seat { "own".to_string() } else { format!("P{p}'s") };
                let place = match i.zone {
                    Zone::Hand => "in hand".to_string(),
                    Zone::Play => format!("{}, in play", whose(i.controller)),
                    Zone::Chain => format!("{}, on the chain", whose(i.controller)),
                    z => format!("{z:?}"),
                };
                format!("{verb} {} ({place})", card(c))
            }
        }
    }

    /// The card's name, with "#k" for the k-th copy (k ≥ 2) of its definition in its zone.
    fn card_name(&self, g: &Game, c: Cid) -> String {
        let k = Self::zone_rank(g, c);
        let name = &self.names[g.state.inst[c as usize].def as usize];
        if k > 0 {
            format!("{name} #{}", k + 1)
        } else {
            name.clone()
        }
    }

    /// The meaning of `id` in words (relative seats: "seat +1" is the next seat after the
    /// deciding one). "unknown id N" when out of range.
    pub fn describe(&self, id: u32) -> String {
        let Some(m) = self.meaning(id) else { return format!("unknown id {id}") };
        let name = |m: &Meaning| -> String {
            let n = m.def.map_or("?", |d| self.names[d as usize].as_str());
            if m.copy > 0 {
                format!("{n} #{}", m.copy + 1)
            } else {
                n.to_string()
            }
        };
        let seat = |s: u8| if s == 0 { "own".to_string() } else { format!("seat +{s}") };
        match m.kind {
            ActKind::Keep => "keep the hand".into(),
            ActKind::Mulligan => "mulligan".into(),
            ActKind::EndPhase => "end the Action phase".into(),
            ActKind::Campaign => "start a Campaign".into(),
            ActKind::Pass => "pass".into(),
            ActKind::Done => "done".into(),
            ActKind::NoTarget => "no target".into(),
            ActKind::Player => format!("choose seat +{}", m.seat),
            ActKind::Expose => format!("expose seat +{}", m.seat),
            ActKind::Amount => format!("amount {}", m.index),
            ActKind::PlayBase => format!("play Base {}", name(&m)),
            ActKind::Play => format!("play {}", name(&m)),
            ActKind::Swap => format!("swap Base {}", name(&m)),
            ActKind::Recruit => format!("recruit {} (Newsfeed row)", name(&m)),
            ActKind::Activate => format!("use {} (ability {})", name(&m), m.ability + 1),
            ActKind::Attack => format!("attack seat +{} with {}", m.seat, name(&m)),
            ActKind::Block => format!("block attacker #{} with {}", m.index + 1, name(&m)),
            ActKind::CardHand => format!("card {} (own hand)", name(&m)),
            ActKind::CardPlay => format!("card {} ({} in play)", name(&m), seat(m.seat)),
            ActKind::CardChain => format!("card {} ({} on the chain)", name(&m), seat(m.seat)),
        }
    }

    /// The parts of the space in id order: (kind, first id, number of ids).
    pub fn parts(&self) -> Vec<(ActKind, u32, u32)> {
        let mut v: Vec<(ActKind, u32, u32)> = Vec::new();
        for (i, m) in self.meanings.iter().enumerate() {
            match v.last_mut() {
                Some(l) if l.0 == m.kind => l.2 += 1,
                _ => v.push((m.kind, i as u32, 1)),
            }
        }
        v
    }
}

/// The relative seat of `q` seen from `seat` in an `n`-seat game (0 = `seat`, 1 = the next).
#[inline]
pub fn relative(seat: usize, q: usize, n: usize) -> usize {
    (q + n - seat) % n
}
