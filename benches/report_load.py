#!/usr/bin/env python3
"""How long a report.html takes to open in headless Chromium, and how big it is (issue 28:
a 1,000,000-game matchup run's report must open in under 2 s and weigh under 5 MB).

    python3 benches/report_load.py runs/m/report.html [--repeat 5]

Opens the page ``--repeat`` times as ``file://`` (a fresh tab each time, no cache) in headless
Chromium under chromedriver (apt-get install chromium chromium-driver; Selenium, the test
extra) and prints, per load and as the median: ``domContentLoaded`` and ``load`` from the
Navigation Timing API (from the start of the navigation), and the time until every chart on
the page has been drawn (``data-rendered``), measured in the page from the same origin. The
file's size (and gzip size) is printed first. Needs nothing else; it writes nothing.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path

READY = """
const t = performance.getEntriesByType("navigation")[0];
const charts = document.querySelectorAll(".chart");
const drawn = document.querySelectorAll(".chart[data-rendered], .chart[data-error]");
return {dcl: t.domContentLoadedEventEnd, load: t.loadEventEnd, charts: charts.length,
        drawn: drawn.length, now: performance.now(),
        errors: document.querySelectorAll(".chart[data-error]").length};
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("page", type=Path)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    data = args.page.read_bytes()
    print(
        f"{args.page}: {len(data):,} bytes ({len(data) / 1e6:.2f} MB), gzip {len(gzip.compress(data)):,} bytes"
    )

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from browser import start_driver  # the test harness's Chromium (tests/browser.py)

    driver = start_driver()
    rows = []
    try:
        for _ in range(args.repeat):
            driver.get("about:blank")
            driver.execute_cdp_cmd("Network.clearBrowserCache", {})
            driver.get(args.page.resolve().as_uri())
            end = time.monotonic() + 30
            while True:
                r = driver.execute_script(READY)
                if r["load"] > 0 and r["drawn"] == r["charts"]:
                    break
                if time.monotonic() > end:
                    raise SystemExit(f"the page did not finish within 30 s: {r}")
                time.sleep(0.005)
            rows.append((r["dcl"], r["load"], r["now"], r["charts"], r["errors"]))
            print(f"  DOMContentLoaded {r['dcl']:7.0f} ms  load {r['load']:7.0f} ms  "
                  f"{r['charts']} chart(s) drawn by {r['now']:7.0f} ms ({r['errors']} failed)")  # fmt: skip
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    finally:
        driver.quit()
    med = [statistics.median(x[i] for x in rows) for i in range(3)]
    print(
        f"median of {len(rows)}: DOMContentLoaded {med[0]:.0f} ms, load {med[1]:.0f} ms, "
        f"charts drawn {med[2]:.0f} ms; console errors: {len(errors)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
