"""Each Kétharmad deck across a two-rung ladder (issue 27): the health report's decks table
(``HealthResult.decks``) for the draft set and the shipped balanced set, side by side, under
one or more ladders. Prints one Markdown table per ladder and card set: each deck's win rate
with the weakest bot in every seat, with the strongest in every seat, the shift between them
and the uplift (the strongest bot's win rate with the deck against the weakest, minus the
deck's in the weak mirror), with 95 % intervals, then ``deck_shift_max`` and
``skill_uplift_spread``.

    python benches/health_decks.py                                   # the three ladders below
    python benches/health_decks.py --ladder heuristic,learned --games 12000 --seed 2027
"""

from __future__ import annotations

import argparse
import time

import ketharmad

LADDERS = ["heuristic,learned", "heuristic,tuned", "tuned,learned"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--ladder", action="append", help="WEAK,STRONG (repeatable; default: three ladders)"
    )
    ap.add_argument(
        "--card-data",
        action="append",
        help="a card file or 'balanced'; 'draft' for the draft (default both)",
    )
    ap.add_argument("--games", type=int, default=12_000, help="games per batch (default 12000)")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    for ladder in a.ladder or LADDERS:
        weak, strong = ladder.split(",")
        for card in a.card_data or ["draft", "balanced"]:
            t0 = time.perf_counter()
            r = ketharmad.health(game="ketharmad", bots=[weak, strong], games=a.games, seed=a.seed, restricted=0,
                                 card_data=None if card == "draft" else card, run={"threads": a.threads})  # fmt: skip
            print(
                f"\n### {card}: {weak} -> {strong} ({r.n_games:,} games, {time.perf_counter() - t0:.0f} s)\n"
            )
            print(r.to_markdown().split("## Decks across the ladder")[1].strip().split("\n\n#")[0])
            for m in ("deck_shift_max", "skill_uplift_spread"):
                x = r.metric(m)
                print(f"\n{m}: {x['value']:.3f} [{x['lo']:.3f}, {x['hi']:.3f}]  {x['meaning']}")


if __name__ == "__main__":
    main()
