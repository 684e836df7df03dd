//! The action space (fixed, 26 ids, for every player count):
//! candidate questions 0..8 (M3.2), vote black / white (R5.5), declare / pass (R8), name seat
//! 0..12 (Corruption R9.2, Divination R9.3), keep / switch the vote (Divination R9.3,
//! Betrayal R9.4).

use super::params::MAX_CAND;

pub const A_CAND0: u32 = 0;
pub const A_BLACK: u32 = MAX_CAND as u32;
pub const A_WHITE: u32 = A_BLACK + 1;
pub const A_DECLARE: u32 = A_WHITE + 1;
pub const A_PASS: u32 = A_DECLARE + 1;
pub const A_NAME0: u32 = A_PASS + 1;
pub const A_KEEP: u32 = A_NAME0 + 12;
pub const A_SWITCH: u32 = A_KEEP + 1;
pub const ACTION_SPACE: usize = (A_SWITCH + 1) as usize;

/// A label for an action id.
pub fn describe(a: u32) -> String {
    match a {
        x if x < A_BLACK => format!("ask candidate question {}", x - A_CAND0),
        A_BLACK => "vote black".into(),
        A_WHITE => "vote white".into(),
        A_DECLARE => "declare disciple".into(),
        A_PASS => "do not declare".into(),
        x if (A_NAME0..A_KEEP).contains(&x) => format!("name seat {}", x - A_NAME0),
        A_KEEP => "keep the vote".into(),
        A_SWITCH => "switch the vote".into(),
        x => format!("unknown action {x}"),
    }
}
