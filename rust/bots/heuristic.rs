//! The rule-based bot family (`"heuristic"`, presets `"aggro"`, `"control"`, `"tuned"`): greedy scoring of
//! the offered options, steered by named numeric knobs. It sees only its seat's view.

use crate::cards::{CardDef, CardType, Effect, TargetKind};
use crate::engine::state::Cid;
use crate::engine::{DecisionKind, Opt, SeatView, MAX_SEATS};

/// The knobs (all in 0..=1 unless noted) and their defaults.
pub const KNOBS: &[(&str, f64, &str)] = &[
    ("aggression", 0.4, "how readily it attacks into possible blocks (0 = only safe attacks)"),
    ("block_caution", 0.7, "how readily it blocks to prevent damage rather than only for good trades"),
    ("expose_priority", 0.7, "how much it values Exposés and seeding Scandal"),
    ("scandal_tolerance", 0.5, "how close to the Scandal threshold it lets itself go"),
    ("recruit_appetite", 0.5, "how much it values Recruiting from the Newsfeed"),
    ("mulligan_strictness", 0.5, "how picky it is about its opening hand's Bases"),
    ("reaction_patience", 0.5, "how long it holds Reactions for a big moment"),
];

pub const PRESETS: &[(&str, &[(&str, f64)])] = &[
    ("heuristic", &[]),
    ("aggro", &[("aggression", 0.95), ("block_caution", 0.2), ("expose_priority", 0.5), ("recruit_appetite", 0.3)]),
    ("control", &[("aggression", 0.15), ("block_caution", 0.9), ("expose_priority", 0.9), ("scandal_tolerance", 0.3), ("recruit_appetite", 0.7)]),
    // `ketharmad.tune_bot("heuristic", trials=100, games=960, confirm_games=24000, seed=0)`:
    // 61.5 % [60.9, 62.1] against the default heuristic on 24,000 holdout games (docs/bots.md)
    (
        "tuned",
        &[
            ("aggression", 0.543),
            ("block_caution", 0.96),
            ("expose_priority", 0.117),
            ("scandal_tolerance", 0.832),
            ("recruit_appetite", 0.986),
            ("mulligan_strictness", 0.696),
            ("reaction_patience", 0.011),
        ],
    ),
];

#[derive(Clone, Debug)]
pub struct Knobs {
    pub aggression: f64,
    pub block_caution: f64,
    pub expose_priority: f64,
    pub scandal_tolerance: f64,
    pub recruit_appetite: f64,
    pub mulligan_strictness: f64,
    pub reaction_patience: f64,
}

impl Knobs {
    pub fn from(preset: &str, knobs: &[(String, f64)]) -> Knobs {
        let mut k =
            Knobs { aggression: 0.4, block_caution: 0.7, expose_priority: 0.7, scandal_tolerance: 0.5, recruit_appetite: 0.5, mulligan_strictness: 0.5, reaction_patience: 0.5 };
        let preset = PRESETS.iter().find(|p| p.0 == preset).map(|p| p.1).unwrap_or(&[]);
        for (n, v) in preset.iter().map(|(n, v)| (n.to_string(), *v)).chain(knobs.iter().cloned()) {
            match n.as_str() {
                "aggression" => k.aggression = v,
                "block_caution" => k.block_caution = v,
                "expose_priority" => k.expose_priority = v,
                "scandal_tolerance" => k.scandal_tolerance = v,
                "recruit_appetite" => k.recruit_appetite = v,
                "mulligan_strictness" => k.mulligan_strictness = v,
                "reaction_patience" => k.reaction_patience = v,
                _ => {}
            }
        }
        k
    }
}

fn value(d: &CardDef) -> f64 {
    let cost = d.cost.total() as f64;
    let body = if d.ctype.is_figure() { (d.influence + d.credibility) as f64 * 0.8 } else { 0.0 };
    cost * 1.5 + body + if d.kw.momentum { 1.0 } else { 0.0 } + if d.kw.propaganda { 1.5 } else { 0.0 }
}

fn fig_value(v: &SeatView, c: Cid) -> f64 {
    let (i, cr) = v.stats(c).unwrap_or((0, 0));
    let base = v.def(c).map(value).unwrap_or(0.0);
    base * 0.5 + i as f64 * 1.2 + cr as f64 * 0.8
}

fn resolve_effects(d: &CardDef) -> impl Iterator<Item = &Effect> {
    d.abilities.iter().filter(|a| a.trigger == crate::cards::Trigger::Resolve).map(|a| &a.effect)
}

pub fn choose(k: &Knobs, v: &SeatView, kind: DecisionKind, opts: &[Opt]) -> usize {
    match kind {
        DecisionKind::Mulligan => mulligan(k, v, opts),
        DecisionKind::Bottom | DecisionKind::Discard => discard(v, opts),
        DecisionKind::Main => {
            // a Base play scores above everything else: no need to score the rest
            if let Some(i) = opts.iter().position(|o| matches!(o, Opt::PlayBase(_))) {
                return i;
            }
            let mut lz = Lazy::default();
            // as `best`, but a Campaign is scored only if it could beat the best so far
            // (its score is at most 15 + 20·aggression), which skips the costly board summary
            let campaign_max = 15.0 + 20.0 * k.aggression;
            let mut bi = 0;
            let mut bs = f64::MIN;
            for (i, o) in opts.iter().enumerate() {
                if *o == Opt::Campaign && campaign_max <= bs {
                    continue;
                }
                let s = main_score(k, v, o, &mut lz);
                if s > bs {
                    bs = s;
                    bi = i;
                }
            }
            bi
        }
        DecisionKind::Respond => best(opts, |o| respond_score(k, v, o)),
        DecisionKind::Target => best(opts, |o| target_score(v, o)),
        DecisionKind::Attackers => attackers(k, v, opts),
        DecisionKind::Blocks => blocks(k, v, opts),
        DecisionKind::DivideDamage => best(opts, |o| match *o {
            // the blocker closest to dying
            Opt::Card(c) => -((v.credibility(c).unwrap_or(0) - v.in_play_state(c).map_or(0, |s| s.2)) as f64),
            _ => f64::MIN,
        }),
        DecisionKind::ExposeAmount => 0, // the largest amount is offered first
        DecisionKind::Sacrifice => best(opts, |o| match *o {
            Opt::Card(c) => -fig_value(v, c),
            _ => f64::MIN,
        }),
        // TF 169.2.10: the start player's team wins slightly more often (docs/formats.md):
        // never decline
        DecisionKind::DeclineStart => opts.iter().position(|o| *o == Opt::Keep).unwrap_or(0),
    }
}

fn best(opts: &[Opt], mut score: impl FnMut(&Opt) -> f64) -> usize {
    let mut bi = 0;
    let mut bs = f64::MIN;
    for (i, o) in opts.iter().enumerate() {
        let s = score(o);
        if s > bs {
            bs = s;
            bi = i;
        }
    }
    bi
}

fn bases_in_hand(v: &SeatView) -> usize {
    v.hand().iter().filter(|&&c| v.is_base(c)).count()
}

fn bases_in_play(v: &SeatView, p: usize) -> usize {
    v.bases_in_play(p)
}

fn mulligan(k: &Knobs, v: &SeatView, opts: &[Opt]) -> usize {
    let b = bases_in_hand(v);
    let keep = if v.mulligans() >= 2 {
        true
    } else if k.mulligan_strictness >= 0.75 {
        (2..=4).contains(&b)
    } else if k.mulligan_strictness >= 0.25 {
        (2..=5).contains(&b)
    } else {
        (1..=6).contains(&b)
    };
    opts.iter().position(|&o| o == if keep { Opt::Keep } else { Opt::Mulligan }).unwrap_or(0)
}

fn discard(v: &SeatView, opts: &[Opt]) -> usize {
    let too_many_bases = bases_in_hand(v) + bases_in_play(v, v.seat) > 7 || bases_in_hand(v) > 3;
    best(opts, |o| match *o {
        Opt::Card(c) => match v.def(c) {
            Some(d) if d.ctype == CardType::Base => {
                if too_many_bases {
                    100.0
                } else {
                    -100.0
                }
            }
            Some(d) => d.cost.total() as f64 - value(d) * 0.1,
            None => 0.0,
        },
        _ => f64::MIN,
    })
}

fn opponents<'a>(v: &'a SeatView) -> impl Iterator<Item = usize> + 'a {
    v.opponents(v.seat)
}

fn max_opp_scandal(v: &SeatView) -> i32 {
    opponents(v).map(|q| v.scandal(q)).max().unwrap_or(0)
}

fn my_attack_power(v: &SeatView) -> i32 {
    v.attack_power(v.seat)
}

/// `q`'s possible blockers: (how many ready Figures, the highest Influence among them).
fn blockers_of(v: &SeatView, q: usize) -> (usize, i16) {
    v.ready_figures(q)
}

/// An attacker is "safe" against a player whose blockers are `blk` when none of them can
/// kill it.
fn safe_against(v: &SeatView, c: Cid, blk: (usize, i16)) -> bool {
    if blk.0 == 0 || v.unblockable(c) || (v.has_propaganda(c) && blk.0 < 2) {
        return true;
    }
    blk.1 < v.credibility(c).unwrap_or(1)
}

/// `safe_against` with the attacker's Credibility (or 1 out of play) known.
fn safe_against_with(v: &SeatView, c: Cid, blk: (usize, i16), credibility: i16) -> bool {
    blk.0 == 0 || v.unblockable(c) || (v.has_propaganda(c) && blk.0 < 2) || blk.1 < credibility
}

/// The heuristic's order of preference over main-priority options `opts` (indices, best
/// first; equal scores in option order, so the first is `choose`'s pick when no Base play
/// is offered) into `out`, their scores into `scores` (`Agent::rank` of the harness).
pub fn rank_main(k: &Knobs, v: &SeatView, opts: &[Opt], out: &mut Vec<usize>, scores: &mut Vec<f64>) {
    let mut lz = Lazy::default();
    scores.clear();
    scores.extend(opts.iter().map(|o| main_score(k, v, o, &mut lz)));
    out.clear();
    out.extend(0..opts.len());
    out.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
}

/// The heuristic's score of a main-priority option (higher is better; EndPhase is 0).
pub fn main_score_pub(k: &Knobs, v: &SeatView, o: &Opt) -> f64 {
    main_score(k, v, o, &mut Lazy::default())
}

/// Board summaries computed at most once per decision.
#[derive(Default)]
struct Lazy {
    power: Option<i32>,
    campaign: Option<bool>,
    parties: Option<u32>,
}

impl Lazy {
    fn power(&mut self, v: &SeatView) -> i32 {
        *self.power.get_or_insert_with(|| my_attack_power(v))
    }
    /// Party bits of the Figures the seat controls.
    fn parties(&mut self, v: &SeatView) -> u32 {
        *self.parties.get_or_insert_with(|| v.parties(v.seat))
    }
}

fn main_score(k: &Knobs, v: &SeatView, o: &Opt, lz: &mut Lazy) -> f64 {
    let me = v.seat;
    let threshold = v.rules().scandal_threshold;
    let scandal_room = threshold - 1 - v.scandal(me);
    let scandal_penalty = |n: i16| -> f64 {
        if n as i32 > scandal_room {
            (1.0 - k.scandal_tolerance) * 40.0
        } else {
            0.0
        }
    };
    match *o {
        Opt::EndPhase => 0.0,
        Opt::PlayBase(_) => 200.0,
        Opt::Play(c) => {
            let Some(d) = v.def(c) else { return -1.0 };
            match d.ctype {
                CardType::Reaction => reaction_value(k, v, c, d, true),
                CardType::Move => {
                    let mut s: f64 = 30.0 + d.cost.total() as f64 * 4.0;
                    for e in resolve_effects(d) {
                        s += match *e {
                            Effect::ReturnToHand { .. } => {
                                if opponents(v).any(|q| v.in_play(q).iter().any(|&x| v.def(x).is_some_and(|dd| dd.ctype.is_figure() && dd.cost.total() >= 3))) {
                                    10.0
                                } else {
                                    -60.0
                                }
                            }
                            Effect::SympathyEach { n } => {
                                let f = v.in_play(me).iter().filter(|&&x| v.is_figure(x)).count() as f64;
                                if f < 2.0 {
                                    -40.0
                                } else {
                                    f * n as f64 * 4.0
                                }
                            }
                            Effect::SupportPerFigure { per, max } => {
                                let f = v.in_play(me).iter().filter(|&&x| v.is_figure(x)).count() as f64;
                                (f * per as f64).min(max as f64) * 4.0 - 10.0
                            }
                            Effect::Rally { .. } => {
                                let a = v.in_play(me).iter().filter(|&&x| v.is_figure(x)).count() as f64;
                                if a < 2.0 {
                                    -40.0
                                } else {
                                    a * 5.0 * (0.5 + k.aggression)
                                }
                            }
                            Effect::OpponentGainsScandal { .. } => 8.0 * k.expose_priority,
                            Effect::Draw { n } => 6.0 * n as f64,
                            _ => 0.0,
                        };
                    }
                    s - scandal_penalty(d.kw.scandal)
                }
                _ => {
                    let mut s = 40.0 + d.cost.total() as f64 * 6.0 + if d.ctype.is_figure() { (d.influence + d.credibility) as f64 } else { 4.0 };
                    if d.kw.scandal > 0 {
                        s -= scandal_penalty(d.kw.scandal);
                    }
                    // faction plans (rulebook §13): ramp early (Mészáros, Matolcsy), count the
                    // parties (Unity needs 3 different ones), close the border once the race slows
                    if d.mana_ability.is_some() && v.turn() <= 4 * v.n_players() as u32 {
                        s += 12.0;
                    }
                    if d.party_bit != 0 && d.ctype.is_figure() {
                        let mine = lz.parties(v);
                        if mine & d.party_bit == 0 && mine.count_ones() < v.rules().unity_parties as u32 {
                            s += 8.0;
                        }
                    }
                    if d.kw.border_closure {
                        s += 10.0;
                    }
                    // Simicska defects at 4+ Scandal
                    if d.abilities.iter().any(|a| matches!(a.effect, Effect::Defect { n } if v.scandal(me) >= n as i32)) {
                        s -= 100.0;
                    }
                    s
                }
            }
        }
        Opt::Activate(c, a) => {
            let Some(d) = v.def(c) else { return -1.0 };
            let ab = &d.abilities[a as usize];
            match ab.effect {
                Effect::RemoveScandal { n } => {
                    if ab.cost == crate::cards::ActivationCost::SacrificeSelf {
                        if v.scandal(me) + 1 >= threshold {
                            70.0
                        } else {
                            -1.0
                        }
                    } else if v.scandal(me) > 0 {
                        60.0 + n as f64
                    } else {
                        -1.0
                    }
                }
                Effect::OpponentGainsScandal { .. } => 25.0 * k.expose_priority + 5.0,
                Effect::Expose { .. } => {
                    if max_opp_scandal(v) > 0 {
                        65.0 * k.expose_priority + 10.0
                    } else {
                        -1.0
                    }
                }
                Effect::ExhaustTarget => {
                    // tap a blocker only to clear the way for a real attack (the tapper then
                    // can't block itself)
                    let blockers = opponents(v).map(|q| v.ready_figures(q).0).sum::<usize>();
                    if blockers > 0 && lz.power(v) - v.influence(c).unwrap_or(0) as i32 >= 3 && k.aggression >= 0.3 {
                        35.0
                    } else {
                        -1.0
                    }
                }
                Effect::GrantPropaganda => {
                    // worth a tapped Rogán only for an aggressive or a lethal Campaign
                    let power = lz.power(v) - v.influence(c).unwrap_or(0) as i32;
                    if power >= 3 && (k.aggression >= 0.6 || opponents(v).any(|q| power >= v.support(q))) {
                        25.0
                    } else {
                        -1.0
                    }
                }
                _ => 10.0,
            }
        }
        Opt::Recruit(c) => {
            let Some(d) = v.def(c) else { return -1.0 };
            (20.0 + value(d) * 3.0) * (0.4 + k.recruit_appetite) - scandal_penalty(d.kw.scandal)
        }
        Opt::Expose(q) => {
            let s = v.scandal(q as usize).min(v.rules().expose_max_taken);
            if s > 0 {
                (30.0 + 15.0 * s as f64) * (0.3 + k.expose_priority)
            } else {
                -1.0
            }
        }
        Opt::Campaign => {
            let go = if k.aggression >= 0.7 {
                true
            } else {
                let power = lz.power(v);
                *lz.campaign.get_or_insert_with(|| {
                    let mut blk = [(0usize, 0i16); MAX_SEATS];
                    for q in opponents(v) {
                        blk[q] = blockers_of(v, q);
                    }
                    opponents(v).any(|q| power >= v.support(q)) || v.in_play(me).iter().any(|&c| v.can_attack(c) && opponents(v).any(|q| safe_against(v, c, blk[q])))
                })
            };
            if go {
                15.0 + 20.0 * k.aggression
            } else {
                -1.0
            }
        }
        Opt::Swap(_) => {
            let bases = bases_in_play(v, me);
            if bases >= 6 || (bases >= 4 && bases_in_hand(v) >= 2) {
                8.0
            } else {
                -1.0
            }
        }
        _ => 0.0,
    }
}

/// Value of playing Reaction `c` now (`main`: with main priority in own turn).
fn reaction_value(k: &Knobs, v: &SeatView, _c: Cid, d: &CardDef, main: bool) -> f64 {
    let me = v.seat;
    let mut s = -1.0;
    for e in resolve_effects(d) {
        s = match *e {
            Effect::Expose { n } => {
                let big = max_opp_scandal(v);
                let want = (2.0 + k.reaction_patience * (n as f64 - 2.0)).round() as i32;
                if big >= want.max(1) {
                    90.0
                } else {
                    -1.0
                }
            }
            Effect::Damage { n } => {
                // kill an opposing Figure
                let kill = opponents(v)
                    .any(|q| v.in_play(q).iter().any(|&x| v.is_figure(x) && v.credibility(x).unwrap_or(99) - v.in_play_state(x).map_or(0, |s| s.2) <= n && fig_value(v, x) >= 3.0));
                if kill {
                    80.0
                } else {
                    -1.0
                }
            }
            Effect::Neutralize => {
                if v.chain().last().is_some_and(|(_, p)| p != me) {
                    85.0
                } else {
                    -1.0
                }
            }
            Effect::PumpByOpponentScandal { .. } => {
                let (att, blk) = v.campaign();
                let mine_fighting = att.iter().any(|a| v.in_play_state(a.0).is_some_and(|s| s.0 == me)) || blk.iter().any(|b| v.in_play_state(b.0).is_some_and(|s| s.0 == me));
                if !main && mine_fighting && max_opp_scandal(v) >= 2 {
                    75.0
                } else {
                    -1.0
                }
            }
            Effect::GainSupport { n } => {
                if v.support(me) <= 6 || (d.sacrifice_to_cast && n > 0 && v.support(me) <= 10 && k.reaction_patience < 0.5) {
                    70.0
                } else {
                    -1.0
                }
            }
            _ => s,
        };
        if s > 0.0 {
            return s;
        }
    }
    s
}

fn respond_score(k: &Knobs, v: &SeatView, o: &Opt) -> f64 {
    match *o {
        Opt::Pass => 0.0,
        Opt::Play(c) => match v.def(c) {
            Some(d) => reaction_value(k, v, c, d, false),
            None => -1.0,
        },
        Opt::Activate(c, a) => {
            let Some(d) = v.def(c) else { return -1.0 };
            let ab = &d.abilities[a as usize];
            match ab.effect {
                Effect::RemoveScandal { .. } => {
                    // Bűnbak: at the threshold, or when it is about to die anyway
                    let dying = v.in_play_state(c).is_some_and(|s| s.2 >= v.credibility(c).unwrap_or(1));
                    let blocking = v.campaign().1.iter().any(|b| b.0 == c);
                    if v.scandal(v.seat) + 1 >= v.rules().scandal_threshold || dying || (blocking && v.scandal(v.seat) >= 2) {
                        50.0
                    } else {
                        -1.0
                    }
                }
                _ => -1.0,
            }
        }
        _ => -1.0,
    }
}

fn target_score(v: &SeatView, o: &Opt) -> f64 {
    let me = v.seat;
    let src = v.target_source();
    let harmful = src.is_some_and(|d| {
        d.abilities
            .iter()
            .any(|a| matches!(a.effect, Effect::Damage { .. } | Effect::ExhaustTarget | Effect::ReturnToHand { .. } | Effect::Neutralize) && a.target != TargetKind::None)
    });
    let damage = src.and_then(|d| d.abilities.iter().find_map(|a| if let Effect::Damage { n } = a.effect { Some(n) } else { None }));
    match *o {
        Opt::NoTarget => 0.5,
        Opt::Player(q) => {
            let q = q as usize;
            // exposes and Scandal go to the most exposed / most dangerous opponent; losses to the weakest
            let sc = v.scandal(q) as f64;
            let exposing = src.is_some_and(|d| d.abilities.iter().any(|a| matches!(a.effect, Effect::Expose { .. } | Effect::DieRoll(_))));
            if exposing {
                sc * 10.0 - v.support(q) as f64 * 0.1
            } else {
                -(v.support(q) as f64) + sc * 0.1
            }
        }
        Opt::Card(c) => {
            let Some((ctrl, exhausted, dmg, _)) = v.in_play_state(c) else {
                // a card on the chain (Neutralize): the opponent's
                return if v.chain().any(|(x, p)| x == c && p != me) { 10.0 } else { -10.0 };
            };
            let val = if v.is_figure(c) { fig_value(v, c) } else { v.def(c).map(value).unwrap_or(1.0) };
            if harmful {
                if ctrl == me {
                    -val - 10.0
                } else {
                    let kills = damage.is_some_and(|n| v.credibility(c).unwrap_or(99) - dmg <= n);
                    let ready_bonus = if exhausted { 0.0 } else { 2.0 };
                    val + ready_bonus
                        + if kills {
                            20.0
                        } else if damage.is_some() {
                            -5.0
                        } else {
                            0.0
                        }
                }
            } else if ctrl == me {
                val + 5.0
            } else {
                -val
            }
        }
        _ => 0.0,
    }
}

fn attackers(k: &Knobs, v: &SeatView, opts: &[Opt]) -> usize {
    let power = my_attack_power(v);
    let lethal_on = |q: usize| power >= v.support(q);
    let (declared, _) = v.campaign();
    let me = v.seat;
    // keep blockers home when the swing back would hurt too much: the power the opponents
    // could swing back with next turn (their Figures, all readied); each
    // opponent's possible blockers (`blockers_of`): both from one pass over its board
    let mut threat = None;
    let mut blk = [(0usize, 0i16); MAX_SEATS];
    for q in opponents(v) {
        let (swing, ready) = v.swing_and_ready(q);
        threat = threat.max(Some(swing));
        blk[q] = ready;
    }
    let threat = threat.unwrap_or(0);
    let home_guard = threat as f64 >= v.support(me) as f64 * (0.35 + 0.6 * k.aggression);
    let mut bi: Option<usize> = None;
    let mut bs = f64::MIN;
    for (i, o) in opts.iter().enumerate() {
        if let Opt::Attack(c, q) = *o {
            let q = q as usize;
            let st = v.stats(c);
            let safe = safe_against_with(v, c, blk[q], st.map_or(1, |s| s.1));
            let inf = st.map_or(0, |s| s.0) as f64;
            if inf <= 0.0 && !lethal_on(q) {
                continue;
            }
            let lone = v.def(c).map_or(0, |d| d.kw.lone) > 0 && declared.is_empty();
            let good_blocker = st.map_or(0, |s| s.1) >= 3;
            let mut ok = safe || lethal_on(q) || (k.aggression >= 0.6 && inf >= 1.0) || (k.aggression >= 0.85);
            if ok && home_guard && !lethal_on(q) && good_blocker {
                ok = false;
            }
            if !ok {
                continue;
            }
            // prefer the weakest opponent, and bigger attackers
            let s = inf * 2.0 - v.support(q) as f64 * 0.5 + if safe { 5.0 } else { 0.0 } + if lone { 3.0 } else { 0.0 };
            if s > bs {
                bs = s;
                bi = Some(i);
            }
        }
    }
    if let Some(i) = bi {
        return i;
    }
    // nothing worth it: stop (or the least bad first attacker when we must choose one)
    opts.iter().position(|&o| o == Opt::Done).unwrap_or_else(|| {
        best(opts, |o| match *o {
            Opt::Attack(c, q) => -(v.support(q as usize) as f64) - fig_value(v, c),
            _ => f64::MIN,
        })
    })
}

fn blocks(k: &Knobs, v: &SeatView, opts: &[Opt]) -> usize {
    let me = v.seat;
    let (att, blk) = v.campaign();
    // a forced Propaganda completion: no Done offered
    let done = opts.iter().position(|&o| o == Opt::Done);
    let incoming: i32 = att
        .iter()
        // our own attackers and, in a team format, the partner's: they hit the shared pool (E82, E86)
        .filter(|a| (a.1 as usize == me || v.allies(me).any(|x| x == a.1 as usize)) && !blk.iter().any(|b| b.1 == a.0))
        .map(|a| v.influence(a.0).unwrap_or(0).max(0) as i32)
        .sum();
    // chump-block when the unblocked damage would take a large bite of our Support
    let danger = incoming as f64 >= v.support(me) as f64 * (0.2 + 0.6 * (1.0 - k.block_caution)) || incoming >= v.support(me);
    let mut bi: Option<usize> = None;
    let mut bs = f64::MIN;
    for (i, o) in opts.iter().enumerate() {
        if let Opt::Block(b, a) = *o {
            let (a_inf, a_cred) = v.stats(a).map_or((0, 1), |s| s);
            let already: i16 = blk.iter().filter(|x| x.1 == a).map(|x| v.influence(x.0).unwrap_or(0)).sum();
            let held = blk.iter().any(|x| x.1 == a);
            let (b_inf, b_cred) = v.stats(b).map_or((0, 1), |s| s);
            let kills = already + b_inf >= a_cred;
            let survives = b_cred > a_inf || held;
            // each Figure's value at most once (the same value every time)
            let (mut fa, mut fb) = (None, None);
            let mut value_a = || *fa.get_or_insert_with(|| fig_value(v, a));
            let mut value_b = || *fb.get_or_insert_with(|| fig_value(v, b));
            let trade = kills && value_a() >= value_b();
            let s = if kills && survives {
                30.0 + value_a()
            } else if trade {
                15.0 + value_a() - value_b()
            } else if survives && k.block_caution >= 0.4 {
                5.0 + a_inf as f64 * k.block_caution
            } else if danger {
                a_inf as f64 - value_b() * 0.1
            } else {
                continue;
            };
            if !held && !kills && !danger && v.has_propaganda(a) {
                continue;
            }
            // an attacker already held by a blocker needs more only to kill it
            if held && (already >= a_cred || !kills) {
                continue;
            }
            if s > bs {
                bs = s;
                bi = Some(i);
            }
        }
    }
    if let Some(i) = bi {
        return i;
    }
    done.unwrap_or(0)
}
