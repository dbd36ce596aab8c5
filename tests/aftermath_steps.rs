//! The post-battle rolls as players make them at the table (docs/rules.md §2.1, §2.2, §4.1):
//! one step per request with the next step's dice listed, entered
//! dice of the wrong count refused, unused values kept, Unknown Resolve, and the new squad
//! modelled on a named squad. Expected values are computed by hand from the tables.

use crate::battles::{
    Table, create_battle, get, ok, post, post_keyed, record_and_confirm, step_path, unit, unit_id,
};
use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem};
use serde_json::{Value, json};

fn view_path(battle: &str, force: &str) -> String {
    format!("/api/v1/battles/{battle}/aftermath/{force}")
}

fn fields(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_owned())
        .collect()
}

fn steps_of(rolls: &Value) -> Vec<(String, Vec<u64>)> {
    rolls
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["step"].as_str().unwrap().to_owned(),
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

/// `(step, subject, unit_name, dice)` of each entry of `next_dice`.
fn next_dice(view: &Value) -> Vec<(String, String, Value, String)> {
    view["next_dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert!(d["why"].as_str().is_some_and(|w| !w.is_empty()), "{d}");
            (
                d["step"].as_str().unwrap().to_owned(),
                d["subject"].as_str().unwrap().to_owned(),
                d["unit_name"].clone(),
                d["dice"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn due(
    step: &str,
    subject: &str,
    name: Option<&str>,
    dice: &str,
) -> (String, String, Value, String) {
    (
        step.to_owned(),
        subject.to_owned(),
        json!(name),
        dice.to_owned(),
    )
}

/// A force of `units` owned by `owner` against a one-squad force owned by `player`, in a fresh
/// campaign; the battle's result (`losses` on the first force) recorded and confirmed.
struct Fought {
    people: People,
    force: Value,
    battle: String,
}

impl Fought {
    fn new(app: &TestApp, units: Value, losses: impl Fn(&Value) -> Value) -> Self {
        let people = People::register(app);
        let world = World::build(app, &people);
        let force = crate::forces::create_force(
            app,
            &people.owner,
            &world.campaign_id,
            &json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": units}]}),
        );
        let red = crate::forces::create_force(
            app,
            &people.player,
            &world.campaign_id,
            &json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
                {"name": "Charlie", "kind": "squad", "quality": "regular", "resolve": "steady",
                 "strength": 8, "starting_strength": 8}]}]}),
        );
        let battle = ok(post(
            app,
            &people.owner,
            &format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": force["id"]}, {"force_id": red["id"]}]}),
        ));
        let battle = battle["id"].as_str().unwrap().to_owned();
        ok(post(
            app,
            &people.owner,
            &format!("/api/v1/battles/{battle}/result"),
            &json!({"outcome": "draw", "losses": losses(&force)}),
        ));
        ok(post(
            app,
            &people.player,
            &format!("/api/v1/battles/{battle}/result/confirm"),
            &json!({}),
        ));
        Self {
            people,
            force,
            battle,
        }
    }

    fn id(&self) -> &str {
        self.force["id"].as_str().unwrap()
    }
}

both_backends! {
    fn wrong_number_of_entered_dice_is_refused_naming_the_field_and_nothing_is_rolled(app: &TestApp) {
        // Arrange: Alpha (E = 8) lost 5.
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");
        let roll = step_path(&battle, &blue, "roll");

        // Act
        let two_for_one = post(app, &t.people.owner, &roll,
            &json!({"dice": {"replacement": {alpha.as_str(): [4, 5]}}}));
        let one_for_two = post(app, &t.people.owner, &roll,
            &json!({"dice": {"reinforcements": {blue.as_str(): [3]}}}));
        let untouched = get(app, &t.people.owner, &view_path(&battle, &blue));
        let rolled = ok(post(app, &t.people.owner, &roll,
            &json!({"dice": {"replacement": {alpha.as_str(): [4]}, "reinforcements": {blue.as_str(): [3, 4]}}})));

        // Assert
        let problem = assert_problem(two_for_one, 422);
        assert_eq!(fields(&problem), [format!("dice.replacement.{alpha}")]);
        let message = problem["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("Enter 1 die") && message.contains("2 were entered"), "{message}");
        assert!(!message.contains("value(s)") && !message.contains("dice."), "{message}");
        let problem = assert_problem(one_for_two, 422);
        assert_eq!(fields(&problem), [format!("dice.reinforcements.{blue}")]);
        assert_eq!(untouched["stage"], "open");
        assert_eq!(untouched["outcome"], Value::Null);
        // Replacement 4 → ceil(5/2) = 3 back: 6 figures; pool 3 + 4 = 7.
        assert_eq!(steps_of(&rolled["rolls"])[0], ("replacement".to_owned(), vec![4]));
        assert_eq!(unit(&rolled["outcome"]["roster"], "Alpha")["strength"], 6);
        assert_eq!(rolled["pending"]["pool_total"], 7);
    }

    fn unused_entered_dice_stay_readable_on_the_sequences_get(app: &TestApp) {
        // Arrange
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");

        // Act: replacement 4 → R = 3, 2·3 < 8: no quality roll, the entered 2 is unused (C7).
        let rolled = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"),
            &json!({"dice": {"replacement": {alpha.as_str(): [4]}, "quality_loss": {alpha.as_str(): [2]}}})));
        let later = get(app, &t.people.owner, &view_path(&battle, &blue));

        // Assert
        let expected = json!({"quality_loss": {alpha.as_str(): [2]}});
        assert_eq!(rolled["unused_dice"], expected);
        assert_eq!(later["unused_dice"], expected);
    }

    fn c7_rolls_go_step_by_step_in_the_order_of_the_table_listing_each_steps_dice(app: &TestApp) {
        // Arrange: Alpha (Regular, Steady, E = 8) lost 5; Bravo lost nothing.
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");
        let roll = step_path(&battle, &blue, "roll");
        let owner = &t.people.owner;

        // Act
        let before = get(app, owner, &view_path(&battle, &blue));
        let out_of_order = post(app, owner, &roll, &json!({"step": "quality_loss"}));
        let other_steps_dice = post(app, owner, &roll,
            &json!({"step": "replacement", "dice": {"replacement": {alpha.as_str(): [5]}, "quality_loss": {alpha.as_str(): [1]}}}));
        let unknown_step = post(app, owner, &roll, &json!({"step": "initiative"}));
        // 5 → back to full strength: R = 5, 2·5 ≥ 8, so the quality roll is due (C7).
        let body = json!({"step": "replacement", "dice": {"replacement": {alpha.as_str(): [5]}}});
        let replaced = ok(post_keyed(app, owner, &roll, &body, "step-1"));
        let replayed = ok(post_keyed(app, owner, &roll, &body, "step-1"));
        let again = post(app, owner, &roll, &json!({"step": "replacement"}));
        let buy_early = post(app, owner, &step_path(&battle, &blue, "purchases"), &json!({"purchases": []}));
        let quality = ok(post(app, owner, &roll,
            &json!({"step": "quality_loss", "dice": {"quality_loss": {alpha.as_str(): [1]}}})));
        let resolve = ok(post(app, owner, &roll,
            &json!({"step": "resolve_change", "dice": {"resolve_change": {alpha.as_str(): [6]}}})));
        let rest = ok(post(app, owner, &roll, &json!({"dice": {"reinforcements": {blue.as_str(): [3, 4]}}})));
        let after = get(app, owner, &view_path(&battle, &blue));

        // Assert
        assert_eq!(before["stage"], "open");
        assert_eq!(before["next_step"], "replacement");
        assert_eq!(next_dice(&before), [due("replacement", &alpha, Some("Alpha"), "1d6")]);
        assert_problem(out_of_order, 409);
        assert_eq!(fields(&assert_problem(other_steps_dice, 422)), ["dice.quality_loss"]);
        assert_eq!(fields(&assert_problem(unknown_step, 422)), ["step"]);
        assert_eq!(replaced["stage"], "rolling");
        assert_eq!(steps_of(&replaced["rolls"]), [("replacement".to_owned(), vec![5])]);
        assert_eq!(unit(&replaced["outcome"]["roster"], "Alpha")["strength"], 8);
        assert_eq!(replaced["next_step"], "quality_loss");
        assert_eq!(next_dice(&replaced), [due("quality_loss", &alpha, Some("Alpha"), "1d6")]);
        assert_eq!(replayed, replaced, "the same key replays the first answer");
        assert_problem(again, 409);
        assert_problem(buy_early, 409);
        // Quality 1 → Regular drops to Conscript; resolve 6 → Determined.
        assert_eq!(unit(&quality["outcome"]["roster"], "Alpha")["quality"], "conscript");
        assert_eq!(next_dice(&quality), [due("resolve_change", &alpha, Some("Alpha"), "1d6")]);
        assert_eq!(unit(&resolve["outcome"]["roster"], "Alpha")["resolve"], "determined");
        assert_eq!(next_dice(&resolve), [due("reinforcements", &blue, None, "2d6")]);
        assert_eq!(rest["stage"], "rolled");
        assert_eq!(rest["next_step"], Value::Null);
        assert_eq!(rest["next_dice"], json!([]));
        assert_eq!(rest["pending"]["pool_total"], 7);
        let logged: Vec<String> = steps_of(&after["outcome"]["rolls"]).into_iter().map(|(s, _)| s).collect();
        assert_eq!(logged, ["replacement", "quality_loss", "resolve_change", "reinforcements"]);
        assert!(after["outcome"]["rolls"].as_array().unwrap().iter().all(|r| r["source"] == "player"));
    }

    fn unknown_resolve_4_1_is_rolled_when_the_unit_first_takes_casualties_and_not_bought_before(app: &TestApp) {
        // Arrange: Echo and Foxtrot have unknown Resolve; Echo lost 2 of 8.
        let f = Fought::new(app, json!([
            {"name": "Echo", "kind": "squad", "quality": "regular", "resolve": null, "strength": 8, "starting_strength": 8},
            {"name": "Foxtrot", "kind": "squad", "quality": "conscript", "resolve": null, "strength": 6, "starting_strength": 6}
        ]), |force| json!([{"unit_id": unit_id(force, "Echo"), "figures_lost": 2, "eliminated": false, "vehicle_damage": null}]));
        let (echo, foxtrot) = (unit_id(&f.force, "Echo"), unit_id(&f.force, "Foxtrot"));
        let roll = step_path(&f.battle, f.id(), "roll");
        let owner = &f.people.owner;

        // Act: replacement 1 → none (R = 0, no quality roll); Resolve rolled 1 → Uncertain;
        // resolve change 6 → Steady; pool 2 + 2.
        let replaced = ok(post(app, owner, &roll, &json!({"step": "replacement", "dice": {"replacement": {echo.as_str(): [1]}}})));
        let rolled_resolve = ok(post(app, owner, &roll, &json!({"step": "unknown_resolve", "dice": {"unknown_resolve": {echo.as_str(): [1]}}})));
        let rest = ok(post(app, owner, &roll, &json!({"dice": {"resolve_change": {echo.as_str(): [6]}, "reinforcements": {f.id(): [2, 2]}}})));
        let refused = post(app, owner, &step_path(&f.battle, f.id(), "purchases"),
            &json!({"purchases": [{"item": "improve_resolve", "unit_id": foxtrot}]}));
        ok(post(app, owner, &step_path(&f.battle, f.id(), "purchases"),
            &json!({"purchases": [{"item": "improve_resolve", "unit_id": echo}]})));
        ok(post(app, owner, &step_path(&f.battle, f.id(), "finalize"), &json!({"forgo_reinforcements": true})));
        let now = get(app, owner, &format!("/api/v1/forces/{}", f.id()));

        // Assert
        assert_eq!(replaced["next_step"], "unknown_resolve");
        assert_eq!(next_dice(&replaced), [due("unknown_resolve", &echo, Some("Echo"), "1d6")]);
        assert_eq!(unit(&rolled_resolve["outcome"]["roster"], "Echo")["resolve"], "uncertain");
        assert_eq!(steps_of(&rolled_resolve["rolls"]), [("unknown_resolve".to_owned(), vec![1])]);
        assert_eq!(next_dice(&rolled_resolve), [due("resolve_change", &echo, Some("Echo"), "1d6")]);
        assert_eq!(unit(&rest["outcome"]["roster"], "Echo")["resolve"], "steady");
        assert_eq!(unit(&rest["outcome"]["roster"], "Foxtrot")["resolve"], Value::Null);
        let problem = assert_problem(refused, 422);
        assert_eq!(fields(&problem), ["purchases[0].unit_id"]);
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("unknown"), "{problem}");
        // Steady + 1 CP → Determined; Foxtrot still unknown.
        assert_eq!(unit(&now, "Echo")["resolve"], "determined");
        assert_eq!(unit(&now, "Foxtrot")["resolve"], Value::Null);
    }

    fn c10_the_new_squad_copies_the_kit_of_the_squad_it_is_modelled_on(app: &TestApp) {
        // Arrange: Alpha (Gauss, heavy armour, SAW) lost 5; Bravo carries low-tech rifles.
        let f = Fought::new(app, json!([
            {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady", "strength": 8, "starting_strength": 8,
             "armour": "heavy", "basic_weapon": "gauss_rifles", "support_weapons": ["squad_automatic_weapon"]},
            {"name": "Bravo", "kind": "squad", "quality": "conscript", "resolve": "steady", "strength": 6, "starting_strength": 6,
             "armour": "light", "basic_weapon": "low_tech_rifles"}
        ]), |force| json!([{"unit_id": unit_id(force, "Alpha"), "figures_lost": 5, "eliminated": false, "vehicle_damage": null}]));
        let (alpha, bravo) = (unit_id(&f.force, "Alpha"), unit_id(&f.force, "Bravo"));
        let owner = &f.people.owner;
        let reinforce = step_path(&f.battle, f.id(), "reinforcements");
        // Replacement 1 → none; resolve 3 → same; pool 4 + 4 = 8.
        ok(post(app, owner, &step_path(&f.battle, f.id(), "roll"), &json!({"dice": {
            "replacement": {alpha.as_str(): [1]}, "resolve_change": {alpha.as_str(): [3]}, "reinforcements": {f.id(): [4, 4]}}})));

        // Act
        let not_a_squad = post(app, owner, &reinforce,
            &json!({"allocations": [], "new_squad": {"name": "Delta", "troopers": 5, "modelled_on": f.id()}}));
        let modelled = ok(post(app, owner, &reinforce,
            &json!({"allocations": [], "new_squad": {"name": "Delta", "troopers": 5, "modelled_on": bravo}})));
        let typical = ok(post(app, owner, &reinforce,
            &json!({"allocations": [], "new_squad": {"name": "Delta", "troopers": 5}})));

        // Assert
        assert_eq!(fields(&assert_problem(not_a_squad, 422)), ["new_squad.modelled_on"]);
        let formed = &modelled["outcome"]["reinforcements"]["formed"];
        assert_eq!(formed["modelled_on"], bravo.as_str());
        assert_eq!(formed["modelled_on_name"], "Bravo");
        assert_eq!((formed["name"].as_str(), formed["troopers"].as_u64()), (Some("Delta"), Some(5)));
        assert_eq!((formed["quality"].as_str(), formed["resolve"].as_str()), (Some("conscript"), Some("uncertain")));
        assert_eq!((formed["armour"].as_str(), formed["basic_weapon"].as_str()), (Some("light"), Some("low_tech_rifles")));
        assert_eq!(formed["support_weapons"], json!([]));
        assert_eq!(unit(&modelled["outcome"]["roster"], "Delta")["basic_weapon"], "low_tech_rifles");
        // Without a model: the platoon's typical squad, the first on a tie (Alpha).
        let formed = &typical["outcome"]["reinforcements"]["formed"];
        assert_eq!(formed["modelled_on"], alpha.as_str());
        assert_eq!((formed["armour"].as_str(), formed["basic_weapon"].as_str()), (Some("heavy"), Some("gauss_rifles")));
        assert_eq!(formed["support_weapons"], json!(["squad_automatic_weapon"]));
    }
}
