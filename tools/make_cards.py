"""Derive the project's card data file from the shared reconstruction.

Run once by a developer (not at run time):
    python tools/make_cards.py ../shared/spec/cards.toml ../shared/spec/cards-notes.md \
        > python/ketharmad/data/cards.toml

It copies every card of the shared ``cards.toml`` and adds two things the engine needs:
``params`` (the numbers in the rules text, names from cards-notes.md "Parameters per card")
and ``abilities`` (the rules text in the engine's closed effect vocabulary, docs/card_data.md).
"""

import re
import sys
import tomllib

# Ability vocabulary: on = when, do = what; numeric fields name a parameter of the card
# (a keyword's N, e.g. "expose", or an entry of `params`).
A = {
    "ner_meszaros_lorinc": [
        dict(on="activated", cost="exhaust", do="add_resource", resource="f", n="forint")
    ],
    "ner_matolcsy_gyorgy": [
        dict(on="activated", cost="exhaust", do="add_any_resources", n="resources")
    ],
    "ner_orban_viktor": [
        dict(
            on="static",
            do="stat_bonus",
            who="all",
            n="influence_bonus",
            m="credibility_bonus",
            cond="supermajority",
        )
    ],
    "ner_gulyas_gergely": [
        dict(on="activated", cost="exhaust", do="remove_scandal", n="scandal_removed")
    ],
    "ner_bunbak": [
        dict(
            on="activated",
            cost="sacrifice_self",
            timing="any",
            do="remove_scandal",
            n="scandal_removed",
        )
    ],
    "ner_simicska_lajos": [
        dict(on="activated", cost="exhaust", do="add_resource", resource="m", n="one"),
        dict(on="enter", do="defect", n="defect_scandal"),
        dict(on="start_of_turn", do="defect", n="defect_scandal"),
    ],
    "ner_rogan_antal": [
        dict(on="activated", cost="exhaust", do="grant_propaganda", target="other_own_figure")
    ],
    "ner_szijjarto_peter": [dict(on="enter", do="draw", n="draw")],
    "ner_kover_laszlo": [dict(on="activated", cost="exhaust", do="exhaust", target="figure")],
    "ner_habony_arpad": [
        dict(
            on="activated",
            cost="exhaust",
            do="opponent_gains_scandal",
            target="opponent",
            n="opponent_scandal",
        )
    ],
    "ner_semjen_zsolt": [dict(on="enter", do="damage", target="other_figure_optional", n="damage")],
    "ner_rezsicsokkentes": [dict(on="start_of_turn", do="gain_support", n="support")],
    "ner_kozmedia": [dict(on="static", do="expose_tax", n="expose_cost_increase")],
    "ner_legfobb_ugyeszseg": [dict(on="start_of_turn", do="remove_scandal", n="scandal_removed")],
    "ner_szuverenitasvedelmi_hivatal": [
        dict(
            on="start_of_turn", do="opponent_gains_scandal", target="opponent", n="opponent_scandal"
        )
    ],
    "ner_ejszakai_torvenymodositas": [dict(on="resolve", do="neutralize", target="action")],
    "ner_lex_ceu": [dict(on="resolve", do="return_to_hand", target="figure_or_institution")],
    "osz_szakszervezeti_vezeto": [
        dict(
            on="static",
            do="stat_bonus",
            who="self",
            n="influence_bonus",
            m="credibility_bonus",
            cond="unity",
        )
    ],
    "osz_toth_bertalan": [dict(on="enter", do="draw", n="draw", cond="unity")],
    "osz_donath_anna": [
        dict(on="enter", do="opponent_gains_scandal", target="opponent", n="opponent_scandal")
    ],
    "osz_dobrev_klara": [dict(on="static", do="expose_bonus", n="expose_bonus", cond="unity")],
    "osz_gyurcsany_ferenc": [
        dict(
            on="static",
            do="stat_bonus",
            who="others",
            n="influence_bonus",
            m="credibility_bonus",
            cond="unity",
        )
    ],
    "osz_hadhazy_akos": [dict(on="start_of_turn", do="expose", target="opponent", n="expose")],
    "osz_marki_zay_peter": [dict(on="start_of_turn", do="die_roll")],
    "osz_karacsony_gergely": [dict(on="static", do="rescue", n="rescue_support")],
    "osz_szel_bernadett": [
        dict(
            on="activated", cost="exhaust", cond="unity", do="expose", target="opponent", n="expose"
        )
    ],
    "osz_juhasz_peter": [
        dict(
            on="activated",
            cost="exhaust",
            do="opponent_gains_scandal",
            target="opponent",
            n="opponent_scandal",
        )
    ],
    "osz_hangfelvetel": [dict(on="resolve", do="expose", target="opponent", n="expose")],
    "osz_kozerdeku_adatigenyles": [
        dict(on="resolve", do="opponent_gains_scandal", target="opponent", n="opponent_scandal"),
        dict(on="resolve", do="draw", n="draw"),
    ],
    "osz_bizalmatlansagi_inditvany": [
        dict(
            on="resolve", do="return_to_hand", target="figure", m="controller_scandal", cond="unity"
        )
    ],
    "osz_visszalepes": [
        dict(on="cast", do="sacrifice_figure"),
        dict(on="resolve", do="gain_support", n="support"),
        dict(on="resolve", do="draw", n="draw"),
    ],
    "osz_kozos_lista": [
        dict(
            on="static",
            do="stat_bonus",
            who="all",
            n="influence_bonus",
            m="credibility_bonus",
            cond="not_unity",
        ),
        dict(
            on="static",
            do="stat_bonus",
            who="all",
            n="unity_influence_bonus",
            m="unity_credibility_bonus",
            cond="unity",
        ),
    ],
    "tis_magyar_peter": [
        dict(on="base_played", do="sympathy_self", n="sympathy_per_base"),
        dict(on="static", do="unblockable_with_counters", n="unblockable_counters"),
    ],
    "tis_tarr_zoltan": [dict(on="enter", do="sympathy", target="own_figure", n="sympathy")],
    "tis_kapitany_istvan": [dict(on="enter", do="draw", n="draw")],
    "tis_ruszin_szendi_romulusz": [
        dict(
            on="static",
            do="stat_bonus",
            who="others",
            n="influence_bonus",
            m="credibility_bonus",
            cond="always",
        )
    ],
    "tis_orszagjaras": [dict(on="resolve", do="sympathy_each", n="sympathy")],
    "tis_szavazatszamlalo_delegaltak": [
        dict(on="enter", do="draw", n="draw"),
        dict(on="static", do="supermajority_increase", n="supermajority_increase"),
        dict(on="static", do="propaganda_blockers", n="propaganda_blockers"),
    ],
    "tis_tisza_szigetek_halozata": [
        dict(on="start_of_turn", do="sympathy", target="own_figure", n="sympathy")
    ],
    "tis_elo_bejelentkezes": [
        dict(on="resolve", do="opponent_gains_scandal", target="opponent", n="opponent_scandal"),
        dict(on="resolve", do="draw", n="draw"),
    ],
    "tis_kozfelhaborodas": [
        dict(on="resolve", do="pump_by_opponent_scandal", target="own_figure", n="max_x")
    ],
    "tis_ep_valasztasi_siker": [
        dict(on="resolve", do="support_per_figure", n="support_per_figure", m="max_support")
    ],
    "rad_sneider_tamas": [
        dict(
            on="static",
            do="stat_bonus",
            who="others",
            n="influence_bonus",
            m="credibility_bonus",
            cond="always",
        )
    ],
    "rad_jakab_peter": [dict(on="static", do="expose_starts_with_scandal", n="expose_scandal")],
    "rad_novak_elod": [
        dict(on="enter", do="opponent_loses_support", target="opponent", n="support_loss")
    ],
    "rad_duro_dora": [dict(on="enter", do="damage", target="other_figure_optional", n="damage")],
    "rad_volner_janos": [dict(on="leave", do="create_tokens", token="tok_szakadar", n="splinters")],
    "rad_gyongyosi_marton": [dict(on="enter", do="draw", n="draw")],
    "rad_vona_gabor": [
        dict(on="enter", do="remove_all_scandal"),
        dict(on="enter", do="gain_support", n="support"),
    ],
    "rad_toroczkai_laszlo": [dict(on="enter", do="create_tokens", token="tok_kerites", n="fences")],
    "rad_utcai_demonstracio": [
        dict(on="resolve", do="rally", n="influence_bonus", m="credibility_bonus"),
        dict(on="resolve", do="opponent_loses_support", target="opponent", n="support_loss"),
    ],
    "rad_hatarzar": [dict(on="enter", do="create_tokens", token="tok_kerites", n="fences")],
    "rad_partszakadas": [
        dict(on="resolve", do="create_tokens", token="tok_szakadar", n="splinters")
    ],
    "rad_tojasdobalas": [dict(on="resolve", do="damage", target="figure", n="damage")],
    "rad_kordonbontas": [
        dict(on="resolve", do="return_to_hand", target="institution_optional"),
        dict(on="resolve", do="each_opponent_loses_support", n="support_loss"),
    ],
    "nf_telex": [dict(on="static", do="expose_bonus", n="expose_bonus", cond="always")],
    "nf_444": [
        dict(
            on="activated",
            cost="exhaust",
            do="opponent_gains_scandal",
            target="opponent",
            n="opponent_scandal",
        )
    ],
    "nf_rtl_hirado": [dict(on="start_of_turn", do="draw", n="draw")],
    "nf_hvg": [dict(on="enter", do="draw", n="draw")],
    "nf_oknyomozo_ujsagiro": [
        dict(on="activated", cost="exhaust", do="expose", target="opponent", n="expose")
    ],
    "nf_civil_jogvedo": [dict(on="static", do="blocks_propaganda_alone")],
    "nf_tv2_tenyek": [
        dict(
            on="start_of_turn", do="opponent_gains_scandal", target="opponent", n="opponent_scandal"
        )
    ],
    "nf_magyar_nemzet": [dict(on="start_of_turn", do="remove_scandal", n="scandal_removed")],
    "nf_origo": [dict(on="activated", cost="exhaust", do="add_resource", resource="m", n="one")],
    "nf_hir_tv": [dict(on="enter", do="gain_support", n="support")],
    "ev_fulkeforradalom": [dict(on="event", do="all_gain_support", n="support")],
    "ev_mediatorveny": [dict(on="event", do="expose_cost_increase", n="expose_cost_increase")],
    "ev_alaptorveny": [
        dict(on="event", do="institution_cost_reduction", n="institution_cost_reduction")
    ],
    "ev_devizahitelesek_mentese": [dict(on="event", do="lowest_support_gain_support", n="support")],
    "ev_migracios_valsag": [
        dict(on="event", do="attacker_bonus", n="influence_bonus", m="credibility_bonus")
    ],
    "ev_kvotanepszavazas": [dict(on="event", do="all_gain_scandal", n="scandal")],
    "ev_nolimpia": [dict(on="event", do="recruit_cost_reduction", n="recruit_cost_reduction")],
    "ev_stop_soros": [dict(on="event", do="basic_expose_bonus", n="expose_bonus")],
    "ev_elios_ugy": [
        dict(on="event", do="most_institutions_gain_scandal", n="scandal", m="min_institutions")
    ],
    "ev_onkormanyzati_valasztas": [
        dict(on="event", do="all_support_per_figure", n="support_per_figure", m="max_support")
    ],
    "ev_veszelyhelyzet": [dict(on="event", do="max_attackers", n="max_attackers")],
    "ev_index_szetverese": [dict(on="event", do="refresh_newsfeed")],
    "ev_pegasus_botrany": [
        dict(on="event", do="reaction_cost_increase", n="reaction_cost_increase")
    ],
    "ev_ellenzeki_elovalasztas": [dict(on="event", do="all_draw", n="draw")],
    "ev_rekordinflacio": [
        dict(on="event", do="swap_cost_increase", n="swap_cost_increase"),
        dict(on="event", do="recruit_cost_increase", n="recruit_cost_increase"),
    ],
    "ev_kegyelmi_botrany": [
        dict(on="event", do="most_scandal_lose_support", n="support_loss", m="min_scandal")
    ],
    "ev_partizan_interju": [dict(on="event", do="all_sympathy", n="sympathy")],
    "ev_orszaggyulesi_valasztas": [dict(on="event", do="unblocked_extra_damage", n="extra_damage")],
    "tok_kerites": [dict(on="static", do="cant_attack")],
}
# Numbers the engine needs that the text says in words ("add M" = one Media).
EXTRA_PARAMS = {"ner_simicska_lajos": {"one": 1}, "nf_origo": {"one": 1}}
KEYWORD_PARAMS = {"scandal", "expose", "lone", "movement", "defector", "sympathy"}


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def main(cards_path, notes_path):
    data = tomllib.load(open(cards_path, "rb"))
    notes = open(notes_path, encoding="utf-8").read()
    params = {}
    for line in notes.splitlines():
        m = re.match(r"\| `([a-z0-9_]+)` \| (.*) \|$", line)
        if not m or "=" not in m.group(2):
            continue
        cid = m.group(1)
        for name, val in re.findall(r"`" + cid + r"\.([a-z_]+) = (\d+)`", m.group(2)):
            params.setdefault(cid, {})[name] = int(val)
    out = [
        "# Kétharmad card data for the ketharmad engine (project copy).",
        "# Derived from the shared reconstruction (cards.toml, draft 1) by tools/make_cards.py;",
        "# the schema is documented in docs/card_data.md. This file is the single source of the",
        "# simulated cards: ketharmad.cards() and the engine both read it.",
        "",
        "[meta]",
    ]
    for k, v in data["meta"].items():
        out.append(f"{k} = {toml_value(v)}")
    for kw in data["keyword"]:
        out.append("")
        out.append("[[keyword]]")
        for k, v in kw.items():
            out.append(f"{k} = {toml_value(v)}")
    for card in data["card"]:
        cid = card["id"]
        out.append("")
        out.append("[[card]]")
        for k, v in card.items():
            if k in ("note", "year", "label", "mentions", "tokens_created"):
                continue
            out.append(f"{k} = {toml_value(v)}")
        own_kw = {k["name"] for k in card["keywords"] if k["n"] > 0}
        p = {k: v for k, v in params.get(cid, {}).items() if k not in (KEYWORD_PARAMS & own_kw)}
        p.update(EXTRA_PARAMS.get(cid, {}))
        if p:
            out.append(f"params = {toml_value(p)}")
        ab = A.get(cid, [])
        if ab:
            out.append("abilities = [")
            for a in ab:
                out.append(f"  {toml_value(a)},")
            out.append("]")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
