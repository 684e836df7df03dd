//! The game state and the turn (R3 setup, R4 turn, R5 preparation, R6 play, R7 draw and last
//! turn, R9 claims, R10 damage and victory). Fixed arrays and bitsets only: no allocation per
//! action.

use super::actions::{Action, END_TURN, PASS, SKIP};
use super::cards::{self, card, colour, value, CARD_IDS};
use super::params::Params;
use super::proof::claim_succeeds;
use super::wall::{Face, SECTION_IDS};
use crate::rng::{game_seed, Rng, Stream};

pub const ATTACKER: usize = 0;
pub const DEFENDER: usize = 1;
pub const NO_WINNER: u8 = 2;
/// Safety cap: a game still running after this many turns is unfinished (only reachable with
/// passes that do not draw, R4.2, when both sides stall).
pub const MAX_TURNS: u32 = 1000;

/// One player's cards at one section, oldest first (R6.2), and when it last became complete
/// (the step counter; 0 = not complete, R8.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Side {
    pub cards: [u8; 4],
    pub n: u8,
    pub done: u32,
}

impl Side {
    #[inline]
    pub fn cards(&self) -> &[u8] {
        &self.cards[..self.n as usize]
    }
    /// Remove the card at index `i`, keeping the order of the rest; clears the stamp.
    fn remove(&mut self, i: usize) -> u8 {
        let c = self.cards[i];
        for j in i..self.n as usize - 1 {
            self.cards[j] = self.cards[j + 1];
        }
        self.n -= 1;
        self.done = 0;
        c
    }
    fn set(&self) -> u64 {
        self.cards().iter().fold(0, |s, &c| s | 1u64 << c)
    }
}

/// Where the turn stands (R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// step 1: optional preparation (and the Attacker's first claim windows)
    Prep,
    /// step 2: play a card (claims still open to the Attacker)
    Play,
    /// the Attacker's claim window after the play (R4.1); then the draw
    PostPlay,
    Over,
}

#[derive(Clone, Debug)]
pub struct State {
    pub p: Params,
    /// The siege deck; the top is `deck[deck_len - 1]`.
    pub deck: [u8; CARD_IDS],
    pub deck_len: u8,
    /// The deck as a set.
    pub deck_set: u64,
    pub hands: [u64; 2],
    /// `sides[seat][section]`
    pub sides: [[Side; 7]; 2],
    /// Bit s: section s shows its damaged side.
    pub damaged: u8,
    pub discard: u64,
    pub cauldrons: u8,
    pub oil_this_turn: u8,
    /// Turn number, from 1 (R7.3).
    pub turn: u32,
    /// Global step counter (R8.6 completion stamps), from 1.
    pub step: u32,
    pub phase: Phase,
    pub current: u8,
    /// This Attacker turn is the last (it began with an empty deck, R7.3).
    pub last_turn: bool,
    /// Bit s: the Attacker can claim section s now (R9.4: only provable claims are legal).
    pub claimable: u8,
    pub winner: u8,
    pub end_reason: &'static str,
    // records
    pub claims: u16,
    pub retreats: u16,
    pub oils: u8,
    pub cancels: u16,
    pub plays: [u16; 2],
    pub passes: [u16; 2],
    pub last_draw_turn: u32,
    pub unfinished: bool,
}

impl State {
    /// R3: deal game `game` of batch `batch_seed`.
    pub fn new(p: Params, batch_seed: u64, game: u64) -> State {
        Self::from_seed(p, game_seed(batch_seed, game))
    }

    /// R3 with a game seed.
    pub fn from_seed(p: Params, seed: u64) -> State {
        let mut deck = [0u8; CARD_IDS];
        let mut n = 0;
        for c in cards::iter(cards::full_set(p.colours, p.max_value)) {
            deck[n] = c;
            n += 1;
        }
        Rng::stream(seed, Stream::Shuffle as u64).shuffle(&mut deck[..n]);
        let mut s = State {
            p,
            deck,
            deck_len: n as u8,
            deck_set: cards::full_set(p.colours, p.max_value),
            hands: [0; 2],
            sides: [[Side::default(); 7]; 2],
            damaged: 0,
            discard: 0,
            cauldrons: p.cauldrons,
            oil_this_turn: 0,
            turn: 1,
            step: 1,
            phase: Phase::Prep,
            current: ATTACKER as u8,
            last_turn: false,
            claimable: 0,
            winner: NO_WINNER,
            end_reason: "",
            claims: 0,
            retreats: 0,
            oils: 0,
            cancels: 0,
            plays: [0; 2],
            passes: [0; 2],
            last_draw_turn: 0,
            unfinished: false,
        };
        for seat in [ATTACKER, DEFENDER] {
            for _ in 0..p.hand_size {
                s.draw(seat);
            }
        }
        s.start_turn();
        s.settle();
        s
    }

    /// Test scaffolding: an empty table, empty hands, every card in the deck in id order
    /// (so the top is the highest id), the Attacker to move at the start of turn 1. Use
    /// `give`, `place`, `discard_card`, `set_deck` to build a position.
    pub fn empty(p: Params) -> State {
        let mut s = State::from_seed(p, 0);
        let all = cards::full_set(p.colours, p.max_value);
        s.hands = [0; 2];
        s.deck_len = 0;
        for c in cards::iter(all) {
            s.deck[s.deck_len as usize] = c;
            s.deck_len += 1;
        }
        s.deck_set = all;
        s.sides = [[Side::default(); 7]; 2];
        s.discard = 0;
        s.phase = Phase::Prep;
        s.current = ATTACKER as u8;
        s.turn = 1;
        s.last_turn = false;
        s.refresh_claims();
        s
    }

    fn draw(&mut self, seat: usize) {
        if self.deck_len > 0 {
            self.deck_len -= 1;
            let c = self.deck[self.deck_len as usize];
            self.deck_set &= !(1u64 << c);
            self.hands[seat] |= 1u64 << c;
        }
    }

    /// The face a section shows now.
    #[inline]
    pub fn face(&self, s: usize) -> Face {
        let w = self.p.wall[s];
        if self.damaged >> s & 1 == 1 {
            w.damaged
        } else {
            w.intact
        }
    }

    /// R9.3.1 the unseen pool: deck and both hands.
    #[inline]
    pub fn unseen(&self) -> u64 {
        self.hands[0] | self.hands[1] | self.deck_set
    }

    /// Every card on the table.
    pub fn table(&self) -> u64 {
        let mut t = 0;
        for seat in 0..2 {
            for s in 0..7 {
                t |= self.sides[seat][s].set();
            }
        }
        t
    }

    /// Can the Attacker claim section `s` now (R9)?
    pub fn can_claim(&self, s: usize) -> bool {
        let a = &self.sides[ATTACKER][s];
        let f = self.face(s);
        if a.n != f.cards {
            return false;
        }
        let d = &self.sides[DEFENDER][s];
        claim_succeeds(a.cards(), a.done, d.cards(), d.done, self.unseen(), f, self.p.keep_colour_run, self.p.colours, self.p.max_value)
    }

    pub fn refresh_claims(&mut self) {
        self.claimable = 0;
        if self.phase != Phase::Over && self.current as usize == ATTACKER {
            for s in 0..7 {
                if self.can_claim(s) {
                    self.claimable |= 1 << s;
                }
            }
        }
    }

    /// Sections where `seat` has cards.
    #[inline]
    pub fn occupied(&self, seat: usize) -> u8 {
        (0..7).filter(|&s| self.sides[seat][s].n > 0).fold(0, |m, s| m | 1 << s)
    }

    /// Sections where `seat` has a free slot (R6.1).
    #[inline]
    pub fn open_sections(&self, seat: usize) -> u8 {
        (0..7).filter(|&s| self.sides[seat][s].n < self.face(s).cards).fold(0, |m, s| m | 1 << s)
    }

    fn can_play(&self, seat: usize) -> bool {
        self.hands[seat] != 0 && self.open_sections(seat) != 0
    }

    fn has_prep(&self) -> bool {
        match self.current as usize {
            ATTACKER => self.occupied(ATTACKER) != 0,
            _ => self.cauldrons > 0 && self.oil_this_turn < self.p.cauldrons_per_turn && self.occupied(ATTACKER) != 0,
        }
    }

    fn start_turn(&mut self) {
        self.oil_this_turn = 0;
        self.phase = Phase::Prep;
        if self.turn > MAX_TURNS {
            self.phase = Phase::Over;
            self.unfinished = true;
            self.end_reason = "cap";
            return;
        }
        if self.current as usize == ATTACKER && self.deck_len == 0 && self.p.attacker_last_turn {
            self.last_turn = true;
        }
    }

    fn finish(&mut self, winner: usize, reason: &'static str) {
        self.winner = winner as u8;
        self.end_reason = reason;
        self.phase = Phase::Over;
        self.claimable = 0;
    }

    /// R7: draw (when `draw`), then the next turn, or the end of the game.
    fn end_turn(&mut self, draw: bool) {
        let seat = self.current as usize;
        if draw && self.deck_len > 0 {
            self.draw(seat);
            self.last_draw_turn = self.turn;
        }
        if self.last_turn {
            // R7.2-R7.3, R10.3: the Attacker's last turn is over
            self.finish(DEFENDER, "deck_out");
            return;
        }
        if !self.p.attacker_last_turn && self.deck_len == 0 {
            self.finish(DEFENDER, "deck_out");
            return;
        }
        self.current ^= 1;
        self.turn += 1;
        self.start_turn();
    }

    /// Take every step that needs no decision (a Prep with nothing to do, a Play with no legal
    /// play and no claim, a PostPlay without claims), refreshing the legal claims.
    pub fn settle(&mut self) {
        loop {
            self.refresh_claims();
            match self.phase {
                Phase::Over => return,
                Phase::Prep => {
                    if self.claimable != 0 || self.has_prep() {
                        return;
                    }
                    self.phase = Phase::Play;
                }
                Phase::Play => {
                    if self.claimable != 0 || self.can_play(self.current as usize) {
                        return;
                    }
                    self.pass();
                }
                Phase::PostPlay => {
                    if self.claimable != 0 {
                        return;
                    }
                    self.end_turn(true);
                }
            }
        }
    }

    /// R4.2: no legal play.
    fn pass(&mut self) {
        let seat = self.current as usize;
        self.passes[seat] += 1;
        if seat == DEFENDER && self.p.full_side_defender_wins {
            self.finish(DEFENDER, "defender_full");
            return;
        }
        self.end_turn(self.p.no_play_draws);
    }

    /// R9, R10: claim section `s` (legality checked by the caller).
    fn claim(&mut self, s: usize) {
        self.claims += 1;
        for seat in 0..2 {
            self.discard |= self.sides[seat][s].set();
            self.sides[seat][s] = Side::default();
        }
        if self.damaged >> s & 1 == 1 {
            if self.p.damaged_twice_wins {
                self.finish(ATTACKER, "damaged_twice");
            }
            return;
        }
        self.damaged |= 1 << s;
        if self.damaged.count_ones() >= self.p.damages_to_win as u32 {
            self.finish(ATTACKER, "fourth_damage");
        }
    }

    /// Is `a` legal now?
    pub fn is_legal(&self, a: Action) -> bool {
        let seat = self.current as usize;
        match (self.phase, a) {
            (Phase::Over, _) => false,
            (_, Action::Claim(s)) => s < 7 && self.claimable >> s & 1 == 1,
            (Phase::Prep, Action::Retreat(m)) => seat == ATTACKER && m != 0 && m < 128 && m & !self.occupied(ATTACKER) == 0,
            (Phase::Prep, Action::Oil(s)) => {
                seat == DEFENDER && s < 7 && self.cauldrons > 0 && self.oil_this_turn < self.p.cauldrons_per_turn && self.sides[ATTACKER][s as usize].n > 0
            }
            (Phase::Prep, Action::Skip) => true,
            (Phase::Play, Action::Play { card, section }) => {
                (card as usize) < CARD_IDS && section < 7 && self.hands[seat] >> card & 1 == 1 && self.open_sections(seat) >> section & 1 == 1
            }
            (Phase::Play, Action::Pass) => !self.can_play(seat),
            (Phase::PostPlay, Action::EndTurn) => true,
            _ => false,
        }
    }

    /// Apply a legal action (checked).
    pub fn apply_action(&mut self, a: Action) -> Result<(), String> {
        if !self.is_legal(a) {
            return Err(format!("illegal action {a:?} in phase {:?} for seat {}", self.phase, self.current));
        }
        self.step += 1;
        let seat = self.current as usize;
        match a {
            Action::Claim(s) => self.claim(s as usize),
            Action::Retreat(m) => {
                self.retreats += 1;
                for s in 0..7 {
                    if m >> s & 1 == 1 {
                        self.discard |= self.sides[ATTACKER][s].set();
                        self.sides[ATTACKER][s] = Side::default();
                    }
                }
                self.phase = Phase::Play;
            }
            Action::Oil(s) => {
                let side = &mut self.sides[ATTACKER][s as usize];
                let i = if self.p.oil_newest { side.n as usize - 1 } else { 0 };
                let c = side.remove(i);
                self.discard |= 1u64 << c;
                self.cauldrons -= 1;
                self.oil_this_turn += 1;
                self.oils += 1;
            }
            Action::Skip => self.phase = Phase::Play,
            Action::Play { card: c, section } => {
                let s = section as usize;
                self.hands[seat] &= !(1u64 << c);
                self.plays[seat] += 1;
                let partner = if !self.p.zero_eleven {
                    None
                } else if value(c) == 0 {
                    Some(card(colour(c), self.p.max_value))
                } else if value(c) == self.p.max_value {
                    Some(card(colour(c), 0))
                } else {
                    None
                };
                let opp = &mut self.sides[1 - seat][s];
                let hit = partner.and_then(|pc| opp.cards().iter().position(|&x| x == pc));
                if let Some(i) = hit {
                    // R6.3: both cards go to the discard pile
                    let pc = opp.remove(i);
                    self.discard |= 1u64 << pc | 1u64 << c;
                    self.cancels += 1;
                } else {
                    let cap = self.face(s).cards;
                    let me = &mut self.sides[seat][s];
                    me.cards[me.n as usize] = c;
                    me.n += 1;
                    if me.n == cap {
                        me.done = self.step;
                    }
                }
                if seat == ATTACKER {
                    self.phase = Phase::PostPlay;
                } else {
                    self.end_turn(true);
                }
            }
            Action::Pass => self.pass(),
            Action::EndTurn => self.end_turn(true),
        }
        self.settle();
        Ok(())
    }

    /// The legal actions, as ids (claims first).
    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        self.for_each_legal(|a| out.push(a));
    }

    /// Hand every legal action id to `out`, in `legal`'s order, without a list (the learned
    /// policy's option features read them one by one).
    pub fn for_each_legal(&self, mut out: impl FnMut(u32)) {
        let seat = self.current as usize;
        if self.phase == Phase::Over {
            return;
        }
        for s in 0..7u8 {
            if self.claimable >> s & 1 == 1 {
                out(Action::Claim(s).id());
            }
        }
        match self.phase {
            Phase::Prep => {
                let occ = self.occupied(ATTACKER);
                if seat == ATTACKER {
                    let mut sub = occ;
                    while sub != 0 {
                        out(Action::Retreat(sub).id());
                        sub = (sub - 1) & occ;
                    }
                } else if self.cauldrons > 0 && self.oil_this_turn < self.p.cauldrons_per_turn {
                    for s in 0..7u8 {
                        if occ >> s & 1 == 1 {
                            out(Action::Oil(s).id());
                        }
                    }
                }
                out(SKIP);
            }
            Phase::Play => {
                let open = self.open_sections(seat);
                if self.hands[seat] == 0 || open == 0 {
                    out(PASS);
                } else {
                    for c in cards::iter(self.hands[seat]) {
                        for s in 0..7u8 {
                            if open >> s & 1 == 1 {
                                out(Action::Play { card: c, section: s }.id());
                            }
                        }
                    }
                }
            }
            Phase::PostPlay => out(END_TURN),
            Phase::Over => {}
        }
    }

    /// The seat to move, or None when the game is over.
    pub fn to_move(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.current as usize)
    }

    /// Re-deal what `seat` cannot see: the opponent's hand and the deck order.
    pub fn determinize(&mut self, seat: usize, rng: &mut Rng) {
        let opp = 1 - seat;
        let hidden = self.hands[opp] | self.deck_set;
        let k = self.hands[opp].count_ones() as usize;
        let mut buf = [0u8; CARD_IDS];
        let mut n = 0;
        for c in cards::iter(hidden) {
            buf[n] = c;
            n += 1;
        }
        rng.shuffle(&mut buf[..n]);
        self.hands[opp] = buf[..k].iter().fold(0, |s, &c| s | 1u64 << c);
        self.deck_len = (n - k) as u8;
        self.deck[..n - k].copy_from_slice(&buf[k..n]);
        // deck_set is unchanged (the same cards are hidden in the deck)
        self.deck_set = hidden & !self.hands[opp];
    }

    pub fn describe(&self, id: u32) -> String {
        match Action::from_id(id) {
            None => format!("unknown action {id}"),
            Some(Action::Claim(s)) => format!("claim {}", SECTION_IDS[s as usize]),
            Some(Action::Retreat(m)) => {
                let names: Vec<&str> = (0..7).filter(|&s| m >> s & 1 == 1).map(|s| SECTION_IDS[s]).collect();
                format!("retreat from {}", names.join(", "))
            }
            Some(Action::Oil(s)) => format!("pour oil on {}", SECTION_IDS[s as usize]),
            Some(Action::Play { card: c, section }) => format!("play {} on {}", cards::name(c), SECTION_IDS[section as usize]),
            Some(Action::Pass) => "pass (no legal play)".into(),
            Some(Action::Skip) => "no preparation action".into(),
            Some(Action::EndTurn) => "end turn".into(),
        }
    }

    /// Test scaffolding: put `cards` on `seat`'s side of section `s` in order (each removed
    /// from wherever it was: hands, deck), stamping completion at the current step.
    pub fn place(&mut self, seat: usize, s: usize, cards: &[u8]) {
        for &c in cards {
            self.take_out(c);
            let cap = self.face(s).cards;
            let side = &mut self.sides[seat][s];
            side.cards[side.n as usize] = c;
            side.n += 1;
            self.step += 1;
            if side.n == cap {
                side.done = self.step;
            }
        }
        self.refresh_claims();
    }

    /// Test scaffolding: move `c` to the discard pile from wherever it is.
    pub fn discard_card(&mut self, c: u8) {
        self.take_out(c);
        self.discard |= 1u64 << c;
        self.refresh_claims();
    }

    /// Test scaffolding: give `c` to `seat`'s hand.
    pub fn give(&mut self, seat: usize, c: u8) {
        self.take_out(c);
        self.hands[seat] |= 1u64 << c;
        self.refresh_claims();
    }

    /// Test scaffolding: make `cards` (top last) the whole deck; every other deck card goes to
    /// the discard pile.
    pub fn set_deck(&mut self, cards: &[u8]) {
        for &c in cards {
            self.take_out(c);
        }
        self.discard |= self.deck_set;
        self.deck_len = cards.len() as u8;
        self.deck[..cards.len()].copy_from_slice(cards);
        self.deck_set = cards.iter().fold(0, |s, &c| s | 1u64 << c);
        self.refresh_claims();
    }

    fn take_out(&mut self, c: u8) {
        let bit = 1u64 << c;
        self.hands[0] &= !bit;
        self.hands[1] &= !bit;
        self.discard &= !bit;
        if self.deck_set & bit != 0 {
            self.deck_set &= !bit;
            let n = self.deck_len as usize;
            if let Some(i) = self.deck[..n].iter().position(|&x| x == c) {
                self.deck.copy_within(i + 1..n, i);
                self.deck_len -= 1;
            }
        }
        for seat in 0..2 {
            for s in 0..7 {
                if let Some(i) = self.sides[seat][s].cards().iter().position(|&x| x == c) {
                    self.sides[seat][s].remove(i);
                }
            }
        }
    }

    /// Every card is in exactly one place and the counts agree (the fuzzer's invariant).
    pub fn check_invariants(&self) -> Result<(), String> {
        let full = cards::full_set(self.p.colours, self.p.max_value);
        let parts = [self.hands[0], self.hands[1], self.deck_set, self.discard, self.table()];
        let mut seen = 0u64;
        let mut count = 0;
        for x in parts {
            if seen & x != 0 {
                return Err(format!("a card is in two places: {:x}", seen & x));
            }
            seen |= x;
            count += x.count_ones();
        }
        let on_table: u32 = (0..2).map(|seat| (0..7).map(|s| self.sides[seat][s].n as u32).sum::<u32>()).sum();
        if seen != full || count != full.count_ones() || on_table != self.table().count_ones() {
            return Err("cards lost or duplicated".into());
        }
        let deck_from_array = self.deck[..self.deck_len as usize].iter().fold(0u64, |s, &c| s | 1u64 << c);
        if deck_from_array != self.deck_set {
            return Err("deck array and deck set disagree".into());
        }
        for seat in 0..2 {
            for s in 0..7 {
                let side = &self.sides[seat][s];
                let cap = self.face(s).cards;
                if side.n > cap {
                    return Err(format!("seat {seat} holds {} cards at section {s} of capacity {cap}", side.n));
                }
                if (side.n == cap) != (side.done != 0) {
                    return Err(format!("completion stamp wrong at seat {seat} section {s}"));
                }
            }
        }
        if !self.p.no_play_draws && (self.hands[0].count_ones() > self.p.hand_size as u32 || self.hands[1].count_ones() > self.p.hand_size as u32) {
            return Err("a hand is larger than the hand size".into());
        }
        if self.cauldrons > self.p.cauldrons {
            return Err("more cauldrons than at the start".into());
        }
        if self.phase == Phase::Over && !self.unfinished && self.winner == NO_WINNER {
            return Err("a finished game without a winner".into());
        }
        if self.damaged.count_ones() > self.p.damages_to_win as u32 {
            return Err("more damaged sections than needed to win".into());
        }
        Ok(())
    }
}
