//! Observations of the step API (issue 12): what one seat may see (R5.5), as a fixed-length
//! `f32` tensor (`tensor`, layout `layout`, documented in docs/step_api.md "Observations")
//! and as plain data (`Observation`) the Python bindings turn into a dict.
//!
//! Both are built from public information and the seat's own hand only: other seats' hands
//! and every deck give only their sizes. Seats are relative to the observing seat in the
//! tensor (block 0 = the seat itself, 1 = the next seat …, padded to 4 seats) and absolute in
//! `Observation`. Cards are named by definition (index in the tensor, card id in
//! `Observation`), never by instance number.

use super::decision::DecisionKind;
use super::state::{Cid, Game, Inst};
use crate::cards::CardDb;

/// Seats in the tensor (games of 2 and 3 seats leave the last blocks zero).
pub const SEATS: usize = 4;

/// Every decision kind, in the order of the tensor's one-hot.
pub const KINDS: [DecisionKind; 12] = [
    DecisionKind::Mulligan,
    DecisionKind::Bottom,
    DecisionKind::Main,
    DecisionKind::Respond,
    DecisionKind::Target,
    DecisionKind::Attackers,
    DecisionKind::Blocks,
    DecisionKind::DivideDamage,
    DecisionKind::ExposeAmount,
    DecisionKind::Discard,
    DecisionKind::Sacrifice,
    DecisionKind::DeclineStart,
];

/// The step API's name of a decision kind ("mulligan", "main", "divide_damage" …).
pub fn kind_name(k: DecisionKind) -> &'static str {
    match k {
        DecisionKind::Mulligan => "mulligan",
        DecisionKind::Bottom => "bottom",
        DecisionKind::Main => "main",
        DecisionKind::Respond => "respond",
        DecisionKind::Target => "target",
        DecisionKind::Attackers => "attackers",
        DecisionKind::Blocks => "blocks",
        DecisionKind::DivideDamage => "divide_damage",
        DecisionKind::ExposeAmount => "expose_amount",
        DecisionKind::Discard => "discard",
        DecisionKind::Sacrifice => "sacrifice",
        DecisionKind::DeclineStart => "decline_start",
    }
}

/// Position of `k` in `KINDS`.
pub fn kind_index(k: DecisionKind) -> usize {
    // unwrap: KINDS lists every variant
    KINDS.iter().position(|&x| x == k).unwrap_or(0)
}

/// Scalars of each seat block, in order.
pub const SEAT_SCALARS: [&str; 21] = [
    "present",
    "alive",
    "support",
    "scandal",
    "hand_size",
    "deck_size",
    "oblivion_size",
    "mulligans",
    "bases_played",
    "recruits",
    "exposes",
    "campaigns",
    "unity",
    "figures",
    "ready_figures",
    "influence",
    "credibility",
    "faction_ner",
    "faction_osszefogas",
    "faction_tisza",
    "faction_radikalisok",
];

/// Per-definition vectors of each seat block, in order.
pub const SEAT_VECTORS: [&str; 5] = ["in_play", "exhausted", "damage", "counters", "oblivion"];

/// The "this round" Event modifiers, in order.
pub const ROUND_MODS: [&str; 11] = [
    "expose_cost_increase",
    "institution_cost_reduction",
    "attacker_influence",
    "attacker_credibility",
    "recruit_cost_delta",
    "basic_expose_bonus",
    "max_attackers_set",
    "max_attackers",
    "reaction_cost_increase",
    "swap_cost_increase",
    "unblocked_extra_damage",
];

/// The tensor's sections in order: (name, length). `D` = the number of card definitions.
pub fn layout(db: &CardDb) -> Vec<(String, usize)> {
    let d = db.cards.len();
    let mut v: Vec<(String, usize)> = vec![
        ("decision_seat".into(), SEATS),
        ("decision_kind".into(), KINDS.len()),
        ("round".into(), 1),
        ("turn".into(), 1),
        ("active_seat".into(), SEATS),
        ("start_seat".into(), SEATS),
        ("pool".into(), 3),
        ("hand".into(), d),
    ];
    for s in 0..SEATS {
        v.push((format!("seat{s}.scalars"), SEAT_SCALARS.len()));
        for n in SEAT_VECTORS {
            v.push((format!("seat{s}.{n}"), d));
        }
    }
    v.extend([
        ("newsfeed_row".into(), d),
        ("deck_sizes".into(), 3),
        ("event_in_force".into(), d),
        ("event_discard".into(), d),
        ("round_mods".into(), ROUND_MODS.len()),
        ("campaign".into(), 2 + SEATS),
        ("campaign_attackers".into(), d),
        ("campaign_blockers".into(), d),
        ("chain".into(), 1 + SEATS),
        ("chain_cards".into(), d),
        ("chain_top".into(), d),
        ("target_source".into(), d),
    ]);
    v
}

/// The tensor's length for this card set (any number of seats up to 4).
pub fn size(db: &CardDb) -> usize {
    let d = db.cards.len();
    // the lengths of `layout`, summed without allocating (a test checks they agree)
    SEATS
        + KINDS.len()
        + 2
        + 2 * SEATS
        + 3
        + d
        + SEATS * (SEAT_SCALARS.len() + SEAT_VECTORS.len() * d)
        + d
        + 3
        + d
        + d
        + ROUND_MODS.len()
        + (2 + SEATS)
        + d
        + d
        + (1 + SEATS)
        + d
        + d
        + d
}

/// A cursor writing the sections in `layout` order.
struct W<'o> {
    out: &'o mut [f32],
    at: usize,
}

impl W<'_> {
    /// Take the next section of `n` values.
    #[inline]
    fn take(&mut self, n: usize) -> &mut [f32] {
        let s = &mut self.out[self.at..self.at + n];
        self.at += n;
        s
    }
}

/// Write `seat`'s observation tensor of `g` into `out` (length `size(db)`; panics on another
/// length: the bindings check it). `decision`: the pending decision (deciding seat, kind), if
/// any; the step API passes it, `tensor` leaves that section zero.
pub fn tensor_at(g: &Game, seat: usize, decision: Option<(usize, DecisionKind)>, out: &mut [f32]) {
    let db = g.db;
    let nd = db.cards.len();
    assert_eq!(out.len(), size(db), "observation tensor length");
    out.fill(0.0);
    let st = &g.state;
    let n = st.n;
    let rel = |q: usize| (q + n - seat) % n;
    let def = |c: Cid| st.inst[c as usize].def as usize;
    let mut w = W { out, at: 0 };
    {
        let ds = w.take(SEATS);
        if let Some((s, _)) = decision {
            ds[rel(s)] = 1.0;
        }
        let dk = w.take(KINDS.len());
        if let Some((_, k)) = decision {
            dk[kind_index(k)] = 1.0;
        }
    }
    w.take(1)[0] = st.round as f32;
    w.take(1)[0] = st.turn as f32;
    // not the actions taken this turn: whether a window counted an action tells whether an
    // opponent could have responded (hidden cards)
    w.take(SEATS)[rel(st.active)] = 1.0;
    w.take(SEATS)[rel(st.start_player)] = 1.0;
    {
        let pool = w.take(3);
        for (i, &x) in st.players[seat].pool.iter().enumerate() {
            pool[i] = x as f32;
        }
    }
    {
        let hand = w.take(nd);
        for &c in &st.players[seat].hand {
            hand[def(c)] += 1.0;
        }
    }
    for r in 0..SEATS {
        if r >= n {
            w.take(SEAT_SCALARS.len() + SEAT_VECTORS.len() * nd);
            continue;
        }
        let q = (seat + r) % n;
        let p = &st.players[q];
        let (mut figs, mut ready, mut inf, mut cred) = (0, 0, 0i32, 0i32);
        for &c in &p.play {
            let i = &st.inst[c as usize];
            if i.is(Inst::F_FIGURE) {
                figs += 1;
                ready += (!i.exhausted) as i32;
                inf += g.influence(c) as i32;
                cred += g.credibility(c) as i32;
            }
        }
        let sc = w.take(SEAT_SCALARS.len());
        let vals = [
            1.0,
            p.alive as i32 as f32,
            g.state.support_of(q) as f32,
            g.state.scandal_pool_of(q) as f32,
            p.hand.len() as f32,
            p.deck.len() as f32,
            p.oblivion.len() as f32,
            p.mulligans as f32,
            p.bases_played as f32,
            p.recruits as f32,
            p.exposes as f32,
            p.campaigns as f32,
            (p.alive && g.unity(q)) as i32 as f32,
            figs as f32,
            ready as f32,
            inf as f32,
            cred as f32,
        ];
        sc[..vals.len()].copy_from_slice(&vals);
        if (p.faction as usize) < 4 {
            sc[vals.len() + p.faction as usize] = 1.0;
        }
        {
            let v = w.take(nd);
            for &c in &p.play {
                v[def(c)] += 1.0;
            }
        }
        {
            let v = w.take(nd);
            for &c in &p.play {
                v[def(c)] += st.inst[c as usize].exhausted as i32 as f32;
            }
        }
        {
            let v = w.take(nd);
            for &c in &p.play {
                v[def(c)] += st.inst[c as usize].damage as f32;
            }
        }
        {
            let v = w.take(nd);
            for &c in &p.play {
                v[def(c)] += st.inst[c as usize].counters as f32;
            }
        }
        {
            let v = w.take(nd);
            for &c in &p.oblivion {
                v[def(c)] += 1.0;
            }
        }
    }
    {
        let v = w.take(nd);
        for &c in &st.news_row {
            v[def(c)] += 1.0;
        }
    }
    {
        let v = w.take(3);
        v[0] = st.news_deck.len() as f32;
        v[1] = st.event_deck.len() as f32;
        v[2] = st.token_box.len() as f32;
    }
    {
        let v = w.take(nd);
        if let Some(c) = st.event_in_force {
            v[def(c)] = 1.0;
        }
    }
    {
        let v = w.take(nd);
        for &c in &st.event_discard {
            v[def(c)] += 1.0;
        }
    }
    {
        let v = w.take(ROUND_MODS.len());
        let vals = round_mod_values(&st.round_mods);
        for (i, &x) in vals.iter().enumerate() {
            v[i] = x as f32;
        }
    }
    {
        let cp = &st.campaign;
        let v = w.take(2 + SEATS);
        v[0] = cp.active as i32 as f32;
        v[1] = cp.blocks.len() as f32;
        for &(_, q) in &cp.attackers {
            v[2 + rel(q as usize)] += 1.0;
        }
        let v = w.take(nd);
        for &(c, _) in &cp.attackers {
            v[def(c)] += 1.0;
        }
        let v = w.take(nd);
        for &(b, _) in &cp.blocks {
            v[def(b)] += 1.0;
        }
    }
    {
        let v = w.take(1 + SEATS);
        v[0] = st.chain.len() as f32;
        if let Some(top) = st.chain.last() {
            v[1 + rel(top.controller as usize)] = 1.0;
        }
        let v = w.take(nd);
        for it in &st.chain {
            v[def(it.card)] += 1.0;
        }
        let v = w.take(nd);
        if let Some(top) = st.chain.last() {
            v[def(top.card)] = 1.0;
        }
    }
    {
        let v = w.take(nd);
        if let (Some(c), Some((_, DecisionKind::Target))) = (st.target_source, decision) {
            v[def(c)] = 1.0;
        }
    }
    debug_assert_eq!(w.at, w.out.len());
}

/// `tensor_at` without a pending decision (that section zero).
pub fn tensor(g: &Game, seat: usize, out: &mut [f32]) {
    tensor_at(g, seat, None, out)
}

/// A card in play as a seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardState {
    /// Card id (`CardDef::id`).
    pub card: String,
    pub name: String,
    pub exhausted: bool,
    /// Entered play this turn (a Figure cannot attack or exhaust yet).
    pub fresh: bool,
    pub damage: i16,
    /// Sympathy counters.
    pub counters: i16,
    /// Current Influence and Credibility (Figures; None for other cards).
    pub influence: Option<i16>,
    pub credibility: Option<i16>,
}

/// One seat's public information.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatObservation {
    pub seat: usize,
    pub faction: String,
    pub alive: bool,
    pub support: i32,
    pub scandal: i32,
    pub hand_size: usize,
    pub deck_size: usize,
    pub mulligans: u8,
    pub bases_played: u8,
    pub recruits: u8,
    pub exposes: u8,
    pub campaigns: u8,
    pub unity: bool,
    /// Cards it controls, in the order they entered play.
    pub in_play: Vec<CardState>,
    /// Its Oblivion, bottom first (card ids).
    pub oblivion: Vec<String>,
}

/// A card in play by position: (controlling seat, index in its `in_play`).
pub type PlayRef = (usize, usize);

/// What `seat` may see of a game (plain data; the bindings make a dict of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The observing seat and the number of seats.
    pub seat: usize,
    pub n_players: usize,
    /// The pending decision: (deciding seat, kind name), if known.
    pub decision: Option<(usize, &'static str)>,
    pub round: u32,
    pub turn: u32,
    pub active: usize,
    pub start_player: usize,
    /// The seat's own hand (card ids, in hand order) and resource pool (F, M, U).
    pub hand: Vec<String>,
    pub pool: [i16; 3],
    /// Every seat, by absolute seat number.
    pub players: Vec<SeatObservation>,
    pub newsfeed_row: Vec<String>,
    pub newsfeed_deck_size: usize,
    pub event_deck_size: usize,
    pub tokens_in_box: usize,
    pub event_in_force: Option<String>,
    pub event_discard: Vec<String>,
    /// The "this round" Event modifiers that are not zero: (name, value).
    pub round_mods: Vec<(&'static str, i32)>,
    /// The Campaign in progress: attackers (card, attacked seat) and blocks (blocker, index of
    /// the blocked attacker in `attackers`).
    pub campaign: Option<CampaignObservation>,
    /// Actions on the chain, bottom to top: (card id, controller).
    pub chain: Vec<(String, usize)>,
    /// The card whose target is being chosen (Target decisions only).
    pub target_source: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignObservation {
    pub attackers: Vec<(PlayRef, usize)>,
    pub blocks: Vec<(PlayRef, usize)>,
}

/// `seat`'s observation of `g` at `decision` (the pending decision, if any).
pub fn observation_at(g: &Game, seat: usize, decision: Option<(usize, DecisionKind)>) -> Observation {
    let st = &g.state;
    let id = |c: Cid| g.def(c).id.clone();
    let play_ref = |c: Cid| -> PlayRef {
        let q = st.inst[c as usize].controller.max(0) as usize;
        (q, st.players[q].play.iter().position(|&x| x == c).unwrap_or(usize::MAX))
    };
    let players = (0..st.n)
        .map(|q| {
            let p = &st.players[q];
            SeatObservation {
                seat: q,
                faction: crate::cards::FACTIONS.get(p.faction as usize).copied().unwrap_or("?").to_string(),
                alive: p.alive,
                support: st.support_of(q),
                scandal: st.scandal_pool_of(q),
                hand_size: p.hand.len(),
                deck_size: p.deck.len(),
                mulligans: p.mulligans,
                bases_played: p.bases_played,
                recruits: p.recruits,
                exposes: p.exposes,
                campaigns: p.campaigns,
                unity: p.alive && g.unity(q),
                in_play: p
                    .play
                    .iter()
                    .map(|&c| {
                        let i = &st.inst[c as usize];
                        let fig = i.is(Inst::F_FIGURE);
                        CardState {
                            card: id(c),
                            name: g.name(c).to_string(),
                            exhausted: i.exhausted,
                            fresh: i.fresh,
                            damage: i.damage,
                            counters: i.counters,
                            influence: fig.then(|| g.influence(c)),
                            credibility: fig.then(|| g.credibility(c)),
                        }
                    })
                    .collect(),
                oblivion: p.oblivion.iter().map(|&c| id(c)).collect(),
            }
        })
        .collect();
    let mods = round_mod_values(&st.round_mods);
    let round_mods = ROUND_MODS.iter().zip(mods).filter(|x| x.1 != 0).map(|(&k, v)| (k, v as i32)).collect();
    let cp = &st.campaign;
    let campaign = cp.active.then(|| CampaignObservation {
        attackers: cp.attackers.iter().map(|&(c, q)| (play_ref(c), q as usize)).collect(),
        blocks: cp.blocks.iter().map(|&(b, a)| (play_ref(b), cp.attackers.iter().position(|x| x.0 == a).unwrap_or(usize::MAX))).collect(),
    });
    Observation {
        seat,
        n_players: st.n,
        decision: decision.map(|(s, k)| (s, kind_name(k))),
        round: st.round,
        turn: st.turn,
        active: st.active,
        start_player: st.start_player,
        hand: st.players[seat].hand.iter().map(|&c| id(c)).collect(),
        pool: st.players[seat].pool,
        players,
        newsfeed_row: st.news_row.iter().map(|&c| id(c)).collect(),
        newsfeed_deck_size: st.news_deck.len(),
        event_deck_size: st.event_deck.len(),
        tokens_in_box: st.token_box.len(),
        event_in_force: st.event_in_force.map(id),
        event_discard: st.event_discard.iter().map(|&c| id(c)).collect(),
        round_mods,
        campaign,
        chain: st.chain.iter().map(|it| (id(it.card), it.controller as usize)).collect(),
        target_source: if matches!(decision, Some((_, DecisionKind::Target))) { st.target_source.map(id) } else { None },
    }
}

/// `observation_at` without a pending decision.
pub fn observation(g: &Game, seat: usize) -> Observation {
    observation_at(g, seat, None)
}

/// The "this round" modifiers in `ROUND_MODS` order.
fn round_mod_values(m: &crate::engine::state::RoundMods) -> [i16; 11] {
    [
        m.expose_cost_increase,
        m.institution_cost_reduction,
        m.attacker_influence,
        m.attacker_credibility,
        m.recruit_cost_delta,
        m.basic_expose_bonus,
        m.max_attackers.is_some() as i16,
        m.max_attackers.unwrap_or(0),
        m.reaction_cost_increase,
        m.swap_cost_increase,
        m.unblocked_extra_damage,
    ]
}
