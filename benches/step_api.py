"""Python-driven steps/s of the step API next to OpenSpiel's C++ card games driven the same way.

Both sides run the loop a Python user writes around a native engine: a random agent picks
``rng.choice(legal_actions)`` and applies it, one decision at a time, for about two seconds
per measurement; ketharmad through ``ketharmad.Game`` (``g.legal_action_ids()``,
``g.step(a)``, a new ``Game(decks, seed=..., index=i)`` per game), OpenSpiel through
``pyspiel`` (``state.legal_actions()``, ``state.apply_action(a)``; chance nodes sampled and not
counted). Rounds alternate between the sides so machine noise hits both alike; the medians
and their ratio are printed. OpenSpiel runs in a second interpreter (``KH_OS_PY``) so the two
installs never mix:

    python3 -m venv /tmp/osv && /tmp/osv/bin/pip install open_spiel
    KH_OS_PY=/tmp/osv/bin/python python benches/step_api.py      # KH_ROUNDS=5 for more rounds

(run with the interpreter that has ketharmad installed). Without ``KH_OS_PY`` (or when it
cannot import pyspiel) only ketharmad's figures are printed.

A ketharmad step is one decision with two or more legal options: a decision with a single
option is taken by the engine without a step (as in ``simulate``). OpenSpiel's count includes
its games' forced moves (a single legal action is still an ``apply_action``).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time

OS_PY = os.environ.get("KH_OS_PY")
ROUNDS = int(os.environ.get("KH_ROUNDS", "3"))
SECONDS = float(os.environ.get("KH_SECONDS", "2.0"))

OS_SNIPPET = r"""
import random, sys, time, json, pyspiel
name, seconds = sys.argv[1], float(sys.argv[2])
game = pyspiel.load_game(name); rng = random.Random(0)
n_games = n_steps = 0; t0 = time.perf_counter()
while time.perf_counter() - t0 < seconds:
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            o, p = zip(*s.chance_outcomes()); s.apply_action(rng.choices(o, p)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions())); n_steps += 1
    n_games += 1
dt = time.perf_counter() - t0
print(json.dumps({"games_s": n_games / dt, "steps_s": n_steps / dt}))
"""


def kh(decks: list[str], seconds: float, first_game: int) -> dict[str, float]:
    """Random-agent games through ketharmad.Game for about ``seconds``."""
    import ketharmad

    rng = random.Random(0)
    n_games = n_steps = 0
    i = first_game
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = ketharmad.Game(decks, seed=7, index=i)
        while not g.is_over:
            g.step(rng.choice(g.legal_action_ids()))
            n_steps += 1
        n_games += 1
        i += 1
    dt = time.perf_counter() - t0
    return {"games_s": n_games / dt, "steps_s": n_steps / dt, "games": n_games}


def osp(name: str, seconds: float) -> dict[str, float] | None:
    if not OS_PY:
        return None
    try:
        out = subprocess.run([OS_PY, "-c", OS_SNIPPET, name, str(seconds)], capture_output=True, text=True,
                             check=True).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"OpenSpiel ({OS_PY}) failed: {e}", file=sys.stderr)
        return None
    return json.loads(out)


def main() -> None:
    import ketharmad

    print(f"ketharmad {ketharmad.__version__}, Python {sys.version.split()[0]}, {ROUNDS} rounds of "
          f"{SECONDS:.1f} s per side, OpenSpiel via {OS_PY or '(not set: KH_OS_PY)'}")  # fmt: skip
    kh(["ner", "tisza"], 0.3, 10**6)  # warm-up (card data parsed, caches filled)
    res: dict[str, list[dict[str, float]]] = {
        k: [] for k in ("kh_2p", "kh_4p", "os_hearts", "os_crazy_eights")
    }
    start = 0
    for _ in range(ROUNDS):
        r = kh(["ner", "tisza"], SECONDS, start)
        start += int(r["games"])
        res["kh_2p"].append(r)
        for name in ("hearts",):
            o = osp(name, SECONDS)
            if o:
                res[f"os_{name}"].append(o)
        r = kh(["ner", "osszefogas", "tisza", "radikalisok"], SECONDS, start)
        start += int(r["games"])
        res["kh_4p"].append(r)
        o = osp("crazy_eights", SECONDS)
        if o:
            res["os_crazy_eights"].append(o)
    med = {
        k: {m: statistics.median(x[m] for x in v) for m in ("games_s", "steps_s")}
        for k, v in res.items()
        if v
    }
    labels = {"kh_2p": "ketharmad 2p (ner-tisza)", "kh_4p": "ketharmad 4p", "os_hearts": "OpenSpiel hearts",
              "os_crazy_eights": "OpenSpiel crazy_eights"}  # fmt: skip
    for k, v in med.items():
        print(f"{labels[k]:26s} games/s {v['games_s']:10,.0f}   steps/s {v['steps_s']:12,.0f}")
    os_keys = [k for k in ("os_hearts", "os_crazy_eights") if k in med]
    for k in ("kh_2p", "kh_4p"):
        for o in os_keys:
            print(
                f"ratio {labels[k]} / {labels[o]} steps/s: {med[k]['steps_s'] / med[o]['steps_s']:.2f}x"
            )


if __name__ == "__main__":
    main()
