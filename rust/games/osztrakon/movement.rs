//! R7: movement of the asker: D positions towards the temple on success (on top of the stack
//! there, R3.1; reaching or passing the temple = reaching it, R7.2), the bottom of the Sun pile on
//! failure (R7.3).

use super::stacks::Path;

/// Move the asker (already popped off the Sun's stack). Returns true if he reached the temple.
pub fn move_asker(path: &mut Path, asker: u8, from: u8, advance: Option<u32>, temple: u8) -> bool {
    match advance {
        // `rules.unanimity_fails = false`: a success with D = 0 leaves him where he is; he waits
        // under the Sun like a failed asker so that he does not ask twice the same day (R3.5)
        Some(0) => {
            path.to_pile(asker);
            false
        }
        Some(d) => {
            let to = from as u32 + d;
            if to >= temple as u32 {
                path.pos[asker as usize] = temple;
                path.under[asker as usize] = super::stacks::NONE;
                true
            } else {
                path.push(asker, to as u8);
                false
            }
        }
        None => {
            path.to_pile(asker);
            false
        }
    }
}
