"""Property test (issue 9 item 3): the card loader is total. Any mutation of the packaged card
file (fields deleted, duplicated, retyped, extreme or negative numbers, strings where numbers
belong, huge cost strings, unknown keywords and effects, cards deleted or duplicated, raw text
cut or spliced) and any parameter override either loads and plays, or raises ``ValueError``.
Nothing else may escape: no pyo3 ``PanicException`` (a ``BaseException``), no ``RuntimeError``
from a game that panicked, no ``TypeError``/``OverflowError``.

The CI run is small and reproducible (``derandomize``, ``KETHARMAD_FUZZ_EXAMPLES`` examples,
default 150, under 15 s). The long run is the ``slow`` test below:

    KETHARMAD_FUZZ_EXAMPLES=20000 pytest -m slow tests/test_card_data_fuzz.py

which draws fresh random examples each time (Hypothesis prints the failing example, shrunk).
"""

from __future__ import annotations

import copy
import json
import math
import os

import pytest

hypothesis = pytest.importorskip("hypothesis")
import tomllib  # noqa: E402 - with the imports after the importorskip above

from conftest import packaged_card_text  # noqa: E402
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from ketharmad import _core  # noqa: E402

TEXT = packaged_card_text()
DOC = tomllib.loads(TEXT)
CARD_IDS = [c["id"] for c in DOC["card"]]
CARD_FIELDS = sorted({k for c in DOC["card"] for k in c} | {"mood"})
ABILITY_FIELDS = sorted({k for c in DOC["card"] for a in c.get("abilities", []) for k in a} | {"x"})
PARAM_NAMES = sorted({k for c in DOC["card"] for k in c.get("params", {})})
KEYWORDS = [k["id"] for k in DOC["keyword"]]

# ---------------------------------------------------------------- a minimal TOML writer


def _toml_str(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:  # lone surrogates cannot be encoded
            out.append("?")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(v, depth: int = 0) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)  # out-of-i64 ints are a TOML error, which is fine
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, dict):
        return (
            "{"
            + ", ".join(f"{_toml_str(str(k))} = {_toml_value(x, depth + 1)}" for k, x in v.items())
            + "}"
        )
    if isinstance(v, (list, tuple)):
        sep = ",\n  " if depth == 0 else ", "
        return "[" + sep.join(_toml_value(x, depth + 1) for x in v) + "]"
    return _toml_str(str(v))  # datetimes (meta) and anything else


def dump(doc: dict) -> str:
    return "\n".join(f"{_toml_str(str(k))} = {_toml_value(v)}" for k, v in doc.items()) + "\n"


def test_writer_round_trips_the_packaged_file():
    """The test's own writer is faithful: the packaged file written back loads unchanged."""
    text = dump(DOC)
    assert tomllib.loads(text) == DOC
    assert _core.card_table(text) == _core.card_table(TEXT)
    assert _core.parameter_table(text) == _core.parameter_table(TEXT)


# ---------------------------------------------------------------- value and mutation strategies

EXTREME_INTS = [
    0,
    1,
    -1,
    2,
    5,
    12,
    13,
    19,
    20,
    21,
    31,
    32,
    99,
    100,
    127,
    128,
    255,
    256,
    1000,
    32767,
    32768,
    65535,
    65536,
    2**31 - 1,
    2**31,
    2**32,
    2**53,
    2**63 - 1,
    -(2**15),
    -(2**31),
    -(2**63),
]
COST_STRINGS = [
    "{20}{20}",
    "{20}" * 1639,
    "{F}" * 40000,
    "{M}" * 21,
    "{0}",
    "{}",
    "{-1}",
    "{1}{M",
    "{1}}",
    "{99999999999999999999}",
    "{1}{X}",
    " {1} ",
    "{F}{F}{F}",
    "{20}{F}",
    "",
]
WORDS = (
    CARD_IDS[:8]
    + ["tok_kerites", "tok_szakadar"]
    + KEYWORDS
    + PARAM_NAMES[:12]
    + [
        "figure",
        "token",
        "base",
        "event",
        "institution",
        "move",
        "reaction",
        "newsfeed",
        "ner",
        "tisza",
        "f",
        "m",
        "u",
        "x",
        "round",
        "one_shot",
        "enter",
        "static",
        "activated",
        "draw",
        "damage",
        "create_tokens",
        "stat_bonus",
        "die_roll",
        "influence",
        "credibility",
        "copies",
        "",
        "—",
        "é\u0301",
        "a" * 300,
    ]
)

values = st.one_of(
    st.sampled_from(EXTREME_INTS),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from(WORDS),
    st.sampled_from(COST_STRINGS),
    st.text(max_size=12),
    st.booleans(),
    st.sampled_from([0.5, -1.0, float("nan"), float("inf")]),
    st.lists(st.sampled_from(EXTREME_INTS + WORDS), max_size=3),
    st.dictionaries(
        st.sampled_from(["generic", "f", "m", "u", "n", "name", "x"]),
        st.sampled_from(EXTREME_INTS[:12] + WORDS[:5]),
        max_size=4,
    ),
)


def _mutate_card(data, card: dict) -> None:
    op = data.draw(
        st.sampled_from(
            [
                "del_field",
                "set_field",
                "set_number",
                "copy_field",
                "cost",
                "param",
                "keyword",
                "ability",
                "ability_field",
                "del_ability",
                "param_value",
            ]
        )
    )
    if op == "del_field" and card:
        del card[data.draw(st.sampled_from(sorted(card)))]
    elif op == "set_field":
        card[data.draw(st.sampled_from(CARD_FIELDS))] = data.draw(values)
    elif op == "set_number":  # a small number in a numeric field: often still a legal file
        key = data.draw(st.sampled_from(["influence", "credibility", "copies"]))
        card[key] = data.draw(st.integers(-1, 25))
    elif op == "copy_field":  # a plausible value taken from another card (type, faction, ...)
        other = data.draw(st.sampled_from(DOC["card"]))
        key = data.draw(st.sampled_from(sorted(other)))
        card[key] = copy.deepcopy(other[key])
    elif op == "cost":
        cost = card.setdefault("cost", {})
        if isinstance(cost, dict):
            cost[data.draw(st.sampled_from(["generic", "f", "m", "u", "g"]))] = data.draw(values)
    elif op == "param_value":  # change an existing rules-text number, usually in range
        params = card.get("params")
        if isinstance(params, dict) and params:
            params[data.draw(st.sampled_from(sorted(params)))] = data.draw(st.integers(-1, 100))
    elif op == "param":
        params = card.setdefault("params", {})
        if isinstance(params, dict):
            name = data.draw(
                st.sampled_from(
                    PARAM_NAMES
                    + KEYWORDS
                    + ["influence", "credibility", "copies", "cost_f", "a.b", ""]
                )
            )
            params[name] = data.draw(st.one_of(st.sampled_from(EXTREME_INTS), values))
    elif op == "keyword":
        kws = card.setdefault("keywords", [])
        if isinstance(kws, list):
            kws.append(
                {
                    "name": data.draw(st.sampled_from(KEYWORDS + ["scandall", ""])),
                    "n": data.draw(st.sampled_from(EXTREME_INTS)),
                }
            )
    elif op == "ability":
        abil = card.setdefault("abilities", [])
        if isinstance(abil, list):
            donor = [a for c in DOC["card"] for a in c.get("abilities", [])]
            abil.append(copy.deepcopy(data.draw(st.sampled_from(donor))))
    elif op == "ability_field":
        abil = card.get("abilities")
        if isinstance(abil, list) and abil and isinstance(abil[0], dict):
            a = abil[data.draw(st.integers(0, len(abil) - 1))]
            if isinstance(a, dict):
                a[data.draw(st.sampled_from(ABILITY_FIELDS))] = data.draw(values)
    elif op == "del_ability":
        abil = card.get("abilities")
        if isinstance(abil, list) and abil:
            abil.pop(data.draw(st.integers(0, len(abil) - 1)))


def mutate_gently(data, doc: dict) -> None:
    """Changes that usually keep the file legal, so that the engine plays odd but valid card
    sets: rules-text numbers, stats and printed costs set to other in-range values, an ability
    swapped for another one, a keyword added."""
    cards = doc["card"]
    for _ in range(data.draw(st.integers(1, 6))):
        card = data.draw(st.sampled_from(cards))
        op = data.draw(st.sampled_from(["param", "stat", "cost", "ability", "keyword"]))
        if op == "param" and card.get("params"):
            card["params"][data.draw(st.sampled_from(sorted(card["params"])))] = data.draw(
                st.integers(0, 30)
            )
        elif op == "stat" and "influence" in card:
            card[data.draw(st.sampled_from(["influence", "credibility"]))] = data.draw(
                st.integers(0, 15)
            )
        elif op == "cost":
            card["cost"][data.draw(st.sampled_from(["generic", "f", "m", "u"]))] = data.draw(
                st.integers(0, 6)
            )
        elif op == "ability" and card.get("abilities"):
            donor = data.draw(st.sampled_from([c for c in DOC["card"] if c.get("abilities")]))
            i = data.draw(st.integers(0, len(card["abilities"]) - 1))
            card["abilities"][i] = copy.deepcopy(data.draw(st.sampled_from(donor["abilities"])))
            card.setdefault("params", {}).update(
                {
                    k: v
                    for k, v in donor.get("params", {}).items()
                    if k not in card.get("params", {})
                }
            )
        elif op == "keyword" and card["type"] in ("figure", "token"):
            name = data.draw(st.sampled_from(KEYWORDS))
            if all(k["name"] != name for k in card["keywords"]):
                numbered = name in ("scandal", "expose", "movement", "sympathy", "defector", "lone")
                card["keywords"].append(
                    {"name": name, "n": data.draw(st.integers(1, 5)) if numbered else 0}
                )


def mutate(data, doc: dict) -> None:
    if data.draw(st.booleans()):
        mutate_gently(data, doc)
        return
    cards = doc["card"]
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(
            st.sampled_from(
                ["card"] * 6 + ["del_card", "dup_card", "dup_card_new_id", "top", "keyword_table"]
            )
        )
        if not isinstance(cards, list) or not cards:
            break
        i = data.draw(st.integers(0, len(cards) - 1))
        if op == "card" and isinstance(cards[i], dict):
            _mutate_card(data, cards[i])
        elif op == "del_card":
            cards.pop(i)
        elif op == "dup_card":
            cards.insert(i, copy.deepcopy(cards[i]))
        elif op == "dup_card_new_id" and isinstance(cards[i], dict):
            c = copy.deepcopy(cards[i])
            c["id"] = data.draw(st.sampled_from(["zz_new", "tok_new", "a", "ner_x2"]))
            cards.append(c)
        elif op == "top":
            key = data.draw(st.sampled_from(["meta", "keyword", "card", "extra"]))
            if data.draw(st.booleans()) and key in doc:
                del doc[key]
            else:
                doc[key] = data.draw(values)
            cards = doc.get("card")
        elif op == "keyword_table" and isinstance(doc.get("keyword"), list):
            doc["keyword"].append({"id": data.draw(st.sampled_from(KEYWORDS + ["zap"]))})


def mutate_text(data, text: str) -> str:
    """Raw text damage: cut, splice a fragment, or delete a line."""
    op = data.draw(st.sampled_from(["cut", "splice", "del_line"]))
    pos = data.draw(st.integers(0, len(text)))
    if op == "cut":
        return text[:pos]
    if op == "splice":
        frag = data.draw(
            st.sampled_from(["[", "]", "{", "=", '"', "\n[[card]]\n", "\x00", "[a.a.a]", "\n"])
        )
        return text[:pos] + frag + text[pos:]
    lines = text.split("\n")
    del lines[min(pos, len(lines) - 1)]
    return "\n".join(lines)


# ---------------------------------------------------------------- the calls and the property


REJECTED = object()


def call(f, *args, **kwargs):
    """Run one core call: its value, or REJECTED for a ValueError; anything else fails."""
    try:
        return f(*args, **kwargs)
    except ValueError as e:
        assert str(e), "a ValueError must say what is wrong"
        return REJECTED
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - a PanicException is a BaseException: fail with it
        pytest.fail(f"{f.__name__} raised {type(e).__module__}.{type(e).__name__}: {str(e)[:500]}")


def override_values(data, params: dict) -> dict:
    """Parameter overrides: mostly a value inside the declared range (which must play), else
    anything (which must be rejected cleanly)."""
    out = {}
    rows = list(zip(params["name"], params["kind"], params["min"], params["max"], strict=True))
    for _ in range(data.draw(st.integers(0, 3))):
        name, kind, lo, hi = data.draw(st.sampled_from(rows))
        if data.draw(st.integers(0, 9)) < 7:
            if kind == "int":
                value = data.draw(st.integers(lo, hi))
            elif kind == "bool":
                value = data.draw(st.booleans())
            elif kind == "choice":
                value = data.draw(st.sampled_from(["source", "active_player"]))
            else:
                value = data.draw(
                    st.sampled_from(["{0}", "{1}{M}", "{20}", "{F}{M}{U}", "{20}" + "{F}" * 20])
                )
        else:
            name = data.draw(st.sampled_from([name, "no.such", "rules.expose_cost"]))
            value = data.draw(
                st.one_of(
                    st.sampled_from(EXTREME_INTS),
                    st.sampled_from(COST_STRINGS),
                    st.booleans(),
                    st.sampled_from(["source", "active_player", "x"]),
                )
            )
        out[name] = value
    return out


def check_one(data) -> None:
    doc = copy.deepcopy(DOC)
    mutate(data, doc)
    text = dump(doc)
    if data.draw(st.integers(0, 9)) == 0:
        text = mutate_text(data, text)

    cards = call(_core.card_table, text)
    params = call(_core.parameter_table, text)
    digest = call(_core.card_data_hash, text)
    # issue 9 item 10: cards(), parameters() and simulate() accept exactly the same files
    assert (cards is REJECTED) == (params is REJECTED), (
        "card_table and parameter_table disagree on the same file: "
        + ("card_table accepted it" if cards is not REJECTED else "parameter_table accepted it")
    )
    assert (digest is REJECTED) == (cards is REJECTED)
    if cards is REJECTED:
        event("card file rejected")
        return
    assert len(cards["id"]) == len(set(cards["id"]))
    for col in ("copies", "cost_generic", "cost_f", "cost_m", "cost_u"):
        assert all(0 <= x <= 99 for x in cards[col]), col
    names = params["name"]
    assert len(names) == len(set(names)), "a parameter name is registered twice"

    n = data.draw(st.integers(2, 4))
    decks = data.draw(st.permutations(list(_core.FACTIONS)))[:n]
    bots = [data.draw(st.sampled_from(["random", "random", "heuristic"])) for _ in decks]
    overrides = override_values(data, params)
    if call(_core.validate, text, decks, bots, overrides) is REJECTED:
        event("game setup rejected")
        return
    event("games played")
    games = 2
    seed = data.draw(st.integers(0, 2**32))
    res = call(_core.simulate, text, decks, bots, games, seed, threads=1, params=overrides)
    assert res is not REJECTED, "validate accepted what simulate rejects"
    g = res["games"]
    assert len(g["game"]) == games
    assert all(-1 <= w < len(decks) for w in g["winner"])
    # the replay of game 0 with its log is the same game
    one = call(_core.play, text, decks, bots, seed, 0, params=overrides)
    assert one is not REJECTED, "simulate accepted what play rejects"
    assert (one["winner"], one["turns"]) == (int(g["winner"][0]), int(g["turns"][0]))


_CI_EXAMPLES = int(os.environ.get("KETHARMAD_FUZZ_EXAMPLES", "150"))


@settings(
    max_examples=_CI_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_mutated_card_files_load_or_raise_value_error(data):
    check_one(data)


@pytest.mark.slow
@settings(
    max_examples=max(_CI_EXAMPLES, 2000),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_mutated_card_files_long_run(data):
    check_one(data)


def test_json_values_are_valid_toml_strings():
    """The writer's strings survive control characters and quotes (guards the test itself)."""
    s = 'a"b\\c\n\x01é' + json.dumps({"k": 1})
    assert tomllib.loads(dump({"x": s}))["x"] == s
