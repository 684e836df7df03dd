//! Driving a game one decision at a time (issue 12): the engine side of the step API, of
//! Python agents and of search at every decision.
//!
//! Two parts:
//! - [`Drive`], a game's explicit record of where it is: the rules state at a *checkpoint* (the
//!   start of the game, or the latest main-priority decision with two or more options) and
//!   every answer given since. A stepper's game copies its state there only when a copy of
//!   the game needs it (see [`Drive::lazy`]); the batch's search at every decision copies it
//!   at once. From it the game can be rebuilt at its current decision
//!   ([`Stepper::replayed`]), rebuilt with everything one seat cannot see re-dealt
//!   ([`Stepper::determinized`], [`Game::rollout_from`]) or continued with other answers.
//!   A nested decision (a target inside a trigger inside a played card) needs no frame of
//!   its own: replaying the answers since the checkpoint from the checkpoint's state walks
//!   the same rules code to the same place.
//! - [`Stepper`]: a game that runs on a coroutine of its own (a separate stack) and stops at
//!   every decision with two or more options, until [`Stepper::apply`] answers it. Stepping
//!   is therefore as cheap as the rules between two decisions; the coroutine's stack is never
//!   copied (a copy is rebuilt from the `Drive`).
//!
//! The batch runner does not use either: its seats' policies answer inside `Game::decide`
//! (the fast path). `tests/step.rs` proves both give identical games.
//!
//! Single-option decisions are taken automatically in every mode (R8.8), so a driven game
//! stops exactly where a batch game asks a policy.

use super::agent::{passive, Agent, Agents, NoAgent};
use super::decision::{DecisionKind, Opt, SeatView};
use super::mode::{in_mode, Mode};
use super::state::{Cid, EndReason, Game, GameConfig, GameData, Outcome, State, Zone};
use crate::cards::CardDb;
use crate::rng::Rng;
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};

/// Stack of a driven game's coroutine.
const STACK_BYTES: usize = 8 << 20;

/// Stacks kept for reuse per thread (each is 8 MiB of address space; only the pages a game
/// touched stay committed).
const STACKS_KEPT: usize = 4;

thread_local! {
    /// Stacks of finished or dropped driven games of this thread, taken by the next ones: a
    /// fresh stack is a new mapping whose pages fault in again (copies for search and the
    /// harness start a driven game per copy).
    static STACKS: std::cell::RefCell<Vec<DefaultStack>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn take_stack() -> DefaultStack {
    let kept = STACKS.try_with(|s| s.borrow_mut().pop()).ok().flatten();
    kept.unwrap_or_else(|| DefaultStack::new(STACK_BYTES).expect("could not reserve a stack for a driven game"))
}

/// End a driven game's coroutine (a suspended one unwinds, as dropping it does) and keep its
/// stack for the next one.
fn recycle(mut co: Coroutine<usize, (), Outcome>) {
    co.force_unwind();
    let stack = co.into_stack();
    let _ = STACKS.try_with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < STACKS_KEPT {
            s.push(stack);
        }
    });
}

/// A driven game copies its state at a main-priority decision anyway once this many answers
/// were given since its last copy (bounds the replay a copy of the game may need).
const LAZY_MAX: usize = 128;

/// One answer given to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub seat: u8,
    pub kind: DecisionKind,
    pub opt: Opt,
}

/// Where a checkpoint's game resumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Before setup (`Game::run` with this start player).
    Start(Option<u8>),
    /// At the active player's main-priority decision.
    Main,
}

/// A game's record of its progress (see the module documentation).
#[derive(Clone)]
pub struct Drive {
    /// The rules state at the checkpoint.
    pub(crate) checkpoint: Box<State>,
    pub(crate) entry: Entry,
    /// Every answer given since the checkpoint, in order.
    pub(crate) answers: Vec<Answer>,
    /// A driven game (on a coroutine) does not copy its state at every main-priority decision
    /// (the copy was most of the cost of stepping): `answers[..lazy]` lead from `checkpoint`
    /// to the latest such decision, the game's *logical* checkpoint (0: `checkpoint` is it).
    /// A copy of the game rebuilds that state once by replaying them
    /// ([`Game::logical_checkpoint`], kept in `memo`), which gives exactly the state the copy
    /// would have had, so copies, re-dealt copies and rollouts are the same as with a copy at
    /// every decision.
    lazy: usize,
    /// The state at the logical checkpoint once rebuilt for a copy (until the next one).
    memo: std::cell::RefCell<Option<Box<State>>>,
    /// The state is copied at a main-priority decision when this many answers or more were
    /// given since the checkpoint (`LAZY_MAX`; 0: at every one, as off a coroutine).
    lazy_max: usize,
    /// `answers[..script]` are replayed before decisions are live; `pos` is the next one.
    pub(crate) script: usize,
    pub(crate) pos: usize,
    /// Replaying a re-dealt copy: an answer that no longer fits its decision is dropped and
    /// a decision the original did not have takes the passive answer (`used` collects what
    /// was actually answered).
    pub(crate) lenient: bool,
    used: Vec<Answer>,
    /// The decision a re-dealt copy catches up to: it stays lenient (passive answers) until
    /// this seat has a decision of this kind in this turn with the script used up.
    target: Option<(u8, DecisionKind, u32)>,
    /// Keep checkpoints and answers (off for search rollouts, which are never copied).
    pub(crate) record: bool,
    /// The first live decision takes this answer if it is offered (a search candidate).
    pub(crate) forced: Option<Opt>,
    /// The forced answer was not offered (the re-dealt copy reached another decision).
    pub(crate) forced_missed: bool,
    /// Reseed the random streams at answer index `at` (where a copy was re-dealt).
    reseed: Option<(usize, [u64; 3])>,
    reseeded: bool,
    /// The recorders of the original, given back once a copy has caught up with it.
    after_replay: Option<Box<super::trace::Trace>>,
    /// The decision the game is stopped at (seat, kind), while suspended.
    pub(crate) pending: Option<(u8, DecisionKind)>,
    /// Address of the running coroutine's `Yielder` (0: not on a coroutine, policies answer).
    yielder: usize,
    /// The stepper is being dropped at a decision: every decision from here is answered
    /// passively without suspending and the game is marked over, so that the rules code
    /// returns to the coroutine's entry by itself (`Stepper::drop`): unwinding a suspended
    /// coroutine's stack cost about a quarter of a search iteration.
    abandon: bool,
}

impl Drive {
    /// Whether the recorders this copy takes back once it has caught up (`after_replay`)
    /// include one the rules code consults (see `GameData::traced`).
    pub(crate) fn traced_after_replay(&self) -> bool {
        self.after_replay.as_ref().is_some_and(|t| t.log.is_some() || t.check_invariants)
    }

    /// A record starting at `g`'s current state, which must be the state before setup.
    pub fn at_start(g: &GameData<'_>, fixed_start: Option<u8>) -> Drive {
        Drive {
            checkpoint: Box::new(g.state.clone()),
            entry: Entry::Start(fixed_start),
            answers: Vec::with_capacity(64),
            lazy: 0,
            memo: Default::default(),
            lazy_max: LAZY_MAX,
            script: 0,
            pos: 0,
            lenient: false,
            used: Vec::new(),
            target: None,
            record: true,
            forced: None,
            forced_missed: false,
            reseed: None,
            reseeded: false,
            after_replay: None,
            pending: None,
            yielder: 0,
            abandon: false,
        }
    }

    /// Answers given since the checkpoint.
    pub fn answers(&self) -> &[Answer] {
        &self.answers[self.lazy..]
    }

    pub fn entry(&self) -> Entry {
        if self.lazy > 0 {
            Entry::Main
        } else {
            self.entry
        }
    }

    /// Make `state`, the state at the logical checkpoint, the checkpoint: drop the answers
    /// that led to it and the reseed they applied.
    fn promote(&mut self, state: Box<State>) {
        let k = self.lazy;
        self.checkpoint = state;
        self.entry = Entry::Main;
        self.answers.drain(..k);
        self.pos -= k.min(self.pos);
        self.script -= k.min(self.script);
        // a reseed at or before the logical checkpoint is in its state already
        self.reseed = match self.reseed {
            Some((at, _)) if at <= k => None,
            Some((at, seeds)) => Some((at - k, seeds)),
            None => None,
        };
        self.lazy = 0;
        *self.memo.get_mut() = None;
    }
}

impl<'db> GameData<'db> {
    /// `decide` for a game with a `Drive` (cold: the batch path never comes here).
    #[cold]
    #[inline(never)]
    pub(crate) fn decide_driven(&mut self, seat: usize, kind: DecisionKind) -> Opt {
        // unwrap: only called when `drive` is set
        let d = self.drive.as_mut().unwrap();
        if d.abandon {
            // the stepper is being dropped: end the game where the rules code checks
            self.state.outcome.get_or_insert(Outcome::no_winner(EndReason::UnfinishedActionCap));
            return self.scratch.opts[passive(&self.scratch.opts)];
        }
        if let Some((at, seeds)) = d.reseed {
            if !d.reseeded && d.pos == at {
                d.reseeded = true;
                self.state.rng_shuffle = Rng::new(seeds[0]);
                self.state.rng_events = Rng::new(seeds[1]);
                self.state.rng_dice = Rng::new(seeds[2]);
            }
        }
        let d = self.drive.as_mut().unwrap();
        if d.lenient {
            // a passive answer the copy has no decision for (an opponent who could respond
            // in the original holds other cards here): dropped
            while d.pos < d.script {
                let a = d.answers[d.pos];
                let mine = a.seat as usize == seat && a.kind == kind;
                if mine || !matches!(a.opt, Opt::Keep | Opt::Pass | Opt::EndPhase | Opt::Done | Opt::NoTarget) {
                    break;
                }
                d.pos += 1;
            }
        }
        if d.pos < d.script {
            let a = d.answers[d.pos];
            let found = self.scratch.opts.iter().position(|&o| o == a.opt);
            if !d.lenient {
                d.pos += 1;
                return match found {
                    Some(i) => self.scratch.opts[i],
                    None => {
                        if self.trace.invariant_error.is_none() {
                            self.trace.invariant_error = Some(format!("replay diverged: {:?} is not among {:?} ({kind:?})", a.opt, self.scratch.opts));
                        }
                        self.scratch.opts[0]
                    }
                };
            }
            let o = if a.seat as usize == seat && a.kind == kind {
                d.pos += 1;
                match found {
                    Some(i) => self.scratch.opts[i],
                    None => self.scratch.opts[passive(&self.scratch.opts)],
                }
            } else {
                self.scratch.opts[passive(&self.scratch.opts)]
            };
            d.used.push(Answer { seat: seat as u8, kind, opt: o });
            return o;
        }
        if d.lenient && d.target.is_some_and(|t| t != (seat as u8, kind, self.state.turn)) {
            // a decision the original did not have between its last answer and the decision
            // being caught up to (another seat holds other hidden cards here): passive
            let o = self.scratch.opts[passive(&self.scratch.opts)];
            d.used.push(Answer { seat: seat as u8, kind, opt: o });
            return o;
        }
        // live from here: a copy that was catching up has caught up
        if d.lenient {
            d.lenient = false;
            d.answers = std::mem::take(&mut d.used);
            d.pos = d.answers.len();
            d.script = d.pos;
            if let Some((_, seeds)) = d.reseed {
                d.reseed = Some((d.pos, seeds));
                if !d.reseeded {
                    d.reseeded = true;
                    self.state.rng_shuffle = Rng::new(seeds[0]);
                    self.state.rng_events = Rng::new(seeds[1]);
                    self.state.rng_dice = Rng::new(seeds[2]);
                }
            }
        }
        let d = self.drive.as_mut().unwrap();
        if let Some(t) = d.after_replay.take() {
            self.trace = *t;
        }
        let d = self.drive.as_mut().unwrap();
        if kind == DecisionKind::Main && d.record {
            if d.yielder != 0 && d.answers.len() < d.lazy_max {
                // driven: the copy waits until a copy of the game needs it (`Drive::lazy`);
                // a state rebuilt since the previous main decision becomes the checkpoint
                if let Some(m) = d.memo.get_mut().take() {
                    d.promote(m);
                }
                d.lazy = d.answers.len();
            } else {
                (*d.checkpoint).clone_from(&self.state);
                d.entry = Entry::Main;
                d.answers.clear();
                d.pos = 0;
                d.script = 0;
                d.lazy = 0;
                *d.memo.get_mut() = None;
                if d.reseeded {
                    d.reseed = None;
                }
            }
        }
        let o = if let Some(f) = d.forced.take() {
            match self.scratch.opts.iter().position(|&o| o == f) {
                Some(i) => self.scratch.opts[i],
                None => {
                    d.forced_missed = true;
                    self.ask_policy(seat, kind)
                }
            }
        } else if d.yielder != 0 {
            d.pending = Some((seat as u8, kind));
            let y = d.yielder as *const Yielder<usize, ()>;
            // SAFETY: `yielder` is the address of the Yielder of the coroutine this code runs
            // on, set by `Stepper::launch` before the game starts and valid until it returns.
            // While suspended the driver only reads the game (`Stepper::game`); the answer
            // comes back as the resume value.
            let i = unsafe { (*y).suspend(()) };
            let d = self.drive.as_mut().unwrap();
            d.pending = None;
            // the driver checked the index (`Stepper::apply`)
            self.scratch.opts[i.min(self.scratch.opts.len() - 1)]
        } else {
            self.ask_policy(seat, kind)
        };
        let d = self.drive.as_mut().unwrap();
        if d.record {
            d.answers.push(Answer { seat: seat as u8, kind, opt: o });
            d.pos = d.answers.len();
            d.script = d.pos;
        }
        o
    }

    /// The seat's policy answers the decision in `scratch.opts`.
    fn ask_policy(&mut self, seat: usize, kind: DecisionKind) -> Opt {
        let mut pol = std::mem::replace(&mut self.policies[seat], Box::new(NoAgent));
        let i = {
            let view = SeatView::new(self.as_game(), seat);
            pol.choose(&view, kind, &self.scratch.opts)
        };
        self.policies[seat] = pol;
        self.scratch.opts[i.min(self.scratch.opts.len() - 1)]
    }

    /// Run from the checkpoint of the `Drive` (replaying its answers first) to the end, in
    /// the mode the recorders need (`mode`).
    pub(crate) fn run_from_checkpoint(&mut self) -> Outcome {
        in_mode!(self, |g| g.play_from_checkpoint())
    }

    /// A copy of this driven game rebuilt at its checkpoint, ready to replay its answers.
    /// `relabel`: re-deal what `seat` cannot see (see `Stepper::determinized`) and catch up
    /// to the decision `target` (deciding seat, kind, turn: the one the original stands at).
    fn rebuilt(&self, mut relabel: Option<(usize, (u8, DecisionKind), &mut Rng)>) -> Game<'db> {
        let logical = self.logical_checkpoint();
        // two copies of the rules state (the copy's and its checkpoint), not four: the
        // original's current state is never copied
        // unwrap: only called on driven games
        let at = logical.as_deref().unwrap_or(&self.drive.as_ref().unwrap().checkpoint);
        let mut state = at.clone();
        if let Some((seat, _, rng)) = relabel.as_mut() {
            relabel_hidden(self.db, &self.state, &mut state, *seat, rng);
        }
        let mut g = self.copy_with_state(state);
        let d = g.drive.as_mut().unwrap();
        if let Some(state) = logical {
            d.promote(state);
        }
        d.yielder = 0;
        d.abandon = false;
        d.pending = None;
        d.pos = 0;
        d.script = d.answers.len();
        d.used.clear();
        d.forced = None;
        d.forced_missed = false;
        d.reseeded = false;
        if let Some((_, target, rng)) = relabel {
            d.target = Some((target.0, target.1, self.state.turn));
            (*d.checkpoint).clone_from(&g.state);
            d.lenient = true;
            // reseeded where the copy catches up (the index is known then)
            d.reseed = Some((usize::MAX, [rng.next_u64(), rng.next_u64(), rng.next_u64()]));
        }
        g.rebuild_caches();
        // replaying must not log or record twice: the original's recorders come back once
        // the copy has caught up
        let trace = std::mem::take(&mut g.trace);
        g.trace.check_invariants = trace.check_invariants;
        g.drive.as_mut().unwrap().after_replay = Some(Box::new(trace));
        Game::wrap(g)
    }

    /// The state at the logical checkpoint when it is not `checkpoint` (`Drive::lazy`):
    /// rebuilt once by replaying the answers that lead to it on a copy of the game, which
    /// stops at that decision (the first one after its script), then kept in the drive.
    fn logical_checkpoint(&self) -> Option<Box<State>> {
        // unwrap: only called on driven games
        let d = self.drive.as_ref().unwrap();
        if d.lazy == 0 {
            return None;
        }
        if let Some(m) = d.memo.borrow().as_ref() {
            return Some(m.clone());
        }
        let mut g: Game<'_> = Game::wrap(self.clone());
        g.trace = Default::default();
        g.policies = (0..g.state.n).map(|_| Box::new(NoAgent) as Box<dyn Agent>).collect();
        let c = g.drive.as_mut().unwrap();
        c.answers.truncate(d.lazy);
        c.lazy = 0;
        c.yielder = 0;
        c.pending = None;
        c.pos = 0;
        c.script = c.answers.len();
        c.used.clear();
        c.lenient = false;
        c.target = None;
        c.record = true;
        c.forced = None;
        c.forced_missed = false;
        c.reseeded = false;
        c.after_replay = None;
        g.state = (*c.checkpoint).clone();
        g.rebuild_caches();
        let s = Stepper::launch(Box::new(g));
        let m = Box::new(s.game.state.clone());
        *d.memo.borrow_mut() = Some(m.clone());
        Some(m)
    }

    /// A rollout for search: a copy of this (recording) game with everything `seat` cannot
    /// see re-dealt, the answers since the checkpoint replayed, `candidate` answering the
    /// current decision, then `policies` for every decision until the end or the round
    /// `round_limit`. Returns the outcome and whether the candidate was offered in the copy.
    pub fn rollout_from(&self, seat: usize, kind: DecisionKind, rng: &mut Rng, candidate: Opt, policies: Agents, round_limit: u32) -> (Outcome, bool, u32) {
        let mut g = self.rebuilt(Some((seat, (seat as u8, kind), rng)));
        g.policies = policies;
        g.trace = Default::default();
        let d = g.drive.as_mut().unwrap();
        d.after_replay = None;
        d.record = false;
        d.forced = Some(candidate);
        g.state.round_limit = round_limit;
        let start = self.state.round;
        let out = g.run_from_checkpoint();
        let d = g.drive.as_ref().unwrap();
        // offered: the copy reached this decision and the candidate was among its options
        let offered = d.forced.is_none() && !d.forced_missed;
        (out, offered, g.state.round.saturating_sub(start))
    }

    /// The driving record, if any.
    pub fn drive(&self) -> Option<&Drive> {
        self.drive.as_deref()
    }

    /// Start recording checkpoints and answers (search at every decision needs them).
    pub fn record_from_start(&mut self, fixed_start: Option<u8>) {
        self.drive = Some(Box::new(Drive::at_start(self, fixed_start)));
    }
}

impl<M: Mode> Game<'_, M> {
    /// `GameData::run_from_checkpoint` in mode `M`.
    fn play_from_checkpoint(&mut self) -> Outcome {
        // unwrap: only called on driven games
        let entry = self.drive.as_ref().unwrap().entry;
        match entry {
            Entry::Start(fixed) => self.play(fixed),
            Entry::Main => {
                let p = self.state.active;
                self.main_options(p);
                let choice = self.decide(p, DecisionKind::Main);
                self.play_on(choice)
            }
        }
    }
}

/// Give every card `seat` cannot see now, and could not see at the checkpoint either, a
/// definition drawn at random from the definitions of such cards in the same pool (each
/// player's hidden hand and deck; the Newsfeed deck; the Event deck). Definitions are dealt
/// to the current hidden positions in a fixed order, so the result depends only on what the
/// seat can see and on `rng` (never on how the hidden cards were arranged).
fn relabel_hidden(db: &CardDb, now: &State, at: &mut State, seat: usize, rng: &mut Rng) {
    fn hidden_at(at: &State, seat: usize, c: Cid) -> bool {
        let i = &at.inst[c as usize];
        match i.zone {
            Zone::Hand => i.owner as usize != seat,
            Zone::Deck | Zone::NewsDeck | Zone::EventDeck => true,
            _ => false,
        }
    }
    let mut pool: Vec<Cid> = Vec::with_capacity(64);
    let mut defs: Vec<u16> = Vec::with_capacity(64);
    let mut deal = |cards: &mut dyn Iterator<Item = Cid>, at: &mut State, rng: &mut Rng| {
        pool.clear();
        pool.extend(cards.filter(|&c| hidden_at(at, seat, c)));
        defs.clear();
        defs.extend(pool.iter().map(|&c| at.inst[c as usize].def));
        defs.sort_unstable();
        rng.shuffle(&mut defs);
        for (k, &c) in pool.iter().enumerate() {
            let old = at.inst[c as usize];
            if old.def != defs[k] {
                at.inst[c as usize] = old.with_def(defs[k], db.def(defs[k]));
            }
        }
    };
    for p in 0..now.n {
        let hand: &[Cid] = if p != seat { &now.players[p].hand } else { &[] };
        let mut it = hand.iter().chain(now.players[p].deck.iter()).copied();
        deal(&mut it, at, rng);
    }
    let mut it = now.news_deck.iter().copied();
    deal(&mut it, at, rng);
    let mut it = now.event_deck.iter().copied();
    deal(&mut it, at, rng);
}

/// A game driven one decision at a time (see the module documentation).
pub struct Stepper<'db> {
    // declared before `game`: dropped (and unwound) while the game it points to still exists
    co: Option<Coroutine<usize, (), Outcome>>,
    game: Box<Game<'db>>,
    outcome: Option<Outcome>,
}

impl Drop for Stepper<'_> {
    fn drop(&mut self) {
        // before the game it points to is dropped
        let Some(mut co) = self.co.take() else { return };
        if !co.done() {
            // a suspended game runs to its end by itself (`Drive::abandon`): much cheaper
            // than unwinding its stack; `recycle` still unwinds whatever did not return
            if let Some(d) = self.game.drive.as_mut() {
                d.abandon = true;
                d.pending = None;
            }
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| co.resume(0)));
        }
        recycle(co);
    }
}

impl<'db> Stepper<'db> {
    /// A new game, stopped at its first decision (mulligans come first, R3.3).
    pub fn new(db: &'db CardDb, cfg: &GameConfig) -> Stepper<'db> {
        Stepper::with_recorders(db, cfg, false, false)
    }

    /// `new`, keeping the readable log (`log`) and every card play (`plays`).
    pub fn with_recorders(db: &'db CardDb, cfg: &GameConfig, log: bool, plays: bool) -> Stepper<'db> {
        let n = cfg.factions.len();
        let mut g = Game::new(db, cfg, vec![NoAgent; n]);
        g.record_from_start(cfg.start_player);
        if log {
            g.trace.log = Some(Vec::with_capacity(1024));
        }
        if plays {
            g.trace.plays = Some(Vec::with_capacity(64));
        }
        Stepper::launch(Box::new(g))
    }

    /// Start (or restart, for a rebuilt copy) `game` on a coroutine of its own and run it to
    /// its first live decision.
    fn launch(mut game: Box<Game<'db>>) -> Stepper<'db> {
        let ptr = &mut *game as *mut Game<'db> as usize;
        // 8 MiB, the main thread's usual size (reserved, only touched pages are committed):
        // rules code and search rollouts recurse as deep here as on any thread
        let stack = take_stack();
        let co = Coroutine::with_stack(stack, move |y: &Yielder<usize, ()>, _: usize| {
            // SAFETY: `ptr` is the boxed game of the `Stepper` owning this coroutine; the box
            // never moves and is dropped after the coroutine (field order). Lifetimes are
            // erased only for the closure's `'static` bound; the card set outlives both.
            let g = unsafe { &mut *(ptr as *mut Game<'static>) };
            // unwrap: a stepper's game always has a drive
            g.drive.as_mut().unwrap().yielder = y as *const Yielder<usize, ()> as usize;
            let out = g.run_from_checkpoint();
            g.drive.as_mut().unwrap().yielder = 0;
            out
        });
        let mut s = Stepper { co: Some(co), game, outcome: None };
        s.resume(0);
        s
    }

    fn resume(&mut self, i: usize) {
        let Some(co) = self.co.as_mut() else { return };
        match co.resume(i) {
            CoroutineResult::Yield(()) => {}
            CoroutineResult::Return(out) => {
                self.outcome = Some(out);
                if let Some(co) = self.co.take() {
                    recycle(co);
                }
            }
        }
    }

    /// A driven game at `g`'s main-priority decision: `g` stands at the active player's
    /// main-priority decision (a seat's re-dealt copy, `SeatView::determinize`), which
    /// becomes the checkpoint. For search from inside a batch game (`bots::ismcts`).
    pub fn at_main(mut g: Game<'db>) -> Stepper<'db> {
        let n = g.state.n;
        g.policies = (0..n).map(|_| Box::new(NoAgent) as Box<dyn Agent>).collect();
        g.trace = Default::default();
        let mut d = Drive::at_start(&g, None);
        d.entry = Entry::Main;
        g.drive = Some(Box::new(d));
        Stepper::launch(Box::new(g))
    }

    /// Tests: copy the state at every main-priority decision from now on (what the lazy
    /// checkpoints of a driven game are compared with).
    #[cfg(any(test, feature = "scenario"))]
    pub fn with_eager_checkpoints(mut self) -> Stepper<'db> {
        // unwrap: a stepper's game always has a drive
        self.game.drive.as_mut().unwrap().lazy_max = 0;
        self
    }

    /// The decision the game waits for: (seat, kind, options); None once the game is over.
    pub fn pending(&self) -> Option<(usize, DecisionKind, &[Opt])> {
        let (seat, kind) = self.game.drive.as_ref()?.pending?;
        Some((seat as usize, kind, &self.game.scratch.opts))
    }

    /// Answer the pending decision with option `i`; the game runs on to its next decision.
    pub fn apply(&mut self, i: usize) -> Result<(), String> {
        let Some((seat, kind, opts)) = self.pending() else {
            return Err("the game is over: no decision to answer".into());
        };
        if i >= opts.len() {
            return Err(format!("option {i} does not exist: seat {seat} has {} options ({kind:?})", opts.len()));
        }
        self.resume(i);
        Ok(())
    }

    /// The game at its pending decision (or at its end).
    pub fn game(&self) -> &Game<'db> {
        &self.game
    }

    /// What `seat` sees at the pending decision.
    pub fn view(&self, seat: usize) -> SeatView<'_, 'db> {
        SeatView::new(&self.game, seat)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// An independent copy at the same decision, rebuilt from the checkpoint and the answers
    /// since (the same continuation for the same answers).
    pub fn replayed(&self) -> Stepper<'db> {
        if self.co.is_none() {
            let mut g = Box::new((*self.game).clone());
            if let Some(d) = g.drive.as_mut() {
                d.yielder = 0;
            }
            return Stepper { co: None, game: g, outcome: self.outcome };
        }
        Stepper::launch(Box::new(self.game.rebuilt(None)))
    }

    /// A copy at the same decision in which every card `seat` cannot see is re-dealt at
    /// random from what it could be, and the future randomness reseeded (for search). The
    /// copy replays the answers since the checkpoint; where the re-dealt cards change what
    /// could be decided it answers passively, until `seat` has the pending decision's kind.
    /// It may still reach another decision (`pending` tells: rarely, when hidden cards changed
    /// what `seat` was offered); it depends only on what `seat` can see and on `rng`.
    pub fn determinized(&self, seat: usize, rng: &mut Rng) -> Stepper<'db> {
        let Some((decider, kind, _)) = self.pending() else {
            return self.replayed();
        };
        Stepper::launch(Box::new(self.game.rebuilt(Some((seat, (decider as u8, kind), rng)))))
    }
}

impl<'db> Stepper<'db> {
    /// What `policy` would answer to the pending decision (an index into its options), with
    /// the policy's own state (its random stream advances). None once the game is over.
    pub fn policy_choice(&self, policy: &mut dyn Agent) -> Option<usize> {
        let (seat, kind, opts) = self.pending()?;
        let view = SeatView::new(&self.game, seat);
        Some(policy.choose(&view, kind, opts).min(opts.len() - 1))
    }

    /// Answer pending decisions with `policies[seat]` until a seat in `stop_for` (bit = seat)
    /// must decide, or the game is over (built-in bots play in Rust between two external
    /// answers).
    pub fn advance(&mut self, policies: &mut [Box<dyn Agent>], stop_for: u8) {
        while let Some((seat, _, _)) = self.pending() {
            if stop_for & (1 << seat) != 0 {
                return;
            }
            // unwrap: pending is Some
            let i = self.policy_choice(&mut *policies[seat]).unwrap();
            self.resume(i);
        }
    }
}
