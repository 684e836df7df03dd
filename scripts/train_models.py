"""Train the models shipped in the package (issue 26; docs/learning.md): Kétharmad's value
model and its fast policy, on the packaged draft card set, and print their figures; with
``--game schotten_totten_2``, Schotten Totten 2's policy and value model.

    python scripts/train_models.py [OUT_DIR]     # default: models/
    python scripts/train_models.py models --game schotten_totten_2

Writes OUT_DIR/value/ (ketharmad.learn.train) and OUT_DIR/policy/ (train_policy: expert
iteration, 3 generations), then the wall time and the process's peak memory. Copy
OUT_DIR/value/value.khnn and OUT_DIR/policy/policy.khnn to python/ketharmad/data/models/ to
ship them (Schotten Totten 2: OUT_DIR/st2-policy/policy.khnn as st2-policy.khnn and
OUT_DIR/st2-value/value.khnn, trained on the new policy's own games, as st2-value.khnn).
Repeating the command resumes (finished stages are reused).
"""

from __future__ import annotations

import argparse
import resource
import time

import ketharmad.learn as kl

ap = argparse.ArgumentParser()
ap.add_argument("out", nargs="?", default="models")
ap.add_argument("--game", choices=("ketharmad", "schotten_totten_2"), default="ketharmad")
a = ap.parse_args()
out, game = a.out, a.game
t0 = time.perf_counter()
if game == "ketharmad":
    v = kl.train_value(
        out=f"{out}/value", games=24_000, seed=1, epochs=8, hidden=(16,), progress=True
    )
    print(v.summary(), flush=True)
    t1 = time.perf_counter()
    p = kl.train_policy(out=f"{out}/policy", generations=3, games=720, seed=1, progress=True)
    print(p.summary(), flush=True)
else:
    # the policy first (generation 0 plays greedy; the teacher is the game's search), then a
    # value model on the games of the learned bot with that policy
    p = kl.train_policy(game=game, out=f"{out}/st2-policy", generations=3, games=400, rate=0.5, seed=1,
                        progress=True)  # fmt: skip
    print(p.summary(), flush=True)
    t1 = time.perf_counter()
    v = kl.train_value(game=game, out=f"{out}/st2-value", games=20_000, bots=f"learned:model={p.model_path}",
                       hidden=(32, 16), seed=5, progress=True)  # fmt: skip
    print(v.summary(), flush=True)
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(
    f"first stage {t1 - t0:.0f} s, second {t2 - t1:.0f} s, total {t2 - t0:.0f} s; peak memory {peak:.0f} MiB"
)
for g in p.generations:
    print(f"generation {g['generation']}: {g['new_decisions']} new decisions ({g['player']}), agreement {g['agreement']:.1%}, "
          f"vs {'heuristic' if game == 'ketharmad' else 'greedy'} {g['vs_heuristic']:.1%} of {g['eval_games']}; seconds {g['seconds']}")  # fmt: skip
