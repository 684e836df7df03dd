//! The viewers' picture of a game (`GameState::view`, issue 28): the stacks on the path (top
//! first), the Sun pile, the temple, the votes (each seen by the seats that see it, R5.7, R9),
//! each seat's private perception of the question and the asker's estimates; the score charted
//! over a game is every philosopher's position on the path.

use super::params::RULE_NAMES;
use super::stacks::{NONE, SLOTS};
use super::state::{Phase, State};
use crate::harness::{TableView, Zone};

fn philosopher(s: &State, seat: u8) -> String {
    let laurel = if s.laurel >> seat & 1 == 1 { " (laurel)" } else { "" };
    format!("seat {seat}{laurel}")
}

/// The seats of the list starting at `top` (a stack or the pile), top first.
fn column(s: &State, mut top: u8) -> Vec<String> {
    let mut out = Vec::new();
    while top != NONE {
        out.push(philosopher(s, top));
        top = s.path.under[top as usize];
    }
    out
}

pub fn view(s: &State) -> TableView {
    let n = s.n as usize;
    let mut v = TableView::default();
    for seat in 0..n {
        v.score(seat, "position", s.path.pos[seat] as f64);
    }
    let phase = match s.phase {
        Phase::ChooseQuestion => "the asker chooses a question",
        Phase::Disciple => "disciple window",
        Phase::Vote => "vote",
        Phase::CorruptName => "corruption: the asker names a voter",
        Phase::DivName => "divination: the asker names a voter",
        Phase::DivChange => "divination: keep or switch the vote",
        Phase::BetrayChange => "betrayal: keep or switch the vote",
        Phase::Over => "over",
    };
    v.fact("day", format!("{} of {}", s.day, s.setup.days));
    v.fact("rule", RULE_NAMES[s.rule as usize]);
    v.fact("phase", phase);
    if s.asker != NONE && s.phase != Phase::Over {
        v.fact("asker", format!("seat {}", s.asker));
    }
    if s.disciple != NONE {
        v.fact("disciple", format!("seat {}", s.disciple));
    }
    v.fact("sun", format!("position {}", s.path.sun));
    v.fact("temple", format!("position {}", s.prm.temple));
    if s.named != 0 {
        let named: Vec<String> = (0..n).filter(|&j| s.named >> j & 1 == 1).map(|j| format!("seat {j}")).collect();
        v.fact("named", named.join(", "));
    }
    let temple: Vec<String> = (0..n as u8).filter(|&j| s.path.pos[j as usize] >= s.prm.temple).map(|j| philosopher(s, j)).collect();
    if !temple.is_empty() {
        v.zones.push(Zone::public("temple", None, temple));
    }
    for pos in (1..s.prm.temple.min(SLOTS as u8)).rev() {
        if s.path.top[pos as usize] != NONE {
            let sun = if pos == s.path.sun { " (Sun)" } else { "" };
            v.zones.push(Zone::public(format!("stack at {pos}{sun}"), None, column(s, s.path.top[pos as usize])));
        }
    }
    if s.path.pile_top != NONE {
        v.zones.push(Zone::public("Sun pile", None, column(s, s.path.pile_top)));
    }
    if s.voted {
        for j in 0..n {
            let seen_by = (0..n).filter(|&seat| s.vote_visible(seat, j)).fold(0u64, |m, seat| m | 1 << seat);
            let vote = if s.black >> j & 1 == 1 { "black" } else { "white" };
            v.zones.push(Zone { name: "vote".into(), owner: Some(j), seen_by, items: vec![vote.into()] });
        }
    }
    if s.phase != Phase::Over && s.asker != NONE {
        let a = s.asker as usize;
        if s.phase == Phase::ChooseQuestion {
            let est = (0..s.m as usize).map(|i| format!("question {i}: {:.0} % black", 100.0 * s.cand_hat[i])).collect();
            v.zones.push(Zone::private("estimates", a, est));
        } else {
            for seat in 0..n {
                v.zones.push(Zone::private("perceived", seat, vec![format!("{:.0} % black", 100.0 * s.hat[seat])]));
            }
            v.zones.push(Zone { name: "the question's true share".into(), owner: None, seen_by: 0, items: vec![format!("{:.0} % black", 100.0 * s.p)] });
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use crate::games::osztrakon::{new_game_with, Params};
    use crate::harness::GameState;

    #[test]
    fn every_philosopher_is_shown_once_and_estimates_are_the_askers() {
        let s = new_game_with(Params::defaults(), 6, 3).unwrap();
        let v = s.view();
        let shown: usize = v.zones.iter().filter(|z| z.name.starts_with("stack") || z.name == "Sun pile" || z.name == "temple").map(|z| z.items.len()).sum();
        assert_eq!(shown, 6);
        assert_eq!(v.scores.len(), 6);
        let est = v.zones.iter().find(|z| z.name == "estimates").unwrap();
        assert_eq!(est.owner, Some(s.asker as usize));
        assert!(est.seen(s.asker as usize) && !est.seen((s.asker as usize + 1) % 6));
    }
}
