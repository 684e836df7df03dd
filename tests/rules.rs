//! Rule tests (rules.md R1–R17). Each test names the rule it checks.

use ketharmad::engine::scenario;
use ketharmad::engine::{Opt, Zone};

// R6.3, R6.3.1 (E22): a cost "1F" needs one Forint pip and one generic; paying exhausts Bases.
#[test]
fn r6_3_paying_coloured_and_generic_costs() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let meszaros = g.put_in_hand(0, "ner_meszaros_lorinc");
    let m = g.add_bases(0, 1, 2); // two Media Bases: no Forint
    assert!(!g.can_play_from_hand(0, meszaros, false), "1F must not be payable without a Forint source");
    let f = g.add_bases(0, 0, 1);
    assert!(g.can_play_from_hand(0, meszaros, false));
    g.play_card(0, meszaros);
    assert_eq!(g.zone_of(meszaros), Zone::Play);
    assert!(g.state().inst[f[0] as usize].exhausted, "the Forint Base paid the pip");
    assert_eq!(m.iter().filter(|&&c| g.state().inst[c as usize].exhausted).count(), 1, "one Media Base paid the generic");
    // R10.1.1: Scandal 1 on entering play
    assert_eq!(g.state().players[0].scandal, 1);
}

// R10.3, R10.3.3 (E53): the basic Exposé takes up to 2 Scandal, each costing 1 Support.
#[test]
fn r10_3_basic_expose_takes_up_to_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.state_mut().players[1].scandal = 3;
    g.script(0, &[Opt::Amount(2)]);
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 1);
    assert_eq!(g.state().players[1].support, 18);
    assert_eq!(g.state().last_reducer[1], 0, "R10.3.5: credited to the exposing player");
}

// ======================================================================================
// Helpers
// ======================================================================================

use ketharmad::batch::{play_one, BatchSpec};
use ketharmad::bots::BotSpec;
use ketharmad::cards::{build_db, load_raw, CardDb, ParamValue, Trigger};
use ketharmad::engine::{Cid, DecisionKind, EndReason, Game, GameConfig, Outcome, SeatView};

/// A game before setup (every card in its deck, hands empty), all seats scripted.
fn fresh<'a>(db: &'a CardDb, factions: &[u8], seed: u64) -> Game<'a> {
    let cfg = GameConfig { factions: factions.to_vec(), seed, start_player: Some(0), ..Default::default() };
    let pol: Vec<ketharmad::engine::agent::Scripted> = factions.iter().map(|_| Default::default()).collect();
    Game::new(db, &cfg, pol)
}

/// Build a card set with arbitrary parameter values.
fn db_with(o: &[(&str, ParamValue)]) -> Result<CardDb, String> {
    let raw = load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap();
    let o: Vec<(String, ParamValue)> = o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    build_db(&raw, &o)
}

/// Move cards from the bottom of `p`'s deck to their Oblivion until `keep` are left.
fn thin_deck(g: &mut Game, p: usize, keep: usize) {
    while g.state().players[p].deck.len() > keep {
        let c = g.state_mut().players[p].deck.remove(0);
        g.state_mut().inst[c as usize].zone = Zone::Oblivion;
        g.state_mut().players[p].oblivion.push(c);
    }
}

/// Move `n` cards from the bottom of `p`'s deck into their hand (the top stays for draws).
fn fill_hand(g: &mut Game, p: usize, n: usize) {
    for _ in 0..n {
        let c = g.state_mut().players[p].deck.remove(0);
        g.state_mut().inst[c as usize].zone = Zone::Hand;
        g.state_mut().players[p].hand.push(c);
    }
}

/// Put the named Events on top of the Event deck; the first one is flipped next.
fn stack_events(g: &mut Game, ids: &[&str]) {
    for id in ids.iter().rev() {
        let i = g.state().event_deck.iter().position(|&c| g.def(c).id == *id).expect("event in deck");
        let c = g.state_mut().event_deck.remove(i);
        g.state_mut().event_deck.push(c);
    }
}

fn ok(g: &Game) {
    if let Err(e) = g.invariants() {
        panic!("invariant broken: {e}");
    }
}

fn ex(g: &Game, c: Cid) -> bool {
    g.state().inst[c as usize].exhausted
}

// ======================================================================================
// R1 Goal, elimination, simultaneous elimination
// ======================================================================================

// R1.2, R1.2.1 (E2), R14.3: Support 0 or less eliminates at once, mid-Action phase; the last
// player standing wins.
#[test]
fn r1_2_1_e2_elimination_is_immediate() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas"); // 2/2
    g.state_mut().players[1].support = 1;
    g.campaign();
    assert_eq!(g.state().players[1].support, -1, "2 combat damage from 1 Support");
    assert!(!g.state().players[1].alive);
    assert_eq!(g.state().outcome, Some(Outcome::won_by(0, EndReason::LastPlayerStanding)));
    assert!(g.halted(), "the game stops at once, before Close");
    assert!(ex(&g, s));
    ok(&g);
}

// R1.2.1 (E2): exactly 0 Support is "drops to 0".
#[test]
fn r1_2_1_e2_exactly_zero_support_eliminates() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().players[1].support = 2;
    g.lose_support(1, 2, 0);
    assert!(g.state().players[1].alive, "not before the state check");
    g.state_check();
    assert!(!g.state().players[1].alive);
    assert_eq!(g.state().outcome.unwrap().winner(), Some(0));
    ok(&g);
}

// R1.4, R14.5.1 (E74): everyone eliminated in one state check (here by an Event in the start
// player's Wake) -> the active player wins.
#[test]
fn r1_4_r14_5_1_e74_simultaneous_elimination_active_player_wins() {
    let db = scenario::db(&[]);
    for active in 0..2 {
        let mut g = scenario::game(&db, &["ner", "tisza"]);
        g.state_mut().active = active;
        for p in 0..2 {
            g.state_mut().players[p].support = 2;
            g.state_mut().players[p].scandal = 3;
        }
        // Kegyelmi botrány: the player(s) with most Scandal lose 2 Support
        g.force_event("ev_kegyelmi_botrany");
        assert!(!g.state().players[0].alive && !g.state().players[1].alive);
        assert_eq!(g.state().outcome, Some(Outcome::won_by(active, EndReason::SimultaneousElimination)));
    }
}

// R14.5.1 (E74): if one player survives the check, the normal rule applies.
#[test]
fn r14_5_1_e74_survivor_wins_normally() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().active = 1;
    g.state_mut().players[0].support = 2;
    g.state_mut().players[0].scandal = 3;
    g.state_mut().players[1].scandal = 1; // not the most
    g.force_event("ev_kegyelmi_botrany");
    assert_eq!(g.state().outcome, Some(Outcome::won_by(1, EndReason::LastPlayerStanding)));
    assert_eq!(g.state().players[1].support, 20);
}

// ======================================================================================
// R3 Setup
// ======================================================================================

// R3.2, R3.4, R3.5, R3.8: 7-card hands, 3 face-up Newsfeed cards (9 in the deck), 18 face-down
// Events and none in force; the two-player second player starts with 25 Support.
#[test]
fn r3_2_r3_8_two_player_setup() {
    let db = scenario::db(&[]);
    for start in 0..2u8 {
        let mut g = fresh(&db, &[0, 1], 11);
        g.setup(Some(start));
        for p in 0..2 {
            assert_eq!(g.state().players[p].hand.len(), 7);
            assert_eq!(g.state().players[p].deck.len(), 24);
        }
        assert_eq!(g.state().start_player, start as usize);
        assert_eq!(g.state().active, start as usize);
        let s = start as usize;
        assert_eq!(g.state().players[s].support, 20);
        assert_eq!(g.state().players[1 - s].support, 25, "R3.8: the second player gets +5");
        assert_eq!(g.state().news_row.len(), 3);
        assert_eq!(g.state().news_deck.len(), 9);
        assert_eq!(g.state().event_deck.len(), 18);
        assert!(g.state().event_in_force.is_none(), "R3.5: no Event before the first Wake");
        ok(&g);
    }
}

// R3.9, R15.1: with 3-4 players everyone has 20 Support and 7 cards.
#[test]
fn r3_9_r15_1_multiplayer_setup_everyone_20() {
    let db = scenario::db(&[]);
    for f in [vec![0u8, 1, 2], vec![0u8, 1, 2, 3]] {
        let mut g = fresh(&db, &f, 4);
        g.setup(Some(1));
        for p in 0..f.len() {
            assert_eq!(g.state().players[p].support, 20, "seat {p} of {}", f.len());
            assert_eq!(g.state().players[p].hand.len(), 7);
        }
        ok(&g);
    }
}

// R3.3, R3.3.2 (E6): after a mulligan the player chooses k = 1 card of the new 7 for the
// bottom of the deck.
#[test]
fn r3_3_2_e6_mulligan_bottoms_the_chosen_card() {
    let db = scenario::db(&[]);
    // probe: the same seed shows the 7 cards after the redraw (the passive choice bottoms the first)
    let mut probe = fresh(&db, &[0, 1], 5);
    probe.script(0, &[Opt::Mulligan]);
    probe.setup(Some(0));
    assert_eq!(probe.state().players[0].mulligans, 1);
    assert_eq!(probe.state().players[0].hand.len(), 6);
    let first_bottomed = probe.state().players[0].deck[0];
    let mut redraw = vec![first_bottomed];
    redraw.extend(probe.state().players[0].hand.iter().copied());
    assert!(!probe.state().players[0].hand.contains(&first_bottomed));

    let pick = redraw[3];
    let mut g = fresh(&db, &[0, 1], 5);
    g.script(0, &[Opt::Mulligan, Opt::Card(pick)]);
    g.setup(Some(0));
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[0].deck[0], pick, "the chosen card is at the bottom");
    assert!(!g.state().players[0].hand.contains(&pick));
    assert!(g.state().players[0].hand.contains(&first_bottomed));
    assert_eq!(g.state().players[0].hand.len(), 6);
    assert_eq!(g.state().players[0].deck.len(), 25);
    assert_eq!(g.state().players[1].hand.len(), 7, "the other player kept");
    ok(&g);
}

// R3.3.2 (E6): after the second mulligan two cards go to the bottom (k counts redraws).
#[test]
fn r3_3_2_e6_second_mulligan_bottoms_two() {
    let db = scenario::db(&[]);
    let mut probe = fresh(&db, &[0, 1], 5);
    probe.script(0, &[Opt::Mulligan]);
    probe.setup(Some(0));
    let first = probe.state().players[0].deck[0];
    let mut g = fresh(&db, &[0, 1], 5);
    g.script(0, &[Opt::Mulligan, Opt::Card(first), Opt::Mulligan]);
    g.setup(Some(0));
    assert_eq!(g.state().players[0].mulligans, 2);
    assert_eq!(g.state().players[0].hand.len(), 5);
    assert_eq!(g.state().players[0].deck.len(), 26);
    let pl = &g.state().players[0];
    assert!(!pl.hand.contains(&pl.deck[0]) && !pl.hand.contains(&pl.deck[1]));
    ok(&g);
}

// R3.3.3 (E7): the mulligan cap; with max_mulligans = 1 no second keep/mulligan decision.
#[test]
fn r3_3_3_e7_mulligan_cap() {
    let db = scenario::db(&[("rules.max_mulligans", 1)]);
    let mut probe = fresh(&db, &[0, 1], 5);
    probe.script(0, &[Opt::Mulligan]);
    probe.setup(Some(0));
    let first = probe.state().players[0].deck[0];
    let mut g = fresh(&db, &[0, 1], 5);
    g.script(0, &[Opt::Mulligan, Opt::Card(first), Opt::Mulligan]);
    g.setup(Some(0));
    assert_eq!(g.script_left(0), 1, "no decision after the capped mulligan");
    assert_eq!(g.state().players[0].mulligans, 1);
    assert_eq!(g.state().players[0].hand.len(), 6);
}

// R3.11 (E12): the same seed and inputs give the same setup.
#[test]
fn r3_11_e12_setup_is_reproducible() {
    let db = scenario::db(&[]);
    let mut a = fresh(&db, &[0, 1, 3], 77);
    let mut b = fresh(&db, &[0, 1, 3], 77);
    a.setup(None);
    b.setup(None);
    for p in 0..3 {
        assert_eq!(a.state().players[p].hand, b.state().players[p].hand);
        assert_eq!(a.state().players[p].deck, b.state().players[p].deck);
    }
    assert_eq!(a.state().news_row, b.state().news_row);
    assert_eq!(a.state().event_deck, b.state().event_deck);
    assert_eq!(a.state().start_player, b.state().start_player);
    let mut c = fresh(&db, &[0, 1, 3], 78);
    c.setup(None);
    assert!((0..3).any(|p| c.state().players[p].hand != a.state().players[p].hand) || c.state().event_deck != a.state().event_deck);
}

// R3.7, R3.7.1 (E10), R12.7 (E64): the start player's first turn flips an Event and skips only
// the card draw; the Scandal check still happens. The second player draws; so does the start
// player from their second turn.
#[test]
fn r3_7_1_e10_start_player_skips_first_draw_only() {
    let db = scenario::db(&[]);
    let mut g = fresh(&db, &[0, 1], 3);
    g.setup(Some(0));
    stack_events(&mut g, &["ev_mediatorveny", "ev_veszelyhelyzet"]);
    g.state_mut().players[0].scandal = 6;
    let deck0 = g.state().players[0].deck.len();
    g.state_mut().round = 1;
    g.take_turn();
    assert_eq!(g.state().players[0].deck.len(), deck0, "no card drawn");
    assert_eq!(g.state().players[0].hand.len(), 7);
    assert_eq!(g.state().players[0].support, 19, "E10: the Scandal check still happens");
    let e = g.state().event_in_force.expect("E64: an Event is flipped in round 1");
    assert_eq!(g.def(e).id, "ev_mediatorveny");
    // second player
    g.state_mut().active = 1;
    let deck1 = g.state().players[1].deck.len();
    g.take_turn();
    assert_eq!(g.state().players[1].deck.len(), deck1 - 1);
    assert_eq!(g.state().players[1].hand.len(), 7, "8 cards, one discarded at Close");
    assert_eq!(g.state().players[1].oblivion.len(), 1);
    // start player's second turn
    g.state_mut().active = 0;
    g.take_turn();
    assert_eq!(g.state().players[0].deck.len(), deck0 - 1);
    ok(&g);
}

// ======================================================================================
// R4 / R5 Damage and control
// ======================================================================================

// R4.7.1 (E14): damage equal to Credibility destroys.
#[test]
fn r4_7_1_e14_damage_equal_to_credibility_destroys() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let toj = g.put_in_hand(0, "rad_tojasdobalas"); // 2 damage
    g.add_bases(0, 2, 1);
    let v = g.put_in_play(1, "tis_vitezy_david"); // 1/2
    g.play_card(0, toj);
    g.window(1);
    assert_eq!(g.zone_of(v), Zone::Oblivion);
    assert!(g.state().players[1].oblivion.contains(&v), "R14.2: to its owner's Oblivion");
    assert_eq!(g.state().inst[v as usize].damage, 0);
    assert_eq!(g.zone_of(toj), Zone::Oblivion, "E15: the played Action goes to Oblivion");
    ok(&g);
}

// R4.7, R13.7 (E71): damage below Credibility stays on the Figure.
#[test]
fn r4_7_damage_below_credibility_stays() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let toj = g.put_in_hand(0, "rad_tojasdobalas");
    g.add_bases(0, 2, 1);
    let f = g.put_in_play(1, "tis_forsthoffer_agnes"); // 1/3
    g.play_card(0, toj);
    assert_eq!(g.zone_of(toj), Zone::Chain, "R8.1 (E36): the Action waits on the chain");
    assert_eq!(g.state().inst[f as usize].damage, 0);
    g.window(1);
    assert_eq!(g.zone_of(f), Zone::Play);
    assert_eq!(g.state().inst[f as usize].damage, 2);
    ok(&g);
}

// R5.3.1 (E18): a Figure that changes control (Simicska defecting) keeps damage, counters and
// exhausted state, is not Fresh, and later goes to its owner's Oblivion.
#[test]
fn r5_3_1_e18_control_change_keeps_state() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let s = g.put_in_play(0, "ner_simicska_lajos"); // 3/3
    g.state_mut().inst[s as usize].damage = 1;
    g.add_counters(s, 1);
    g.state_mut().inst[s as usize].exhausted = true;
    g.state_mut().players[0].scandal = 4;
    g.run_triggers(s, 0, Trigger::StartOfTurn);
    assert_eq!(g.controller(s), 1);
    assert!(g.state().players[1].play.contains(&s) && !g.state().players[0].play.contains(&s));
    let i = g.state().inst[s as usize];
    assert_eq!((i.damage, i.counters, i.exhausted, i.fresh), (1, 1, true, false));
    assert_eq!(g.credibility(s), 4);
    // a player who is not his owner never loses him this way
    g.state_mut().players[1].scandal = 5;
    g.run_triggers(s, 1, Trigger::StartOfTurn);
    assert_eq!(g.controller(s), 1);
    // R5.3.1: when it leaves play it goes to its owner's zones
    g.state_mut().inst[s as usize].damage = 4;
    g.state_check();
    assert!(g.state().players[0].oblivion.contains(&s));
    assert!(g.state().players[1].oblivion.is_empty());
    ok(&g);
}

// R5.5 (E20): a seat sees its own hand, not the opponent's.
#[test]
fn r5_5_e20_hidden_hands() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let c = g.put_in_hand(0, "ner_orban_viktor");
    let o = g.put_in_play(1, "tis_tarr_zoltan");
    let v0 = SeatView::new(&g, 0);
    assert_eq!(v0.card_id(c), Some("ner_orban_viktor"));
    assert_eq!(v0.card_id(o), Some("tis_tarr_zoltan"));
    let v1 = SeatView::new(&g, 1);
    assert_eq!(v1.card_id(c), None);
    assert_eq!(v1.hand_size(0), 1);
}

// ======================================================================================
// R6 Resources, Fresh, Swap, Base play
// ======================================================================================

// R6.4.1 (E24): produced resources go to the pool and pay later costs in the same turn.
#[test]
fn r6_4_1_e24_pool_pays_later_costs() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let m = g.put_in_play(0, "ner_meszaros_lorinc"); // ↷: add 2 Forint
    let b1 = g.put_in_hand(0, "ner_bunbak"); // {1}
    let b2 = g.put_in_hand(0, "ner_bunbak");
    assert!(g.can_play_from_hand(0, b1, false));
    g.play_card(0, b1);
    assert!(ex(&g, m));
    assert_eq!(g.state().players[0].pool, [1, 0, 0], "one Forint left over");
    assert!(g.can_play_from_hand(0, b2, false), "the pool pays");
    g.play_card(0, b2);
    assert_eq!(g.state().players[0].pool, [0, 0, 0]);
    assert_eq!(g.zone_of(b2), Zone::Play);
    ok(&g);
}

// R6.4, R6.4.1 (E24), R7.4.1 (d): every player's pool is emptied at Close.
#[test]
fn r6_4_1_e24_pools_empty_at_close() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    g.state_mut().players[0].pool = [1, 0, 0];
    g.state_mut().players[1].pool = [0, 2, 1]; // produced in the opponent's turn
    g.take_turn();
    assert_eq!(g.state().players[0].pool, [0; 3]);
    assert_eq!(g.state().players[1].pool, [0; 3]);
}

// R6.3.1 (E22): a coloured pip is paid only by that resource.
#[test]
fn r6_3_1_e22_pips_need_their_colour() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let gul = g.put_in_hand(0, "ner_gulyas_gergely"); // 1M
    g.add_bases(0, 0, 3);
    assert!(!g.can_play_from_hand(0, gul, false));
    g.add_bases(0, 1, 1);
    assert!(g.can_play_from_hand(0, gul, false));
}

// R6.6, R6.6.1 (E26), R6.6.2: a Fresh Figure cannot attack or use ↷ abilities; Momentum
// cancels Fresh; Fresh ends at Close.
#[test]
fn r6_6_e26_fresh_figures() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let gul = g.enter_free(0, "ner_gulyas_gergely");
    g.state_mut().players[0].scandal = 2;
    assert!(g.state().inst[gul as usize].fresh);
    assert!(!g.can_attack(gul));
    assert!(!g.can_activate(gul, 0, false), "↷ ability blocked while Fresh");
    assert!(!g.can_start_campaign(0), "E44: no attacker, no Campaign");
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Campaign));
    let sz = g.enter_free(0, "ner_szijjarto_peter"); // Momentum
    assert!(g.state().inst[sz as usize].fresh);
    assert!(g.can_attack(sz), "R6.6.2: Momentum");
    assert!(g.can_start_campaign(0));
    g.state_mut().start_player = 1;
    g.take_turn();
    assert!(!g.state().inst[gul as usize].fresh, "Fresh ends at Close");
    assert!(g.can_activate(gul, 0, false));
    assert!(g.can_attack(gul));
}

// R6.6.1 (E26), R9.3.1 (E46): a Fresh Figure may block; blocking does not exhaust; a Figure that
// entered in an opponent's turn is not Fresh in its controller's next turn.
#[test]
fn r6_6_1_e26_fresh_figure_blocks_and_is_not_fresh_next_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.state_mut().start_player = 1;
    let s = g.put_in_play(0, "rad_sneider_tamas"); // 2/2
    let f = g.enter_free(1, "tis_forsthoffer_agnes"); // 1/3, entered in seat 0's turn
    assert!(g.state().inst[f as usize].fresh);
    g.script(1, &[Opt::Block(f, s)]);
    g.campaign();
    assert_eq!(g.script_left(1), 0);
    assert!(ex(&g, s), "R9.2: attackers are exhausted");
    assert!(!ex(&g, f), "E46: blocking does not exhaust");
    assert_eq!(g.state().inst[f as usize].damage, 2);
    assert_eq!(g.state().inst[s as usize].damage, 1);
    assert_eq!(g.state().players[1].support, 20);
    g.take_turn(); // seat 0's turn (rest of it) closes
    assert!(!g.state().inst[f as usize].fresh);
    g.state_mut().active = 1;
    assert!(g.can_attack(f));
    ok(&g);
}

// R6.6.1 (E26): Bases and Institutions may be exhausted in the turn they enter (E28).
#[test]
fn r6_8_1_e28_base_enters_ready() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let b = g.put_in_hand(0, "ner_base_megyei_lap");
    let bb = g.put_in_hand(0, "ner_bunbak");
    assert!(!g.can_play_from_hand(0, bb, false));
    g.state_mut().start_player = 1;
    g.script(0, &[Opt::PlayBase(b), Opt::Play(bb)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.zone_of(bb), Zone::Play, "the new Base paid for Bűnbak");
    assert!(ex(&g, b));
}

// R6.7, R6.7.1 (E27): Swap costs 1, puts the Base into Oblivion, draws a card and does not use
// the Base limit.
#[test]
fn r6_7_1_e27_swap() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    let b1 = g.put_in_hand(0, "ner_base_kozbeszerzes");
    let b2 = g.put_in_hand(0, "ner_base_stadion");
    let m = g.add_bases(0, 1, 1)[0];
    let deck = g.state().players[0].deck.len();
    g.script(0, &[Opt::Swap(b1), Opt::PlayBase(b2)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[0].oblivion, vec![b1]);
    assert_eq!(g.zone_of(b2), Zone::Play);
    assert_eq!(g.state().players[0].deck.len(), deck - 2, "Draw step + Swap");
    assert_eq!(g.state().players[0].hand.len(), 2);
    assert!(ex(&g, m), "the Media Base paid the Swap");
    assert_eq!(g.state().players[0].bases_played, 1);
    ok(&g);
}

// R6.7: Swap needs a resource to pay with.
#[test]
fn r6_7_swap_needs_payment() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let b = g.put_in_hand(0, "ner_base_kozbeszerzes");
    g.main_options(0);
    assert!(g.opts().contains(&Opt::PlayBase(b)));
    assert!(!g.opts().contains(&Opt::Swap(b)));
}

// R6.8, R7.3.1: one Base per turn.
#[test]
fn r6_8_one_base_per_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    let b1 = g.put_in_hand(0, "ner_base_kozbeszerzes");
    let b2 = g.put_in_hand(0, "ner_base_megyei_lap");
    g.script(0, &[Opt::PlayBase(b1)]);
    g.take_turn();
    assert_eq!(g.zone_of(b1), Zone::Play);
    assert!(!ex(&g, b1), "E28: enters ready");
    g.main_options(0);
    assert!(!g.opts().iter().any(|o| matches!(o, Opt::PlayBase(_))), "no second Base this turn");
    assert!(g.opts().contains(&Opt::Swap(b2)), "Swap is still allowed");
}

// ======================================================================================
// R7 Turn structure
// ======================================================================================

// R7.1, R7.1.1 (E29): Wake readies the active player's cards (not the opponent's) and carries
// out start-of-turn effects; no Event outside the start player's turn.
#[test]
fn r7_1_1_e29_wake_readies_and_start_of_turn_effects() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    let k = g.put_in_play(0, "ner_kover_laszlo");
    let b = g.add_bases(0, 0, 1)[0];
    let t = g.put_in_play(1, "tis_tarr_zoltan");
    for c in [k, b, t] {
        g.state_mut().inst[c as usize].exhausted = true;
    }
    g.put_in_play(0, "ner_rezsicsokkentes"); // start of turn: gain 1 Support
    g.put_in_play(0, "ner_legfobb_ugyeszseg"); // start of turn: remove 1 Scandal
    g.state_mut().players[0].scandal = 2;
    g.take_turn();
    assert!(!ex(&g, k) && !ex(&g, b));
    assert!(ex(&g, t), "the opponent's Figure stays exhausted");
    assert_eq!(g.state().players[0].support, 21);
    assert_eq!(g.state().players[0].scandal, 1);
    assert!(g.state().event_in_force.is_none());
}

// R7.1, R12.1, R12.5: an Event is flipped only in the start player's Wake.
#[test]
fn r7_1_event_flips_only_in_start_players_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    stack_events(&mut g, &["ev_mediatorveny", "ev_migracios_valsag"]);
    g.take_turn();
    let e1 = g.state().event_in_force.unwrap();
    assert_eq!(g.def(e1).id, "ev_mediatorveny");
    let n = g.state().event_deck.len();
    g.state_mut().active = 1;
    g.take_turn();
    assert_eq!(g.state().event_in_force, Some(e1));
    assert_eq!(g.state().event_deck.len(), n);
    g.state_mut().active = 0;
    g.take_turn();
    let e2 = g.state().event_in_force.unwrap();
    assert_eq!(g.def(e2).id, "ev_migracios_valsag");
    assert_eq!(g.state().event_discard, vec![e1]);
    ok(&g);
}

// R7.2, R7.2.1 (E30), R10.2.1: at 6 or more Scandal the Draw step costs exactly 1 Support.
#[test]
fn r7_2_1_e30_scandal_threshold_costs_exactly_one() {
    let db = scenario::db(&[]);
    for (scandal, loss) in [(5, 0), (6, 1), (9, 1)] {
        let mut g = scenario::game(&db, &["ner", "tisza"]);
        g.state_mut().start_player = 1;
        g.state_mut().players[0].scandal = scandal;
        let hand = g.state().players[0].hand.len();
        g.take_turn();
        assert_eq!(g.state().players[0].support, 20 - loss, "Scandal {scandal}");
        assert_eq!(g.state().players[0].scandal, scandal, "the threshold removes no Scandal");
        assert_eq!(g.state().players[0].hand.len(), hand + 1, "the card is drawn too");
    }
}

// R7.4, R7.4.1 (E31), R13.7 (E71): Close removes all damage and ends "until end of turn" effects.
#[test]
fn r7_4_1_e31_close_removes_damage_and_end_of_turn_effects() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.state_mut().start_player = 1;
    g.add_bases(0, 2, 3);
    let a = g.put_in_play(0, "rad_radikalis_aktivista"); // 1/1
    let f = g.put_in_play(1, "tis_forsthoffer_agnes"); // 1/3
    let toj = g.put_in_hand(0, "rad_tojasdobalas");
    let demo = g.put_in_hand(0, "rad_utcai_demonstracio");
    g.script(0, &[Opt::Card(f)]);
    g.play_card(0, toj);
    g.window(1);
    g.play_card(0, demo);
    g.window(1);
    assert_eq!(g.state().inst[f as usize].damage, 2);
    assert_eq!(g.influence(a), 2, "+1/+0 until end of turn");
    assert_eq!(g.state().players[1].support, 19);
    g.take_turn();
    assert_eq!(g.state().inst[f as usize].damage, 0);
    assert_eq!(g.influence(a), 1);
    assert!(!g.has_momentum(a) || g.def(a).kw.momentum);
    assert_eq!(g.state().inst[a as usize].eot_influence, 0);
    assert!(!g.state().inst[a as usize].eot_momentum);
    ok(&g);
}

// R7.4, R7.4.2 (E32): only the active player discards down to 7, at their own Close.
#[test]
fn r7_4_2_e32_hand_limit_at_own_close_only() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    fill_hand(&mut g, 0, 9);
    fill_hand(&mut g, 1, 10);
    g.take_turn();
    assert_eq!(g.state().players[0].hand.len(), 7);
    assert_eq!(g.state().players[0].oblivion.len(), 3, "10 after the draw, 3 discarded");
    assert_eq!(g.state().players[1].hand.len(), 10, "the other player keeps a big hand");
    ok(&g);
}

// R7.6, R7.6.1 (E33): drawing from an empty deck loses 2 Support per card (Draw step).
#[test]
fn r7_6_1_e33_empty_deck_draw_step() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    thin_deck(&mut g, 0, 0);
    g.take_turn();
    assert_eq!(g.state().players[0].support, 18);
    assert!(g.state().players[0].alive);
    ok(&g);
}

// R7.6.1 (E33): drawing N with M < N left draws M and loses 2 x (N - M).
#[test]
fn r7_6_1_e33_empty_deck_card_effect() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let elo = g.put_in_hand(0, "tis_elo_bejelentkezes"); // 2M: opponent gains 1 Scandal, draw 2
    g.add_bases(0, 1, 3);
    thin_deck(&mut g, 0, 1);
    g.play_card(0, elo);
    g.window(1);
    assert_eq!(g.state().players[0].hand.len(), 1);
    assert_eq!(g.state().players[0].deck.len(), 0);
    assert_eq!(g.state().players[0].support, 18);
    assert_eq!(g.state().players[1].scandal, 1);
    ok(&g);
}

// R7.8 (E35): the safety cap ends an unfinished game: no winner, reason 2.
#[test]
fn r7_8_e35_round_cap_game_is_unfinished() {
    let db = scenario::db(&[("rules.max_rounds", 1)]);
    let spec = BatchSpec { factions: vec![0, 2], bots: vec![BotSpec::random(); 2], games: 1, seed: 42, threads: Some(1), start_player: Some(0), ..Default::default() };
    let (r, _) = play_one(&db, &spec, 0, false, true);
    assert_eq!(r.end_reason, EndReason::UnfinishedRoundCap as u8);
    assert_eq!(r.end_reason, 2);
    assert_eq!(r.winner, -1);
    assert_eq!(r.rounds, 1);
    assert_eq!(r.turns, 2);
    assert!(r.invariant_error.is_none(), "{:?}", r.invariant_error);
}

// ======================================================================================
// R8 Timing
// ======================================================================================

// R8.1, R8.2 (E37), R7.5: the chain is last-in-first-out — Közfelháborodás played in response
// to Tojásdobálás resolves first and saves the Figure.
#[test]
fn r8_2_e37_chain_is_lifo() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.state_mut().players[0].scandal = 2;
    let toj = g.put_in_hand(0, "rad_tojasdobalas");
    g.add_bases(0, 2, 1);
    let v = g.put_in_play(1, "tis_vitezy_david"); // 1/2
    let k = g.put_in_hand(1, "tis_kozfelhaborodas"); // 1U: +X/+X, X = highest opponent Scandal
    g.add_bases(1, 2, 1);
    g.add_bases(1, 1, 1);
    g.script(1, &[Opt::Play(k)]);
    g.play_card(0, toj);
    g.window(1);
    assert_eq!(g.script_left(1), 0);
    assert_eq!(g.zone_of(v), Zone::Play, "the pump resolved first");
    assert_eq!(g.state().inst[v as usize].damage, 2);
    assert_eq!(g.credibility(v), 4);
    assert_eq!(g.influence(v), 3);
    assert!(g.state().chain.is_empty());
    assert_eq!(g.zone_of(toj), Zone::Oblivion);
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    ok(&g);
}

// R13.3, R13.3.1 (E69), R10.1.1 (E50), R6.3.1 (E22): a Targeted Action whose target is gone does
// nothing — no Scandal N — and its cost stays paid. (Visszalépés sacrifices the target.)
#[test]
fn r13_3_1_e69_fizzle_gives_no_scandal() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas"]);
    let lex = g.put_in_hand(0, "ner_lex_ceu"); // 2F, Scandal 1, return target Figure/Institution
    let fb = g.add_bases(0, 0, 3);
    let t = g.put_in_play(1, "osz_toth_bertalan");
    let v = g.put_in_hand(1, "osz_visszalepes"); // {1}, Sacrifice a Figure: gain 3 Support, draw 1
    g.add_bases(1, 1, 1);
    g.script(1, &[Opt::Play(v)]);
    g.play_card(0, lex);
    assert_eq!(g.state().players[0].scandal, 0, "E50: Scandal N of an Action comes at resolution");
    g.window(1);
    assert_eq!(g.zone_of(t), Zone::Oblivion, "sacrificed");
    assert_eq!(g.state().players[1].support, 23);
    assert_eq!(g.state().players[1].hand.len(), 1);
    assert_eq!(g.zone_of(lex), Zone::Oblivion);
    assert_eq!(g.state().players[0].scandal, 0, "the fizzled Lex CEU gives no Scandal");
    assert!(fb.iter().all(|&b| ex(&g, b)), "its cost stays paid");
    ok(&g);
}

// R13.2, R13.2.1 (E68): Neutralize sends the Action to Oblivion without effect.
#[test]
fn r13_2_1_e68_neutralize_an_opponents_action() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let elo = g.put_in_hand(0, "tis_elo_bejelentkezes");
    g.add_bases(0, 1, 3);
    let ej = g.put_in_hand(1, "ner_ejszakai_torvenymodositas"); // 1M, Scandal 1
    g.add_bases(1, 1, 2);
    g.script(1, &[Opt::Play(ej)]);
    g.play_card(0, elo);
    g.window(1);
    assert_eq!(g.state().players[1].scandal, 1, "only Éjszakai's own Scandal 1");
    assert_eq!(g.state().players[0].hand.len(), 0, "no cards drawn");
    assert_eq!(g.zone_of(elo), Zone::Oblivion);
    assert!(g.state().players[0].oblivion.contains(&elo));
    assert!(g.state().players[1].oblivion.contains(&ej));
    assert!(g.state().chain.is_empty());
    ok(&g);
}

// R13.2.1 (E68), R10.1.1 (E50): a Neutralized Action gives no Scandal N (NER neutralizes its
// own Lex CEU in the window that follows it).
#[test]
fn r13_2_1_e68_neutralized_action_gives_no_scandal_n() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let lex = g.put_in_hand(0, "ner_lex_ceu");
    let ej = g.put_in_hand(0, "ner_ejszakai_torvenymodositas");
    g.add_bases(0, 0, 3);
    g.add_bases(0, 1, 3);
    let t = g.put_in_play(1, "tis_tarr_zoltan");
    g.script(0, &[Opt::Play(ej)]);
    g.play_card(0, lex);
    g.window(1);
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.zone_of(t), Zone::Play, "Lex CEU had no effect");
    assert_eq!(g.state().players[0].scandal, 1, "1 from Éjszakai, none from Lex CEU");
    assert!(g.state().players[0].oblivion.contains(&lex) && g.state().players[0].oblivion.contains(&ej));
    ok(&g);
}

// R8.3 (E38 c): after an action of the active player the next player gets priority and may
// answer with a Reaction (Tojásdobálás on the Figure just played).
#[test]
fn r8_3_e38_after_action_window_lets_opponent_respond() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "radikalisok"]);
    g.state_mut().start_player = 1;
    let v = g.put_in_hand(0, "tis_vitezy_david"); // 1U
    g.add_bases(0, 2, 2);
    let toj = g.put_in_hand(1, "rad_tojasdobalas");
    g.add_bases(1, 2, 1);
    g.script(0, &[Opt::Play(v)]);
    g.script(1, &[Opt::Play(toj)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.script_left(1), 0);
    assert_eq!(g.zone_of(v), Zone::Oblivion);
    assert_eq!(g.zone_of(toj), Zone::Oblivion);
    ok(&g);
}

// R8.8 (E43): a player with no playable Reaction passes automatically (asked nothing); a single
// option is taken without asking.
#[test]
fn r8_8_e43_automatic_pass() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "radikalisok"]);
    let v = g.put_in_hand(0, "tis_vitezy_david");
    g.add_bases(0, 2, 2);
    g.put_in_hand(1, "rad_tojasdobalas"); // no Base to pay with
    g.script(1, &[Opt::Pass]);
    g.play_card(0, v);
    g.window(1);
    assert_eq!(g.script_left(1), 1, "not asked");
    g.add_bases(1, 2, 1);
    g.window(1);
    assert_eq!(g.script_left(1), 0, "asked now that Tojásdobálás is playable");
    assert_eq!(g.zone_of(v), Zone::Play);
}

// R8.5 (E40), R4.8.4: Moves, Figures and Institutions only with main priority; Reactions in
// windows too.
#[test]
fn r8_5_e40_timing_of_card_types() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.add_bases(0, 2, 4);
    g.put_in_play(1, "tis_tarr_zoltan");
    let mv = g.put_in_hand(0, "rad_partszakadas");
    let fig = g.put_in_hand(0, "rad_sneider_tamas");
    let inst = g.put_in_hand(0, "rad_hatarzar");
    let re = g.put_in_hand(0, "rad_tojasdobalas");
    g.add_bases(0, 2, 2);
    for c in [mv, fig, inst, re] {
        assert!(g.can_play_from_hand(0, c, false));
    }
    assert!(!g.can_play_from_hand(0, mv, true));
    assert!(!g.can_play_from_hand(0, fig, true));
    assert!(!g.can_play_from_hand(0, inst, true));
    assert!(g.can_play_from_hand(0, re, true));
}

// R8.1 (E36): a Figure does not use the chain; it enters play as soon as it is paid for, and
// its "enters play" trigger happens at once (R8.6, E41).
#[test]
fn r8_1_e36_figures_skip_the_chain() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let sz = g.put_in_hand(0, "ner_szijjarto_peter"); // 1FM, Scandal 1, enters: draw 1
    g.add_bases(0, 0, 1);
    g.add_bases(0, 1, 2);
    g.play_card(0, sz);
    assert!(g.state().chain.is_empty());
    assert_eq!(g.zone_of(sz), Zone::Play);
    assert_eq!(g.state().players[0].hand.len(), 1, "drew 1");
    assert_eq!(g.state().players[0].scandal, 1);
}

// ======================================================================================
// R9 Campaign
// ======================================================================================

// R9.2, R9.5, R9.1: attackers are exhausted; unblocked attackers reduce Support; one Campaign
// per turn.
#[test]
fn r9_2_unblocked_attackers_hit_support_one_campaign_per_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas"); // 2/2, others +1/+0
    let a = g.put_in_play(0, "rad_radikalis_aktivista"); // 1/1 -> 2
    let a2 = g.put_in_play(0, "rad_radikalis_aktivista");
    g.script(0, &[Opt::Attack(s, 1), Opt::Attack(a, 1), Opt::Done]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].support, 16);
    assert!(ex(&g, s) && ex(&g, a));
    assert!(!ex(&g, a2), "a Figure that did not attack stays ready");
    assert!(g.can_attack(a2));
    assert!(!g.can_start_campaign(0), "R9.1: one Campaign per turn");
    assert_eq!(g.state().players[0].attacks, 2);
    ok(&g);
}

// R9.5, R9.5.1 (E48): all combat damage is simultaneous: attacker and blocker destroy each other.
#[test]
fn r9_5_1_e48_simultaneous_combat_damage() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas"); // 2/2
    let t = g.put_in_play(1, "tis_tarr_zoltan"); // 2/2
    g.script(1, &[Opt::Block(t, s)]);
    g.campaign();
    assert_eq!(g.zone_of(s), Zone::Oblivion);
    assert_eq!(g.zone_of(t), Zone::Oblivion);
    assert_eq!(g.state().players[1].support, 20, "a blocked attacker deals no damage to the player");
    ok(&g);
}

// R9.3, R9.5, R9.5.1 (E48): several blockers on one attacker; the attacker's controller divides
// its damage in any split.
#[test]
fn r9_5_1_e48_attacker_divides_damage_among_blockers() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let o = g.put_in_play(0, "ner_orban_viktor"); // 5/6
    let sz = g.put_in_play(1, "tis_tisza_sziget"); // 1/1
    let k = g.put_in_play(1, "tis_kiabrandult_fideszes"); // 2/3
    g.script(1, &[Opt::Block(sz, o), Opt::Block(k, o)]);
    g.script(0, &[Opt::Card(sz), Opt::Card(k), Opt::Card(k), Opt::Card(sz), Opt::Card(sz)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.script_left(1), 0);
    assert_eq!(g.zone_of(sz), Zone::Oblivion, "3 damage");
    assert_eq!(g.zone_of(k), Zone::Play);
    assert_eq!(g.state().inst[k as usize].damage, 2);
    assert!(!ex(&g, k));
    assert_eq!(g.state().inst[o as usize].damage, 3, "1 + 2 from the blockers");
    assert_eq!(g.state().players[1].support, 20);
    ok(&g);
}

// R9.3, R9.3.1 (E46): a Propaganda attacker can't be blocked by a single Figure — with one
// possible blocker no block is offered.
#[test]
fn r9_3_1_e46_propaganda_single_block_not_offered() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let r = g.put_in_play(0, "ner_rogan_antal"); // 3/4 Propaganda
    let k = g.put_in_play(1, "tis_kiabrandult_fideszes");
    g.script(1, &[Opt::Block(k, r)]);
    g.campaign();
    assert_eq!(g.script_left(1), 1, "no decision: only Done was legal");
    assert_eq!(g.state().players[1].support, 17);
    assert_eq!(g.state().inst[k as usize].damage, 0);
}

// R9.3.1 (E46): with two Figures, a first Propaganda blocker forces a second (Done is not
// offered until the declaration is legal).
#[test]
fn r9_3_1_e46_propaganda_block_needs_two() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let r = g.put_in_play(0, "ner_rogan_antal"); // 3/4
    let k = g.put_in_play(1, "tis_kiabrandult_fideszes"); // 2/3
    let sz = g.put_in_play(1, "tis_tisza_sziget"); // 1/1
    g.script(1, &[Opt::Block(k, r)]); // the second block is the only legal answer
    g.campaign();
    assert_eq!(g.state().players[1].support, 20, "blocked");
    assert_eq!(g.state().inst[r as usize].damage, 3, "2 + 1 from both blockers, below Credibility 4");
    assert_eq!(g.zone_of(r), Zone::Play);
    // the passive division put all 3 points on the first blocker
    assert_eq!(g.zone_of(k), Zone::Oblivion);
    assert_eq!(g.state().inst[sz as usize].damage, 0);
    ok(&g);
}

// R9.5.2 (E49), R9.3.2 (E47): a blocked attacker whose blockers all left deals no damage.
#[test]
fn r9_5_2_e49_blocked_attacker_without_blockers_deals_nothing() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let b = g.put_in_play(1, "ner_bunbak"); // Sacrifice: remove 2 Scandal, any time
    g.state_mut().players[1].scandal = 2;
    g.script(1, &[Opt::Block(b, s), Opt::Activate(b, 0)]);
    g.campaign();
    assert_eq!(g.script_left(1), 0);
    assert_eq!(g.zone_of(b), Zone::Oblivion);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[1].support, 20, "still blocked: no damage to the player");
    assert_eq!(g.state().inst[s as usize].damage, 0);
    ok(&g);
}

// R9.5.1 (E48), R9.4: Influence is read at step 4 — a pump in the Campaign window counts.
#[test]
fn r9_5_1_e48_influence_read_at_damage_step() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let v = g.put_in_play(0, "tis_vitezy_david"); // 1/2
    let k = g.put_in_hand(0, "tis_kozfelhaborodas");
    g.add_bases(0, 2, 1);
    g.add_bases(0, 1, 1);
    g.state_mut().players[1].scandal = 3;
    g.script(0, &[Opt::Play(k)]);
    g.campaign();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].support, 16, "1 + 3");
    assert_eq!(g.influence(v), 4);
}

// R9.1.1 (E44): with no possible attacker the Campaign is not offered and not used up.
#[test]
fn r9_1_1_e44_no_campaign_without_attackers() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let k = g.put_in_play(0, "ner_kover_laszlo");
    g.state_mut().inst[k as usize].exhausted = true;
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Campaign));
    g.state_mut().inst[k as usize].exhausted = false;
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Campaign));
    assert_eq!(g.state().players[0].campaigns, 0);
}

// R9.7: attackers stay exhausted, so they can't block in the opponent's following turn.
#[test]
fn r9_7_exhausted_attacker_cannot_block() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    g.campaign();
    assert_eq!(g.state().players[1].support, 18);
    let t = g.put_in_play(1, "tis_tarr_zoltan");
    g.state_mut().active = 1;
    g.script(0, &[Opt::Block(s, t)]);
    g.campaign();
    assert_eq!(g.script_left(0), 1, "no block was possible");
    assert_eq!(g.state().players[0].support, 18);
}

// ======================================================================================
// R10 Scandal and Exposé
// ======================================================================================

// R10.3.3 (E53): the exposing player chooses k from 0 to min(2, Scandal).
#[test]
fn r10_3_3_e53_expose_chooses_fewer() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    g.state_mut().players[1].scandal = 3;
    g.script(0, &[Opt::Amount(1)]);
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 2);
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.state().players[0].scandal, 0, "the tokens go to the supply");
    g.script(0, &[Opt::Amount(0)]);
    g.expose(0, 1, 2, true);
    assert_eq!(g.state().players[1].scandal, 2);
    assert_eq!(g.state().players[1].support, 19);
}

// R10.3.1 (E51), R10.3.4 (E54), R7.3.1: the basic Exposé costs {1}{M}; a clean opponent may be
// chosen (cost paid, nothing taken); once per turn.
#[test]
fn r10_3_4_e54_expose_clean_opponent_once_per_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    g.state_mut().start_player = 1;
    let m = g.add_bases(0, 1, 1);
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Expose(1)), "E51: one Media is not enough");
    let u = g.add_bases(0, 2, 1);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Expose(1)));
    g.script(0, &[Opt::Expose(1)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].support, 20);
    assert!(ex(&g, m[0]) && ex(&g, u[0]), "the cost is paid");
    assert_eq!(g.state().players[0].exposes, 1);
    g.add_bases(0, 1, 2);
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::Expose(1)), "once per turn");
}

// R10.4, R10.4.1 (E56): a card's Exposé (Hadházy's) does not use the basic Exposé.
#[test]
fn r10_4_1_e56_card_expose_is_in_addition() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    g.state_mut().start_player = 1;
    g.put_in_play(0, "osz_hadhazy_akos"); // start of turn: Exposé 1
    g.add_bases(0, 1, 1);
    g.add_bases(0, 2, 1);
    g.state_mut().players[1].scandal = 3;
    g.script(0, &[Opt::Amount(1), Opt::Expose(1), Opt::Amount(2)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[1].support, 17);
    assert_eq!(g.state().last_reducer[1], 0, "E55");
}

// R10.5, R10.5.1 (E57): removing more Scandal than a player has removes all of it.
#[test]
fn r10_5_1_e57_scandal_floor() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let b = g.put_in_play(0, "ner_bunbak");
    g.state_mut().players[0].scandal = 1;
    g.activate(b, 0);
    assert_eq!(g.state().players[0].scandal, 0);
    assert_eq!(g.zone_of(b), Zone::Oblivion, "R13.1: sacrificed to Oblivion");
    assert_eq!(g.state().players[0].support, 20, "R10.5: no loss");
    ok(&g);
}

// ======================================================================================
// R11 Newsfeed and Recruit
// ======================================================================================

// R11.2, R11.2.1 (E60), R11.1.1 (E58): Recruit pays the cost, the Figure enters play Fresh
// under the recruiter's control, the row closes up and is refilled from the top; once per turn.
#[test]
fn r11_2_1_e60_recruit() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let mut bases = g.add_bases(0, 1, 3);
    bases.extend(g.add_bases(0, 0, 3));
    let row0 = g.state().news_row.clone();
    let next = *g.state().news_deck.last().unwrap();
    let p = *g.state().news_row.iter().find(|&&c| g.def(c).id == "nf_publicista").unwrap();
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Recruit(p)));
    g.recruit(0, p);
    assert_eq!(g.zone_of(p), Zone::Play);
    assert_eq!(g.controller(p), 0);
    assert!(g.state().inst[p as usize].fresh, "a recruited Figure is Fresh");
    assert!(!g.can_attack(p));
    let mut expect: Vec<Cid> = row0.iter().copied().filter(|&c| c != p).collect();
    expect.push(next);
    assert_eq!(g.state().news_row, expect);
    assert_eq!(bases.iter().filter(|&&b| ex(&g, b)).count(), 3, "2M: three resources paid");
    assert!(bases[..3].iter().any(|&b| ex(&g, b)), "the M pip from a Media Base");
    g.main_options(0);
    assert!(!g.opts().iter().any(|o| matches!(o, Opt::Recruit(_))), "once per turn");
    ok(&g);
}

// R11.2.1 (E60), R8.6: a recruited card enters play — its "enters play" trigger happens (HVG).
#[test]
fn r11_2_1_e60_recruited_card_enters_play() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.add_bases(0, 1, 2);
    let h = g.find_free(0, "nf_hvg");
    // put HVG into the row in place of the leftmost card
    let left = g.state_mut().news_row.remove(0);
    g.state_mut().inst[left as usize].zone = Zone::NewsDeck;
    g.state_mut().news_deck.insert(0, left);
    g.state_mut().inst[h as usize].zone = Zone::NewsRow;
    g.state_mut().news_row.push(h);
    g.recruit(0, h);
    assert_eq!(g.state().players[0].hand.len(), 1);
    assert_eq!(g.state().news_row.len(), 3);
    ok(&g);
}

// R11.3, R11.3.1 (E62), R5.2.1 (E17): a Newsfeed card leaving play goes to the bottom of the
// Newsfeed deck, also when returned to hand (R13.6).
#[test]
fn r11_3_newsfeed_card_leaving_play_goes_to_bottom() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let p = g.put_in_play(1, "nf_publicista"); // 2/2
    g.state_mut().inst[p as usize].damage = 2;
    g.state_check();
    assert_eq!(g.zone_of(p), Zone::NewsDeck);
    assert_eq!(g.state().news_deck[0], p);
    assert!(g.state().players[1].oblivion.is_empty());
    // returned to hand
    let h = g.put_in_play(1, "nf_hvg");
    let lex = g.put_in_hand(0, "ner_lex_ceu");
    g.add_bases(0, 0, 3);
    g.play_card(0, lex); // only HVG is a legal target
    g.window(1);
    assert_eq!(g.zone_of(h), Zone::NewsDeck);
    assert_eq!(g.state().news_deck[0], h);
    assert!(g.state().players[0].hand.is_empty() && g.state().players[1].hand.is_empty());
    ok(&g);
}

// R11.1.2 (E59): with an empty Newsfeed deck the slot stays empty until a card is put into it.
#[test]
fn r11_1_2_e59_empty_newsfeed_deck() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    while let Some(c) = g.state_mut().news_deck.pop() {
        g.state_mut().inst[c as usize].zone = Zone::Play;
        g.state_mut().inst[c as usize].controller = 1;
        g.state_mut().players[1].play.push(c);
    }
    g.add_bases(0, 1, 3);
    let m = *g.state().news_row.iter().find(|&&c| g.def(c).id == "nf_megafon_influenszer").unwrap();
    g.recruit(0, m);
    assert_eq!(g.state().news_row.len(), 2);
    ok(&g);
    let oknyomozo = *g.state().players[1].play.iter().find(|&&c| g.def(c).id == "nf_oknyomozo_ujsagiro").unwrap();
    g.state_mut().inst[oknyomozo as usize].damage = 5;
    g.state_check();
    assert_eq!(g.state().news_row.len(), 3);
    assert_eq!(g.state().news_row[2], oknyomozo);
    ok(&g);
}

// ======================================================================================
// R12 Events
// ======================================================================================

// R12.6 (E63), R12.2, R12.3: previous Event to the discard pile and its round effect ends; the
// leftmost Newsfeed card goes to the bottom; refill; the one-shot effect happens.
#[test]
fn r12_6_e63_event_procedure() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let e1 = g.force_event("ev_mediatorveny");
    assert_eq!(g.state().round_mods.expose_cost_increase, 1);
    assert_eq!(g.expose_cost(1).generic, 2, "this round the basic Exposé costs 1 more");
    let row = g.state().news_row.clone();
    let top = *g.state().news_deck.last().unwrap();
    let e2 = g.force_event("ev_fulkeforradalom");
    assert_eq!(g.state().event_in_force, Some(e2));
    assert_eq!(g.state().event_discard, vec![e1]);
    assert_eq!(g.zone_of(e1), Zone::EventDiscard);
    assert_eq!(g.state().round_mods.expose_cost_increase, 0, "the round effect ended");
    assert_eq!(g.state().news_deck[0], row[0], "leftmost to the bottom");
    assert_eq!(g.state().news_row, vec![row[1], row[2], top]);
    assert_eq!(g.state().players[0].support, 22);
    assert_eq!(g.state().players[1].support, 22);
    ok(&g);
}

// R12.4, R12.6 (E63 step 1): an empty Event deck is rebuilt from the discard pile; the Event in
// force is not part of it.
#[test]
fn r12_4_e63_event_deck_reshuffled_from_discard() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let e1 = g.force_event("ev_mediatorveny");
    while let Some(c) = g.state_mut().event_deck.pop() {
        g.state_mut().inst[c as usize].zone = Zone::EventDiscard;
        g.state_mut().event_discard.push(c);
    }
    assert_eq!(g.state().event_discard.len(), 17);
    g.event_procedure();
    assert_eq!(g.state().event_deck.len(), 16);
    assert_eq!(g.state().event_discard, vec![e1]);
    let e2 = g.state().event_in_force.unwrap();
    assert_ne!(e2, e1);
    ok(&g);
}

// R12.8 (E65): Event choices are made by the affected player (Partizán interjú).
#[test]
fn r12_8_e65_event_choices_by_affected_player() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let a = g.put_in_play(0, "ner_kover_laszlo");
    let t1 = g.put_in_play(1, "tis_tarr_zoltan");
    let t2 = g.put_in_play(1, "tis_vitezy_david");
    g.script(1, &[Opt::Card(t2)]);
    g.force_event("ev_partizan_interju");
    assert_eq!(g.state().inst[a as usize].counters, 1);
    assert_eq!(g.state().inst[t1 as usize].counters, 0);
    assert_eq!(g.state().inst[t2 as usize].counters, 1);
}

// ======================================================================================
// R13 Concepts and keywords
// ======================================================================================

// R13.1, R13.1.1 (E67), R13.5: an additional-cost Sacrifice; a token goes back to the box.
#[test]
fn r13_1_1_e67_sacrifice_token_goes_to_box() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    let tok = g.put_in_play(0, "tok_szakadar");
    let v = g.put_in_hand(0, "osz_visszalepes");
    g.add_bases(0, 1, 1);
    g.play_card(0, v); // the only Figure is sacrificed
    assert_eq!(g.zone_of(tok), Zone::Box);
    assert!(g.state().token_box.contains(&tok));
    g.window(1);
    assert_eq!(g.state().players[0].support, 23);
    assert_eq!(g.state().players[0].hand.len(), 1);
    ok(&g);
}

// R13.6, R5.4 (E19): Return to hand puts the card in its owner's hand and its counters and
// damage are lost; played again it is a new card.
#[test]
fn r13_6_e19_return_to_hand_loses_counters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let v = g.put_in_play(1, "tis_vitezy_david");
    g.add_counters(v, 2);
    g.state_mut().inst[v as usize].damage = 1;
    let lex = g.put_in_hand(0, "ner_lex_ceu");
    g.add_bases(0, 0, 3);
    g.play_card(0, lex);
    g.window(1);
    assert_eq!(g.zone_of(v), Zone::Hand);
    assert_eq!(g.state().players[1].hand, vec![v]);
    assert_eq!(g.state().inst[v as usize].counters, 0);
    assert_eq!(g.state().inst[v as usize].damage, 0);
    assert_eq!(g.state().players[0].scandal, 1, "Lex CEU resolved: Scandal 1");
    g.take_from_hand(1, v);
    g.enter_play(v, 1);
    assert_eq!(g.state().inst[v as usize].counters, 0);
    assert!(g.state().inst[v as usize].fresh);
    ok(&g);
}

// R13.6.1 (E70): a token returned to hand goes to the box.
#[test]
fn r13_6_1_e70_token_returned_goes_to_box() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "radikalisok"]);
    let t = g.put_in_play(1, "tok_kerites");
    let lex = g.put_in_hand(0, "ner_lex_ceu");
    g.add_bases(0, 0, 3);
    g.play_card(0, lex);
    g.window(1);
    assert_eq!(g.zone_of(t), Zone::Box);
    assert!(g.state().players[1].hand.is_empty());
    ok(&g);
}

// R13.4: a Sympathy counter gives +1/+1 (Országjárás: one on each Figure you control) and is
// lost when the Figure leaves play.
#[test]
fn r13_4_sympathy_counters() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let v = g.put_in_play(0, "tis_vitezy_david"); // 1/2
    let t = g.put_in_play(0, "tis_tarr_zoltan"); // 2/2
    let b = g.add_bases(0, 2, 3);
    let o = g.put_in_hand(0, "tis_orszagjaras");
    g.play_card(0, o);
    g.window(1);
    assert_eq!((g.influence(v), g.credibility(v)), (2, 3));
    assert_eq!((g.influence(t), g.credibility(t)), (3, 3));
    assert!(b.iter().all(|&x| g.state().inst[x as usize].counters == 0), "Figures only");
    g.state_mut().inst[t as usize].damage = 3;
    g.state_check();
    assert_eq!(g.zone_of(t), Zone::Oblivion);
    assert_eq!(g.state().inst[t as usize].counters, 0);
    ok(&g);
}

// R2.7.1 (E3): token cards are limited to the 4 of each kind.
#[test]
fn r2_7_1_e3_token_supply_limit() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let sp = db.index_of("tok_szakadar").unwrap();
    g.create_tokens(0, sp, 6);
    let n = g.state().players[0].play.iter().filter(|&&c| g.state().inst[c as usize].def == sp).count();
    assert_eq!(n, 4);
    assert_eq!(g.state().token_box.len(), 4, "the 4 Fences are left");
    ok(&g);
}

// E23 (R6.3.2): Defector reduces only the generic part (not below 0) when an opponent controls
// an Institution; an Event's Institution reduction applies to recruited Institutions too.
#[test]
fn r6_3_2_e23_cost_changes() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let k = g.put_in_hand(0, "tis_kiabrandult_fideszes"); // 2U, Defector 2
    assert_eq!(g.play_cost(0, k).generic, 2);
    g.put_in_play(1, "ner_rezsicsokkentes");
    let c = g.play_cost(0, k);
    assert_eq!((c.generic, c.pips), (0, [0, 0, 1]));
    let ruszin = g.put_in_hand(0, "tis_ruszin_szendi_romulusz"); // 3UU, Defector 2
    assert_eq!(g.play_cost(0, ruszin).generic, 1);
    g.force_event("ev_alaptorveny");
    let r = g.put_in_hand(1, "ner_legfobb_ugyeszseg"); // 2F Institution
    assert_eq!(g.play_cost(1, r).generic, 1);
    let hir = *g.state().news_row.iter().chain(g.state().news_deck.iter()).find(|&&c| g.def(c).id == "nf_hir_tv").unwrap();
    assert_eq!(g.recruit_cost(hir).generic, 1);
}

// ======================================================================================
// R14 State checks
// ======================================================================================

// R14.1 (E72): every Figure with damage >= Credibility leaves at once; Credibility 0 counts.
#[test]
fn r14_1_e72_state_check_removes_all_lethal_figures() {
    let db = scenario::db(&[("tis_tunteto_diak.credibility", 0)]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let a = g.put_in_play(0, "ner_semjen_zsolt"); // 2/2
    let b = g.put_in_play(1, "tis_tarr_zoltan"); // 2/2
    let c = g.put_in_play(1, "tis_forsthoffer_agnes"); // 1/3
    let d = g.put_in_play(1, "tis_tunteto_diak"); // 1/0
    g.state_mut().inst[a as usize].damage = 2;
    g.state_mut().inst[b as usize].damage = 5;
    g.state_mut().inst[c as usize].damage = 2;
    g.state_check();
    assert!(g.state().players[0].oblivion.contains(&a));
    assert!(g.state().players[1].oblivion.contains(&b));
    assert!(g.state().players[1].oblivion.contains(&d), "Credibility 0 leaves play");
    assert_eq!(g.zone_of(c), Zone::Play);
    assert_eq!(g.state().inst[c as usize].damage, 2);
    ok(&g);
}

// ======================================================================================
// R15 Multiplayer
// ======================================================================================

// R15.2, R9.2: with 3 players each attacker names its own target.
#[test]
fn r15_2_per_attacker_targets() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    let s = g.put_in_play(0, "rad_sneider_tamas"); // 2
    let a = g.put_in_play(0, "rad_radikalis_aktivista"); // 1 + 1
    g.script(0, &[Opt::Attack(s, 1), Opt::Attack(a, 2)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 18);
    assert_eq!(g.state().players[2].support, 18);
    assert_eq!(g.state().players[0].support, 20);
}

// R15.2.1 (E75), R9.3.1: only the attacked player blocks.
#[test]
fn r15_2_1_e75_only_attacked_player_blocks() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let k = g.put_in_play(2, "ner_kover_laszlo");
    g.script(0, &[Opt::Attack(s, 1)]);
    g.script(2, &[Opt::Block(k, s)]);
    g.campaign();
    assert_eq!(g.script_left(2), 1, "seat 2 was not asked to block");
    assert_eq!(g.state().players[1].support, 18);
    assert_eq!(g.state().inst[k as usize].damage, 0);
}

// R15.4, R15.4.1 (E77): the active player who knocks out an opponent in their own turn gains 5.
#[test]
fn r15_4_1_e77_voter_takeover_combat() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    g.state_mut().players[1].support = 2;
    g.script(0, &[Opt::Attack(s, 1)]);
    g.campaign();
    assert!(!g.state().players[1].alive);
    assert_eq!(g.state().players[0].support, 25);
    assert_eq!(g.state().players[2].support, 20);
    assert!(g.state().outcome.is_none());
    ok(&g);
}

// R15.4.1 (E77): a card effect's Support loss is credited to its controller.
#[test]
fn r15_4_1_e77_voter_takeover_card_effect() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    g.state_mut().players[2].support = 1;
    g.script(0, &[Opt::Player(2)]);
    g.enter_free(0, "rad_novak_elod"); // enters: target opponent loses 1 Support
    assert!(!g.state().players[2].alive);
    assert_eq!(g.state().players[0].support, 25);
    assert_eq!(g.state().players[1].support, 20);
}

// R15.4.1 (E77), R12.8 (E65): Support lost to an Event is credited to no one.
#[test]
fn r15_4_1_e77_no_voter_takeover_for_event_loss() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    g.state_mut().players[1].support = 2;
    g.state_mut().players[1].scandal = 3;
    g.force_event("ev_kegyelmi_botrany");
    assert!(!g.state().players[1].alive);
    assert_eq!(g.state().players[0].support, 20);
    assert_eq!(g.state().players[2].support, 20);
    assert!(g.state().outcome.is_none());
}

// R15.4.1 (E77), R7.6.1: Support lost to the empty-deck rule is credited to no one.
#[test]
fn r15_4_1_e77_no_voter_takeover_for_empty_deck() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    g.state_mut().players[1].support = 2;
    thin_deck(&mut g, 1, 0);
    g.force_event("ev_ellenzeki_elovalasztas"); // every player draws 1
    assert!(!g.state().players[1].alive);
    assert_eq!(g.state().players[0].support, 20);
}

// R15.4: only in the knocking-out player's own turn.
#[test]
fn r15_4_no_voter_takeover_in_opponents_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner", "tisza"]);
    g.state_mut().active = 1;
    g.state_mut().players[2].support = 2;
    g.state_mut().players[2].scandal = 2;
    let h = g.put_in_hand(0, "osz_hangfelvetel"); // Reaction: Exposé 4
    g.add_bases(0, 1, 2);
    g.script(0, &[Opt::Player(2)]);
    g.play_card(0, h);
    g.window(1);
    assert!(!g.state().players[2].alive);
    assert_eq!(g.state().last_reducer[2], 0);
    assert_eq!(g.state().players[0].support, 20, "not seat 0's turn");
    assert_eq!(g.state().players[1].support, 20);
}

// R15.3, R15.3.1 (E76), R11.3.1 (E62): an eliminated player's cards leave the game; Newsfeed
// cards they control go to the Newsfeed deck bottom (last entered lowest); tokens to the box;
// cards owned by others return to their owner; their Scandal goes away.
#[test]
fn r15_3_1_e76_eliminated_players_cards_leave() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza", "radikalisok"]);
    let h = g.put_in_hand(1, "tis_orszagjaras");
    thin_deck(&mut g, 1, 20);
    let obl = g.state().players[1].oblivion[0];
    let fig = g.put_in_play(1, "tis_tarr_zoltan");
    let n1 = g.put_in_play(1, "nf_publicista");
    let n2 = g.put_in_play(1, "nf_megafon_influenszer");
    let tok = g.put_in_play(1, "tok_szakadar");
    let sim = g.put_in_play(0, "ner_simicska_lajos");
    g.change_control(sim, 1);
    g.state_mut().players[1].scandal = 4;
    g.lose_support(1, 20, 0);
    g.state_check();
    assert!(!g.state().players[1].alive);
    for c in [h, obl, fig] {
        assert_eq!(g.zone_of(c), Zone::Removed);
    }
    let p1 = &g.state().players[1];
    assert!(p1.hand.is_empty() && p1.deck.is_empty() && p1.oblivion.is_empty() && p1.play.is_empty());
    assert_eq!(p1.scandal, 0);
    assert_eq!(g.state().news_deck[0], n2, "entered last, lowest");
    assert_eq!(g.state().news_deck[1], n1);
    assert_eq!(g.zone_of(tok), Zone::Box);
    assert_eq!(g.controller(sim), 0);
    assert!(g.state().players[0].play.contains(&sim));
    assert_eq!(g.state().players[0].support, 25, "R15.4: seat 0 knocked them out in its turn");
    ok(&g);
}

// R12.9 (E66), R3.10 (E11), R15.6: the start player role passes on; turn order skips the
// eliminated player.
#[test]
fn r12_9_e66_start_player_role_passes_and_turn_order_skips() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza", "radikalisok"]);
    g.state_mut().active = 1;
    g.state_mut().players[0].support = 1;
    g.lose_support(0, 1, 1);
    g.state_check();
    assert!(!g.state().players[0].alive);
    assert_eq!(g.state().start_player, 1);
    assert_eq!(g.next_alive(2), 1);
    assert_eq!(g.next_alive(1), 2);
    assert_eq!(g.opponents(1).collect::<Vec<_>>(), vec![2]);
    ok(&g);
}

// R7.7 (E34): with 3 players, an active player eliminated in their own turn (Scandal threshold)
// ends the turn; the game goes on.
#[test]
fn r7_7_e34_active_player_eliminated_in_own_turn() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza", "radikalisok"]);
    g.state_mut().start_player = 1;
    g.state_mut().players[0].support = 1;
    g.state_mut().players[0].scandal = 6;
    g.put_in_play(0, "ner_kover_laszlo");
    g.take_turn();
    assert!(!g.state().players[0].alive);
    assert!(g.state().outcome.is_none());
    assert!(g.state().players[0].play.is_empty());
    assert_eq!(g.state().players[1].support, 20, "threshold loss credited to no one");
    assert_eq!(g.next_alive(0), 1);
    ok(&g);
}

// R15.5 (E78): "each opponent" means every opponent (Kordonbontás in a 3-player game).
#[test]
fn r15_5_e78_each_opponent() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    let k = g.put_in_hand(0, "rad_kordonbontas");
    g.add_bases(0, 2, 3);
    g.play_card(0, k);
    g.window(1);
    assert_eq!(g.state().players[1].support, 19);
    assert_eq!(g.state().players[2].support, 19);
    assert_eq!(g.state().players[0].support, 20);
}

// ======================================================================================
// R17 Parameters
// ======================================================================================

// R17 rules.starting_support (R1.1) and second_player_bonus (R3.8).
#[test]
fn r17_starting_support_parameter() {
    let db = scenario::db(&[("rules.starting_support", 30)]);
    let mut g = fresh(&db, &[0, 1], 2);
    g.setup(Some(1));
    assert_eq!(g.state().players[1].support, 30);
    assert_eq!(g.state().players[0].support, 35);
    let db = scenario::db(&[("rules.starting_support", 15), ("rules.second_player_bonus", 0)]);
    let mut g = fresh(&db, &[0, 1], 2);
    g.setup(Some(0));
    assert_eq!([g.state().players[0].support, g.state().players[1].support], [15, 15]);
}

// R17 rules.hand_limit (R7.4).
#[test]
fn r17_hand_limit_parameter() {
    let db = scenario::db(&[("rules.hand_limit", 5)]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    fill_hand(&mut g, 0, 6);
    g.take_turn();
    assert_eq!(g.state().players[0].hand.len(), 5);
    assert_eq!(g.state().players[0].oblivion.len(), 2);
}

// R17 rules.expose_cost (R10.3.1, E51): "{M}" makes one Media enough.
#[test]
fn r17_expose_cost_parameter() {
    let db = db_with(&[("rules.expose_cost", ParamValue::Str("{M}".into()))]).unwrap();
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let m = g.add_bases(0, 1, 1);
    g.state_mut().players[1].scandal = 2;
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Expose(1)));
    let c = g.expose_cost(1);
    assert_eq!((c.generic, c.pips), (0, [0, 1, 0]));
    g.script(0, &[Opt::Expose(1)]);
    g.state_mut().start_player = 1;
    g.take_turn();
    assert!(ex(&g, m[0]));
    assert_eq!(g.state().players[1].support, 18);
}

// R17 rules.scandal_threshold and scandal_threshold_loss (R10.2.1).
#[test]
fn r17_scandal_threshold_parameters() {
    let db = scenario::db(&[("rules.scandal_threshold", 3), ("rules.scandal_threshold_loss", 2)]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    g.state_mut().players[0].scandal = 3;
    g.take_turn();
    assert_eq!(g.state().players[0].support, 18);
}

// R17: unknown parameter names and out-of-range or ill-typed values are errors naming the
// parameter.
#[test]
fn r17_parameter_errors_name_the_parameter() {
    let e = db_with(&[("rules.no_such_rule", ParamValue::Int(1))]).expect_err("unknown name");
    assert!(e.contains("rules.no_such_rule"), "{e}");
    let e = db_with(&[("rules.hand_limit", ParamValue::Int(-1))]).expect_err("out of range");
    assert!(e.contains("rules.hand_limit"), "{e}");
    let e = db_with(&[("rules.starting_support", ParamValue::Int(0))]).expect_err("out of range");
    assert!(e.contains("rules.starting_support"), "{e}");
    let e = db_with(&[("rules.expose_cost", ParamValue::Str("{X}".into()))]).expect_err("bad cost");
    assert!(e.contains("rules.expose_cost"), "{e}");
    let e = db_with(&[("rules.hand_limit", ParamValue::Str("7".into()))]).expect_err("wrong kind");
    assert!(e.contains("rules.hand_limit"), "{e}");
    let e = db_with(&[("ner_orban_viktor.influence", ParamValue::Int(100))]).expect_err("card out of range");
    assert!(e.contains("ner_orban_viktor.influence"), "{e}");
    let e = db_with(&[("rules.voter_takeover_credit", ParamValue::Str("nobody".into()))]).expect_err("bad choice");
    assert!(e.contains("rules.voter_takeover_credit"), "{e}");
    assert!(db_with(&[("rules.voter_takeover_credit", ParamValue::Str("active_player".into()))]).is_ok());
}

// R3.1.1 (E5): no mirror matches unless rules.allow_mirror.
#[test]
fn r3_1_1_e5_no_mirror_matches() {
    let spec = BatchSpec { factions: vec![2, 2], bots: vec![BotSpec::random(); 2], games: 1, seed: 1, threads: Some(1), start_player: None, ..Default::default() };
    let db = scenario::db(&[]);
    let e = spec.validate(&db).expect_err("mirror rejected");
    assert!(e.contains("allow_mirror"), "{e}");
    let db = db_with(&[("rules.allow_mirror", ParamValue::Bool(true))]).unwrap();
    assert!(spec.validate(&db).is_ok());
}

// ======================================================================================
// More edge cases
// ======================================================================================

// R7.7 (E34), R9.5.2 (E49): the active player knocked out in the Campaign window (by an
// opponent's Exposé Reaction) — the Campaign ends without damage; no Voter takeover for the
// Reaction's controller, whose turn it is not (R15.4).
#[test]
fn r7_7_e34_active_player_knocked_out_mid_campaign() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "osszefogas", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    g.state_mut().players[0].support = 2;
    g.state_mut().players[0].scandal = 2;
    let h = g.put_in_hand(1, "osz_hangfelvetel");
    g.add_bases(1, 1, 2);
    g.script(0, &[Opt::Attack(s, 1)]);
    g.script(1, &[Opt::Play(h), Opt::Player(0)]);
    g.campaign();
    assert_eq!(g.script_left(1), 0);
    assert!(!g.state().players[0].alive);
    assert!(g.state().outcome.is_none());
    assert_eq!(g.state().players[1].support, 20, "no combat damage, no Voter takeover");
    assert_eq!(g.zone_of(s), Zone::Removed);
    assert!(!g.state().campaign.active);
    ok(&g);
}

// R15.4.1 (E77) parameter voter_takeover_credit = "active_player": every opponent eliminated in
// the active player's turn is credited to them, Event losses included.
#[test]
fn r15_4_1_e77_voter_takeover_credit_active_player() {
    let db = db_with(&[("rules.voter_takeover_credit", ParamValue::Str("active_player".into()))]).unwrap();
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    g.state_mut().players[1].support = 2;
    g.state_mut().players[1].scandal = 3;
    g.force_event("ev_kegyelmi_botrany");
    assert!(!g.state().players[1].alive);
    assert_eq!(g.state().players[0].support, 25);
    assert_eq!(g.state().players[2].support, 20);
}

// R17 rules.voter_takeover_gain (R15.4).
#[test]
fn r17_voter_takeover_gain_parameter() {
    let db = scenario::db(&[("rules.voter_takeover_gain", 2)]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza", "ner"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    g.state_mut().players[1].support = 2;
    g.script(0, &[Opt::Attack(s, 1)]);
    g.campaign();
    assert_eq!(g.state().players[0].support, 22);
}

// R6.4.2 (E25), R6.6: a Figure's ↷ resource ability obeys Fresh.
#[test]
fn r6_4_2_e25_fresh_figure_cannot_produce() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let m = g.enter_free(0, "ner_meszaros_lorinc");
    let b = g.put_in_hand(0, "ner_bunbak");
    assert!(g.state().inst[m as usize].fresh);
    assert!(!g.can_play_from_hand(0, b, false), "Fresh Mészáros can't pay");
    g.state_mut().start_player = 1;
    g.take_turn();
    assert!(g.can_play_from_hand(0, b, false));
}

// R6.7.1 (E27): Swap any number of times per turn, paying each time.
#[test]
fn r6_7_1_e27_swap_twice() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.state_mut().start_player = 1;
    let b1 = g.put_in_hand(0, "ner_base_kozbeszerzes");
    let b2 = g.put_in_hand(0, "ner_base_stadion");
    let m = g.add_bases(0, 1, 2);
    let deck = g.state().players[0].deck.len();
    g.script(0, &[Opt::Swap(b1), Opt::Swap(b2)]);
    g.take_turn();
    assert_eq!(g.script_left(0), 0);
    assert_eq!(g.state().players[0].oblivion, vec![b1, b2]);
    assert_eq!(g.state().players[0].deck.len(), deck - 3);
    assert_eq!(g.state().players[0].hand.len(), 3);
    assert!(m.iter().all(|&c| ex(&g, c)));
    assert_eq!(g.state().players[0].bases_played, 0);
}

// R8.5 (E40): activated abilities only with main priority unless the text allows another time
// (Bűnbak: any time, even while Fresh — its cost is not ↷).
#[test]
fn r8_5_e40_ability_timing() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let gul = g.put_in_play(0, "ner_gulyas_gergely");
    assert!(g.can_activate(gul, 0, false));
    assert!(!g.can_activate(gul, 0, true), "not in a window");
    let b = g.enter_free(0, "ner_bunbak");
    assert!(g.state().inst[b as usize].fresh);
    assert!(g.can_activate(b, 0, true));
    // in the opponent's turn, in a window
    g.state_mut().active = 1;
    g.state_mut().players[0].scandal = 3;
    g.script(0, &[Opt::Activate(b, 0)]);
    g.window(1);
    assert_eq!(g.state().players[0].scandal, 1);
    assert_eq!(g.zone_of(b), Zone::Oblivion);
}

// R5.1 (E16), R14.1: Figures leaving at the same time go to Oblivion in the order they entered.
#[test]
fn r5_1_e16_simultaneous_moves_in_entered_order() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let t1 = g.put_in_play(1, "tis_vitezy_david");
    let t2 = g.put_in_play(1, "tis_tarr_zoltan");
    g.state_mut().inst[t2 as usize].damage = 2;
    g.state_mut().inst[t1 as usize].damage = 2;
    g.state_check();
    assert_eq!(g.state().players[1].oblivion, vec![t1, t2]);
}

// R13.5, R9.3: token cards are Figures — a Fence blocks (and can't attack); created Splinters
// have Momentum and may attack at once.
#[test]
fn r13_5_tokens_are_figures() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "radikalisok"]);
    let v = g.put_in_play(0, "tis_tarr_zoltan"); // 2/2
    let f = g.put_in_play(1, "tok_kerites"); // 0/3, can't attack
    g.script(1, &[Opt::Block(f, v)]);
    g.campaign();
    assert_eq!(g.state().inst[f as usize].damage, 2);
    assert_eq!(g.state().inst[v as usize].damage, 0);
    assert_eq!(g.state().players[1].support, 20);
    g.state_mut().active = 1;
    assert!(!g.can_attack(f), "Fence: can't attack");
    let ps = g.put_in_hand(1, "rad_partszakadas");
    g.add_bases(1, 2, 2);
    g.play_card(1, ps);
    g.window(0);
    let sp: Vec<Cid> = g.state().players[1].play.iter().copied().filter(|&c| g.def(c).id == "tok_szakadar").collect();
    assert_eq!(sp.len(), 2);
    assert!(sp.iter().all(|&c| g.state().inst[c as usize].fresh && g.can_attack(c)), "Momentum");
    ok(&g);
}

// R9.3: one blocker blocks one attacker; the other attacker gets through.
#[test]
fn r9_3_one_blocker_blocks_one_attacker() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas"); // 2/2
    let a = g.put_in_play(0, "rad_radikalis_aktivista"); // 1/1 +1/+0
    let k = g.put_in_play(1, "tis_kiabrandult_fideszes"); // 2/3
    g.script(0, &[Opt::Attack(s, 1), Opt::Attack(a, 1)]);
    g.script(1, &[Opt::Block(k, s)]);
    g.campaign();
    assert_eq!(g.state().players[1].support, 18, "the aktivista's 2");
    assert_eq!(g.zone_of(s), Zone::Oblivion);
    assert_eq!(g.state().inst[k as usize].damage, 2);
}

// R15.2: the basic Exposé may be aimed at any opponent.
#[test]
fn r15_2_expose_any_opponent() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza", "ner"]);
    g.add_bases(0, 1, 2);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Expose(1)) && g.opts().contains(&Opt::Expose(2)));
    assert!(!g.opts().contains(&Opt::Expose(0)));
}

// R14.4 (E73): in a two-player game the first elimination ends the game at once; nothing
// further is carried out (Novák Előd's trigger happens, the later Campaign cannot).
#[test]
fn r14_4_e73_two_player_game_ends_at_first_elimination() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    g.state_mut().players[1].support = 1;
    g.enter_free(0, "rad_novak_elod");
    assert_eq!(g.state().outcome, Some(Outcome::won_by(0, EndReason::LastPlayerStanding)));
    g.state_mut().players[0].support = -3;
    g.state_check();
    assert_eq!(g.state().outcome.unwrap().winner(), Some(0), "the outcome is final");
}

// R12.1, R12.9 (E66): in a 3-player game the start player is knocked out by the next player's
// start-of-turn Exposé (Hadházy Ákos). The start player role passes to that player, but the new
// round (and its Event, with the Newsfeed rotation) begins only when their *next* turn begins:
// no second Event in the same round.
#[test]
fn r12_9_e66_start_player_knocked_out_at_next_players_wake_no_second_event() {
    let db = scenario::db(&[("rules.max_rounds", 2)]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza"]);
    let e1 = g.force_event("ev_kvotanepszavazas"); // round 1's Event (everyone gains 1 Scandal)
    g.state_mut().players[0].support = 1;
    g.put_in_play(1, "osz_hadhazy_akos");
    let row: Vec<Cid> = g.state().news_row.clone();
    g.trace_mut().log = Some(Vec::new());
    g.state_mut().active = 1;
    g.script(1, &[Opt::Player(0)]);
    g.take_turn();
    assert!(!g.state().players[0].alive, "Hadházy's Exposé took the start player's last Support");
    assert_eq!(g.state().start_player, 1, "E66: the role passes at once");
    assert_eq!(g.state().event_in_force, Some(e1), "no second Event in round 1");
    assert!(g.state().event_discard.is_empty());
    assert_eq!(g.state().news_row, row, "no second Newsfeed rotation in round 1");
    assert_eq!(g.state().round, 1);
    g.state_mut().active = 2;
    g.take_turn();
    assert_eq!(g.state().event_in_force, Some(e1));
    // seat 1's next turn begins round 2: its Event is flipped then
    g.state_mut().active = 1;
    let out = g.run_loop();
    assert_eq!(out.reason, EndReason::UnfinishedRoundCap);
    assert_eq!(g.state().round, 2);
    assert_eq!(g.state().event_discard, vec![e1]);
    assert!(g.state().event_in_force.is_some() && g.state().event_in_force != Some(e1));
    let events = g.trace().log.as_ref().unwrap().iter().filter(|l| l.starts_with("Event:")).count();
    assert_eq!(events, 1, "one Event per round: only round 2's");
}

// R17: extreme parameter values inside their ranges never wrap round: Sympathy counters, damage
// and Influence/Credibility saturate (99 counters a time, 10 Influence a counter).
#[test]
fn r17_extreme_counters_saturate() {
    let db = scenario::db(&[("keyword.sympathy.counter_influence", 10), ("keyword.sympathy.counter_credibility", 10)]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let d = g.put_in_play(0, "tis_tunteto_diak");
    for _ in 0..400 {
        g.add_counters(d, 99);
    }
    assert_eq!(g.state().inst[d as usize].counters, i16::MAX);
    assert_eq!((g.influence(d), g.credibility(d)), (i16::MAX, i16::MAX));
    // it deals its (saturated) Influence as damage without wrapping
    let s = g.put_in_play(1, "ner_semjen_zsolt");
    g.state_mut().inst[s as usize].damage = 5;
    g.script(0, &[Opt::Attack(d, 1)]);
    g.script(1, &[Opt::Block(s, d)]);
    g.campaign();
    assert_eq!(g.zone_of(s), Zone::Oblivion, "knocked out, not healed by a wrapped damage total");
    ok(&g);
}

// ======================================================================================
// The action log (issue 9 item 14): a reader can follow the whole public game. Card names in
// parentheses after "draws" and "puts 1 card on the bottom" are private to that player.
// ======================================================================================

fn take_log(g: &mut Game) -> Vec<String> {
    std::mem::take(g.trace_mut().log.as_mut().expect("log on"))
}

#[test]
fn log_draws_name_the_cards_and_empty_deck_losses() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    g.trace_mut().log = Some(Vec::new());
    let top: Vec<String> = g.state().players[0].deck.iter().rev().take(2).map(|&c| g.name(c).to_string()).collect();
    g.draw(0, 2);
    assert_eq!(take_log(&mut g), vec![format!("  P0 draws 2 cards ({}, {})", top[0], top[1])]);
    thin_deck(&mut g, 0, 1);
    let last = g.name(g.state().players[0].deck[0]).to_string();
    g.draw(0, 3);
    assert_eq!(
        take_log(&mut g),
        vec![
            format!("  P0 draws 1 card ({last})"),
            "  P0 cannot draw from an empty deck: loses 2 Support".to_string(),
            "  P0 loses 2 Support (now 18)".to_string(),
            "  P0 cannot draw from an empty deck: loses 2 Support".to_string(),
            "  P0 loses 2 Support (now 16)".to_string(),
        ]
    );
}

#[test]
fn log_hand_limit_discards_and_swap() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    fill_hand(&mut g, 0, 9);
    g.trace_mut().log = Some(Vec::new());
    g.state_mut().start_player = 1; // no Event in this Wake
    g.take_turn(); // draws to 10, discards 3 at Close
    let log = take_log(&mut g);
    let discards: Vec<&String> = log.iter().filter(|l| l.contains("discards")).collect();
    assert_eq!(discards.len(), 3, "{log:#?}");
    for (l, &c) in discards.iter().zip(&g.state().players[0].oblivion) {
        assert_eq!(**l, format!("  P0 discards {} to Oblivion (hand limit)", g.name(c)));
    }
    // Swap: the Base is discarded, the draw names the new card
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let b = g.put_in_hand(0, "ner_base_stadion");
    g.add_bases(0, 0, 1);
    let next = g.name(*g.state().players[0].deck.last().unwrap()).to_string();
    g.trace_mut().log = Some(Vec::new());
    g.apply_main(0, Opt::Swap(b));
    let log = take_log(&mut g);
    assert_eq!(log[0], format!("P0 swaps {}: discards it to Oblivion and draws", g.name(b)));
    assert_eq!(log[1], "  P0 pays {1}");
    assert!(log[2].ends_with("is exhausted for resources"));
    assert_eq!(log[3], format!("  P0 draws 1 card ({next})"));
}

// Targets, counters placed and removed, and a Newsfeed card "returned to hand" going to the
// Newsfeed deck (R13.6) — logged as such.
#[test]
fn log_targets_counters_and_newsfeed_card_sent_back() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let civil = g.put_in_play(1, "nf_civil_jogvedo");
    let fa = g.put_in_play(1, "tis_forsthoffer_agnes");
    g.trace_mut().log = Some(Vec::new());
    g.gain_scandal(0, 1); // Outrage
    let log = take_log(&mut g);
    assert!(log.contains(&format!("  Outrage: {}", g.name(fa))), "{log:#?}");
    assert!(log.contains(&format!("  {} gets 1 Sympathy counter(s) (now 1)", g.name(fa))), "{log:#?}");
    g.add_counters(civil, 2);
    let lex = g.put_in_hand(0, "ner_lex_ceu");
    g.add_bases(0, 0, 3);
    g.script(0, &[Opt::Card(civil)]);
    g.play_card(0, lex);
    g.resolve_top();
    assert_eq!(g.state().news_deck[0], civil, "bottom of the Newsfeed deck");
    let log = take_log(&mut g);
    let name = g.name(civil);
    assert!(log.contains(&format!("  Lex CEU: P0 targets {name} (P1's)")), "{log:#?}");
    assert!(log.contains(&format!("  {name} leaves play: its 2 Sympathy counter(s) are removed")), "{log:#?}");
    assert!(log.contains(&format!("  {name} goes to the bottom of the Newsfeed deck")), "{log:#?}");
    assert!(!log.iter().any(|l| l.contains("returns to")), "{log:#?}");
    assert!(log.contains(&"  Lex CEU goes to P0's Oblivion".to_string()), "{log:#?}");
}

// R15.4: Voter takeover is logged only when it happens: Border Closure stops the gain (and
// the line).
#[test]
fn log_voter_takeover_not_when_border_closure_blocks_it() {
    let db = scenario::db(&[]);
    for closed in [false, true] {
        let mut g = scenario::game(&db, &["ner", "radikalisok", "tisza"]);
        if closed {
            g.put_in_play(1, "rad_hatarzar");
        }
        g.trace_mut().log = Some(Vec::new());
        g.state_mut().players[2].support = 1;
        g.lose_support(2, 1, 0);
        g.state_check();
        assert!(!g.state().players[2].alive);
        let log = take_log(&mut g);
        let logged = log.iter().any(|l| l.contains("Voter takeover"));
        assert_eq!(logged, !closed, "{log:#?}");
        assert_eq!(g.state().players[0].support, if closed { 20 } else { 25 });
    }
}

// The log accounts for every card of a player's deck and hand through a whole game: the
// deck and hand sizes at the end follow from the logged draws, mulligans, bottomed cards,
// plays, Swaps, discards and returns to hand.
#[test]
fn log_follows_every_card_of_the_winner() {
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    let mut checked = 0;
    for (seed, f) in [(1u64, vec![0u8, 2]), (2, vec![1, 3]), (3, vec![2, 1]), (4, vec![3, 0]), (5, vec![0, 1, 2, 3])] {
        let spec = BatchSpec { bots: vec![BotSpec::random(); f.len()], factions: f.clone(), games: 4, seed, threads: Some(1), start_player: None, ..Default::default() };
        for i in 0..4 {
            let mut slot = None;
            let (r, log) = ketharmad::batch::play_one_in(&mut slot, &db, &spec, i, true, false, false);
            let g = slot.unwrap();
            let log = log.unwrap();
            let Some(w) = (r.winner >= 0).then_some(r.winner as usize) else { continue };
            let tag = format!("P{w} ");
            let count = |pat: &str| -> i64 {
                log.iter()
                    .filter_map(|l| {
                        let t = l.trim_start();
                        t.strip_prefix(&tag).and_then(|rest| rest.strip_prefix(pat))
                    })
                    .map(|rest| if pat == "draws " { rest.split(' ').next().unwrap().parse::<i64>().unwrap() } else { 1 })
                    .sum()
            };
            let drawn = count("draws ");
            let returned_by_mulligan: i64 = log
                .iter()
                .filter(|l| l.starts_with(&format!("P{w} mulligans")))
                .map(|l| l.split("hand (").nth(1).unwrap().split(' ').next().unwrap().parse::<i64>().unwrap())
                .sum();
            let bottomed = count("puts 1 card on the bottom");
            let played = count("plays ");
            let swapped = count("swaps ");
            let discarded = count("discards ");
            let back = log.iter().filter(|l| l.ends_with(&format!("returns to P{w}'s hand"))).count() as i64;
            let deck0 = db.decks[f[w] as usize].len() as i64;
            assert_eq!(g.state().players[w].deck.len() as i64, deck0 - drawn + returned_by_mulligan + bottomed, "deck of P{w}, seed {seed} game {i}");
            assert_eq!(g.state().players[w].hand.len() as i64, drawn - returned_by_mulligan - bottomed - played - swapped - discarded + back, "hand of P{w}, seed {seed} game {i}");
            checked += 1;
        }
    }
    assert!(checked >= 15);
}

// Logging is free when off and changes nothing when on: the same games give the same results.
#[test]
fn log_on_or_off_same_games() {
    let db = build_db(&load_raw(ketharmad::DEFAULT_CARD_DATA).unwrap(), &[]).unwrap();
    for f in [vec![0u8, 2], vec![1, 2, 3], vec![3, 2, 1, 0]] {
        let spec = BatchSpec { bots: vec![BotSpec::random(); f.len()], factions: f.clone(), games: 30, seed: 9, threads: Some(1), start_player: None, ..Default::default() };
        for i in 0..30 {
            let (a, _) = play_one(&db, &spec, i, false, false);
            let (b, log) = play_one(&db, &spec, i, true, false);
            assert!(log.unwrap().len() > 50);
            assert_eq!((a.winner, a.turns, a.actions, a.end_reason), (b.winner, b.turns, b.actions, b.end_reason));
        }
    }
}

// ======================================================================================
// Rules cited by no test before (issue 9 item 15)
// ======================================================================================

/// Record every decision put to the (scripted) policies from now on.
fn record(g: &mut Game) {
    g.trace_mut().decisions = Some(Vec::new());
}

fn recorded(g: &Game, seat: u8, kind: DecisionKind) -> Vec<Vec<Opt>> {
    g.trace().decisions.as_ref().unwrap().iter().filter(|d| d.0 == seat && d.1 == kind).map(|d| d.2.clone()).collect()
}

// R1.3: the last player remaining wins; there is no other end: with 4 players the game goes
// on after the first and second eliminations and ends at the third.
#[test]
fn r1_3_last_player_remaining_wins() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "osszefogas", "tisza", "radikalisok"]);
    for (k, p) in [1usize, 3, 0].into_iter().enumerate() {
        g.state_mut().players[p].support = 1;
        g.lose_support(p, 1, -1);
        g.state_check();
        assert!(!g.state().players[p].alive);
        if k < 2 {
            assert!(g.state().outcome.is_none(), "{} players left: the game goes on", 3 - k);
        }
    }
    assert_eq!(g.state().outcome, Some(Outcome::won_by(2, EndReason::LastPlayerStanding)));
    ok(&g);
}

// R1.5, R1.5.1–R1.5.3: a turn is one player's go, a round runs from the start player round to
// the start player. An "until end of turn" change ends with the turn it was made in; the
// Event's "this round" effect lasts through every player's turn of the round and ends when
// the next round's Event is flipped.
#[test]
fn r1_5_turns_and_rounds() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner", "radikalisok"]);
    stack_events(&mut g, &["ev_veszelyhelyzet", "ev_kvotanepszavazas"]);
    let fa = g.put_in_play(0, "tis_forsthoffer_agnes");
    let k = g.put_in_hand(0, "tis_kozfelhaborodas");
    g.add_bases(0, 2, 2);
    g.state_mut().players[1].scandal = 2;
    g.trace_mut().log = Some(Vec::new());
    g.script(0, &[Opt::Play(k)]);
    let turn0 = g.state().turn;
    g.take_turn(); // seat 0, the start player: round 1's Event
    assert!(g.trace().log.as_ref().unwrap().contains(&format!("  {} gets +2/+2", g.name(fa))), "the pump happened");
    assert_eq!(g.state().inst[fa as usize].eot_influence, 0, "R1.5.1: ended with the turn");
    assert_eq!(g.state().round_mods.max_attackers, Some(2), "R1.5.3: the Event lasts the round");
    for p in [1, 2] {
        g.state_mut().active = p;
        g.take_turn();
        assert_eq!(g.state().round_mods.max_attackers, Some(2), "still round 1 in P{p}'s turn");
    }
    assert_eq!(g.state().turn, turn0 + 3, "three turns in the round");
    g.state_mut().active = 0;
    g.take_turn(); // round 2 begins: the next Event replaces the round effect
    assert_eq!(g.state().round_mods.max_attackers, None);
    assert_eq!(g.state().event_discard.len(), 1);
}

// R2.7.2 (E4): Márki-Zay Péter's die is a fair d6 from the game's seeded generator: every
// face comes up about equally often, the same seed gives the same rolls, another seed others.
#[test]
fn r2_7_2_e4_die_is_a_fair_seeded_d6() {
    let db = scenario::db(&[]);
    let rolls = |seed: u64, n: usize| -> Vec<u8> {
        let mut g = fresh(&db, &[1, 0], seed);
        let mz = g.put_in_play(0, "osz_marki_zay_peter");
        for p in 0..2 {
            g.state_mut().players[p].support = 1_000_000;
        }
        g.trace_mut().log = Some(Vec::new());
        for _ in 0..n {
            g.run_triggers(mz, 0, Trigger::StartOfTurn);
        }
        g.trace().log.as_ref().unwrap().iter().filter_map(|l| l.split(" rolls ").nth(1)).map(|r| r.parse::<u8>().unwrap()).collect()
    };
    let a = rolls(5, 3000);
    assert_eq!(a.len(), 3000);
    for face in 1..=6u8 {
        let k = a.iter().filter(|&&r| r == face).count();
        assert!((400..=600).contains(&k), "face {face} came up {k} times in 3000 rolls");
    }
    assert_eq!(rolls(5, 200), a[..200].to_vec(), "same seed, same rolls");
    assert_ne!(rolls(6, 200), a[..200].to_vec(), "another seed, other rolls");
}

// R3.3.4 (E8): players decide on mulligans in seat order, each seeing only their own hand,
// before the start player is chosen: the deal and the mulligan decisions do not depend on who
// will start.
#[test]
fn r3_3_4_e8_mulligans_in_seat_order_before_the_start_player() {
    let db = scenario::db(&[]);
    let mut hands = Vec::new();
    for start in [Some(0u8), Some(2), None] {
        let mut g = fresh(&db, &[0, 1, 2], 21);
        record(&mut g);
        g.trace_mut().log = Some(Vec::new());
        g.script(1, &[Opt::Mulligan]);
        g.setup(start);
        let seats: Vec<u8> = g.trace().decisions.as_ref().unwrap().iter().filter(|d| d.1 == DecisionKind::Mulligan).map(|d| d.0).collect();
        assert_eq!(seats, vec![0, 1, 1, 2], "seat order; seat 1 decides again after its mulligan");
        let log = g.trace().log.as_ref().unwrap();
        let setup_line = log.iter().position(|l| l.starts_with("Setup:")).unwrap();
        let last_keep = log.iter().rposition(|l| l.contains(" keeps ")).unwrap();
        assert!(last_keep < setup_line, "every mulligan decision comes before the start player is drawn");
        // each seat sees only its own hand
        let v = SeatView::new(&g, 0);
        assert!(g.state().players[1].hand.iter().all(|&c| v.card_id(c).is_none()));
        assert!(g.state().players[0].hand.iter().all(|&c| v.card_id(c).is_some()));
        hands.push(g.state().players.iter().map(|p| p.hand.clone()).collect::<Vec<_>>());
    }
    assert!(hands.windows(2).all(|w| w[0] == w[1]), "hands after mulligans are the same whoever starts");
}

// R3.6.1 (E9): the start player is drawn uniformly at random by the seeded generator, or
// fixed by input.
#[test]
fn r3_6_1_e9_start_player_random_or_fixed() {
    let db = scenario::db(&[]);
    let mut count = [0; 3];
    for seed in 0..900 {
        let mut g = fresh(&db, &[0, 1, 2], seed);
        g.setup(None);
        count[g.state().start_player] += 1;
        assert_eq!(g.state().active, g.state().start_player);
        let mut h = fresh(&db, &[0, 1, 2], seed);
        h.setup(None);
        assert_eq!(h.state().start_player, g.state().start_player, "reproducible");
    }
    for (s, &k) in count.iter().enumerate() {
        assert!((240..=360).contains(&k), "seat {s} started {k} of 900 games");
    }
    for s in 0..3u8 {
        let mut g = fresh(&db, &[0, 1, 2], 7);
        g.setup(Some(s));
        assert_eq!((g.state().start_player, g.state().active), (s as usize, s as usize));
    }
}

// R4.4.1 (E13): a party comes from the type line only; a Newsfeed Figure's Független label
// (Civil jogvédő) never counts for Unity, a Független on the type line (Hadházy Ákos) does.
#[test]
fn r4_4_1_e13_party_from_the_type_line_only() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    g.put_in_play(0, "osz_szakszervezeti_vezeto"); // MSZP
    g.put_in_play(0, "osz_dobrev_klara"); // DK
    let civil = g.put_in_play(0, "nf_civil_jogvedo");
    assert_eq!(g.def(civil).party, "—", "its type line names no party");
    assert!(!g.unity(0), "MSZP + DK + a Független-labelled Newsfeed Figure = 2 parties");
    g.put_in_play(0, "osz_hadhazy_akos");
    assert!(g.unity(0), "Független on the type line is the third party");
}

// R6.2.1 (E21): the card document defines each Base's resource; exhausting the Base gives
// exactly that one resource (every Base of the set shows one type).
#[test]
fn r6_2_1_e21_each_base_gives_its_resource() {
    let db = scenario::db(&[]);
    let letters = ["F", "M", "U"];
    let mut seen = 0;
    for (fi, faction) in ["ner", "osszefogas", "tisza", "radikalisok"].iter().enumerate() {
        let mut ids: Vec<u16> = db.decks[fi].clone();
        ids.sort();
        ids.dedup();
        for d in ids {
            let def = db.def(d);
            if def.ctype != ketharmad::cards::CardType::Base {
                continue;
            }
            let r = def.produces.expect("a Base gives a resource");
            assert!(def.text.contains(&format!("add {}", letters[r])), "{}: text {:?}", def.id, def.text);
            let mut g = scenario::game(&db, &[faction, if fi == 0 { "tisza" } else { "ner" }]);
            let b = g.put_in_play(0, &def.id);
            let (fixed, any) = g.available(0);
            let mut want = [0i16; 3];
            want[r] = 1;
            assert_eq!((fixed, any), (want, 0), "{}", def.id);
            for other in 0..3 {
                let mut pips = [0i16; 3];
                pips[other] = 1;
                let cost = ketharmad::cards::Cost { generic: 0, pips };
                assert_eq!(g.can_pay(0, cost), other == r, "{} paying {}", def.id, letters[other]);
            }
            let mut pips = [0i16; 3];
            pips[r] = 1;
            g.pay(0, ketharmad::cards::Cost { generic: 0, pips });
            assert!(g.state().inst[b as usize].exhausted);
            assert_eq!(g.state().players[0].pool, [0; 3], "its one unit paid the pip");
            seen += 1;
        }
    }
    assert_eq!(seen, 16, "every Base of the four factions");
}

// R6.5: an exhausted card can't be used again until its controller's next Wake: an exhausted
// Base pays nothing and an exhausted Figure can neither attack nor block, through the
// opponent's whole turn; the controller's Wake readies them.
#[test]
fn r6_5_exhausted_until_your_next_wake() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner"]);
    let b = g.add_bases(0, 2, 1)[0];
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let k = g.put_in_play(1, "ner_kover_laszlo");
    g.pay(0, ketharmad::cards::Cost { generic: 1, pips: [0; 3] });
    g.campaign(); // its only attacker: declared without asking
    assert!(ex(&g, b) && ex(&g, s));
    assert!(!g.can_pay(0, ketharmad::cards::Cost { generic: 1, pips: [0; 3] }));
    assert!(!g.can_attack(s));
    // the opponent's turn: still exhausted, so it can't block
    g.state_mut().active = 1; // not the start player: no Event
    record(&mut g);
    g.script(1, &[Opt::Campaign]);
    g.take_turn();
    assert!(ex(&g, k) && g.state().players[0].support == 19, "Kövér László attacked unblocked: {}", g.state().players[0].support);
    assert!(ex(&g, b) && ex(&g, s), "exhausted through the opponent's turn");
    assert!(recorded(&g, 0, DecisionKind::Blocks).is_empty(), "no blocker offered");
    // the controller's own Wake readies them
    g.state_mut().active = 0;
    g.take_turn();
    assert!(!ex(&g, b));
    ok(&g);
}

// R8.4 (E39): main priority offers ending the Action phase first, a Base once per turn, the
// Recruit once, the basic Exposé once and the Campaign once, and any card that can be played.
#[test]
fn r8_4_e39_main_priority_options_and_limits() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "ner"]);
    let b1 = g.put_in_hand(0, "osz_base_utcaforum");
    let b2 = g.put_in_hand(0, "osz_base_ellenzeki_napilap");
    let d = g.put_in_play(0, "osz_dobrev_klara");
    g.add_bases(0, 1, 5);
    g.add_bases(0, 2, 3);
    g.state_mut().players[1].scandal = 3;
    g.main_options(0);
    assert_eq!(g.opts()[0], Opt::EndPhase);
    for o in [Opt::PlayBase(b1), Opt::PlayBase(b2), Opt::Swap(b1), Opt::Expose(1), Opt::Campaign] {
        assert!(g.opts().contains(&o), "{o:?} offered");
    }
    let row = g.state().news_row[0];
    assert!(g.opts().contains(&Opt::Recruit(row)));
    assert!(g.apply_main(0, Opt::PlayBase(b1)));
    g.main_options(0);
    assert!(!g.opts().contains(&Opt::PlayBase(b2)), "one Base per turn");
    assert!(g.opts().contains(&Opt::Swap(b2)), "Swap is not playing a Base");
    assert!(g.apply_main(0, Opt::Recruit(row)));
    assert!(g.apply_main(0, Opt::Expose(1)));
    g.script(0, &[Opt::Attack(d, 1)]);
    assert!(g.apply_main(0, Opt::Campaign));
    g.main_options(0);
    assert!(!g.opts().iter().any(|o| matches!(o, Opt::Recruit(_) | Opt::Expose(_) | Opt::Campaign)), "{:?}", g.opts());
    assert_eq!(g.opts()[0], Opt::EndPhase);
    assert!(!g.apply_main(0, Opt::EndPhase), "ending the Action phase moves to Close");
}

// R8.7 (E42): while something is in progress (a window after an action, a Campaign) only
// Reactions can be played: a Move is offered with main priority only.
#[test]
fn r8_7_e42_moves_only_when_nothing_is_in_progress() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["tisza", "ner"]);
    let mv = g.put_in_hand(0, "tis_elo_bejelentkezes");
    let re = g.put_in_hand(0, "tis_kozfelhaborodas");
    let fa = g.put_in_play(0, "tis_forsthoffer_agnes");
    g.add_bases(0, 1, 3);
    g.add_bases(0, 2, 3);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Play(mv)) && g.opts().contains(&Opt::Play(re)));
    assert!(!g.can_play_from_hand(0, mv, true) && g.can_play_from_hand(0, re, true));
    // in the Campaign window and the after-action window, seat 0 is offered only the Reaction
    record(&mut g);
    assert!(g.apply_main(0, Opt::Campaign)); // Forsthoffer Ágnes, the only attacker
    assert!(ex(&g, fa));
    let windows = recorded(&g, 0, DecisionKind::Respond);
    assert_eq!(windows.len(), 2, "Campaign window and after-action window");
    for opts in &windows {
        assert!(opts.contains(&Opt::Play(re)) && !opts.contains(&Opt::Play(mv)), "{opts:?}");
    }
}

// R9.2.1 (E45): attack targets are players, never Figures or Institutions; with three
// players each attacker names a live opponent, with two every attacker attacks the opponent.
#[test]
fn r9_2_1_e45_only_players_are_attacked() {
    let db = scenario::db(&[]);
    for factions in [vec!["radikalisok", "ner", "tisza"], vec!["radikalisok", "ner"]] {
        let mut g = scenario::game(&db, &factions);
        let a = g.put_in_play(0, "rad_sneider_tamas");
        let b = g.put_in_play(0, "rad_duro_dora");
        g.put_in_play(1, "ner_kover_laszlo");
        g.put_in_play(1, "ner_rezsicsokkentes");
        record(&mut g);
        let last = factions.len() as u8 - 1;
        g.script(0, &[Opt::Attack(a, last), Opt::Attack(b, 1)]);
        g.campaign();
        let decl = recorded(&g, 0, DecisionKind::Attackers);
        assert!(!decl.is_empty());
        for opts in &decl {
            for o in opts {
                match *o {
                    Opt::Attack(c, q) => {
                        assert!(c == a || c == b);
                        assert!(q != 0 && (q as usize) < factions.len(), "{o:?}");
                    }
                    Opt::Done => {}
                    _ => panic!("attackers decision offered {o:?}"),
                }
            }
        }
        let targets: std::collections::BTreeSet<u8> = decl[0].iter().filter_map(|o| if let Opt::Attack(_, q) = o { Some(*q) } else { None }).collect();
        assert_eq!(targets.into_iter().collect::<Vec<_>>(), (1..factions.len() as u8).collect::<Vec<_>>());
    }
}

// R9.6: the Campaign ends after step 4 and the Action phase goes on: an after-action window
// follows (the opponent may respond) and cards can still be played after it.
#[test]
fn r9_6_action_phase_continues_after_the_campaign() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "tisza"]);
    let s = g.put_in_play(0, "rad_sneider_tamas");
    let later = g.put_in_hand(0, "rad_duro_dora");
    g.add_bases(0, 2, 3);
    g.add_bases(0, 1, 1);
    g.put_in_play(1, "tis_forsthoffer_agnes");
    g.put_in_hand(1, "tis_kozfelhaborodas");
    g.add_bases(1, 2, 2);
    record(&mut g);
    assert!(g.apply_main(0, Opt::Campaign), "the Action phase continues");
    assert_eq!(g.state().players[1].support, 18);
    assert!(ex(&g, s) && !g.state().campaign.active);
    assert_eq!(recorded(&g, 1, DecisionKind::Respond).len(), 2, "Campaign window, then the after-action window");
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Play(later)) && !g.opts().contains(&Opt::Campaign));
    assert!(g.apply_main(0, Opt::Play(later)));
    assert_eq!(g.zone_of(later), Zone::Play);
}

// R10.3.2 (E52): the basic Exposé is taken with main priority in your own Action phase and
// takes effect at once (nothing goes on the chain to answer or Neutralize); an after-action
// window follows, in which the opponent may play a Reaction.
#[test]
fn r10_3_2_e52_basic_expose_timing() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["osszefogas", "tisza"]);
    g.add_bases(0, 1, 2);
    g.state_mut().players[1].scandal = 2;
    let fa = g.put_in_play(1, "tis_forsthoffer_agnes");
    let k = g.put_in_hand(1, "tis_kozfelhaborodas");
    g.add_bases(1, 2, 2);
    g.trace_mut().log = Some(Vec::new());
    record(&mut g);
    g.script(1, &[Opt::Play(k)]);
    assert!(g.apply_main(0, Opt::Expose(1)));
    let log = g.trace().log.clone().unwrap();
    let exposed = log.iter().position(|l| l.contains("P0 exposes P1: takes 2 Scandal")).unwrap();
    let reacted = log.iter().position(|l| l.starts_with("P1 plays")).unwrap();
    assert!(exposed < reacted, "the Exposé took effect before anyone could respond");
    assert_eq!(g.state().players[1].scandal, 0);
    assert_eq!(g.state().players[1].support, 18);
    assert_eq!(g.zone_of(k), Zone::Oblivion, "the Reaction was played in the after-action window");
    let _ = fa;
    // the basic Exposé is never offered outside main priority
    for d in g.trace().decisions.as_ref().unwrap() {
        if d.2.iter().any(|o| matches!(o, Opt::Expose(_))) {
            assert_eq!(d.1, DecisionKind::Main);
        }
    }
    // nor to a player outside their own Action phase
    assert!(recorded(&g, 1, DecisionKind::Respond).iter().all(|o| !o.iter().any(|x| matches!(x, Opt::Expose(_)))));
}

// R11.2.2 (E61): recruiting a Newsfeed Action plays it: it goes on the chain like an Action
// played with main priority (target chosen, the opponent may answer) and afterwards goes to
// the bottom of the Newsfeed deck; it never enters play. (The card set has no Newsfeed Action,
// so this uses one where 444 is a Move.)
#[test]
fn r11_2_2_e61_recruiting_a_newsfeed_action() {
    let text = ketharmad::DEFAULT_CARD_DATA.replace(
        "type = \"institution\"\nrole = \"News portal\"\nparty = \"—\"\npublic_figure = false\ncost = { generic = 1, f = 0, m = 1, u = 0 }\nkeywords = []\ntext = \"↷: target opponent gains 1 Scandal.\"\nparams = { opponent_scandal = 1 }\nabilities = [\n  { on = \"activated\", cost = \"exhaust\", do = \"opponent_gains_scandal\", target = \"opponent\", n = \"opponent_scandal\" },",
        "type = \"move\"\nrole = \"News portal\"\nparty = \"—\"\npublic_figure = false\ncost = { generic = 1, f = 0, m = 1, u = 0 }\nkeywords = []\ntext = \"Target opponent gains 1 Scandal.\"\nparams = { opponent_scandal = 1 }\nabilities = [\n  { on = \"resolve\", do = \"opponent_gains_scandal\", target = \"opponent\", n = \"opponent_scandal\" },",
    );
    assert_ne!(text, ketharmad::DEFAULT_CARD_DATA, "444 became a Move");
    let db = build_db(&load_raw(&text).unwrap(), &[]).unwrap();
    let mut g = scenario::game(&db, &["ner", "tisza", "osszefogas"]);
    // 444 face up in the row (the row's last card back on top of the Newsfeed deck)
    let c = g.find_free(0, "nf_444");
    let x = g.state_mut().news_row.pop().unwrap();
    g.state_mut().inst[x as usize].zone = Zone::NewsDeck;
    g.state_mut().news_deck.push(x);
    g.state_mut().news_row.insert(0, c);
    g.state_mut().inst[c as usize].zone = Zone::NewsRow;
    ok(&g);
    g.add_bases(0, 1, 2);
    g.main_options(0);
    assert!(g.opts().contains(&Opt::Recruit(c)));
    g.script(0, &[Opt::Player(2)]);
    g.recruit(0, c);
    assert_eq!(g.zone_of(c), Zone::Chain, "on the chain, not in play");
    assert!(g.state().players[0].play.iter().all(|&x| x != c));
    assert_eq!(g.state().players[0].recruits, 1);
    g.window(1);
    assert_eq!(g.state().players[2].scandal, 1, "resolved against the chosen opponent");
    assert_eq!(g.zone_of(c), Zone::NewsDeck);
    assert_eq!(g.state().news_deck[0], c, "bottom of the Newsfeed deck");
    ok(&g);
}

// R0.7 (E1): card text first. A card's "can't" beats a rule or effect that says "can" (Border
// Closure stops an Event's Support gain for its controller's opponents; Kerítés can't attack
// although ready), and a card's permission beats the rule it contradicts (Momentum: a Fresh
// Figure attacks, against R6.6).
#[test]
fn r0_7_e1_card_text_first() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["radikalisok", "ner", "tisza"]);
    g.put_in_play(0, "rad_hatarzar");
    g.force_event("ev_fulkeforradalom"); // every player gains 2 Support
    assert_eq!((g.state().players[0].support, g.state().players[1].support, g.state().players[2].support), (22, 20, 20));
    let fence = g.put_in_play(0, "tok_kerites");
    assert!(!g.state().inst[fence as usize].exhausted && !g.state().inst[fence as usize].fresh);
    assert!(!g.can_attack(fence), "Kerítés can't attack");
    assert!(!g.can_start_campaign(0));
    let m = g.find_free(0, "nf_megafon_influenszer");
    g.enter_play(m, 0);
    assert!(g.state().inst[m as usize].fresh, "it entered this turn");
    assert!(g.can_attack(m), "Momentum beats Fresh");
    g.campaign(); // Megafon-influenszer, the only possible attacker
    assert_eq!(g.state().players[1].support, 18);
    ok(&g);
}

// The log shows payments and the sources exhausted for them (public: exhausted state).
#[test]
fn log_payments_and_exhausted_sources() {
    let db = scenario::db(&[]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let m = g.put_in_hand(0, "ner_meszaros_lorinc");
    let f = g.add_bases(0, 0, 2);
    g.trace_mut().log = Some(Vec::new());
    g.play_card(0, m);
    let log = take_log(&mut g);
    let pay = log.iter().position(|l| l == "  P0 pays {1}{F}").expect("payment logged");
    for &b in &f {
        assert!(ex(&g, b));
        let line = format!("  {} is exhausted for resources", g.name(b));
        assert!(log[pay..].contains(&line), "{log:#?}");
    }
}

// R9.3, R9.5.1 (E48): any number of Figures may block one attacker, and the attacker's
// controller may put damage on any of them, also past the 32nd blocker (every tisza Figure,
// every Newsfeed Figure, a full token box and a NER Figure that changed control; the split used to live in a 32-entry array
// and panicked).
#[test]
fn r9_5_1_e48_damage_division_among_more_than_32_blockers() {
    let db = scenario::db(&[("rules.token_card_limit", 8), ("tok_szakadar.copies", 8), ("tok_kerites.copies", 8)]);
    let mut g = scenario::game(&db, &["ner", "tisza"]);
    let o = g.put_in_play(0, "ner_orban_viktor"); // 5/6
    let pool: Vec<Cid> =
        g.state().players[1].deck.iter().chain(&g.state().players[1].hand).chain(&g.state().news_deck).chain(&g.state().news_row).chain(&g.state().token_box).copied().collect();
    let ids: Vec<String> = pool.into_iter().filter(|&c| g.def(c).ctype.is_figure()).map(|c| g.def(c).id.clone()).collect();
    let mut blockers: Vec<Cid> = ids.iter().map(|id| g.put_in_play(1, id)).collect();
    // and a NER Figure that changed sides
    let defector = g.put_in_play(0, "ner_simicska_lajos");
    g.change_control(defector, 1);
    blockers.push(defector);
    assert!(blockers.len() > 32, "{} blockers", blockers.len());
    let blocks: Vec<Opt> = blockers.iter().map(|&b| Opt::Block(b, o)).collect();
    g.script(1, &blocks);
    let last = *blockers.last().unwrap();
    g.script(0, &[Opt::Card(last); 5]);
    g.campaign();
    assert_eq!(g.script_left(0), 0, "five points divided");
    assert_eq!(g.script_left(1), 0, "every block declared");
    assert_eq!(g.zone_of(last), Zone::Oblivion, "all 5 points on the last blocker");
    for &b in &blockers[..blockers.len() - 1] {
        if g.zone_of(b) == Zone::Play {
            assert_eq!(g.state().inst[b as usize].damage, 0, "no damage on the other blockers");
        }
    }
    assert_ne!(g.zone_of(o), Zone::Play, "more than 32 blockers knock Orbán out");
    assert_eq!(g.state().players[1].support, 20);
    ok(&g);
}
