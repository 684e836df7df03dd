"""The replay and diff pages in a real browser (issue 28; tests/browser.py, headless Chromium):
the arrow keys and buttons move the step counter, the options table follows the recorded game,
the hidden-cards switch reveals the hands, a search bot's option scores are shown, the diff page
steps both games and jumps to the split, and no page logs a console error (the fixture fails a
test on any). Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import ketharmad
import pytest
from ketharmad.game.replay import record_game
from ketharmad.results.replay_html import write_replay

VISIBLE_SECRETS = (
    "return [...document.querySelectorAll('.secret')].filter(e => e.offsetParent !== null).length;"
)


@pytest.fixture(scope="module")
def kpage(tmp_path_factory):
    """A Kétharmad game with an ismcts seat (its option scores), its page and its record."""
    bots = [{"kind": "ismcts", "iterations": 12}, "heuristic"]
    path = write_replay(tmp_path_factory.mktemp("replay") / "k.html", "ketharmad", bots, 3, 2)
    return path, record_game("ketharmad", bots, 3, 2)


def test_arrow_keys_move_the_step_counter(browser, kpage) -> None:
    path, rec = kpage
    n = len(rec.decisions)
    browser.open(path, wait_for="#step-counter")
    browser.wait_text("#step-counter", f"0 / {n}")
    d0 = rec.decisions[0]
    assert browser.count("#options-0 tr.chosen") == 1
    assert browser.text("#options-0 tr.chosen td.label") == d0.chosen_label
    assert browser.count("#options-0 tr") == len(d0.options) + 1  # the header row
    browser.press("ArrowRight")
    assert browser.text("#step-counter") == f"1 / {n}"
    assert browser.text("#options-0 tr.chosen td.label") == rec.decisions[1].chosen_label
    browser.press("ArrowRight", times=3)
    assert browser.text("#step-counter") == f"4 / {n}"
    browser.press("ArrowLeft")
    assert browser.text("#step-counter") == f"3 / {n}"
    browser.screenshot("step-3")
    browser.press("End")
    assert browser.text("#step-counter") == f"{n} / {n}"
    assert browser.text("#outcome-0") == rec.outcome()
    browser.press("ArrowRight")  # past the end: stays
    assert browser.text("#step-counter") == f"{n} / {n}"
    browser.press("Home")
    assert browser.text("#step-counter") == f"0 / {n}"
    browser.click("#next")
    browser.click("#next")
    assert browser.text("#step-counter") == f"2 / {n}"
    assert browser.text("#counter-0") == f"2 / {n}"


def test_the_hidden_cards_switch_reveals_the_hands(browser, kpage) -> None:
    path, rec = kpage
    browser.open(path, wait_for="#table-0")
    browser.press("ArrowRight", times=5)
    hand = next(
        z for z in rec.decisions[5].view["zones"] if z["name"] == "hand" and z["owner"] == 1
    )
    assert hand["items"]
    cards = ", ".join(hand["items"])
    seat = "return document.getElementById('seat-0-1').innerText;"  # P1's zones, as displayed
    assert browser.js(VISIBLE_SECRETS) == 0
    assert browser.attr("#show-hidden", "checked") is None
    assert f"hand ({len(hand['items'])}): hidden" in browser.js(seat)
    assert cards not in browser.js(seat)
    assert cards in browser.text("#seat-0-1")  # in the page (textContent), not displayed
    browser.click("#show-hidden")
    assert browser.js(VISIBLE_SECRETS) > 0
    assert f"hand ({len(hand['items'])}): {cards}" in browser.js(seat)
    browser.screenshot("hidden-cards-shown")
    browser.click("#show-hidden")
    assert browser.js(VISIBLE_SECRETS) == 0


def test_a_search_decision_shows_each_options_visits(browser, kpage) -> None:
    path, rec = kpage
    k = next(i for i, d in enumerate(rec.decisions) if d.scores is not None)
    browser.open(path, wait_for="#step-slider")
    browser.press("ArrowRight", times=k)
    assert browser.text("#step-counter").startswith(f"{k} / ")
    headers = browser.texts("#options-0 th")
    assert headers == ["option", "id", "visits", "mean reward"]
    d = rec.decisions[k]
    visits = {str(a): str(v) for a, v, _ in d.scores}
    rows = browser.js(
        "return [...document.querySelectorAll('#options-0 tr')].slice(1).map(r => "
        "[...r.children].map(c => c.textContent));"
    )
    assert len(rows) == len(d.options)
    for _label, ident, v, _mean in rows:
        assert v == visits.get(ident, "-")
    assert browser.text("#options-0 tr.chosen td.visits") == str(max(v for _, v, _ in d.scores))
    browser.screenshot("search-scores")


@pytest.mark.parametrize(
    ("game", "bots"),
    [("schotten_totten_2", ["greedy", "search:iterations=30"]), ("osztrakon", "greedy")],
)
def test_the_other_games_pages(browser, tmp_path, game, bots) -> None:
    path = write_replay(tmp_path / f"{game}.html", game, bots, 1, 0)
    rec = record_game(game, bots, 1, 0)
    browser.open(path, wait_for="#chart-0 polyline")
    assert browser.count("#chart-0 polyline") == len(rec.decisions[0].view["scores"])
    browser.press("ArrowRight", times=2)
    assert browser.text("#step-counter") == f"2 / {len(rec.decisions)}"
    assert browser.text("#options-0 tr.chosen td.label") == rec.decisions[2].chosen_label
    browser.screenshot(game)


def test_the_diff_page_steps_both_games_and_jumps_to_the_split(browser, tmp_path) -> None:
    d = ketharmad.diff({}, {"card_data": "balanced"}, bots="heuristic", games=20, seed=1)
    path = d.write_html(tmp_path / "diff.html")
    ra, rb = d.records()
    split = d.split()
    most = max(len(ra.decisions), len(rb.decisions))
    browser.open(path, wait_for="#panel-1")
    assert browser.text("#split") == split["text"]
    browser.press("ArrowRight", times=2)
    assert browser.text("#counter-0") == f"2 / {len(ra.decisions)}"
    assert browser.text("#counter-1") == f"2 / {len(rb.decisions)}"
    browser.click("#jump-split")
    k = split["decision"]
    assert browser.text("#step-counter") == f"{k} / {most}"
    assert browser.text("#options-0 tr.chosen td.label") == ra.decisions[k].chosen_label
    assert browser.text("#options-1 tr.chosen td.label") == rb.decisions[k].chosen_label
    browser.screenshot("diff-at-split")
    browser.press("End")
    assert browser.text("#counter-0") == f"{len(ra.decisions)} / {len(ra.decisions)}"
    assert browser.text("#outcome-1") == rb.outcome()
