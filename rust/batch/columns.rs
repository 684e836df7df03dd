//! The result columns of a batch, defined once.
//!
//! [`result_columns!`] below is the only list of the columns a batch returns. Each column has
//! a name, a Rust type, a doc string, a frame hint (what the Python layer does with it) and
//! the expression that reads it from a finished game. From that one list the macro generates:
//!
//! * the per-game result row [`GameResult`] and per-seat row [`SeatResult`], and the function
//!   that fills them from the engine state at the end of a game;
//! * the columnar tables [`GameColumns`], [`SeatColumns`], [`PlayColumns`] with their fallible
//!   `reserve`, their `push` from a result row and their export as typed raw columns
//!   ([`RawColumn`], which the binding layer hands to numpy without a copy);
//! * the byte sizes [`GAME_ROW_BYTES`], [`SEAT_ROW_BYTES`], [`PLAY_ROW_BYTES`];
//! * the schema [`schema`] (table, name, dtype, frame hint, doc of every exported column),
//!   exported to Python as `_core.columns()`: `ketharmad._frames` builds the polars frames
//!   from it, and the column tables of docs/core_interface.md and of `_core.pyi` are generated
//!   from it (`tools/gen_columns_doc.py`; `tests/test_columns.py` fails when they differ).
//!
//! Adding a column is one entry in the list (and the engine counter it reads).

use crate::bots::Policy;
use crate::engine::{Game, Outcome, MAX_SEATS};
use std::collections::TryReserveError;

/// A column value type: how its values are stored and exported. A scalar is one column; a
/// 128-bit card set is two uint64 columns (`<name>_lo`, `<name>_hi`).
pub trait ColumnValue: Copy + Default {
    /// The exported columns of one value: (name suffix, numpy dtype, doc suffix).
    const PARTS: &'static [(&'static str, &'static str, &'static str)];
    /// The storage of a column of these values.
    type Store: Default + std::fmt::Debug;
    fn reserve(store: &mut Self::Store, n: usize) -> Result<(), TryReserveError>;
    fn push(store: &mut Self::Store, v: Self);
    fn len(store: &Self::Store) -> usize;
    /// The exported columns, one per part, in `PARTS` order.
    fn into_raw(store: Self::Store) -> Vec<RawColumn>;
}

/// One exported column, typed (the binding layer turns it into a numpy array, no copy).
#[derive(Debug, Clone, PartialEq)]
pub enum RawColumn {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    I32(Vec<i32>),
    U32(Vec<u32>),
    I64(Vec<i64>),
    U64(Vec<u64>),
    F32(Vec<f32>),
}

impl RawColumn {
    pub fn len(&self) -> usize {
        match self {
            RawColumn::Bool(v) => v.len(),
            RawColumn::I8(v) => v.len(),
            RawColumn::U8(v) => v.len(),
            RawColumn::U16(v) => v.len(),
            RawColumn::I32(v) => v.len(),
            RawColumn::U32(v) => v.len(),
            RawColumn::I64(v) => v.len(),
            RawColumn::U64(v) => v.len(),
            RawColumn::F32(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

macro_rules! scalar_column {
    ($($t:ty => $dtype:literal, $raw:ident;)*) => {$(
        impl ColumnValue for $t {
            const PARTS: &'static [(&'static str, &'static str, &'static str)] = &[("", $dtype, "")];
            type Store = Vec<$t>;
            #[inline]
            fn reserve(store: &mut Vec<$t>, n: usize) -> Result<(), TryReserveError> {
                store.try_reserve_exact(n)
            }
            #[inline]
            fn push(store: &mut Vec<$t>, v: $t) {
                store.push(v)
            }
            fn len(store: &Vec<$t>) -> usize {
                store.len()
            }
            fn into_raw(store: Vec<$t>) -> Vec<RawColumn> {
                vec![RawColumn::$raw(store)]
            }
        }
    )*};
}

scalar_column! {
    bool => "bool", Bool;
    i8 => "int8", I8;
    u8 => "uint8", U8;
    u16 => "uint16", U16;
    i32 => "int32", I32;
    u32 => "uint32", U32;
    i64 => "int64", I64;
    u64 => "uint64", U64;
    f32 => "float32", F32;
}

/// A 128-bit card set: two uint64 columns, the low half (card definitions 0..63) and the high
/// half (64..127).
impl ColumnValue for u128 {
    const PARTS: &'static [(&'static str, &'static str, &'static str)] =
        &[("_lo", "uint64", " Low half: card definitions 0..63."), ("_hi", "uint64", " High half: card definitions 64..127 (bit k = definition 64 + k).")];
    type Store = [Vec<u64>; 2];
    fn reserve(store: &mut [Vec<u64>; 2], n: usize) -> Result<(), TryReserveError> {
        store[0].try_reserve_exact(n)?;
        store[1].try_reserve_exact(n)
    }
    #[inline]
    fn push(store: &mut [Vec<u64>; 2], v: u128) {
        store[0].push(v as u64);
        store[1].push((v >> 64) as u64);
    }
    fn len(store: &[Vec<u64>; 2]) -> usize {
        store[0].len()
    }
    fn into_raw(store: [Vec<u64>; 2]) -> Vec<RawColumn> {
        let [lo, hi] = store;
        vec![RawColumn::U64(lo), RawColumn::U64(hi)]
    }
}

/// What the Python layer does with a column when it builds the polars frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameAs {
    /// Kept as it is.
    Plain,
    /// Negative values (none) become null.
    NullIfNegative,
    /// A code into `END_REASONS`, turned into the end-reason Enum.
    EndReason,
    /// A code into `FACTIONS`, turned into the faction name.
    Faction,
    /// A card-record set: goes to the `card_records` frame, not to `players`.
    CardRecord,
    /// A card-definition index, turned into the card id.
    Card,
}

impl FrameAs {
    pub const fn name(self) -> &'static str {
        match self {
            FrameAs::Plain => "plain",
            FrameAs::NullIfNegative => "null_if_negative",
            FrameAs::EndReason => "end_reason",
            FrameAs::Faction => "faction",
            FrameAs::CardRecord => "card_record",
            FrameAs::Card => "card",
        }
    }
}

/// One exported column of the schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnInfo {
    /// "games", "players" or "plays".
    pub table: &'static str,
    pub name: String,
    /// numpy dtype name of the raw column ("int64", "bool", ...).
    pub dtype: &'static str,
    pub frame: FrameAs,
    pub doc: String,
}

fn doc_text(lines: &[&str]) -> String {
    lines.iter().flat_map(|l| l.split_whitespace()).collect::<Vec<_>>().join(" ")
}

fn infos<T: ColumnValue>(out: &mut Vec<ColumnInfo>, table: &'static str, name: &str, frame: FrameAs, doc: &[&str]) {
    let doc = doc_text(doc);
    for (suffix, dtype, doc_suffix) in T::PARTS {
        out.push(ColumnInfo { table, name: format!("{name}{suffix}"), dtype, frame, doc: format!("{doc}{doc_suffix}") });
    }
}

fn raw_named(out: &mut Vec<(String, RawColumn)>, name: &str, parts: &[(&str, &str, &str)], raw: Vec<RawColumn>) {
    for ((suffix, _, _), col) in parts.iter().zip(raw) {
        out.push((format!("{name}{suffix}"), col));
    }
}

/// Generates the result rows, the column tables, the row sizes and the schema from one list
/// (see the module doc). Used once, below.
macro_rules! result_columns {
    (
        games |$g:ident, $out:ident, $index:ident, $seed:ident| {
            $( $(#[doc = $gdoc:literal])+ $gname:ident : $gty:ty => $gframe:ident = $gexpr:expr; )+
        }
        players |$s:ident, $p:ident| {
            $( $(#[doc = $sdoc:literal])+ $sname:ident : $sty:ty => $sframe:ident = $sexpr:expr; )+
        }
        plays |$r:ident, $play:ident| {
            $( $(#[doc = $ydoc:literal])+ $yname:ident : $yty:ty => $yframe:ident = $yexpr:expr; )+
        }
    ) => {
        /// The result of one game: its `games` columns, one `players` row per seat (the
        /// first `n_seats` entries), and what is not a fixed column.
        #[derive(Clone, Debug, Default)]
        pub struct GameResult {
            $( $(#[doc = $gdoc])+ pub $gname: $gty, )+
            pub players: [SeatResult; MAX_SEATS],
            pub invariant_error: Option<String>,
            /// (seat, card definition, turn) of every card played, when recorded.
            pub plays: Vec<(u8, u16, u16)>,
        }

        /// The `players` columns of one seat of one game.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct SeatResult {
            $( $(#[doc = $sdoc])+ pub $sname: $sty, )+
        }

        impl GameResult {
            /// The result of the finished game `g` (game `index` of its batch, seed `seed`).
            // generated: not every column's expression uses every binding, and some casts are to the column's own type
            #[allow(unused_variables, clippy::unnecessary_cast)]
            pub(crate) fn of_game($g: &Game, $out: &Outcome, $index: u64, $seed: u64) -> GameResult {
                let mut r = GameResult { $( $gname: $gexpr, )+ players: Default::default(), invariant_error: None, plays: Vec::new() };
                for ($s, $p) in $g.state.players.iter().enumerate() {
                    r.players[$s] = SeatResult { $( $sname: $sexpr, )+ };
                }
                r
            }
        }

        /// The `games` table: one entry per game.
        #[derive(Default, Debug)]
        pub struct GameColumns {
            $( pub $gname: <$gty as ColumnValue>::Store, )+
        }

        /// The `players` table: one entry per game and seat, game-major, seat-minor.
        #[derive(Default, Debug)]
        pub struct SeatColumns {
            $( pub $sname: <$sty as ColumnValue>::Store, )+
        }

        /// The `plays` table: one entry per card played (only with `record_plays`).
        #[derive(Default, Debug)]
        pub struct PlayColumns {
            $( pub $yname: <$yty as ColumnValue>::Store, )+
        }

        impl GameColumns {
            pub(crate) fn reserve(&mut self, n: usize) -> Result<(), TryReserveError> {
                $( <$gty as ColumnValue>::reserve(&mut self.$gname, n)?; )+
                Ok(())
            }
            #[inline]
            pub(crate) fn push(&mut self, r: &GameResult) {
                $( <$gty as ColumnValue>::push(&mut self.$gname, r.$gname); )+
            }
            pub fn len(&self) -> usize {
                let lens = [$( <$gty as ColumnValue>::len(&self.$gname), )+];
                lens[0]
            }
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
            /// The exported columns by name, in schema order.
            pub fn into_raw(self) -> Vec<(String, RawColumn)> {
                let mut out = Vec::new();
                $( raw_named(&mut out, stringify!($gname), <$gty as ColumnValue>::PARTS, <$gty as ColumnValue>::into_raw(self.$gname)); )+
                out
            }
        }

        impl SeatColumns {
            pub(crate) fn reserve(&mut self, n: usize) -> Result<(), TryReserveError> {
                $( <$sty as ColumnValue>::reserve(&mut self.$sname, n)?; )+
                Ok(())
            }
            #[inline]
            pub(crate) fn push(&mut self, p: &SeatResult) {
                $( <$sty as ColumnValue>::push(&mut self.$sname, p.$sname); )+
            }
            pub fn len(&self) -> usize {
                let lens = [$( <$sty as ColumnValue>::len(&self.$sname), )+];
                lens[0]
            }
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
            pub fn into_raw(self) -> Vec<(String, RawColumn)> {
                let mut out = Vec::new();
                $( raw_named(&mut out, stringify!($sname), <$sty as ColumnValue>::PARTS, <$sty as ColumnValue>::into_raw(self.$sname)); )+
                out
            }
        }

        impl PlayColumns {
            pub(crate) fn reserve(&mut self, n: usize) -> Result<(), TryReserveError> {
                $( <$yty as ColumnValue>::reserve(&mut self.$yname, n)?; )+
                Ok(())
            }
            /// Append the plays of the game `r`.
            pub(crate) fn push_game(&mut self, $r: &GameResult) {
                for &$play in &$r.plays {
                    $( <$yty as ColumnValue>::push(&mut self.$yname, $yexpr); )+
                }
            }
            pub fn len(&self) -> usize {
                let lens = [$( <$yty as ColumnValue>::len(&self.$yname), )+];
                lens[0]
            }
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }
            pub fn into_raw(self) -> Vec<(String, RawColumn)> {
                let mut out = Vec::new();
                $( raw_named(&mut out, stringify!($yname), <$yty as ColumnValue>::PARTS, <$yty as ColumnValue>::into_raw(self.$yname)); )+
                out
            }
        }

        /// Bytes of the `games` columns of one game.
        pub const GAME_ROW_BYTES: usize = 0 $( + std::mem::size_of::<$gty>() )+;
        /// Bytes of the `players` columns of one game and seat.
        pub const SEAT_ROW_BYTES: usize = 0 $( + std::mem::size_of::<$sty>() )+;
        /// Bytes of one row of the `plays` columns.
        pub const PLAY_ROW_BYTES: usize = 0 $( + std::mem::size_of::<$yty>() )+;

        /// Every exported column: games, then players, then plays, each in table order.
        pub fn schema() -> Vec<ColumnInfo> {
            let mut out = Vec::new();
            $( infos::<$gty>(&mut out, "games", stringify!($gname), FrameAs::$gframe, &[$($gdoc),+]); )+
            $( infos::<$sty>(&mut out, "players", stringify!($sname), FrameAs::$sframe, &[$($sdoc),+]); )+
            $( infos::<$yty>(&mut out, "plays", stringify!($yname), FrameAs::$yframe, &[$($ydoc),+]); )+
            out
        }
    };
}

fn search_counts(g: &Game, seat: usize) -> (u32, u32) {
    match g.policy::<Policy>(seat) {
        Some(Policy::Search(s)) => (s.rollouts, s.unfinished_rollouts),
        _ => (0, 0),
    }
}

// The one list of result columns. `name: type => frame hint = expression;` where the
// expression reads the finished game `g` (its outcome `out`, index `index`, seed `seed`) and,
// for the players table, seat `s` with engine state `p`; the plays table reads one recorded
// play `(seat, card, turn)` of the result `r`.
result_columns! {
    games |g, out, index, seed| {
        /// Index of the game in its batch (absolute: `first_game` + position).
        game: i64 => Plain = index as i64;
        /// The game's own seed, derived from the batch seed and `game`.
        seed: u64 => Plain = seed;
        /// Winning seat; -1 (null in the frame) when no seat won (an unfinished game).
        winner: i8 => NullIfNegative = out.winner().map_or(-1, |w| w as i8);
        /// Turns played, counting every seat's turns.
        turns: i32 => Plain = g.state.turn as i32;
        /// Rounds played.
        rounds: i32 => Plain = g.state.round as i32;
        /// Why the game ended: a code into `END_REASONS` (an Enum of those names in the frame).
        end_reason: u8 => EndReason = out.reason as u8;
        /// The seat that took the first turn (the start player can move on elimination, E66).
        start_player: i8 => Plain = g.state.first_start_player as i8;
        /// Actions taken in the game (all seats).
        actions: i32 => Plain = g.state.total_actions as i32;
    }
    players |s, p| {
        /// Index of the game in its batch.
        game: i64 => Plain = index as i64;
        /// Seat number, 0-based.
        seat: i8 => Plain = s as i8;
        /// The seat's faction: a code into `FACTIONS` (the faction name in the frame); for a
        /// Mixed deck its first faction, for a custom list the faction most of its cards come
        /// from (the frame's `deck` column names the deck, docs/decks.md).
        faction: u8 => Faction = p.faction;
        /// Whether this seat won (a team format: every member of the winning team; victory
        /// points: every seat with the most points after the tie-break).
        won: bool => Plain = out.won(s);
        /// Victory points at the end of the game (formats scoring them, the circle: V3);
        /// NaN in a format without victory points.
        points: f32 => Plain = if g.scores_points() { g.state.points[s] as f32 / 10.0 } else { f32::NAN };
        /// Support at the end of the game.
        support: i32 => Plain = g.state.support_of(s);
        /// Scandal at the end of the game.
        scandal: i32 => Plain = g.state.scandal_pool_of(s);
        /// Whether the seat was eliminated.
        eliminated: bool => Plain = !p.alive;
        /// Round in which the seat was eliminated; -1 (null in the frame) if it was not.
        eliminated_round: i32 => NullIfNegative = p.eliminated_round;
        /// Cards played from hand (Bases included) or recruited.
        cards_played: i32 => Plain = p.cards_played as i32;
        /// Attacking Figures declared.
        attacks: i32 => Plain = p.attacks as i32;
        /// Exposes made.
        exposes: i32 => Plain = p.exposes_total as i32;
        /// Mulligans taken.
        mulligans: i8 => Plain = p.mulligans as i8;
        /// Turns the seat took.
        turns_taken: i32 => Plain = p.turns_taken as i32;
        /// Main-phase decisions with more than one option.
        main_decisions: i32 => Plain = p.main_decisions as i32;
        /// Search bots: rollouts played in the game (0 for other bots; saturating).
        rollouts: u32 => Plain = search_counts(g, s).0;
        /// Search bots: rollouts cut unfinished by a round or action cap or `rollout_rounds` (0 for other bots).
        unfinished_rollouts: u32 => Plain = search_counts(g, s).1;
        /// Diplomacy: non-aggression pacts the seat broke (an attack or Exposé against a pact partner while the pact held; 0 without pacts).
        pacts_broken: u32 => Plain = p.pacts_broken;
        /// Card set: cards in the kept opening hand (bit k = card definition k, the row order of the card table).
        opening: u128 => CardRecord = p.opening;
        /// Card set: cards drawn after the opening hand.
        drawn: u128 => CardRecord = p.drawn;
        /// Card set: cards played from hand (Bases included) or recruited.
        played: u128 => CardRecord = p.played;
    }
    plays |r, play| {
        /// Index of the game in its batch.
        game: i64 => Plain = r.game;
        /// Seat that played the card.
        seat: i8 => Plain = play.0 as i8;
        /// Card definition index (row of the card table; the card id in the frame).
        card: u16 => Card = play.1;
        /// The game's turn number, 1-based, counting every seat's turns.
        turn: u16 => Plain = play.2;
    }
}
