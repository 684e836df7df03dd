//! R2 the seven wall sections: cards per side and the formation condition, intact and damaged.

/// A section's condition (R2, R8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// every kind, full ranking
    Any = 0,
    /// "+": sum only, highest wins
    Plus = 1,
    /// "−": sum only, lowest wins
    Minus = 2,
    /// damaged: only Colour (and a colour run, R8.3.1) is recognised
    Colour = 3,
    /// damaged: only Run (and a colour run, R8.3.1)
    Run = 4,
    /// damaged: only Same strength
    Same = 5,
}

/// The choice names of a condition parameter, in `Cond` order.
pub const COND_NAMES: [&str; 6] = ["any", "plus", "minus", "colour", "run", "same_strength"];

impl Cond {
    pub fn from_index(i: usize) -> Cond {
        [Cond::Any, Cond::Plus, Cond::Minus, Cond::Colour, Cond::Run, Cond::Same][i]
    }
}

/// One face of a section tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    pub cards: u8,
    pub cond: Cond,
}

/// One section: intact and damaged faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub intact: Face,
    pub damaged: Face,
}

/// Engine ids of the sections in display order (R2, R2.2).
pub const SECTION_IDS: [&str; 7] = ["left_ditch", "left_tower", "left_wall", "gate", "right_wall", "right_tower", "right_ditch"];

const fn f(cards: u8, cond: Cond) -> Face {
    Face { cards, cond }
}

/// The R2 table (reconstructed; R2.1 sources, R16.1 open).
pub const DEFAULT_WALL: [Section; 7] = [
    Section { intact: f(3, Cond::Plus), damaged: f(3, Cond::Run) },
    Section { intact: f(4, Cond::Any), damaged: f(2, Cond::Same) },
    Section { intact: f(3, Cond::Any), damaged: f(3, Cond::Colour) },
    Section { intact: f(2, Cond::Any), damaged: f(4, Cond::Minus) },
    Section { intact: f(3, Cond::Any), damaged: f(3, Cond::Colour) },
    Section { intact: f(4, Cond::Any), damaged: f(2, Cond::Same) },
    Section { intact: f(3, Cond::Minus), damaged: f(3, Cond::Run) },
];

pub const GATE: usize = 3;
