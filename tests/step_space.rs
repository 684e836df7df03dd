//! The step API's fixed action space (`engine::actions`) and observations (`engine::observe`),
//! checked at every decision of many games (through a test-only `Policy::Probe`) and in
//! hand-built positions.

use std::cell::RefCell;
use std::collections::HashMap;

use ketharmad::bots::{BotSpec, Policy};
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue};
use ketharmad::engine::actions::{ActKind, ActionSpace, Meaning};
use ketharmad::engine::{observe, scenario, Cid, DecisionKind, Game, GameConfig, Opt, SeatView, Zone};
use ketharmad::rng::Rng;

fn db() -> CardDb {
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap()
}

fn mirror_db() -> CardDb {
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[("rules.allow_mirror".into(), ParamValue::Bool(true))]).unwrap()
}

/// What the probe collects over the games of one test thread.
#[derive(Default)]
struct Ctx {
    space: Option<ActionSpace>,
    /// id -> (kind, definition) of every option met.
    seen: HashMap<u32, (ActKind, Option<u16>)>,
    decisions: usize,
    options: usize,
    kinds: HashMap<&'static str, usize>,
    act_kinds: HashMap<&'static str, usize>,
    /// observation checks done; of those, how often another seat's hidden hand was re-dealt to
    /// different cards, and how often that seat's own tensor changed with it
    observed: usize,
    hidden_changed: usize,
    owner_tensor_changed: usize,
    rng: Option<Rng>,
    check_obs: bool,
    errors: Vec<String>,
}

thread_local! {
    static CTX: RefCell<Ctx> = RefCell::new(Ctx::default());
}

fn err(c: &mut Ctx, s: String) {
    if c.errors.len() < 20 {
        c.errors.push(s);
    }
}

/// The kind an id must have for option `o`.
fn kind_of(g: &Game, o: Opt) -> ActKind {
    match o {
        Opt::Keep => ActKind::Keep,
        Opt::Mulligan => ActKind::Mulligan,
        Opt::EndPhase => ActKind::EndPhase,
        Opt::Campaign => ActKind::Campaign,
        Opt::Pass => ActKind::Pass,
        Opt::Done => ActKind::Done,
        Opt::NoTarget => ActKind::NoTarget,
        Opt::Player(_) => ActKind::Player,
        Opt::Expose(_) => ActKind::Expose,
        Opt::Amount(_) => ActKind::Amount,
        Opt::PlayBase(_) => ActKind::PlayBase,
        Opt::Play(_) => ActKind::Play,
        Opt::Swap(_) => ActKind::Swap,
        Opt::Recruit(_) => ActKind::Recruit,
        Opt::Activate(..) => ActKind::Activate,
        Opt::Attack(..) => ActKind::Attack,
        Opt::Block(..) => ActKind::Block,
        Opt::Card(c) => match g.state().inst[c as usize].zone {
            Zone::Hand => ActKind::CardHand,
            Zone::Play => ActKind::CardPlay,
            Zone::Chain => ActKind::CardChain,
            z => panic!("card option in zone {z:?}"),
        },
    }
}

/// Copy rank of `c` in `list`, computed independently of the action space.
fn rank(g: &Game, list: &[Cid], c: Cid) -> u16 {
    let d = g.state().inst[c as usize].def;
    let i = list.iter().position(|&x| x == c).expect("card in its zone");
    list[..i].iter().filter(|&&x| g.state().inst[x as usize].def == d).count() as u16
}

/// The meaning option `o` must have for `seat`, from the game directly.
fn expected(g: &Game, seat: usize, o: Opt) -> Meaning {
    let st = g.state();
    let n = st.n;
    let rel = |q: usize| ((q + n - seat) % n) as u8;
    let def = |c: Cid| Some(st.inst[c as usize].def);
    let ctrl = |c: Cid| st.inst[c as usize].controller as usize;
    let play_rank = |c: Cid| rank(g, &st.players[ctrl(c)].play, c);
    let m = Meaning { kind: kind_of(g, o), def: None, copy: 0, seat: 0, ability: 0, index: 0 };
    match o {
        Opt::Player(q) | Opt::Expose(q) => Meaning { seat: rel(q as usize), ..m },
        Opt::Amount(a) => Meaning { index: a as u16, ..m },
        Opt::PlayBase(c) | Opt::Play(c) | Opt::Swap(c) => Meaning { def: def(c), ..m },
        Opt::Recruit(c) => Meaning { def: def(c), copy: rank(g, &st.news_row, c), ..m },
        Opt::Activate(c, a) => Meaning { def: def(c), copy: play_rank(c), ability: a, ..m },
        Opt::Attack(c, q) => Meaning { def: def(c), copy: play_rank(c), seat: rel(q as usize), ..m },
        Opt::Block(b, a) => {
            let i = st.campaign.attackers.iter().position(|x| x.0 == a).expect("attacker");
            Meaning { def: def(b), copy: play_rank(b), index: i as u16, ..m }
        }
        Opt::Card(c) => match st.inst[c as usize].zone {
            Zone::Hand => Meaning { def: def(c), copy: rank(g, &st.players[seat].hand, c), ..m },
            Zone::Play => Meaning { def: def(c), copy: play_rank(c), seat: rel(ctrl(c)), ..m },
            _ => {
                let chain: Vec<Cid> = st.chain.iter().filter(|it| it.controller as usize == ctrl(c)).map(|it| it.card).collect();
                Meaning { def: def(c), copy: rank(g, &chain, c), seat: rel(ctrl(c)), ..m }
            }
        },
        _ => m,
    }
}

fn kind_name(k: DecisionKind) -> &'static str {
    observe::kind_name(k)
}

/// Called at every decision with two or more options.
fn probe(v: &SeatView, kind: DecisionKind, opts: &[Opt]) {
    CTX.with(|cx| {
        let mut cx = cx.borrow_mut();
        let cx = &mut *cx;
        let g = v.game();
        let seat = v.seat;
        let space = cx.space.take().expect("space");
        cx.decisions += 1;
        cx.options += opts.len();
        *cx.kinds.entry(kind_name(kind)).or_default() += 1;
        let mut ids: Vec<u32> = Vec::with_capacity(opts.len());
        for (i, &o) in opts.iter().enumerate() {
            let id = space.id(g, seat, o);
            if id as usize >= space.size() {
                err(cx, format!("{kind:?}: option {o:?} has id {id} outside 0..{}", space.size()));
                continue;
            }
            if ids.contains(&id) {
                err(cx, format!("{kind:?}: id {id} ({}) given twice in {opts:?}", space.describe(id)));
            }
            ids.push(id);
            if space.decode(g, seat, id, opts) != Some(i) {
                err(cx, format!("{kind:?}: decode({id}) = {:?}, not {i}", space.decode(g, seat, id, opts)));
            }
            let m = space.meaning(id).expect("meaning");
            let want = expected(g, seat, o);
            if m != want {
                err(cx, format!("{kind:?}: option {o:?} got id {id} meaning {m:?}, expected {want:?}"));
            }
            *cx.act_kinds.entry(m.kind.name()).or_default() += 1;
            let prev = *cx.seen.entry(id).or_insert((m.kind, m.def));
            if prev != (m.kind, m.def) {
                err(cx, format!("id {id} meant {prev:?} and now {:?}", (m.kind, m.def)));
            }
            let (l, lk, d) = (space.label(g, seat, o), space.label_in(g, seat, Some(kind), o), space.describe(id));
            if l.is_empty() || lk.is_empty() || d.is_empty() {
                err(cx, format!("{kind:?}: empty label for {o:?}"));
            }
        }
        // the mask is true exactly at the ids, and `ids` lists them in option order
        let mut mask = vec![false; space.size()];
        space.mask(g, seat, opts, &mut mask);
        let mut listed = Vec::new();
        space.ids(g, seat, opts, &mut listed);
        if listed != ids || mask.iter().filter(|&&m| m).count() != opts.len() || ids.iter().any(|&i| !mask[i as usize]) {
            err(cx, format!("{kind:?}: mask or ids disagree with the option ids"));
        }
        if cx.check_obs {
            let n = g.state().n;
            let size = observe::size(g.db());
            let dec = Some((seat, kind));
            let mut a = vec![0f32; size];
            let mut b = vec![0f32; size];
            observe::tensor_at(g, seat, dec, &mut a);
            let oa = observe::observation_at(g, seat, dec);
            let rng = cx.rng.as_mut().expect("rng");
            let det = v.determinize(rng, vec![ketharmad::engine::NoAgent; n]);
            observe::tensor_at(&det, seat, dec, &mut b);
            // the ids read only what the seat can see: the same after the re-deal
            if opts.iter().any(|&o| space.id(&det, seat, o) != space.id(g, seat, o)) {
                err(cx, format!("{kind:?}: an option's id changed when hidden cards were re-dealt"));
            }
            let ob = observe::observation_at(&det, seat, dec);
            cx.observed += 1;
            if a != b {
                let diff: Vec<usize> = (0..size).filter(|&i| a[i] != b[i]).collect();
                err(cx, format!("{kind:?}: seat {seat}'s tensor changed when hidden cards were re-dealt (positions {diff:?})"));
            }
            if oa != ob {
                err(cx, format!("{kind:?}: seat {seat}'s observation changed when hidden cards were re-dealt"));
            }
            // another seat's hand was re-dealt: the observer cannot tell, its owner can
            for t in (0..n).filter(|&t| t != seat) {
                let mut ha = observe::observation_at(g, t, None).hand;
                let mut hb = observe::observation_at(&det, t, None).hand;
                ha.sort();
                hb.sort();
                if ha != hb {
                    cx.hidden_changed += 1;
                    observe::tensor_at(g, t, None, &mut a);
                    observe::tensor_at(&det, t, None, &mut b);
                    cx.owner_tensor_changed += (a != b) as usize;
                }
            }
        }
        cx.space = Some(space);
    });
}

/// Play game `index` of factions `f` with `bots`, every seat probed; panics on a finding.
fn play(db: &CardDb, f: &[u8], bots: &[BotSpec], seed: u64) {
    let n = f.len();
    let cfg = GameConfig { factions: f.to_vec(), seed, start_player: None, ..Default::default() };
    let pols: Vec<Policy> = ketharmad::bots::seat_policies(seed, n, bots).into_iter().map(|p| Policy::Probe(probe, Box::new(p))).collect();
    let mut g = Game::new(db, &cfg, pols);
    g.run(None);
    assert!(g.state().outcome.is_some());
}

fn with_ctx<R>(space: ActionSpace, check_obs: bool, f: impl FnOnce() -> R) -> (R, Ctx) {
    CTX.with(|c| {
        *c.borrow_mut() = Ctx { space: Some(space), rng: Some(Rng::new(7)), check_obs, ..Default::default() };
    });
    let r = f();
    let ctx = CTX.with(|c| std::mem::take(&mut *c.borrow_mut()));
    (r, ctx)
}

fn spec(k: &str) -> BotSpec {
    BotSpec::parse(k, vec![]).unwrap()
}

/// The seat lists of every game family: each ordered faction pair, 3 and 4 seats.
fn families() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            if a != b {
                v.push(vec![a, b]);
            }
        }
    }
    v.extend([vec![0, 1, 2], vec![3, 2, 1], vec![2, 0, 3], vec![1, 3, 0], vec![0, 1, 2, 3], vec![3, 1, 0, 2], vec![2, 3, 1, 0]]);
    v
}

fn report(ctx: &Ctx) {
    assert!(ctx.errors.is_empty(), "{} findings, first: {:#?}", ctx.errors.len(), ctx.errors);
}

/// (a) + (b): at every decision of many games (every faction pair, 2/3/4 seats, random and
/// heuristic bots), the option ids are in range, unique, decode back to the option, carry
/// the option's kind, definition, copy rank and relative seat, never change meaning between
/// games and seats, and every option has a label.
#[test]
fn ids_are_unique_decodable_and_stable_at_every_decision() {
    let db = db();
    let space = ActionSpace::new(&db);
    let size = space.size();
    let ((), ctx) = with_ctx(space, false, || {
        let mixes = [vec!["random"; 4], vec!["heuristic"; 4], vec!["heuristic", "random", "aggro", "control"], vec!["random", "control", "heuristic", "aggro"]];
        for (fi, f) in families().iter().enumerate() {
            for (mi, mix) in mixes.iter().enumerate() {
                let bots: Vec<BotSpec> = mix[..f.len()].iter().map(|k| spec(k)).collect();
                let games = if f.len() == 2 { 3 } else { 4 };
                for i in 0..games {
                    play(&db, f, &bots, 1000 * fi as u64 + 100 * mi as u64 + i);
                }
            }
        }
        // the formats' decisions (same card set, same ids): pairs play's decline to start
        // (TF 169.2.10), team priority; diplomacy's pact-honouring bots
        for (fmt, f) in [("pairs", vec![0u8, 1, 2, 3]), ("diplomacy", vec![2, 0, 3])] {
            let fdb = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[("rules.format".into(), ParamValue::Str(fmt.into()))]).unwrap();
            for (mi, mix) in mixes.iter().enumerate() {
                let bots: Vec<BotSpec> = mix[..f.len()].iter().map(|k| spec(k)).collect();
                for i in 0..3 {
                    play(&fdb, &f, &bots, 90_000 + 100 * mi as u64 + i);
                }
            }
        }
    });
    report(&ctx);
    eprintln!("action space {size}; {} decisions, {} options, {} distinct ids; {:?}; {:?}", ctx.decisions, ctx.options, ctx.seen.len(), ctx.kinds, ctx.act_kinds);
    // every decision kind and almost every option kind met (the test reaches them all)
    for k in observe::KINDS {
        assert!(ctx.kinds.get(kind_name(k)).copied().unwrap_or(0) > 0, "no {k:?} decision met: {:?}", ctx.kinds);
    }
    for k in [
        "keep",
        "mulligan",
        "end_phase",
        "campaign",
        "pass",
        "done",
        "no_target",
        "player",
        "expose",
        "amount",
        "play_base",
        "play",
        "swap",
        "recruit",
        "activate",
        "attack",
        "block",
        "card_hand",
        "card_play",
    ] {
        assert!(ctx.act_kinds.get(k).copied().unwrap_or(0) > 0, "no {k} option met: {:?}", ctx.act_kinds);
    }
    // (a target choice among two or more Actions on the chain is too rare to meet here:
    // `actions_on_the_chain_get_distinct_ids` builds one)
    assert!(ctx.decisions > 20_000, "only {} decisions", ctx.decisions);
}

/// The same in mirror games (allowed by a rule parameter): up to four copies of a deck, so
/// the widths of the card slots grow and copies of one definition meet in every zone.
#[test]
fn ids_are_unique_in_mirror_games() {
    let db = mirror_db();
    let space = ActionSpace::new(&db);
    assert!(space.size() > ActionSpace::new(&self::db()).size());
    let ((), ctx) = with_ctx(space, false, || {
        for (fi, f) in [vec![0u8, 0], vec![2, 2, 2], vec![3, 3, 3, 3], vec![1, 1, 0, 0]].iter().enumerate() {
            for (mi, k) in ["random", "heuristic"].iter().enumerate() {
                let bots = vec![spec(k); f.len()];
                for i in 0..6 {
                    play(&db, f, &bots, 77 + 1000 * fi as u64 + 100 * mi as u64 + i);
                }
            }
        }
    });
    report(&ctx);
    assert!(ctx.decisions > 5_000, "only {} decisions", ctx.decisions);
}

/// (c): at every decision of many games the observing seat's tensor, `Observation` and option
/// ids are the same after `determinize` re-deals everything it cannot see, while the re-dealt hands
/// of other seats did change (and their owners' tensors with them: the tensor does show a
/// hand to its owner, so the check could fail).
#[test]
fn observations_do_not_change_when_hidden_cards_are_redealt() {
    let db = db();
    let space = ActionSpace::new(&db);
    let ((), ctx) = with_ctx(space, true, || {
        for (fi, f) in [vec![0u8, 2], vec![1, 3], vec![2, 1, 0], vec![3, 0, 1, 2]].iter().enumerate() {
            for (mi, k) in ["random", "heuristic"].iter().enumerate() {
                let bots = vec![spec(k); f.len()];
                for i in 0..3 {
                    play(&db, f, &bots, 5 + 1000 * fi as u64 + 100 * mi as u64 + i);
                }
            }
        }
    });
    report(&ctx);
    assert!(ctx.observed > 3_000, "only {} observations checked", ctx.observed);
    assert!(ctx.hidden_changed * 2 > ctx.observed, "hidden hands changed only {} times of {}", ctx.hidden_changed, ctx.observed);
    assert_eq!(ctx.owner_tensor_changed, ctx.hidden_changed, "an owner's tensor missed a change of its hand");
}

/// The tensor's sections add up to `size`, which depends only on the card set; every id has
/// a description; the parts of the space cover it.
#[test]
fn sizes_and_layouts_agree() {
    for db in [db(), mirror_db()] {
        let layout = observe::layout(&db);
        assert_eq!(layout.iter().map(|x| x.1).sum::<usize>(), observe::size(&db));
        let space = ActionSpace::new(&db);
        let parts = space.parts();
        assert_eq!(parts.iter().map(|p| p.2 as usize).sum::<usize>(), space.size());
        let mut next = 0;
        for p in &parts {
            assert_eq!(p.1, next, "parts in id order");
            next += p.2;
        }
        for id in 0..space.size() as u32 {
            assert!(!space.describe(id).is_empty());
            assert!(space.meaning(id).is_some());
        }
        assert!(space.meaning(space.size() as u32).is_none());
        // the widths docs/step_api.md gives: Attack 4F, Block F², CardPlay 4P, CardChain 4C
        let part = |k: ActKind| parts.iter().find(|p| p.0 == k).map_or(0, |p| p.2);
        let f = part(ActKind::Attack) / 4;
        assert_eq!(part(ActKind::Attack), 4 * f);
        assert_eq!(part(ActKind::Block), f * f);
        let figures: u32 = (0..db.cards.len() as u16)
            .filter(|&d| db.def(d).ctype.is_figure())
            .map(|d| {
                let decks: Vec<u32> = db.decks.iter().map(|k| k.iter().filter(|&&x| x == d).count() as u32).collect();
                let own = if db.rules.allow_mirror { 4 * decks.iter().max().unwrap() } else { decks.iter().sum() };
                own + db.newsfeed.iter().filter(|&&x| x == d).count() as u32 + db.tokens.iter().filter(|t| t.0 == d).map(|t| t.1 as u32).sum::<u32>()
            })
            .sum();
        assert_eq!(f, figures, "F = the most Figures one seat can control");
        assert_eq!(part(ActKind::CardPlay) % 4, 0);
        assert_eq!(part(ActKind::CardChain) % 4, 0);
        assert_eq!((part(ActKind::Player), part(ActKind::Expose), part(ActKind::Amount)), (4, 4, 256));
        assert_eq!(observe::size(&db), 29 * db.cards.len() + 138, "137 + the decision_kind one-hot of DeclineStart");
        assert_eq!(space.describe(space.size() as u32), format!("unknown id {}", space.size()));
    }
    let db = db();
    let space = ActionSpace::new(&db);
    eprintln!("action space {}: {:?}; observation {}", space.size(), space.parts(), observe::size(&db));
    let m = ActionSpace::new(&mirror_db());
    eprintln!("mirror: action space {}: {:?}", m.size(), m.parts());
    // the 2-, 3- and 4-seat tensors of one card set have one length
    let mut buf = vec![0f32; observe::size(&db)];
    for f in [&["ner", "tisza"][..], &["ner", "tisza", "radikalisok"], &["ner", "tisza", "radikalisok", "osszefogas"]] {
        let g = scenario::game(&db, f);
        observe::tensor(&g, 0, &mut buf);
        // block of seat +k is present iff the game has that seat
        let layout = observe::layout(&db);
        let mut at = 0;
        for (name, len) in &layout {
            if let Some(k) = name.strip_prefix("seat").and_then(|s| s.strip_suffix(".scalars")) {
                let k: usize = k.parse().unwrap();
                assert_eq!(buf[at], (k < f.len()) as i32 as f32, "{name} present");
            }
            at += len;
        }
    }
}

/// Two copies of one Figure attacking, two copies in play under different seats, blocks of
/// either attacker by either blocker: every id differs, decodes back, and names the copy.
#[test]
fn copies_of_one_definition_get_distinct_ids() {
    let db = mirror_db();
    let space = ActionSpace::new(&db);
    let mut g = scenario::game(&db, &["ner", "ner"]);
    let a1 = g.put_in_play(0, "ner_bunbak");
    let a2 = g.put_in_play(0, "ner_bunbak");
    let b1 = g.put_in_play(1, "ner_bunbak");
    let b2 = g.put_in_play(1, "ner_bunbak");
    {
        let cp = &mut g.state_mut().campaign;
        cp.active = true;
        cp.attackers = vec![(a1, 1), (a2, 1)];
    }
    let attacker_opts = [Opt::Attack(a1, 1), Opt::Attack(a2, 1)];
    let block_opts = [Opt::Block(b1, a1), Opt::Block(b1, a2), Opt::Block(b2, a1), Opt::Block(b2, a2), Opt::Done];
    let card_opts = [Opt::Card(a1), Opt::Card(a2), Opt::Card(b1), Opt::Card(b2), Opt::NoTarget];
    for (seat, opts) in [(0, &attacker_opts[..]), (1, &block_opts[..]), (0, &card_opts[..]), (1, &card_opts[..])] {
        let ids: Vec<u32> = opts.iter().map(|&o| space.id(&g, seat, o)).collect();
        for (i, &id) in ids.iter().enumerate() {
            assert!(!ids[..i].contains(&id), "{:?}: id {id} twice", opts);
            assert_eq!(space.decode(&g, seat, id, opts), Some(i));
        }
    }
    let m = |seat, o| space.meaning(space.id(&g, seat, o)).unwrap();
    let bunbak = db.index_of("ner_bunbak");
    assert_eq!((m(0, Opt::Attack(a2, 1)).copy, m(0, Opt::Attack(a2, 1)).seat, m(0, Opt::Attack(a2, 1)).def), (1, 1, bunbak));
    assert_eq!((m(1, Opt::Block(b2, a2)).copy, m(1, Opt::Block(b2, a2)).index), (1, 1));
    // the same card seen from each seat: own (seat 0) and the next seat's (+1)
    assert_eq!((m(0, Opt::Card(b1)).seat, m(1, Opt::Card(b1)).seat), (1, 0));
    assert_eq!(space.id(&g, 0, Opt::Card(a1)), space.id(&g, 1, Opt::Card(b1)));
    assert_eq!(space.label_in(&g, 1, Some(DecisionKind::Blocks), Opt::Block(b2, a2)), "block Bűnbak #2 with Bűnbak #2");
    assert_eq!(space.label_in(&g, 0, Some(DecisionKind::Target), Opt::Card(b1)), "target Bűnbak (P1's, in play)");
    assert_eq!(space.label(&g, 0, Opt::Attack(a1, 1)), "attack P1 with Bűnbak");
    assert_eq!(space.describe(space.id(&g, 0, Opt::Attack(a2, 1))), "attack seat +1 with Bűnbak #2");
}

/// An id means the same in games whose decks (so card instance numbers) differ: the same
/// card in play under the next seat, the same Exposé of the next seat, the same hand card.
#[test]
fn ids_do_not_depend_on_instance_numbers_or_seat_numbers() {
    let db = db();
    let space = ActionSpace::new(&db);
    let mut g2 = scenario::game(&db, &["ner", "osszefogas"]);
    let mut g4 = scenario::game(&db, &["tisza", "radikalisok", "ner", "osszefogas"]);
    let c2 = g2.put_in_play(0, "ner_orban_viktor");
    let c4 = g4.put_in_play(2, "ner_orban_viktor");
    assert_ne!(c2, c4, "the instance numbers differ");
    // seat 1 of g2 and seat 1 of g4 both see it controlled by seat +1 (g2: 0 after 1; g4: 2 after 1)
    assert_eq!(space.id(&g2, 1, Opt::Card(c2)), space.id(&g4, 1, Opt::Card(c4)));
    assert_eq!(space.id(&g2, 1, Opt::Expose(0)), space.id(&g4, 1, Opt::Expose(2)));
    assert_eq!(space.id(&g2, 1, Opt::Player(0)), space.id(&g4, 3, Opt::Player(0)));
    let h2 = g2.put_in_hand(1, "osz_szakszervezeti_vezeto");
    let h4 = g4.put_in_hand(3, "osz_szakszervezeti_vezeto");
    assert_ne!(h2, h4);
    assert_eq!(space.id(&g2, 1, Opt::Play(h2)), space.id(&g4, 3, Opt::Play(h4)));
    assert_eq!(space.id(&g2, 1, Opt::Card(h2)), space.id(&g4, 3, Opt::Card(h4)));
    assert_eq!(space.describe(space.id(&g2, 1, Opt::Card(c2))), "card Orbán Viktor (seat +1 in play)");
    // an option no decision offers (another seat's hand card) has no id
    assert_eq!(space.id(&g2, 0, Opt::Card(h2)), ActionSpace::INVALID);
    assert_eq!(space.decode(&g2, 0, ActionSpace::INVALID, &[Opt::Card(h2)]), None);
}

/// Actions on the chain (the targets of a Neutralize): two copies under one seat and one
/// under another get three ids, by controller and copy rank on the chain.
#[test]
fn actions_on_the_chain_get_distinct_ids() {
    use ketharmad::engine::state::{ChainItem, Tgt};
    let db = mirror_db();
    let space = ActionSpace::new(&db);
    let mut g = scenario::game(&db, &["osszefogas", "osszefogas", "ner"]);
    let push = |g: &mut Game, seat: usize| {
        let c = g.find_free(seat, "osz_kozerdeku_adatigenyles");
        let st = g.state_mut();
        st.inst[c as usize].zone = Zone::Chain;
        st.inst[c as usize].controller = seat as i8;
        st.chain.push(ChainItem { card: c, controller: seat as u8, targets: [Tgt::None; 4] });
        c
    };
    let x1 = push(&mut g, 0);
    let y1 = push(&mut g, 1);
    let x2 = push(&mut g, 0);
    let opts = [Opt::Card(x1), Opt::Card(y1), Opt::Card(x2)];
    for seat in 0..3 {
        let ids: Vec<u32> = opts.iter().map(|&o| space.id(&g, seat, o)).collect();
        for (i, &id) in ids.iter().enumerate() {
            assert!(!ids[..i].contains(&id), "seat {seat}: id {id} twice");
            assert_eq!(space.decode(&g, seat, id, &opts), Some(i));
            assert_eq!(space.meaning(id).unwrap(), expected(&g, seat, opts[i]));
        }
    }
    let m = |seat, c| space.meaning(space.id(&g, seat, Opt::Card(c))).unwrap();
    assert_eq!((m(0, x1).kind, m(0, x1).copy, m(0, x1).seat), (ActKind::CardChain, 0, 0));
    assert_eq!((m(0, x2).copy, m(0, x2).seat), (1, 0));
    assert_eq!((m(0, y1).copy, m(0, y1).seat), (0, 1));
    assert_eq!((m(2, y1).copy, m(2, y1).seat), (0, 2));
    assert_eq!(space.label_in(&g, 2, Some(DecisionKind::Target), Opt::Card(x2)), "target Közérdekű adatigénylés #2 (P0's, on the chain)");
}

/// The tensor puts each value where `layout` (and docs/step_api.md) says, seen from either
/// seat of a hand-built position, and `Observation` holds the same facts by absolute seat.
#[test]
fn tensor_sections_hold_what_the_layout_names() {
    let db = db();
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let bunbak = db.index_of("ner_bunbak").unwrap() as usize;
    let sziget = db.index_of("tis_tisza_sziget").unwrap() as usize;
    g.put_in_hand(0, "ner_bunbak");
    g.put_in_hand(0, "ner_bunbak");
    let s1 = g.put_in_play(1, "tis_tisza_sziget");
    let s2 = g.put_in_play(1, "tis_tisza_sziget");
    {
        let st = g.state_mut();
        st.inst[s1 as usize].exhausted = true;
        st.inst[s1 as usize].damage = 1;
        st.inst[s2 as usize].counters = 2;
        st.players[1].scandal = 3;
        st.active = 1;
    }
    let layout = observe::layout(&db);
    let at = |name: &str| -> usize {
        let mut o = 0;
        for (n, len) in &layout {
            if n == name {
                return o;
            }
            o += len;
        }
        panic!("no section {name}")
    };
    let scalar = |name: &str| observe::SEAT_SCALARS.iter().position(|&x| x == name).unwrap();
    let mut t0 = vec![0f32; observe::size(&db)];
    let mut t1 = vec![0f32; observe::size(&db)];
    observe::tensor_at(&g, 0, Some((1, DecisionKind::Blocks)), &mut t0);
    observe::tensor_at(&g, 1, Some((1, DecisionKind::Blocks)), &mut t1);
    // seat 0 sees its two Bűnbaks; seat 1 sees only that seat +1 holds two cards
    assert_eq!(t0[at("hand") + bunbak], 2.0);
    assert_eq!(t1[at("hand") + bunbak], 0.0);
    assert_eq!(t1[at("seat1.scalars") + scalar("hand_size")], 2.0);
    // seat 1's board: seat +1 for seat 0, seat +0 for itself
    for (t, b) in [(&t0, "seat1"), (&t1, "seat0")] {
        assert_eq!(t[at(&format!("{b}.in_play")) + sziget], 2.0);
        assert_eq!(t[at(&format!("{b}.exhausted")) + sziget], 1.0);
        assert_eq!(t[at(&format!("{b}.damage")) + sziget], 1.0);
        assert_eq!(t[at(&format!("{b}.counters")) + sziget], 2.0);
        assert_eq!(t[at(&format!("{b}.scalars")) + scalar("scandal")], 3.0);
        assert_eq!(t[at(&format!("{b}.scalars")) + scalar("figures")], 2.0);
        assert_eq!(t[at(&format!("{b}.scalars")) + scalar("ready_figures")], 1.0);
        assert_eq!(t[at(&format!("{b}.scalars")) + scalar("faction_tisza")], 1.0);
    }
    // the active and deciding seat is seat 1: +1 for seat 0, +0 for seat 1; the kind one-hot
    assert_eq!((t0[at("active_seat") + 1], t1[at("active_seat")]), (1.0, 1.0));
    assert_eq!((t0[at("decision_seat") + 1], t1[at("decision_seat")]), (1.0, 1.0));
    assert_eq!(t0[at("decision_kind") + observe::kind_index(DecisionKind::Blocks)], 1.0);
    assert_eq!(t0[at("decision_kind")..at("decision_kind") + observe::KINDS.len()].iter().sum::<f32>(), 1.0);
    // the missing seats of a 2-seat game are zero
    assert!(t0[at("seat2.scalars")..at("newsfeed_row")].iter().all(|&x| x == 0.0));
    let o = observe::observation_at(&g, 0, Some((1, DecisionKind::Blocks)));
    assert_eq!(o.hand, vec!["ner_bunbak".to_string(); 2]);
    assert_eq!(o.decision, Some((1, "blocks")));
    let p1 = &o.players[1];
    assert_eq!((p1.faction.as_str(), p1.scandal, p1.hand_size, p1.in_play.len()), ("tisza", 3, 0, 2));
    assert_eq!((p1.in_play[0].card.as_str(), p1.in_play[0].exhausted, p1.in_play[0].damage), ("tis_tisza_sziget", true, 1));
    assert_eq!(p1.in_play[1].counters, 2);
    assert!(p1.in_play[0].influence.is_some());
    let o1 = observe::observation_at(&g, 1, None);
    assert!(o1.hand.is_empty());
    assert_eq!(o1.players[0].hand_size, 2);
}
