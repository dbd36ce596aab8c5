//! Unit ids are the server's: a force can never take another force's unit id, and a result's
//! loss line names exactly one unit of the battle's two forces. The attack: copy the opponent's
//! unit id into your own force, then record a result so the opponent's losses land on your
//! unit (or yours on theirs). On both backends.

use diesel::prelude::*;
use serde_json::{Value, json};

use crate::battle_scenarios::Game;
use crate::common::{TestApp, assert_problem, unit_id};

fn ids(force: &Value) -> Vec<String> {
    force["platoons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["units"].as_array().unwrap())
        .map(|u| u["id"].as_str().unwrap().to_owned())
        .collect()
}

fn squad(name: &str, id: Option<&str>) -> Value {
    let mut unit = json!({"name": name, "kind": "squad", "quality": "regular", "resolve": "steady",
        "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"});
    if let Some(id) = id {
        unit["id"] = json!(id);
    }
    unit
}

fn result_path(battle: &str) -> String {
    format!("/api/v1/battles/{battle}/result")
}

both_backends! {
    fn a_force_never_takes_another_forces_unit_id_and_losses_land_on_the_right_unit(app: &TestApp) {
        let g = Game::new(app);
        let (owner, player) = (&g.people.owner, &g.people.player);
        let campaign = &g.world.campaign_id;
        let alpha = unit_id(&g.blue, "Alpha");
        let (delta, echo) = (unit_id(&g.red, "Delta"), unit_id(&g.red, "Echo"));

        // Create: Red sends Blue's Alpha id for a unit of a new force; the server assigns its own.
        let copy = crate::forces::create_force(app, player, campaign,
            &json!({"name": "Copycat", "platoons": [{"name": "1st", "units": [squad("Mimic", Some(&alpha))]}]}));
        let copy_ids = ids(&copy);
        assert_eq!(copy_ids.len(), 1);
        assert_ne!(copy_ids[0], alpha, "a client-chosen id was kept: {copy}");

        // Import: the exported Blue roster's ids are renewed as well.
        let exported: Value = app.get_with_token(&format!("/api/v1/forces/{}/export", g.blue_id()), &player.token).json().unwrap();
        let r = app.post_json_with_token(&format!("/api/v1/campaigns/{campaign}/forces/import"), &exported, &player.token);
        assert_eq!(r.status(), 201, "{}", r.text().unwrap());
        let imported: Value = r.json().unwrap();
        assert!(ids(&imported).iter().all(|id| !ids(&g.blue).contains(id)), "{imported}");

        // Edit: Red's own force with Blue's Alpha id as a third unit is refused, naming the field;
        // so is one of Red's own ids used twice.
        let edit = |units: Vec<Value>| json!({"version": 1, "name": "Red", "platoons": [{"name": "1st Platoon", "units": units}]});
        let put = |body: &Value| app.put_json_with_token(&format!("/api/v1/forces/{}", g.red_id()), body, &player.token);
        let p = assert_problem(put(&edit(vec![squad("Delta", Some(&delta)), squad("Echo", Some(&echo)), squad("Mimic", Some(&alpha))])), 422);
        assert_eq!(p["errors"][0]["field"], "platoons[0].units[2].id", "{p}");
        let p = assert_problem(put(&edit(vec![squad("Delta", Some(&delta)), squad("Echo", Some(&delta))])), 422);
        assert_eq!(p["errors"][0]["field"], "platoons[0].units[1].id", "{p}");
        // A unit without id is new and gets a fresh id; the known ones stay.
        let r = put(&edit(vec![squad("Delta", Some(&delta)), squad("Echo", Some(&echo)), squad("Foxtrot", None)]));
        assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        let red: Value = r.json().unwrap();
        let red_ids = ids(&red);
        assert_eq!(&red_ids[..2], &[delta.clone(), echo.clone()]);
        assert!(!ids(&g.blue).contains(&red_ids[2]));

        // The result: a duplicate line and a unit of neither force are refused, naming the line;
        // nothing is recorded.
        let path = result_path(&g.battle);
        let organiser = &g.people.organiser;
        let p = assert_problem(app.post_json_with_token(&path, &json!({"outcome": "draw", "losses": [
            {"unit_id": alpha, "figures_lost": 1}, {"unit_id": alpha, "figures_lost": 2}]}), &organiser.token), 422);
        assert_eq!(p["errors"][0]["field"], "losses[1].unit_id", "{p}");
        let p = assert_problem(app.post_json_with_token(&path, &json!({"outcome": "draw", "losses": [
            {"unit_id": copy_ids[0], "figures_lost": 1}]}), &organiser.token), 422);
        assert_eq!(p["errors"][0]["field"], "losses[0].unit_id", "{p}");
        let battle: Value = app.get_with_token(&format!("/api/v1/battles/{}", g.battle), &owner.token).json().unwrap();
        assert_eq!(battle["state"], "scenario");
        assert_eq!(battle["result"], Value::Null);

        // Alpha's losses land on Blue's Alpha, Delta's on Red's Delta.
        let r = app.post_json_with_token(&path, &json!({"outcome": "draw", "losses": [
            {"unit_id": alpha, "figures_lost": 2}, {"unit_id": delta, "figures_lost": 1}]}), &organiser.token);
        assert_eq!(r.status(), 200, "{}", r.text().unwrap());
        let battle: Value = r.json().unwrap();
        assert_eq!(battle["result"]["losses"], json!([
            {"force_id": g.blue_id(), "unit_id": alpha, "figures_lost": 2, "eliminated": false, "vehicle_damage": null, "destroyed_on_recon": false},
            {"force_id": g.red_id(), "unit_id": delta, "figures_lost": 1, "eliminated": false, "vehicle_damage": null, "destroyed_on_recon": false},
        ]));
    }

    fn a_loss_line_whose_unit_id_two_forces_share_is_refused(app: &TestApp) {
        // A force stored before ids were the server's may share a unit id with its opponent.
        let g = Game::new(app);
        let alpha = unit_id(&g.blue, "Alpha");
        let delta = unit_id(&g.red, "Delta");
        let mut conn = app.db.connect();
        diesel::sql_query(format!(
            "UPDATE forces SET roster = REPLACE(roster, '{delta}', '{alpha}') WHERE id = '{}'",
            g.red_id()
        ))
        .execute(&mut conn)
        .unwrap();
        let red: Value = app.get_with_token(&format!("/api/v1/forces/{}", g.red_id()), &g.people.player.token).json().unwrap();
        assert!(ids(&red).contains(&alpha), "{red}");

        let path = result_path(&g.battle);
        let p = assert_problem(app.post_json_with_token(&path, &json!({"outcome": "draw", "losses": [
            {"unit_id": alpha, "figures_lost": 1}]}), &g.people.player.token), 422);
        assert_eq!(p["errors"][0]["field"], "losses[0].unit_id", "{p}");
        let battle: Value = app.get_with_token(&format!("/api/v1/battles/{}", g.battle), &g.people.owner.token).json().unwrap();
        assert_eq!(battle["state"], "scenario");
        assert_eq!(battle["result"], Value::Null);
    }
}
