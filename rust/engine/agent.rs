//! The one agent interface: what answers a seat's decisions. The engine knows only this
//! trait; the built-in bots (`crate::bots::Policy`), test scripts (`scenario::Scripted`) and
//! the step API's drivers implement or hold agents from outside. A game either asks its
//! agents inside `Game::decide` (the batch's fast path) or stops at each decision for a
//! driver (`step::Stepper`) that asks them.

use super::decision::{DecisionKind, Opt, SeatView};
use std::any::Any;

pub trait Agent: Any + Send {
    /// The index of the chosen option among `opts` (two or more; what `view`'s seat may see).
    fn choose(&mut self, view: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize;
    /// The answer among `n` options when the agent needs no view (the uniformly random
    /// bot), so the engine skips building one; None: ask `choose`.
    #[inline]
    fn choose_blind(&mut self, _n: usize) -> Option<usize> {
        None
    }
    /// A copy (games are copied for search and for the step API's clones).
    fn clone_agent(&self) -> Box<dyn Agent>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The agents of a game, one per seat.
pub type Agents = Vec<Box<dyn Agent>>;

impl Clone for Box<dyn Agent> {
    fn clone(&self) -> Self {
        self.clone_agent()
    }
}

/// A seat no agent answers for (a driven game's seats, whose driver answers): the first
/// option if ever asked.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoAgent;

impl Agent for NoAgent {
    fn choose(&mut self, _: &SeatView<'_, '_>, _: DecisionKind, _: &[Opt]) -> usize {
        0
    }
    fn clone_agent(&self) -> Box<dyn Agent> {
        Box::new(*self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// What `Game::new` accepts as its agents: a list of one agent type, or boxed agents.
pub trait IntoAgents {
    fn into_agents(self) -> Agents;
}

impl<A: Agent> IntoAgents for Vec<A> {
    fn into_agents(self) -> Agents {
        self.into_iter().map(|a| Box::new(a) as Box<dyn Agent>).collect()
    }
}

impl IntoAgents for Agents {
    fn into_agents(self) -> Agents {
        self
    }
}

/// Answers taken in order (tests, scenario positions); each must be among the offered
/// options (a panic names it otherwise). When the script is used up, the most passive option
/// is taken (Keep, Pass, EndPhase, Done, NoTarget, the largest Amount), else the first.
#[derive(Clone, Debug, Default)]
pub struct Scripted(pub std::collections::VecDeque<Opt>);

impl Agent for Scripted {
    fn choose(&mut self, _: &SeatView<'_, '_>, kind: DecisionKind, opts: &[Opt]) -> usize {
        if let Some(want) = self.0.front().copied() {
            if let Some(i) = opts.iter().position(|&o| o == want) {
                self.0.pop_front();
                return i;
            }
            panic!("scripted answer {want:?} is not among the options {opts:?} ({kind:?})");
        }
        passive(opts)
    }
    fn clone_agent(&self) -> Box<dyn Agent> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The most passive option: Keep, Pass, EndPhase, Done or NoTarget; else the largest Amount
/// (offered first); else the first option.
pub fn passive(opts: &[Opt]) -> usize {
    let rank = |o: &Opt| match o {
        Opt::Keep | Opt::Pass | Opt::EndPhase | Opt::Done | Opt::NoTarget => 0,
        Opt::Amount(_) => 1,
        _ => 2,
    };
    let mut best = 0;
    for (i, o) in opts.iter().enumerate() {
        if rank(o) < rank(&opts[best]) {
            best = i;
        }
    }
    if let Opt::Amount(_) = opts[best] {
        return 0;
    }
    best
}
