//! A whole campaign through the HTTP API: two players fight three battles and
//! run every post-battle sequence. With entered dice, every roster figure, rating, ledger entry
//! and history entry is checked against values computed by hand from docs/rules.md §2 (the
//! computation is written next to each step, with the rule ids). With server dice, the stored
//! roll log must explain every change. Both backends.

use std::collections::BTreeMap;

use crate::auth::TestUser;
use crate::battles::{get, ok, post, step_path, unit, unit_id};
use crate::campaigns::{People, World};
use crate::common::TestApp;
use serde_json::{Value, json};

/// Blue, one platoon (P = 1, C12): Alpha (8, Regular, Steady), Bravo (6, Conscript, Steady) and
/// Captain Vance, a lone figure (character, 1, Regular, Steady, Novice; C5).
fn blue_roster() -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Bravo", "kind": "squad", "quality": "conscript", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Vance", "kind": "character", "quality": "regular", "resolve": "steady",
         "strength": 1, "starting_strength": 1, "armour": "improved", "basic_weapon": "assault_rifles",
         "leadership": "novice"}
    ]}]})
}

/// Red, one platoon (P = 1): Charlie (8, Regular, Steady), Gun, a 3-crew light cannon team
/// (Regular, Steady; C23), and Eye, a sniper (lone figure, Regular, Steady; C5).
fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Charlie", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 8, "starting_strength": 8, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Gun", "kind": "weapons_team", "quality": "regular", "resolve": "steady",
         "strength": 3, "starting_strength": 3, "basic_weapon": "assault_carbines",
         "heavy_weapons": ["cannon_light"]},
        {"name": "Eye", "kind": "sniper", "quality": "regular", "resolve": "steady",
         "strength": 1, "starting_strength": 1, "armour": "improved", "heavy_weapons": ["sniper_rifle"]}
    ]}]})
}

/// The campaign: Blue owned by `owner`, Red by `player`.
struct Campaign {
    people: People,
    world: World,
    blue: String,
    red: String,
    /// Unit and force ids by name (new squads are added as they appear).
    ids: BTreeMap<String, String>,
}

impl Campaign {
    fn new(app: &TestApp) -> Self {
        let people = People::register(app);
        let world = World::build(app, &people);
        let blue =
            crate::forces::create_force(app, &people.owner, &world.campaign_id, &blue_roster());
        let red =
            crate::forces::create_force(app, &people.player, &world.campaign_id, &red_roster());
        let mut ids = BTreeMap::new();
        for (force, names) in [
            (&blue, ["Alpha", "Bravo", "Vance"]),
            (&red, ["Charlie", "Gun", "Eye"]),
        ] {
            for name in names {
                ids.insert(name.to_owned(), unit_id(force, name));
            }
        }
        let blue = blue["id"].as_str().unwrap().to_owned();
        let red = red["id"].as_str().unwrap().to_owned();
        ids.insert("Blue".to_owned(), blue.clone());
        ids.insert("Red".to_owned(), red.clone());
        Self {
            people,
            world,
            blue,
            red,
            ids,
        }
    }

    fn id(&self, name: &str) -> &str {
        self.ids
            .get(name)
            .unwrap_or_else(|| panic!("no id for {name}"))
    }

    fn name_of(&self, id: &str) -> String {
        self.ids
            .iter()
            .find(|(_, v)| *v == id)
            .map_or_else(|| id.to_owned(), |(k, _)| k.clone())
    }

    /// `{"step": {"Name": [dice]}}` with names replaced by ids.
    fn dice(&self, by_name: &[(&str, &str, &[u8])]) -> Value {
        let mut out = serde_json::Map::new();
        for (step, name, values) in by_name {
            out.entry((*step).to_owned())
                .or_insert_with(|| json!({}))
                .as_object_mut()
                .unwrap()
                .insert(self.id(name).to_owned(), json!(values));
        }
        Value::Object(out)
    }

    /// A new battle Blue against Red, its result recorded by `owner` and confirmed by `player`.
    fn battle(
        &self,
        app: &TestApp,
        outcome: &str,
        winner: Option<&str>,
        losses: &[(&str, u32, bool)],
    ) -> String {
        let created = ok(post(
            app,
            &self.people.owner,
            &format!("/api/v1/campaigns/{}/battles", self.world.campaign_id),
            &json!({"sides": [{"force_id": self.blue}, {"force_id": self.red}]}),
        ));
        let battle = created["id"].as_str().unwrap().to_owned();
        let losses: Vec<Value> = losses.iter().map(|(name, lost, wiped)| json!({
            "unit_id": self.id(name), "figures_lost": lost, "eliminated": wiped, "vehicle_damage": null})).collect();
        let result = json!({"outcome": outcome, "winner_force_id": winner.map(|w| self.id(w)), "losses": losses});
        assert_eq!(
            ok(post(
                app,
                &self.people.owner,
                &format!("/api/v1/battles/{battle}/result"),
                &result
            ))["state"],
            "pending"
        );
        assert_eq!(
            ok(post(
                app,
                &self.people.player,
                &format!("/api/v1/battles/{battle}/result/confirm"),
                &json!({})
            ))["state"],
            "aftermath"
        );
        battle
    }

    /// `[(step, subject name, values)]` of a roll log.
    fn log(&self, rolls: &Value) -> Vec<(String, String, Vec<u64>)> {
        rolls
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["step"].as_str().unwrap().to_owned(),
                    self.name_of(r["subject"].as_str().unwrap()),
                    r["values"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_u64().unwrap())
                        .collect(),
                )
            })
            .collect()
    }
}

/// One force's whole sequence: roll with `dice`, then purchases (with `extra` dice), then the
/// allocation, then finalize. Returns the roll response and the finalize response.
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per step of the sequence"
)]
fn sequence(
    app: &TestApp,
    user: &TestUser,
    battle: &str,
    force: &str,
    dice: Value,
    purchases: Value,
    extra: Value,
    reinforcements: Value,
) -> (Value, Value) {
    let rolled = ok(post(
        app,
        user,
        &step_path(battle, force, "roll"),
        &json!({"dice": dice}),
    ));
    if purchases.as_array().is_some_and(|p| !p.is_empty()) {
        ok(post(
            app,
            user,
            &step_path(battle, force, "purchases"),
            &json!({"purchases": purchases, "dice": extra}),
        ));
    }
    ok(post(
        app,
        user,
        &step_path(battle, force, "reinforcements"),
        &reinforcements,
    ));
    let done = ok(post(
        app,
        user,
        &step_path(battle, force, "finalize"),
        &json!({"forgo_reinforcements": true}),
    ));
    assert_eq!(done["stage"], "finalized");
    (rolled, done)
}

/// (strength, starting_strength, quality, resolve, status) of a unit.
fn figures(roster: &Value, name: &str) -> (u64, u64, String, String, String) {
    let u = unit(roster, name);
    (
        u["strength"].as_u64().unwrap(),
        u["starting_strength"].as_u64().unwrap(),
        u["quality"].as_str().unwrap().to_owned(),
        u["resolve"].as_str().unwrap().to_owned(),
        u["status"].as_str().unwrap().to_owned(),
    )
}

fn f(strength: u64, e: u64, quality: &str, resolve: &str) -> (u64, u64, String, String, String) {
    (
        strength,
        e,
        quality.to_owned(),
        resolve.to_owned(),
        "active".to_owned(),
    )
}

/// Unit name → field → (before, after).
type Changes = BTreeMap<String, BTreeMap<String, (Value, Value)>>;

/// (field, before, after).
type FieldChange<'a> = (&'a str, Value, Value);

/// A history entry's diff as `unit name → field → (before, after)` for the rated fields, and
/// the names of added units.
fn diff_of(entry: &Value) -> (Changes, Vec<String>) {
    let mut changed = BTreeMap::new();
    let mut added = Vec::new();
    for u in entry["diff"]["units"].as_array().unwrap() {
        let name = u["name"].as_str().unwrap().to_owned();
        if u["change"] == "added" {
            added.push(name);
            continue;
        }
        let fields: BTreeMap<String, (Value, Value)> = u["fields"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| {
                [
                    "strength",
                    "starting_strength",
                    "quality",
                    "resolve",
                    "status",
                    "leadership",
                ]
                .contains(&k.as_str())
            })
            .map(|(k, v)| (k.clone(), (v["before"].clone(), v["after"].clone())))
            .collect();
        if !fields.is_empty() {
            changed.insert(name, fields);
        }
    }
    (changed, added)
}

fn ch(pairs: &[(&str, &[FieldChange<'_>])]) -> Changes {
    pairs
        .iter()
        .map(|(name, fields)| {
            (
                (*name).to_owned(),
                fields
                    .iter()
                    .map(|(k, a, b)| ((*k).to_owned(), (a.clone(), b.clone())))
                    .collect(),
            )
        })
        .collect()
}

fn ledger_lines(app: &TestApp, user: &TestUser, force: &str) -> Vec<(String, i64, i64, String)> {
    get(app, user, &format!("/api/v1/forces/{force}/ledger"))["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_owned(),
                e["amount"].as_i64().unwrap(),
                e["balance"].as_i64().unwrap(),
                e["cause_id"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn l(kind: &str, amount: i64, balance: i64, battle: &str) -> (String, i64, i64, String) {
    (kind.to_owned(), amount, balance, battle.to_owned())
}

fn r(step: &str, name: &str, values: &[u64]) -> (String, String, Vec<u64>) {
    (step.to_owned(), name.to_owned(), values.to_vec())
}

both_backends! {
    fn three_battles_with_entered_dice_match_rules_section_2_by_hand(app: &TestApp) {
        let mut c = Campaign::new(app);
        let (owner, player) = (&c.people.owner.clone(), &c.people.player.clone());
        let (blue, red) = (c.blue.clone(), c.red.clone());

        // ---- Battle 1: Blue wins. Alpha loses 5 (8 → 3), Vance is lost (1 → 0), Charlie loses 4
        // (8 → 4), Gun is wiped out (3 → 0).
        let b1 = c.battle(app, "win", Some("Blue"), &[("Alpha", 5, false), ("Vance", 1, true), ("Charlie", 4, false), ("Gun", 3, true)]);
        // Blue. Step 1 (C1, C3): Alpha rolls 3 → half the losses, ceil(5/2) = 3 → 6; Vance, a lone
        // figure, rolls 4 → not returned (C5: only on 5–6), stays at 0, eliminated (C6).
        // Step 3 (C7): Alpha 2·3 = 6 < 8, Vance R = 0: no quality rolls, so the entered quality
        // die for Vance is unused. Step 4 (C15): Alpha rolls 1 → Steady ↓ Uncertain; Vance has no
        // figures, no roll (C6). Step 5: pool 2 + 3 = 5. Step 6: 2 CP (P = 1, C12) buy Vance's
        // return (1, C5) and his Leadership Novice → Experienced (1, C19). Pool: Alpha +2 (to
        // E = 8, C9); 3 troopers are too few for a new squad (5–8, C10) and are lost.
        let (blue1, blue1_done) = sequence(app, owner, &b1, &blue,
            c.dice(&[("replacement", "Alpha", &[3]), ("replacement", "Vance", &[4]), ("quality_loss", "Vance", &[1]),
                     ("resolve_change", "Alpha", &[1]), ("reinforcements", "Blue", &[2, 3])]),
            json!([{"item": "return_lone_figure", "unit_id": c.id("Vance")}, {"item": "improve_leadership", "unit_id": c.id("Vance")}]),
            json!({}),
            json!({"allocations": [{"unit_id": c.id("Alpha"), "troopers": 2}], "new_squad": null}));
        // Red. Step 1: Charlie rolls 5 → full strength, +4 → 8 (C3); Gun (wiped out, C4, C23)
        // rolls 4 → ceil(3/2) = 2. Step 3: Charlie 2·4 = 8 ≥ 8 rolls 2 → Regular ↓ Conscript;
        // Gun 2·2 = 4 ≥ 3 rolls 5 → stays Regular. Step 4: Charlie rolls 5 → Determined; Gun rolls
        // 3 → stays Steady. Step 5: pool 6 + 6 = 12. Step 6: 2 CP, nothing bought, banked (C13).
        // Pool: Gun +1 (to E = 3), a new squad Foxtrot of 8 (Conscript, Uncertain, E = 8, C10);
        // 3 troopers lost.
        let (red1, red1_done) = sequence(app, player, &b1, &red,
            c.dice(&[("replacement", "Charlie", &[5]), ("replacement", "Gun", &[4]), ("quality_loss", "Charlie", &[2]),
                     ("quality_loss", "Gun", &[5]), ("resolve_change", "Charlie", &[5]), ("resolve_change", "Gun", &[3]),
                     ("reinforcements", "Red", &[6, 6])]),
            json!([]), json!({}),
            json!({"allocations": [{"unit_id": c.id("Gun"), "troopers": 1}], "new_squad": {"name": "Foxtrot", "troopers": 8}}));

        assert_eq!(blue1["unused_dice"], json!({"quality_loss": {c.id("Vance"): [1]}}));
        assert_eq!(blue1["pending"]["cp_available"], 2);
        assert_eq!(blue1["pending"]["pool_total"], 5);
        assert_eq!(red1["unused_dice"], json!({}));
        assert_eq!(red1["pending"]["pool_total"], 12);
        assert_eq!(blue1_done["outcome"]["reinforcements"]["total"], 5);
        assert_eq!(red1_done["outcome"]["campaign_points"]["balance"], 2);
        let blue_now = get(app, owner, &format!("/api/v1/forces/{blue}"));
        assert_eq!(figures(&blue_now, "Alpha"), f(8, 8, "regular", "uncertain"));
        assert_eq!(figures(&blue_now, "Bravo"), f(6, 6, "conscript", "steady"));
        assert_eq!(figures(&blue_now, "Vance"), f(1, 1, "regular", "steady"));
        assert_eq!(unit(&blue_now, "Vance")["leadership"], "experienced");
        let red_now = get(app, player, &format!("/api/v1/forces/{red}"));
        assert_eq!(figures(&red_now, "Charlie"), f(8, 8, "conscript", "determined"));
        assert_eq!(figures(&red_now, "Gun"), f(3, 3, "regular", "steady"));
        assert_eq!(figures(&red_now, "Eye"), f(1, 1, "regular", "steady"));
        assert_eq!(figures(&red_now, "Foxtrot"), f(8, 8, "conscript", "uncertain"));
        c.ids.insert("Foxtrot".to_owned(), unit_id(&red_now, "Foxtrot"));

        // ---- Battle 2: a draw. Alpha loses 2 (8 → 6), Bravo is wiped out (6 → 0), Foxtrot loses
        // 3 (8 → 5), Eye is lost (1 → 0).
        let b2 = c.battle(app, "draw", None, &[("Alpha", 2, false), ("Bravo", 6, true), ("Foxtrot", 3, false), ("Eye", 1, true)]);
        // Blue. Step 1: Alpha rolls 2 → none, stays 6; Bravo rolls 6 → full, +6 → 6 (C4).
        // Step 3: Bravo 2·6 ≥ 6 rolls 1 → Conscript ↓ Rabble (C7); Alpha R = 0. Step 4: Alpha
        // rolls 6 → Uncertain ↑ Steady; Bravo rolls 4 → stays Steady. Step 5: pool 1 + 2 = 3.
        // Step 6: 2 CP (0 banked) buy Alpha's Resolve Steady → Determined (1) and one extra
        // reinforcement die (1, C11), entered as 4: pool 7. Pool: Alpha +2 (to 8), a new squad
        // Golf of 5 (C10): all 7 used.
        let (_, blue2_done) = sequence(app, owner, &b2, &blue,
            c.dice(&[("replacement", "Alpha", &[2]), ("replacement", "Bravo", &[6]), ("quality_loss", "Bravo", &[1]),
                     ("resolve_change", "Alpha", &[6]), ("resolve_change", "Bravo", &[4]), ("reinforcements", "Blue", &[1, 2])]),
            json!([{"item": "improve_resolve", "unit_id": c.id("Alpha")}, {"item": "extra_reinforcement_die"}]),
            c.dice(&[("reinforcements_extra", "Blue", &[4])]),
            json!({"allocations": [{"unit_id": c.id("Alpha"), "troopers": 2}], "new_squad": {"name": "Golf", "troopers": 5}}));
        // Red. Step 1 (roster order Charlie, Gun, Eye, Foxtrot): Eye rolls 6 → returned (C5), R =
        // 1; Foxtrot rolls 3 → ceil(3/2) = 2 → 7. Step 3: Eye 2·1 ≥ 1 rolls 3 → stays Regular;
        // Foxtrot 2·2 < 8. Step 4: Eye rolls 2 → Steady ↓ Uncertain; Foxtrot rolls 6 → Uncertain ↑
        // Steady. Step 5: pool 3 + 3 = 6. Step 6: 2 banked + 2 = 4 CP; buys Charlie's Quality
        // Conscript → Regular (1) and Eye's Resolve Uncertain → Steady (1); 2 stay banked.
        // Pool: Foxtrot +1 (to 8); 5 troopers lost (no new squad chosen).
        let (red2, _) = sequence(app, player, &b2, &red,
            c.dice(&[("replacement", "Eye", &[6]), ("replacement", "Foxtrot", &[3]), ("quality_loss", "Eye", &[3]),
                     ("resolve_change", "Eye", &[2]), ("resolve_change", "Foxtrot", &[6]), ("reinforcements", "Red", &[3, 3])]),
            json!([{"item": "improve_quality", "unit_id": c.id("Charlie")}, {"item": "improve_resolve", "unit_id": c.id("Eye")}]),
            json!({}),
            json!({"allocations": [{"unit_id": c.id("Foxtrot"), "troopers": 1}], "new_squad": null}));

        assert_eq!(blue2_done["outcome"]["reinforcements"]["total"], 7);
        assert_eq!(red2["pending"]["cp_available"], 4);
        let blue_now = get(app, owner, &format!("/api/v1/forces/{blue}"));
        assert_eq!(figures(&blue_now, "Alpha"), f(8, 8, "regular", "determined"));
        assert_eq!(figures(&blue_now, "Bravo"), f(6, 6, "rabble", "steady"));
        assert_eq!(figures(&blue_now, "Vance"), f(1, 1, "regular", "steady"));
        assert_eq!(figures(&blue_now, "Golf"), f(5, 5, "conscript", "uncertain"));
        let red_now = get(app, player, &format!("/api/v1/forces/{red}"));
        assert_eq!(figures(&red_now, "Charlie"), f(8, 8, "regular", "determined"));
        assert_eq!(figures(&red_now, "Gun"), f(3, 3, "regular", "steady"));
        assert_eq!(figures(&red_now, "Eye"), f(1, 1, "regular", "steady"));
        assert_eq!(figures(&red_now, "Foxtrot"), f(8, 8, "conscript", "steady"));
        c.ids.insert("Golf".to_owned(), unit_id(&blue_now, "Golf"));

        // ---- Battle 3: Red wins. Alpha is wiped out (8 → 0), Golf loses 2 (5 → 3), Charlie
        // loses 1 (8 → 7).
        let b3 = c.battle(app, "win", Some("Red"), &[("Alpha", 8, true), ("Golf", 2, false), ("Charlie", 1, false)]);
        // Blue. Step 1: Alpha rolls 4 → ceil(8/2) = 4 (C4); Golf rolls 1 → none, 3. Step 3: Alpha
        // 2·4 ≥ 8 rolls 2 → Regular ↓ Conscript. Step 4: Alpha rolls 3 → stays Determined; Golf
        // rolls 1 → Uncertain ↓ Reluctant. Step 5: pool 5 + 6 = 11. Step 6: 2 CP buy Golf's
        // Resolve Reluctant → Uncertain (1); 1 banked. Pool: Alpha +4 (to 8), Golf +2 (to E = 5),
        // a new squad Hotel of 5: all 11 used.
        let (blue3, _) = sequence(app, owner, &b3, &blue,
            c.dice(&[("replacement", "Alpha", &[4]), ("replacement", "Golf", &[1]), ("quality_loss", "Alpha", &[2]),
                     ("resolve_change", "Alpha", &[3]), ("resolve_change", "Golf", &[1]), ("reinforcements", "Blue", &[5, 6])]),
            json!([{"item": "improve_resolve", "unit_id": c.id("Golf")}]),
            json!({}),
            json!({"allocations": [{"unit_id": c.id("Alpha"), "troopers": 4}, {"unit_id": c.id("Golf"), "troopers": 2}],
                   "new_squad": {"name": "Hotel", "troopers": 5}}));
        // Red. Step 1: Charlie rolls 3 → ceil(1/2) = 1 → 8. Step 3: 2·1 < 8. Step 4: Charlie
        // rolls 2 → Determined ↓ Steady. Step 5: pool 1 + 1 = 2. Step 6: 2 banked + 2 = 4 CP,
        // nothing bought. Nobody is below E: both troopers are lost.
        let (red3, _) = sequence(app, player, &b3, &red,
            c.dice(&[("replacement", "Charlie", &[3]), ("resolve_change", "Charlie", &[2]), ("reinforcements", "Red", &[1, 1])]),
            json!([]), json!({}), json!({"allocations": []}));

        assert_eq!(blue3["pending"]["cp_available"], 2);
        assert_eq!(red3["pending"]["cp_available"], 4);
        let blue_now = get(app, owner, &format!("/api/v1/forces/{blue}"));
        assert_eq!(figures(&blue_now, "Alpha"), f(8, 8, "conscript", "determined"));
        assert_eq!(figures(&blue_now, "Bravo"), f(6, 6, "rabble", "steady"));
        assert_eq!(figures(&blue_now, "Vance"), f(1, 1, "regular", "steady"));
        assert_eq!(unit(&blue_now, "Vance")["leadership"], "experienced");
        assert_eq!(figures(&blue_now, "Golf"), f(5, 5, "conscript", "uncertain"));
        assert_eq!(figures(&blue_now, "Hotel"), f(5, 5, "conscript", "uncertain"));
        let red_now = get(app, player, &format!("/api/v1/forces/{red}"));
        assert_eq!(figures(&red_now, "Charlie"), f(8, 8, "regular", "steady"));
        assert_eq!(figures(&red_now, "Gun"), f(3, 3, "regular", "steady"));
        assert_eq!(figures(&red_now, "Eye"), f(1, 1, "regular", "steady"));
        assert_eq!(figures(&red_now, "Foxtrot"), f(8, 8, "conscript", "steady"));
        let count = |roster: &Value| roster["platoons"].as_array().unwrap().iter().map(|p| p["units"].as_array().unwrap().len()).sum::<usize>();
        assert_eq!((count(&blue_now), count(&red_now)), (5, 4));

        // Ledgers: 2 CP earned per battle (C12), each purchase spent in the order bought, the
        // rest banked (C13).
        assert_eq!(ledger_lines(app, owner, &blue), [
            l("earned", 2, 2, &b1), l("spent", 1, 1, &b1), l("spent", 1, 0, &b1),
            l("earned", 2, 2, &b2), l("spent", 1, 1, &b2), l("spent", 1, 0, &b2),
            l("earned", 2, 2, &b3), l("spent", 1, 1, &b3)]);
        assert_eq!(ledger_lines(app, player, &red), [
            l("earned", 2, 2, &b1),
            l("earned", 2, 4, &b2), l("spent", 1, 3, &b2), l("spent", 1, 2, &b2),
            l("earned", 2, 4, &b3)]);

        // History: creation, then one entry per battle (cause `battle` + id) with the whole roll
        // log in the order made and the per-unit diff from battle start to the committed roster.
        let blue_history = get(app, owner, &format!("/api/v1/forces/{blue}/history"))["entries"].clone();
        let causes: Vec<(String, String, i64)> = blue_history.as_array().unwrap().iter().map(|e| (
            e["cause"]["kind"].as_str().unwrap().to_owned(), e["cause"]["id"].as_str().unwrap_or_default().to_owned(), e["version"].as_i64().unwrap())).collect();
        assert_eq!(causes, [("battle".to_owned(), b3.clone(), 4), ("battle".to_owned(), b2.clone(), 3), ("battle".to_owned(), b1.clone(), 2), ("create".to_owned(), String::new(), 1)]);
        let red_history = get(app, player, &format!("/api/v1/forces/{red}/history"))["entries"].clone();
        let red_causes: Vec<&str> = red_history.as_array().unwrap().iter().map(|e| e["cause"]["id"].as_str().unwrap_or_default()).collect();
        assert_eq!(red_causes, [b3.as_str(), b2.as_str(), b1.as_str(), ""]);
        assert!(blue_history.as_array().unwrap().iter().chain(red_history.as_array().unwrap())
            .flat_map(|e| e["rolls"].as_array().unwrap()).all(|r| r["source"] == "player"));

        // Roll logs (step order 1–5 over the roster, then the purchase's extra die).
        assert_eq!(c.log(&blue_history[2]["rolls"]), [r("replacement", "Alpha", &[3]), r("replacement", "Vance", &[4]),
            r("resolve_change", "Alpha", &[1]), r("reinforcements", "Blue", &[2, 3])]);
        assert_eq!(c.log(&blue_history[1]["rolls"]), [r("replacement", "Alpha", &[2]), r("replacement", "Bravo", &[6]),
            r("quality_loss", "Bravo", &[1]), r("resolve_change", "Alpha", &[6]), r("resolve_change", "Bravo", &[4]),
            r("reinforcements", "Blue", &[1, 2]), r("reinforcements_extra", "Blue", &[4])]);
        assert_eq!(c.log(&blue_history[0]["rolls"]), [r("replacement", "Alpha", &[4]), r("replacement", "Golf", &[1]),
            r("quality_loss", "Alpha", &[2]), r("resolve_change", "Alpha", &[3]), r("resolve_change", "Golf", &[1]),
            r("reinforcements", "Blue", &[5, 6])]);
        assert_eq!(c.log(&red_history[2]["rolls"]), [r("replacement", "Charlie", &[5]), r("replacement", "Gun", &[4]),
            r("quality_loss", "Charlie", &[2]), r("quality_loss", "Gun", &[5]), r("resolve_change", "Charlie", &[5]),
            r("resolve_change", "Gun", &[3]), r("reinforcements", "Red", &[6, 6])]);
        assert_eq!(c.log(&red_history[1]["rolls"]), [r("replacement", "Eye", &[6]), r("replacement", "Foxtrot", &[3]),
            r("quality_loss", "Eye", &[3]), r("resolve_change", "Eye", &[2]), r("resolve_change", "Foxtrot", &[6]),
            r("reinforcements", "Red", &[3, 3])]);
        assert_eq!(c.log(&red_history[0]["rolls"]), [r("replacement", "Charlie", &[3]), r("resolve_change", "Charlie", &[2]),
            r("reinforcements", "Red", &[1, 1])]);

        // Diffs: battle start → committed roster. Units that ended as they started (Vance's
        // figure in battle 2, Gun's crew, Eye bought back to Steady, Golf in battle 3) show no
        // change.
        let s = |v: &str| json!(v);
        assert_eq!(diff_of(&blue_history[2]), (ch(&[("Alpha", &[("resolve", s("steady"), s("uncertain"))]),
            ("Vance", &[("leadership", s("novice"), s("experienced"))])]), vec![]));
        assert_eq!(diff_of(&blue_history[1]), (ch(&[("Alpha", &[("resolve", s("uncertain"), s("determined"))]),
            ("Bravo", &[("quality", s("conscript"), s("rabble"))])]), vec!["Golf".to_owned()]));
        assert_eq!(diff_of(&blue_history[0]), (ch(&[("Alpha", &[("quality", s("regular"), s("conscript"))])]), vec!["Hotel".to_owned()]));
        assert_eq!(diff_of(&red_history[2]), (ch(&[("Charlie", &[("quality", s("regular"), s("conscript")), ("resolve", s("steady"), s("determined"))])]),
            vec!["Foxtrot".to_owned()]));
        assert_eq!(diff_of(&red_history[1]), (ch(&[("Charlie", &[("quality", s("conscript"), s("regular"))]),
            ("Foxtrot", &[("resolve", s("uncertain"), s("steady"))])]), vec![]));
        assert_eq!(diff_of(&red_history[0]), (ch(&[("Charlie", &[("resolve", s("determined"), s("steady"))])]), vec![]));

        // Standings: three complete battles each; a win, a draw and a loss each (C20: recorded
        // only); 6 CP earned each.
        let standings = get(app, &c.people.organiser, &format!("/api/v1/campaigns/{}/standings", c.world.campaign_id));
        let row = |id: &str| standings["forces"].as_array().unwrap().iter().find(|r| r["force_id"] == id).unwrap().clone();
        let line = |r: &Value| ["battles", "wins", "draws", "losses", "campaign_points"].map(|k| r[k].as_i64().unwrap());
        assert_eq!(line(&row(&blue)), [3, 1, 1, 1, 6]);
        assert_eq!(line(&row(&red)), [3, 1, 1, 1, 6]);
        assert_eq!(row(&blue)["roster_points"], blue_now["points"]);
        assert_eq!(row(&red)["roster_points"], red_now["points"]);
    }

    fn two_battles_with_server_dice_are_explained_by_the_stored_roll_log(app: &TestApp) {
        let c = Campaign::new(app);
        let (owner, player) = (&c.people.owner, &c.people.player);
        for (n, losses) in [
            [("Alpha", 5, false), ("Bravo", 6, true), ("Vance", 1, true), ("Charlie", 3, false), ("Gun", 3, true), ("Eye", 1, true)],
            [("Alpha", 2, false), ("Bravo", 1, false), ("Vance", 0, false), ("Charlie", 8, true), ("Gun", 1, false), ("Eye", 0, false)],
        ].into_iter().enumerate() {
            let losses: Vec<(&str, u32, bool)> = losses.into_iter().filter(|(_, lost, _)| *lost > 0).collect();
            // Battle 2's losses must fit the rosters battle 1 left: a unit that is not back on
            // the table loses nothing.
            let before: BTreeMap<&str, Value> = [(&c.blue, owner), (&c.red, player)].iter()
                .flat_map(|(id, user)| { let roster = get(app, user, &format!("/api/v1/forces/{id}"));
                    ["Alpha", "Bravo", "Vance", "Charlie", "Gun", "Eye"].into_iter()
                        .filter_map(move |name| roster["platoons"][0]["units"].as_array().unwrap().iter()
                            .find(|u| u["name"] == name).map(|u| (name, u.clone()))) })
                .collect();
            let losses: Vec<(&str, u32, bool)> = losses.into_iter()
                .filter_map(|(name, lost, wiped)| {
                    let have = u32::try_from(before[name]["strength"].as_u64().unwrap()).unwrap();
                    let lost = lost.min(have);
                    (lost > 0).then_some((name, lost, wiped || lost == have))
                })
                .collect();
            let battle = c.battle(app, "draw", None, &losses);
            for (force, user) in [(&c.blue, owner), (&c.red, player)] {
                let rolled = ok(post(app, user, &step_path(&battle, force, "roll"), &json!({})));
                let done = ok(post(app, user, &step_path(&battle, force, "finalize"), &json!({"forgo_reinforcements": true})));
                let after = get(app, user, &format!("/api/v1/forces/{force}"));
                let history = get(app, user, &format!("/api/v1/forces/{force}/history"));
                let entry = &history["entries"][0];
                let stored = get(app, &c.people.organiser, &format!("/api/v1/battles/{battle}/aftermath/{force}"));
                // The stored log is the log the roll returned, and the one in the history.
                assert_eq!(stored["outcome"]["rolls"], rolled["rolls"], "battle {n}");
                assert_eq!(entry["rolls"], rolled["rolls"]);
                assert_eq!(entry["cause"]["id"], battle.as_str());
                let rolls = rolled["rolls"].as_array().unwrap();
                assert!(rolls.iter().all(|r| r["source"] == "server" && r["force_id"] == force.as_str()));
                let roll = |step: &str, id: &str| rolls.iter().filter(|r| r["step"] == step && r["subject"] == id)
                    .map(|r| u8::try_from(r["values"][0].as_u64().unwrap()).unwrap()).collect::<Vec<u8>>();
                // Every unit of the force, from its battle-start state and the logged rolls
                // (docs/rules.md §2.2, §2.3; no purchases and no reinforcements, so nothing else
                // changes it).
                let start = get(app, user, &format!("/api/v1/forces/{force}/history/{}", history["entries"][1]["id"].as_str().unwrap()))["roster"].clone();
                for u in start["platoons"][0]["units"].as_array().unwrap() {
                    let id = u["id"].as_str().unwrap();
                    let name = u["name"].as_str().unwrap();
                    let lost = losses.iter().find(|(n, _, _)| *n == name).map_or(0, |(_, l, _)| *l);
                    let e = u32::try_from(u["starting_strength"].as_u64().unwrap()).unwrap();
                    let start_strength = u32::try_from(u["strength"].as_u64().unwrap()).unwrap();
                    let after_losses = start_strength - lost;
                    let replacement = roll("replacement", id);
                    // Step 1 (C3–C5): a roll exactly when the unit lost figures.
                    assert_eq!(replacement.len(), usize::from(lost > 0), "{name}: {replacement:?}");
                    let replaced = match replacement.first() {
                        None => 0,
                        Some(&d) if e == 1 && d >= 5 => e - after_losses,
                        Some(_) if e == 1 => 0,
                        Some(1 | 2) => 0,
                        Some(3 | 4) => lost.div_ceil(2).min(e - after_losses),
                        Some(_) => e - after_losses,
                    };
                    let strength = after_losses + replaced;
                    // Step 3 (C7): a quality roll exactly when 2·R ≥ E.
                    let quality_rolls = roll("quality_loss", id);
                    assert_eq!(quality_rolls.len(), usize::from(replaced > 0 && 2 * replaced >= e), "{name}");
                    let ladder = ["rabble", "conscript", "regular", "elite"];
                    let mut q = ladder.iter().position(|x| *x == u["quality"]).unwrap();
                    if quality_rolls.first().is_some_and(|d| *d <= 2) { q = q.saturating_sub(1); }
                    // Step 4 (C15, C6): a resolve roll exactly when it lost figures and is back.
                    let resolve_rolls = roll("resolve_change", id);
                    assert_eq!(resolve_rolls.len(), usize::from(lost > 0 && strength > 0), "{name}");
                    let resolves = ["reluctant", "uncertain", "steady", "determined"];
                    let mut rv = resolves.iter().position(|x| *x == u["resolve"]).unwrap();
                    match resolve_rolls.first() {
                        Some(1 | 2) => rv = rv.saturating_sub(1),
                        Some(5 | 6) => rv = (rv + 1).min(3),
                        _ => {}
                    }
                    let now = unit(&after, name);
                    assert_eq!(now["strength"].as_u64(), Some(u64::from(strength)), "{name} in battle {n}");
                    assert_eq!(now["quality"], ladder[q], "{name} in battle {n}");
                    assert_eq!(now["resolve"], resolves[rv], "{name} in battle {n}");
                    assert_eq!(now["status"], if strength > 0 { "active" } else { "eliminated" }, "{name} in battle {n}");
                }
                // Step 5: one 2d6 pool, its total in the outcome; nothing else was rolled.
                let pool = rolls.iter().filter(|r| r["step"] == "reinforcements").collect::<Vec<_>>();
                assert_eq!(pool.len(), 1);
                assert_eq!(pool[0]["values"].as_array().unwrap().len(), 2);
                assert_eq!(done["outcome"]["reinforcements"]["total"], pool[0]["total"]);
                let explained = ["replacement", "quality_loss", "resolve_change", "reinforcements"];
                assert!(rolls.iter().all(|r| explained.contains(&r["step"].as_str().unwrap())), "{rolls:?}");
                // Step 6: 2 CP per battle (P = 1), nothing spent.
                let ledger = get(app, user, &format!("/api/v1/forces/{force}/ledger"));
                assert_eq!(ledger["balance"].as_i64(), Some(2 * (i64::try_from(n).unwrap() + 1)));
            }
        }
    }
}
