"""Train the models shipped in the package (issue 26; docs/learning.md): Kétharmad's value
model and its fast policy, on the packaged draft card set, and print their figures.

    python scripts/train_models.py [OUT_DIR]     # default: models/

Writes OUT_DIR/value/ (ketharmad.learn.train) and OUT_DIR/policy/ (train_policy: expert
iteration, 3 generations), then the wall time and the process's peak memory. Copy
OUT_DIR/value/value.khnn and OUT_DIR/policy/policy.khnn to python/ketharmad/data/models/ to
ship them. Repeating the command resumes (finished stages are reused).
"""

from __future__ import annotations

import resource
import sys
import time

import ketharmad.learn as kl

out = sys.argv[1] if len(sys.argv) > 1 else "models"
t0 = time.perf_counter()
v = kl.train_value(out=f"{out}/value", games=24_000, seed=1, epochs=8, hidden=(16,), progress=True)
print(v.summary(), flush=True)
t1 = time.perf_counter()
p = kl.train_policy(out=f"{out}/policy", generations=3, games=720, seed=1, progress=True)
print(p.summary(), flush=True)
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(
    f"value {t1 - t0:.0f} s, policy {t2 - t1:.0f} s, total {t2 - t0:.0f} s; peak memory {peak:.0f} MiB"
)
for g in p.generations:
    print(f"generation {g['generation']}: {g['new_decisions']} new decisions ({g['player']}), agreement {g['agreement']:.1%}, "
          f"vs heuristic {g['vs_heuristic']:.1%} of {g['eval_games']}; seconds {g['seconds']}")  # fmt: skip
