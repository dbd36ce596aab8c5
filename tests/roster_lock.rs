//! Rosters locked after play (campaign setting `lock_rosters_after_play`, default on): once a
//! force has fought, an edit outside the post-battle sequence that raises Quality, Resolve,
//! strength or points needs the organiser, with a reason recorded in the force's history;
//! lowering and renaming stay free.

use crate::battles::{Table, create_battle, get, ok, record_and_confirm};
use crate::common::{TestApp, assert_problem};
use reqwest::blocking::Response;
use serde_json::{Value, json};

use crate::auth::TestUser;

/// PUTs the force as `user` after `change` (Alpha is unit 0, Bravo unit 1).
fn edit(app: &TestApp, t: &Table, user: &TestUser, change: impl Fn(&mut Value)) -> Response {
    let path = format!("/api/v1/forces/{}", t.blue_id());
    let mut force = get(app, user, &path);
    let mut body = json!({"version": force["version"], "name": force["name"]});
    change(&mut force);
    body["platoons"] = force["platoons"].clone();
    if let Some(reason) = force.get("reason") {
        body["reason"] = reason.clone();
    }
    app.put_json_with_token(&path, &body, &user.token)
}

fn fields(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_owned())
        .collect()
}

both_backends! {
    fn rosters_locked_after_play_need_the_organiser_with_a_reason_to_raise(app: &TestApp) {
        // Arrange: Blue (owner): Alpha Regular 8/8, Bravo Conscript 6/6.
        let t = Table::new(app);
        let (owner, organiser) = (&t.people.owner, &t.people.organiser);
        let bravo_quality = |q: &'static str| move |f: &mut Value| f["platoons"][0]["units"][1]["quality"] = json!(q);

        // Act
        let before_play = edit(app, &t, owner, bravo_quality("regular"));
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let raised = edit(app, &t, owner, |f| {
            f["platoons"][0]["units"][1]["quality"] = json!("elite");
            f["platoons"][0]["units"][1]["starting_strength"] = json!(10);
        });
        let unchanged = get(app, owner, &format!("/api/v1/forces/{}", t.blue_id()));
        let lowered = edit(app, &t, owner, |f| {
            f["platoons"][0]["units"][1]["name"] = json!("Bravo Prime");
            f["platoons"][0]["units"][1]["armour"] = json!("light");
        });
        let no_reason = edit(app, &t, organiser, bravo_quality("elite"));
        let corrected = edit(app, &t, organiser, |f| {
            f["platoons"][0]["units"][1]["quality"] = json!("elite");
            f["reason"] = json!("Club ruling: Bravo was entered as Conscript by mistake");
        });
        let history = get(app, owner, &format!("/api/v1/forces/{}/history", t.blue_id()));
        let settings_path = format!("/api/v1/campaigns/{}/settings", t.world.campaign_id);
        let settings = get(app, organiser, &settings_path);
        let unlocked = ok(app.put_json_with_token(&settings_path,
            &json!({"version": settings["version"], "house_rules": settings["house_rules"],
                    "results_need_confirmation": true, "lock_rosters_after_play": false}),
            &organiser.token));
        let free_again = edit(app, &t, owner, |f| f["platoons"][0]["units"][0]["quality"] = json!("elite"));

        // Assert
        assert_eq!(before_play.status(), 200, "free before the first battle");
        assert_eq!(settings["lock_rosters_after_play"], true, "on by default");
        let problem = assert_problem(raised, 422);
        assert_eq!(fields(&problem), ["platoons[0].units[1].quality", "platoons[0].units[1].starting_strength"]);
        let message = problem["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("Regular") || message.contains("regular"), "{message}");
        assert!(message.contains("organiser"), "{message}");
        assert_eq!(crate::battles::unit(&unchanged, "Bravo")["quality"], "regular");
        assert_eq!(lowered.status(), 200, "{}", lowered.text().unwrap());
        assert_eq!(fields(&assert_problem(no_reason, 422)), ["reason"]);
        let corrected = ok(corrected);
        assert_eq!(crate::battles::unit(&corrected, "Bravo Prime")["quality"], "elite");
        let newest = &history["entries"][0];
        assert_eq!(newest["cause"]["kind"], "correction");
        assert_eq!(newest["actor_id"], organiser.id.as_str());
        assert_eq!(newest["diff"]["reason"], "Club ruling: Bravo was entered as Conscript by mistake");
        assert_eq!(unlocked["lock_rosters_after_play"], false);
        assert_eq!(free_again.status(), 200, "{}", free_again.text().unwrap());
    }
}
