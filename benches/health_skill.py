"""Validate the health report's skill share on games of known character (issue 27 item 5):
the pure-luck control (``coin_flip``), Osztrakon, Kétharmad and Schotten Totten 2, each with
its default ladder (weakest first). Common sense orders them coin_flip < Osztrakon <
Kétharmad < Schotten Totten 2. Prints the table (Markdown) and whether the order holds.
``python benches/health_skill.py [GAMES] [THREADS]``."""

from __future__ import annotations

import sys
import time

import ketharmad

ORDER = ["coin_flip", "osztrakon", "ketharmad", "schotten_totten_2"]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2_400
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rows = []
    for g in ORDER:
        t0 = time.perf_counter()
        r = ketharmad.health(game=g, games=games, seed=11, restricted=0, run={"threads": threads})
        m = {x["metric"]: x for x in r.metrics.iter_rows(named=True)}
        rows.append((g, r, m, time.perf_counter() - t0))
    print(
        "| game | seats | ladder (weakest first) | skill share [95 %] | control [95 %] | skill gap (Elo) | "
        "first-player adv. | lead changes | drama | comeback | s |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    f = lambda x: f"{x['value']:.3f} [{x['lo']:.3f}, {x['hi']:.3f}]"  # noqa: E731
    for g, r, m, dt in rows:
        print(
            f"| {g} | {r.seats} | {', '.join(r.bots)} | {f(m['skill_share'])} | {f(m['skill_share_control'])} | "
            f"{m['skill_gap_elo']['value']:.0f} | {m['first_player_advantage']['value']:+.3f} | "
            f"{m['lead_changes']['value']:.2f} | {m['drama']['value']:.3f} | {m['comeback_rate']['value']:.3f} | {dt:.0f} |"
        )
    skill = [m["skill_share"]["value"] for _, _, m, _ in rows]
    ordered = all(a < b for a, b in zip(skill, skill[1:], strict=False))
    print(
        f"\nskill share ordered {' < '.join(ORDER)}: {'yes' if ordered else 'NO'} "
        f"({games:,} games per batch, seed 11, {threads} threads)"
    )


if __name__ == "__main__":
    main()
