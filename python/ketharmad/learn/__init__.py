"""Learned bots (issue 26; docs/learning.md): position features read off the card numbers,
value models trained on self-play positions, their file format and their calibration.

>>> import ketharmad.learn as kl
>>> res = kl.train(out="models/value", games=20_000, seed=1)   # positions, fit, report
>>> ketharmad.simulate(["ner", "tisza"], [{"kind": "ismcts", "value": res.model_path}, "heuristic"], 100)
"""

from .model_file import Model, load, save
from .positions import card_hash, pairings, positions
from .train import TrainResult, train
from .value import FitReport, calibration, fit, split_games

__all__ = [
    "Model",
    "load",
    "save",
    "card_hash",
    "pairings",
    "positions",
    "TrainResult",
    "train",
    "FitReport",
    "calibration",
    "fit",
    "split_games",
]
