//! Per-card scenario tests: every NER card, every Összefogás card and the two token cards
//! (cards.md §3, §4, §9). Each test names the card id it proves and cites the card text or
//! rule it checks.

use ketharmad::cards::{Cost, Trigger, F, M, U};
use ketharmad::engine::scenario;
use ketharmad::engine::{Cid, Game, Opt, Zone};

// ----- helpers ----------------------------------------------------------------------------

fn inv(g: &Game) {
    if let Err(e) = g.invariants() {
        panic!("invariant broken: {e}");
    }
}

fn pips(f: i16, m: i16, u: i16) -> Cost {
    Cost { generic: 0, pips: [f, m, u] }
}

fn pip(r: usize) -> Cost {
    let mut c = Cost::default();
    c.pips[r] = 1;
    c
}

/// Run one whole turn of seat `p` (Wake, Draw, Action, Close) with its scripted answers.
/// Another seat is made the start player so that no Event is flipped in this Wake (R7.1.1 c).
fn turn_of(g: &mut Game, p: usize) {
    g.state_mut().active = p;
    g.state_mut().start_player = (p + 1) % g.state().n;
    g.take_turn();
}

fn ctl(g: &Game, c: Cid) -> i8 {
    g.state().inst[c as usize].controller
}

fn stats(g: &Game, c: Cid) -> (i16, i16) {
    (g.influence(c), g.credibility(c))
}

fn has_opt(g: &Game, o: Opt) -> bool {
    g.opts().contains(&o)
}

/// Cards `p` controls in play with card id `id`.
fn in_play_with_id(g: &Game, p: usize, id: &str) -> Vec<Cid> {
    g.state().players[p].play.iter().copied().filter(|&c| g.def(c).id == id).collect()
}

// ----- Bases (↷: add X. Swap.) --------------------------------------------------------------

/// A Base gives exactly its printed resource when exhausted (R6.2, cards.md §3/§4), and Swap
/// (cards.md §2): pay 1 generic, the Base goes from hand to Oblivion, draw 1; not a Base play.
fn base_gives_resource_and_swaps(faction: &str, id: &str, res: usize) {
    let db = scenario::db(&[]);
    let other = if faction == "ner" { "osszefogas" } else { "ner" };
    let mut g = scenario::game(&db, &[faction, other]);
    let b = g.put_in_play(0, id);
    for r in 0..3 {
        assert_eq!(g.can_pay(0, pip(r)), r == res, "{id} must pay a pip of resource {res} only (asked {r})");
    }
    g.pay(0, pip(res));
    assert!(g.state().inst[b as usize].exhausted, "paying exhausts the Base");
    assert_eq!(g.state().players[0].pool, [0, 0, 0], "one unit produced, one spent");
    assert!(!g.can_pay(0, pip(res)), "an exhausted Base gives nothing more");
    // Swap in the next turn: the Wake readies the Base, which pays the Swap's 1 generic
    let h = g.put_in_hand(0, id);
    let deck = g.state().players[0].deck.len();
    g.script(0, &[Opt::Swap(h)]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.zone_of(h), Zone::Oblivion, "the swapped Base goes to Oblivion");
    assert!(g.state().players[0].oblivion.contains(&h));
    assert!(g.state().inst[b as usize].exhausted, "the Base in play paid the Swap");
    assert_eq!(g.state().players[0].hand.len(), 2, "Draw step + Swap's draw");
    assert_eq!(g.state().players[0].deck.len(), deck - 2);
    assert_eq!(g.state().players[0].bases_played, 0, "Swap is not a Base play");
    inv(&g);
}

#[test]
fn ner_base_kozbeszerzes_gives_forint_and_swaps() {
    base_gives_resource_and_swaps("ner", "ner_base_kozbeszerzes", F);
}

#[test]
fn ner_base_stadion_gives_forint_and_swaps() {
    base_gives_resource_and_swaps("ner", "ner_base_stadion", F);
}

#[test]
fn ner_base_megyei_lap_gives_media_and_swaps() {
    base_gives_resource_and_swaps("ner", "ner_base_megyei_lap", M);
}

#[test]
fn ner_base_kormanyzati_plakat_gives_media_and_swaps() {
    base_gives_resource_and_swaps("ner", "ner_base_kormanyzati_plakat", M);
}

#[test]
fn osz_base_ellenzeki_napilap_gives_media_and_swaps() {
    base_gives_resource_and_swaps("osszefogas", "osz_base_ellenzeki_napilap", M);
}

#[test]
fn osz_base_parlamenti_felszolalas_gives_media_and_swaps() {
    base_gives_resource_and_swaps("osszefogas", "osz_base_parlamenti_felszolalas", M);
}

#[test]
fn osz_base_utcaforum_gives_street_and_swaps() {
    base_gives_resource_and_swaps("osszefogas", "osz_base_utcaforum", U);
}

#[test]
fn osz_base_alairasgyujtes_gives_street_and_swaps() {
    base_gives_resource_and_swaps("osszefogas", "osz_base_alairasgyujtes", U);
}

// ----- NER ----------------------------------------------------------------------------------

// Mészáros Lőrinc: "Scandal 1. ↷: add 2 Forint."; Fresh blocks the ↷ (R6.6, E25).
#[test]
fn ner_meszaros_lorinc_adds_two_forint() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let m = g.put_in_play(0, "ner_meszaros_lorinc");
    assert!(g.can_pay(0, pips(2, 0, 0)));
    assert!(!g.can_pay(0, pips(3, 0, 0)), "only two Forint");
    assert!(!g.can_pay(0, pip(M)), "Forint only");
    g.pay(0, pip(F));
    assert!(g.state().inst[m as usize].exhausted);
    assert_eq!(g.state().players[0].pool, [1, 0, 0], "2 Forint added, 1 spent: 1 left in the pool");
    inv(&g);
}

#[test]
fn ner_meszaros_lorinc_played_gives_scandal_one_and_is_fresh() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let f = g.add_bases(0, F, 2);
    let m = g.put_in_hand(0, "ner_meszaros_lorinc");
    assert!(g.can_play_from_hand(0, m, false));
    g.play_card(0, m);
    assert_eq!(g.zone_of(m), Zone::Play);
    assert!(f.iter().all(|&b| g.state().inst[b as usize].exhausted), "1F paid with two Forint Bases");
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    assert!(!g.can_pay(0, pip(F)), "Fresh: his ↷ can't be used the turn he enters (R6.6)");
    inv(&g);
}

// Parameter: ner_meszaros_lorinc.forint = 3 → three Forint.
#[test]
fn ner_meszaros_lorinc_param_forint_three() {
    let db = scenario::db(&[("ner_meszaros_lorinc.forint", 3)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.put_in_play(0, "ner_meszaros_lorinc");
    assert!(g.can_pay(0, pips(3, 0, 0)));
    assert!(!g.can_pay(0, pips(4, 0, 0)));
    g.pay(0, pip(F));
    assert_eq!(g.state().players[0].pool, [2, 0, 0], "3 added, 1 spent");
    inv(&g);
}

// Matolcsy György: "Scandal 2. ↷: add 2 resources; choose Forint, Media or Street for each."
#[test]
fn ner_matolcsy_gyorgy_scandal_two_and_any_two_resources() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 3);
    let m = g.put_in_hand(0, "ner_matolcsy_gyorgy");
    g.play_card(0, m);
    assert_eq!(g.state().players[0].scandal, 2, "Scandal 2");
    assert!(!g.can_pay(0, pip(U)), "Fresh");
    g.state_mut().inst[m as usize].fresh = false;
    // NER's only Street source; two units in all
    assert!(g.can_pay(0, pip(U)));
    assert!(g.can_pay(0, pips(0, 2, 0)));
    assert!(!g.can_pay(0, pips(0, 3, 0)));
    g.pay(0, pip(U));
    assert!(g.state().inst[m as usize].exhausted);
    assert_eq!(g.state().players[0].pool.iter().sum::<i16>(), 1, "two added, one spent");
    inv(&g);
}

// "choose … for each": one activation can pay a Forint pip and a Street pip together.
#[test]
fn ner_matolcsy_gyorgy_splits_its_two_resources() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let m = g.put_in_play(0, "ner_matolcsy_gyorgy");
    let cost = pips(1, 0, 1);
    assert!(g.can_pay(0, cost));
    g.pay(0, cost);
    assert!(g.state().inst[m as usize].exhausted);
    assert_eq!(g.state().players[0].pool, [0, 0, 0], "F and U both paid by the one activation");
    inv(&g);
}

// Orbán Viktor: "Scandal 1. Supermajority — Figures you control get +1/+1." (2 Institutions)
#[test]
fn ner_orban_viktor_supermajority_with_one_and_two_institutions() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 3);
    g.add_bases(0, M, 3);
    let o = g.put_in_hand(0, "ner_orban_viktor");
    g.play_card(0, o);
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    let gu = g.put_in_play(0, "ner_gulyas_gergely");
    assert_eq!(stats(&g, o), (5, 6), "no Institution");
    g.put_in_play(0, "ner_rezsicsokkentes");
    assert!(!g.supermajority(0));
    assert_eq!(stats(&g, o), (5, 6), "one Institution is not enough");
    assert_eq!(stats(&g, gu), (1, 3));
    g.put_in_play(0, "ner_legfobb_ugyeszseg");
    assert!(g.supermajority(0));
    assert_eq!(stats(&g, o), (6, 7), "two Institutions: +1/+1 to Orbán himself");
    assert_eq!(stats(&g, gu), (2, 4), "and to every other Figure you control");
    // an opponent's Figure is not affected
    let t = g.put_in_play(1, "osz_juhasz_peter");
    assert_eq!(stats(&g, t), (1, 2));
    inv(&g);
}

// Supermajority needs 3 while an opponent controls Szavazatszámláló delegáltak (cards.md §2).
#[test]
fn ner_orban_viktor_supermajority_needs_three_against_delegates() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let o = g.put_in_play(0, "ner_orban_viktor");
    g.put_in_play(0, "ner_rezsicsokkentes");
    g.put_in_play(0, "ner_legfobb_ugyeszseg");
    assert_eq!(stats(&g, o), (6, 7));
    g.put_in_play(1, "tis_szavazatszamlalo_delegaltak");
    assert!(!g.supermajority(0));
    assert_eq!(stats(&g, o), (5, 6), "two are not enough against the delegates");
    g.put_in_play(0, "ner_kozmedia");
    assert!(g.supermajority(0));
    assert_eq!(stats(&g, o), (6, 7), "three Institutions");
    inv(&g);
}

// Parameter: ner_orban_viktor.influence = 7.
#[test]
fn ner_orban_viktor_param_influence_seven() {
    let db = scenario::db(&[("ner_orban_viktor.influence", 7)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let o = g.put_in_play(0, "ner_orban_viktor");
    assert_eq!(stats(&g, o), (7, 6));
    g.put_in_play(0, "ner_rezsicsokkentes");
    g.put_in_play(0, "ner_legfobb_ugyeszseg");
    assert_eq!(stats(&g, o), (8, 7));
    // and he hits for 8 unblocked
    g.campaign();
    assert_eq!(g.state().players[1].support, 12);
    inv(&g);
}

// Gulyás Gergely: "↷: remove 1 Scandal." Not while Fresh.
#[test]
fn ner_gulyas_gergely_removes_one_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.state_mut().players[0].scandal = 3;
    let gu = g.enter_free(0, "ner_gulyas_gergely");
    assert!(!g.can_activate(gu, 0, false), "Fresh: no ↷");
    g.state_mut().inst[gu as usize].fresh = false;
    g.main_options(0);
    assert!(has_opt(&g, Opt::Activate(gu, 0)));
    g.activate(gu, 0);
    assert_eq!(g.state().players[0].scandal, 2);
    assert!(g.state().inst[gu as usize].exhausted);
    assert!(!g.can_activate(gu, 0, false), "once: he is exhausted");
    inv(&g);
}

// Bűnbak: "Sacrifice Bűnbak: remove 2 Scandal. … whenever you have priority, in any player's
// turn …, even while Bűnbak is Fresh."
#[test]
fn ner_bunbak_usable_in_an_opponents_window_while_fresh() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.state_mut().active = 1; // Összefogás's turn
    g.state_mut().players[0].scandal = 3;
    let b = g.enter_free(0, "ner_bunbak");
    assert!(g.state().inst[b as usize].fresh);
    g.script(0, &[Opt::Activate(b, 0)]);
    g.window(1);
    assert_eq!(g.script_left(0), 0, "Bűnbak was offered in the window");
    assert_eq!(g.state().players[0].scandal, 1, "2 Scandal removed");
    assert_eq!(g.zone_of(b), Zone::Oblivion, "Sacrificed");
    assert!(g.state().players[0].oblivion.contains(&b));
    inv(&g);
}

#[test]
fn ner_bunbak_usable_with_main_priority_while_fresh() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.state_mut().players[0].scandal = 1;
    g.add_bases(0, F, 1);
    let b = g.put_in_hand(0, "ner_bunbak");
    g.play_card(0, b);
    g.main_options(0);
    assert!(has_opt(&g, Opt::Activate(b, 0)), "usable while Fresh");
    g.activate(b, 0);
    assert_eq!(g.state().players[0].scandal, 0, "never below 0 (R10.5.1)");
    assert_eq!(g.zone_of(b), Zone::Oblivion);
    inv(&g);
}

// Simicska Lajos: "When Simicska Lajos enters play, and at the start of your turn: if you are
// his owner and you have 4 or more Scandal, the opponent with the most Support (tie: the tied
// opponent who comes first in turn order after you) gains control of him. A player who is not
// his owner never loses him this way." ↷: add M.
#[test]
fn ner_simicska_lajos_stays_below_four_scandal_on_entering() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.state_mut().players[0].scandal = 3;
    g.add_bases(0, F, 2);
    let s = g.put_in_hand(0, "ner_simicska_lajos");
    g.play_card(0, s);
    assert_eq!(ctl(&g, s), 0);
    assert!(g.state().players[0].play.contains(&s));
    assert_eq!(g.state().players[0].scandal, 3, "no Scandal N");
    // ↷: add M (next turn)
    g.state_mut().inst[s as usize].fresh = false;
    assert!(g.can_pay(0, pip(M)));
    inv(&g);
}

#[test]
fn ner_simicska_lajos_defects_at_four_scandal_on_entering() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.state_mut().players[0].scandal = 4;
    g.state_mut().players[2].support = 23;
    g.add_bases(0, F, 2);
    let s = g.put_in_hand(0, "ner_simicska_lajos");
    g.play_card(0, s);
    assert_eq!(ctl(&g, s), 2, "to the opponent with the most Support");
    assert!(g.state().players[2].play.contains(&s));
    assert!(!g.state().players[0].play.contains(&s));
    assert_eq!(g.state().inst[s as usize].owner, 0, "NER still owns him");
    inv(&g);
}

#[test]
fn ner_simicska_lajos_defection_tie_goes_to_first_opponent_after_owner() {
    let db = scenario::db(&[]);
    // NER in seat 1: the tied opponents are seat 2 and seat 0; seat 2 comes first after seat 1
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    g.state_mut().active = 1;
    g.state_mut().players[1].scandal = 5;
    let s = g.enter_free(1, "ner_simicska_lajos");
    assert_eq!(ctl(&g, s), 2);
    inv(&g);
}

#[test]
fn ner_simicska_lajos_defects_at_start_of_owners_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let s = g.put_in_play(0, "ner_simicska_lajos");
    g.state_mut().players[0].scandal = 3;
    turn_of(&mut g, 0);
    assert_eq!(ctl(&g, s), 0, "3 Scandal: he stays");
    g.state_mut().players[0].scandal = 4;
    g.state_mut().players[1].support = 15;
    turn_of(&mut g, 0);
    assert_eq!(ctl(&g, s), 1, "4 Scandal at the start of the owner's turn: he defects");
    assert!(g.state().players[1].play.contains(&s));
    inv(&g);
}

#[test]
fn ner_simicska_lajos_non_owner_never_loses_him() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let s = g.put_in_play(0, "ner_simicska_lajos");
    g.change_control(s, 1);
    g.state_mut().players[0].scandal = 5;
    g.state_mut().players[1].scandal = 5;
    g.state_mut().players[0].support = 30;
    turn_of(&mut g, 1);
    assert_eq!(ctl(&g, s), 1, "the new controller is not his owner: never loses him");
    turn_of(&mut g, 0);
    assert_eq!(ctl(&g, s), 1, "the owner's turn does not bring him back");
    inv(&g);
}

// Rogán Antal: "Propaganda. Scandal 1. ↷: another target Figure you control gains Propaganda
// until end of turn." Propaganda: blocked only by 2 or more Figures together (cards.md §2).
#[test]
fn ner_rogan_antal_propaganda_cannot_be_blocked_by_one_figure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, M, 4);
    let r = g.put_in_hand(0, "ner_rogan_antal");
    g.play_card(0, r);
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    g.state_mut().inst[r as usize].fresh = false;
    let d = g.put_in_play(1, "osz_donath_anna");
    g.campaign();
    assert_eq!(g.state().players[1].support, 17, "one Figure can't block him: 3 unblocked damage");
    assert_eq!(g.state().inst[d as usize].damage, 0);
    inv(&g);
}

#[test]
fn ner_rogan_antal_propaganda_blocked_by_two_figures() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let r = g.put_in_play(0, "ner_rogan_antal");
    let d = g.put_in_play(1, "osz_donath_anna");
    let j = g.put_in_play(1, "osz_juhasz_peter");
    // the first blocker must be completed by a second one (the only option then)
    g.script(1, &[Opt::Block(d, r)]);
    g.campaign();
    assert_eq!(g.script_left(1), 0);
    assert_eq!(g.state().players[1].support, 20, "blocked");
    assert_eq!(g.state().inst[r as usize].damage, 2, "1 + 1 from the two blockers");
    assert_eq!(g.zone_of(d), Zone::Oblivion, "Rogán's 3 damage (all to the first blocker)");
    assert_eq!(g.zone_of(j), Zone::Play);
    inv(&g);
}

#[test]
fn ner_rogan_antal_grants_propaganda_until_end_of_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let r = g.put_in_play(0, "ner_rogan_antal");
    let s = g.put_in_play(0, "ner_semjen_zsolt");
    let j = g.put_in_play(1, "osz_juhasz_peter");
    assert!(!g.has_propaganda(s));
    // ↷ on Semjén (the only other Figure: auto target), then a Campaign with Semjén alone
    g.script(0, &[Opt::Activate(r, 0), Opt::Campaign]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0);
    assert!(g.state().inst[r as usize].exhausted, "Rogán exhausted for the ability");
    assert_eq!(g.state().players[1].support, 18, "Semjén (2) could not be blocked by Juhász alone");
    assert_eq!(g.state().inst[j as usize].damage, 0);
    assert!(!g.has_propaganda(s), "until end of turn only");
    inv(&g);
}

// Szijjártó Péter: "Momentum. Scandal 1. When Szijjártó Péter enters play, draw 1 card."
#[test]
fn ner_szijjarto_peter_momentum_scandal_and_draw() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 1);
    g.add_bases(0, M, 2);
    let s = g.put_in_hand(0, "ner_szijjarto_peter");
    g.play_card(0, s);
    assert_eq!(g.state().players[0].scandal, 1);
    assert_eq!(g.state().players[0].hand.len(), 1, "drew 1 card");
    assert!(g.state().inst[s as usize].fresh);
    assert!(g.can_attack(s), "Momentum: attacks the turn he enters");
    g.campaign();
    assert_eq!(g.state().players[1].support, 17);
    inv(&g);
}

// Kövér László: "↷: exhaust target Figure."
#[test]
fn ner_kover_laszlo_exhausts_target_figure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let k = g.put_in_play(0, "ner_kover_laszlo");
    let o = g.put_in_play(0, "ner_orban_viktor");
    let t = g.put_in_play(1, "osz_gyurcsany_ferenc");
    g.script(0, &[Opt::Card(t)]);
    g.activate(k, 0);
    assert!(g.state().inst[t as usize].exhausted);
    assert!(g.state().inst[k as usize].exhausted);
    // an exhausted Figure can't block: Orbán's 5 get through
    g.campaign();
    assert_eq!(g.state().players[1].support, 15);
    assert_eq!(g.state().inst[o as usize].damage, 0);
    inv(&g);
}

// Habony Árpád: "Scandal 1. ↷: target opponent gains 1 Scandal."
#[test]
fn ner_habony_arpad_gives_target_opponent_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.add_bases(0, M, 2);
    let h = g.put_in_hand(0, "ner_habony_arpad");
    g.play_card(0, h);
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    g.state_mut().inst[h as usize].fresh = false;
    g.script(0, &[Opt::Player(2)]);
    g.activate(h, 0);
    assert_eq!(g.state().players[2].scandal, 1, "the chosen opponent");
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[0].scandal, 1);
    inv(&g);
}

// Semjén Zsolt: "Scandal 1. When Semjén Zsolt enters play, deal 2 damage to up to one other
// target Figure."
#[test]
fn ner_semjen_zsolt_deals_two_damage_on_entering() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 3);
    let j = g.put_in_play(1, "osz_juhasz_peter");
    let sz = g.put_in_play(1, "osz_szel_bernadett");
    let s = g.put_in_hand(0, "ner_semjen_zsolt");
    g.script(0, &[Opt::Card(sz)]);
    g.play_card(0, s);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[0].scandal, 1);
    assert_eq!(g.state().inst[sz as usize].damage, 2, "Szél (1/3) survives 2 damage");
    assert_eq!(g.state().inst[j as usize].damage, 0);
    assert_eq!(g.state().inst[s as usize].damage, 0);
    inv(&g);
}

#[test]
fn ner_semjen_zsolt_kills_a_small_figure_or_targets_none() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 3);
    let j = g.put_in_play(1, "osz_juhasz_peter");
    let s = g.put_in_hand(0, "ner_semjen_zsolt");
    // "other": Semjén can't target himself; "up to one": no target is offered too
    g.script(0, &[Opt::Card(j)]);
    g.play_card(0, s);
    assert_eq!(g.zone_of(j), Zone::Oblivion, "Juhász (1/2) is knocked out");
    assert!(g.state().players[1].oblivion.contains(&j));
    // the passive choice is no target: nothing is damaged
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 3);
    let j = g.put_in_play(1, "osz_juhasz_peter");
    let s = g.put_in_hand(0, "ner_semjen_zsolt");
    g.play_card(0, s);
    assert_eq!(g.state().inst[j as usize].damage, 0);
    assert_eq!(g.state().inst[s as usize].damage, 0);
    inv(&g);
}

// Rezsicsökkentés: "At the start of your turn, gain 1 Support." (cut by Border Closure)
#[test]
fn ner_rezsicsokkentes_gains_one_support_at_start_of_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.put_in_play(0, "ner_rezsicsokkentes");
    turn_of(&mut g, 0);
    assert_eq!(g.state().players[0].support, 21);
    turn_of(&mut g, 1);
    assert_eq!(g.state().players[0].support, 21, "only at the start of its controller's turn");
    inv(&g);
}

#[test]
fn ner_rezsicsokkentes_cut_by_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "radikalisok"]);
    g.put_in_play(0, "ner_rezsicsokkentes");
    g.put_in_play(1, "rad_hatarzar");
    turn_of(&mut g, 0);
    assert_eq!(g.state().players[0].support, 20, "Border Closure: opponents can't gain Support");
    inv(&g);
}

// Közmédia: "Scandal 1. A basic Exposé that an opponent performs against you costs 1 more
// generic."
#[test]
fn ner_kozmedia_basic_expose_against_ner_costs_one_more() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, M, 3);
    let k = g.put_in_hand(0, "ner_kozmedia");
    g.play_card(0, k);
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    assert_eq!(g.expose_cost(0), Cost { generic: 2, pips: [0, 1, 0] });
    assert_eq!(g.expose_cost(1), Cost { generic: 1, pips: [0, 1, 0] }, "NER's own Exposé is not taxed");
    // Összefogás's turn: two Media Bases pay {1}{M} but not {2}{M}
    g.state_mut().active = 1;
    g.add_bases(1, M, 2);
    g.main_options(1);
    assert!(!has_opt(&g, Opt::Expose(0)));
    g.add_bases(1, M, 1);
    g.main_options(1);
    assert!(has_opt(&g, Opt::Expose(0)));
    // and performing it exhausts all three
    g.script(1, &[Opt::Expose(0)]);
    let before: usize = g.state().players[1].play.iter().filter(|&&c| g.state().inst[c as usize].exhausted).count();
    assert_eq!(before, 0);
    turn_of(&mut g, 1);
    let after = g.state().players[1].play.iter().filter(|&&c| g.state().inst[c as usize].exhausted).count();
    assert_eq!(after, 3, "{{2}}{{M}} paid");
    assert_eq!(g.state().players[0].scandal, 0, "one Scandal taken");
    assert_eq!(g.state().players[0].support, 19);
    inv(&g);
}

// Legfőbb Ügyészség: "At the start of your turn, remove 1 Scandal."
#[test]
fn ner_legfobb_ugyeszseg_removes_one_scandal_at_start_of_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.put_in_play(0, "ner_legfobb_ugyeszseg");
    g.state_mut().players[0].scandal = 3;
    turn_of(&mut g, 0);
    assert_eq!(g.state().players[0].scandal, 2);
    // Border Closure stops removal
    let mut g = scenario::game(&db, &["ner", "radikalisok"]);
    g.put_in_play(0, "ner_legfobb_ugyeszseg");
    g.put_in_play(1, "rad_hatarzar");
    g.state_mut().players[0].scandal = 3;
    turn_of(&mut g, 0);
    assert_eq!(g.state().players[0].scandal, 3);
    inv(&g);
}

// Szuverenitásvédelmi Hivatal: "Scandal 1. At the start of your turn, target opponent gains 1
// Scandal."
#[test]
fn ner_szuverenitasvedelmi_hivatal_gives_opponent_scandal_each_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    g.enter_free(0, "ner_szuverenitasvedelmi_hivatal");
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    g.script(0, &[Opt::Player(2)]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[2].scandal, 1);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[0].scandal, 1);
    inv(&g);
}

// Éjszakai törvénymódosítás: "Scandal 1. Neutralize target Action on the chain."
#[test]
fn ner_ejszakai_torvenymodositas_neutralizes_an_opponents_action() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().players[1].scandal = 5;
    let ob = g.add_bases(0, M, 2);
    let h = g.put_in_hand(0, "osz_hangfelvetel");
    g.play_card(0, h);
    assert_eq!(g.zone_of(h), Zone::Chain);
    g.add_bases(1, M, 2);
    let e = g.put_in_hand(1, "ner_ejszakai_torvenymodositas");
    g.script(1, &[Opt::Play(e)]);
    g.window(1);
    assert_eq!(g.script_left(1), 0);
    assert!(g.state().chain.is_empty());
    assert_eq!(g.zone_of(h), Zone::Oblivion, "Neutralized: to its owner's Oblivion");
    assert!(g.state().players[0].oblivion.contains(&h));
    assert_eq!(g.zone_of(e), Zone::Oblivion);
    assert_eq!(g.state().players[1].scandal, 6, "nothing taken; +1 from Éjszakai's Scandal 1");
    assert_eq!(g.state().players[1].support, 20);
    assert!(ob.iter().all(|&b| g.state().inst[b as usize].exhausted), "costs stay paid");
    inv(&g);
}

#[test]
fn ner_ejszakai_torvenymodositas_neutralized_action_gives_no_scandal_n() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.add_bases(0, F, 4);
    g.add_bases(0, M, 3);
    let t = g.put_in_play(1, "tis_magyar_peter");
    let l = g.put_in_hand(0, "ner_lex_ceu");
    let e = g.put_in_hand(0, "ner_ejszakai_torvenymodositas");
    g.play_card(0, l); // the only target: Magyar Péter
    g.script(0, &[Opt::Play(e)]);
    g.window(1);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.zone_of(t), Zone::Play, "Lex CEU did nothing");
    assert_eq!(g.zone_of(l), Zone::Oblivion);
    assert_eq!(g.state().players[0].scandal, 1, "only Éjszakai's Scandal 1, not Lex CEU's");
    inv(&g);
}

// Lex CEU: "Scandal 1. Return target Figure or Institution to its owner's hand."
#[test]
fn ner_lex_ceu_returns_figure_and_counters_are_lost() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.add_bases(0, F, 3);
    let t = g.put_in_play(1, "tis_magyar_peter");
    g.state_mut().inst[t as usize].counters = 2;
    assert_eq!(stats(&g, t), (3, 3));
    let l = g.put_in_hand(0, "ner_lex_ceu");
    g.play_card(0, l);
    assert_eq!(g.state().players[0].scandal, 0, "Scandal N of an Action comes on resolution");
    g.window(1);
    assert_eq!(g.zone_of(t), Zone::Hand);
    assert!(g.state().players[1].hand.contains(&t));
    assert_eq!(g.state().inst[t as usize].counters, 0, "counters are lost");
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1");
    assert_eq!(g.zone_of(l), Zone::Oblivion);
    inv(&g);
}

#[test]
fn ner_lex_ceu_returns_an_institution() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.add_bases(0, F, 3);
    let o = g.put_in_play(0, "ner_orban_viktor");
    g.put_in_play(0, "ner_rezsicsokkentes");
    g.put_in_play(0, "ner_legfobb_ugyeszseg");
    let d = g.put_in_play(1, "tis_szavazatszamlalo_delegaltak");
    assert_eq!(stats(&g, o), (5, 6));
    let l = g.put_in_hand(0, "ner_lex_ceu");
    g.script(0, &[Opt::Card(d)]);
    g.play_card(0, l);
    g.window(1);
    assert_eq!(g.zone_of(d), Zone::Hand);
    assert!(g.state().players[1].hand.contains(&d));
    assert_eq!(stats(&g, o), (6, 7), "Supermajority back with two Institutions");
    inv(&g);
}

#[test]
fn ner_lex_ceu_returns_a_defected_figure_to_its_owner() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.add_bases(0, F, 3);
    let s = g.put_in_play(0, "ner_simicska_lajos");
    g.change_control(s, 1);
    let l = g.put_in_hand(0, "ner_lex_ceu");
    g.play_card(0, l);
    g.window(1);
    assert_eq!(g.zone_of(s), Zone::Hand);
    assert!(g.state().players[0].hand.contains(&s), "owner's hand");
    inv(&g);
}

// ----- Összefogás ---------------------------------------------------------------------------

// Szakszervezeti vezető: "Unity — this Figure gets +1/+1." Unity: 3 different parties.
#[test]
fn osz_szakszervezeti_vezeto_unity_with_two_and_three_parties() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let s = g.put_in_play(0, "osz_szakszervezeti_vezeto");
    assert_eq!(stats(&g, s), (1, 2));
    let s2 = g.put_in_play(0, "osz_szakszervezeti_vezeto");
    g.put_in_play(0, "osz_dobrev_klara");
    assert!(!g.unity(0), "MSZP twice + DK = 2 parties");
    assert_eq!(stats(&g, s), (1, 2));
    let f = g.put_in_play(0, "osz_fekete_gyor_andras");
    assert!(g.unity(0));
    assert_eq!(stats(&g, s), (2, 3));
    assert_eq!(stats(&g, s2), (2, 3));
    assert_eq!(stats(&g, f), (2, 1), "only this Figure");
    inv(&g);
}

#[test]
fn osz_szakszervezeti_vezeto_fuggetlen_counts_once() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let s = g.put_in_play(0, "osz_szakszervezeti_vezeto");
    g.put_in_play(0, "osz_hadhazy_akos");
    g.put_in_play(0, "osz_marki_zay_peter");
    assert!(!g.unity(0), "MSZP + Független (twice) = 2 parties");
    assert_eq!(stats(&g, s), (1, 2));
    // token cards and Newsfeed Figures never count
    g.put_in_play(0, "tok_szakadar");
    g.put_in_play(0, "nf_publicista");
    assert!(!g.unity(0));
    g.put_in_play(0, "osz_karacsony_gergely");
    assert!(g.unity(0));
    assert_eq!(stats(&g, s), (2, 3));
    inv(&g);
}

// Tóth Bertalan: "When Tóth Bertalan enters play, if Unity is active for you, draw 1 card."
#[test]
fn osz_toth_bertalan_draws_only_with_unity() {
    let db = scenario::db(&[]);
    // two parties with him (DK + MSZP): no draw
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "osz_dobrev_klara");
    g.add_bases(0, U, 2);
    let t = g.put_in_hand(0, "osz_toth_bertalan");
    g.play_card(0, t);
    assert_eq!(g.zone_of(t), Zone::Play);
    assert_eq!(g.state().players[0].hand.len(), 0);
    // three parties counting his own MSZP: draw 1
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "osz_dobrev_klara");
    g.put_in_play(0, "osz_fekete_gyor_andras");
    g.add_bases(0, U, 2);
    let t = g.put_in_hand(0, "osz_toth_bertalan");
    let deck = g.state().players[0].deck.len();
    g.play_card(0, t);
    assert_eq!(g.state().players[0].hand.len(), 1);
    assert_eq!(g.state().players[0].deck.len(), deck - 1);
    inv(&g);
}

// Fekete-Győr András: "Momentum."
#[test]
fn osz_fekete_gyor_andras_attacks_the_turn_he_enters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, U, 2);
    let f = g.put_in_hand(0, "osz_fekete_gyor_andras");
    g.play_card(0, f);
    assert!(g.state().inst[f as usize].fresh);
    assert!(g.can_attack(f));
    g.campaign();
    assert_eq!(g.state().players[1].support, 18);
    assert!(g.state().inst[f as usize].exhausted);
    inv(&g);
}

// Donáth Anna: "When she enters play, target opponent gains 1 Scandal."
#[test]
fn osz_donath_anna_gives_target_opponent_scandal_on_entering() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    g.add_bases(0, M, 2);
    let d = g.put_in_hand(0, "osz_donath_anna");
    g.script(0, &[Opt::Player(2)]);
    g.play_card(0, d);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[2].scandal, 1);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[0].scandal, 0);
    inv(&g);
}

// Dobrev Klára: "Unity — each Exposé you perform (basic or a card's) takes up to 1 additional
// Scandal."
#[test]
fn osz_dobrev_klara_extra_scandal_only_with_unity() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().players[1].scandal = 8;
    g.put_in_play(0, "osz_dobrev_klara");
    g.put_in_play(0, "osz_szakszervezeti_vezeto");
    // two parties: the basic Exposé takes 2 at most
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 6);
    assert_eq!(g.state().players[1].support, 18);
    // three parties: 3
    g.put_in_play(0, "osz_fekete_gyor_andras");
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 3);
    assert_eq!(g.state().players[1].support, 15);
    // a card's Exposé 1 takes 2
    g.expose(0, 1, 1, false);
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[1].support, 13);
    // "up to": the performer may take fewer
    g.state_mut().players[1].scandal = 5;
    g.script(0, &[Opt::Amount(1)]);
    g.expose(0, 1, 2, true);
    assert_eq!(g.script_left(0), 0, "amounts 0..=3 were offered");
    assert_eq!(g.state().players[1].scandal, 4);
    inv(&g);
}

// Gyurcsány Ferenc: "Scandal 2. Unity — other Figures you control get +1/+0."
#[test]
fn osz_gyurcsany_ferenc_unity_gives_other_figures_plus_one_influence() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, M, 3);
    let gy = g.put_in_hand(0, "osz_gyurcsany_ferenc");
    g.play_card(0, gy);
    assert_eq!(g.state().players[0].scandal, 2, "Scandal 2");
    let s = g.put_in_play(0, "osz_szel_bernadett");
    assert_eq!(stats(&g, s), (1, 3), "DK + LMP: no Unity");
    let f = g.put_in_play(0, "osz_fekete_gyor_andras");
    assert_eq!(stats(&g, s), (2, 3));
    assert_eq!(stats(&g, f), (3, 1));
    assert_eq!(stats(&g, gy), (3, 3), "other Figures only");
    let opp = g.put_in_play(1, "ner_gulyas_gergely");
    assert_eq!(stats(&g, opp), (1, 3), "not the opponent's");
    inv(&g);
}

// Hadházy Ákos: "At the start of your turn: Exposé 1."
#[test]
fn osz_hadhazy_akos_exposes_one_at_start_of_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "osz_hadhazy_akos");
    g.state_mut().players[1].scandal = 2;
    turn_of(&mut g, 0);
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.state().last_reducer[1], 0, "credited to Összefogás");
    assert_eq!(g.state().players[0].exposes, 0, "not the basic Exposé");
    inv(&g);
}

// Márki-Zay Péter: "Joint Candidate. At the start of your turn, roll a d6; then, by the result:
// 1 — you gain 1 Scandal; 2–3 — target opponent gains 1 Scandal; 4–5 — draw 1 card;
// 6 — Exposé 2. A target is chosen after the roll."
fn marki_zay_roll(k: u8) -> (i32, i32, i32, usize) {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "osz_marki_zay_peter");
    g.state_mut().players[1].scandal = 3;
    g.hooks_mut().forced_die = Some(k);
    turn_of(&mut g, 0);
    inv(&g);
    (g.state().players[0].scandal, g.state().players[1].scandal, g.state().players[1].support, g.state().players[0].hand.len())
}

#[test]
fn osz_marki_zay_peter_roll_1_you_gain_scandal() {
    assert_eq!(marki_zay_roll(1), (1, 3, 20, 1));
}

#[test]
fn osz_marki_zay_peter_roll_2_opponent_gains_scandal() {
    assert_eq!(marki_zay_roll(2), (0, 4, 20, 1));
}

#[test]
fn osz_marki_zay_peter_roll_3_opponent_gains_scandal() {
    assert_eq!(marki_zay_roll(3), (0, 4, 20, 1));
}

#[test]
fn osz_marki_zay_peter_roll_4_draws() {
    assert_eq!(marki_zay_roll(4), (0, 3, 20, 2));
}

#[test]
fn osz_marki_zay_peter_roll_5_draws() {
    assert_eq!(marki_zay_roll(5), (0, 3, 20, 2));
}

#[test]
fn osz_marki_zay_peter_roll_6_exposes_two() {
    assert_eq!(marki_zay_roll(6), (0, 1, 18, 1));
}

#[test]
fn osz_marki_zay_peter_target_is_chosen_after_the_roll() {
    let db = scenario::db(&[]);
    // 3 players, roll 6: the target is asked for (seat 2 chosen)
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    g.put_in_play(0, "osz_marki_zay_peter");
    g.state_mut().players[1].scandal = 3;
    g.state_mut().players[2].scandal = 3;
    g.hooks_mut().forced_die = Some(6);
    g.script(0, &[Opt::Player(2)]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0);
    assert_eq!((g.state().players[1].scandal, g.state().players[2].scandal), (3, 1));
    // roll 4: no target is asked for at all (the scripted answer stays unused)
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    let m = g.put_in_play(0, "osz_marki_zay_peter");
    g.hooks_mut().forced_die = Some(4);
    g.script(0, &[Opt::Player(2)]);
    let deck = g.state().players[0].deck.len();
    g.run_triggers(m, 0, Trigger::StartOfTurn);
    assert_eq!(g.script_left(0), 1, "no target was asked for");
    assert_eq!(g.state().players[0].deck.len(), deck - 1, "the die's draw");
    assert_eq!((g.state().players[1].scandal, g.state().players[2].scandal), (0, 0));
    inv(&g);
}

#[test]
fn osz_marki_zay_peter_joint_candidate_only_with_unity() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let m = g.put_in_play(0, "osz_marki_zay_peter");
    g.put_in_play(0, "osz_dobrev_klara");
    assert_eq!(stats(&g, m), (2, 3), "Független + DK: no Unity");
    g.put_in_play(0, "osz_szakszervezeti_vezeto");
    assert_eq!(stats(&g, m), (4, 5), "Joint Candidate +2/+2");
    inv(&g);
}

// Karácsony Gergely: "Joint Candidate. If you would be knocked out while you control Karácsony
// Gergely, instead Sacrifice him and your Support becomes 5. He must still be in play when the
// knock-out is checked … This doesn't happen while an opponent controls a card with Border
// Closure."
#[test]
fn osz_karacsony_gergely_rescues_from_knock_out() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let o = g.put_in_play(0, "ner_orban_viktor");
    let k = g.put_in_play(1, "osz_karacsony_gergely");
    g.state_mut().players[1].support = 3;
    g.campaign(); // Karácsony does not block (passive)
    assert!(g.state().outcome.is_none());
    assert!(g.state().players[1].alive);
    assert_eq!(g.state().players[1].support, 5, "Support becomes 5");
    assert_eq!(g.zone_of(k), Zone::Oblivion, "Sacrificed");
    assert!(g.state().players[1].oblivion.contains(&k));
    assert_eq!(g.zone_of(o), Zone::Play);
    inv(&g);
}

#[test]
fn osz_karacsony_gergely_no_rescue_under_opponents_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "osszefogas"]);
    g.put_in_play(0, "rad_hatarzar");
    g.put_in_play(0, "rad_toroczkai_laszlo");
    g.put_in_play(1, "osz_karacsony_gergely");
    g.state_mut().players[1].support = 3;
    g.campaign();
    assert!(!g.state().players[1].alive, "no rescue under Border Closure");
    assert_eq!(g.state().outcome.map(|o| o.winner()), Some(Some(0)));
    inv(&g);
}

#[test]
fn osz_karacsony_gergely_no_rescue_when_the_same_damage_destroys_him() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let o = g.put_in_play(0, "ner_orban_viktor");
    let s = g.put_in_play(0, "ner_szijjarto_peter");
    let k = g.put_in_play(1, "osz_karacsony_gergely");
    g.state_mut().players[1].support = 3;
    g.script(0, &[Opt::Attack(o, 1), Opt::Attack(s, 1)]);
    g.script(1, &[Opt::Block(k, o)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.script_left(1), 0);
    assert!(!g.state().players[1].alive, "Karácsony died in the same damage: no rescue");
    assert_eq!(g.state().outcome.map(|o| o.winner()), Some(Some(0)));
    inv(&g);
}

#[test]
fn osz_karacsony_gergely_joint_candidate_plus_two_only_with_unity() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let k = g.put_in_play(0, "osz_karacsony_gergely");
    g.put_in_play(0, "osz_juhasz_peter");
    assert_eq!(stats(&g, k), (2, 4));
    g.put_in_play(0, "osz_szel_bernadett");
    assert_eq!(stats(&g, k), (4, 6));
    inv(&g);
}

// Parameter: osz_karacsony_gergely.rescue_support = 8.
#[test]
fn osz_karacsony_gergely_param_rescue_support_eight() {
    let db = scenario::db(&[("osz_karacsony_gergely.rescue_support", 8)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    g.put_in_play(0, "ner_orban_viktor");
    g.put_in_play(1, "osz_karacsony_gergely");
    g.state_mut().players[1].support = 1;
    g.campaign();
    assert_eq!(g.state().players[1].support, 8);
    inv(&g);
}

// Szél Bernadett: "Unity — ↷: Exposé 1." (activated only while Unity is active)
#[test]
fn osz_szel_bernadett_expose_gated_by_unity() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().players[1].scandal = 3;
    let s = g.put_in_play(0, "osz_szel_bernadett");
    g.put_in_play(0, "osz_juhasz_peter");
    assert!(!g.can_activate(s, 0, false), "LMP + Együtt: no Unity");
    g.main_options(0);
    assert!(!has_opt(&g, Opt::Activate(s, 0)));
    g.put_in_play(0, "osz_fekete_gyor_andras");
    assert!(g.can_activate(s, 0, false));
    g.main_options(0);
    assert!(has_opt(&g, Opt::Activate(s, 0)));
    g.activate(s, 0);
    assert_eq!(g.state().players[1].scandal, 2, "Exposé 1");
    assert_eq!(g.state().players[1].support, 19);
    assert!(g.state().inst[s as usize].exhausted);
    assert_eq!(g.state().players[0].exposes, 0, "in addition to the basic Exposé");
    inv(&g);
}

// Juhász Péter: "↷: target opponent gains 1 Scandal."
#[test]
fn osz_juhasz_peter_gives_target_opponent_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let j = g.enter_free(0, "osz_juhasz_peter");
    assert!(!g.can_activate(j, 0, false), "Fresh");
    g.state_mut().inst[j as usize].fresh = false;
    g.activate(j, 0);
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[0].scandal, 0);
    assert!(g.state().inst[j as usize].exhausted);
    inv(&g);
}

// Hangfelvétel: Reaction "Exposé 4." — it goes on the chain, its Exposé happens on resolution.
#[test]
fn osz_hangfelvetel_expose_four_resolves_from_the_chain() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().players[1].scandal = 5;
    g.add_bases(0, M, 2);
    let h = g.put_in_hand(0, "osz_hangfelvetel");
    g.play_card(0, h);
    assert_eq!(g.zone_of(h), Zone::Chain);
    assert_eq!(g.state().players[1].scandal, 5, "nothing yet while on the chain");
    g.window(1);
    assert_eq!(g.state().players[1].scandal, 1, "4 taken");
    assert_eq!(g.state().players[1].support, 16);
    assert_eq!(g.state().last_reducer[1], 0);
    assert_eq!(g.zone_of(h), Zone::Oblivion);
    assert_eq!(g.state().players[0].exposes, 0, "not the basic Exposé");
    inv(&g);
}

#[test]
fn osz_hangfelvetel_played_in_an_opponents_window() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().active = 1; // NER's turn
    g.state_mut().players[1].scandal = 6;
    g.add_bases(0, M, 2);
    let h = g.put_in_hand(0, "osz_hangfelvetel");
    g.script(0, &[Opt::Play(h)]);
    g.window(0);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].scandal, 2);
    assert_eq!(g.state().players[1].support, 16);
    inv(&g);
}

// Parameter: osz_hangfelvetel.expose = 1 → takes only 1.
#[test]
fn osz_hangfelvetel_param_expose_one() {
    let db = scenario::db(&[("osz_hangfelvetel.expose", 1)]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().players[1].scandal = 5;
    g.add_bases(0, M, 2);
    let h = g.put_in_hand(0, "osz_hangfelvetel");
    g.play_card(0, h);
    g.window(1);
    assert_eq!(g.state().players[1].scandal, 4);
    assert_eq!(g.state().players[1].support, 19);
    inv(&g);
}

// Közérdekű adatigénylés: Move "Target opponent gains 1 Scandal. Draw 1 card."
#[test]
fn osz_kozerdeku_adatigenyles_scandal_and_draw() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, M, 1);
    let k = g.put_in_hand(0, "osz_kozerdeku_adatigenyles");
    g.play_card(0, k);
    assert_eq!(g.state().players[0].hand.len(), 0);
    g.window(1);
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[0].hand.len(), 1);
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    let k2 = g.put_in_hand(0, "osz_kozerdeku_adatigenyles");
    assert!(!g.can_play_from_hand(0, k2, false), "M: the Base is spent");
    inv(&g);
}

// Bizalmatlansági indítvány: "Return target Figure to its owner's hand. Unity — the player who
// controlled that Figure also gains 1 Scandal."
#[test]
fn osz_bizalmatlansagi_inditvany_without_unity_no_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, M, 3);
    g.put_in_play(0, "osz_szakszervezeti_vezeto");
    g.put_in_play(0, "osz_dobrev_klara");
    let o = g.put_in_play(1, "ner_orban_viktor");
    let b = g.put_in_hand(0, "osz_bizalmatlansagi_inditvany");
    g.script(0, &[Opt::Card(o)]);
    g.play_card(0, b);
    g.window(1);
    assert_eq!(g.zone_of(o), Zone::Hand);
    assert!(g.state().players[1].hand.contains(&o));
    assert_eq!(g.state().players[1].scandal, 0, "two parties: no rider");
    inv(&g);
}

#[test]
fn osz_bizalmatlansagi_inditvany_with_unity_controller_gains_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    g.add_bases(0, M, 3);
    g.put_in_play(0, "osz_szakszervezeti_vezeto");
    g.put_in_play(0, "osz_dobrev_klara");
    g.put_in_play(0, "osz_fekete_gyor_andras");
    // Simicska, owned by NER, controlled by Tisza
    let s = g.put_in_play(1, "ner_simicska_lajos");
    g.change_control(s, 2);
    let b = g.put_in_hand(0, "osz_bizalmatlansagi_inditvany");
    g.script(0, &[Opt::Card(s)]);
    g.play_card(0, b);
    g.window(1);
    assert_eq!(g.zone_of(s), Zone::Hand);
    assert!(g.state().players[1].hand.contains(&s), "to the owner's hand");
    assert_eq!(g.state().players[2].scandal, 1, "the controller gains the Scandal");
    assert_eq!(g.state().players[1].scandal, 0);
    inv(&g);
}

// Visszalépés: "As an additional cost to play Visszalépés, Sacrifice a Figure you control. Gain 3
// Support and draw 1 card."
#[test]
fn osz_visszalepes_needs_a_figure_to_sacrifice() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, M, 1);
    let v = g.put_in_hand(0, "osz_visszalepes");
    assert!(!g.can_play_from_hand(0, v, false), "no Figure to Sacrifice");
    let j = g.put_in_play(0, "osz_juhasz_peter");
    let s = g.put_in_play(0, "osz_szel_bernadett");
    assert!(g.can_play_from_hand(0, v, false));
    g.script(0, &[Opt::Card(j)]);
    g.play_card(0, v);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.zone_of(j), Zone::Oblivion, "Sacrificed on announcement");
    assert_eq!(g.zone_of(s), Zone::Play);
    assert_eq!(g.state().players[0].support, 20, "nothing yet");
    g.window(1);
    assert_eq!(g.state().players[0].support, 23);
    assert_eq!(g.state().players[0].hand.len(), 1);
    inv(&g);
}

#[test]
fn osz_visszalepes_sacrifice_stays_paid_when_neutralized() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, M, 1);
    let j = g.put_in_play(0, "osz_juhasz_peter");
    let v = g.put_in_hand(0, "osz_visszalepes");
    g.play_card(0, v);
    assert_eq!(g.zone_of(j), Zone::Oblivion);
    g.add_bases(1, M, 2);
    let e = g.put_in_hand(1, "ner_ejszakai_torvenymodositas");
    g.script(1, &[Opt::Play(e)]);
    g.window(1);
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!(g.state().players[0].hand.len(), 0);
    assert_eq!(g.zone_of(j), Zone::Oblivion, "the additional cost stays paid");
    inv(&g);
}

// Közös lista: "Figures you control get +0/+1. Unity — they get +1/+1 instead."
#[test]
fn osz_kozos_lista_plus_zero_one_or_plus_one_one_with_unity() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.add_bases(0, M, 2);
    g.add_bases(0, U, 1);
    let k = g.put_in_hand(0, "osz_kozos_lista");
    g.play_card(0, k);
    assert_eq!(g.zone_of(k), Zone::Play);
    let s = g.put_in_play(0, "osz_szel_bernadett");
    let j = g.put_in_play(0, "osz_juhasz_peter");
    assert_eq!(stats(&g, s), (1, 4));
    assert_eq!(stats(&g, j), (1, 3));
    let f = g.put_in_play(0, "osz_fekete_gyor_andras");
    assert_eq!(stats(&g, s), (2, 4), "+1/+1 instead, not in addition");
    assert_eq!(stats(&g, j), (2, 3));
    assert_eq!(stats(&g, f), (3, 2));
    let o = g.put_in_play(1, "ner_gulyas_gergely");
    assert_eq!(stats(&g, o), (1, 3), "not the opponent's Figures");
    inv(&g);
}

// ----- token cards ----------------------------------------------------------------------------

// Kerítés (Fence): 0/3, "Can't attack."
#[test]
fn tok_kerites_cannot_attack() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    g.enter_free(0, "rad_toroczkai_laszlo");
    let fences = in_play_with_id(&g, 0, "tok_kerites");
    assert_eq!(fences.len(), 1, "Toroczkai creates 1 Fence");
    let f = fences[0];
    assert_eq!(stats(&g, f), (0, 3));
    assert_eq!(g.state().inst[f as usize].owner, -1, "token cards have no owner");
    g.state_mut().inst[f as usize].fresh = false;
    assert!(!g.can_attack(f), "can't attack even when not Fresh");
    assert!(!g.can_start_campaign(0), "Toroczkai is Fresh, the Fence can't attack");
    // it can block
    let o = g.put_in_play(1, "ner_orban_viktor");
    g.state_mut().active = 1;
    g.script(0, &[Opt::Block(f, o)]);
    g.campaign();
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!(g.zone_of(f), Zone::Box, "destroyed: back to the box");
    inv(&g);
}

// Szakadár (Splinter): 1/1, "Momentum." — attacks the turn it is created.
#[test]
fn tok_szakadar_has_momentum() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    g.add_bases(0, U, 2);
    let p = g.put_in_hand(0, "rad_partszakadas");
    g.play_card(0, p);
    g.window(1);
    let sp = in_play_with_id(&g, 0, "tok_szakadar");
    assert_eq!(sp.len(), 2);
    for &s in &sp {
        assert_eq!(stats(&g, s), (1, 1));
        assert!(g.state().inst[s as usize].fresh);
        assert!(g.can_attack(s), "Momentum");
    }
    g.script(0, &[Opt::Attack(sp[0], 1), Opt::Attack(sp[1], 1)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].support, 18);
    inv(&g);
}

/// R14.1 (E72) with Karácsony Gergely's rescue: the rescue Sacrifices him, which can end
/// Unity; a damaged Szakszervezeti vezető that loses its Unity +1/+1 must die in the same state
/// check (found by the fuzzer's "damage < Credibility after every state check" invariant).
#[test]
fn osz_karacsony_gergely_rescue_rechecks_figures_in_the_same_state_check() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let k = g.put_in_play(1, "osz_karacsony_gergely"); // Párbeszéd
    let sz = g.put_in_play(1, "osz_szakszervezeti_vezeto"); // MSZP, 1/2, Unity +1/+1
    g.put_in_play(1, "osz_dobrev_klara"); // DK: three parties, Unity on
    assert_eq!(g.credibility(sz), 3);
    g.state_mut().inst[sz as usize].damage = 2; // survives while Unity holds
    g.state_check();
    assert_eq!(g.zone_of(sz), Zone::Play);
    g.state_mut().players[1].support = 0; // knocked out: Karácsony saves, Unity ends (two parties left)
    g.state_check();
    assert_eq!(g.state().players[1].support, 5);
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    assert_eq!(g.zone_of(sz), Zone::Oblivion, "without Unity it is 1/2 with 2 damage: knocked out at once");
    inv(&g);
}

// Parameters: every value of the die-band tops (0..=6) is a table, read in order (self,
// opponent, draw, then Exposé). An overlapping or empty band is not an error.
fn marki_zay_roll_with(o: &[(&str, i64)], k: u8) -> (i32, i32, i32, usize) {
    let db = scenario::db(o);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "osz_marki_zay_peter");
    g.state_mut().players[1].scandal = 3;
    g.hooks_mut().forced_die = Some(k);
    turn_of(&mut g, 0);
    inv(&g);
    (g.state().players[0].scandal, g.state().players[1].scandal, g.state().players[1].support, g.state().players[0].hand.len())
}

#[test]
fn param_marki_zay_die_bands_any_tops() {
    // self band up to 4 swallows the opponent band (top 3): rolls 1-4 give you Scandal
    let o = [("osz_marki_zay_peter.self_scandal_max_roll", 4)];
    assert_eq!(marki_zay_roll_with(&o, 3), (1, 3, 20, 1));
    assert_eq!(marki_zay_roll_with(&o, 5), (0, 3, 20, 2), "5 is still a draw");
    // self band 0: a 1 is the opponent's Scandal
    let o = [("osz_marki_zay_peter.self_scandal_max_roll", 0)];
    assert_eq!(marki_zay_roll_with(&o, 1), (0, 4, 20, 1));
    // draw band up to 6: no Exposé at all
    let o = [("osz_marki_zay_peter.draw_max_roll", 6)];
    assert_eq!(marki_zay_roll_with(&o, 6), (0, 3, 20, 2));
    // out of the declared range: a clear error
    let raw = ketharmad::cards::load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let e = ketharmad::cards::build_db(&raw, &[("osz_marki_zay_peter.draw_max_roll".into(), ketharmad::cards::ParamValue::Int(7))]).err().unwrap();
    assert!(e.contains("out of range"), "{e}");
}
