//! The closed effect vocabulary. A card's rules text is a list of `Ability`s (a trigger, a
//! target kind and one `Effect`) plus `Static` abilities. All numbers are already resolved from
//! the card's parameters when a `CardDb` is built.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// When this card enters play.
    Enter,
    /// When this card leaves play (not when its controller is eliminated).
    Leave,
    /// At the start of its controller's turn (Wake).
    StartOfTurn,
    /// Whenever its controller puts a Base into play.
    BasePlayed,
    /// An Action card's effect when it resolves from the chain.
    Resolve,
    /// An additional cost paid when the card is played.
    Cast,
    /// An activated ability.
    Activated,
    /// An Event's effect when flipped (one-shot) or for the round.
    Event,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActivationCost {
    /// ↷: exhaust this card.
    Exhaust,
    /// Sacrifice this card.
    SacrificeSelf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    None,
    /// Target opponent (chosen by the controller with 3–4 players).
    Opponent,
    /// Any Figure in play.
    Figure,
    /// Up to one other target Figure.
    OtherFigureOptional,
    /// A Figure the controller controls (the card itself allowed).
    OwnFigure,
    /// Another Figure the controller controls.
    OtherOwnFigure,
    /// A Figure or an Institution in play.
    FigureOrInstitution,
    /// Up to one target Institution.
    InstitutionOptional,
    /// An Action card on the chain.
    Action,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    Always,
    Unity,
    NotUnity,
    Supermajority,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// This Figure only.
    This,
    /// Other Figures you control.
    Others,
    /// All Figures you control.
    All,
}

/// Round modifiers of Events ("this round, …").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundMod {
    ExposeCostIncrease(i16),
    InstitutionCostReduction(i16),
    AttackerBonus(i16, i16),
    RecruitCostReduction(i16),
    RecruitCostIncrease(i16),
    BasicExposeBonus(i16),
    MaxAttackers(i16),
    ReactionCostIncrease(i16),
    SwapCostIncrease(i16),
    UnblockedExtraDamage(i16),
}

/// Márki-Zay Péter's d6 table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DieTable {
    pub self_max: i16,
    pub self_scandal: i16,
    pub opp_max: i16,
    pub opp_scandal: i16,
    pub draw_max: i16,
    pub draw: i16,
    pub expose: i16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    AddResource {
        res: usize,
        n: i16,
    },
    AddAnyResources {
        n: i16,
    },
    RemoveScandal {
        n: i16,
    },
    RemoveAllScandal,
    GainSupport {
        n: i16,
    },
    GainScandal {
        n: i16,
    },
    OpponentGainsScandal {
        n: i16,
    },
    OpponentLosesSupport {
        n: i16,
    },
    EachOpponentLosesSupport {
        n: i16,
    },
    Draw {
        n: i16,
    },
    Damage {
        n: i16,
    },
    ExhaustTarget,
    GrantPropaganda,
    /// Return the target to its owner's hand; the controller of the returned card gains
    /// `controller_scandal` Scandal (if the ability's condition holds).
    ReturnToHand {
        controller_scandal: i16,
    },
    Neutralize,
    Expose {
        n: i16,
    },
    Sympathy {
        n: i16,
    },
    SympathySelf {
        n: i16,
    },
    SympathyEach {
        n: i16,
    },
    PumpByOpponentScandal {
        max: i16,
    },
    Rally {
        influence: i16,
        credibility: i16,
    },
    SupportPerFigure {
        per: i16,
        max: i16,
    },
    CreateTokens {
        token: u16,
        n: i16,
    },
    /// Custom: Simicska Lajos's defection at `n` or more Scandal.
    Defect {
        n: i16,
    },
    /// Custom: Márki-Zay Péter's die.
    DieRoll(DieTable),
    /// Additional cost: Sacrifice a Figure you control (Visszalépés).
    SacrificeFigure,
    // Event one-shots
    AllGainSupport {
        n: i16,
    },
    LowestSupportGainSupport {
        n: i16,
    },
    AllGainScandal {
        n: i16,
    },
    MostInstitutionsGainScandal {
        n: i16,
        min: i16,
    },
    AllSupportPerFigure {
        per: i16,
        max: i16,
    },
    RefreshNewsfeed,
    AllDraw {
        n: i16,
    },
    MostScandalLoseSupport {
        n: i16,
        min: i16,
    },
    AllSympathy {
        n: i16,
    },
    Round(RoundMod),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ability {
    pub trigger: Trigger,
    pub cost: ActivationCost,
    /// Activated: usable whenever the controller has priority (not only main priority).
    pub any_time: bool,
    pub condition: Condition,
    pub target: TargetKind,
    pub effect: Effect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Static {
    StatBonus {
        who: Who,
        influence: i16,
        credibility: i16,
        cond: Condition,
    },
    ExposeBonus {
        n: i16,
        cond: Condition,
    },
    /// A basic Exposé an opponent performs against you costs `n` more generic.
    ExposeTax {
        n: i16,
    },
    SupermajorityIncrease {
        n: i16,
    },
    /// A Propaganda Figure attacking you can be blocked by `n` Figures.
    PropagandaBlockers {
        n: i16,
    },
    BlocksPropagandaAlone,
    UnblockableWithCounters {
        n: i16,
    },
    CantAttack,
    ExposeStartsWithScandal {
        n: i16,
    },
    /// Karácsony Gergely: the knock-out is replaced; Support becomes `n`.
    Rescue {
        n: i16,
    },
}

/// Every effect name the data file may use (`do = …`), for error messages.
pub const EFFECT_NAMES: &[&str] = &[
    "add_resource",
    "add_any_resources",
    "remove_scandal",
    "remove_all_scandal",
    "gain_support",
    "gain_scandal",
    "opponent_gains_scandal",
    "opponent_loses_support",
    "each_opponent_loses_support",
    "draw",
    "damage",
    "exhaust",
    "grant_propaganda",
    "return_to_hand",
    "neutralize",
    "expose",
    "sympathy",
    "sympathy_self",
    "sympathy_each",
    "pump_by_opponent_scandal",
    "rally",
    "support_per_figure",
    "create_tokens",
    "defect",
    "die_roll",
    "sacrifice_figure",
    "stat_bonus",
    "expose_bonus",
    "expose_tax",
    "supermajority_increase",
    "propaganda_blockers",
    "blocks_propaganda_alone",
    "unblockable_with_counters",
    "cant_attack",
    "expose_starts_with_scandal",
    "rescue",
    "all_gain_support",
    "lowest_support_gain_support",
    "all_gain_scandal",
    "most_institutions_gain_scandal",
    "all_support_per_figure",
    "refresh_newsfeed",
    "all_draw",
    "most_scandal_lose_support",
    "all_sympathy",
    "expose_cost_increase",
    "institution_cost_reduction",
    "attacker_bonus",
    "recruit_cost_reduction",
    "recruit_cost_increase",
    "basic_expose_bonus",
    "max_attackers",
    "reaction_cost_increase",
    "swap_cost_increase",
    "unblocked_extra_damage",
];
