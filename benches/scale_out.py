"""Scale out on Dask (docs/scale_out.md): one machine's threads against a LocalCluster.

Prints, in one run:

* a 2-player matchup table (``matchups(games=...)``, heuristic bots) on ``threads=2`` and on
  a LocalCluster of 2 single-threaded worker processes (the cluster's default shard size),
  their times and the ratio (threads time / cluster time; 1.0 = no loss);
* the fixed cost of a shard on the cluster (many 1-game shards: worker time per shard);
* the chosen shard size (``CLUSTER_SHARD_GAMES``) and the share of a shard's time it costs;
* the peak memory of both runs (the client process; for the cluster also the peak of the
  client + scheduler + workers summed, sampled with psutil);
* the time of a 10^9-game table on N such machines, from the measured per-worker rate.

Each run is a fresh subprocess. The issue's figure is for 2,000,000 games; on a shared
machine run it smaller:

    python benches/scale_out.py --games 200000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_CHILD = r"""
import json, os, resource, sys, threading, time
import ketharmad
from ketharmad.run import cluster as kc
from ketharmad.run.plan import Plan, cell, run_plan
from ketharmad.game.data import load_card_data

try:
    import psutil
except ImportError:
    psutil = None

mode, games, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


class TreePeak:
    # the peak of the summed RSS of this process and its descendants, sampled every 50 ms
    def __init__(self):
        self.peak = 0
        self.stop = threading.Event()
        self.t = threading.Thread(target=self.run, daemon=True)

    def sample(self):
        if psutil is None:
            return 0
        me = psutil.Process()
        total = 0
        for p in [me, *me.children(recursive=True)]:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total

    def run(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, self.sample())
            time.sleep(0.05)

    def __enter__(self):
        self.t.start()
        return self

    def __exit__(self, *a):
        self.stop.set()
        self.t.join()
        self.peak = max(self.peak, self.sample())


out = {}
if __name__ == "__main__":
    ketharmad.simulate(games=200, bots="heuristic", threads=1)  # the import and first call
    if mode == "threads":
        with TreePeak() as tp:
            t = time.perf_counter()
            m = ketharmad.matchups(games=games // 10, threads=workers)
            out["seconds"] = time.perf_counter() - t
        out["tree_peak_mib"] = tp.peak / 2**20
    else:
        client = kc.local_client(workers, threads_per_worker=1)
        try:
            ketharmad.matchups(games_per_side=20, bots="heuristic", cluster=client)  # workers warm
            with TreePeak() as tp:
                t = time.perf_counter()
                m = ketharmad.matchups(games=games // 10, cluster=client)
                out["seconds"] = time.perf_counter() - t
            out["tree_peak_mib"] = tp.peak / 2**20
            # the fixed cost of a shard: many 1-game shards (frames, as matchups returns them)
            text = load_card_data(None)
            n = 600
            plan = Plan(1, [cell(text, ["ner", "tisza"], ["heuristic"] * 2, {}, 0, n, start_player=0)])
            ex = kc.ClusterExecutor(client)
            t = time.perf_counter()
            run_plan(plan, shard_size=1, executor=ex)
            tiny = time.perf_counter() - t
            t = time.perf_counter()
            run_plan(plan, shard_size=n // workers, executor=ex)
            big = time.perf_counter() - t
            out["shard_cost_ms"] = (tiny - big) * workers / n * 1000
            out["shard_games"] = kc.CLUSTER_SHARD_GAMES
        finally:
            client.close()
            client.cluster.close()
    out["games"] = m.n_games  # (no rows above 1,000,000 games: the table comes from reductions)
    out["client_peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["table"] = m.table.select("faction", "opponent", "wins").rows()
    print(json.dumps(out))
"""


def run(mode: str, games: int, workers: int) -> dict:
    p = subprocess.run([sys.executable, "-c", _CHILD, mode, str(games), str(workers)],
                       capture_output=True, text=True)  # fmt: skip
    if p.returncode != 0:
        raise SystemExit(f"{mode} run failed:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--games",
        type=int,
        default=2_000_000,
        help="games of the 2-player table (default 2,000,000)",
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=2,
        help="threads / single-threaded worker processes (default 2)",
    )
    a = ap.parse_args()
    games = a.games - a.games % 20
    print(f"2-player matchup table, {games:,} heuristic games, {a.workers} cores, machine has {os.cpu_count()} "
          f"(load average {os.getloadavg()[0]:.1f})")  # fmt: skip
    th = run("threads", games, a.workers)
    cl = run("cluster", games, a.workers)
    assert th["table"] == cl["table"], "the cluster's table differs from the local one"
    rate_t = th["games"] / th["seconds"]
    rate_c = cl["games"] / cl["seconds"]
    per_worker = rate_c / a.workers
    print(f"threads={a.workers}:               {th['seconds']:7.2f} s  {rate_t:10,.0f} games/s  "
          f"peak RSS {th['client_peak_mib']:.0f} MiB")  # fmt: skip
    print(f"LocalCluster({a.workers} x 1 thread):  {cl['seconds']:7.2f} s  {rate_c:10,.0f} games/s  "
          f"peak RSS client {cl['client_peak_mib']:.0f} MiB, client + scheduler + workers "
          f"{cl['tree_peak_mib']:.0f} MiB")  # fmt: skip
    print(
        f"ratio (threads time / cluster time): {th['seconds'] / cl['seconds']:.2f}  (tables equal)"
    )
    t_game = 1.0 / per_worker
    cost = cl["shard_cost_ms"] / 1000
    size = cl["shard_games"]
    print(f"fixed cost per shard: {cl['shard_cost_ms']:.1f} ms of worker time "
          f"(= {cost / t_game:,.0f} games at {per_worker:,.0f} games/s per worker)")  # fmt: skip
    print(f"chosen shard size: {size:,} games (CLUSTER_SHARD_GAMES): about {size * t_game:.2f} s per shard, "
          f"fixed cost {100 * cost / (cost + size * t_game):.1f} % of it")  # fmt: skip
    print(f"per-worker rate (one core): {per_worker:,.0f} games/s")
    print(
        f"projected 10^9-game table with {a.workers}-core machines like this one (one single-threaded worker per core):"
    )
    for n in (1, 10, 20, 100):
        secs = 1e9 / (per_worker * a.workers * n)
        print(f"  {n:>4} machine(s): {secs / 3600:6.2f} h  ({secs / 60:8.1f} min)")
    print(
        "(matchups, sweep and card_stats above their row limits, and tournament always, run on reductions: "
        "shards return integer counts and the client keeps no rows; balance keeps at most 256 MiB of per-game "
        "outcomes; simulate returns rows, about 300 bytes per 2-seat game)"
    )


if __name__ == "__main__":
    main()
