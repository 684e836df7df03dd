//! Decks beyond the four factions (rules.md R16.4, E90; docs/decks.md): Mixed decks dealt
//! with the E90 composition and reproducibly, custom lists played card for card, and every
//! illegal list refused with an error naming the problem.

use ketharmad::batch::{play_one, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::decks::{check_disjoint, parse_decks};
use ketharmad::cards::{build_db, load_raw, CardDb, CardType, Deck, Faction, ParamValue};
use ketharmad::engine::{Game, GameConfig, NoAgent};
use ketharmad::rng::game_seed;

fn db_with(over: &[(&str, ParamValue)]) -> CardDb {
    let o: Vec<(String, ParamValue)> = over.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &o).unwrap()
}

fn db() -> CardDb {
    db_with(&[])
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The card definitions each seat holds in a fresh game (before setup: all in the deck).
fn dealt(db: &CardDb, decks: &[&str], seed: u64) -> Vec<Vec<u16>> {
    let (factions, decks) = parse_decks(db, &strs(decks)).unwrap();
    let n = factions.len();
    let cfg = GameConfig { factions, seed, start_player: None, decks };
    let g = Game::new(db, &cfg, vec![NoAgent; n]);
    g.state()
        .players
        .iter()
        .map(|p| {
            let mut v: Vec<u16> = p.deck.iter().map(|&c| g.state().inst[c as usize].def).collect();
            v.sort_unstable();
            v
        })
        .collect()
}

/// (non-Base, Bases) of faction `f` in `cards`.
fn split(db: &CardDb, cards: &[u16], f: Faction) -> (usize, usize) {
    let of: Vec<&u16> = cards.iter().filter(|&&c| db.def(c).faction == f).collect();
    let bases = of.iter().filter(|&&&c| db.def(c).ctype == CardType::Base).count();
    (of.len() - bases, bases)
}

/// A legal one-faction list: the faction's own deck, as "name[id*n,...]".
fn own_list(db: &CardDb, name: &str, f: usize) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for &d in &db.decks[f] {
        let id = &db.def(d).id;
        match counts.iter_mut().find(|(i, _)| i == id) {
            Some(e) => e.1 += 1,
            None => counts.push((id.clone(), 1)),
        }
    }
    format!("{name}[{}]", counts.iter().map(|(i, n)| format!("{i}*{n}")).collect::<Vec<_>>().join(","))
}

#[test]
fn e90_mixed_deck_has_9_plus_9_non_base_and_6_plus_6_bases_in_every_game() {
    let db = db();
    // how often each copy (position in its faction deck) is chosen, to see the pick is uniform
    let mut non_base_picks = 0usize;
    let mut seen_defs = std::collections::HashSet::new();
    let seeds = 400;
    for seed in 0..seeds {
        let gs = game_seed(17, seed);
        let seats = dealt(&db, &["ner+tisza", "osszefogas+radikalisok"], gs);
        for (deck, (a, b)) in seats.iter().zip([(Faction::Ner, Faction::Tisza), (Faction::Osszefogas, Faction::Radikalisok)]) {
            assert_eq!(deck.len(), 30, "seed {gs}");
            assert_eq!(split(&db, deck, a), (9, 6), "seed {gs}: {a:?}");
            assert_eq!(split(&db, deck, b), (9, 6), "seed {gs}: {b:?}");
            // no card in more copies than its faction deck holds (E90)
            for &c in deck {
                let k = deck.iter().filter(|&&x| x == c).count();
                assert!(k <= db.def(c).copies as usize, "seed {gs}: {} x{k}", db.def(c).id);
                seen_defs.insert(c);
            }
            non_base_picks += deck.iter().filter(|&&c| db.def(c).ctype != CardType::Base).count();
        }
    }
    assert_eq!(non_base_picks, seeds as usize * 2 * 18);
    // every card of the four factions turns up in some game (the pick is not a fixed subset)
    let all: std::collections::HashSet<u16> = db.decks.iter().flatten().copied().collect();
    assert_eq!(seen_defs, all);
}

#[test]
fn e90_mixed_pick_is_uniform_over_copies() {
    // each of NER's 18 non-Base copies is chosen with probability 9/18 and each of its 13
    // Base copies with 6/13: count a single-copy card of each kind over 4,000 games
    let db = db();
    let ner = &db.decks[0];
    let once = |base: bool| *ner.iter().find(|&&d| (db.def(d).ctype == CardType::Base) == base && ner.iter().filter(|&&x| x == d).count() == 1).unwrap();
    let (fig, _) = (once(false), ());
    let base_def = ner.iter().copied().find(|&d| db.def(d).ctype == CardType::Base).unwrap();
    let base_copies = ner.iter().filter(|&&x| x == base_def).count();
    let n = 4000;
    let (mut fig_hits, mut base_hits) = (0usize, 0usize);
    for seed in 0..n {
        let seats = dealt(&db, &["ner+tisza", "osszefogas"], game_seed(3, seed));
        fig_hits += seats[0].iter().filter(|&&c| c == fig).count();
        base_hits += seats[0].iter().filter(|&&c| c == base_def).count();
    }
    let p_fig = fig_hits as f64 / n as f64;
    assert!((p_fig - 0.5).abs() < 0.03, "a one-copy non-Base card is in {p_fig} of the decks, expected 0.5");
    let mean_base = base_hits as f64 / n as f64;
    let want = base_copies as f64 * 6.0 / 13.0;
    assert!((mean_base - want).abs() < 0.06, "mean copies of a Base {mean_base}, expected {want}");
}

#[test]
fn mixed_deck_is_reproducible_and_per_game() {
    let db = db();
    let a = dealt(&db, &["tisza+ner", "radikalisok"], game_seed(5, 7));
    let b = dealt(&db, &["tisza+ner", "radikalisok"], game_seed(5, 7));
    assert_eq!(a, b, "same seed, same deck");
    let c = dealt(&db, &["tisza+ner", "radikalisok"], game_seed(5, 8));
    assert_ne!(a[0], c[0], "another game, another choice");
    // a pure faction deck beside it is the whole faction deck
    let mut own = db.decks[3].clone();
    own.sort_unstable();
    assert_eq!(a[1], own);
    // the choice has its own stream: the other seat's deck order and the games of plain
    // decks do not move (same shuffle stream)
    let plain = BatchSpec { factions: vec![2, 3], bots: vec![BotSpec::random(); 2], games: 1, seed: 9, threads: Some(1), start_player: None, ..Default::default() };
    let (r1, _) = play_one(&db, &plain, 0, false, true);
    let (r2, _) = play_one(&db, &plain, 0, false, true);
    assert_eq!((r1.winner, r1.turns, r1.actions), (r2.winner, r2.turns, r2.actions));
}

#[test]
fn mixed_numbers_are_parameters() {
    use ParamValue::Int;
    let db = db_with(&[("rules.mixed_deck_non_base", Int(5)), ("rules.mixed_deck_bases", Int(10))]);
    let seats = dealt(&db, &["ner+osszefogas", "tisza"], 11);
    assert_eq!(seats[0].len(), 30);
    assert_eq!(split(&db, &seats[0], Faction::Ner), (5, 10));
    assert_eq!(split(&db, &seats[0], Faction::Osszefogas), (5, 10));
    let e = Deck::parse(&db_with(&[("rules.mixed_deck_bases", Int(13)), ("rules.mixed_deck_non_base", Int(18))]), "ner+tisza").map(|_| ());
    assert!(e.is_ok(), "13 Bases and 18 non-Base cards are a whole faction deck: {e:?}");
}

#[test]
fn custom_list_plays_exactly_its_cards() {
    let db = db();
    let tisza = own_list(&db, "my_tisza", 2);
    let mut want = db.decks[2].clone();
    want.sort_unstable();
    let seats = dealt(&db, &[&tisza, "ner"], 4);
    assert_eq!(seats[0], want);
    // a two-faction list with the Mixed composition: the chosen cards, every game
    let pick = dealt(&db, &["ner+tisza", "osszefogas"], 99)[0].clone();
    let mut ids: Vec<(String, usize)> = Vec::new();
    for &d in &pick {
        let id = db.def(d).id.clone();
        match ids.iter_mut().find(|(i, _)| *i == id) {
            Some(e) => e.1 += 1,
            None => ids.push((id, 1)),
        }
    }
    let list = format!("fixed_mix[{}]", ids.iter().map(|(i, n)| format!("{i}*{n}")).collect::<Vec<_>>().join(","));
    for seed in [1, 2, 3] {
        assert_eq!(dealt(&db, &[&list, "osszefogas"], seed)[0], pick);
    }
    let d = Deck::parse(&db, &list).unwrap();
    assert_eq!(d.label(), "fixed_mix");
    assert_eq!(d.faction(), 0, "ties go to the first faction in FACTIONS order");
    assert_eq!(d.factions(), 0b0101);
}

fn err(db: &CardDb, deck: &str) -> String {
    Deck::parse(db, deck).map(|_| ()).expect_err(deck)
}

#[test]
fn illegal_lists_are_refused_naming_the_problem() {
    let db = db();
    let own = own_list(&db, "x", 0);
    let first = db.def(db.decks[0][0]).id.clone();
    let e = err(&db, &own.replace(&format!("{first}*"), "no_such_card*"));
    assert!(e.contains("unknown card id 'no_such_card'"), "{e}");
    // size: one card fewer
    let short = own_list(&db, "x", 0).replacen(&format!("{first}*4"), &format!("{first}*3"), 1);
    assert_ne!(short, own, "the first NER card has 4 copies");
    let e = err(&db, &short);
    assert!(e.contains("has 30 cards") && e.contains("31 (rules.deck_size"), "{e}");
    // copies beyond the card's
    let pf = db.decks[0].iter().copied().find(|&d| db.def(d).public_figure).unwrap();
    let pid = db.def(pf).id.clone();
    let e = err(&db, &format!("x[{pid}*2]"));
    assert!(e.contains(&format!("2 copies of '{pid}', but the card allows 1")) && e.contains("rules.allow_extra_copies"), "{e}");
    // ... lifted by the parameter (then the size is the next problem)
    let lifted = db_with(&[("rules.allow_extra_copies", ParamValue::Bool(true))]);
    let e = err(&lifted, &format!("x[{pid}*2]"));
    assert!(e.contains("has 2 cards"), "{e}");
    let fat = format!("x[{pid}*31]");
    assert!(Deck::parse(&lifted, &fat).is_ok());
    // Newsfeed, Event, token cards
    for (f, what) in [(Faction::Newsfeed, "a Newsfeed card"), (Faction::Event, "an Event card"), (Faction::Token, "a token card")] {
        let id = db.cards.iter().find(|c| c.faction == f).unwrap().id.clone();
        let e = err(&db, &format!("x[{id}*1]"));
        assert!(e.contains(&format!("'{id}' is {what}")), "{e}");
    }
    // empty, zero copies, twice, three factions, bad Mixed composition, bad names
    assert!(err(&db, "x[]").contains("the card list is empty"));
    assert!(err(&db, &format!("x[{first}*0]")).contains("has 0 copies"));
    assert!(err(&db, &format!("x[{first}*1,{first}*1]")).contains("listed twice"));
    let three: Vec<String> = (0..3).map(|f| format!("{}*1", db.def(db.decks[f][0]).id)).collect();
    assert!(err(&db, &format!("x[{}]", three.join(","))).contains("takes cards from 3 factions"));
    let two = format!("x[{}]", three[..2].join(","));
    let e = err(&db, &two);
    assert!(e.contains("Mixed deck (R16.4, E90) of 9 non-Base cards and 6 Bases") && e.contains("0 non-Base and 1 Bases from ner"), "{e}");
    assert!(err(&db, "ner[x*1]").contains("is a faction's name"));
    assert!(err(&db, "a b[x*1]").contains("not allowed"));
    assert!(err(&db, "ner+ner").contains("twice"));
    assert!(err(&db, "ner+fidesz").contains("unknown faction 'fidesz'"));
    assert!(err(&db, "fidesz").contains("unknown deck 'fidesz'"));
}

#[test]
fn decks_sharing_a_faction_deck_need_allow_mirror() {
    let db = db();
    let (f, d) = parse_decks(&db, &strs(&["ner+tisza", "tisza"])).unwrap();
    let e = check_disjoint(&db, &f, &d).unwrap_err();
    assert!(e.contains("'ner+tisza' and 'tisza' both take cards from the tisza deck"), "{e}");
    let (f, d) = parse_decks(&db, &strs(&["ner+tisza", "osszefogas+radikalisok"])).unwrap();
    assert!(check_disjoint(&db, &f, &d).is_ok());
    let spec = BatchSpec { factions: f.clone(), decks: d.clone(), bots: vec![BotSpec::random(); 2], games: 1, seed: 1, threads: Some(1), start_player: None };
    assert!(spec.validate(&db).is_ok());
    let mirror = db_with(&[("rules.allow_mirror", ParamValue::Bool(true))]);
    let (f, d) = parse_decks(&mirror, &strs(&["ner+tisza", "ner", "tisza+ner"])).unwrap();
    assert!(check_disjoint(&mirror, &f, &d).is_ok());
    // plain decks keep the batch fast path: no deck list at all
    let (f, d) = parse_decks(&db, &strs(&["ner", "tisza"])).unwrap();
    assert_eq!((f, d.len()), (vec![0, 2], 0));
}

#[test]
fn mixed_and_custom_games_replay_identically() {
    let db = db();
    let tisza = own_list(&db, "my_tisza", 2);
    let (f, d) = parse_decks(&db, &strs(&["ner+osszefogas", &tisza])).unwrap();
    let spec = BatchSpec { factions: f, decks: d, bots: vec![BotSpec::parse("heuristic", vec![]).unwrap(); 2], games: 40, seed: 21, threads: Some(2), start_player: None };
    let c = ketharmad::batch::run_batch(&db, &spec).unwrap();
    for i in [0u64, 7, 39] {
        let (r, _) = play_one(&db, &spec, i, false, true);
        assert!(r.invariant_error.is_none(), "{:?}", r.invariant_error);
        assert_eq!(c.games.winner[i as usize], r.winner);
        assert_eq!(c.games.actions[i as usize], r.actions);
    }
    // the faction column: a Mixed deck's first faction, a list's main faction
    assert_eq!(&c.players.faction[..2], &[0, 2]);
}
