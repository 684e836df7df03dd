//! Formats as data (issue 13 item 2; docs/formats.md): the shipped formats file, user formats
//! in a card data file, `format.NAME.KEY` parameters, and the errors for bad format data.

use ketharmad::batch::{play_one_in, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::formats::{check_built, Enemies, Pools, Scoring};
use ketharmad::cards::{build_db, load_raw, registry, CardDb, ParamValue};
use ketharmad::engine::agent::Scripted;
use ketharmad::engine::{Game, GameConfig, Seating, Seats};

fn db_with(text: &str, o: &[(&str, ParamValue)]) -> Result<CardDb, String> {
    let raw = load_raw(text)?;
    let o: Vec<(String, ParamValue)> = o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    build_db(&raw, &o)
}

fn db(o: &[(&str, ParamValue)]) -> CardDb {
    db_with(ketharmad::DEFAULT_CARD_DATA, o).unwrap()
}

fn fmt(name: &str) -> (&'static str, ParamValue) {
    ("rules.format", ParamValue::Str(name.into()))
}

/// Starting Support of each seat of game 0 with fixed start seat 0.
fn start_support(db: &CardDb, factions: &[u8]) -> Vec<i32> {
    let spec = BatchSpec {
        bots: factions.iter().map(|_| BotSpec::random()).collect(),
        factions: factions.to_vec(),
        games: 1,
        seed: 3,
        threads: Some(1),
        start_player: Some(0),
        ..Default::default()
    };
    spec.validate(db).unwrap();
    let cfg = GameConfig { factions: factions.to_vec(), seed: 3, start_player: Some(0), ..Default::default() };
    let mut g = Game::new(db, &cfg, factions.iter().map(|_| Scripted::default()).collect::<Vec<_>>());
    g.setup(Some(0));
    (0..factions.len()).map(|p| g.state().support_of(p)).collect()
}

#[test]
fn shipped_formats_and_their_parameters() {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let names: Vec<&str> = raw.formats.iter().map(|f| f.name.as_str()).collect();
    for n in ["ffa", "quick", "coalition", "pairs", "circle", "gods", "diplomacy"] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    let reg = registry(&raw);
    let p = reg.iter().find(|p| p.name == "format.coalition.support").unwrap();
    assert_eq!((p.default, p.min, p.max), (30, 0, 1000));
    let p = reg.iter().find(|p| p.name == "rules.format").unwrap();
    assert_eq!(p.default_str, "ffa");
    assert!(p.choices.iter().any(|c| c == "gods"));
    // bases: pairs starts from coalition and changes its numbers (V2)
    let pairs = &raw.formats.iter().find(|f| f.name == "pairs").unwrap().spec;
    assert_eq!((pairs.support, pairs.pools, pairs.partner_blocking), (40, Pools::Team, true));
    let gods = &raw.formats.iter().find(|f| f.name == "gods").unwrap().spec;
    assert_eq!(gods.graph.len(), 9);
    assert!(gods.graph.iter().all(|l| l.len() == 3));
}

// R16.1 / E79-E80: the Quick game is a format: 15 each; the two-seat second player still gets +5.
#[test]
fn r16_1_quick_format() {
    let q = db(&[fmt("quick")]);
    assert_eq!(q.rules.format.name, "quick");
    assert_eq!(start_support(&q, &[0, 1]), vec![15, 20], "E79");
    assert_eq!(start_support(&q, &[0, 1, 2]), vec![15, 15, 15], "E80");
    // format.quick.support is a parameter like any rule number
    let q12 = db(&[fmt("quick"), ("format.quick.support", ParamValue::Int(12))]);
    assert_eq!(start_support(&q12, &[0, 1, 3]), vec![12, 12, 12]);
    // the free-for-all is unchanged: 20 / 25 (R1.1, R3.8)
    assert_eq!(start_support(&db(&[]), &[0, 1]), vec![20, 25]);
    // changing another format's value does not touch the game's format
    assert_eq!(start_support(&db(&[("format.quick.support", ParamValue::Int(12))]), &[0, 1]), vec![20, 25]);
}

// E82/E88 through format data: the team pool starts at format.coalition.support.
#[test]
fn coalition_support_is_a_format_parameter() {
    let c = db(&[fmt("coalition"), ("format.coalition.support", ParamValue::Int(44))]);
    let s = start_support(&c, &[0, 1, 2, 3]);
    assert_eq!(s, vec![44, 44, 44, 44], "both pools at 44, partners read the same pool");
}

// A user format in the card data file, recombining shipped mechanisms (no Rust change).
#[test]
fn a_user_format_from_card_data() {
    let text = format!(
        "{}\n[formats.trio]\nbase = \"ffa\"\ndescription = \"three teams of one, 12 Support\"\nseats_min = 3\nseats_max = 3\nsupport = 12\n\n[formats.duo]\nbase = \"coalition\"\nsupport = 26\npartner_blocking = false\n",
        ketharmad::DEFAULT_CARD_DATA
    );
    let d = db_with(&text, &[fmt("trio")]).unwrap();
    assert_eq!(d.rules.format.name, "trio");
    assert_eq!(start_support(&d, &[0, 1, 2]), vec![12, 12, 12]);
    let spec = BatchSpec { bots: vec![BotSpec::random(); 2], factions: vec![0, 1], games: 1, ..Default::default() };
    let e = spec.validate(&d).unwrap_err();
    assert!(e.contains("trio") && e.contains("exactly 3"), "{e}");
    let d = db_with(&text, &[fmt("duo"), ("format.duo.support", ParamValue::Int(27))]).unwrap();
    assert!(!d.rules.format.partner_blocking);
    assert_eq!(start_support(&d, &[0, 1, 2, 3]), vec![27; 4]);
    // and it plays: a team wins
    let spec = BatchSpec { bots: vec![BotSpec::random(); 4], factions: vec![0, 1, 2, 3], games: 20, seed: 1, threads: Some(1), ..Default::default() };
    let mut team_wins = 0;
    for i in 0..20 {
        let (r, _) = play_one_in(&mut None, &d, &spec, i, false, true, false);
        assert!(r.invariant_error.is_none(), "{:?}", r.invariant_error);
        if r.end_reason < 2 {
            let w: Vec<usize> = (0..4).filter(|&p| r.players[p].won).collect();
            assert_eq!(w.len(), 2);
            assert_eq!(w[0] + 2, w[1], "partners opposite win together (E87)");
            team_wins += 1;
        }
    }
    assert!(team_wins > 10);
}

#[test]
fn bad_format_data_is_an_error_naming_it() {
    let bad = |extra: &str| load_raw(&format!("{}\n{extra}", ketharmad::DEFAULT_CARD_DATA)).unwrap_err();
    let e = bad("[formats.x]\nsuport = 3\n");
    assert!(e.contains("format 'x'") && e.contains("unknown key 'suport'"), "{e}");
    let e = bad("[formats.x]\nbase = \"nope\"\n");
    assert!(e.contains("unknown base format 'nope'"), "{e}");
    let e = bad("[formats.x]\nenemies = \"friends\"\n");
    assert!(e.contains("'friends' is not one of all, neighbours, graph"), "{e}");
    let e = bad("[formats.x]\nseats_min = 4\nseats_max = 3\n");
    assert!(e.contains("seats_min 4 is more than seats_max 3"), "{e}");
    let e = bad("[formats.x]\nteams = [[0, 1], [1, 2]]\n");
    assert!(e.contains("seat 1 is in two teams"), "{e}");
    let e = bad("[formats.x]\nscoring = \"team\"\n");
    assert!(e.contains("needs teams"), "{e}");
    let e = bad("[formats.x]\nsupport = -2\n");
    assert!(e.contains("out of range"), "{e}");
    let e = db_with(ketharmad::DEFAULT_CARD_DATA, &[("format.coalition.suport", ParamValue::Int(3))]).unwrap_err();
    assert!(e.contains("unknown parameter 'format.coalition.suport'"), "{e}");
    let e = db_with(ketharmad::DEFAULT_CARD_DATA, &[("format.circle.attack", ParamValue::Str("right".into()))]).unwrap_err();
    assert!(e.contains("'right' is not one of enemies, left"), "{e}");
}

// The seating a format gives: teams, enemies (all, neighbours, a graph read both ways), pools.
#[test]
fn seatings_of_format_data() {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let f = |n: &str| raw.formats.iter().find(|f| f.name == n).unwrap().spec.clone();
    assert_eq!(Seating::of_format(&f("coalition"), 4).unwrap(), Seating::coalition());
    assert_eq!(Seating::of_format(&f("ffa"), 3).unwrap(), Seating::free_for_all(3));
    let circle = Seating::of_format(&f("circle"), 4).unwrap();
    assert_eq!(circle.enemies(0), Seats::one(1).with(3), "V3: the opposite seat is not an opponent");
    let mut gods = f("gods");
    let s = Seating::of_format(&gods, 9).unwrap();
    // V4 symmetric closure: every god has exactly four enemies
    assert!((0..9).all(|p| s.enemies(p).len() == 4), "{:?}", (0..9).map(|p| s.enemies(p).len()).collect::<Vec<_>>());
    assert!(s.enemies(6).contains(0), "Fairlight lists Leah, so Leah's enemies hold Fairlight");
    gods.graph_reading = ketharmad::cards::formats::GraphReading::Directed;
    let d = Seating::of_format(&gods, 9).unwrap();
    assert_eq!(d.enemies(6), Seats::one(5).with(1).with(4), "directed: Leah acts only against Rhatt, Sheran, Elenios");
    assert_eq!(gods.enemies, Enemies::Graph);
    // formats whose mechanisms are not played yet say so
    // every format is played (tests/pairs.rs, diplomacy.rs, circle.rs, gods.rs); team priority
    // without teams is refused
    for n in ["ffa", "quick", "coalition", "pairs", "diplomacy", "circle", "gods"] {
        check_built(&f(n)).unwrap();
    }
    assert_eq!(f("circle").scoring, Scoring::VictoryPoints);
}
