//! The roster editor's fields for an FMA figure (docs/rules.md §11), in the game's own words:
//! Experience with its quality die, Motivation 1–3, team role, armour with its die, toughness
//! and one weapon (name, three ranges, three firepower dice, impact). A unit is a figure when
//! it carries an `fma` profile; every other unit keeps FAD's fields.

use std::sync::LazyLock;

use fad_domain::names::Named;
use fad_domain::roster::{Unit, UnitKind};
use fad_domain::rulesets::gzg_fma_1999::{
    Die, Experience, FmaArmour, FmaProfile, MOTIVATION_LEVELS, TeamRole, Toughness,
};
use serde_json::{Map, Value, json};

use super::form::{Field, Group, Options, Widget};

macro_rules! options {
    ($name:ident => $build:expr) => {
        fn $name() -> &'static Options {
            static OPTIONS: LazyLock<Options> = LazyLock::new(|| $build);
            &OPTIONS
        }
    };
}

options!(experiences => Experience::ALL
    .iter()
    .map(|e| (e.name().to_owned(), format!("{} · {}", e.title(), e.quality_die())))
    .collect());
options!(motivations => MOTIVATION_LEVELS
    .iter()
    .rev()
    .map(|(m, level)| (level.to_string(), format!("{level} {}", m.title().to_lowercase())))
    .collect());
options!(roles => TeamRole::ALL
    .iter()
    .map(|r| (r.name().to_owned(), role_title(*r).to_owned()))
    .collect());
options!(armours => FmaArmour::ALL
    .iter()
    .map(|a| {
        let value = a.die().map_or_else(|| "fixed 1".to_owned(), |d| d.to_string());
        (a.name().to_owned(), format!("{} · {value}", a.title()))
    })
    .collect());
options!(toughnesses => Toughness::ALL
    .iter()
    .enumerate()
    .map(|(n, t)| (t.name().to_owned(), match n {
        0 => t.title(),
        n => format!("{} · armour die +{n}", t.title()),
    }))
    .collect());
options!(dice => Die::ALL
    .iter()
    .map(|d| (d.name().to_owned(), d.name().to_owned()))
    .collect());

fn role_title(role: TeamRole) -> &'static str {
    match role {
        TeamRole::Leader => "Team leader",
        TeamRole::Second => "Second-in-command",
    }
}

const fn field(path: &'static str, label: &'static str, widget: Widget, group: Group) -> Field {
    Field {
        path,
        label,
        widget,
        group,
        hint: None,
    }
}

const fn hinted(mut f: Field, hint: &'static str) -> Field {
    f.hint = Some(hint);
    f
}

/// Every field of a figure, in page order. `fma.weapon` is the form's view of the first of
/// `fma.weapons` (see [`with_weapon_fields`] and [`weapons_from_form`]).
pub const FIGURE_FIELDS: &[Field] = &[
    field("name", "Name", Widget::Text, Group::Basics),
    field(
        "fma.experience",
        "Experience",
        Widget::Choice(experiences, None),
        Group::Basics,
    ),
    hinted(
        field(
            "fma.motivation",
            "Motivation",
            Widget::NumberChoice(motivations),
            Group::Basics,
        ),
        "Lower is better; a team leader's Motivation is the team's Leadership.",
    ),
    field(
        "fma.role",
        "Team role",
        Widget::Choice(roles, Some("none")),
        Group::Basics,
    ),
    field(
        "fma.armour",
        "Armour",
        Widget::Choice(armours, None),
        Group::Basics,
    ),
    field(
        "fma.toughness",
        "Toughness",
        Widget::Choice(toughnesses, None),
        Group::Basics,
    ),
    field("fma.weapon.name", "Weapon", Widget::OptText, Group::Weapons),
    hinted(
        field(
            "fma.weapon.ranges",
            "Range bands, inches",
            Widget::OptText,
            Group::Weapons,
        ),
        "Close, medium and long, like 12/24/36.",
    ),
    hinted(
        field(
            "fma.weapon.firepower",
            "Firepower dice",
            Widget::OptText,
            Group::Weapons,
        ),
        "One die per band, like d10/d8/d6.",
    ),
    field(
        "fma.weapon.impact",
        "Impact die",
        Widget::Choice(dice, Some("none")),
        Group::Weapons,
    ),
];

/// Whether a unit as the form holds it is a figure.
pub fn is_figure(unit: &Value) -> bool {
    unit.get("fma").is_some_and(Value::is_object)
}

/// Whether any unit of the units is a figure (a new unit of such a roster is a figure too).
pub fn any_figure<'a>(mut units: impl Iterator<Item = &'a Value>) -> bool {
    units.any(is_figure)
}

fn joined(items: &[Value], key: &str) -> String {
    items
        .iter()
        .map(|b| match &b[key] {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The unit with `fma.weapon` filled from its first weapon, for the form to show.
pub fn with_weapon_fields(unit: &Value) -> Value {
    let mut unit = unit.clone();
    if let Some(fma) = unit.get_mut("fma").and_then(Value::as_object_mut) {
        let first = fma
            .get("weapons")
            .and_then(Value::as_array)
            .and_then(|w| w.first())
            .cloned();
        if let Some(weapon) = first {
            let bands = weapon["bands"].as_array().cloned().unwrap_or_default();
            fma.insert(
                "weapon".to_owned(),
                json!({
                    "name": weapon["name"],
                    "ranges": joined(&bands, "inches"),
                    "firepower": joined(&bands, "firepower"),
                    "impact": weapon["impact"],
                }),
            );
        }
    }
    unit
}

/// The submitted `fma.weapon` made back into the first of `fma.weapons` (the others kept): an
/// empty name removes it. A range that is not a number is kept as typed, so the roster check
/// names it beside its field.
pub fn weapons_from_form(unit: &mut Map<String, Value>) {
    let Some(fma) = unit.get_mut("fma").and_then(Value::as_object_mut) else {
        return;
    };
    let Some(Value::Object(form)) = fma.remove("weapon") else {
        return;
    };
    let text = |key: &str| {
        form.get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_owned()
    };
    let mut weapons = fma
        .get("weapons")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let name = text("name");
    if name.is_empty() {
        if !weapons.is_empty() {
            weapons.remove(0);
        }
    } else {
        let ranges = text("ranges");
        let firepower = text("firepower");
        let reach: Vec<&str> = ranges.split('/').map(str::trim).collect();
        let dice: Vec<&str> = firepower.split('/').map(str::trim).collect();
        let bands: Vec<Value> = (0..reach.len().max(dice.len()))
            .map(|k| {
                let inches = reach.get(k).copied().unwrap_or("");
                json!({
                    "inches": inches.parse::<u32>().map_or_else(|_| json!(inches), |n| json!(n)),
                    "firepower": dice.get(k).copied().unwrap_or(""),
                })
            })
            .collect();
        let mut weapon = json!({"name": name, "bands": bands, "impact": text("impact")});
        if let Some(old) = weapons.first()
            && let Some(times) = old.get("impact_multiplier")
        {
            weapon["impact_multiplier"] = times.clone();
        }
        if weapons.is_empty() {
            weapons.push(weapon);
        } else {
            weapons[0] = weapon;
        }
    }
    fma.insert("weapons".to_owned(), Value::Array(weapons));
}

/// A new figure for "Add a figure": Regular, Motivation 2, light armour, unarmed; one of one.
pub fn new_figure(name: &str) -> Value {
    let profile = FmaProfile {
        experience: Experience::Regular,
        motivation: 2,
        role: None,
        armour: FmaArmour::Light,
        toughness: Toughness::Normal,
        weapons: Vec::new(),
        dead: false,
        replaced: false,
    };
    let mut unit = Unit {
        name: name.to_owned(),
        kind: UnitKind::Character,
        strength: 1,
        starting_strength: 1,
        ..Unit::default()
    };
    profile.sync_fad_fields(&mut unit);
    unit.fma = Some(profile);
    let mut value = serde_json::to_value(&unit).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        // A new figure has no id yet: the server gives it one when it is saved.
        map.remove("id");
    }
    value
}

/// The fields a new figure from the form lacks (it has no stored unit to start from).
pub fn figure_defaults(unit: &mut Map<String, Value>) {
    for (key, value) in [
        ("kind", json!("character")),
        ("strength", json!(1)),
        ("starting_strength", json!(1)),
    ] {
        unit.entry(key.to_owned()).or_insert(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weapon_goes_to_the_form_and_back() {
        let unit = json!({"name": "b1", "fma": {"experience": "veteran", "motivation": 2,
            "armour": "light", "weapons": [{"name": "Assault rifle", "bands": [
            {"inches": 12, "firepower": "d10"}, {"inches": 24, "firepower": "d8"},
            {"inches": 36, "firepower": "d6"}], "impact": "d10"}]}});
        let shown = with_weapon_fields(&unit);
        assert_eq!(
            shown["fma"]["weapon"],
            json!({"name": "Assault rifle", "ranges": "12/24/36", "firepower": "d10/d8/d6", "impact": "d10"})
        );
        let Value::Object(mut map) = shown else {
            panic!("an object")
        };
        weapons_from_form(&mut map);
        assert_eq!(Value::Object(map), unit);
    }

    #[test]
    fn an_empty_weapon_name_removes_it_and_bad_ranges_stay_as_typed() {
        let Value::Object(mut map) = json!({"fma": {"weapons": [{"name": "x"}],
            "weapon": {"name": "", "ranges": "", "firepower": "", "impact": ""}}})
        else {
            panic!("an object")
        };
        weapons_from_form(&mut map);
        assert_eq!(map["fma"]["weapons"], json!([]));
        let Value::Object(mut map) = json!({"fma": {"weapon": {"name": "Pistol",
            "ranges": "6/x/18", "firepower": "d8/d6/d4", "impact": "d6"}}})
        else {
            panic!("an object")
        };
        weapons_from_form(&mut map);
        assert_eq!(map["fma"]["weapons"][0]["bands"][1]["inches"], "x");
        assert_eq!(map["fma"]["weapons"][0]["bands"][2]["inches"], 18);
    }

    #[test]
    fn options_read_in_the_games_words() {
        assert_eq!(
            experiences()[3],
            ("veteran".to_owned(), "Veteran · d10".to_owned())
        );
        assert_eq!(motivations()[0], ("1".to_owned(), "1 high".to_owned()));
        assert_eq!(armours()[0].1, "Non combatant · fixed 1");
        assert!(is_figure(&new_figure("New figure 1")));
    }
}
