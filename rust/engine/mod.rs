//! The Kétharmad rules engine (rules.md R1–R17). Plain Rust, no PyO3.
//!
//! A `Game` holds one concept per part, each in its own file:
//! - `state::State`: the rules state (players and their zones, card instances, the Newsfeed
//!   and Event decks, chain, Campaign, turn and round, random streams, outcome): everything
//!   that decides what happens next. `Game::state()` reads it.
//! - `caches::Caches`: values derived from the state for speed (board generations, memoised
//!   stats, board counts, ready resources, dirty hints). The module documents the protocol
//!   and holds the few card mutations that keep it (`damage_card`, `until_end_of_turn`,
//!   `set_exhausted`, `board_changed` …).
//! - `scratch::Scratch`: reusable buffers (decision options, attacker lists, payments),
//!   meaningless between actions.
//! - `trace::Trace`: recorders (log, decisions, plays, invariant checking); `glog!`.
//! - `mode`: the rules code compiled with the log and invariant checks (`Traced`) and without
//!   (`Untraced`, a game that records neither): `Game<'db, M>` runs a `GameData`.
//! - `hooks::TestHooks`: test switches (a fixed die, full checks).
//! - the seats' agents (`agent::Agent`, the one interface; the bots implement it outside).
//!
//! Fields are crate-private; effect code changes cards only through the rules functions.
//!
//! Where things happen:
//! - `state`: zones, card instances, players, moving cards between zones
//! - `setup`: shuffles, opening hands, mulligans (R3)
//! - `turn`: the four steps of a turn and the main-priority actions (R7)
//! - `priority`: Reaction windows and the chain (R8)
//! - `combat`: the Campaign (R9)
//! - `scandal`: Scandal, the threshold and every Exposé (R10)
//! - `newsfeed`: the Newsfeed row and Recruit (R11)
//! - `events`: the Event procedure and Event effects (R12)
//! - `effects`: carrying out card effects (the vocabulary of `cards::effects`)
//! - `stats`: Influence/Credibility with every static bonus, Unity, Supermajority
//! - `costs`: cost changes and paying from Bases and resource abilities (R6)
//! - `seats`: opponents, allies and the enemy relation; whose Support and Scandal pool a seat
//!   uses (`support_of`, `scandal_pool_of`); `Seats` bitmasks; `MAX_SEATS`
//! - `pacts`: diplomacy's non-aggression pacts (V1): when one holds, breaking it
//! - `checks`: state checks, elimination, Voter takeover, end of game (R14, R15)
//! - `points`: seating rebuilt after eliminations (the circle V3, war of the gods V4) and
//!   victory points (V3)
//! - `invariants`: whole-state consistency checks used by tests and the fuzzer
//! - `decision`: the options offered to policies and what a seat may see
//! - `agent`: the one agent interface (`Agent`); the bots implement it outside the engine
//! - `step`: driving a game one decision at a time (checkpoint + answers, the coroutine stepper)
//! - `actions`: the fixed action space of the step API (stable integer ids for options)
//! - `observe`: what a seat may see as a fixed-length tensor and as plain data
//! - `scenario` (tests only, feature `scenario`): build a position by hand, script answers

pub mod actions;
pub mod agent;
pub mod caches;
pub mod checks;
pub mod combat;
pub mod costs;
pub mod decision;
pub mod effects;
pub mod events;
pub mod hooks;
pub mod invariants;
pub mod mode;
pub mod newsfeed;
pub mod observe;
pub mod pacts;
pub mod points;
pub mod priority;
pub mod scandal;
#[cfg(any(test, feature = "scenario"))]
pub mod scenario;
pub mod scratch;
pub mod seats;
pub mod setup;
pub mod state;
pub mod stats;
pub mod step;
pub mod trace;
pub mod turn;

pub use crate::cards::FormatSpec;
pub use agent::{Agent, Agents, IntoAgents, NoAgent};
pub use decision::{DecisionKind, Opt, SeatView};
pub use seats::{Seating, Seats, MAX_SEATS};
pub use state::{Cid, EndReason, Game, GameConfig, GameData, Inst, Outcome, Player, State, Zone, MAX_INSTS};
