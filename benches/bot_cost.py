"""Each Kétharmad bot's cost: decisions per second on one core (issue 25, docs/bots.md).

    python benches/bot_cost.py

Every bot plays both seats of ner vs tisza on one thread (``run={"threads": 1}``), seed 0;
a decision is one entry of the games' ``actions`` column (every decision of both seats). The
cheap bots play 4,000 games, the search bots (`search`, `ismcts`) 40. Prints games/s and
decisions/s of wall time, and decisions per CPU second (the process's CPU time: on a machine
that other work shares, wall time counts the waits, CPU time does not).

    python benches/bot_cost.py ismcts search     # only the rows whose name contains one of these
    python benches/bot_cost.py tuned model=models/policy/policy.khnn   # also the learned bot of that model
"""

from __future__ import annotations

import sys
import time

import ketharmad

BOTS = [("random", 4000), ("heuristic", 4000), ("tuned", 4000), ({"kind": "search", "iterations": 50}, 40),
        ({"kind": "search", "iterations": 100}, 40), ({"kind": "ismcts", "iterations": 100}, 40),
        ({"kind": "ismcts", "iterations": 20}, 40), ({"kind": "ismcts", "iterations": 10}, 40),
        ({"kind": "ismcts", "iterations": 225, "halving": 1, "width": 6}, 40)]  # fmt: skip

only = [a for a in sys.argv[1:] if not a.startswith("model=")]
for a in sys.argv[1:]:
    if a.startswith("model="):
        BOTS.append(({"kind": "learned", "model": a[len("model=") :]}, 4000))
        only and only.append("learned")
for bot, games in BOTS:
    label = (
        bot
        if isinstance(bot, str)
        else f"{bot['kind']}(" + ",".join(f"{k}={v}" for k, v in bot.items() if k != "kind") + ")"
    )
    if only and not any(o in label for o in only):
        continue
    t, c = time.perf_counter(), time.process_time()
    res = ketharmad.simulate(["ner", "tisza"], bot, games=games, seed=0, run={"threads": 1})
    dt, dc = time.perf_counter() - t, time.process_time() - c
    decisions = int(res.games["actions"].sum())
    print(
        f"{label:44s} {games:6,} games {dt:7.2f} s  {games / dt:10,.1f} games/s  {decisions / dt:12,.0f} decisions/s"
        f"  {decisions / dc:12,.0f} decisions per CPU second"
    )
