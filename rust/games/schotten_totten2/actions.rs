//! R11.3 the fixed action space (ids are stable: masks and RL heads use them).
//!
//! | ids | action |
//! |---|---|
//! | 0..7 | `Claim(section)` (R9) |
//! | 7..134 | `Retreat(mask)` (R5.1), id = 7 + mask − 1, mask 1..=127 |
//! | 134..141 | `Oil(section)` (R5.2) |
//! | 141..561 | `Play(card, section)` (R6), id = 141 + card·7 + section |
//! | 561 | `Pass` (R4.2, only with no legal play) |
//! | 562 | `Skip` (no preparation action, R4 step 1) |
//! | 563 | `EndTurn` (no further claim after the play, R4.1) |

use super::cards::CARD_IDS;

pub const CLAIM0: u32 = 0;
pub const RETREAT0: u32 = 7;
pub const OIL0: u32 = 134;
pub const PLAY0: u32 = 141;
pub const PASS: u32 = PLAY0 + (CARD_IDS as u32) * 7;
pub const SKIP: u32 = PASS + 1;
pub const END_TURN: u32 = PASS + 2;
pub const ACTION_SPACE: usize = END_TURN as usize + 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Claim(u8),
    Retreat(u8),
    Oil(u8),
    Play { card: u8, section: u8 },
    Pass,
    Skip,
    EndTurn,
}

impl Action {
    pub fn id(self) -> u32 {
        match self {
            Action::Claim(s) => CLAIM0 + s as u32,
            Action::Retreat(m) => RETREAT0 + m as u32 - 1,
            Action::Oil(s) => OIL0 + s as u32,
            Action::Play { card, section } => PLAY0 + card as u32 * 7 + section as u32,
            Action::Pass => PASS,
            Action::Skip => SKIP,
            Action::EndTurn => END_TURN,
        }
    }

    pub fn from_id(id: u32) -> Option<Action> {
        Some(match id {
            0..=6 => Action::Claim(id as u8),
            7..=133 => Action::Retreat((id - RETREAT0 + 1) as u8),
            134..=140 => Action::Oil((id - OIL0) as u8),
            _ if (PLAY0..PASS).contains(&id) => Action::Play { card: ((id - PLAY0) / 7) as u8, section: ((id - PLAY0) % 7) as u8 },
            PASS => Action::Pass,
            SKIP => Action::Skip,
            END_TURN => Action::EndTurn,
            _ => return None,
        })
    }
}
