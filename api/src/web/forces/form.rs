//! The roster editor's form, both ways: every field of a unit with the control that edits it
//! (the rules' closed sets as selects), a submitted form read back into the roster request the
//! application layer validates, and the button that was pressed. The request keeps whatever was
//! typed (a bad number stays text), so a refused form shows the input unchanged.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use fad_domain::kit::VehicleState;
use fad_domain::ladder::{Aptitude, LeaderExperience, Leadership, Quality, Resolve};
use fad_domain::names::Named;
use fad_domain::points::gear::{
    Ability, ArmourAddon, Bot, FireControl, Gadget, Grenade, Munition, PoweredArmourUpgrade,
    VehicleProperty, WeaponTrait,
};
use fad_domain::roster::{Branch, Unit, UnitKind, UnitStatus};
use fad_domain::vocabulary::vocabulary;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::app::forces::roster::{PlatoonRequest, RosterRequest};
use crate::web::nested_form::{UnreadableForm, read_body};

use crate::web::forces::roster::{points, words};

/// The submitted fields by name; a name may repeat (multiple selects).
pub type Fields = BTreeMap<String, Vec<String>>;

/// Reads an `application/x-www-form-urlencoded` body.
pub fn read_fields(body: &[u8]) -> Fields {
    let mut fields = Fields::new();
    for (name, value) in url::form_urlencoded::parse(body) {
        fields
            .entry(name.into_owned())
            .or_default()
            .push(value.into_owned());
    }
    fields
}

/// The first value of `name`.
pub fn first<'a>(fields: &'a Fields, name: &str) -> Option<&'a str> {
    fields.get(name).and_then(|v| v.first()).map(String::as_str)
}

/// A select's options `(value, text)`.
pub type Options = Vec<(String, String)>;

/// How a unit field is edited.
#[derive(Debug, Clone, Copy)]
pub enum Widget {
    /// One line of text.
    Text,
    /// One line of text that may be left empty.
    OptText,
    /// One of the options, each a whole number (read as a number).
    NumberChoice(fn() -> &'static Options),
    /// A whole number; empty means `default` when there is one.
    Number(Option<u32>),
    /// An optional number (empty: none); decimals allowed when `true`.
    OptNumber(bool),
    /// One of the options; `Some(text)` offers "none" with that text.
    Choice(fn() -> &'static Options, Option<&'static str>),
    /// A yes/no checkbox.
    Flag,
    /// Any of the options, each at most once (a multiple select).
    Set(fn() -> &'static Options),
    /// A list that may repeat an option (one entry per trooper, bot, ...): one select per entry.
    List(fn() -> &'static Options),
}

/// The sections a unit's fields are shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Always shown.
    Basics,
    /// Support and heavy weapons and their traits.
    Weapons,
    /// Traits, personalities and abilities.
    Traits,
    /// Characters, squad leaders, psionics.
    Leaders,
    /// Vehicle profile and state.
    Vehicle,
    /// Suits, grenades, gadgets, bots, comms.
    Gear,
}

impl Group {
    /// Every group, in page order.
    pub const ALL: [Self; 6] = [
        Self::Basics,
        Self::Weapons,
        Self::Traits,
        Self::Leaders,
        Self::Vehicle,
        Self::Gear,
    ];

    /// The section's heading.
    pub fn title(self) -> &'static str {
        match self {
            Self::Basics => "Basics",
            Self::Weapons => "Weapons",
            Self::Traits => "Traits and personalities",
            Self::Leaders => "Leaders and psionics",
            Self::Vehicle => "Vehicle",
            Self::Gear => "Other gear",
        }
    }
}

/// One unit field: its JSON path inside the unit (dots for nested objects), its label and how
/// it is edited.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// Path inside the unit: `strength`, `vehicle.armour.front`.
    pub path: &'static str,
    /// The visible label.
    pub label: &'static str,
    /// The control.
    pub widget: Widget,
    /// Its section.
    pub group: Group,
    /// A line under the label.
    pub hint: Option<&'static str>,
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

macro_rules! options_fn {
    ($name:ident, $ty:ty) => {
        fn $name() -> &'static Options {
            static OPTIONS: LazyLock<Options> = LazyLock::new(|| plain::<$ty>());
            &OPTIONS
        }
    };
    ($name:ident => $build:expr) => {
        fn $name() -> &'static Options {
            static OPTIONS: LazyLock<Options> = LazyLock::new(|| $build);
            &OPTIONS
        }
    };
}

/// The options of a closed set, in table order, named in words.
fn plain<T: Named>() -> Options {
    T::ALL
        .iter()
        .map(|v| (v.name().to_owned(), words(v.name())))
        .collect()
}

/// Options with their points from the rules' vocabulary.
fn priced(terms: impl Iterator<Item = (&'static str, f64)>) -> Options {
    terms
        .map(|(name, pts)| {
            (
                name.to_owned(),
                format!("{} ({} pts)", words(name), points(pts)),
            )
        })
        .collect()
}

options_fn!(kinds, UnitKind);
options_fn!(qualities, Quality);
options_fn!(resolves, Resolve);
options_fn!(leaderships, Leadership);
// FAD 5e's rungs, then the basic and advanced rules' own, marked as theirs (the ruleset
// checks the choice when the roster is saved).
options_fn!(
    leader_experiences =>
    LeaderExperience::FAD5E
        .iter()
        .map(|v| (v.name().to_owned(), words(v.name())))
        .chain(std::iter::once((
            LeaderExperience::Regular.name().to_owned(),
            format!("{} (basic and advanced rules)", LeaderExperience::Regular.words()),
        )))
        .collect()
);
options_fn!(aptitudes, Aptitude);
options_fn!(branches, Branch);
options_fn!(statuses, UnitStatus);
options_fn!(vehicle_states, VehicleState);
options_fn!(weapon_traits, WeaponTrait);
options_fn!(munitions, Munition);
options_fn!(grenades, Grenade);
options_fn!(gadgets, Gadget);
options_fn!(bots, Bot);
options_fn!(armour_addons, ArmourAddon);
options_fn!(powered_upgrades, PoweredArmourUpgrade);
options_fn!(abilities, Ability);
options_fn!(vehicle_properties, VehicleProperty);
options_fn!(fire_controls, FireControl);
options_fn!(
    armours =>
    priced(vocabulary().armour.into_iter().map(|t| (t.term.name, t.points)))
);
options_fn!(
    basic_weapons =>
    priced(
        vocabulary()
            .basic_weapons
            .into_iter()
            .map(|t| (t.term.name, t.points))
    )
);
options_fn!(
    support_weapons =>
    priced(
        vocabulary()
            .support_weapons
            .into_iter()
            .map(|t| (t.term.name, t.points))
    )
);
options_fn!(
    heavy_weapons =>
    priced(
        vocabulary()
            .heavy_weapons
            .into_iter()
            .map(|t| (t.term.name, t.points))
    )
);
options_fn!(
    mobilities =>
    priced(vocabulary().mobility.into_iter().map(|t| (t.term.name, t.points)))
);
options_fn!(
    personalities =>
    {
        let mut options = priced(
            vocabulary()
                .personalities
                .into_iter()
                .map(|t| (t.term.name, t.points)),
        );
        let aae = fad_domain::kit::Personality::AntiArmourExpert;
        options.push((
            aae.name().to_owned(),
            format!("{} (basic and advanced rules)", aae.words()),
        ));
        options
    }
);
options_fn!(
    traits =>
    vocabulary()
        .traits
        .into_iter()
        .map(|t| {
            let text = match t.multiplier {
                Some(m) => format!("{} (×{m})", words(t.term.name)),
                None => words(t.term.name),
            };
            (t.term.name.to_owned(), text)
        })
        .collect()
);

/// Where each personality, trait and support weapon may be used, from the rules' vocabulary.
pub static RESTRICTIONS: LazyLock<BTreeMap<&'static str, String>> = LazyLock::new(|| {
    let v = vocabulary();
    let mut out = BTreeMap::new();
    let join = |items: Vec<String>| items.join("; ");
    let personality = v
        .personalities
        .first()
        .map(|t| join(t.restrictions.clone()))
        .unwrap_or_default();
    out.insert(
        "personalities",
        format!("One entry per member who has one: {personality}."),
    );
    let limited: Vec<String> = v
        .traits
        .iter()
        .filter(|t| !t.restrictions.is_empty())
        .map(|t| format!("{}: {}", words(t.term.name), t.restrictions.join(", ")))
        .collect();
    out.insert("traits", join(limited));
    let powered: Vec<String> = v
        .support_weapons
        .iter()
        .filter(|t| !t.restrictions.is_empty())
        .map(|t| words(t.term.name))
        .collect();
    out.insert(
        "support_weapons",
        format!(
            "One entry per trooper who carries one. Units in powered armour only: {}.",
            powered.join(", ")
        ),
    );
    out
});

/// Every field of a unit (the domain roster's `Unit`), in page order.
pub const FIELDS: &[Field] = &[
    field("name", "Name", Widget::Text, Group::Basics),
    field("kind", "Kind", Widget::Choice(kinds, None), Group::Basics),
    field(
        "quality",
        "Quality",
        Widget::Choice(qualities, None),
        Group::Basics,
    ),
    hinted(
        field(
            "resolve",
            "Resolve",
            Widget::Choice(resolves, Some("unknown / none")),
            Group::Basics,
        ),
        "None for a vehicle whose crew has no Resolve, or not yet known.",
    ),
    hinted(
        field("strength", "Strength", Widget::Number(None), Group::Basics),
        "Figures now.",
    ),
    hinted(
        field(
            "starting_strength",
            "Establishment",
            Widget::Number(None),
            Group::Basics,
        ),
        "E, the figures the unit started with; replacements never go above it.",
    ),
    field(
        "armour",
        "Armour",
        Widget::Choice(armours, None),
        Group::Basics,
    ),
    field(
        "basic_weapon",
        "Basic weapon",
        Widget::Choice(basic_weapons, Some("none")),
        Group::Basics,
    ),
    field(
        "status",
        "Status",
        Widget::Choice(statuses, None),
        Group::Basics,
    ),
    field(
        "support_weapons",
        "Support weapon",
        Widget::List(support_weapons),
        Group::Weapons,
    ),
    hinted(
        field(
            "heavy_weapons",
            "Heavy weapon",
            Widget::List(heavy_weapons),
            Group::Weapons,
        ),
        "Weapons teams, vehicles and off-board units.",
    ),
    field(
        "basic_weapon_traits",
        "Basic weapon traits",
        Widget::Set(weapon_traits),
        Group::Weapons,
    ),
    field(
        "support_weapon_traits",
        "Support weapon traits",
        Widget::Set(weapon_traits),
        Group::Weapons,
    ),
    field(
        "heavy_weapon_traits",
        "Heavy weapon traits",
        Widget::Set(weapon_traits),
        Group::Weapons,
    ),
    field(
        "munitions",
        "Munitions",
        Widget::Set(munitions),
        Group::Weapons,
    ),
    hinted(
        field(
            "linked_weapons",
            "Linked basic weapons",
            Widget::Flag,
            Group::Weapons,
        ),
        "Powered armour only.",
    ),
    field(
        "no_ranged_attacks",
        "No ranged attacks at all",
        Widget::Flag,
        Group::Weapons,
    ),
    field("traits", "Traits", Widget::Set(traits), Group::Traits),
    field(
        "personalities",
        "Personality",
        Widget::List(personalities),
        Group::Traits,
    ),
    field(
        "abilities",
        "Abilities",
        Widget::Set(abilities),
        Group::Traits,
    ),
    field(
        "trait_options.droid_self_less",
        "Droid Troopers are self-less",
        Widget::Flag,
        Group::Traits,
    ),
    field(
        "trait_options.holy_weapon",
        "The Holy item is a weapon",
        Widget::Flag,
        Group::Traits,
    ),
    field(
        "trait_options.unholy_weapon",
        "The Unholy item is a weapon",
        Widget::Flag,
        Group::Traits,
    ),
    field(
        "trait_options.resilient_points",
        "Resilient points",
        Widget::OptNumber(false),
        Group::Traits,
    ),
    field(
        "trait_options.bestowed_traits",
        "Bestowed traits",
        Widget::Set(traits),
        Group::Traits,
    ),
    field(
        "trait_options.infect_multiplier",
        "Infect multiplier",
        Widget::OptNumber(true),
        Group::Traits,
    ),
    field(
        "leadership",
        "Leadership",
        Widget::Choice(leaderships, Some("none")),
        Group::Leaders,
    ),
    field(
        "branch",
        "Branch",
        Widget::Choice(branches, Some("none")),
        Group::Leaders,
    ),
    field(
        "leader_experience",
        "Squad leader experience",
        Widget::Choice(leader_experiences, Some("none")),
        Group::Leaders,
    ),
    field(
        "aptitude",
        "Psionic aptitude",
        Widget::Choice(aptitudes, Some("none")),
        Group::Leaders,
    ),
    field(
        "psionic_strength",
        "Psionic strength",
        Widget::OptNumber(false),
        Group::Leaders,
    ),
    hinted(
        field(
            "vehicle.mobility",
            "Mobility",
            Widget::Choice(mobilities, Some("not a vehicle")),
            Group::Vehicle,
        ),
        "Vehicles only; leave the vehicle fields empty for other units.",
    ),
    field(
        "vehicle.armour.front",
        "Front armour",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle.armour.side",
        "Side armour",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle.armour.rear",
        "Rear armour",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle.crew",
        "Crew",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle.multi_role_crew",
        "Multi-role crew",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle.passengers",
        "Passengers",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle.passenger_fired_weapons",
        "Passenger-fired weapons",
        Widget::OptNumber(false),
        Group::Vehicle,
    ),
    field(
        "vehicle_state",
        "Vehicle state",
        Widget::Choice(vehicle_states, Some("none")),
        Group::Vehicle,
    ),
    field(
        "vehicle_properties",
        "Vehicle properties",
        Widget::Set(vehicle_properties),
        Group::Vehicle,
    ),
    field(
        "fire_control",
        "Fire control",
        Widget::Choice(fire_controls, Some("none")),
        Group::Vehicle,
    ),
    field(
        "armour_addons",
        "Armour add-ons",
        Widget::Set(armour_addons),
        Group::Gear,
    ),
    field(
        "powered_armour_upgrades",
        "Powered armour upgrades",
        Widget::Set(powered_upgrades),
        Group::Gear,
    ),
    field("grenades", "Grenades", Widget::Set(grenades), Group::Gear),
    field("gadgets", "Gadget", Widget::List(gadgets), Group::Gear),
    hinted(
        field(
            "jammer_rating",
            "Jammer rating",
            Widget::Number(Some(0)),
            Group::Gear,
        ),
        "0 to 3; 0 is none.",
    ),
    field("bots", "Bot", Widget::List(bots), Group::Gear),
    field(
        "hover_bot_upgrades",
        "Hover-Bot upgrades",
        Widget::Number(Some(0)),
        Group::Gear,
    ),
    hinted(
        field(
            "comms_rating",
            "Communications rating",
            Widget::OptNumber(false),
            Group::Gear,
        ),
        "0 to 4; empty is the standard rating 1.",
    ),
];

/// The fields of `unit` as the form holds it: a figure's own (docs/rules.md §11) or FAD's.
pub fn fields_of(unit: &Value) -> &'static [Field] {
    if super::figure_form::is_figure(unit) {
        super::figure_form::FIGURE_FIELDS
    } else {
        FIELDS
    }
}

/// The form name of a unit field, in the bracket notation serde_qs reads:
/// `platoons[0][units][2][vehicle][crew]`.
pub fn unit_key(i: usize, j: usize, path: &str) -> String {
    format!("platoons[{i}][units][{j}][{}]", path.replace('.', "]["))
}

/// The form name of a platoon's name.
pub fn platoon_key(i: usize) -> String {
    format!("platoons[{i}][name]")
}

/// The value at a dotted `path` inside a JSON object.
pub fn value_at<'a>(unit: &'a Value, path: &str) -> &'a Value {
    path.split('.')
        .try_fold(unit, |v, key| v.get(key))
        .unwrap_or(&Value::Null)
}

fn set_at(map: &mut Map<String, Value>, path: &str, value: Value) {
    match path.split_once('.') {
        None => {
            map.insert(path.to_owned(), value);
        }
        Some((head, rest)) => {
            let entry = map
                .entry(head.to_owned())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            if let Value::Object(inner) = entry {
                set_at(inner, rest, value);
            }
        }
    }
}

/// A number as typed: a JSON number when it reads as one, else the text (the roster check
/// names it as the field's problem and the form shows it again).
fn number(text: &str, decimals: bool) -> Value {
    if let Ok(n) = text.parse::<u64>() {
        return Value::from(n);
    }
    if decimals
        && let Ok(x) = text.parse::<f64>()
        && x.is_finite()
    {
        return Value::from(x);
    }
    Value::String(text.to_owned())
}

/// Drops the `null`s of an object (a missing required member is then named by the check).
fn prune(value: &mut Value) {
    if let Value::Object(map) = value {
        map.retain(|_, v| !v.is_null());
        for v in map.values_mut() {
            prune(v);
        }
        map.retain(|_, v| !matches!(v, Value::Object(m) if m.is_empty()));
    }
}

/// The texts a form gave for one name: one, several (a repeated name) or none.
fn texts(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text.trim()],
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .collect(),
        _ => Vec::new(),
    }
}

/// One unit as the form describes it, on top of `base` (the stored unit, so anything the form
/// does not show is kept).
fn unit_from_form(submitted: &Value, base: Map<String, Value>) -> Value {
    let figure = super::figure_form::is_figure(submitted) || base.contains_key("fma");
    let mut unit = base;
    if let Some(id) = texts(value_at(submitted, "id"))
        .first()
        .filter(|id| !id.is_empty())
    {
        unit.insert("id".to_owned(), Value::String((*id).to_owned()));
    }
    let fields = if figure {
        super::figure_form::FIGURE_FIELDS
    } else {
        FIELDS
    };
    for f in fields {
        let values = texts(value_at(submitted, f.path));
        let one = values.first().copied().unwrap_or("");
        let value = match f.widget {
            Widget::Text | Widget::OptText => Value::String(one.to_owned()),
            Widget::NumberChoice(_) => number(one, false),
            Widget::Number(default) => match (one, default) {
                ("", Some(d)) => Value::from(d),
                (text, _) => number(text, false),
            },
            Widget::OptNumber(decimals) => match one {
                "" => Value::Null,
                text => number(text, decimals),
            },
            Widget::Choice(_, optional) => match one {
                "" if optional.is_some() => Value::Null,
                text => Value::String(text.to_owned()),
            },
            Widget::Flag => Value::Bool(!one.is_empty()),
            Widget::Set(_) | Widget::List(_) => Value::Array(
                values
                    .iter()
                    .filter(|v| !v.is_empty())
                    .map(|v| Value::String((*v).to_owned()))
                    .collect(),
            ),
        };
        set_at(&mut unit, f.path, value);
    }
    if figure {
        super::figure_form::weapons_from_form(&mut unit);
        super::figure_form::figure_defaults(&mut unit);
        if let Some(fma) = unit.get_mut("fma") {
            prune(fma);
        }
        return Value::Object(unit);
    }
    // No mobility and no profile numbers: not a vehicle.
    if let Some(vehicle) = unit.get_mut("vehicle") {
        prune(vehicle);
        if matches!(vehicle, Value::Object(m) if m.is_empty()) {
            *vehicle = Value::Null;
        }
    }
    if let Some(options) = unit.get_mut("trait_options") {
        prune(options);
    }
    Value::Object(unit)
}

/// A new unit for "Add a unit": the domain's plain one-figure squad, named.
pub fn new_unit(name: &str) -> Value {
    let unit = Unit {
        name: name.to_owned(),
        ..Unit::default()
    };
    let mut value = serde_json::to_value(&unit).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        // A new unit has no id yet: the server gives it one when it is saved.
        map.remove("id");
    }
    value
}

/// What the person asked for with the button they pressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Save (or create) the roster.
    Save,
    /// Show the form again with the points of what is entered.
    Update,
    /// One more unit in platoon `i`.
    AddUnit(usize),
    /// Without unit `j` of platoon `i`.
    RemoveUnit(usize, usize),
    /// One more platoon.
    AddPlatoon,
    /// Without platoon `i`.
    RemovePlatoon(usize),
}

impl Action {
    /// Reads the `action` button's value; anything else (Enter in a field) saves.
    pub fn read(fields: &Fields) -> Self {
        // No button (Enter in a field, a form posted by a program) saves; an unknown one only
        // shows the form again.
        let value = first(fields, "action").unwrap_or("save");
        let mut parts = value.split(':');
        let kind = parts.next().unwrap_or_default();
        let numbers: Vec<usize> = parts.filter_map(|p| p.parse().ok()).collect();
        match (kind, numbers.as_slice()) {
            ("update", _) => Self::Update,
            ("add_unit", [i]) => Self::AddUnit(*i),
            ("remove_unit", [i, j]) => Self::RemoveUnit(*i, *j),
            ("add_platoon", _) => Self::AddPlatoon,
            ("remove_platoon", [i]) => Self::RemovePlatoon(*i),
            ("save", _) => Self::Save,
            _ => Self::Update,
        }
    }

    /// Whether the action saves.
    pub fn saves(&self) -> bool {
        *self == Self::Save
    }

    /// Applies an editing action to the roster being built (saving and updating change
    /// nothing).
    pub fn apply(&self, roster: &mut RosterRequest) {
        match *self {
            Self::Save | Self::Update => {}
            Self::AddUnit(i) => {
                if let Some(platoon) = roster.platoons.get_mut(i) {
                    let figures = super::figure_form::any_figure(platoon.units.iter());
                    let name = format!("New unit {}", platoon.units.len() + 1);
                    platoon.units.push(if figures {
                        super::figure_form::new_figure(&name)
                    } else {
                        new_unit(&name)
                    });
                }
            }
            Self::RemoveUnit(i, j) => {
                if let Some(platoon) = roster.platoons.get_mut(i)
                    && j < platoon.units.len()
                {
                    platoon.units.remove(j);
                }
            }
            Self::AddPlatoon => {
                let n = roster.platoons.len() + 1;
                let figures = super::figure_form::any_figure(
                    roster.platoons.iter().flat_map(|p| p.units.iter()),
                );
                let mut platoon = new_platoon(n);
                if figures {
                    platoon.units = vec![super::figure_form::new_figure("New unit 1")];
                }
                roster.platoons.push(platoon);
            }
            Self::RemovePlatoon(i) => {
                if i < roster.platoons.len() {
                    roster.platoons.remove(i);
                }
            }
        }
    }
}

/// Platoon number `n` (from 1) with one new unit.
pub fn new_platoon(n: usize) -> PlatoonRequest {
    PlatoonRequest {
        name: format!("Platoon {n}"),
        units: vec![new_unit("New unit 1")],
        points: None,
    }
}

/// The highest platoon and unit indices the form reads (the roster check sets the real
/// limits; these only bound the work a hostile form can cause).
const MAX_PLATOONS: usize = 50;
const MAX_UNITS: usize = 200;

/// The roster part of a submitted editor form, nested by serde_qs from the bracketed names;
/// the other fields (the token, the button, the reason) are read flat with [`read_fields`].
#[derive(Debug, Default, Deserialize)]
struct RosterForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    platoons: BTreeMap<usize, PlatoonForm>,
}

#[derive(Debug, Default, Deserialize)]
struct PlatoonForm {
    #[serde(default)]
    name: String,
    /// Each unit's fields as submitted: texts, lists of texts (a repeated name) and nested
    /// records (`vehicle`, `trait_options`), read per field by [`unit_from_form`].
    #[serde(default)]
    units: BTreeMap<usize, Value>,
}

/// The roster a submitted editor form describes. Units with an id start from the stored unit
/// of that id (`stored`), so fields the form does not show are kept.
pub fn roster_from_body(
    body: &[u8],
    stored: &dyn Fn(&str) -> Option<Value>,
) -> Result<RosterRequest, UnreadableForm> {
    let form: RosterForm = read_body(body)?;
    let platoons = form
        .platoons
        .into_iter()
        .filter(|(i, _)| *i < MAX_PLATOONS)
        .map(|(_, platoon)| PlatoonRequest {
            name: platoon.name.trim().to_owned(),
            points: None,
            units: platoon
                .units
                .into_iter()
                .filter(|(j, _)| *j < MAX_UNITS)
                .map(|(_, submitted)| {
                    let base = texts(value_at(&submitted, "id"))
                        .first()
                        .and_then(|id| stored(id))
                        .and_then(|v| match v {
                            Value::Object(map) => Some(map),
                            _ => None,
                        })
                        .unwrap_or_default();
                    unit_from_form(&submitted, base)
                })
                .collect(),
        })
        .collect();
    Ok(RosterRequest {
        name: form.name.trim().to_owned(),
        platoons,
    })
}

/// A stored roster as the form's starting point.
pub fn roster_request(roster: &fad_domain::roster::Force) -> RosterRequest {
    RosterRequest {
        name: roster.name.clone(),
        platoons: roster
            .platoons
            .iter()
            .map(|p| PlatoonRequest {
                name: p.name.clone(),
                points: None,
                units: p
                    .units
                    .iter()
                    .map(|u| serde_json::to_value(u).unwrap_or(Value::Null))
                    .collect(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Fields {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        read_fields(body.as_bytes())
    }

    #[test]
    fn every_unit_field_of_the_domain_has_a_control() {
        let unit = serde_json::to_value(Unit::default()).unwrap();
        let mut missing = Vec::new();
        for (name, value) in unit.as_object().unwrap() {
            if name == "id" {
                continue;
            }
            let covered = FIELDS
                .iter()
                .any(|f| f.path == name || f.path.starts_with(&format!("{name}.")));
            // Nested objects: every member of the default must have its own control.
            if let Value::Object(inner) = value {
                for member in inner.keys() {
                    let path = format!("{name}.{member}");
                    if !FIELDS.iter().any(|f| f.path == path) {
                        missing.push(path);
                    }
                }
            } else if !covered {
                missing.push(name.clone());
            }
        }
        // `vehicle` is null in the default: its members are listed by hand above.
        assert!(FIELDS.iter().any(|f| f.path == "vehicle.crew"));
        assert!(missing.is_empty(), "no control for {missing:?}");
    }

    fn body(pairs: &[(&str, &str)]) -> String {
        url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish()
    }

    #[test]
    fn a_form_reads_back_into_the_roster_it_shows() {
        let unit = |path: &str| unit_key(0, 0, path);
        let pairs = [
            ("name".to_owned(), "Red"),
            (platoon_key(0), "1st"),
            (unit("name"), "Alpha"),
            (unit("kind"), "squad"),
            (unit("quality"), "regular"),
            (unit("resolve"), ""),
            (unit("strength"), "many"),
            (unit("starting_strength"), "8"),
            (unit("traits"), "tough"),
            (unit("traits"), "agile"),
            (unit("support_weapons"), "squad_automatic_weapon"),
            (unit("support_weapons"), ""),
            (unit("linked_weapons"), "on"),
            (unit("vehicle.mobility"), ""),
            (unit("vehicle.crew"), ""),
            (unit("trait_options.infect_multiplier"), "1.5"),
        ];
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let roster = roster_from_body(body(&pairs).as_bytes(), &|_| None).unwrap();
        let unit = &roster.platoons[0].units[0];
        assert_eq!(roster.name, "Red");
        assert_eq!(roster.platoons[0].name, "1st");
        assert_eq!(unit["name"], "Alpha");
        assert_eq!(unit["strength"], "many", "kept as typed");
        assert_eq!(unit["starting_strength"], 8);
        assert_eq!(unit["resolve"], Value::Null);
        assert_eq!(unit["traits"], serde_json::json!(["tough", "agile"]));
        assert_eq!(
            unit["support_weapons"],
            serde_json::json!(["squad_automatic_weapon"])
        );
        assert_eq!(unit["linked_weapons"], true);
        assert_eq!(unit["no_ranged_attacks"], false);
        assert_eq!(unit["vehicle"], Value::Null);
        assert_eq!(unit["trait_options"]["infect_multiplier"], 1.5);
        assert_eq!(unit["jammer_rating"], 0);
    }

    #[test]
    fn one_chosen_entry_of_a_set_is_a_list_and_a_stored_unit_keeps_what_the_form_lacks() {
        let stored = serde_json::json!({"id": "u1", "name": "Old", "kind": "squad"});
        let body = body(&[
            (&unit_key(0, 0, "id"), "u1"),
            (&unit_key(0, 0, "name"), "New"),
            (&unit_key(0, 0, "traits"), "tough"),
        ]);
        let roster =
            roster_from_body(body.as_bytes(), &|id| (id == "u1").then(|| stored.clone())).unwrap();
        let unit = &roster.platoons[0].units[0];
        assert_eq!(unit["id"], "u1");
        assert_eq!(unit["name"], "New");
        assert_eq!(unit["traits"], serde_json::json!(["tough"]));
    }

    #[test]
    fn platoons_and_units_come_in_index_order_whatever_the_gaps() {
        let body = body(&[
            (&unit_key(3, 7, "name"), "Last"),
            (&platoon_key(3), "Third"),
            (&unit_key(0, 2, "name"), "Second"),
            (&unit_key(0, 0, "name"), "First"),
            (
                &unit_key(MAX_PLATOONS, 0, "name"),
                "Beyond the form's bound",
            ),
        ]);
        let roster = roster_from_body(body.as_bytes(), &|_| None).unwrap();
        let names: Vec<Vec<&str>> = roster
            .platoons
            .iter()
            .map(|p| {
                p.units
                    .iter()
                    .map(|u| u["name"].as_str().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(names, [vec!["First", "Second"], vec!["Last"]]);
        assert_eq!(roster.platoons[1].name, "Third");
    }

    #[test]
    fn names_that_do_not_nest_are_refused_not_guessed() {
        for bad in [
            "platoons=2&platoons%5B0%5D%5Bname%5D=x",
            "platoons%5Bfirst%5D%5Bname%5D=x",
            "name%5Bx%5D=y",
        ] {
            assert_eq!(
                roster_from_body(bad.as_bytes(), &|_| None).err(),
                Some(UnreadableForm),
                "{bad}"
            );
        }
    }

    #[test]
    fn buttons_add_and_remove_units_and_platoons() {
        let mut roster = RosterRequest {
            name: "R".to_owned(),
            platoons: vec![new_platoon(1)],
        };
        Action::read(&form(&[("action", "add_unit:0")])).apply(&mut roster);
        assert_eq!(roster.platoons[0].units.len(), 2);
        Action::read(&form(&[("action", "add_platoon")])).apply(&mut roster);
        assert_eq!(roster.platoons.len(), 2);
        Action::read(&form(&[("action", "remove_unit:0:1")])).apply(&mut roster);
        assert_eq!(roster.platoons[0].units.len(), 1);
        Action::read(&form(&[("action", "remove_platoon:1")])).apply(&mut roster);
        assert_eq!(roster.platoons.len(), 1);
        assert_eq!(Action::read(&form(&[])), Action::Save);
        assert_eq!(
            Action::read(&form(&[("action", "remove_unit:x")])),
            Action::Update
        );
    }
}
