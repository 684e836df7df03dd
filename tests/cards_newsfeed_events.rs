//! Per-card scenario tests: the 12 Newsfeed cards (cards.md §7) and the 18 Events (cards.md §8),
//! plus the Event procedure (rules.md R12) and parameter overrides.

use ketharmad::engine::scenario;
use ketharmad::engine::{Cid, Game, Opt, Zone};

/// Make sure the Newsfeed card `id` lies face up in the row (at the right end if we had to
/// bring it in; the leftmost card goes back on top of the Newsfeed deck).
fn to_row(g: &mut Game, id: &str) -> Cid {
    let d = g.db().index_of(id).expect("card id");
    if let Some(&c) = g.state().news_row.iter().find(|&&c| g.state().inst[c as usize].def == d) {
        return c;
    }
    let i = g.state().news_deck.iter().position(|&c| g.state().inst[c as usize].def == d).expect("card in the Newsfeed deck");
    let c = g.state_mut().news_deck.remove(i);
    let out = g.state_mut().news_row.remove(0); // the leftmost goes back on top of the deck
    g.state_mut().inst[out as usize].zone = Zone::NewsDeck;
    g.state_mut().news_deck.push(out);
    g.state_mut().inst[c as usize].zone = Zone::NewsRow;
    g.state_mut().news_row.push(c);
    c
}

fn exhausted(g: &Game, cs: &[Cid]) -> usize {
    cs.iter().filter(|&&c| g.state().inst[c as usize].exhausted).count()
}

fn clear_script(g: &mut Game, seat: usize) {
    g.clear_script(seat);
}

fn ok(g: &Game) {
    if let Err(e) = g.invariants() {
        panic!("invariants: {e}");
    }
    for p in 0..g.state().n {
        assert_eq!(g.script_left(p), 0, "seat {p} has unused scripted answers");
    }
}

// =====================================================================================
// Newsfeed (cards.md §7, rules.md R11)
// =====================================================================================

// Telex (2M): "Each Exposé you perform (basic or a card's) takes up to 1 additional Scandal."
// Recruit (R11.2): pay the printed cost, enters play under the recruiter's control.
#[test]
fn nf_telex_adds_one_to_its_controllers_basic_expose_only() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let b = g.add_bases(0, 1, 3);
    let telex = to_row(&mut g, "nf_telex");
    assert!(g.can_recruit(0, telex));
    g.recruit(0, telex);
    assert_eq!(g.zone_of(telex), Zone::Play);
    assert_eq!(g.state().inst[telex as usize].controller, 0);
    assert!(!g.state().news_row.contains(&telex));
    assert_eq!(g.state().news_row.len(), 3, "R11.2: the row is refilled at once");
    assert_eq!(exhausted(&g, &b), 3, "2M paid with three Bases");
    assert_eq!(g.state().players[0].recruits, 1);
    g.add_bases(0, 1, 3);
    assert!(g.state().news_row.iter().all(|&c| !g.can_recruit(0, c)), "R7.3.1: one Recruit per turn");
    // basic Exposé: up to 2 + 1 = 3
    g.state_mut().players[1].scandal = 5;
    g.script(0, &[Opt::Amount(3)]);
    g.expose(0, 1, 2, true);
    assert_eq!(g.script_left(0), 0, "taking 3 was offered");
    assert_eq!(g.state().players[1].scandal, 2);
    assert_eq!(g.state().players[1].support, 17);
    // the opponent's Exposé is not boosted by seat 0's Telex
    g.state_mut().players[0].scandal = 4;
    g.expose(1, 0, 2, true);
    assert_eq!(g.state().players[0].scandal, 2, "opponent's basic Exposé takes only 2");
    assert_eq!(g.state().players[0].support, 18);
    ok(&g);
}

// Telex also boosts a card's Exposé (Oknyomozó újságíró: Exposé 1 → up to 2).
#[test]
fn nf_telex_also_boosts_a_cards_expose() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "nf_telex");
    let ok_ = g.put_in_play(0, "nf_oknyomozo_ujsagiro");
    g.state_mut().players[1].scandal = 5;
    g.activate(ok_, 0);
    assert_eq!(g.state().players[1].scandal, 3, "Exposé 1 + Telex 1");
    assert_eq!(g.state().players[1].support, 18);
    assert_eq!(g.state().last_reducer[1], 0);
    ok(&g);
}

// Parameter: nf_telex.expose_bonus = 2 → the basic Exposé takes up to 4.
#[test]
fn param_nf_telex_expose_bonus_two() {
    let db = scenario::db(&[("nf_telex.expose_bonus", 2)]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "nf_telex");
    g.state_mut().players[1].scandal = 6;
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 2);
    assert_eq!(g.state().players[1].support, 16);
    ok(&g);
}

// 444 (1M): "↷: target opponent gains 1 Scandal." An Institution is never Fresh: usable the turn
// it is recruited (R6.6.1).
#[test]
fn nf_444_usable_the_turn_it_is_recruited() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    let b = g.add_bases(0, 1, 2);
    let c = to_row(&mut g, "nf_444");
    g.recruit(0, c);
    assert_eq!(exhausted(&g, &b), 2);
    assert!(!g.state().inst[c as usize].fresh);
    assert!(g.can_activate(c, 0, false));
    g.script(0, &[Opt::Player(2)]);
    g.activate(c, 0);
    assert_eq!(g.state().players[2].scandal, 1);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[0].scandal, 0);
    assert!(g.state().inst[c as usize].exhausted);
    assert!(!g.can_activate(c, 0, false), "exhausted: once per turn");
    ok(&g);
}

// RTL Híradó (4M): "At the start of your turn, draw 1 card."
#[test]
fn nf_rtl_hirado_draws_at_start_of_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let b = g.add_bases(0, 1, 5);
    let c = to_row(&mut g, "nf_rtl_hirado");
    assert!(g.can_recruit(0, c));
    g.recruit(0, c);
    assert_eq!(exhausted(&g, &b), 5, "4M = five resources");
    assert_eq!(g.state().players[0].hand.len(), 0, "no draw on entering");
    g.state_mut().start_player = 1; // no Event in this turn
    let n = g.state().players[0].deck.len();
    let top2 = [g.state().players[0].deck[n - 1], g.state().players[0].deck[n - 2]];
    g.take_turn();
    // Wake: RTL draws the top card; Draw step: the next one
    assert_eq!(g.state().players[0].hand, top2.to_vec());
    assert_eq!(g.state().players[0].deck.len(), n - 2);
    ok(&g);
}

// HVG (1M): "When HVG enters play, draw 1 card." (R11.2.1: recruiting is entering play)
#[test]
fn nf_hvg_draws_when_recruited() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    g.add_bases(0, 1, 2);
    let top = *g.state().players[0].deck.last().unwrap();
    let c = to_row(&mut g, "nf_hvg");
    g.recruit(0, c);
    assert_eq!(g.state().players[0].hand, vec![top]);
    assert_eq!(g.institutions(0), 1);
    assert_eq!(g.zone_of(c), Zone::Play);
    ok(&g);
}

// Oknyomozó újságíró (1M, 1/2): "↷: Exposé 1." A recruited Figure is Fresh (R11.2, R6.6): no ↷
// in the turn it is recruited; next turn it exposes.
#[test]
fn nf_oknyomozo_ujsagiro_fresh_then_exposes_one() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, 1, 2);
    g.state_mut().start_player = 1;
    let c = to_row(&mut g, "nf_oknyomozo_ujsagiro");
    g.put_on_deck(0, "osz_kozos_lista"); // a known non-Reaction draw
    g.state_mut().players[1].scandal = 3;
    // the Action phase offers the Recruit; recruit, then check Fresh before the turn ends
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Recruit(c)));
    g.recruit(0, c);
    assert!(g.state().inst[c as usize].fresh, "R11.2: a recruited Figure is Fresh");
    assert!(!g.can_activate(c, 0, false), "Fresh: no ↷");
    // a whole turn passes (Close ends Fresh, R6.6.1)
    g.take_turn();
    assert!(!g.state().inst[c as usize].fresh);
    assert!(g.can_activate(c, 0, false));
    g.activate(c, 0);
    assert_eq!(g.state().players[1].scandal, 2, "Exposé 1 takes one");
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.state().last_reducer[1], 0);
    assert!(g.state().inst[c as usize].exhausted);
    ok(&g);
}

// Civil jogvédő (2, 1/3): "can block a Figure with Propaganda on its own." A recruited (Fresh)
// Figure may block (R6.6.1).
#[test]
fn nf_civil_jogvedo_blocks_publicista_alone() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let b = g.add_bases(0, 2, 2);
    let civ = to_row(&mut g, "nf_civil_jogvedo");
    g.recruit(0, civ);
    assert_eq!(exhausted(&g, &b), 2, "cost 2 (generic) paid with Street Bases");
    assert!(g.state().inst[civ as usize].fresh);
    let publ = g.put_in_play(1, "nf_publicista");
    g.state_mut().active = 1;
    // Publicista attacks alone (a single option, auto-declared)
    g.script(0, &[Opt::Block(civ, publ)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0, "the lone block was offered");
    assert_eq!(g.state().players[0].support, 20, "blocked");
    assert_eq!(g.state().inst[civ as usize].damage, 2);
    assert_eq!(g.state().inst[publ as usize].damage, 1);
    assert_eq!(g.zone_of(civ), Zone::Play);
    assert_eq!(g.zone_of(publ), Zone::Play);
    ok(&g);
}

// Publicista (2M, 2/2, Propaganda): a lone ordinary Figure can't block it (R9.3); two must.
#[test]
fn nf_publicista_needs_two_blockers() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    g.add_bases(0, 1, 3);
    let publ = to_row(&mut g, "nf_publicista");
    g.recruit(0, publ);
    assert!(g.state().inst[publ as usize].fresh);
    assert!(!g.can_attack(publ), "Fresh, no Momentum");
    // next turn (not Fresh): one defender Figure only → cannot block
    g.state_mut().inst[publ as usize].fresh = false;
    let s1 = g.put_in_play(1, "tis_tisza_sziget");
    // Publicista is the only attacker: declared automatically (a single option)
    g.script(1, &[Opt::Block(s1, publ)]); // must NOT be offered: the only option is Done (auto)
    g.campaign();
    assert_eq!(g.script_left(1), 1, "a lone block of a Propaganda Figure was not offered");
    assert_eq!(g.state().players[1].support, 18, "unblocked: 2 damage");
    assert_eq!(g.state().inst[s1 as usize].damage, 0);
    clear_script(&mut g, 1);
    ok(&g);
}

#[test]
fn nf_publicista_double_blocked_by_two() {
    let db = scenario::db(&[]);
    // two defender Figures: after the first blocker the second is forced (E46)
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    let publ = g.put_in_play(0, "nf_publicista");
    let s1 = g.put_in_play(1, "tis_tisza_sziget");
    let s2 = g.put_in_play(1, "tis_tisza_sziget");
    // the lone attacker is auto-declared (one option); then the damage split 1/1
    g.script(0, &[Opt::Card(s1), Opt::Card(s2)]);
    g.script(1, &[Opt::Block(s1, publ)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].support, 20);
    // 1+1 damage kills Publicista (2/2); its 2 damage split 1/1 kills both 1/1 blockers
    assert_eq!(g.zone_of(s1), Zone::Oblivion);
    assert_eq!(g.zone_of(s2), Zone::Oblivion);
    assert_eq!(g.zone_of(publ), Zone::NewsDeck, "R11.3: bottom of the Newsfeed deck");
    assert_eq!(g.state().news_deck[0], publ);
    assert!(!g.state().players[0].play.contains(&publ));
    ok(&g);
}

// Megafon-influenszer (1M, 2/1, Momentum): attacks the turn it is recruited.
#[test]
fn nf_megafon_influenszer_attacks_the_turn_it_is_recruited() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, 1, 2);
    let c = to_row(&mut g, "nf_megafon_influenszer");
    g.recruit(0, c);
    assert!(g.state().inst[c as usize].fresh);
    assert!(g.can_attack(c), "Momentum: not Fresh for attacking");
    assert!(g.can_start_campaign(0));
    g.campaign(); // its only attack option is taken automatically
    assert_eq!(g.state().players[1].support, 18);
    assert_eq!(g.state().last_reducer[1], 0);
    assert!(g.state().inst[c as usize].exhausted);
    ok(&g);
}

// A recruited Figure that leaves play goes to the bottom of the Newsfeed deck (R11.3, E62).
#[test]
fn nf_megafon_influenszer_dies_to_bottom_of_newsfeed_deck() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    g.add_bases(0, 1, 2);
    let c = to_row(&mut g, "nf_megafon_influenszer");
    g.recruit(0, c);
    let s = g.put_in_play(1, "tis_tisza_sziget");
    let before = g.state().news_deck.len();
    g.script(1, &[Opt::Block(s, c)]);
    g.campaign();
    assert_eq!(g.zone_of(c), Zone::NewsDeck);
    assert_eq!(g.state().news_deck[0], c, "bottom of the Newsfeed deck");
    assert_eq!(g.state().news_deck.len(), before + 1);
    assert!(g.state().players[0].oblivion.is_empty(), "not its recruiter's Oblivion");
    assert_eq!(g.state().inst[c as usize].controller, -1);
    assert_eq!(g.zone_of(s), Zone::Oblivion);
    assert_eq!(g.state().players[1].support, 20);
    ok(&g);
}

// R11.3 / R13.6: a Newsfeed Figure returned to hand goes to the bottom of the Newsfeed deck.
#[test]
fn nf_megafon_influenszer_returned_to_hand_goes_to_newsfeed_deck() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let meg = g.put_in_play(1, "nf_megafon_influenszer");
    let bi = g.put_in_hand(0, "osz_bizalmatlansagi_inditvany");
    g.add_bases(0, 1, 3);
    g.play_card(0, bi); // the only Figure: targeted automatically
    g.window(1);
    assert_eq!(g.zone_of(meg), Zone::NewsDeck);
    assert_eq!(g.state().news_deck[0], meg);
    assert!(g.state().players[1].hand.is_empty() && g.state().players[0].hand.is_empty());
    ok(&g);
}

// TV2 Tények (2M): "At the start of your turn, target opponent gains 1 Scandal."
#[test]
fn nf_tv2_tenyek_start_of_turn_target_opponent_gains_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    let b = g.add_bases(0, 1, 3);
    let c = to_row(&mut g, "nf_tv2_tenyek");
    g.recruit(0, c);
    assert_eq!(exhausted(&g, &b), 3);
    assert_eq!(g.state().players[1].scandal + g.state().players[2].scandal, 0, "nothing on entering");
    g.state_mut().start_player = 1;
    g.script(0, &[Opt::Player(2)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[2].scandal, 1);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[0].scandal, 0);
    ok(&g);
}

// Magyar Nemzet (1M): "At the start of your turn, remove 1 Scandal." Cut by Border Closure.
#[test]
fn nf_magyar_nemzet_removes_one_scandal_at_start_of_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "radikalisok"]);
    g.add_bases(0, 1, 2);
    let c = to_row(&mut g, "nf_magyar_nemzet");
    g.state_mut().players[0].scandal = 3;
    g.recruit(0, c);
    assert_eq!(g.state().players[0].scandal, 3);
    g.state_mut().start_player = 1;
    g.take_turn();
    assert_eq!(g.state().players[0].scandal, 2);
    // under an opponent's Border Closure (Határzár) nothing is removed (cards.md §2)
    g.put_in_play(1, "rad_hatarzar");
    g.take_turn();
    assert_eq!(g.state().players[0].scandal, 2);
    ok(&g);
}

// R7.1.1: start-of-turn effects come before the round's Event: Magyar Nemzet removes nothing
// from 0 Scandal, then Kvótanépszavazás gives 1 (the other order would end at 0).
#[test]
fn nf_magyar_nemzet_acts_before_the_event_flips() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "nf_magyar_nemzet");
    let e = g.find_free(0, "ev_kvotanepszavazas");
    g.state_mut().inst[e as usize].zone = Zone::EventDeck;
    g.state_mut().event_deck.push(e);
    g.state_mut().start_player = 0;
    g.take_turn();
    assert_eq!(g.state().event_in_force, Some(e));
    assert_eq!(g.state().players[0].scandal, 1);
    assert_eq!(g.state().players[1].scandal, 1);
    ok(&g);
}

// Origo (2): "↷: add M." Ready at once: pays for a card the turn it is recruited.
#[test]
fn nf_origo_pays_the_turn_it_is_recruited() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let b = g.add_bases(0, 2, 2); // two Street Bases: no Media otherwise
    let c = to_row(&mut g, "nf_origo");
    g.recruit(0, c);
    assert_eq!(exhausted(&g, &b), 2);
    let k = g.put_in_hand(0, "osz_kozerdeku_adatigenyles"); // cost M
    assert!(g.can_play_from_hand(0, k, false), "Origo provides the M");
    g.play_card(0, k);
    assert!(g.state().inst[c as usize].exhausted);
    g.window(1);
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[0].hand.len(), 1);
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    ok(&g);
}

// Hír TV (2M): "When it enters play, gain 3 Support."
#[test]
fn nf_hir_tv_gains_three_support() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, 1, 3);
    let c = to_row(&mut g, "nf_hir_tv");
    g.recruit(0, c);
    assert_eq!(g.state().players[0].support, 23);
    assert_eq!(g.state().players[1].support, 20);
    assert_eq!(g.institutions(0), 1);
    ok(&g);
}

#[test]
fn nf_hir_tv_no_gain_under_opponents_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "radikalisok"]);
    g.add_bases(0, 1, 3);
    g.put_in_play(1, "rad_hatarzar");
    let c = to_row(&mut g, "nf_hir_tv");
    g.recruit(0, c);
    assert_eq!(g.zone_of(c), Zone::Play);
    assert_eq!(g.state().players[0].support, 20);
    ok(&g);
}

// Parameter: nf_hir_tv.support = 1.
#[test]
fn param_nf_hir_tv_support_one() {
    let db = scenario::db(&[("nf_hir_tv.support", 1)]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, 1, 3);
    let c = to_row(&mut g, "nf_hir_tv");
    g.recruit(0, c);
    assert_eq!(g.state().players[0].support, 21);
    ok(&g);
}

// =====================================================================================
// Events (cards.md §8, rules.md R12)
// =====================================================================================

// Fülkeforradalom: "Every player gains 2 Support."
#[test]
fn ev_fulkeforradalom_every_player_gains_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().players[1].support = 5;
    g.state_mut().players[2].support = 12;
    let e = g.force_event("ev_fulkeforradalom");
    assert_eq!(g.state().event_in_force, Some(e));
    assert_eq!(g.state().players.iter().map(|p| p.support).collect::<Vec<_>>(), vec![22, 7, 14]);
    ok(&g);
}

// Border Closure stops Support gains from Events too (cards.md §2).
#[test]
fn ev_fulkeforradalom_not_for_a_player_under_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "radikalisok"]);
    g.put_in_play(1, "rad_hatarzar");
    g.force_event("ev_fulkeforradalom");
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!(g.state().players[1].support, 22);
    ok(&g);
}

// Parameter: ev_fulkeforradalom.support = 5.
#[test]
fn param_ev_fulkeforradalom_support_five() {
    let db = scenario::db(&[("ev_fulkeforradalom.support", 5)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.force_event("ev_fulkeforradalom");
    assert_eq!(g.state().players[0].support, 25);
    assert_eq!(g.state().players[1].support, 25);
    ok(&g);
}

// Médiatörvény: "This round, the basic Exposé costs 1 more generic."
#[test]
fn ev_mediatorveny_expose_costs_one_more_this_round() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, 1, 2);
    assert_eq!(g.expose_cost(1).total(), 2);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Expose(1)));
    g.force_event("ev_mediatorveny");
    let c = g.expose_cost(1);
    assert_eq!((c.generic, c.pips), (2, [0, 1, 0]), "1M + 1 generic");
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Expose(1)), "two resources no longer pay for it");
    g.add_bases(0, 1, 1);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Expose(1)));
    // the round effect ends when the next Event flips (R12.6 (3))
    g.force_event("ev_kvotanepszavazas");
    assert_eq!(g.expose_cost(1).total(), 2);
    ok(&g);
}

// Alaptörvény: "This round, Institutions cost 1 less generic (recruited ones too)."
#[test]
fn ev_alaptorveny_institutions_cost_one_less_incl_recruit() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let lista = g.put_in_hand(0, "osz_kozos_lista"); // 1MU Institution
    let dobrev = g.put_in_hand(0, "osz_dobrev_klara"); // 1M Figure
    let telex = to_row(&mut g, "nf_telex");
    let megafon = to_row(&mut g, "nf_megafon_influenszer");
    g.force_event("ev_alaptorveny");
    assert_eq!(g.play_cost(0, lista).generic, 0);
    assert_eq!(g.play_cost(0, dobrev).generic, 1, "Figures unchanged");
    assert_eq!(g.recruit_cost(telex).generic, 1, "2M → 1M");
    assert_eq!(g.recruit_cost(megafon).generic, 1, "Figure recruit unchanged");
    let b = g.add_bases(0, 1, 3);
    g.recruit(0, telex);
    assert_eq!(exhausted(&g, &b), 2, "Telex paid with two resources");
    // ends with the next Event
    g.force_event("ev_kvotanepszavazas");
    assert_eq!(g.play_cost(0, lista).generic, 1);
    ok(&g);
}

// Devizahitelesek mentése: "The player(s) with the lowest Support gain 3 Support." Ties: all.
#[test]
fn ev_devizahitelesek_mentese_lowest_gain_three_with_ties() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().players[0].support = 10;
    g.state_mut().players[1].support = 15;
    g.state_mut().players[2].support = 10;
    g.force_event("ev_devizahitelesek_mentese");
    assert_eq!(g.state().players.iter().map(|p| p.support).collect::<Vec<_>>(), vec![13, 15, 13]);
    ok(&g);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().players[1].support = 4;
    g.force_event("ev_devizahitelesek_mentese");
    assert_eq!(g.state().players.iter().map(|p| p.support).collect::<Vec<_>>(), vec![20, 7, 20]);
    ok(&g);
}

// Migrációs válság: "This round, attacking Figures get +1/+0." Only while attacking.
#[test]
fn ev_migracios_valsag_attackers_plus_one_only_while_attacking() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let civ = g.put_in_play(0, "nf_civil_jogvedo"); // 1/3
    let meg = g.put_in_play(0, "nf_megafon_influenszer"); // 2/1
    let publ = g.put_in_play(1, "nf_publicista"); // 2/2 blocker
    g.force_event("ev_migracios_valsag");
    assert_eq!(g.influence(civ), 1, "not attacking: no bonus");
    g.script(0, &[Opt::Attack(civ, 1), Opt::Attack(meg, 1)]);
    g.script(1, &[Opt::Block(publ, civ)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 17, "unblocked Megafon deals 2+1");
    assert_eq!(g.zone_of(publ), Zone::NewsDeck, "Civil deals 1+1 = 2 to the 2/2 blocker");
    assert_eq!(g.state().inst[civ as usize].damage, 2, "the blocker gets no bonus (2, not 3)");
    assert_eq!(g.zone_of(civ), Zone::Play, "+0 Credibility: 3 still");
    assert_eq!(g.influence(civ), 1, "bonus gone after the Campaign");
    assert_eq!(g.credibility(civ), 3);
    // a new Event ends it
    g.force_event("ev_kvotanepszavazas");
    g.state_mut().inst[meg as usize].exhausted = false; // its only possible attack: auto-declared
    g.campaign();
    assert_eq!(g.state().players[1].support, 15, "2 damage only");
    ok(&g);
}

// Kvótanépszavazás: "Every player gains 1 Scandal."
#[test]
fn ev_kvotanepszavazas_every_player_gains_one_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().players[1].scandal = 2;
    g.state_mut().players[2].scandal = 5;
    g.force_event("ev_kvotanepszavazas");
    assert_eq!(g.state().players.iter().map(|p| p.scandal).collect::<Vec<_>>(), vec![1, 3, 6]);
    assert_eq!(g.state().players.iter().map(|p| p.support).collect::<Vec<_>>(), vec![20, 20, 20]);
    ok(&g);
}

// NOlimpia: "This round, recruiting a card costs 1 less generic."
#[test]
fn ev_nolimpia_recruit_costs_one_less() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let dobrev = g.put_in_hand(0, "osz_dobrev_klara");
    let meg = to_row(&mut g, "nf_megafon_influenszer");
    let hvg = to_row(&mut g, "nf_hvg");
    g.force_event("ev_nolimpia");
    assert_eq!(g.recruit_cost(meg).total(), 1, "1M → M");
    assert_eq!(g.recruit_cost(hvg).total(), 1);
    assert_eq!(g.play_cost(0, dobrev).total(), 2, "playing from hand is not recruiting");
    let b = g.add_bases(0, 1, 1);
    assert!(g.can_recruit(0, meg));
    g.recruit(0, meg);
    assert_eq!(exhausted(&g, &b), 1);
    assert_eq!(g.zone_of(meg), Zone::Play);
    g.force_event("ev_kvotanepszavazas");
    let hvg_now = if g.state().news_row.contains(&hvg) { hvg } else { to_row(&mut g, "nf_hvg") };
    assert_eq!(g.recruit_cost(hvg_now).total(), 2, "ended with the next Event");
    ok(&g);
}

// Stop Soros: "This round, each basic Exposé takes up to 1 additional Scandal." Not card Exposés.
#[test]
fn ev_stop_soros_basic_expose_takes_one_more_card_expose_not() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let okn = g.put_in_play(0, "nf_oknyomozo_ujsagiro");
    g.force_event("ev_stop_soros");
    g.state_mut().players[1].scandal = 5;
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 2, "basic: 2 + 1");
    assert_eq!(g.state().players[1].support, 17);
    g.activate(okn, 0);
    assert_eq!(g.state().players[1].scandal, 1, "card Exposé 1: no bonus");
    assert_eq!(g.state().players[1].support, 16);
    // next Event: the basic Exposé is back to 2
    g.force_event("ev_fulkeforradalom");
    g.state_mut().players[1].scandal = 5;
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 3);
    ok(&g);
}

// Elios-ügy: "The player(s) who control the most Institutions (at least 1) gain 2 Scandal."
#[test]
fn ev_elios_ugy_no_institutions_nothing() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.put_in_play(0, "nf_megafon_influenszer");
    g.force_event("ev_elios_ugy");
    assert_eq!(g.state().players[0].scandal, 0);
    assert_eq!(g.state().players[1].scandal, 0);
    ok(&g);
}

#[test]
fn ev_elios_ugy_most_institutions_and_ties() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.put_in_play(0, "nf_hvg");
    g.put_in_play(0, "nf_origo");
    g.put_in_play(1, "nf_444");
    g.force_event("ev_elios_ugy");
    assert_eq!(g.state().players.iter().map(|p| p.scandal).collect::<Vec<_>>(), vec![2, 0, 0]);
    ok(&g);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.put_in_play(0, "nf_hvg");
    g.put_in_play(2, "nf_444");
    g.force_event("ev_elios_ugy");
    assert_eq!(g.state().players.iter().map(|p| p.scandal).collect::<Vec<_>>(), vec![2, 0, 2]);
    ok(&g);
}

// Önkormányzati választás: "1 Support for each Figure they control, to a maximum of 3."
#[test]
fn ev_onkormanyzati_valasztas_support_per_figure_capped_at_three() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    for _ in 0..4 {
        g.put_in_play(0, "tok_szakadar");
    }
    g.put_in_play(0, "nf_megafon_influenszer");
    g.put_in_play(0, "nf_hvg"); // not a Figure
    g.put_in_play(1, "nf_civil_jogvedo");
    g.put_in_play(2, "nf_origo");
    g.force_event("ev_onkormanyzati_valasztas");
    assert_eq!(g.state().players.iter().map(|p| p.support).collect::<Vec<_>>(), vec![23, 21, 20]);
    ok(&g);
}

// Veszélyhelyzet: "This round, at most 2 Figures may attack in each Campaign."
#[test]
fn ev_veszelyhelyzet_at_most_two_attackers() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let t: Vec<Cid> = (0..3).map(|_| g.put_in_play(0, "tok_szakadar")).collect();
    g.force_event("ev_veszelyhelyzet");
    g.script(0, &[Opt::Attack(t[0], 1), Opt::Attack(t[1], 1), Opt::Attack(t[2], 1)]);
    g.campaign();
    assert_eq!(g.script_left(0), 1, "a third attacker was not offered");
    assert_eq!(g.state().players[1].support, 18);
    assert!(!g.state().inst[t[2] as usize].exhausted);
    // next Event: no cap
    clear_script(&mut g, 0);
    g.force_event("ev_kvotanepszavazas");
    for &c in &t {
        g.state_mut().inst[c as usize].exhausted = false;
    }
    g.script(0, &[Opt::Attack(t[0], 1), Opt::Attack(t[1], 1), Opt::Attack(t[2], 1)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].support, 15);
    ok(&g);
}

// Parameter: ev_veszelyhelyzet.max_attackers = 1.
#[test]
fn param_ev_veszelyhelyzet_max_attackers_one() {
    let db = scenario::db(&[("ev_veszelyhelyzet.max_attackers", 1)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let t: Vec<Cid> = (0..3).map(|_| g.put_in_play(0, "tok_szakadar")).collect();
    g.force_event("ev_veszelyhelyzet");
    g.script(0, &[Opt::Attack(t[0], 1), Opt::Attack(t[1], 1)]);
    g.campaign();
    assert_eq!(g.script_left(0), 1);
    assert_eq!(g.state().players[1].support, 19);
    clear_script(&mut g, 0);
    ok(&g);
}

// Index szétverése: every face-up card to the bottom, left to right (the rightmost lowest), then
// refill. It follows the usual rotation of the Event procedure (R12.6 (4) before (5)).
#[test]
fn ev_index_szetverese_turns_over_the_row() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let row0 = g.state().news_row.clone(); // [a, b, c]
    let deck0 = g.state().news_deck.clone(); // [d0 .. dk], dk on top
    let k = deck0.len() - 1;
    g.force_event("ev_index_szetverese");
    // rotation: a → bottom, dk enters → row [b, c, dk]; Index: b, c, dk to the bottom in turn
    assert_eq!(&g.state().news_deck[..4], &[deck0[k], row0[2], row0[1], row0[0]]);
    assert_eq!(g.state().news_row, vec![deck0[k - 1], deck0[k - 2], deck0[k - 3]]);
    assert_eq!(g.state().news_deck.len(), deck0.len());
    assert_eq!(&g.state().news_deck[4..], &deck0[..k - 3]);
    ok(&g);
}

// Pegasus-botrány: "This round, Reaction cards cost 1 more generic."
#[test]
fn ev_pegasus_botrany_reactions_cost_one_more() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let h = g.put_in_hand(0, "osz_hangfelvetel"); // 1M Reaction
    let k = g.put_in_hand(0, "osz_kozerdeku_adatigenyles"); // M Move
    g.add_bases(0, 1, 2);
    assert!(g.can_play_from_hand(0, h, true));
    g.force_event("ev_pegasus_botrany");
    assert_eq!(g.play_cost(0, h).generic, 2);
    assert_eq!(g.play_cost(0, k).generic, 0, "Moves unchanged");
    assert!(!g.can_play_from_hand(0, h, true), "1M + 1 needs three resources");
    g.add_bases(0, 1, 1);
    assert!(g.can_play_from_hand(0, h, true));
    g.force_event("ev_kvotanepszavazas");
    assert_eq!(g.play_cost(0, h).generic, 1);
    ok(&g);
}

// Ellenzéki előválasztás: "Every player draws 1 card."
#[test]
fn ev_ellenzeki_elovalasztas_every_player_draws_one() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    let tops: Vec<Cid> = (0..3).map(|p| *g.state().players[p].deck.last().unwrap()).collect();
    let sizes: Vec<usize> = (0..3).map(|p| g.state().players[p].deck.len()).collect();
    g.force_event("ev_ellenzeki_elovalasztas");
    for p in 0..3 {
        assert_eq!(g.state().players[p].hand, vec![tops[p]]);
        assert_eq!(g.state().players[p].deck.len(), sizes[p] - 1);
    }
    ok(&g);
}

// Rekordinfláció: "This round, Swap costs 1 more generic, and recruiting a card costs 1 more."
#[test]
fn ev_rekordinflacio_swap_and_recruit_cost_one_more() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let meg = to_row(&mut g, "nf_megafon_influenszer");
    let dobrev = g.put_in_hand(0, "osz_dobrev_klara");
    let base_in_hand = g.state().players[0].deck.iter().copied().find(|&c| g.def(c).produces.is_some()).unwrap();
    let i = g.state().players[0].deck.iter().position(|&c| c == base_in_hand).unwrap();
    g.state_mut().players[0].deck.remove(i);
    g.state_mut().inst[base_in_hand as usize].zone = Zone::Hand;
    g.state_mut().players[0].hand.push(base_in_hand);
    let b = g.add_bases(0, 1, 2);
    assert_eq!(g.swap_cost().total(), 1);
    g.force_event("ev_rekordinflacio");
    assert_eq!(g.swap_cost().total(), 2);
    assert_eq!(g.recruit_cost(meg).generic, 2, "1M → 2M");
    assert_eq!(g.play_cost(0, dobrev).generic, 1, "playing from hand unchanged");
    assert!(!g.can_recruit(0, meg), "two resources no longer recruit Megafon");
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Swap(base_in_hand)), "2 resources still pay Swap");
    g.state_mut().inst[b[0] as usize].exhausted = true;
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Swap(base_in_hand)), "1 resource doesn't pay Swap");
    g.force_event("ev_kvotanepszavazas");
    assert_eq!(g.swap_cost().total(), 1);
    ok(&g);
}

// Kegyelmi botrány: "The player(s) with the most Scandal (at least 1) lose 2 Support." Credited
// to no one (R12.8).
#[test]
fn ev_kegyelmi_botrany_most_scandal_lose_two_with_ties() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().players[0].scandal = 3;
    g.state_mut().players[1].scandal = 3;
    g.state_mut().players[2].scandal = 1;
    g.state_mut().last_reducer[0] = 2;
    g.force_event("ev_kegyelmi_botrany");
    assert_eq!(g.state().players.iter().map(|p| p.support).collect::<Vec<_>>(), vec![18, 18, 20]);
    assert_eq!(g.state().players[0].scandal, 3, "Scandal stays");
    assert_eq!(g.state().last_reducer[0], -1, "credited to no one");
    ok(&g);
}

#[test]
fn ev_kegyelmi_botrany_nobody_with_scandal_nothing() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.force_event("ev_kegyelmi_botrany");
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!(g.state().players[1].support, 20);
    ok(&g);
}

// Partizán-interjú: each player puts 1 Sympathy counter on a Figure they control (own choice).
#[test]
fn ev_partizan_interju_each_player_with_a_figure_chooses_one() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    let a = g.put_in_play(0, "nf_megafon_influenszer");
    let b = g.put_in_play(0, "nf_civil_jogvedo");
    g.put_in_play(1, "nf_hvg"); // an Institution only
    let c = g.put_in_play(2, "tis_tisza_sziget");
    let c2 = g.put_in_play(2, "tis_tunteto_diak");
    g.script(0, &[Opt::Card(b)]);
    g.script(2, &[Opt::Card(c)]);
    g.force_event("ev_partizan_interju");
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.script_left(2), 0, "seat 2 made its own choice");
    assert_eq!(g.state().inst[c2 as usize].counters, 0);
    assert_eq!(g.state().inst[a as usize].counters, 0);
    assert_eq!(g.state().inst[b as usize].counters, 1);
    assert_eq!(g.influence(b), 2);
    assert_eq!(g.credibility(b), 4);
    assert_eq!(g.state().inst[c as usize].counters, 1);
    ok(&g);
}

// Országgyűlési választás: unblocked attackers deal 1 additional combat damage (credited to the
// attacker); blocked ones don't.
#[test]
fn ev_orszaggyulesi_valasztas_unblocked_attackers_deal_one_more() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let s1 = g.put_in_play(0, "tok_szakadar");
    let s2 = g.put_in_play(0, "tok_szakadar");
    let fence = g.put_in_play(1, "tok_kerites");
    g.force_event("ev_orszaggyulesi_valasztas");
    g.script(0, &[Opt::Attack(s1, 1), Opt::Attack(s2, 1)]);
    g.script(1, &[Opt::Block(fence, s1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 18, "only the unblocked Splinter: 1 + 1");
    assert_eq!(g.state().last_reducer[1], 0, "credited to the attacker");
    assert_eq!(g.state().inst[fence as usize].damage, 1, "blocked: no extra");
    // ends with the next Event
    g.force_event("ev_kvotanepszavazas");
    g.state_mut().inst[s2 as usize].exhausted = false; // its only possible attack: auto-declared
    g.campaign();
    assert_eq!(g.state().players[1].support, 17);
    ok(&g);
}

// =====================================================================================
// The Event procedure (R12.6, R12.8, R12.4)
// =====================================================================================

// R12.8 (E65): Events apply to players in turn order starting with the start player.
#[test]
fn events_apply_in_turn_order_from_the_start_player() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().start_player = 1;
    g.trace_mut().log = Some(Vec::new());
    g.force_event("ev_kvotanepszavazas");
    let order: Vec<String> = g.trace().log.as_ref().unwrap().iter().filter(|l| l.contains("gains 1 Scandal")).map(|l| l.trim().chars().take(2).collect()).collect();
    assert_eq!(order, vec!["P1", "P2", "P0"]);
    ok(&g);
}

// R12.6 (2)-(4): the previous Event goes to the discard pile, the leftmost Newsfeed card to the
// bottom of the Newsfeed deck, and the row is refilled.
#[test]
fn event_procedure_discards_previous_and_rotates_newsfeed() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let e1 = g.force_event("ev_stop_soros");
    let left = g.state().news_row[0];
    let next = *g.state().news_deck.last().unwrap();
    let row = g.state().news_row.clone();
    let e2 = g.force_event("ev_fulkeforradalom");
    assert_eq!(g.state().event_in_force, Some(e2));
    assert_eq!(g.zone_of(e1), Zone::EventDiscard);
    assert_eq!(g.state().event_discard, vec![e1]);
    assert_eq!(g.state().news_deck[0], left);
    assert_eq!(g.state().news_row, vec![row[1], row[2], next]);
    assert_eq!(g.state().round_mods.basic_expose_bonus, 0, "Stop Soros ended");
    ok(&g);
}

// R12.4 (E63 (1)): an empty Event deck is replaced by the shuffled discard pile (the Event in
// force is not part of it).
#[test]
fn event_discard_is_reshuffled_when_the_deck_runs_out() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let first = g.force_event("ev_fulkeforradalom");
    while let Some(c) = g.state_mut().event_deck.pop() {
        g.state_mut().inst[c as usize].zone = Zone::EventDiscard;
        g.state_mut().event_discard.push(c);
    }
    assert_eq!(g.state().event_discard.len(), 17);
    g.event_procedure();
    let now = g.state().event_in_force.expect("an Event was flipped");
    assert_ne!(now, first);
    assert_eq!(g.state().event_deck.len(), 16);
    assert_eq!(g.state().event_discard, vec![first]);
    assert!(g.state().event_deck.iter().all(|&c| g.zone_of(c) == Zone::EventDeck));
    ok(&g);
}

// Parameter: ev_veszelyhelyzet.max_attackers = 0 forbids attacks this round (0 is a number of
// attackers, not "no cap"): no Campaign can be started (E44 needs an attacker).
#[test]
fn param_ev_veszelyhelyzet_max_attackers_zero_forbids_attacks() {
    let db = scenario::db(&[("ev_veszelyhelyzet.max_attackers", 0)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let t: Vec<Cid> = (0..2).map(|_| g.put_in_play(0, "tok_szakadar")).collect();
    assert!(g.can_start_campaign(0));
    g.force_event("ev_veszelyhelyzet");
    assert!(!g.can_start_campaign(0), "at most 0 Figures may attack");
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Campaign));
    // even when asked directly, nobody attacks
    g.campaign();
    assert_eq!(g.state().players[1].support, 20);
    assert!(t.iter().all(|&c| !g.state().inst[c as usize].exhausted));
    // the next Event lifts the limit (in the next turn: this one's Campaign was used)
    g.state_mut().players[0].campaigns = 0;
    g.force_event("ev_kvotanepszavazas");
    assert!(g.can_start_campaign(0));
    ok(&g);
}
