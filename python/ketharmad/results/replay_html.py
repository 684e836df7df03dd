"""The replay viewer (issue 28): one game, or two side by side (``ketharmad diff``), as one
self-contained offline HTML file (inline CSS, script and data; nothing fetched).

>>> from ketharmad.results.replay_html import write_replay
>>> write_replay("replays/ketharmad-3.html", bots=["search", "heuristic"], seed=1, index=3)
>>> write_replay("st2.html", game="schotten_totten_2", bots=["greedy", "search:iterations=100"])

The page steps through the game decision by decision (left/right arrows, Home/End, the
buttons or the slider; ``#step-counter`` shows "decisions taken / decisions"): each seat's
scores over the game as a small chart (Kétharmad: Support and Scandal), the zones on the table,
the pending decision with its legal options, the chosen one marked and, for a search bot, each
option's visits and mean reward at the root, and the log lines each answer led to. Cards a seat
keeps hidden (hands, pools, a deck's order, Osztrakon's private perceptions) and the cards the
log names as drawn are behind the ``#show-hidden`` switch, off by default.

Stable element ids (for browser tests): ``step-counter``, ``step-slider``, ``first``, ``prev``,
``next``, ``last``, ``show-hidden``, ``replay-data`` (the JSON), and per game ``i`` (0, or 0 and
1 side by side): ``panel-i``, ``chart-i``, ``table-i``, ``decision-i``, ``options-i``,
``log-i``, ``outcome-i``, ``counter-i``; a diff page also ``split`` and ``jump-split``.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union

from .._version import __version__
from ..game.replay import GameRecord, record_game
from ..game.spec import GameSpec
from .files import check_out_file, write_atomic

__all__ = ["write_replay", "replay_page", "record_data", "write_page", "DATA_FORMAT"]

#: ``format`` of the embedded JSON (a page from another tool, or a later version, says so).
DATA_FORMAT = "ketharmad-replay/1"

#: Log lines whose parenthesised part names hidden cards (Kétharmad: draws, the mulligan's
#: bottom card): the part goes behind the switch.
_SECRET_LINE = re.compile(
    r"^(\s*P\d+ (?:draws \d+ cards?|puts 1 card on the bottom of the deck) )\((.*)\)$"
)


def _log_item(line: str) -> list[str]:
    """A log line as ``[text]``, or ``[public part, secret part]``."""
    m = _SECRET_LINE.match(line)
    return [line] if m is None else [m.group(1), m.group(2)]


class _Zones:
    """Every distinct zone of a game once (most zones do not change from one decision to
    the next): a frame's view names its zones by index in :attr:`table`."""

    def __init__(self) -> None:
        self.table: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}

    def view(self, view: Mapping[str, Any]) -> dict[str, Any]:
        out = []
        for z in view["zones"]:
            key = json.dumps(z, sort_keys=True, ensure_ascii=False)
            if key not in self._index:
                self._index[key] = len(self.table)
                self.table.append(dict(z))
            out.append(self._index[key])
        return {"scores": view["scores"], "facts": view["facts"], "zones": out}


def record_data(rec: GameRecord, title: Optional[str] = None) -> dict[str, Any]:
    """One recorded game as the page's JSON: ``frames`` (decisions + 1: the table after
    each number of decisions, with the log lines that led there; a view's ``zones`` are
    indices into ``zones``, each distinct zone stored once) and ``decisions``."""
    n = len(rec.seat_names)
    zones = _Zones()
    frames = [{"view": zones.view(rec.decisions[0].view if rec.decisions else rec.final_view),
               "log": [_log_item(x) for x in rec.start_log]}]  # fmt: skip
    for k, d in enumerate(rec.decisions):
        nxt = rec.decisions[k + 1].view if k + 1 < len(rec.decisions) else rec.final_view
        frames.append({"view": zones.view(nxt), "log": [_log_item(x) for x in d.log]})
    decisions = [{"seat": d.seat, "kind": d.kind, "turn": d.turn, "options": [list(o) for o in d.options],
                  "chosen": d.chosen, "scores": None if d.scores is None else [list(s) for s in d.scores]}
                 for d in rec.decisions]  # fmt: skip
    spec = rec.spec.setup
    return {
        "title": title or f"{rec.game}: game {rec.index} of the batch with seed {rec.seed}",
        "game": rec.game, "seed": rec.seed, "index": rec.index, "seats": n,
        "seat_names": rec.seat_names, "bots": rec.bots,
        "setup": {k: (v if isinstance(v, (str, int, float, bool, list, dict)) or v is None else str(v))
                  for k, v in spec.items()},
        "zones": zones.table, "frames": frames, "decisions": decisions, "outcome": rec.outcome(),
        "winner": rec.winner,
    }  # fmt: skip


def _json_for_script(data: Any) -> str:
    """JSON that cannot end its ``<script>`` element early (``</``, ``<!--`` escaped)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_page(
    records: Sequence[GameRecord],
    title: Optional[str] = None,
    labels: Optional[Sequence[str]] = None,
    split: Optional[Mapping[str, Any]] = None,
) -> str:
    """The HTML of one replay, or of two side by side (``labels``: a heading per game;
    ``split``: where they part, ``{"decision": k, "text": ...}``)."""
    if not records or len(records) > 2:
        raise ValueError(f"a replay page shows one or two games, got {len(records)}")
    games = [record_data(r, labels[i] if labels else None) for i, r in enumerate(records)]
    page_title = title or games[0]["title"]
    data = {"format": DATA_FORMAT, "version": __version__, "title": page_title, "games": games,
            "split": dict(split) if split else None}  # fmt: skip
    panels = "\n".join(_PANEL.format(i=i) for i in range(len(games)))
    split_html = ('<p id="split" class="split"></p><button id="jump-split" type="button">'
                  "go to the split</button>" if split else "")  # fmt: skip
    return _PAGE.format(
        title=html.escape(page_title), heading=html.escape(page_title), panels=panels,
        split=split_html, data=_json_for_script(data), style=_STYLE, script=_SCRIPT,
        cols=len(games), version=html.escape(__version__),
    )  # fmt: skip


def write_page(path: Union[str, os.PathLike[str]], page: str, overwrite: bool = False,
               name: str = "path") -> Path:  # fmt: skip
    """Write an HTML page atomically (a temporary file renamed into place: never half a
    file): ``path`` must end in ``.html``; an existing file is refused unless ``overwrite``."""
    out = check_out_file(path, (".html", ".htm"), overwrite=overwrite, name=name)
    out.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(out, lambda tmp: tmp.write_text(page, encoding="utf-8"))


def write_replay(
    path: Union[str, os.PathLike[str]],
    game: Union[str, GameSpec] = "ketharmad",
    bots: Any = "random",
    seed: int = 0,
    index: int = 0,
    *,
    overwrite: bool = False,
    **setup: Any,
) -> Path:
    """Replay game ``index`` of the batch with ``seed`` (exactly the game ``ketharmad.simulate``
    and ``ketharmad.play`` give for the same arguments) and write its viewer to ``path`` (an
    ``.html`` file, written atomically; an existing file is refused unless ``overwrite``).
    Returns the path.

    ``game``: a game name (``"ketharmad"``, ``"schotten_totten_2"``, ``"osztrakon"``) or a
    :class:`ketharmad.GameSpec`; ``bots``: one bot spec for every seat or one per seat (the
    harness games: the list's length is the seat count); ``setup``: the game's setup keywords
    as ``ketharmad.play`` takes them (``decks``, ``params``, ``card_data``, ``format``,
    ``start_player``; the harness games ``params`` and ``seats``). Everything is checked
    before the file is touched: a ValueError names what is wrong."""
    out = check_out_file(path, (".html", ".htm"), overwrite=overwrite, name="path")
    rec = record_game(game, bots, seed, index, **setup)
    return write_page(out, replay_page([rec]), overwrite=overwrite)


_PANEL = """<section class="panel" id="panel-{i}">
  <h2 class="panel-title"></h2>
  <p class="meta"></p>
  <p class="counter">step <span id="counter-{i}"></span></p>
  <svg class="chart" id="chart-{i}" viewBox="0 0 600 170" role="img"></svg>
  <div class="legend"></div>
  <div class="decision" id="decision-{i}"></div>
  <table class="options" id="options-{i}"></table>
  <p class="outcome" id="outcome-{i}"></p>
  <div class="table" id="table-{i}"></div>
  <h3>log</h3>
  <ol class="log" id="log-{i}"></ol>
</section>"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ketharmad {version}">
<title>{title}</title>
<style>{style}</style>
</head>
<body class="cols-{cols}">
<header>
<h1>{heading}</h1>
<nav class="controls">
  <button id="first" type="button" title="Home">start</button>
  <button id="prev" type="button" title="left arrow">&#x25C0; back</button>
  <span id="step-counter" aria-live="polite"></span>
  <button id="next" type="button" title="right arrow">next &#x25B6;</button>
  <button id="last" type="button" title="End">end</button>
  <input id="step-slider" type="range" min="0" max="0" value="0" aria-label="step">
  <label class="switch"><input id="show-hidden" type="checkbox"> show hidden cards</label>
</nav>
{split}
<p class="help">left/right arrows: one decision; Home/End: start/end; the counter shows the decisions taken.</p>
</header>
<main class="games">
{panels}
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;padding:0 1rem 2rem;color:#1b1b1b;background:#fafafa}
header{position:sticky;top:0;background:#fafafa;padding:.5rem 0;border-bottom:1px solid #ddd;z-index:2}
h1{font-size:1.15rem;margin:.2rem 0}
h2{font-size:1.05rem;margin:.4rem 0}
h3{font-size:.95rem;margin:.6rem 0 .2rem}
.controls{display:flex;gap:.4rem;align-items:center;flex-wrap:wrap}
.controls button{font-size:1rem;padding:.1rem .5rem}
#step-counter{font-variant-numeric:tabular-nums;min-width:7rem;text-align:center;font-weight:600}
#step-slider{flex:1;min-width:10rem}
.help{font-size:.8rem;color:#666;margin:.2rem 0}
.split{font-weight:600;color:#8a3b00;margin:.3rem 0}
.games{display:grid;gap:1rem;grid-template-columns:1fr}
body.cols-2 .games{grid-template-columns:1fr 1fr}
.panel{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.5rem .8rem;min-width:0}
.meta,.counter{font-size:.85rem;color:#444;margin:.2rem 0}
.chart{width:100%;max-width:640px;height:auto;background:#fff;border:1px solid #eee;cursor:pointer}
.legend{font-size:.75rem;display:flex;flex-wrap:wrap;gap:.2rem .8rem;margin:.2rem 0 .4rem}
.legend svg{vertical-align:middle;margin-right:3px}
.decision{font-size:.9rem;margin:.4rem 0}
table.options{border-collapse:collapse;font-size:.85rem;width:100%;display:block;max-height:18rem;overflow:auto}
table.options tr td:first-child{width:100%}
table.options th,table.options td{border-bottom:1px solid #eee;padding:.1rem .4rem;text-align:left}
table.options td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.chosen{background:#e6f4ea;font-weight:600}
tr.chosen td:first-child::before{content:"\\2713  "}
.outcome{font-weight:600}
.table{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.4rem;font-size:.82rem}
.seat{border:1px solid #e3e3e3;border-radius:4px;padding:.3rem .5rem}
.seat h4{margin:0 0 .2rem;font-size:.85rem}
.seat.deciding{border-color:#2b6cb0;box-shadow:0 0 0 1px #2b6cb0}
.zone{margin:.15rem 0}
.zone .zn{color:#555}
.facts{font-size:.8rem;color:#333}
.secret{display:none}
body.show-hidden .secret{display:inline;background:#fff3cd}
.placeholder{color:#888;font-style:italic}
body.show-hidden .placeholder{display:none}
ol.log{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.78rem;max-height:18rem;overflow:auto;background:#f6f6f6;padding:.3rem 1.8rem;margin:0}
ol.log li.past{color:#888}
"""

_SCRIPT = r"""
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const games = data.games;
  const most = Math.max.apply(null, games.map(g => g.decisions.length));
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                   "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#ad494a"];
  const dashes = ["", "5,3", "2,2", "8,3,2,3"];
  let k = 0;
  const $ = id => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const clear = e => { while (e.firstChild) e.removeChild(e.firstChild); };
  const slider = $("step-slider");
  slider.max = String(most);

  function seriesOf(g) {
    const names = [];
    const series = new Map();
    g.frames.forEach((f, i) => {
      f.view.scores.forEach(([seat, name, value]) => {
        const key = seat + "\u0000" + name;
        if (!series.has(key)) {
          series.set(key, {seat: seat, name: name, values: new Array(g.frames.length).fill(null)});
          if (names.indexOf(name) < 0) names.push(name);
        }
        series.get(key).values[i] = value;
      });
    });
    return {names: names, list: Array.from(series.values())};
  }

  const NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(a => e.setAttribute(a, String(attrs[a])));
    return e;
  }

  function drawChart(i, g) {
    const chart = $("chart-" + i);
    const s = seriesOf(g);
    const W = 600, H = 170, L = 34, R = 8, T = 8, B = 20;
    let lo = 0, hi = 1;
    s.list.forEach(x => x.values.forEach(v => { if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }));
    const n = Math.max(1, g.frames.length - 1);
    const X = f => L + (W - L - R) * f / n;
    const Y = v => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    chart.appendChild(svg("line", {x1: L, y1: Y(lo), x2: W - R, y2: Y(lo), stroke: "#bbb"}));
    [lo, hi].forEach(v => {
      const t = svg("text", {x: L - 4, y: Y(v) + 4, "text-anchor": "end", "font-size": 10, fill: "#666"});
      t.textContent = String(Math.round(v * 100) / 100);
      chart.appendChild(t);
    });
    const legend = chart.parentNode.querySelector(".legend");
    s.list.forEach(x => {
      const pts = [];
      x.values.forEach((v, f) => { if (v !== null) pts.push(X(f).toFixed(1) + "," + Y(v).toFixed(1)); });
      const c = colours[x.seat % colours.length];
      const d = dashes[s.names.indexOf(x.name) % dashes.length];
      const line = svg("polyline", {points: pts.join(" "), fill: "none", stroke: c, "stroke-width": 1.6});
      if (d) line.setAttribute("stroke-dasharray", d);
      const tip = svg("title", {});
      tip.textContent = g.seat_names[x.seat] + ": " + x.name;
      line.appendChild(tip);
      chart.appendChild(line);
      const item = el("span", "series");
      const sample = svg("svg", {width: 22, height: 6});
      const stroke = svg("line", {x1: 0, y1: 3, x2: 22, y2: 3, stroke: c, "stroke-width": 2});
      if (d) stroke.setAttribute("stroke-dasharray", d);
      sample.appendChild(stroke);
      item.appendChild(sample);
      item.appendChild(document.createTextNode(g.seat_names[x.seat] + " " + x.name));
      legend.appendChild(item);
    });
    const marker = svg("line", {x1: X(0), y1: T, x2: X(0), y2: H - B, stroke: "#333", "stroke-width": 1, class: "marker"});
    chart.appendChild(marker);
    chart.addEventListener("click", ev => {
      const r = chart.getBoundingClientRect();
      const f = Math.round((ev.clientX - r.left) / r.width * W);
      go(Math.round((f - L) / (W - L - R) * n));
    });
    return {marker: marker, X: X};
  }

  function zoneNode(z, seats) {
    const d = el("div", "zone");
    const secret = z.seen_by.length < seats;
    const counted = secret || z.count !== z.items.length;
    d.appendChild(el("span", "zn", z.name + (counted ? " (" + z.count + ")" : "") + ": "));
    const shown = z.items.length ? z.items.join(", ") : (z.count ? "" : "-");
    if (secret) {
      d.classList.add("hidden-zone");
      d.appendChild(el("span", "placeholder", z.count ? "hidden" : "-"));
      d.appendChild(el("span", "secret", shown || (z.count ? "unknown" : "-")));
    } else {
      d.appendChild(el("span", "items", shown));
    }
    return d;
  }

  function drawTable(i, g, f, deciding) {
    const box = $("table-" + i);
    clear(box);
    const view = g.frames[f].view;
    const zones = view.zones.map(z => g.zones[z]);
    const facts = el("div", "seat facts-box");
    facts.appendChild(el("h4", "", "table"));
    facts.appendChild(el("div", "facts", view.facts.map(([a, b]) => a + ": " + b).join(" \u00b7 ")));
    zones.filter(z => z.owner === null).forEach(z => facts.appendChild(zoneNode(z, g.seats)));
    box.appendChild(facts);
    for (let s = 0; s < g.seats; s++) {
      const card = el("div", "seat" + (s === deciding ? " deciding" : ""));
      card.id = "seat-" + i + "-" + s;
      const sc = view.scores.filter(x => x[0] === s).map(x => x[1] + " " + x[2]).join(", ");
      card.appendChild(el("h4", "", g.seat_names[s] + " (" + g.bots[s] + ")" + (sc ? ": " + sc : "")));
      zones.filter(z => z.owner === s).forEach(z => card.appendChild(zoneNode(z, g.seats)));
      box.appendChild(card);
    }
  }

  function drawDecision(i, g, f) {
    const box = $("decision-" + i), opts = $("options-" + i), out = $("outcome-" + i);
    clear(box); clear(opts); out.textContent = "";
    if (f >= g.decisions.length) {
      box.textContent = "the game is over";
      out.textContent = g.outcome;
      return null;
    }
    const d = g.decisions[f];
    box.textContent = "decision " + (f + 1) + ": " + g.seat_names[d.seat] + " (" + g.bots[d.seat] + ")" +
      (d.kind ? ", " + d.kind : "") + ", turn " + d.turn + ", " + d.options.length + " options";
    const scores = new Map();
    (d.scores || []).forEach(([id, visits, mean]) => scores.set(id, [visits, mean]));
    const head = el("tr");
    ["option", "id"].concat(d.scores ? ["visits", "mean reward"] : []).forEach(h => head.appendChild(el("th", "", h)));
    opts.appendChild(head);
    d.options.forEach(([id, label]) => {
      const tr = el("tr", id === d.chosen ? "chosen" : "option");
      tr.appendChild(el("td", "label", label));
      tr.appendChild(el("td", "num", String(id)));
      if (d.scores) {
        const s = scores.get(id);
        tr.appendChild(el("td", "num visits", s ? String(s[0]) : "-"));
        tr.appendChild(el("td", "num mean", s ? s[1].toFixed(3) : "-"));
      }
      opts.appendChild(tr);
    });
    return d.seat;
  }

  function drawLog(i, g, f) {
    const box = $("log-" + i);
    clear(box);
    const from = Math.max(0, f - 3);
    for (let j = from; j <= f; j++) {
      g.frames[j].log.forEach(item => {
        const li = el("li", j < f ? "past" : "now");
        li.appendChild(el("span", "", item[0]));
        if (item.length > 1) {
          li.appendChild(el("span", "placeholder", "(hidden)"));
          li.appendChild(el("span", "secret", "(" + item[1] + ")"));
        }
        box.appendChild(li);
      });
    }
    box.scrollTop = box.scrollHeight;
  }

  const charts = [];
  games.forEach((g, i) => {
    const panel = $("panel-" + i);
    const heading = panel.querySelector(".panel-title");
    heading.textContent = g.title;
    heading.hidden = games.length < 2;
    panel.querySelector(".meta").textContent = g.seat_names.map((n, s) => n + ": " + g.bots[s]).join(" \u00b7 ") +
      " \u00b7 " + g.decisions.length + " decisions \u00b7 " + g.outcome;
    charts.push(drawChart(i, g));
  });
  if (data.split) {
    $("split").textContent = data.split.text;
    $("jump-split").addEventListener("click", () => go(data.split.decision));
  }

  function go(to) {
    k = Math.max(0, Math.min(most, to | 0));
    $("step-counter").textContent = k + " / " + most;
    slider.value = String(k);
    games.forEach((g, i) => {
      const f = Math.min(k, g.decisions.length);
      $("counter-" + i).textContent = f + " / " + g.decisions.length;
      const x = charts[i].X(f).toFixed(1);
      charts[i].marker.setAttribute("x1", x);
      charts[i].marker.setAttribute("x2", x);
      const deciding = drawDecision(i, g, f);
      drawTable(i, g, f, deciding);
      drawLog(i, g, f);
    });
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(k - 1));
  $("next").addEventListener("click", () => go(k + 1));
  $("last").addEventListener("click", () => go(most));
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
  const hidden = $("show-hidden");
  hidden.checked = false;
  hidden.addEventListener("change", () => document.body.classList.toggle("show-hidden", hidden.checked));
  document.addEventListener("keydown", ev => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const moves = {ArrowRight: () => go(k + 1), ArrowLeft: () => go(k - 1), Home: () => go(0), End: () => go(most)};
    if (moves[ev.key]) {
      ev.preventDefault();
      moves[ev.key]();
      if (document.activeElement === slider) slider.blur();
    }
  });
  go(0);
})();
"""
