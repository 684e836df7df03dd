//! R13 bots: `random` (R13.1) and `greedy` (R13.2). Both see only what their seat sees
//! (R11.1): their own hand, the table, the discard pile and the counters; the cards they
//! cannot see are treated as one unknown pool.

use super::actions::{Action, END_TURN, PASS, SKIP};
use super::cards::{self, colour, value};
use super::formation::{key, strength, COLOUR, COLOUR_RUN, RUN, SAME, SUM};
use super::proof::{best_key, claim_succeeds};
use super::state::{Phase, Side, State, ATTACKER, DEFENDER};
use super::wall::Cond;
use crate::harness::Agent;
use crate::rng::Rng;

fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// R13.1: always claims what it can (R4.1); otherwise uniform over the legal plays. In the
/// preparation step it takes a preparation action with probability `prep` (option
/// `random:prep=0.3`, default 0: never), then uniform over them (retreat sets or oil
/// sections), and skips otherwise. Uniform over all legal actions would retreat almost every
/// turn — k occupied sections give 2^k − 1 retreat actions against one skip — and a random
/// Attacker who retreats even half of the time wins almost never (tests/schotten_totten2.rs).
#[derive(Clone, Copy, Debug)]
pub struct RandomBot {
    pub prep: f64,
}

impl Agent<State> for RandomBot {
    fn act(&mut self, s: &State, legal: &[u32], rng: &mut Rng) -> u32 {
        if let Some(&c) = legal.iter().find(|&&a| matches!(Action::from_id(a), Some(Action::Claim(_)))) {
            return c;
        }
        match s.phase {
            Phase::Prep => {
                let n = legal.iter().filter(|&&a| a != SKIP).count();
                // an Attacker without a free slot retreats rather than pass (a pass draws
                // nothing, R4.2, so two full sides would stall the game)
                let stuck = s.current as usize == ATTACKER && s.open_sections(ATTACKER) == 0;
                if n == 0 || (!stuck && unit(rng) >= self.prep) {
                    SKIP
                } else {
                    *legal.iter().filter(|&&a| a != SKIP).nth(rng.below(n)).unwrap()
                }
            }
            Phase::PostPlay => END_TURN,
            _ => legal[rng.below(legal.len())],
        }
    }
}

fn comb(n: usize, r: usize) -> f64 {
    if r > n {
        return 0.0;
    }
    let r = r.min(n - r);
    let mut x = 1.0;
    for i in 0..r {
        x = x * (n - i) as f64 / (i + 1) as f64;
    }
    x
}

/// P(all of `m` given cards are among `d` draws from `n`).
fn p_all(m: usize, n: usize, d: usize) -> f64 {
    if m > d || m > n {
        return 0.0;
    }
    (0..m).map(|i| (d - i) as f64 / (n - i) as f64).product()
}

/// P(at least `q` of `k` marked cards among `d` draws from `n`) — the hypergeometric tail.
fn p_at_least(q: usize, k: usize, n: usize, d: usize) -> f64 {
    if q == 0 {
        return 1.0;
    }
    if q > k || q > d {
        return 0.0;
    }
    let total = comb(n, d);
    let mut p = 0.0;
    for x in q..=k.min(d) {
        p += comb(k, x) * comb(n - k, d - x);
    }
    (p / total).min(1.0)
}

/// What one seat knows when it estimates a side: the cards it holds for sure (`hand`), the
/// cards it cannot see (`pool`, n of them), and how many of those it will still get (`d`),
/// with the hypergeometric odds tabulated once per decision.
#[derive(Clone, Copy)]
pub(super) struct Outlook {
    hand: u64,
    pool: u64,
    /// tail[k][q] = P(at least q of k marked pool cards among the d draws), k ≤ 12, q ≤ 4
    tail: [[f64; 5]; 13],
    /// all[m] = P(m given pool cards all among the d draws)
    all: [f64; 5],
}

impl Outlook {
    pub(super) fn new(hand: u64, pool: u64, d: usize) -> Outlook {
        let n = pool.count_ones() as usize;
        let d = d.min(n);
        let mut tail = [[0.0; 5]; 13];
        for (k, row) in tail.iter_mut().enumerate() {
            for (q, x) in row.iter_mut().enumerate() {
                *x = p_at_least(q, k.min(n), n, d);
            }
        }
        let mut all = [0.0; 5];
        for (m, x) in all.iter_mut().enumerate() {
            *x = p_all(m, n, d);
        }
        Outlook { hand, pool, tail, all }
    }
    /// P(every card of `need` ends up available).
    #[inline]
    fn p_need(&self, need: u64) -> f64 {
        if need & !(self.hand | self.pool) != 0 {
            return 0.0;
        }
        let m = (need & !self.hand).count_ones() as usize;
        if m < 5 {
            self.all[m]
        } else {
            0.0
        }
    }
    #[inline]
    fn copies(&self, set: u64) -> (usize, usize) {
        ((set & self.hand).count_ones() as usize, (set & self.pool).count_ones() as usize)
    }
    /// P(at least q of the u pool cards of a group).
    #[inline]
    fn at_least(&self, q: usize, u: usize) -> f64 {
        if q == 0 {
            1.0
        } else if q > 4 || u > 12 {
            p_at_least(q, u, self.pool.count_ones() as usize, 0)
        } else {
            self.tail[u][q]
        }
    }
}

/// The expected strength key of a side (R8.4 scale) of `side` cards at a section of `cap` cards
/// and condition `cond`: each kind's chance to be reached (hypergeometric draw odds over the
/// unknown pool, R13.2), the strongest reached kind counting.
fn expected_key(side: &[u8], cap: usize, cond: Cond, keep: bool, o: &Outlook, colours: u8, max_value: u8) -> f64 {
    let k = side.len();
    if k == cap {
        return strength(side, cond, keep) as f64;
    }
    let r = cap - k;
    let mut dvals = 0u16;
    let mut dsum = 0i32;
    let mut one_colour = true;
    let mut same = true;
    for &c in side {
        dvals |= 1 << value(c);
        dsum += value(c) as i32;
        one_colour &= colour(c) == colour(side[0]);
        same &= value(c) == value(side[0]);
    }
    let distinct = dvals.count_ones() as usize == k;
    let (c_lo, c_hi) = if k > 0 { (colour(side[0]), colour(side[0]) + 1) } else { (0, colours) };
    let last_lo = max_value as i32 + 1 - cap as i32;
    let window = |lo: i32| -> u16 { (((1u32 << cap) - 1) << lo) as u16 };
    let wsum = |lo: i32| -> i32 { (0..cap as i32).map(|i| lo + i).sum() };
    let colour_cards = |c: u8, vals: u16| -> u64 { ((vals as u64) & 0xFFF) << (c * cards::STRIDE) };
    let value_cards = |v: u8| -> u64 { (0..colours).fold(0u64, |m, c| m | 1u64 << cards::card(c, v)) };

    // (probability, key) per tier, strongest first
    let mut tiers: [(f64, f64); 5] = [(0.0, 0.0); 5];
    let cr_ok = match cond {
        Cond::Any => true,
        Cond::Colour | Cond::Run => keep,
        _ => false,
    };
    if cr_ok && one_colour && distinct {
        let mut best = (0.0, 0.0);
        for c in c_lo..c_hi {
            for lo in 0..=last_lo {
                let w = window(lo);
                if dvals & !w != 0 {
                    continue;
                }
                let p = o.p_need(colour_cards(c, w & !dvals));
                if p > best.0 + 1e-12 || (p > 0.0 && (p - best.0).abs() <= 1e-12) {
                    best = (p, key(COLOUR_RUN, wsum(lo), cond) as f64);
                }
            }
        }
        tiers[0] = best;
    }
    if matches!(cond, Cond::Any | Cond::Same) && same {
        let mut best = (0.0, 0.0);
        for v in 0..=max_value {
            if k > 0 && v != value(side[0]) {
                continue;
            }
            let (h, u) = o.copies(value_cards(v));
            let p = if h >= r { 1.0 } else { o.at_least(r - h, u) };
            if p >= best.0 && p > 0.0 {
                best = (p, key(SAME, (cap * v as usize) as i32, cond) as f64);
            }
        }
        tiers[1] = best;
    }
    if matches!(cond, Cond::Any | Cond::Colour) && one_colour {
        let mut best = (0.0, 0.0);
        for c in c_lo..c_hi {
            let (h, u) = o.copies(colour_cards(c, 0xFFF));
            let p = if h >= r { 1.0 } else { o.at_least(r - h, u) };
            if p > best.0 {
                best = (p, key(COLOUR, dsum + 6 * r as i32, cond) as f64);
            }
        }
        tiers[2] = best;
    }
    if matches!(cond, Cond::Any | Cond::Run) && distinct {
        let mut best = (0.0, 0.0);
        for lo in 0..=last_lo {
            let w = window(lo);
            if dvals & !w != 0 {
                continue;
            }
            let mut p = 1.0;
            for v in cards::iter((w & !dvals) as u64) {
                let (h, u) = o.copies(value_cards(v));
                if h == 0 {
                    p *= o.at_least(1, u);
                }
            }
            if p >= best.0 && p > 0.0 {
                best = (p, key(RUN, wsum(lo), cond) as f64);
            }
        }
        tiers[3] = best;
    }
    // sum: always reachable; the hand's best cards, 5.5 for each card still to come
    let mut vals: [u8; 12] = [0; 12];
    let mut nv = 0;
    for c in cards::iter(o.hand) {
        if nv < 12 {
            vals[nv] = value(c);
            nv += 1;
        }
    }
    vals[..nv].sort_unstable();
    let mut total = dsum as f64;
    for i in 0..r {
        total += if i < nv { (if cond == Cond::Minus { vals[i] } else { vals[nv - 1 - i] }) as f64 } else { 5.5 };
    }
    tiers[4] = (1.0, (SUM * 100) as f64 + if cond == Cond::Minus { 50.0 - total } else { 50.0 + total });
    let mut e = 0.0;
    let mut left = 1.0;
    for (p, kk) in tiers {
        e += left * p * kk;
        left *= 1.0 - p;
    }
    e
}

/// P(the Attacker wins section `sec`) with sides `a` and `d`, each side's outlook `oa`, `od`:
/// exact when both sides are complete (R8.5: a tie goes to the side completed first), else a
/// logistic over `scale` of the difference of their expected strength keys. The flag is
/// true for the exact case. Greedy's model of a section, and the evaluation's (`evaluate`).
pub(super) fn section_chance(s: &State, sec: usize, a: &Side, d: &Side, oa: &Outlook, od: &Outlook, scale: f64) -> (f64, bool) {
    let f = s.face(sec);
    let cap = f.cards as usize;
    let keep = s.p.keep_colour_run;
    let (att, def) = (a.cards(), d.cards());
    if att.len() == cap && def.len() == cap {
        let (ka, kd) = (strength(att, f.cond, keep), strength(def, f.cond, keep));
        return ((ka > kd || (ka == kd && a.done < d.done)) as u8 as f64, true);
    }
    let ea = expected_key(att, cap, f.cond, keep, oa, s.p.colours, s.p.max_value);
    let ed = expected_key(def, cap, f.cond, keep, od, s.p.colours, s.p.max_value);
    (1.0 / (1.0 + (-(ea - ed) / scale).exp()), false)
}

/// R13.2 greedy: per section, the chance that its side ends stronger (hypergeometric draw odds
/// over the unseen cards); plays where that chance gains most, always claims what it can,
/// retreats (Attacker) from sections that are lost for sure, pours oil (Defender) where
/// removing the target card lowers the Attacker's chance most.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

/// Logistic scale of the strength-key difference.
const SCALE: f64 = 25.0;

struct View<'a> {
    s: &'a State,
    me: usize,
    /// my outlook without my hand (the hand is set per candidate play) and the opponent's
    mine: Outlook,
    theirs: Outlook,
}

impl<'a> View<'a> {
    fn new(s: &'a State, me: usize) -> View<'a> {
        let pool = s.hands[1 - me] | s.deck_set;
        let left = s.deck_len as usize;
        let mine = Outlook::new(0, pool, left / 2);
        let theirs = Outlook::new(0, pool, left / 2 + s.hands[1 - me].count_ones() as usize);
        View { s, me, mine, theirs }
    }

    /// P(the Attacker wins section `sec`) with these sides and my hand `hand`.
    fn p_attacker(&self, sec: usize, a: &Side, d: &Side, hand: u64) -> f64 {
        let mine = Outlook { hand, ..self.mine };
        let theirs = self.theirs;
        let (oa, od) = if self.me == ATTACKER { (mine, theirs) } else { (theirs, mine) };
        section_chance(self.s, sec, a, d, &oa, &od, SCALE).0
    }

    fn weight(&self, sec: usize) -> f64 {
        if self.s.damaged >> sec & 1 == 1 {
            3.0
        } else {
            1.0
        }
    }

    /// My chance at `sec` (the Attacker's or 1 − it).
    fn mine(&self, p_att: f64) -> f64 {
        if self.me == ATTACKER {
            p_att
        } else {
            1.0 - p_att
        }
    }
}

impl GreedyBot {
    fn best_play(&self, s: &State, legal: &[u32]) -> u32 {
        let v = View::new(s, s.current as usize);
        let mut best = (f64::NEG_INFINITY, legal[0]);
        for &id in legal {
            if let Some(score) = Self::play_score(&v, id) {
                if score > best.0 {
                    best = (score, id);
                }
            }
        }
        best.1
    }

    /// Greedy's score of every play among `legal` (the other actions are left out), best
    /// first: what it would play, and how it ranks the rest.
    pub fn play_scores(&self, s: &State, legal: &[u32]) -> Vec<(f64, u32)> {
        let v = View::new(s, s.current as usize);
        let mut out: Vec<(f64, u32)> = legal.iter().filter_map(|&id| Self::play_score(&v, id).map(|x| (x, id))).collect();
        // stable: equal scores keep the order of `legal`, as `best_play` keeps the first
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// The score of play `id` (None: not a play).
    fn play_score(v: &View, id: u32) -> Option<f64> {
        let s = v.s;
        let me = v.me;
        let keep = s.p.keep_colour_run;
        let Some(Action::Play { card: c, section }) = Action::from_id(id) else { return None };
        let sec = section as usize;
        let hand = s.hands[me] & !(1u64 << c);
        let (a0, d0) = (&s.sides[ATTACKER][sec], &s.sides[DEFENDER][sec]);
        let before = v.p_attacker(sec, a0, d0, hand);
        // the side after the play (R6.3 cancels the opponent's partner card instead)
        let mut sides = [*a0, *d0];
        let partner = if value(c) == 0 {
            Some(cards::card(colour(c), s.p.max_value))
        } else if value(c) == s.p.max_value {
            Some(cards::card(colour(c), 0))
        } else {
            None
        };
        let hit = partner.filter(|_| s.p.zero_eleven).and_then(|pc| sides[1 - me].cards().iter().position(|&x| x == pc));
        if let Some(i) = hit {
            let side = &mut sides[1 - me];
            for j in i..side.n as usize - 1 {
                side.cards[j] = side.cards[j + 1];
            }
            side.n -= 1;
            side.done = 0;
        } else {
            let side = &mut sides[me];
            side.cards[side.n as usize] = c;
            side.n += 1;
            if side.n == s.face(sec).cards {
                side.done = u32::MAX - 1; // completes now: after any earlier completion
            }
        }
        let after = v.p_attacker(sec, &sides[0], &sides[1], hand);
        let mut score = v.weight(sec) * (v.mine(after) - v.mine(before));
        if me == ATTACKER && sides[0].n == s.face(sec).cards {
            // a claim it makes provable at once is worth a section
            let pool = s.unseen() & !(1u64 << c);
            let f = s.face(sec);
            if claim_succeeds(sides[0].cards(), sides[0].done, sides[1].cards(), sides[1].done, pool, f, keep, s.p.colours, s.p.max_value) {
                score += 2.0 * v.weight(sec);
            }
        }
        // keep strong cards for later: a small cost for the card spent
        let cost = match s.face(sec).cond {
            Cond::Minus => 0.0,
            _ => value(c) as f64 * 1e-4,
        };
        score -= cost;
        Some(score)
    }

    fn prep(&self, s: &State, legal: &[u32]) -> u32 {
        let me = s.current as usize;
        let keep = s.p.keep_colour_run;
        if me == ATTACKER {
            // retreat from sections lost for sure: the Defender is complete and nothing the
            // Attacker can still get beats him there
            let mine = s.hands[ATTACKER] | s.hands[DEFENDER] | s.deck_set;
            let mut mask = 0u8;
            for sec in 0..7 {
                let (a, d) = (&s.sides[ATTACKER][sec], &s.sides[DEFENDER][sec]);
                let f = s.face(sec);
                if a.n == 0 || d.n != f.cards {
                    continue;
                }
                let kd = strength(d.cards(), f.cond, keep);
                let lost = match best_key(a.cards(), mine, f.cards as usize, f.cond, keep, s.p.colours, s.p.max_value) {
                    None => true,
                    Some(ka) => ka < kd || (ka == kd && (a.n != f.cards || a.done > d.done)),
                };
                if lost {
                    mask |= 1 << sec;
                }
            }
            if mask == 0 && s.open_sections(ATTACKER) == 0 {
                // no free slot: give up the section with the worst chance rather than pass
                let v = View::new(s, me);
                let mut worst = (f64::INFINITY, 0usize);
                for sec in 0..7 {
                    let (a, d) = (&s.sides[ATTACKER][sec], &s.sides[DEFENDER][sec]);
                    if a.n == 0 {
                        continue;
                    }
                    let p = v.weight(sec) * v.p_attacker(sec, a, d, s.hands[me]);
                    if p < worst.0 {
                        worst = (p, sec);
                    }
                }
                mask = 1 << worst.1;
            }
            let id = if mask != 0 { Action::Retreat(mask).id() } else { SKIP };
            if legal.contains(&id) {
                return id;
            }
            return SKIP;
        }
        // Defender: oil where it lowers the Attacker's chance most
        let mut best = (OIL_THRESHOLD, SKIP);
        for (gain, id) in Self::oil_gains(s, legal) {
            if gain > best.0 {
                best = (gain, id);
            }
        }
        best.1
    }

    /// The Defender's gain of each cauldron among `legal`: how much removing its target card
    /// lowers the Attacker's (weighted) chance at that section, in `legal`'s order.
    fn oil_gains(s: &State, legal: &[u32]) -> Vec<(f64, u32)> {
        let v = View::new(s, s.current as usize);
        let mut out = Vec::new();
        for &id in legal {
            let Some(Action::Oil(sec)) = Action::from_id(id) else { continue };
            out.push((Self::oil_gain(&v, sec as usize), id));
        }
        out
    }

    /// The gain of a cauldron on section `sec` (an Attacker card there) for the Defender of `v`.
    fn oil_gain(v: &View, sec: usize) -> f64 {
        let s = v.s;
        let me = v.me;
        let (a, d) = (s.sides[ATTACKER][sec], &s.sides[DEFENDER][sec]);
        let before = v.p_attacker(sec, &a, d, s.hands[me]);
        let mut a2 = a;
        let i = if s.p.oil_newest { a2.n as usize - 1 } else { 0 };
        for j in i..a2.n as usize - 1 {
            a2.cards[j] = a2.cards[j + 1];
        }
        a2.n -= 1;
        a2.done = 0;
        let after = v.p_attacker(sec, &a2, d, s.hands[me]);
        v.weight(sec) * (before - after)
    }
}

/// Greedy's scores of the actions of a key decision (`GameState::key_decision`: a play, or the
/// Defender's cauldrons), one action at a time with no allocation, for the learned policy's
/// option features (`learn::st2_actions`): a play's score (`GreedyBot::play_scores`), a
/// cauldron's gain (how much it lowers the Attacker's weighted chance at its section), the
/// skip's threshold (`OIL_THRESHOLD`, the gain a cauldron must beat), 0 for anything else.
pub struct KeyScores<'a> {
    v: View<'a>,
}

impl<'a> KeyScores<'a> {
    /// The scorer of the decision pending in `s` (its seat to move).
    pub fn new(s: &'a State) -> KeyScores<'a> {
        KeyScores { v: View::new(s, s.current as usize) }
    }

    /// Greedy's score of action `id`.
    pub fn score(&self, id: u32) -> f64 {
        match Action::from_id(id) {
            Some(Action::Play { .. }) => GreedyBot::play_score(&self.v, id).unwrap_or(0.0),
            Some(Action::Oil(sec)) if self.v.s.sides[ATTACKER][sec as usize].n > 0 => GreedyBot::oil_gain(&self.v, sec as usize),
            Some(Action::Skip) => OIL_THRESHOLD,
            _ => 0.0,
        }
    }

    /// Greedy's pick rule, seen action by action in `legal`'s order: does action `id` of
    /// score `x` replace the best so far, of score `best` (NEG_INFINITY before the first)?
    /// The first best play; the first best cauldron above the threshold, else the skip
    /// (which `legal` lists after the cauldrons, and which wins a tie with one).
    pub fn prefers(id: u32, x: f64, best: f64) -> bool {
        if id == SKIP {
            x >= best
        } else {
            x > best
        }
    }
}

/// The gain below which the Defender keeps his cauldron.
const OIL_THRESHOLD: f64 = 0.15;

impl Agent<State> for GreedyBot {
    /// Greedy's order where it weighs options: the plays by score, and the Defender's
    /// cauldrons by gain, the skip placed where its threshold puts it. Claims, retreats and
    /// the end of a turn have no ranking (it claims at once and retreats by its rule).
    fn rank(&mut self, s: &State, legal: &[u32], _rng: &mut Rng, out: &mut Vec<u32>) -> bool {
        out.clear();
        if legal.iter().any(|&a| matches!(Action::from_id(a), Some(Action::Claim(_)))) {
            return false;
        }
        match s.phase {
            Phase::Play if legal != [PASS] => {
                out.extend(self.play_scores(s, legal).into_iter().map(|x| x.1));
                true
            }
            Phase::Prep if s.current as usize == DEFENDER => {
                let mut gains = Self::oil_gains(s, legal);
                // stable: equal gains keep legal's order, as `prep` keeps the first
                gains.sort_by(|a, b| b.0.total_cmp(&a.0));
                let above = gains.iter().take_while(|g| g.0 > OIL_THRESHOLD).count();
                out.extend(gains[..above].iter().map(|g| g.1));
                out.push(SKIP);
                out.extend(gains[above..].iter().map(|g| g.1));
                true
            }
            _ => false,
        }
    }

    fn act(&mut self, s: &State, legal: &[u32], _rng: &mut Rng) -> u32 {
        if let Some(&c) = legal.iter().find(|&&a| matches!(Action::from_id(a), Some(Action::Claim(_)))) {
            return c;
        }
        match s.phase {
            Phase::Prep => self.prep(s, legal),
            Phase::PostPlay => END_TURN,
            _ if legal == [PASS] => PASS,
            _ => self.best_play(s, legal),
        }
    }
}
