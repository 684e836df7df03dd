"""Learned bots (issue 26; docs/learning.md): position features read off the card numbers,
value models trained on self-play positions, their file format and their calibration.

>>> import ketharmad.learn as kl
>>> res = kl.train_value(out="models/value", games=20_000, seed=1)   # positions, fit, report
>>> both = kl.train(out="models")            # value model, then the policy by expert iteration
>>> ketharmad.simulate(["ner", "tisza"], [{"kind": "ismcts", "value": res.model_path}, "heuristic"], 100)
"""

from ..game.data import SHIPPED_MODELS as SHIPPED
from .model_file import Model, load, save
from .policy import PolicyReport, fit_policy
from .positions import card_hash, choices, pairings, positions
from .train import (
    PolicyTrainResult,
    TrainAllResult,
    TrainResult,
    reliability_plot,
    train,
    train_policy,
    train_value,
)
from .value import FitReport, calibration, fit, split_games

__all__ = [
    "SHIPPED",
    "PolicyReport",
    "fit_policy",
    "choices",
    "PolicyTrainResult",
    "train_policy",
    "Model",
    "load",
    "save",
    "card_hash",
    "pairings",
    "positions",
    "TrainResult",
    "train",
    "train_value",
    "TrainAllResult",
    "reliability_plot",
    "FitReport",
    "calibration",
    "fit",
    "split_games",
]
