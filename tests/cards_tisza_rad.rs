//! Per-card scenario tests: every Tisza (`tis_`) and Radikálisok (`rad_`) card of
//! /work/shared/spec/cards.md §5–§6, with the keyword rules of §2 (Defector, Movement, Sympathy,
//! Outrage, Momentum, Lone, Border Closure) and the token supply limit (rules.md R2.7.1, E3).
//! Each test names the card it checks and asserts the exact resulting state.

use ketharmad::cards::{Cost, M, U};
use ketharmad::engine::scenario;
use ketharmad::engine::{Cid, Game, Opt, Zone};

// ----- helpers -------------------------------------------------------------------------------

fn ok(g: &Game<'_>) {
    if let Err(e) = g.invariants() {
        panic!("invariants broken: {e}");
    }
}

/// Run one whole turn of seat `p` (Wake, Draw, Action, Close). `p` is made not the start
/// player so that no Event is flipped in this Wake (R7.1.1, R12.6).
fn turn_of(g: &mut Game<'_>, p: usize) {
    g.state_mut().active = p;
    g.state_mut().start_player = (p + 1) % g.state().n;
    g.take_turn();
}

fn ids_in_play(g: &Game<'_>, p: usize, id: &str) -> Vec<Cid> {
    g.state().players[p].play.iter().copied().filter(|&c| g.def(c).id == id).collect()
}

fn in_box(g: &Game<'_>, id: &str) -> usize {
    g.state().token_box.iter().filter(|&&c| g.def(c).id == id).count()
}

fn exhausted(g: &Game<'_>, cs: &[Cid]) -> usize {
    cs.iter().filter(|&&c| g.state().inst[c as usize].exhausted).count()
}

fn cost(generic: i16, m: i16, u: i16) -> Cost {
    Cost { generic, pips: [0, m, u] }
}

fn counters(g: &Game<'_>, c: Cid) -> i16 {
    g.state().inst[c as usize].counters
}

// ----- Bases: "↷: add U/M. Swap." -------------------------------------------------------------

/// A Base pays exactly its printed resource (not the other colour), is exhausted by paying,
/// and Swap (cards.md §2) works: pay 1 generic, the Base goes from hand to Oblivion, draw 1, and
/// it is not a Base play.
fn base_resource_and_swap(faction: &str, id: &str, res: usize) {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &[faction, "ner"]);
    let b = g.put_in_play(0, id);
    assert_eq!(g.def(b).produces, Some(res));
    let other = if res == M { U } else { M };
    let mut want = Cost::default();
    want.pips[res] = 1;
    let mut wrong = Cost::default();
    wrong.pips[other] = 1;
    assert!(!g.can_pay(0, wrong), "{id} must not pay a {other} pip");
    assert!(g.can_pay(0, want));
    g.pay(0, want);
    assert!(g.state().inst[b as usize].exhausted, "paying exhausts the Base (↷)");
    assert_eq!(g.state().players[0].pool, [0, 0, 0], "the added resource was spent on the pip");
    assert!(!g.can_pay(0, want), "an exhausted Base gives nothing");

    // Swap in the Action phase of the next turn (the Base readies in Wake), then a Base play
    // is still allowed in the same turn.
    let h = g.put_in_hand(0, id);
    let h2 = g.put_in_hand(0, id);
    let deck = g.state().players[0].deck.len();
    g.script(0, &[Opt::Swap(h), Opt::PlayBase(h2)]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0, "Swap and then a Base play were offered");
    assert_eq!(g.zone_of(h), Zone::Oblivion);
    assert!(g.state().players[0].oblivion.contains(&h));
    assert_eq!(g.zone_of(h2), Zone::Play);
    assert!(g.state().inst[b as usize].exhausted, "the Swap's 1 generic was paid by the Base in play");
    assert!(!g.state().inst[h2 as usize].exhausted);
    assert_eq!(g.state().players[0].deck.len(), deck - 2, "Draw step + Swap's draw");
    assert_eq!(g.state().players[0].hand.len(), 2, "2 + draw − swapped + drawn − played");
    assert_eq!(g.state().players[0].bases_played, 1, "Swap is not a Base play");
    ok(&g);
}

#[test]
fn tis_base_lakossagi_forum_adds_u_and_swaps() {
    base_resource_and_swap("tisza", "tis_base_lakossagi_forum", U);
}

#[test]
fn tis_base_onkentesek_adds_u_and_swaps() {
    base_resource_and_swap("tisza", "tis_base_onkentesek", U);
}

#[test]
fn tis_base_facebook_elo_adds_m_and_swaps() {
    base_resource_and_swap("tisza", "tis_base_facebook_elo", M);
}

#[test]
fn tis_base_hirlevel_adds_m_and_swaps() {
    base_resource_and_swap("tisza", "tis_base_hirlevel", M);
}

#[test]
fn rad_base_utcai_gyules_adds_u_and_swaps() {
    base_resource_and_swap("radikalisok", "rad_base_utcai_gyules", U);
}

#[test]
fn rad_base_videki_alapszervezet_adds_u_and_swaps() {
    base_resource_and_swap("radikalisok", "rad_base_videki_alapszervezet", U);
}

#[test]
fn rad_base_barikad_adds_m_and_swaps() {
    base_resource_and_swap("radikalisok", "rad_base_barikad", M);
}

#[test]
fn rad_base_nemzeti_portal_adds_m_and_swaps() {
    base_resource_and_swap("radikalisok", "rad_base_nemzeti_portal", M);
}

// ----- Magyar Péter -----------------------------------------------------------------------

// "Whenever you put a Base into play, put 1 Sympathy counter on Magyar Péter."
#[test]
fn tis_magyar_peter_counter_per_base() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    let b1 = g.put_in_hand(0, "tis_base_lakossagi_forum");
    let b2 = g.put_in_hand(0, "tis_base_hirlevel");
    g.script(0, &[Opt::PlayBase(b1)]);
    turn_of(&mut g, 0);
    assert_eq!(g.zone_of(b1), Zone::Play);
    assert_eq!(counters(&g, mp), 1);
    assert_eq!((g.influence(mp), g.credibility(mp)), (2, 2), "a Sympathy counter is +1/+1 (R13.4)");
    g.script(0, &[Opt::PlayBase(b2)]);
    turn_of(&mut g, 0);
    assert_eq!(g.zone_of(b2), Zone::Play);
    assert_eq!(counters(&g, mp), 2);
    // an opponent's Base is not "you put a Base into play"
    let nb = g.find_free(1, "ner_base_stadion");
    g.enter_play(nb, 1);
    // neither is a Figure or a token entering play
    g.enter_free(0, "tis_tisza_sziget");
    assert_eq!(counters(&g, mp), 2);
    ok(&g);
}

// "While he has 3 or more Sympathy counters (from any source), he can't be blocked."
#[test]
fn tis_magyar_peter_unblockable_at_three_counters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    g.add_counters(mp, 3); // counters from any source count
    let kover = g.put_in_play(1, "ner_kover_laszlo"); // 1/4, ready
    g.script(0, &[Opt::Attack(mp, 1)]);
    g.script(1, &[Opt::Block(kover, mp)]);
    g.campaign();
    // The only option left to the defender was Done (auto-taken): the Block was never offered.
    assert_eq!(g.script_left(1), 1, "Opt::Block(Kövér, Magyar Péter) must not be offered");
    assert_eq!(g.state().players[1].support, 20 - 4, "unblocked 4/4");
    assert_eq!(g.state().inst[kover as usize].damage, 0);
    ok(&g);
}

#[test]
fn tis_magyar_peter_blockable_below_three_counters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    g.add_counters(mp, 2);
    let kover = g.put_in_play(1, "ner_kover_laszlo");
    g.script(0, &[Opt::Attack(mp, 1)]);
    g.script(1, &[Opt::Block(kover, mp)]);
    g.campaign();
    assert_eq!(g.script_left(1), 0, "the block was offered and taken");
    assert_eq!(g.state().players[1].support, 20);
    assert_eq!(g.state().inst[mp as usize].damage, 1, "Kövér's 1 damage stays until the Close; 1 < 3 Credibility");
    // Kövér took 3 (MP 3/3), survives with 4 Credibility; MP took 1
    assert_eq!(g.zone_of(kover), Zone::Play);
    assert_eq!(g.state().inst[kover as usize].damage, 3);
    ok(&g);
}

// Parameter: tis_magyar_peter.unblockable_counters = 2 makes him unblockable at 2 counters.
#[test]
fn tis_magyar_peter_param_unblockable_counters() {
    let db = scenario::db(&[("tis_magyar_peter.unblockable_counters", 2), ("tis_magyar_peter.sympathy_per_base", 2)]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    let b = g.find_free(0, "tis_base_onkentesek");
    g.enter_play(b, 0); // a Base put into play: 2 counters with sympathy_per_base = 2
    assert_eq!(counters(&g, mp), 2);
    let kover = g.put_in_play(1, "ner_kover_laszlo");
    g.script(0, &[Opt::Attack(mp, 1)]);
    g.script(1, &[Opt::Block(kover, mp)]);
    g.campaign();
    assert_eq!(g.script_left(1), 1, "unblockable at 2 counters");
    assert_eq!(g.state().players[1].support, 20 - 3);
    ok(&g);
}

// ----- Movement ------------------------------------------------------------------------------

// Movement 2: one counter at the start of each of your turns while it has fewer than 2.
#[test]
fn tis_tisza_sziget_movement_stops_at_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let s = g.put_in_play(0, "tis_tisza_sziget");
    let mut seen = Vec::new();
    for _ in 0..3 {
        turn_of(&mut g, 0);
        seen.push(counters(&g, s));
    }
    assert_eq!(seen, vec![1, 2, 2]);
    assert_eq!((g.influence(s), g.credibility(s)), (3, 3));
    // an opponent's turn gives nothing
    turn_of(&mut g, 1);
    assert_eq!(counters(&g, s), 2);
    ok(&g);
}

// Parameter: tis_tisza_sziget.movement = 3 grows to 3.
#[test]
fn tis_tisza_sziget_param_movement() {
    let db = scenario::db(&[("tis_tisza_sziget.movement", 3)]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let s = g.put_in_play(0, "tis_tisza_sziget");
    for _ in 0..4 {
        turn_of(&mut g, 0);
    }
    assert_eq!(counters(&g, s), 3);
    ok(&g);
}

// Vitézy Dávid: Defector 1 (1U → U) and Movement 2 counting counters from any source.
#[test]
fn tis_vitezy_david_defector_and_movement() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let v = g.put_in_hand(0, "tis_vitezy_david");
    let bases = g.add_bases(0, U, 1);
    assert_eq!(g.play_cost(0, v), cost(1, 0, 1));
    assert!(!g.can_play_from_hand(0, v, false));
    g.put_in_play(1, "ner_kozmedia");
    assert_eq!(g.play_cost(0, v), cost(0, 0, 1));
    assert!(g.can_play_from_hand(0, v, false));
    g.play_card(0, v);
    assert_eq!(g.zone_of(v), Zone::Play);
    assert_eq!(exhausted(&g, &bases), 1);
    g.add_counters(v, 1); // a counter from another source
    turn_of(&mut g, 0);
    assert_eq!(counters(&g, v), 2, "Movement adds one: 1 → 2");
    turn_of(&mut g, 0);
    assert_eq!(counters(&g, v), 2, "stops at 2 counters from any source");
    assert_eq!((g.influence(v), g.credibility(v)), (3, 4));
    ok(&g);
}

// ----- Defector --------------------------------------------------------------------------

// Defector 2 with an opponent's Institution: 2U costs U; only the generic part is reduced.
#[test]
fn tis_kiabrandult_fideszes_defector_with_opponent_institution() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let kf = g.put_in_hand(0, "tis_kiabrandult_fideszes");
    let bases = g.add_bases(0, U, 3);
    g.put_in_play(1, "ner_rezsicsokkentes");
    assert_eq!(g.play_cost(0, kf), cost(0, 0, 1));
    g.play_card(0, kf);
    assert_eq!(g.zone_of(kf), Zone::Play);
    assert_eq!(exhausted(&g, &bases), 1, "paid U only");
    assert_eq!(g.state().players[0].pool, [0, 0, 0]);
    assert_eq!((g.influence(kf), g.credibility(kf)), (2, 3));
    ok(&g);
}

#[test]
fn tis_kiabrandult_fideszes_defector_without_opponent_institution() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let kf = g.put_in_hand(0, "tis_kiabrandult_fideszes");
    // own Institutions do not count
    g.put_in_play(0, "tis_tisza_szigetek_halozata");
    let one = g.add_bases(0, U, 1);
    assert_eq!(g.play_cost(0, kf), cost(2, 0, 1));
    assert!(!g.can_play_from_hand(0, kf, false), "2U is not payable with one Base");
    let more = g.add_bases(0, U, 2);
    g.play_card(0, kf);
    assert_eq!(g.zone_of(kf), Zone::Play);
    assert_eq!(exhausted(&g, &one) + exhausted(&g, &more), 3, "full 2U paid");
    ok(&g);
}

// Defector counts any Institution an opponent controls, Newsfeed ones included.
#[test]
fn tis_kiabrandult_fideszes_defector_newsfeed_institution() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let kf = g.put_in_hand(0, "tis_kiabrandult_fideszes");
    g.put_in_play(1, "nf_hvg");
    assert_eq!(g.play_cost(0, kf), cost(0, 0, 1));
    ok(&g);
}

// Parameter: defector = 0 gives no reduction; defector = 5 cannot take the generic below 0
// and never touches the U pip.
#[test]
fn tis_kiabrandult_fideszes_param_defector() {
    let db0 = scenario::db(&[("tis_kiabrandult_fideszes.defector", 0)]);
    let mut g = scenario::game(&db0, &["tisza", "ner"]);
    let kf = g.put_in_hand(0, "tis_kiabrandult_fideszes");
    g.put_in_play(1, "ner_rezsicsokkentes");
    assert_eq!(g.play_cost(0, kf), cost(2, 0, 1));
    let db5 = scenario::db(&[("tis_kiabrandult_fideszes.defector", 5)]);
    let mut g = scenario::game(&db5, &["tisza", "ner"]);
    let kf = g.put_in_hand(0, "tis_kiabrandult_fideszes");
    g.put_in_play(1, "ner_rezsicsokkentes");
    assert_eq!(g.play_cost(0, kf), cost(0, 0, 1));
    let m = g.add_bases(0, M, 3);
    assert!(!g.can_play_from_hand(0, kf, false), "the U pip is never reduced");
    let u = g.add_bases(0, U, 1);
    g.play_card(0, kf);
    assert_eq!(exhausted(&g, &m) + exhausted(&g, &u), 1);
    ok(&g);
}

// Kapitány István: Defector 1 (2M → 1M), draws 1 card when he enters play.
#[test]
fn tis_kapitany_istvan_defector_and_draw() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let k = g.put_in_hand(0, "tis_kapitany_istvan");
    let bases = [g.add_bases(0, M, 1), g.add_bases(0, U, 1)].concat();
    assert_eq!(g.play_cost(0, k), cost(2, 1, 0));
    assert!(!g.can_play_from_hand(0, k, false));
    g.put_in_play(1, "ner_legfobb_ugyeszseg");
    assert_eq!(g.play_cost(0, k), cost(1, 1, 0));
    let deck = g.state().players[0].deck.len();
    g.play_card(0, k);
    assert_eq!(g.zone_of(k), Zone::Play);
    assert_eq!(exhausted(&g, &bases), 2);
    assert_eq!(g.state().players[0].hand.len(), 1, "drew 1");
    assert_eq!(g.state().players[0].deck.len(), deck - 1);
    ok(&g);
}

// Ruszin-Szendi Romulusz: Defector 2 (3UU → 1UU); other Figures you control get +0/+1.
#[test]
fn tis_ruszin_szendi_romulusz_defector_and_anthem() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let r = g.put_in_hand(0, "tis_ruszin_szendi_romulusz");
    let s = g.put_in_play(0, "tis_tisza_sziget");
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    let bases = g.add_bases(0, U, 3);
    assert_eq!(g.play_cost(0, r), Cost { generic: 3, pips: [0, 0, 2] });
    assert!(!g.can_play_from_hand(0, r, false));
    g.put_in_play(1, "ner_kozmedia");
    assert_eq!(g.play_cost(0, r), Cost { generic: 1, pips: [0, 0, 2] });
    g.play_card(0, r);
    assert_eq!(exhausted(&g, &bases), 3);
    assert_eq!((g.influence(r), g.credibility(r)), (4, 4), "not himself");
    assert_eq!((g.influence(s), g.credibility(s)), (1, 2));
    assert_eq!((g.influence(semjen), g.credibility(semjen)), (2, 2), "not the opponent's");
    ok(&g);
}

// ----- Tarr Zoltán: Sympathy 2 -------------------------------------------------------------

#[test]
fn tis_tarr_zoltan_sympathy_on_himself() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    let t = g.put_in_hand(0, "tis_tarr_zoltan");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 2);
    assert_eq!(g.play_cost(0, t), cost(1, 1, 1));
    g.script(0, &[Opt::Card(t)]);
    g.play_card(0, t);
    assert_eq!(g.script_left(0), 0, "Tarr himself was a legal target");
    assert_eq!(counters(&g, t), 2);
    assert_eq!(counters(&g, mp), 0);
    assert_eq!((g.influence(t), g.credibility(t)), (4, 4));
    ok(&g);
}

#[test]
fn tis_tarr_zoltan_sympathy_on_another_figure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    g.add_counters(mp, 1);
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    let t = g.put_in_hand(0, "tis_tarr_zoltan");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 2);
    g.script(0, &[Opt::Card(mp)]);
    g.play_card(0, t);
    assert_eq!(counters(&g, mp), 3);
    assert_eq!(counters(&g, t), 0);
    assert_eq!(counters(&g, semjen), 0);
    assert!(g.unblockable(mp), "Tarr pushes Magyar Péter to three counters");
    ok(&g);
}

// ----- Outrage -------------------------------------------------------------------------------

// Outrage: at most one counter per turn however much Scandal opponents gain; again next turn.
#[test]
fn tis_forsthoffer_agnes_outrage_once_per_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let fa = g.put_in_play(0, "tis_forsthoffer_agnes");
    assert_eq!((g.influence(fa), g.credibility(fa)), (1, 3));
    g.gain_scandal(0, 2); // own Scandal: not an opponent's
    assert_eq!(counters(&g, fa), 0);
    g.gain_scandal(1, 1);
    assert_eq!(counters(&g, fa), 1);
    g.gain_scandal(1, 3);
    g.gain_scandal(1, 1);
    assert_eq!(counters(&g, fa), 1, "only the first time in the turn");
    // next turn (the opponent's): the opponent plays Mészáros Lőrinc (Scandal 1)
    let m = g.put_in_hand(1, "ner_meszaros_lorinc");
    g.add_bases(1, 0, 2);
    g.script(1, &[Opt::Play(m)]);
    turn_of(&mut g, 1);
    assert_eq!(g.zone_of(m), Zone::Play);
    assert_eq!(g.state().players[1].scandal, 6);
    assert_eq!(counters(&g, fa), 2, "again in the next turn");
    ok(&g);
}

// Orbán Anita: Defector 1 (1M → M); Outrage fires on Events too (Kvótanépszavazás).
#[test]
fn tis_orban_anita_defector_and_outrage_from_event() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let a = g.put_in_hand(0, "tis_orban_anita");
    let bases = g.add_bases(0, M, 1);
    assert_eq!(g.play_cost(0, a), cost(1, 1, 0));
    assert!(!g.can_play_from_hand(0, a, false));
    g.put_in_play(1, "nf_444");
    assert_eq!(g.play_cost(0, a), cost(0, 1, 0));
    g.play_card(0, a);
    assert_eq!(exhausted(&g, &bases), 1);
    g.force_event("ev_kvotanepszavazas"); // every player gains 1 Scandal
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[0].scandal, 1);
    assert_eq!(counters(&g, a), 1);
    assert_eq!((g.influence(a), g.credibility(a)), (2, 3));
    ok(&g);
}

// Tüntető diák: Outrage from any source (a card's Scandal N); several opponents gaining in
// one turn still give one counter per Outrage Figure; each Outrage Figure gets its own.
#[test]
fn tis_tunteto_diak_outrage_several_opponents() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner", "radikalisok"]);
    let d = g.put_in_play(0, "tis_tunteto_diak");
    let fa = g.put_in_play(0, "tis_forsthoffer_agnes");
    g.enter_free(2, "rad_duro_dora"); // Scandal 1 for seat 2
    assert_eq!(g.state().players[2].scandal, 1);
    assert_eq!((counters(&g, d), counters(&g, fa)), (1, 1));
    g.enter_free(1, "ner_matolcsy_gyorgy"); // Scandal 2 for seat 1
    assert_eq!(g.state().players[1].scandal, 2);
    assert_eq!((counters(&g, d), counters(&g, fa)), (1, 1));
    assert_eq!((g.influence(d), g.credibility(d)), (2, 2));
    ok(&g);
}

// ----- Országjárás ---------------------------------------------------------------------------

#[test]
fn tis_orszagjaras_counter_on_each_own_figure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    let s = g.put_in_play(0, "tis_tisza_sziget");
    let tok = g.put_in_play(0, "tok_szakadar");
    let inst = g.put_in_play(0, "tis_tisza_szigetek_halozata");
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    let o = g.put_in_hand(0, "tis_orszagjaras");
    let bases = g.add_bases(0, U, 3);
    g.play_card(0, o);
    g.resolve_top();
    assert_eq!(g.zone_of(o), Zone::Oblivion);
    assert_eq!(exhausted(&g, &bases), 3);
    assert_eq!((counters(&g, mp), counters(&g, s), counters(&g, tok)), (1, 1, 1));
    assert_eq!(counters(&g, inst), 0, "Institutions are not Figures");
    assert_eq!(counters(&g, semjen), 0, "not the opponent's Figures");
    assert_eq!((g.influence(tok), g.credibility(tok)), (2, 2));
    ok(&g);
}

// ----- Szavazatszámláló delegáltak -----------------------------------------------------------

#[test]
fn tis_szavazatszamlalo_delegaltak_cantrip_and_supermajority() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let orban = g.put_in_play(1, "ner_orban_viktor");
    g.put_in_play(1, "ner_rezsicsokkentes");
    g.put_in_play(1, "ner_legfobb_ugyeszseg");
    assert!(g.supermajority(1));
    assert_eq!((g.influence(orban), g.credibility(orban)), (6, 7), "Supermajority +1/+1 with 2 Institutions");
    let d = g.put_in_hand(0, "tis_szavazatszamlalo_delegaltak");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 2);
    let deck = g.state().players[0].deck.len();
    g.play_card(0, d);
    assert_eq!(g.zone_of(d), Zone::Play);
    assert_eq!(g.state().players[0].hand.len(), 1, "draw 1 card");
    assert_eq!(g.state().players[0].deck.len(), deck - 1);
    assert!(!g.supermajority(1), "an opponent's Supermajority now needs 3 Institutions");
    assert_eq!((g.influence(orban), g.credibility(orban)), (5, 6));
    g.put_in_play(1, "ner_kozmedia");
    assert!(g.supermajority(1));
    assert_eq!((g.influence(orban), g.credibility(orban)), (6, 7));
    ok(&g);
}

// A Propaganda Figure attacking the controller of Szavazatszámláló delegáltak can be blocked
// by one Figure alone.
#[test]
fn tis_szavazatszamlalo_delegaltak_single_block_of_propaganda() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    g.put_in_play(0, "tis_szavazatszamlalo_delegaltak");
    let kf = g.put_in_play(0, "tis_kiabrandult_fideszes"); // 2/3
    let rogan = g.put_in_play(1, "ner_rogan_antal"); // 3/4 Propaganda
    g.state_mut().active = 1;
    g.script(1, &[Opt::Attack(rogan, 0)]);
    g.script(0, &[Opt::Block(kf, rogan)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0, "a single block was offered");
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!(g.zone_of(kf), Zone::Oblivion, "3 damage ≥ 3 Credibility");
    assert_eq!(g.state().inst[rogan as usize].damage, 2);
    ok(&g);
}

#[test]
fn tis_szavazatszamlalo_delegaltak_absent_propaganda_needs_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let kf = g.put_in_play(0, "tis_kiabrandult_fideszes");
    let rogan = g.put_in_play(1, "ner_rogan_antal");
    g.state_mut().active = 1;
    g.script(1, &[Opt::Attack(rogan, 0)]);
    g.script(0, &[Opt::Block(kf, rogan)]);
    g.campaign();
    assert_eq!(g.script_left(0), 1, "without Delegáltak one Figure cannot block Propaganda");
    assert_eq!(g.state().players[0].support, 17);
    assert_eq!(g.zone_of(kf), Zone::Play);
    ok(&g);
}

// With 3 players the exception is only for attacks on the Delegáltak's controller.
#[test]
fn tis_szavazatszamlalo_delegaltak_only_protects_its_controller() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner", "radikalisok"]);
    g.put_in_play(0, "tis_szavazatszamlalo_delegaltak");
    let ua = g.put_in_play(2, "rad_utcai_harcos");
    let rogan = g.put_in_play(1, "ner_rogan_antal");
    g.state_mut().active = 1;
    g.script(1, &[Opt::Attack(rogan, 2)]);
    g.script(2, &[Opt::Block(ua, rogan)]);
    g.campaign();
    assert_eq!(g.script_left(2), 1, "seat 2 has no Delegáltak: one blocker is not enough");
    assert_eq!(g.state().players[2].support, 17);
    assert_eq!(g.state().players[0].support, 20);
    ok(&g);
}

// ----- Tisza-szigetek hálózata: "At the start of your turn: Sympathy 1." ---------------------

#[test]
fn tis_tisza_szigetek_halozata_sympathy_each_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    g.put_in_play(0, "tis_tisza_szigetek_halozata");
    // no Figure: nothing happens
    turn_of(&mut g, 0);
    let mp = g.put_in_play(0, "tis_magyar_peter");
    let fa = g.put_in_play(0, "tis_forsthoffer_agnes");
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    g.script(0, &[Opt::Card(fa)]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0);
    assert_eq!((counters(&g, mp), counters(&g, fa), counters(&g, semjen)), (0, 1, 0));
    g.script(0, &[Opt::Card(mp)]);
    turn_of(&mut g, 0);
    assert_eq!((counters(&g, mp), counters(&g, fa)), (1, 1));
    // not in the opponent's turn
    turn_of(&mut g, 1);
    assert_eq!((counters(&g, mp), counters(&g, fa)), (1, 1));
    ok(&g);
}

// ----- Élő bejelentkezés ------------------------------------------------------------------

#[test]
fn tis_elo_bejelentkezes_scandal_and_draw_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner", "osszefogas"]);
    let e = g.put_in_hand(0, "tis_elo_bejelentkezes");
    let bases = g.add_bases(0, M, 3);
    let deck = g.state().players[0].deck.len();
    g.script(0, &[Opt::Player(2)]);
    g.play_card(0, e);
    g.resolve_top();
    assert_eq!(exhausted(&g, &bases), 3);
    assert_eq!((g.state().players[1].scandal, g.state().players[2].scandal), (0, 1), "the chosen opponent only");
    assert_eq!(g.state().players[0].scandal, 0);
    assert_eq!(g.state().players[0].hand.len(), 2);
    assert_eq!(g.state().players[0].deck.len(), deck - 2);
    assert_eq!(g.zone_of(e), Zone::Oblivion);
    ok(&g);
}

// ----- Közfelháborodás --------------------------------------------------------------------

// X = the highest Scandal among opponents at resolution, capped at 4; fixed afterwards.
#[test]
fn tis_kozfelhaborodas_x_capped_at_four() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner", "radikalisok"]);
    let s = g.put_in_play(0, "tis_tisza_sziget");
    let k = g.put_in_hand(0, "tis_kozfelhaborodas");
    g.add_bases(0, U, 2);
    g.state_mut().players[1].scandal = 2;
    g.state_mut().players[2].scandal = 6;
    g.play_card(0, k);
    g.resolve_top();
    assert_eq!((g.influence(s), g.credibility(s)), (5, 5), "+4/+4, not +6/+6");
    g.state_mut().players[2].scandal = 0;
    assert_eq!((g.influence(s), g.credibility(s)), (5, 5), "X was read once");
    ok(&g);
}

#[test]
fn tis_kozfelhaborodas_x_highest_opponent_only() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner", "radikalisok"]);
    let s = g.put_in_play(0, "tis_tisza_sziget");
    let k = g.put_in_hand(0, "tis_kozfelhaborodas");
    g.add_bases(0, U, 2);
    g.state_mut().players[0].scandal = 5; // own Scandal does not count
    g.state_mut().players[1].scandal = 1;
    g.state_mut().players[2].scandal = 2;
    g.play_card(0, k);
    // read when it resolves, not when played
    g.state_mut().players[1].scandal = 3;
    g.resolve_top();
    assert_eq!((g.influence(s), g.credibility(s)), (4, 4));
    ok(&g);
}

// As a Reaction in the opponent's Campaign window; the bonus ends in the Close step.
#[test]
fn tis_kozfelhaborodas_reaction_in_opponents_campaign() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let s = g.put_in_play(0, "tis_tisza_sziget"); // 1/1
    let k = g.put_in_hand(0, "tis_kozfelhaborodas");
    let bases = g.add_bases(0, U, 2);
    let semjen = g.put_in_play(1, "ner_semjen_zsolt"); // 2/2
    g.state_mut().players[1].scandal = 3;
    // seat 0 passes in the Wake and Draw windows of seat 1's turn, blocks, then reacts
    g.script(0, &[Opt::Pass, Opt::Pass, Opt::Block(s, semjen), Opt::Play(k)]);
    // (the single attacker option is taken automatically, R8.8)
    g.script(1, &[Opt::Campaign]);
    turn_of(&mut g, 1);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.script_left(1), 0);
    assert_eq!(exhausted(&g, &bases), 2);
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    assert_eq!(g.zone_of(semjen), Zone::Oblivion, "the 4/4 blocker (X = 3) dealt 4");
    assert_eq!(g.zone_of(s), Zone::Play, "took 2 < 4");
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!((g.influence(s), g.credibility(s)), (1, 1), "until end of turn only");
    assert_eq!(g.state().inst[s as usize].damage, 0);
    ok(&g);
}

// Parameter: tis_kozfelhaborodas.max_x = 2.
#[test]
fn tis_kozfelhaborodas_param_max_x() {
    let db = scenario::db(&[("tis_kozfelhaborodas.max_x", 2)]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let s = g.put_in_play(0, "tis_tisza_sziget");
    let k = g.put_in_hand(0, "tis_kozfelhaborodas");
    g.add_bases(0, U, 2);
    g.state_mut().players[1].scandal = 5;
    g.play_card(0, k);
    g.resolve_top();
    assert_eq!((g.influence(s), g.credibility(s)), (3, 3));
    ok(&g);
}

// ----- EP-választási siker ----------------------------------------------------------------

#[test]
fn tis_ep_valasztasi_siker_capped_at_five() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    for id in ["tis_magyar_peter", "tis_tisza_sziget", "tis_tisza_sziget", "tis_tarr_zoltan", "tis_forsthoffer_agnes", "tis_kapitany_istvan", "tis_vitezy_david"] {
        g.put_in_play(0, id);
    }
    assert_eq!(g.figure_count(0), 7);
    let e = g.put_in_hand(0, "tis_ep_valasztasi_siker");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 2);
    g.play_card(0, e);
    g.resolve_top();
    assert_eq!(g.state().players[0].support, 25, "7 Figures, at most 5 Support");
    ok(&g);
}

#[test]
fn tis_ep_valasztasi_siker_per_own_figure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    g.put_in_play(0, "tis_magyar_peter");
    g.put_in_play(0, "tis_tisza_sziget");
    g.put_in_play(0, "tok_szakadar"); // token cards count as Figures
    g.put_in_play(0, "tis_tisza_szigetek_halozata"); // not a Figure
    g.put_in_play(1, "ner_semjen_zsolt");
    g.put_in_play(1, "ner_kover_laszlo");
    let e = g.put_in_hand(0, "tis_ep_valasztasi_siker");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 2);
    g.play_card(0, e);
    g.resolve_top();
    assert_eq!(g.state().players[0].support, 23);
    assert_eq!(g.state().players[1].support, 20);
    ok(&g);
}

// Under an opponent's Border Closure the Support gain does nothing.
#[test]
fn tis_ep_valasztasi_siker_under_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "radikalisok"]);
    g.put_in_play(0, "tis_magyar_peter");
    g.put_in_play(0, "tis_tisza_sziget");
    g.put_in_play(1, "rad_hatarzar");
    let e = g.put_in_hand(0, "tis_ep_valasztasi_siker");
    let bases = [g.add_bases(0, M, 1), g.add_bases(0, U, 2)].concat();
    g.play_card(0, e);
    g.resolve_top();
    assert_eq!(exhausted(&g, &bases), 3, "the cost is still paid");
    assert_eq!(g.state().players[0].support, 20);
    ok(&g);
}

// ----- Radikálisok: Momentum, lords, Lone ----------------------------------------------------

// Momentum: attacks in the turn it enters play.
#[test]
fn rad_radikalis_aktivista_momentum_attacks_when_fresh() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let a = g.put_in_hand(0, "rad_radikalis_aktivista");
    let h = g.put_in_hand(0, "rad_utcai_harcos");
    g.add_bases(0, U, 3);
    g.play_card(0, a);
    g.play_card(0, h);
    assert!(g.state().inst[a as usize].fresh && g.state().inst[h as usize].fresh);
    assert!(g.can_attack(a), "Momentum");
    assert!(!g.can_attack(h), "a Fresh Figure without Momentum can't attack");
    g.script(0, &[Opt::Attack(a, 1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 19);
    assert!(g.state().inst[a as usize].exhausted);
    ok(&g);
}

// Sneider Tamás: other Figures you control get +1/+0 (tokens included, not himself, not the
// opponent's).
#[test]
fn rad_sneider_tamas_lord() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let a = g.put_in_play(0, "rad_radikalis_aktivista");
    let t = g.put_in_play(0, "tok_szakadar");
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    let sn = g.put_in_hand(0, "rad_sneider_tamas");
    g.add_bases(0, U, 2);
    g.play_card(0, sn);
    assert_eq!((g.influence(sn), g.credibility(sn)), (2, 2));
    assert_eq!((g.influence(a), g.credibility(a)), (2, 1));
    assert_eq!((g.influence(t), g.credibility(t)), (2, 1));
    assert_eq!((g.influence(semjen), g.credibility(semjen)), (2, 2));
    ok(&g);
}

// Lone 2: +2/+0 only while attacking alone.
#[test]
fn rad_utcai_harcos_lone_only_when_alone() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let h = g.put_in_play(0, "rad_utcai_harcos");
    let a = g.put_in_play(0, "rad_radikalis_aktivista");
    assert_eq!(g.influence(h), 2, "not attacking");
    g.script(0, &[Opt::Attack(h, 1), Opt::Done]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 16, "4 alone");
    // next turn: both attack
    g.state_mut().inst[h as usize].exhausted = false;
    g.state_mut().players[0].campaigns = 0;
    g.script(0, &[Opt::Attack(h, 1), Opt::Attack(a, 1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 16 - 3, "2 + 1, no Lone");
    ok(&g);
}

// Lone is checked continuously: if the other attacker leaves before damage, Lone applies.
#[test]
fn rad_utcai_harcos_lone_after_other_attacker_leaves() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let h = g.put_in_play(0, "rad_utcai_harcos");
    let a = g.put_in_play(0, "rad_radikalis_aktivista");
    let toj = g.put_in_hand(0, "rad_tojasdobalas");
    g.add_bases(0, U, 1);
    g.script(0, &[Opt::Attack(h, 1), Opt::Attack(a, 1), Opt::Play(toj), Opt::Card(a)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.zone_of(a), Zone::Oblivion);
    assert_eq!(g.state().players[1].support, 16, "Lone 2 at the damage step");
    ok(&g);
}

// Kemény mag: Momentum and Lone 1 — attacks the turn it is played, for 4 alone.
#[test]
fn rad_kemeny_mag_momentum_lone() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let k = g.put_in_hand(0, "rad_kemeny_mag");
    g.add_bases(0, U, 3);
    g.play_card(0, k);
    assert_eq!((g.influence(k), g.credibility(k)), (3, 2));
    assert!(g.can_attack(k));
    g.script(0, &[Opt::Attack(k, 1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 16);
    ok(&g);
}

// Novák Előd: when he enters play, target opponent loses 1 Support; Lone 1.
#[test]
fn rad_novak_elod_enter_and_lone() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "osszefogas"]);
    let n = g.put_in_hand(0, "rad_novak_elod");
    g.add_bases(0, U, 2);
    g.script(0, &[Opt::Player(2)]);
    g.play_card(0, n);
    assert_eq!((g.state().players[1].support, g.state().players[2].support), (20, 19));
    assert_eq!(g.state().last_reducer[2], 0, "credited to Novák's controller");
    assert!(!g.can_attack(n), "Fresh");
    g.state_mut().inst[n as usize].fresh = false;
    g.script(0, &[Opt::Attack(n, 1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 17, "2 + Lone 1");
    ok(&g);
}

// Dúró Dóra: Scandal 1; 2 damage to up to one other target Figure.
#[test]
fn rad_duro_dora_kills_target() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let semjen = g.put_in_play(1, "ner_semjen_zsolt"); // 2/2
    let d = g.put_in_hand(0, "rad_duro_dora");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 1);
    g.script(0, &[Opt::Card(semjen)]);
    g.play_card(0, d);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[0].scandal, 1);
    assert_eq!(g.zone_of(semjen), Zone::Oblivion);
    assert!(g.state().players[1].oblivion.contains(&semjen));
    assert_eq!(g.zone_of(d), Zone::Play);
    ok(&g);
}

#[test]
fn rad_duro_dora_no_target_and_not_herself() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let kover = g.put_in_play(1, "ner_kover_laszlo");
    let d = g.put_in_hand(0, "rad_duro_dora");
    g.add_bases(0, M, 1);
    g.add_bases(0, U, 1);
    g.script(0, &[Opt::NoTarget]); // "up to one"
    g.play_card(0, d);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().inst[kover as usize].damage, 0);
    assert_eq!(g.state().inst[d as usize].damage, 0);
    assert_eq!(g.state().players[0].scandal, 1, "Scandal 1 regardless");
    // alone on the board she cannot hit herself ("other")
    let db2 = scenario::db(&[]);
    let mut g2 = scenario::game(&db2, &["radikalisok", "ner"]);
    let d2 = g2.enter_free(0, "rad_duro_dora");
    assert_eq!(g2.zone_of(d2), Zone::Play);
    assert_eq!(g2.state().inst[d2 as usize].damage, 0);
    ok(&g);
    ok(&g2);
}

// Gyöngyösi Márton: draw 1 card when he enters play.
#[test]
fn rad_gyongyosi_marton_draws() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let gy = g.put_in_hand(0, "rad_gyongyosi_marton");
    let bases = [g.add_bases(0, M, 1), g.add_bases(0, U, 2)].concat();
    let deck = g.state().players[0].deck.len();
    g.play_card(0, gy);
    assert_eq!(exhausted(&g, &bases), 3);
    assert_eq!(g.state().players[0].hand.len(), 1);
    assert_eq!(g.state().players[0].deck.len(), deck - 1);
    assert_eq!((g.influence(gy), g.credibility(gy)), (2, 3));
    ok(&g);
}

// ----- Jakab Péter -------------------------------------------------------------------------

// His controller's own basic Exposé against an opponent begins with +1 Scandal for that
// opponent (an opponent with 0 Scandal can then lose 1).
#[test]
fn rad_jakab_peter_own_basic_expose() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    g.put_in_play(0, "rad_jakab_peter");
    g.add_bases(0, M, 2);
    assert_eq!(g.state().players[1].scandal, 0);
    g.script(0, &[Opt::Expose(1)]);
    turn_of(&mut g, 0);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].scandal, 0, "gained 1, then it was taken");
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.state().last_reducer[1], 0);
    ok(&g);
}

// An Exposé against Jakab's own controller gets no extra Scandal.
#[test]
fn rad_jakab_peter_not_against_his_controller() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "osszefogas"]);
    g.put_in_play(0, "rad_jakab_peter");
    g.state_mut().players[0].scandal = 1;
    g.expose(1, 0, 2, true);
    assert_eq!(g.state().players[0].scandal, 0);
    assert_eq!(g.state().players[0].support, 19, "only the 1 Scandal there was");
    ok(&g);
}

// Other players' Exposés (a card's Exposé included) against a third player get it too.
#[test]
fn rad_jakab_peter_other_players_expose() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "osszefogas", "ner"]);
    g.put_in_play(0, "rad_jakab_peter");
    g.state_mut().players[2].scandal = 2;
    g.expose(1, 2, 2, true);
    assert_eq!(g.state().players[2].scandal, 1, "2 + 1 − 2");
    assert_eq!(g.state().players[2].support, 18);
    assert_eq!(g.state().last_reducer[2], 1);
    // a card's Exposé 1 (Hadházy Ákos-style) by seat 1: +1 again, takes 1
    g.expose(1, 2, 1, false);
    assert_eq!(g.state().players[2].scandal, 1);
    assert_eq!(g.state().players[2].support, 17);
    ok(&g);
}

// Parameter: rad_jakab_peter.expose_scandal = 2.
#[test]
fn rad_jakab_peter_param_expose_scandal() {
    let db = scenario::db(&[("rad_jakab_peter.expose_scandal", 2)]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    g.put_in_play(0, "rad_jakab_peter");
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[1].support, 18);
    ok(&g);
}

// ----- Volner János ----------------------------------------------------------------------

#[test]
fn rad_volner_janos_leaves_play_creates_two_splinters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "radikalisok"]);
    let v = g.put_in_play(0, "rad_volner_janos");
    let toj = g.put_in_hand(1, "rad_tojasdobalas");
    g.add_bases(1, U, 1);
    g.play_card(1, toj); // the only Figure is the target
    g.resolve_top();
    assert_eq!(g.zone_of(v), Zone::Oblivion);
    let sp = ids_in_play(&g, 0, "tok_szakadar");
    assert_eq!(sp.len(), 2, "his controller creates 2 Splinters");
    assert_eq!(ids_in_play(&g, 1, "tok_szakadar").len(), 0);
    assert_eq!(in_box(&g, "tok_szakadar"), 2);
    for &s in &sp {
        assert!(g.state().inst[s as usize].fresh);
        assert!(g.can_attack(s), "Splinters have Momentum");
        assert_eq!((g.influence(s), g.credibility(s)), (1, 1));
    }
    ok(&g);
}

#[test]
fn rad_volner_janos_not_when_controller_eliminated() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "radikalisok"]);
    let v = g.put_in_play(2, "rad_volner_janos");
    g.state_mut().players[2].support = 1;
    g.lose_support(2, 1, 0);
    g.state_check();
    assert!(!g.state().players[2].alive);
    assert_eq!(g.zone_of(v), Zone::Removed);
    assert_eq!(in_box(&g, "tok_szakadar"), 4, "no Splinter is created");
    for p in 0..3 {
        assert!(ids_in_play(&g, p, "tok_szakadar").is_empty());
    }
    ok(&g);
}

// Parameter: rad_volner_janos.splinters = 1.
#[test]
fn rad_volner_janos_param_splinters() {
    let db = scenario::db(&[("rad_volner_janos.splinters", 1)]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let v = g.put_in_play(0, "rad_volner_janos");
    g.leave_play(v, true); // returned to hand is leaving play too
    g.state_check();
    assert_eq!(g.zone_of(v), Zone::Hand);
    assert_eq!(ids_in_play(&g, 0, "tok_szakadar").len(), 1);
    ok(&g);
}

// ----- Vona Gábor -------------------------------------------------------------------------

#[test]
fn rad_vona_gabor_cleans_scandal_and_gains_support() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    g.state_mut().players[0].scandal = 4;
    g.state_mut().players[0].support = 15;
    let v = g.put_in_hand(0, "rad_vona_gabor");
    g.put_in_play(0, "rad_hatarzar"); // his controller's own Border Closure does not stop him
    let bases = [g.add_bases(0, M, 2), g.add_bases(0, U, 2)].concat();
    g.play_card(0, v);
    assert_eq!(exhausted(&g, &bases), 4);
    assert_eq!(g.state().players[0].scandal, 0);
    assert_eq!(g.state().players[0].support, 17);
    assert_eq!((g.influence(v), g.credibility(v)), (3, 4));
    ok(&g);
}

#[test]
fn rad_vona_gabor_under_opponents_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "radikalisok"]);
    g.put_in_play(1, "rad_hatarzar");
    g.state_mut().players[0].scandal = 4;
    g.state_mut().players[0].support = 15;
    let v = g.put_in_hand(0, "rad_vona_gabor");
    g.add_bases(0, M, 2);
    g.add_bases(0, U, 2);
    g.play_card(0, v);
    assert_eq!(g.zone_of(v), Zone::Play);
    assert_eq!(g.state().players[0].scandal, 4);
    assert_eq!(g.state().players[0].support, 15);
    ok(&g);
}

// ----- Toroczkai László, Határzár, token supply ------------------------------------------------

#[test]
fn rad_toroczkai_laszlo_fence_and_lone() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let t = g.put_in_hand(0, "rad_toroczkai_laszlo");
    g.add_bases(0, U, 4);
    assert_eq!(g.play_cost(0, t), Cost { generic: 2, pips: [0, 0, 2] });
    g.play_card(0, t);
    let f = ids_in_play(&g, 0, "tok_kerites");
    assert_eq!(f.len(), 1);
    assert_eq!(in_box(&g, "tok_kerites"), 3);
    assert_eq!((g.influence(f[0]), g.credibility(f[0])), (0, 3));
    g.state_mut().inst[f[0] as usize].fresh = false;
    assert!(!g.can_attack(f[0]), "Fence: can't attack");
    g.state_mut().inst[t as usize].fresh = false;
    g.script(0, &[Opt::Attack(t, 1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 16, "2 + Lone 2");
    ok(&g);
}

// Token supply (E3): Toroczkai creates 1 Fence, Határzár after him the other 3; when
// Toroczkai enters again no Fence is left in the box and nothing is created.
#[test]
fn rad_hatarzar_fences_and_token_supply_limit() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let h = g.put_in_hand(0, "rad_hatarzar");
    let t = g.put_in_hand(0, "rad_toroczkai_laszlo");
    let mut bases = g.add_bases(0, U, 6);
    bases.extend(g.add_bases(0, M, 3));
    g.play_card(0, t);
    assert_eq!(ids_in_play(&g, 0, "tok_kerites").len(), 1);
    assert_eq!(g.play_cost(0, h), Cost { generic: 3, pips: [0, 0, 2] });
    g.play_card(0, h);
    assert_eq!(g.zone_of(h), Zone::Play);
    assert_eq!(ids_in_play(&g, 0, "tok_kerites").len(), 4, "1 + 3");
    assert_eq!(in_box(&g, "tok_kerites"), 0);
    assert_eq!(exhausted(&g, &bases), 9);
    // Toroczkai returns to hand and is played again: no Fence left, none created
    g.leave_play(t, true);
    g.state_check();
    assert_eq!(g.zone_of(t), Zone::Hand);
    for &b in &bases {
        g.state_mut().inst[b as usize].exhausted = false;
    }
    g.play_card(0, t);
    assert_eq!(g.zone_of(t), Zone::Play);
    assert_eq!(ids_in_play(&g, 0, "tok_kerites").len(), 4);
    assert_eq!(in_box(&g, "tok_kerites"), 0);
    assert_eq!(in_box(&g, "tok_szakadar"), 4, "the Splinter supply is separate");
    ok(&g);
}

// Parameter: rad_hatarzar.fences = 1.
#[test]
fn rad_hatarzar_param_fences() {
    let db = scenario::db(&[("rad_hatarzar.fences", 1)]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    g.enter_free(0, "rad_hatarzar");
    assert_eq!(ids_in_play(&g, 0, "tok_kerites").len(), 1);
    assert_eq!(in_box(&g, "tok_kerites"), 3);
    ok(&g);
}

// Border Closure: opponents can't gain Support or remove Scandal (Events and start-of-turn
// effects included), but Exposés still take Scandal; its controller is not affected.
#[test]
fn rad_hatarzar_border_closure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.put_in_play(0, "rad_hatarzar");
    g.put_in_play(1, "nf_magyar_nemzet"); // "At the start of your turn, remove 1 Scandal."
    g.state_mut().players[1].scandal = 3;
    g.state_mut().players[0].scandal = 2;
    g.force_event("ev_fulkeforradalom"); // every player gains 2 Support
    assert_eq!(g.state().players[0].support, 22);
    assert_eq!(g.state().players[1].support, 20);
    g.gain_support(1, 3);
    assert_eq!(g.state().players[1].support, 20);
    turn_of(&mut g, 1);
    assert_eq!(g.state().players[1].scandal, 3, "Magyar Nemzet removes nothing");
    g.remove_scandal(0, 1);
    assert_eq!(g.state().players[0].scandal, 1, "the controller may remove");
    g.gain_scandal(1, 1); // gaining is never stopped
    assert_eq!(g.state().players[1].scandal, 4);
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 2, "an Exposé still takes Scandal");
    assert_eq!(g.state().players[1].support, 18);
    ok(&g);
}

// ----- Utcai demonstráció -------------------------------------------------------------------

#[test]
fn rad_utcai_demonstracio_rally() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let a = g.put_in_play(0, "rad_radikalis_aktivista");
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    let h = g.put_in_hand(0, "rad_utcai_harcos");
    let u = g.put_in_hand(0, "rad_utcai_demonstracio");
    let gy = g.put_in_hand(0, "rad_gyongyosi_marton");
    g.add_bases(0, U, 4);
    g.add_bases(0, M, 3);
    g.play_card(0, h);
    assert!(!g.can_attack(h), "Fresh");
    g.play_card(0, u);
    g.resolve_top();
    assert_eq!(g.state().players[1].support, 19, "target opponent loses 1");
    assert!(g.can_attack(h), "Momentum until end of turn");
    assert_eq!(g.influence(h), 3);
    assert_eq!(g.influence(a), 2);
    assert_eq!(g.influence(semjen), 2, "not the opponent's");
    // a Figure entering afterwards gets nothing
    g.play_card(0, gy);
    assert!(!g.can_attack(gy));
    assert_eq!(g.influence(gy), 2);
    g.script(0, &[Opt::Attack(h, 1), Opt::Done]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 19 - 5, "2 + 1 + Lone 2");
    ok(&g);
}

// ----- Pártszakadás -------------------------------------------------------------------------

#[test]
fn rad_partszakadas_two_splinters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let p = g.put_in_hand(0, "rad_partszakadas");
    g.add_bases(0, U, 2);
    g.play_card(0, p);
    g.resolve_top();
    let sp = ids_in_play(&g, 0, "tok_szakadar");
    assert_eq!(sp.len(), 2);
    assert_eq!(in_box(&g, "tok_szakadar"), 2);
    g.script(0, &[Opt::Attack(sp[0], 1), Opt::Attack(sp[1], 1)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 18, "Momentum: both attack at once");
    // the supply (E3): Volner leaving creates the last 2, then none are left
    let v = g.put_in_play(0, "rad_volner_janos");
    g.leave_play(v, true); // returned to hand: leaves play
    g.state_check();
    assert_eq!(ids_in_play(&g, 0, "tok_szakadar").len(), 4);
    assert_eq!(in_box(&g, "tok_szakadar"), 0);
    let more = g.add_bases(0, U, 3);
    g.play_card(0, v);
    assert_eq!(exhausted(&g, &more), 3);
    g.leave_play(v, false);
    g.state_check();
    assert_eq!(g.zone_of(v), Zone::Oblivion);
    assert_eq!(ids_in_play(&g, 0, "tok_szakadar").len(), 4);
    assert_eq!(in_box(&g, "tok_szakadar"), 0);
    ok(&g);
}

// ----- Tojásdobálás -------------------------------------------------------------------------

// A Reaction played in the opponent's Campaign window kills the attacker before damage.
#[test]
fn rad_tojasdobalas_reaction_in_opponents_window() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let toj = g.put_in_hand(0, "rad_tojasdobalas");
    assert!(!g.can_play_from_hand(0, toj, true), "no Figure to target, no Street");
    let b = g.add_bases(0, U, 1);
    let semjen = g.put_in_play(1, "ner_semjen_zsolt");
    assert!(g.can_play_from_hand(0, toj, true));
    g.state_mut().active = 1;
    g.script(1, &[Opt::Attack(semjen, 0)]);
    g.script(0, &[Opt::Play(toj)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert!(g.state().inst[b[0] as usize].exhausted);
    assert_eq!(g.zone_of(toj), Zone::Oblivion);
    assert_eq!(g.zone_of(semjen), Zone::Oblivion);
    assert_eq!(g.state().players[0].support, 20, "the attacker left before damage");
    ok(&g);
}

// ----- Kordonbontás -------------------------------------------------------------------------

#[test]
fn rad_kordonbontas_returns_institution() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "tisza"]);
    let orban = g.put_in_play(1, "ner_orban_viktor");
    let r = g.put_in_play(1, "ner_rezsicsokkentes");
    g.put_in_play(1, "ner_kozmedia");
    assert_eq!(g.influence(orban), 6);
    let k = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, U, 3);
    g.script(0, &[Opt::Card(r)]);
    g.play_card(0, k);
    g.resolve_top();
    assert_eq!(g.zone_of(r), Zone::Hand);
    assert!(g.state().players[1].hand.contains(&r), "to its owner's hand");
    assert_eq!(g.influence(orban), 5, "Supermajority broken");
    assert_eq!((g.state().players[1].support, g.state().players[2].support), (19, 19), "each opponent loses 1");
    assert_eq!(g.state().players[0].support, 20);
    ok(&g);
}

#[test]
fn rad_kordonbontas_without_institution() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let k = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, U, 3);
    assert!(g.can_play_from_hand(0, k, false), "'up to one' target: playable with no Institution");
    g.play_card(0, k);
    g.resolve_top();
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    ok(&g);
}

// Choosing no target ("up to one") with an Institution in play.
#[test]
fn rad_kordonbontas_no_target_chosen() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let hvg = g.put_in_play(1, "nf_hvg");
    let k = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, U, 3);
    g.script(0, &[Opt::NoTarget]);
    g.play_card(0, k);
    assert_eq!(g.script_left(0), 0);
    g.resolve_top();
    assert_eq!(g.zone_of(hvg), Zone::Play);
    assert_eq!(g.state().players[1].support, 19);
    ok(&g);
}

// A Newsfeed Institution goes to the bottom of the Newsfeed deck instead of a hand (R13.6);
// its own Institution may be chosen too ("any player's").
#[test]
fn rad_kordonbontas_newsfeed_institution_to_newsfeed_deck() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let hvg = g.put_in_play(0, "nf_hvg");
    let k = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, U, 3);
    g.script(0, &[Opt::Card(hvg)]);
    g.play_card(0, k);
    g.resolve_top();
    assert_eq!(g.zone_of(hvg), Zone::NewsDeck);
    assert_eq!(g.state().news_deck[0], hvg, "bottom of the Newsfeed deck");
    assert!(g.state().players[0].hand.is_empty());
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.state().players[0].support, 20);
    ok(&g);
}

// R13.3.1: if the only chosen target is gone on resolution, the whole Action does nothing
// (no Support loss either).
#[test]
fn rad_kordonbontas_fizzles_when_target_gone() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let r = g.put_in_play(1, "ner_rezsicsokkentes");
    let k = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, U, 3);
    g.script(0, &[Opt::Card(r)]);
    g.play_card(0, k);
    g.leave_play(r, false); // it leaves play before Kordonbontás resolves
    g.resolve_top();
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    assert_eq!(g.state().players[1].support, 20);
    ok(&g);
}

// Outrage (cards.md §2), read literally: the first time in a turn that your opponents gain
// Scandal, each Outrage Figure you control at that moment gets its counter. A Figure that
// enters later in the turn does not trigger on a later gain that turn; next turn it does.
#[test]
fn tis_outrage_figure_entering_after_the_first_gain_waits_for_next_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let fa = g.put_in_play(0, "tis_forsthoffer_agnes");
    g.gain_scandal(1, 1);
    assert_eq!(counters(&g, fa), 1);
    let d = g.put_in_play(0, "tis_tunteto_diak");
    g.gain_scandal(1, 1);
    assert_eq!((counters(&g, fa), counters(&g, d)), (1, 0), "the later Figure missed this turn's first gain");
    // no Outrage Figure at the first gain: one entering afterwards waits too
    g.state_mut().turn += 1;
    let mut h = scenario::game(&db, &["tisza", "ner"]);
    h.gain_scandal(1, 1);
    let a = h.put_in_play(0, "tis_orban_anita");
    h.gain_scandal(1, 2);
    assert_eq!(counters(&h, a), 0);
    h.state_mut().turn += 1;
    h.gain_scandal(1, 1);
    assert_eq!(counters(&h, a), 1, "next turn's first gain");
    // the next turn: both Figures of the first game trigger on the first gain
    g.gain_scandal(1, 1);
    assert_eq!((counters(&g, fa), counters(&g, d)), (2, 1));
    ok(&g);
    ok(&h);
}
