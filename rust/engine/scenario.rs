//! Scenario helper for tests: build a game state directly (cards in hand, in play, Support,
//! Scandal …) and script each seat's answers, then drive single actions or whole turns.
//!
//!
//! Test scaffolding only: compiled for the crate's own tests and with the `scenario` feature
//! (which the integration tests, benches and examples enable through the crate's
//! dev-dependency on itself), never into the Python extension.
//!
//! ```ignore
//! let db = scenario::db(&[]);
//! let mut g = scenario::game(&db, &["ner", "tisza"]);
//! let orban = g.put_in_play(0, "ner_orban_viktor");
//! g.script(0, &[Opt::Player(1)]);
//! ```

use super::decision::Opt;
use super::hooks::TestHooks;
use super::state::{Cid, Game, GameConfig, State, Zone};
use crate::cards::{build_db, load_raw, CardDb, ParamValue, FACTIONS};
use crate::engine::agent::Scripted;

/// The default card set with integer parameter overrides.
pub fn db(overrides: &[(&str, i64)]) -> CardDb {
    // unwrap: scenario builders are test scaffolding over the packaged file, which loads (tests/loader.rs)
    let raw = load_raw(crate::DEFAULT_CARD_DATA).expect("card data");
    let o: Vec<(String, ParamValue)> = overrides.iter().map(|(k, v)| (k.to_string(), ParamValue::Int(*v))).collect();
    // unwrap: test scaffolding; a test passing a bad override should fail loudly
    build_db(&raw, &o).expect("parameters")
}

/// A game in progress at the start of seat 0's Action phase of round 1: every card in its
/// deck (unshuffled), hands empty, the Newsfeed row dealt in data order, no Event in force,
/// each seat with the starting Support, scripted (passive) policies.
pub fn game<'db>(db: &'db CardDb, factions: &[&str]) -> Game<'db> {
    // unwrap: test scaffolding; a test naming an unknown faction should fail loudly
    let f: Vec<u8> = factions.iter().map(|x| FACTIONS.iter().position(|y| y == x).expect("faction") as u8).collect();
    let cfg = GameConfig { factions: f, seed: 1, start_player: Some(0), ..Default::default() };
    let pol: Vec<Scripted> = (0..factions.len()).map(|_| Scripted::default()).collect();
    let mut g = Game::new(db, &cfg, pol);
    for p in 0..g.state.n {
        g.state.set_support(p, db.rules.starting_support);
    }
    g.refill_row();
    g.state.active = 0;
    g.state.start_player = 0;
    g.state.first_start_player = 0;
    g.state.round = 1;
    g.state.turn = 1;
    g.state.first_turn_done = true;
    // tests set damage by hand: state checks always scan every Figure
    g.hooks.full_checks = true;
    g
}

impl Game<'_> {
    /// The rules state, to edit by hand. Edits bypass the cache-keeping moves (`caches`): a
    /// scenario game (`game`) sets `full_checks` so that every cache is recounted.
    pub fn state_mut(&mut self) -> &mut State {
        &mut self.state
    }

    /// Test switches (a fixed die, full checks).
    pub fn hooks_mut(&mut self) -> &mut TestHooks {
        &mut self.hooks
    }

    /// Forget the answers scripted for `seat` (and make it a scripted seat).
    pub fn clear_script(&mut self, seat: usize) {
        self.policies[seat] = Box::new(Scripted::default());
    }

    /// Let `agent` answer `seat`'s decisions (tests with an agent of their own).
    pub fn set_agent(&mut self, seat: usize, agent: Box<dyn crate::engine::Agent>) {
        self.policies[seat] = agent;
    }

    /// Script the next answers of `seat`.
    pub fn script(&mut self, seat: usize, answers: &[Opt]) {
        match self.policies[seat].as_any_mut().downcast_mut::<Scripted>() {
            Some(q) => q.0.extend(answers.iter().copied()),
            None => self.policies[seat] = Box::new(Scripted(answers.iter().copied().collect())),
        }
    }

    /// Answers of `seat` not used yet.
    pub fn script_left(&self, seat: usize) -> usize {
        self.policy::<Scripted>(seat).map_or(0, |q| q.0.len())
    }

    /// Find an instance of card `id` outside play: in `seat`'s deck, the Newsfeed, the Event
    /// deck or the box. Panics if none is left.
    pub fn find_free(&mut self, seat: usize, id: &str) -> Cid {
        let d = self.db.index_of(id).unwrap_or_else(|| panic!("unknown card {id}"));
        let is = |g: &Game, c: Cid| g.state.inst[c as usize].def == d;
        if let Some(i) = self.state.players[seat].deck.iter().position(|&c| is(self, c)) {
            return self.state.players[seat].deck.remove(i);
        }
        if let Some(i) = self.state.news_deck.iter().position(|&c| is(self, c)) {
            return self.state.news_deck.remove(i);
        }
        if let Some(i) = self.state.news_row.iter().position(|&c| is(self, c)) {
            let c = self.state.news_row.remove(i);
            self.refill_row();
            return c;
        }
        if let Some(i) = self.state.event_deck.iter().position(|&c| is(self, c)) {
            return self.state.event_deck.remove(i);
        }
        if let Some(i) = self.state.token_box.iter().position(|&c| is(self, c)) {
            return self.state.token_box.remove(i);
        }
        panic!("no free copy of {id} for seat {seat}")
    }

    /// Put a card into `seat`'s hand (from its deck).
    pub fn put_in_hand(&mut self, seat: usize, id: &str) -> Cid {
        let c = self.find_free(seat, id);
        self.state.inst[c as usize].zone = Zone::Hand;
        self.hand_push(seat, c);
        c
    }

    /// Put a card on top of `seat`'s deck.
    pub fn put_on_deck(&mut self, seat: usize, id: &str) -> Cid {
        let c = self.find_free(seat, id);
        self.state.inst[c as usize].zone = Zone::Deck;
        self.state.players[seat].deck.push(c);
        c
    }

    /// Put a card into play under `seat`'s control without any "enters play" effect
    /// (no Scandal N, no triggers), ready and not Fresh.
    pub fn put_in_play(&mut self, seat: usize, id: &str) -> Cid {
        let c = self.find_free(seat, id);
        self.place_in_play(seat, c);
        c
    }

    /// Card `c` (taken out of its zone by the caller) is in play for `seat`, quietly.
    fn place_in_play(&mut self, seat: usize, c: Cid) {
        let seq = self.state.seq;
        self.state.seq += 1;
        let i = &mut self.state.inst[c as usize];
        i.zone = Zone::Play;
        i.controller = seat as i8;
        i.entered = seq;
        self.state.players[seat].play.push(c);
        self.ready_in(c);
        self.cache.board_gen += 1;
        self.cache.player_gen[seat] += 1;
        self.stats_changed_everywhere();
    }

    /// Play a card into play the real way (enters play: Scandal N and triggers), free.
    pub fn enter_free(&mut self, seat: usize, id: &str) -> Cid {
        let c = self.find_free(seat, id);
        self.enter_play(c, seat);
        self.state_check();
        c
    }

    /// Put `n` Bases of `seat`'s faction producing `res` (0 F, 1 M, 2 U) into play.
    pub fn add_bases(&mut self, seat: usize, res: usize, n: usize) -> Vec<Cid> {
        let mut out = Vec::new();
        for _ in 0..n {
            let i = self.state.players[seat]
                .deck
                .iter()
                .position(|&c| self.def(c).produces == Some(res))
                .unwrap_or_else(|| panic!("no Base of resource {res} left in seat {seat}'s deck"));
            let c = self.state.players[seat].deck.remove(i);
            self.place_in_play(seat, c);
            out.push(c);
        }
        out
    }

    /// Make `id` the Event in force (its "this round" effect applies; one-shots happen now).
    pub fn force_event(&mut self, id: &str) -> Cid {
        let c = self.find_free(0, id);
        self.state.event_deck.push(c);
        self.state.inst[c as usize].zone = Zone::EventDeck;
        // the procedure flips the top card: ours
        self.event_procedure();
        c
    }

    /// Ready, non-Fresh resources count available to `seat` (pool + sources).
    pub fn zone_of(&self, c: Cid) -> Zone {
        self.state.inst[c as usize].zone
    }
}
