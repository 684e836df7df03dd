//! R3: stacks on the path, the Sun and the Sun pile, as intrusive lists (no allocation):
//! `top[pos]` is the top philosopher of the stack at `pos`, `under[seat]` the one below him.
//! A philosopher's `pos` is 1..temple-1 on the path, `IN_PILE` under the Sun, or `temple` once
//! he reached the temple (R11.3).

pub const NONE: u8 = 0xFF;
pub const IN_PILE: u8 = 0;
/// Positions 0..=17 (0 unused as a stack slot).
pub const SLOTS: usize = 18;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    pub top: [u8; SLOTS],
    pub under: [u8; 12],
    pub pos: [u8; 12],
    pub pile_top: u8,
    pub pile_bottom: u8,
    /// R3.2: the position the Sun marks.
    pub sun: u8,
}

impl Path {
    /// R2.2/R2.3: everybody in one stack at `start` in `order` (order[0] on top); Sun there.
    pub fn new(order: &[u8], start: u8) -> Path {
        let mut p = Path { top: [NONE; SLOTS], under: [NONE; 12], pos: [0; 12], pile_top: NONE, pile_bottom: NONE, sun: start };
        for &s in order.iter().rev() {
            p.push(s, start);
        }
        p
    }

    /// R3.1: put `seat` on top of the stack at `pos`.
    #[inline]
    pub fn push(&mut self, seat: u8, pos: u8) {
        self.under[seat as usize] = self.top[pos as usize];
        self.top[pos as usize] = seat;
        self.pos[seat as usize] = pos;
    }

    /// Take the top philosopher off the stack at `pos` (must exist).
    #[inline]
    pub fn pop(&mut self, pos: u8) -> u8 {
        let s = self.top[pos as usize];
        debug_assert!(s != NONE);
        self.top[pos as usize] = self.under[s as usize];
        self.under[s as usize] = NONE;
        s
    }

    /// R3.3: `seat` (already off the path) goes to the bottom of the Sun pile.
    #[inline]
    pub fn to_pile(&mut self, seat: u8) {
        self.under[seat as usize] = NONE;
        self.pos[seat as usize] = IN_PILE;
        if self.pile_top == NONE {
            self.pile_top = seat;
        } else {
            self.under[self.pile_bottom as usize] = seat;
        }
        self.pile_bottom = seat;
    }

    /// Is `seat` the top of a stack on the path?
    #[inline]
    pub fn is_top(&self, seat: u8) -> bool {
        let p = self.pos[seat as usize];
        p != IN_PILE && (p as usize) < SLOTS && self.top[p as usize] == seat
    }

    /// R3.4: if the Sun's position has no stack, put the pile back there (order unchanged) and
    /// move the Sun backwards to the nearest stack. Returns false when no stack is behind
    /// the Sun (the day ends, R10).
    pub fn advance_sun(&mut self) -> bool {
        if self.top[self.sun as usize] != NONE {
            return true;
        }
        if self.pile_top != NONE {
            self.top[self.sun as usize] = self.pile_top;
            let mut s = self.pile_top;
            while s != NONE {
                self.pos[s as usize] = self.sun;
                s = self.under[s as usize];
            }
            self.pile_top = NONE;
            self.pile_bottom = NONE;
        }
        let mut p = self.sun as usize;
        while p > 1 {
            p -= 1;
            if self.top[p] != NONE {
                self.sun = p as u8;
                return true;
            }
        }
        false
    }

    /// R10.1: the position of the stack nearest the temple (below `temple`), if any.
    pub fn front(&self, temple: u8) -> Option<u8> {
        (1..temple.min(SLOTS as u8)).rev().find(|&p| self.top[p as usize] != NONE)
    }

    /// Standings: seats from the front (nearest the temple, top first) to the back; seats in the
    /// temple first, the Sun pile (mid-day only) counted at the Sun's position below its stack.
    /// Writes `out[rank] = seat` and returns how many were written.
    pub fn standings(&self, n: usize, temple: u8, out: &mut [u8; 12]) -> usize {
        let mut k = 0;
        for s in 0..n {
            if self.pos[s] >= temple {
                out[k] = s as u8;
                k += 1;
            }
        }
        for p in (1..temple.min(SLOTS as u8)).rev() {
            let mut s = self.top[p as usize];
            while s != NONE {
                out[k] = s;
                k += 1;
                s = self.under[s as usize];
            }
            if p == self.sun {
                let mut s = self.pile_top;
                while s != NONE {
                    out[k] = s;
                    k += 1;
                    s = self.under[s as usize];
                }
            }
        }
        k
    }
}
