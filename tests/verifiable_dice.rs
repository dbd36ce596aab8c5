//! Verifiable server dice: every rolling path offers a commitment (the SHA-256 of a fresh seed)
//! before it rolls, uses exactly that seed (mixed with the request's `client_seed`), reveals it
//! in each roll's `proof`, and offers the next one. The values are recomputed here by an
//! implementation of the documented derivation written against SHA-256 alone, and
//! `POST /api/v1/dice/verify` must agree, and must disagree once a value or the seed is changed.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::battles::{Table, create_battle, get, ok, post, record_and_confirm, step_path, unit_id};
use crate::common::{TestApp, assert_problem};

/// The documented derivation, independently: key = SHA-256(seed ‖ client seed); die k of s
/// sides from SHA-256(key ‖ k (8 bytes BE) ‖ attempt (4 bytes BE)), first 4 bytes BE, below
/// 2³² − 2³² mod s, mod s, + 1.
fn faces(
    seed_hex: &str,
    client_seed: Option<&str>,
    first_die: u64,
    dice: &[(u32, u64)],
) -> Vec<Vec<u8>> {
    let seed: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&seed_hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let key = Sha256::new()
        .chain_update(&seed)
        .chain_update(client_seed.unwrap_or("").as_bytes())
        .finalize();
    let mut k = first_die;
    dice.iter()
        .map(|&(count, sides)| {
            (0..count)
                .map(|_| {
                    let face = (0u32..)
                        .find_map(|attempt| {
                            let h = Sha256::new()
                                .chain_update(key)
                                .chain_update(k.to_be_bytes())
                                .chain_update(attempt.to_be_bytes())
                                .finalize();
                            let x = u64::from(u32::from_be_bytes([h[0], h[1], h[2], h[3]]));
                            (x < (1u64 << 32) - (1u64 << 32) % sides).then(|| (x % sides) as u8 + 1)
                        })
                        .unwrap();
                    k += 1;
                    face
                })
                .collect()
        })
        .collect()
}

fn sha256_hex(seed_hex: &str) -> String {
    let seed: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&seed_hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    Sha256::digest(&seed)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn count_and_sides(dice: &str) -> (u32, u64) {
    let (n, s) = dice.split_once('d').unwrap();
    (n.parse().unwrap(), s.parse().unwrap())
}

/// Checks every server roll of `rolls` against `commitment` (`{id, sha256}`) and the client
/// seed, recomputing the values from the revealed seed; returns how many it checked.
#[track_caller]
fn check_rolls(rolls: &[Value], commitment: &Value, client_seed: Option<&str>) -> usize {
    let server: Vec<&Value> = rolls.iter().filter(|r| r["source"] == "server").collect();
    for roll in &server {
        let proof = &roll["proof"];
        assert_eq!(proof["commitment_id"], commitment["id"], "{roll}");
        let seed = proof["seed"].as_str().unwrap();
        assert_eq!(
            sha256_hex(seed),
            commitment["sha256"].as_str().unwrap(),
            "the seed hashes to the commitment"
        );
        assert_eq!(proof["client_seed"].as_str(), client_seed);
        let first = proof["first_die"].as_u64().unwrap();
        let again = faces(
            seed,
            client_seed,
            first,
            &[count_and_sides(roll["dice"].as_str().unwrap())],
        );
        let logged: Vec<u8> = serde_json::from_value(roll["values"].clone()).unwrap();
        assert_eq!(again[0], logged, "recomputed {roll}");
    }
    for roll in rolls.iter().filter(|r| r["source"] == "player") {
        assert!(
            roll.get("proof").is_none(),
            "entered dice carry no proof: {roll}"
        );
    }
    server.len()
}

fn verify(app: &TestApp, body: &Value) -> Value {
    let r = app.post_json("/api/v1/dice/verify", body);
    assert_eq!(r.status(), 200);
    r.json().unwrap()
}

/// The verify endpoint agrees on a logged roll, and disagrees on a changed value or seed.
fn verify_with_the_service(app: &TestApp, roll: &Value, commitment: &Value) {
    let proof = &roll["proof"];
    let mut body = json!({"seed": proof["seed"], "sha256": commitment["sha256"], "dice": [roll["dice"]],
        "values": [roll["values"]], "first_die": proof["first_die"]});
    if let Some(c) = proof.get("client_seed") {
        body["client_seed"] = c.clone();
    }
    let good = verify(app, &body);
    assert_eq!(
        (
            good["commitment_matches"].as_bool(),
            good["values_match"].as_bool()
        ),
        (Some(true), Some(true)),
        "{good}"
    );
    let mut tampered = body.clone();
    let first = tampered["values"][0][0].as_u64().unwrap();
    tampered["values"][0][0] = json!(first % 6 + 1);
    assert_eq!(verify(app, &tampered)["values_match"], false);
    let mut other_seed = body.clone();
    other_seed["seed"] = json!("ab".repeat(32));
    let answer = verify(app, &other_seed);
    assert_eq!(answer["commitment_matches"], false);
}

both_backends! {
    fn post_battle_rolls_use_the_seed_committed_before_them(app: &TestApp) {
        let t = Table::new(app);
        let battle = create_battle(app, &t);
        record_and_confirm(app, &t, &battle);
        let blue = t.blue_id().to_owned();
        let alpha = unit_id(&t.blue, "Alpha");
        let path = format!("/api/v1/battles/{battle}/aftermath/{blue}");
        let offered = get(app, &t.people.owner, &path)["dice_commitment"].clone();
        assert_eq!(offered["sha256"].as_str().map(str::len), Some(64), "{offered}");
        assert_eq!(get(app, &t.people.owner, &path)["dice_commitment"], offered, "a read does not change it");

        // A step with a client seed and a server die, then the rest with none.
        let first = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"),
            &json!({"step": "replacement", "client_seed": "Stockholm, table 3"})));
        assert!(check_rolls(first["rolls"].as_array().unwrap(), &offered, Some("Stockholm, table 3")) >= 1);
        let replacement = first["rolls"].as_array().unwrap().iter().find(|r| r["subject"] == alpha.as_str()).unwrap();
        verify_with_the_service(app, replacement, &offered);
        let next = first["dice_commitment"].clone();
        assert_ne!(next["id"], offered["id"], "a spent commitment is replaced");
        assert_eq!(get(app, &t.people.owner, &path)["dice_commitment"], next);

        let rest = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "roll"),
            &json!({"dice": {"resolve_change": {alpha.as_str(): [3]}}})));
        assert!(check_rolls(rest["rolls"].as_array().unwrap(), &next, None) >= 1, "{rest}");

        // A step whose dice are all entered spends nothing.
        let after = rest["dice_commitment"].clone();
        let bought = ok(post(app, &t.people.owner, &step_path(&battle, &blue, "purchases"), &json!({
            "purchases": [{"item": "extra_reinforcement_die"}],
            "dice": {"reinforcements_extra": {blue.as_str(): [4]}}})));
        assert_eq!(bought["dice_commitment"], after);
        assert_eq!(check_rolls(bought["rolls"].as_array().unwrap(), &after, None), 0);
    }

    fn a_one_shot_scenario_and_a_generated_force_roll_from_a_commitment_asked_for_first(app: &TestApp) {
        let t = Table::new(app);
        let issued = app.post_json("/api/v1/dice/commitments", &json!({}));
        assert_eq!(issued.status(), 201);
        let commitment: Value = issued.json().unwrap();
        let force = |name: &str| json!({"name": name, "stance": "neutral", "attitude": "cautious", "units": [
            {"name": "Command", "kind": "command_squad", "resolve": "steady"},
            {"name": "Line", "kind": "squad", "resolve": "steady"}]});
        let body = json!({"sides": [force("Red"), force("Blue")], "dice_commitment_id": commitment["id"],
            "client_seed": "my words"});
        let scenario = ok(post(app, &t.people.owner, "/api/v1/scenarios", &body));
        let rolls = scenario["rolls"].as_array().unwrap();
        assert!(check_rolls(rolls, &commitment, Some("my words")) >= 4);
        // One use only: the same commitment again is refused, and nothing is stored.
        let again = assert_problem(post(app, &t.people.owner, "/api/v1/scenarios", &body), 422);
        assert_eq!(again["errors"][0]["field"], "dice_commitment_id");
        let unknown = assert_problem(post(app, &t.people.owner, "/api/v1/scenarios",
            &json!({"sides": [force("Red"), force("Blue")], "dice_commitment_id": "nope"})), 422);
        assert_eq!(unknown["errors"][0]["field"], "dice_commitment_id");
        let lone_client_seed = assert_problem(post(app, &t.people.owner, "/api/v1/scenarios",
            &json!({"sides": [force("Red"), force("Blue")], "client_seed": "x"})), 422);
        assert_eq!(lone_client_seed["errors"][0]["field"], "client_seed");

        let commitment: Value = app.post_json("/api/v1/dice/commitments", &json!({})).json().unwrap();
        let generated = ok(post(app, &t.people.owner,
            &format!("/api/v1/campaigns/{}/forces/generate", t.world.campaign_id),
            &json!({"method": "basic", "platoons": 1, "dice_commitment_id": commitment["id"]})));
        assert!(check_rolls(generated["rolls"].as_array().unwrap(), &commitment, None) >= 1);
    }

    fn verify_refuses_what_it_cannot_read_in_plain_words(app: &TestApp) {
        let bad = assert_problem(app.post_json("/api/v1/dice/verify",
            &json!({"seed": "xyz", "sha256": "12", "dice": ["6"], "values": []})), 422);
        let fields: Vec<&str> = bad["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(fields, ["seed", "sha256", "dice[0]", "values"]);
        let too_many = assert_problem(app.post_json("/api/v1/dice/verify",
            &json!({"seed": "00".repeat(32), "sha256": "00".repeat(32), "dice": vec!["1d6"; 201], "values": vec![[1]; 201]})), 422);
        assert_eq!(too_many["errors"][0]["field"], "dice");
        // The pinned example of the derivation (all-zero seed, ten d6).
        let zero = verify(app, &json!({"seed": "00".repeat(32),
            "sha256": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
            "dice": ["10d6"], "values": [[2, 1, 5, 2, 2, 5, 6, 6, 5, 5]]}));
        assert_eq!(zero, json!({"commitment_matches": true, "values_match": true, "values": [[2, 1, 5, 2, 2, 5, 6, 6, 5, 5]]}));
        assert_eq!(faces(&"00".repeat(32), None, 0, &[(10, 6)]), [vec![2, 1, 5, 2, 2, 5, 6, 6, 5, 5]]);
    }

    fn scenario_rolls_reveal_each_sides_own_seed_and_the_commitments_follow_what_a_side_sees(app: &TestApp) {
        let g = crate::battle_scenarios::Game::new(app);
        let (blue, red) = (g.blue_id(), g.red_id());
        let path = format!("/api/v1/battles/{}/scenario", g.battle);
        let blue_view = get(app, &g.people.owner, &path);
        let commitments = blue_view["dice_commitments"].as_array().unwrap().clone();
        let forces: Vec<Value> = commitments.iter().map(|c| c["force_id"].clone()).collect();
        assert_eq!(forces, [Value::Null, json!(blue)], "Blue sees the shared chain and its own");
        // Both sides' orders: the table-edge rolls come from each side's own seed.
        ok(post(app, &g.people.owner, &format!("{path}/orders"), &json!({"force_id": blue, "stance": "neutral", "attitude": "cautious"})));
        let long = assert_problem(post(app, &g.people.player, &format!("{path}/orders"),
            &json!({"force_id": red, "stance": "offensive", "attitude": "aggressive", "client_seed": ""})), 422);
        assert_eq!(long["errors"][0]["field"], "client_seed");
        // Red's words go into Red's own rolls only: Blue's proofs and the shared chain's never
        // show them.
        let closed = ok(post(app, &g.people.player, &format!("{path}/orders"),
            &json!({"force_id": red, "stance": "offensive", "attitude": "aggressive", "client_seed": "Red at table 2"})));
        let red_own: Vec<&Value> = closed["rolls"].as_array().unwrap().iter()
            .filter(|r| r["force_id"] == red.as_str() && r["source"] == "server").collect();
        assert!(!red_own.is_empty(), "{closed}");
        for roll in red_own {
            let proof = &roll["proof"];
            assert_eq!(proof["client_seed"], "Red at table 2", "{roll}");
            let again = faces(proof["seed"].as_str().unwrap(), Some("Red at table 2"), proof["first_die"].as_u64().unwrap(),
                &[count_and_sides(roll["dice"].as_str().unwrap())]);
            assert_eq!(json!(again[0]), roll["values"]);
            verify_with_the_service(app, roll, &json!({"sha256": sha256_hex(proof["seed"].as_str().unwrap())}));
        }
        let seen = get(app, &g.people.owner, &path);
        for roll in seen["rolls"].as_array().unwrap().iter().filter(|r| r["source"] == "server") {
            let proof = &roll["proof"];
            let chain = if roll["force_id"] == blue.as_str() { &commitments[1] } else if roll["force_id"].is_null() { &commitments[0] } else { continue };
            assert_eq!(proof["commitment_id"], chain["id"], "{roll}");
            assert_eq!(sha256_hex(proof["seed"].as_str().unwrap()), chain["sha256"].as_str().unwrap());
            assert!(proof.get("client_seed").is_none(), "another side's words never reach {roll}");
            let again = faces(proof["seed"].as_str().unwrap(), None, proof["first_die"].as_u64().unwrap(),
                &[count_and_sides(roll["dice"].as_str().unwrap())]);
            assert_eq!(json!(again[0]), roll["values"]);
        }
        // Red's seed is not Blue's: a roll of Red's never carries Blue's commitment.
        for roll in seen["rolls"].as_array().unwrap().iter().filter(|r| r["force_id"] == red.as_str() && r["source"] == "server") {
            assert_ne!(roll["proof"]["commitment_id"], commitments[1]["id"]);
        }
    }

    fn solo_turns_roll_from_the_commitment_their_read_offered(app: &TestApp) {
        let s = crate::solo::battle(app);
        crate::solo::set_up(app, &s);
        let token = &s.people.owner.token;
        let view = ok(app.get_with_token(&s.path(""), token));
        let offered = view["dice_commitment"].clone();
        assert_eq!(offered["sha256"].as_str().map(str::len), Some(64), "{view}");
        ok(app.put_json_with_token(&s.path("/groups"), &crate::solo::groups_body(&view), token));
        let first = ok(app.post_json_with_token(&s.path("/turns"), &json!({"client_seed": "solo night"}), token));
        assert_eq!(check_rolls(first["rolls"].as_array().unwrap(), &offered, Some("solo night")), 2);
        verify_with_the_service(app, &first["rolls"][0], &offered);
        let next = first["dice_commitment"].clone();
        assert_ne!(next["id"], offered["id"]);
        assert_eq!(ok(app.get_with_token(&s.path(""), token))["dice_commitment"], next);
        // Groups that fell back on the server's dice arrive, so every group tests again.
        let fell_back: Vec<&Value> = first["groups"].as_array().unwrap().iter()
            .filter(|g| g["result"] == "fall_back").map(|g| &g["name"]).collect();
        let second = ok(app.post_json_with_token(&s.path("/turns"), &json!({"arrived": fell_back}), token));
        assert!(check_rolls(second["rolls"].as_array().unwrap(), &next, None) >= 1, "{second}");
        let long = assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({"client_seed": "x".repeat(129)}), token), 422);
        assert_eq!(long["errors"][0]["field"], "client_seed");
    }
}
