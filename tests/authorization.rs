//! The authorization table: every endpoint, for every kind of caller, answers the
//! status written here. Each (row, caller) pair runs against a fresh campaign, so writes that
//! succeed cannot change what the next caller sees.
//!
//! To add an endpoint, append a [`Row`] to [`ROWS`]: the method, the path and body with
//! placeholders (see [`World::fill`]), and the expected status per caller in [`CALLERS`] order:
//! anonymous, outsider, player, owner, organiser, API key, revoked key, expired token.
//! "owner" is a second player who owns the resources later issues create (forces);
//! "organiser" created the campaign. Keys use `X-Api-Key`; the expired token is the
//! organiser's. A new resource kind gets its placeholder in [`World::fill`] and its set-up in
//! [`World::build`].

use crate::auth::expired_token;
use crate::campaigns::{People, World};
use crate::common::{TestApp, send};
use reqwest::Method;
use serde_json::Value;

/// Who calls, in the order of a row's `expect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// No credentials.
    Anonymous,
    /// A user in no campaign.
    Outsider,
    /// A player of the campaign.
    Player,
    /// A player who owns the resource (forces and the like).
    Owner,
    /// The campaign's organiser.
    Organiser,
    /// The campaign's live integration key.
    ApiKey,
    /// The campaign's revoked integration key.
    RevokedKey,
    /// The organiser's token, expired.
    ExpiredToken,
}

/// [`Who`] in the order of `Row::expect`.
pub const CALLERS: [Who; 8] = [
    Who::Anonymous,
    Who::Outsider,
    Who::Player,
    Who::Owner,
    Who::Organiser,
    Who::ApiKey,
    Who::RevokedKey,
    Who::ExpiredToken,
];

/// One endpoint and what each caller gets.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// HTTP method.
    pub method: &'static str,
    /// Path with placeholders (`{campaign}`, `{player}`, …).
    pub path: &'static str,
    /// JSON body with the same placeholders, or `None`.
    pub body: Option<&'static str>,
    /// Expected status per caller, in [`CALLERS`] order.
    pub expect: [u16; 8],
}

const fn row(
    method: &'static str,
    path: &'static str,
    body: Option<&'static str>,
    expect: [u16; 8],
) -> Row {
    Row {
        method,
        path,
        body,
        expect,
    }
}

/// A valid roster body.
const FORCE: &str = r#"{"name": "Red", "platoons": [{"name": "1st", "units": [{"name": "A", "kind": "squad", "quality": "regular", "strength": 6, "starting_strength": 6}]}]}"#;

/// A valid replacement body at version 1.
const VERSIONED_FORCE: &str = r#"{"version": 1, "name": "Red", "platoons": [{"name": "1st", "units": [{"name": "A", "kind": "squad", "quality": "regular", "strength": 6, "starting_strength": 6}]}]}"#;

/// The table. Columns: anonymous, outsider, player, owner, organiser, key, revoked key, expired
/// token.
#[rustfmt::skip]
pub const ROWS: &[Row] = &[
    // Accounts.
    row("GET", "/api/v1/me", None, [401, 200, 200, 200, 200, 403, 401, 401]),
    row("PATCH", "/api/v1/me", Some(r#"{"display_name": "Someone"}"#), [401, 200, 200, 200, 200, 403, 401, 401]),
    // Personal access tokens: each person's own.
    row("POST", "/api/v1/me/tokens", Some(r#"{"name": "bot", "scopes": ["read"]}"#), [401, 201, 201, 201, 201, 403, 401, 401]),
    row("GET", "/api/v1/me/tokens", None, [401, 200, 200, 200, 200, 403, 401, 401]),
    row("DELETE", "/api/v1/me/tokens/none", None, [401, 404, 404, 404, 404, 403, 401, 401]),
    // Published standings: public, and 404 while the organiser has not published them.
    row("GET", "/api/v1/public/campaigns/{campaign}/standings", None, [404, 404, 404, 404, 404, 404, 404, 404]),
    // Campaigns.
    row("POST", "/api/v1/campaigns", Some(r#"{"name": "New"}"#), [401, 201, 201, 201, 201, 403, 401, 401]),
    row("GET", "/api/v1/campaigns", None, [401, 200, 200, 200, 200, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("PATCH", "/api/v1/campaigns/{campaign}", Some(r#"{"version": 1, "name": "Renamed"}"#), [401, 404, 403, 403, 200, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/rules", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    // Rulesets: the list and built-in ones are public; a house ruleset is its owner's (and its
    // campaigns' members').
    row("GET", "/api/v1/rulesets", None, [200, 200, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/rulesets/fad5e", None, [200, 200, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/rulesets/club/{ruleset}", None, [404, 404, 404, 404, 200, 404, 401, 401]),
    row("POST", "/api/v1/rulesets", Some(r#"{"id": "club/{ruleset}-new", "name": "New rules", "extends": {"id": "fad5e", "version": 1}, "set": {"campaign.cp_per_platoon": 3}}"#), [401, 201, 201, 201, 201, 403, 401, 401]),
    row("PUT", "/api/v1/rulesets/club/{ruleset}", Some(r#"{"id": "club/{ruleset}", "name": "World rules", "extends": {"id": "fad5e", "version": 1}, "set": {"campaign.cp_per_platoon": 4}}"#), [401, 404, 404, 404, 200, 403, 401, 401]),
    row("DELETE", "/api/v1/rulesets/club/{ruleset}", None, [401, 404, 404, 404, 204, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/settings", None, [401, 404, 200, 200, 200, 403, 401, 401]),
    row("PUT", "/api/v1/campaigns/{campaign}/settings", Some(r#"{"version": 1}"#), [401, 404, 403, 403, 200, 403, 401, 401]),
    // Members.
    row("GET", "/api/v1/campaigns/{campaign}/members", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("DELETE", "/api/v1/campaigns/{campaign}/members/{player}", None, [401, 404, 403, 403, 204, 403, 401, 401]),
    row("POST", "/api/v1/campaigns/{campaign}/leave", Some("{}"), [401, 404, 204, 204, 409, 403, 401, 401]),
    row("POST", "/api/v1/campaigns/{campaign}/organiser", Some(r#"{"user_id": "{player}"}"#), [401, 404, 403, 403, 200, 403, 401, 401]),
    // Invitations.
    row("POST", "/api/v1/campaigns/{campaign}/invites", Some("{}"), [401, 404, 403, 403, 201, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/invites", None, [401, 404, 403, 403, 200, 403, 401, 401]),
    row("DELETE", "/api/v1/campaigns/{campaign}/invites/{invite}", None, [401, 404, 403, 403, 204, 403, 401, 401]),
    row("POST", "/api/v1/campaigns/join", Some(r#"{"code": "{code}"}"#), [401, 201, 409, 409, 409, 403, 401, 401]),
    // Integration keys.
    row("POST", "/api/v1/campaigns/{campaign}/api-keys", Some(r#"{"name": "site"}"#), [401, 404, 403, 403, 201, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/api-keys", None, [401, 404, 403, 403, 200, 403, 401, 401]),
    row("DELETE", "/api/v1/campaigns/{campaign}/api-keys/{key}", None, [401, 404, 403, 403, 204, 403, 401, 401]),
    // Standings.
    row("GET", "/api/v1/campaigns/{campaign}/standings", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    // Exact odds: public (a pure function of the MISSION TABLE); credentials are not read.
    row("GET", "/api/v1/odds/missions?stance=neutral&attitude=passive", None, [200, 200, 200, 200, 200, 200, 200, 200]),
    // One-shot scenarios: any person; read back by the creator only (tests/scenarios.rs).
    row("POST", "/api/v1/scenarios", Some(r#"{"sides": [{"name": "A", "units": [{"name": "S", "kind": "squad"}], "stance": "neutral", "attitude": "passive"}, {"name": "B", "units": [{"name": "S", "kind": "squad"}], "non_player": true}]}"#), [401, 201, 201, 201, 201, 403, 401, 401]),
    row("GET", "/api/v1/scenarios/no-such-scenario", None, [401, 404, 404, 404, 404, 403, 401, 401]),
    row("GET", "/api/v1/scenarios", None, [401, 200, 200, 200, 200, 403, 401, 401]),
    // Forces: members read, the owner or the organiser writes, keys read.
    row("POST", "/api/v1/campaigns/{campaign}/forces", Some(FORCE), [401, 404, 201, 201, 201, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/forces", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("POST", "/api/v1/campaigns/{campaign}/forces/import", Some(FORCE), [401, 404, 201, 201, 201, 403, 401, 401]),
    row("POST", "/api/v1/campaigns/{campaign}/forces/generate", Some(r#"{"method": "basic", "platoons": 1}"#), [401, 404, 201, 201, 201, 403, 401, 401]),
    row("GET", "/api/v1/forces/{force}", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("PUT", "/api/v1/forces/{force}", Some(VERSIONED_FORCE), [401, 404, 403, 200, 200, 403, 401, 401]),
    // The world's force has fought: its owner may no longer archive it, the organiser may.
    row("POST", "/api/v1/forces/{force}/archive", Some(r#"{"version": 1}"#), [401, 404, 403, 409, 200, 403, 401, 401]),
    row("GET", "/api/v1/forces/{force}/history", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/forces/{force}/history/{force_entry}", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/forces/{force}/ledger", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("POST", "/api/v1/forces/{force}/ledger", Some(r#"{"kind": "earned", "amount": 2}"#), [401, 404, 403, 403, 201, 403, 401, 401]),
    row("GET", "/api/v1/forces/{force}/export", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    // Battles: a side's owner or the organiser writes, members and keys read. The
    // world's battle is the force against a non-player force, its draw already recorded, so the
    // same result again is 200 and the steps after `roll` are 409 until it is rolled.
    row("POST", "/api/v1/campaigns/{campaign}/battles", Some(r#"{"sides": [{"force_id": "{force}"}, {"non_player": {}}]}"#), [401, 404, 403, 201, 201, 403, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/battles", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/campaigns/{campaign}/timeline", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/battles/{battle}", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/result", Some(r#"{"outcome": "draw"}"#), [401, 404, 403, 200, 200, 403, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/result/confirm", Some("{}"), [401, 404, 403, 200, 200, 403, 401, 401]),
    row("GET", "/api/v1/battles/{battle}/aftermath/{force}", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/aftermath/{force}/roll", Some("{}"), [401, 404, 403, 200, 200, 403, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/aftermath/{force}/reinforcements", Some(r#"{"allocations": []}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/aftermath/{force}/purchases", Some(r#"{"purchases": []}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/aftermath/{force}/finalize", Some(r#"{"forgo_reinforcements": true}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    // A battle's scenario: members and keys read (each as the rules reveal to it); the
    // force's owner, or an organiser who plays neither side, acts for it. The world's scenario
    // battle waits for orders, so the later steps are 409 for those who may act.
    row("GET", "/api/v1/battles/{scenario_battle}/scenario", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("GET", "/api/v1/battles/{scenario_battle}/scenario?force_id={force}", None, [401, 404, 403, 200, 200, 403, 401, 401]),
    row("GET", "/api/v1/battles/{scenario_battle}/scenario/sheet", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/scenario/orders", Some(r#"{"force_id": "{force}", "stance": "neutral", "attitude": "cautious"}"#), [401, 404, 403, 200, 200, 403, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/scenario/mission-bonuses", Some(r#"{"force_id": "{force}", "missions": []}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/scenario/mission-choice", Some(r#"{"force_id": "{force}", "mission": "hold"}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/scenario/recon-actions", Some(r#"{"force_id": "{force}", "action": "pass"}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/scenario/assault-target", Some(r#"{"force_id": "{force}", "objective_id": "o1"}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    // A side's share link: its owner, or an organiser who plays neither side; keys never. The
    // link itself needs no credentials (tests/sharing.rs).
    row("POST", "/api/v1/battles/{scenario_battle}/scenario/share", Some(r#"{"force_id": "{force}"}"#), [401, 404, 403, 201, 201, 403, 401, 401]),
    row("DELETE", "/api/v1/battles/{scenario_battle}/scenario/share?force_id={force}", None, [401, 404, 403, 204, 204, 403, 401, 401]),
    row("GET", "/sheets/shared/no-such-token", None, [404, 404, 404, 404, 404, 404, 404, 404]),
    // Solo play of the non-player side: members and keys read; the battle's players and the
    // organiser write. The world's Raiders have no units and the scenario is not set up.
    row("GET", "/api/v1/battles/{scenario_battle}/solo", None, [401, 404, 200, 200, 200, 200, 401, 401]),
    row("PUT", "/api/v1/battles/{scenario_battle}/solo/groups", Some(r#"{"groups": [{"name": "Hill", "units": ["s2-u1"], "approach": "hold"}]}"#), [401, 404, 403, 422, 422, 403, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/solo/turns", Some("{}"), [401, 404, 403, 409, 409, 403, 401, 401]),
    row("POST", "/api/v1/battles/{scenario_battle}/solo/groups/Hill/casualties", Some(r#"{"lost": 1}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    // A battle with a result has a closed scenario.
    row("POST", "/api/v1/battles/{battle}/scenario/orders", Some(r#"{"force_id": "{force}", "stance": "neutral", "attitude": "cautious"}"#), [401, 404, 403, 409, 409, 403, 401, 401]),
    // Corrections (organiser only): the world's battle, in `aftermath` with nothing finalized,
    // may be reopened or voided.
    row("POST", "/api/v1/battles/{battle}/reopen", Some(r#"{"reason": "wrong losses"}"#), [401, 404, 403, 403, 200, 403, 401, 401]),
    row("POST", "/api/v1/battles/{battle}/void", Some(r#"{"reason": "never played"}"#), [401, 404, 403, 403, 200, 403, 401, 401]),
];

impl World {
    /// `template` with every placeholder of this world and `people` filled in.
    pub fn fill(&self, people: &People, template: &str) -> String {
        template
            .replace("{ruleset}", &self.ruleset_slug)
            .replace("{campaign}", &self.campaign_id)
            .replace("{invite}", &self.invite_id)
            .replace("{code}", &self.code)
            .replace("{key}", &self.key_id)
            .replace("{force_entry}", &self.force_entry_id)
            .replace("{force}", &self.force_id)
            .replace("{battle}", &self.battle_id)
            .replace("{scenario_battle}", &self.scenario_battle_id)
            .replace("{organiser}", &people.organiser.id)
            .replace("{player}", &people.player.id)
            .replace("{owner}", &people.owner.id)
            .replace("{outsider}", &people.outsider.id)
    }
}

/// Sends `row` as `who` against `world`; returns the status and body.
fn call(app: &TestApp, people: &People, world: &World, row: &Row, who: Who) -> (u16, String) {
    let method = Method::from_bytes(row.method.as_bytes()).unwrap();
    let mut request = app.request(method, &world.fill(people, row.path));
    if let Some(body) = row.body {
        let body: Value = serde_json::from_str(&world.fill(people, body)).unwrap();
        request = request.json(&body);
    }
    request = match who {
        Who::Anonymous => request,
        Who::Outsider => request.bearer_auth(&people.outsider.token),
        Who::Player => request.bearer_auth(&people.player.token),
        Who::Owner => request.bearer_auth(&people.owner.token),
        Who::Organiser => request.bearer_auth(&people.organiser.token),
        Who::ApiKey => request.header("X-Api-Key", &world.key),
        Who::RevokedKey => request.header("X-Api-Key", &world.revoked_key),
        Who::ExpiredToken => request.bearer_auth(expired_token(&people.organiser.id)),
    };
    let response = send(request);
    let status = response.status().as_u16();
    let is_problem = response
        .headers()
        .get("content-type")
        .is_some_and(|v| v.to_str().unwrap_or_default() == "application/problem+json");
    let text = response.text().unwrap_or_default();
    assert!(
        status < 400 || is_problem,
        "{} {} as {who:?}: {status} is not problem+json",
        row.method,
        row.path
    );
    (status, text)
}

both_backends! {
    fn every_endpoint_answers_each_caller_as_the_table_says(app: &TestApp) {
        let people = People::register(app);
        let mut failures = Vec::new();
        for row in ROWS {
            for (who, expected) in CALLERS.iter().zip(row.expect) {
                // A fresh campaign per call: a write that succeeds changes nothing for the next.
                let world = World::build(app, &people);
                let (status, body) = call(app, &people, &world, row, *who);
                if status != expected {
                    failures.push(format!(
                        "{} {} as {who:?}: expected {expected}, got {status}: {body}",
                        row.method, row.path
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    }

    fn a_key_never_writes_even_through_the_bearer_header(app: &TestApp) {
        let people = People::register(app);
        for row in ROWS.iter().filter(|r| r.method != "GET") {
            let world = World::build(app, &people);
            let method = Method::from_bytes(row.method.as_bytes()).unwrap();
            let mut request = app.request(method, &world.fill(&people, row.path)).bearer_auth(&world.key);
            if let Some(body) = row.body {
                let body: Value = serde_json::from_str(&world.fill(&people, body)).unwrap();
                request = request.json(&body);
            }
            let status = send(request).status().as_u16();
            assert_eq!(status, 403, "{} {}", row.method, row.path);
        }
    }
}
