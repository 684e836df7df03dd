//! The card loader and the parameter registry are total (issue 9 items 3, 4, 10): every bad
//! input is an `Err` naming the card (or parameter) and the field, never a panic, a wrap or a
//! silently ignored value. The Python property test `tests/test_card_data_fuzz.py` drives the
//! same paths with mutated files; these pin the individual cases.

use ketharmad::cards::{build_db, load_raw, params::registry, Cost, ParamValue};
use ketharmad::DEFAULT_CARD_DATA;

/// The packaged file with one card's block edited: `old` (which must occur in the block of
/// card `id`) replaced by `new`.
fn edit_card(id: &str, old: &str, new: &str) -> String {
    let text = DEFAULT_CARD_DATA;
    let start = text.find(&format!("id = \"{id}\"")).expect("card in the packaged file");
    let end = text[start..].find("[[card]]").map_or(text.len(), |e| start + e);
    let block = &text[start..end];
    assert!(block.contains(old), "test setup: {old:?} not in {id}'s block");
    format!("{}{}{}", &text[..start], block.replacen(old, new, 1), &text[end..])
}

fn load_err(text: &str) -> String {
    match load_raw(text) {
        Ok(_) => panic!("the loader accepted a bad file"),
        Err(e) => e,
    }
}

fn assert_names(e: &str, words: &[&str]) {
    for w in words {
        assert!(e.contains(w), "{w:?} not named in: {e}");
    }
}

fn cost_override(name: &str, s: &str) -> Result<ketharmad::cards::CardDb, String> {
    let raw = load_raw(DEFAULT_CARD_DATA).unwrap();
    build_db(&raw, &[(name.to_string(), ParamValue::Str(s.to_string()))])
}

// ---------------------------------------------------------------- item 4: cost strings

#[test]
fn cost_generic_total_is_bounded() {
    assert_eq!(Cost::parse_braces("{20}").unwrap(), Cost { generic: 20, pips: [0, 0, 0] });
    assert_eq!(Cost::parse_braces("{10}{10}").unwrap().generic, 20);
    let e = Cost::parse_braces("{20}{20}").unwrap_err();
    assert!(e.contains("exceeds 20"), "{e}");
    // 1639 × 20 = 32,780 wrapped an i16 to a negative cost before the bound
    let e = Cost::parse_braces(&"{20}".repeat(1639)).unwrap_err();
    assert!(e.contains("exceeds 20"), "{e}");
    assert!(Cost::parse_braces("{21}").is_err());
    assert!(Cost::parse_braces("{-1}").is_err());
    assert!(Cost::parse_braces("{99999999999999999999}").is_err());
}

#[test]
fn cost_pips_are_bounded() {
    let c = Cost::parse_braces(&"{M}".repeat(20)).unwrap();
    assert_eq!(c.pips, [0, 20, 0]);
    let e = Cost::parse_braces(&"{M}".repeat(21)).unwrap_err();
    assert!(e.contains("Media"), "{e}");
    // 40,000 pips wrapped an i16 before
    assert!(Cost::parse_braces(&"{F}".repeat(40_000)).is_err());
    let c = Cost::parse_braces(&format!("{{20}}{}{}{}", "{F}".repeat(20), "{M}".repeat(20), "{U}".repeat(20))).unwrap();
    assert_eq!(c.total(), 80, "the largest cost still fits");
}

#[test]
fn cost_syntax_errors() {
    for bad in ["", "  ", "{1}{M", "{1}}", "{}", "{X}", "1", "{1}M", "{ 1}"] {
        assert!(Cost::parse_braces(bad).is_err(), "{bad:?} was accepted");
    }
}

#[test]
fn expose_cost_override_out_of_range_names_the_parameter() {
    for bad in ["{20}{20}".to_string(), "{20}".repeat(1639), "{F}".repeat(21)] {
        let e = cost_override("rules.expose_cost", &bad).expect_err("accepted");
        assert_names(&e, &["rules.expose_cost"]);
        assert!(e.len() < 400, "the message quotes a long value whole: {} characters", e.len());
    }
    let e = cost_override("rules.swap_cost", "{20}{1}").expect_err("accepted");
    assert_names(&e, &["rules.swap_cost", "exceeds 20"]);
    let db = cost_override("rules.expose_cost", "{20}").unwrap();
    assert_eq!(db.rules.expose_cost, Cost { generic: 20, pips: [0, 0, 0] });
}

// ---------------------------------------------------------------- item 3: the loader is total

#[test]
fn non_figure_with_influence_but_no_credibility_is_an_error() {
    // an Institution; before: registry skipped the stat, compile_card looked it up and panicked
    let text = edit_card("ner_rezsicsokkentes", "type = \"institution\"", "type = \"institution\"\ninfluence = 3");
    let e = load_err(&text);
    assert_names(&e, &["ner_rezsicsokkentes", "influence"]);
    // with both stats an Institution is still refused: only Figures and tokens have them
    let text = edit_card("ner_rezsicsokkentes", "type = \"institution\"", "type = \"institution\"\ninfluence = 3\ncredibility = 2");
    assert_names(&load_err(&text), &["ner_rezsicsokkentes", "influence"]);
}

#[test]
fn figure_missing_a_stat_is_an_error() {
    let text = edit_card("ner_semjen_zsolt", "credibility = 2\n", "");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "credibility", "missing"]);
}

#[test]
fn type_specific_fields_on_other_types_are_errors() {
    let text = edit_card("ner_semjen_zsolt", "type = \"figure\"", "type = \"figure\"\nproduces = \"f\"");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "produces"]);
    let text = edit_card("ner_semjen_zsolt", "type = \"figure\"", "type = \"figure\"\nduration = \"round\"");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "duration"]);
}

#[test]
fn faction_and_type_must_fit() {
    // an Event in a faction deck, a Base in the Newsfeed, a token in the event deck
    let text = edit_card("ner_semjen_zsolt", "type = \"figure\"", "type = \"event\"\nduration = \"round\"");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "type"]);
    let text = edit_card("tok_kerites", "faction = \"token\"", "faction = \"event\"");
    assert_names(&load_err(&text), &["tok_kerites", "type"]);
}

#[test]
fn duplicate_keyword_is_an_error() {
    let text = edit_card("ner_semjen_zsolt", "keywords = [{ name = \"scandal\", n = 1 }]", "keywords = [{ name = \"scandal\", n = 1 }, { name = \"scandal\", n = 2 }]");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "keywords", "scandal", "twice"]);
}

#[test]
fn nested_entries_of_the_wrong_type_name_the_field() {
    let text = edit_card("ner_semjen_zsolt", "keywords = [{ name = \"scandal\", n = 1 }]", "keywords = [\"scandal\"]");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "keywords"]);
    let text = edit_card("ner_semjen_zsolt", "do = \"damage\"", "do = 5");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "abilities.do", "expected a string"]);
}

#[test]
fn more_than_32_parties_is_an_error() {
    // one party bit per party: a 33rd party shared a bit and miscounted Unity
    let mut text = String::new();
    let mut n = 0;
    for (i, part) in DEFAULT_CARD_DATA.split("\nparty = ").enumerate() {
        if i > 0 {
            text.push_str(&format!("\nparty = \"P{n}\""));
            n += 1;
            text.push_str(&part[part.find('\n').unwrap()..]);
        } else {
            text.push_str(part);
        }
    }
    assert!(n > 40, "test setup: {n} party fields");
    let e = load_err(&text);
    assert_names(&e, &["party", "32"]);
}

#[test]
fn reserved_card_ids_are_errors() {
    let text = edit_card("ner_semjen_zsolt", "id = \"ner_semjen_zsolt\"", "id = \"rules\"");
    assert_names(&load_err(&text), &["rules", "reserved"]);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [1_000, 100_000] {
        let arrays = format!("a = {}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(load_raw(&arrays).is_err());
        let tables = format!("a = {}1{}", "{b=".repeat(depth), "}".repeat(depth));
        assert!(load_raw(&tables).is_err());
        let headers = format!("[{}b]", "a.".repeat(depth));
        assert!(load_raw(&headers).is_err());
    }
}

// ---------------------------------------------------------------- item 10: card-data edges

#[test]
fn params_key_may_not_shadow_a_stat() {
    // before: the second `ner_semjen_zsolt.influence` silently replaced the printed Influence
    let text = edit_card("ner_semjen_zsolt", "params = {", "params = { influence = 9,");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "params.influence"]);
    for stat in ["credibility", "copies", "cost_generic", "cost_m"] {
        let text = edit_card("ner_semjen_zsolt", "params = {", &format!("params = {{ {stat} = 1,"));
        assert_names(&load_err(&text), &["ner_semjen_zsolt", &format!("params.{stat}")]);
    }
}

#[test]
fn params_key_may_not_shadow_a_keyword_number() {
    // Semjén has Scandal 1: `params.scandal` would be a second `ner_semjen_zsolt.scandal`
    let text = edit_card("ner_semjen_zsolt", "params = {", "params = { scandal = 3,");
    assert_names(&load_err(&text), &["ner_semjen_zsolt", "params.scandal"]);
    // a card without the keyword may use the name for a rules-text number (Elios-ügy does)
    assert!(DEFAULT_CARD_DATA.contains("params = { min_institutions = 1, scandal = 2 }"));
}

#[test]
fn create_tokens_must_name_a_token_card() {
    let text = edit_card("rad_toroczkai_laszlo", "token = \"tok_kerites\"", "token = \"ner_semjen_zsolt\"");
    assert_names(&load_err(&text), &["rad_toroczkai_laszlo", "abilities.token", "ner_semjen_zsolt"]);
    let text = edit_card("rad_toroczkai_laszlo", "token = \"tok_kerites\"", "token = \"tok_szakadar\"");
    assert!(load_raw(&text).is_ok(), "the other token card is fine");
}

#[test]
fn load_raw_compiles_the_set_so_the_registry_never_sees_a_broken_file() {
    // a deck of 32 cards: build_db refused it before, load_raw (and so parameters()) did not
    let start = DEFAULT_CARD_DATA.find("id = \"ner_base_stadion\"").unwrap();
    let copies_at = start + DEFAULT_CARD_DATA[start..].find("copies = ").unwrap() + "copies = ".len();
    let end = copies_at + DEFAULT_CARD_DATA[copies_at..].find('\n').unwrap();
    let n: i64 = DEFAULT_CARD_DATA[copies_at..end].parse().unwrap();
    let text = format!("{}{}{}", &DEFAULT_CARD_DATA[..copies_at], n + 1, &DEFAULT_CARD_DATA[end..]);
    let e = load_err(&text);
    assert_names(&e, &["deck 'ner'", "31"]);
}

#[test]
fn every_registered_parameter_name_is_unique() {
    let raw = load_raw(DEFAULT_CARD_DATA).unwrap();
    let reg = registry(&raw);
    let mut names: Vec<&str> = reg.iter().map(|p| p.name.as_str()).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n);
}

#[test]
fn cost_parameters_state_their_bounds() {
    let raw = load_raw(DEFAULT_CARD_DATA).unwrap();
    for p in registry(&raw).iter().filter(|p| p.name == "rules.expose_cost" || p.name == "rules.swap_cost") {
        assert_eq!((p.min, p.max), (0, 20), "{}", p.name);
        assert!(p.description.contains("0..=20"), "{}", p.description);
    }
}
