//! The roster editor and the organiser's forms against the real binary: every unit field in the
//! editor, units and platoons added and removed by plain submit buttons, points equal to the
//! JSON API's, errors beside their fields with the input kept, the organiser's reason, building
//! and generating (advanced) a force, house rules, API keys and webhooks, the register page's
//! display name; CSRF refusals and who may see and post what.

use serde_json::Value;

use crate::common::{Backend, Fixture, TestApp};
use crate::web_pages::{Browser, PASSWORD, bearer, campaign_with_a_force, location};

/// Decodes the few entities the pages write in attribute values.
fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let needle = format!(" {name}=\"");
    let start = tag.find(&needle)? + needle.len();
    Some(unescape(tag[start..].split('"').next()?))
}

fn has_flag(tag: &str, name: &str) -> bool {
    tag.split(|c: char| c.is_whitespace() || c == '>')
        .any(|word| word == name)
}

/// The fields a browser would send from the form posting to `action` (without pressing any
/// button): hidden and text inputs, checked checkboxes, each select's selected options (the
/// first option of a single select when none is), textareas.
pub(crate) fn form_fields(html: &str, action: &str) -> Vec<(String, String)> {
    let start = html
        .find(&format!("action=\"{action}\""))
        .unwrap_or_else(|| panic!("no form posting to {action}"));
    let end = html[start..]
        .find("</form>")
        .map_or(html.len(), |e| start + e);
    let form = &html[start..end];
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        let close = rest.find('>').map_or(rest.len(), |c| c + 1);
        let tag = &rest[..close];
        if tag.starts_with("<input") {
            let kind = attr(tag, "type").unwrap_or_else(|| "text".to_owned());
            if let Some(name) = attr(tag, "name") {
                let value = attr(tag, "value").unwrap_or_default();
                match kind.as_str() {
                    "checkbox" if has_flag(tag, "checked") => out.push((name, value)),
                    "checkbox" => {}
                    _ => out.push((name, value)),
                }
            }
        } else if tag.starts_with("<select") {
            let name = attr(tag, "name").unwrap_or_default();
            let multiple = has_flag(tag, "multiple");
            let body_end = rest.find("</select>").unwrap_or(rest.len());
            let body = &rest[close..body_end];
            let options: Vec<(String, bool)> = body
                .split("<option")
                .skip(1)
                .map(|o| {
                    let tag = &o[..o.find('>').unwrap_or(o.len()) + 1];
                    (
                        attr(tag, "value").unwrap_or_default(),
                        has_flag(tag, "selected"),
                    )
                })
                .collect();
            let chosen: Vec<&String> = options.iter().filter(|(_, s)| *s).map(|(v, _)| v).collect();
            if multiple {
                out.extend(chosen.into_iter().map(|v| (name.clone(), v.clone())));
            } else if let Some(v) = chosen.first().copied().or(options.first().map(|(v, _)| v)) {
                out.push((name, v.clone()));
            }
            rest = &rest[body_end..];
            continue;
        } else if tag.starts_with("<textarea") {
            let name = attr(tag, "name").unwrap_or_default();
            let body_end = rest.find("</textarea>").unwrap_or(rest.len());
            out.push((name, unescape(&rest[close..body_end])));
            rest = &rest[body_end..];
            continue;
        }
        rest = &rest[close.min(rest.len())..];
        if close == 0 {
            break;
        }
    }
    out
}

/// `fields` with `name` set to `values` (replacing every value it had).
fn with(mut fields: Vec<(String, String)>, name: &str, values: &[&str]) -> Vec<(String, String)> {
    fields.retain(|(n, _)| n != name);
    fields.extend(values.iter().map(|v| (name.to_owned(), (*v).to_owned())));
    fields
}

fn post_fields(
    browser: &mut Browser<'_>,
    path: &str,
    fields: &[(String, String)],
) -> reqwest::blocking::Response {
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    browser.post(path, &pairs)
}

fn force_json(app: &TestApp, username: &str, force: &str) -> Value {
    let response = app.get_with_token(&format!("/api/v1/forces/{force}"), &bearer(app, username));
    assert_eq!(response.status(), 200);
    response.json().unwrap()
}

/// Points as the pages write them: two decimals at most, no trailing zeros.
fn shown(points: &Value) -> String {
    let text = format!("{:.2}", points.as_f64().unwrap());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

both_backends! {
    fn the_editor_edits_every_kind_of_field_adds_and_removes_units_with_the_apis_points(app: &TestApp) {
        let (_, mut player, _, force) = campaign_with_a_force(app, ["abel", "bryn", "cato"]);
        let edit = format!("/forces/{force}/edit");
        let (form, _) = player.page(&edit);
        // The points are the JSON API's, at every level.
        let json = force_json(app, "bryn", &force);
        let roster = &json;
        assert!(form.contains(&format!("Total: <strong>{} points</strong>", shown(&roster["points"]))), "{form}");
        for platoon in roster["platoons"].as_array().unwrap() {
            assert!(form.contains(&format!(" · {} points</h2>", shown(&platoon["points"]))), "{form}");
            for unit in platoon["units"].as_array().unwrap() {
                let legend = format!("{} · {} points", unit["name"].as_str().unwrap(), shown(&unit["points"]));
                assert!(form.contains(&legend), "{legend}: {form}");
            }
        }
        // Every kind of field is there, the rules' words as options.
        for id in ["traits", "support-weapons", "heavy-weapons", "personalities", "vehicle--mobility", "leadership", "trait-options--bestowed-traits", "gadgets", "status"] {
            assert!(form.contains(&format!(r#"id="f-platoons-0--units--0--{id}""#)), "{id}: {form}");
        }
        // Traits are checkboxes (no Ctrl key on a phone); personalities a list of selects.
        assert!(form.contains(r#"type="checkbox" id="f-platoons-0--units--0--traits-0""#) && form.contains(r#"value="tough""#), "{form}");
        assert!(!form.contains("Ctrl or"), "{form}");
        assert!(form.contains(r#"<option value="medic">"#), "{form}");
        // The add buttons come back where the person works: at the new unit's anchor.
        assert!(form.contains(&format!(r#"formaction="{edit}#f-platoons-0--units--{}""#, roster["platoons"][0]["units"].as_array().unwrap().len())), "{form}");
        assert!(form.contains("at most one per member"), "where a personality may be used: {form}");
        assert!(!form.contains(r#"name="reason""#), "a player gives no reason");
        let fields = form_fields(&form, &edit);
        let units_before = roster["platoons"][0]["units"].as_array().unwrap().len();

        // "Add a unit" shows the form again with one more unit; nothing is saved.
        let response = post_fields(&mut player, &edit, &with(fields.clone(), "action", &["add_unit:0"]));
        assert_eq!(response.status(), 200);
        let added = response.text().unwrap();
        let new_unit = format!("platoons[0][units][{units_before}][name]");
        assert!(added.contains(&format!(r#"name="{new_unit}""#)), "{added}");
        assert_eq!(force_json(app, "bryn", &force)["version"], 1, "nothing saved");

        // Edit the new unit's weapons, traits and personality and the first unit's gear; save.
        let mut fields = form_fields(&added, &edit);
        let unit = |f: &str| format!("platoons[0][units][{units_before}][{}]", f.replace('.', "]["));
        fields = with(fields, &new_unit, &["Recon Team"]);
        fields = with(fields, &unit("strength"), &["4"]);
        fields = with(fields, &unit("starting_strength"), &["4"]);
        fields = with(fields, &unit("basic_weapon"), &["assault_rifles"]);
        fields = with(fields, &unit("support_weapons"), &["squad_automatic_weapon", ""]);
        fields = with(fields, &unit("traits"), &["tough", "stealth"]);
        fields = with(fields, &unit("personalities"), &["medic", ""]);
        fields = with(fields, "platoons[0][units][0][grenades]", &["haze"]);
        let response = post_fields(&mut player, &edit, &with(fields, "action", &["save"]));
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        let json = force_json(app, "bryn", &force);
        let units = json["platoons"][0]["units"].as_array().unwrap();
        assert_eq!(units.len(), units_before + 1);
        let recon = units.last().unwrap();
        assert_eq!(recon["name"], "Recon Team");
        assert_eq!(recon["traits"], serde_json::json!(["tough", "stealth"]));
        assert_eq!(recon["support_weapons"], serde_json::json!(["squad_automatic_weapon"]));
        assert_eq!(recon["personalities"], serde_json::json!(["medic"]));
        assert!(recon["id"].as_str().is_some_and(|id| !id.is_empty()), "the server gave it an id");
        assert_eq!(units[0]["grenades"], serde_json::json!(["haze"]));
        // The roster page shows the new unit with the API's points.
        let (page, _) = player.page(&format!("/forces/{force}"));
        // (Its card: the name as the heading, the points on the line below.)
        assert!(page.contains(&format!("<h3>Recon Team</h3><p>Squad · <strong>{} points</strong>", shown(&recon["points"]))), "{page}");

        // Remove it again (a button that shows the form without it), then save.
        let (form, _) = player.page(&edit);
        let response = post_fields(&mut player, &edit, &with(form_fields(&form, &edit), "action", &[&format!("remove_unit:0:{units_before}")]));
        assert_eq!(response.status(), 200);
        let removed = response.text().unwrap();
        assert!(!removed.contains("Recon Team"), "{removed}");
        let response = post_fields(&mut player, &edit, &form_fields(&removed, &edit));
        assert_eq!(response.status(), 303);
        let json = force_json(app, "bryn", &force);
        assert_eq!(json["platoons"][0]["units"].as_array().unwrap().len(), units_before);

        // A second platoon: added, named, saved.
        let (form, _) = player.page(&edit);
        let response = post_fields(&mut player, &edit, &with(form_fields(&form, &edit), "action", &["add_platoon"]));
        let two = response.text().unwrap();
        assert!(two.contains(r#"name="platoons[1][name]""#), "{two}");
        let fields = with(form_fields(&two, &edit), "platoons[1][name]", &["Reserve"]);
        let response = post_fields(&mut player, &edit, &fields);
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        let json = force_json(app, "bryn", &force);
        assert_eq!(json["platoons"][1]["name"], "Reserve");
    }

    fn editor_errors_sit_beside_their_fields_and_only_owners_and_organisers_edit(app: &TestApp) {
        let (mut organiser, mut player, mut outsider, force) = campaign_with_a_force(app, ["dora", "emil", "faye"]);
        let edit = format!("/forces/{force}/edit");
        let (form, token) = player.page(&edit);
        let fields = form_fields(&form, &edit);
        // A word the rules do not have and a number that is not one: 422, each beside its
        // field, both in the summary, the input kept.
        let bad = with(with(fields.clone(), "platoons[0][units][0][traits]", &["flying_pig"]), "platoons[0][units][0][starting_strength]", &["lots"]);
        let response = post_fields(&mut player, &edit, &bad);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="error-summary""#), "{body}");
        assert!(body.contains(r#"id="f-platoons-0--units--0--starting-strength-error""#) || body.contains(r#"id="f-platoons-0--units--0--traits-error""#), "{body}");
        assert!(body.contains(r#"value="lots""#), "{body}");
        // A rule problem (strength above the establishment) is named at its field.
        let over = with(fields.clone(), "platoons[0][units][0][strength]", &["99"]);
        let response = post_fields(&mut player, &edit, &over);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r##"href="#f-platoons-0--units--0--strength""##), "linked from the summary: {body}");
        assert!(body.contains(r#"value="99""#), "{body}");
        assert_eq!(force_json(app, "emil", &force)["version"], 1, "nothing saved");
        // Names that do not nest (a platoon given both as a value and as a record): the form
        // again with a sentence beside the force's name, nothing saved, no guess.
        let tangled = with(fields.clone(), "platoons", &["2"]);
        let response = post_fields(&mut player, &edit, &tangled);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="f-name-error""#) && body.contains("The form could not be read"), "{body}");
        assert_eq!(force_json(app, "emil", &force)["version"], 1, "nothing saved");
        // Without the token: refused.
        let response = post_fields(&mut player, &edit, &with(fields.clone(), "csrf_token", &[""]));
        assert_eq!(response.status(), 403);

        // Another player of the campaign may read the force but not edit it; outsiders get 404.
        let campaign = force_json(app, "emil", &force)["campaign_id"].as_str().unwrap().to_owned();
        let mut other = Browser::new(app);
        other.register("gwen");
        let code = {
            let (_, t) = organiser.page(&format!("/campaigns/{campaign}"));
            assert_eq!(organiser.post(&format!("/campaigns/{campaign}/invites"), &[("csrf_token", &t)]).status(), 303);
            let (page, _) = organiser.page(&format!("/campaigns/{campaign}"));
            let start = page.find("/join/").unwrap() + "/join/".len();
            page[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect::<String>()
        };
        let (_, t) = other.page(&format!("/join/{code}"));
        assert_eq!(other.post(&format!("/join/{code}"), &[("csrf_token", &t)]).status(), 303);
        assert_eq!(other.get(&edit).status(), 403);
        let (_, other_token) = other.page("/");
        let response = post_fields(&mut other, &edit, &with(fields.clone(), "csrf_token", &[&other_token]));
        assert_eq!(response.status(), 403);
        assert_eq!(outsider.get(&edit).status(), 404);
        assert_eq!(force_json(app, "emil", &force)["version"], 1);

        // The organiser's form asks for a reason, kept on a refused save, recorded on a good one.
        let (form, _) = organiser.page(&edit);
        assert!(form.contains(r#"name="reason""#), "{form}");
        let fields = with(form_fields(&form, &edit), "reason", &["Typo in the unit name"]);
        let bad = with(fields.clone(), "platoons[0][units][0][strength]", &["99"]);
        let response = post_fields(&mut organiser, &edit, &bad);
        assert_eq!(response.status(), 422);
        assert!(response.text().unwrap().contains("Typo in the unit name"));
        let good = with(fields, "platoons[0][units][0][name]", &["Renamed Squad"]);
        assert_eq!(post_fields(&mut organiser, &edit, &good).status(), 303);
        let (history, _) = player.page(&format!("/forces/{force}/history"));
        assert!(history.contains("Typo in the unit name"), "{history}");
        let _ = token;
    }

    fn a_player_builds_a_force_from_scratch_and_generates_one_with_advanced_choices(app: &TestApp) {
        let (_, mut player, mut outsider, force) = campaign_with_a_force(app, ["gus", "hana", "ines"]);
        let campaign = force_json(app, "hana", &force)["campaign_id"].as_str().unwrap().to_owned();
        let new = format!("/campaigns/{campaign}/forces/new");
        assert_eq!(outsider.get(&format!("{new}?how=build")).status(), 404);
        let (form, _) = player.page(&format!("{new}?how=build"));
        assert!(form.contains("Build a force unit by unit") && form.contains(r#"name="platoons[0][units][0][name]""#), "{form}");
        let fields = form_fields(&form, &new);
        // Without a name: the form again, the error beside the name.
        let response = post_fields(&mut player, &new, &fields);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="f-name-error""#), "{body}");
        // Add a unit, name everything, create.
        let response = post_fields(&mut player, &new, &with(form_fields(&body, &new), "action", &["add_unit:0"]));
        assert_eq!(response.status(), 200);
        let body = response.text().unwrap();
        let mut fields = with(form_fields(&body, &new), "name", &["Scratch Built"]);
        fields = with(fields, "platoons[0][units][1][name]", &["Second Squad"]);
        fields = with(fields, "platoons[0][units][1][traits]", &["agile"]);
        let response = post_fields(&mut player, &new, &fields);
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        let built = location(&response).strip_prefix("/forces/").unwrap().to_owned();
        let json = force_json(app, "hana", &built);
        assert_eq!(json["name"], "Scratch Built");
        assert_eq!(json["platoons"][0]["units"][1]["traits"], serde_json::json!(["agile"]));

        // Advanced generation: more than 9 priority points is refused beside the points.
        let (form, _) = player.page(&format!("{new}?how=advanced"));
        let mut fields = with(form_fields(&form, &new), "name", &["Priority Test"]);
        for c in ["manpower", "fire_power", "gear", "support"] {
            fields = with(fields, &format!("priorities.{c}"), &["3"]);
        }
        let response = post_fields(&mut player, &new, &fields);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="error-summary""#) && body.contains(r#"value="Priority Test""#), "{body}");
        fields = with(fields, "priorities.support", &["0"]);
        fields = with(fields, "options.psionics", &["on"]);
        fields = with(fields, "exceptional_traits", &["tough"]);
        let response = post_fields(&mut player, &new, &fields);
        assert_eq!(response.status(), 303, "{}", response.text().unwrap());
        let generated = location(&response).strip_prefix("/forces/").unwrap().to_owned();
        assert_eq!(force_json(app, "hana", &generated)["name"], "Priority Test");
    }

    fn registration_takes_an_optional_display_name(app: &TestApp) {
        let mut browser = Browser::new(app);
        let (form, token) = browser.page("/register");
        assert!(form.contains(r#"<label for="f-display-name">Display name</label>"#), "{form}");
        let long = "x".repeat(60);
        let response = browser.post("/register", &[("csrf_token", &token), ("username", "jonas"), ("password", PASSWORD), ("display_name", &long)]);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="f-display-name-error""#) && body.contains(&long), "{body}");
        let response = browser.post("/register", &[("csrf_token", &token), ("username", "jonas"), ("password", PASSWORD), ("display_name", "Jonas the Bold")]);
        assert_eq!(response.status(), 303);
        let me = app.get_with_token("/api/v1/me", &bearer(app, "jonas"));
        assert_eq!(me.json::<Value>().unwrap()["display_name"], "Jonas the Bold");
    }
}

/// A backend whose server accepts webhooks on loopback addresses.
struct Hooks(TestApp);

impl Fixture for Hooks {
    fn create(backend: Backend) -> Self {
        Self(TestApp::spawn_with(
            backend,
            &[("FAD_WEBHOOK_ALLOW_PRIVATE", "true")],
        ))
    }
}

both_backends! {
    fn the_organiser_sets_house_rules_keys_and_webhooks_and_nobody_else_can(hooks: &Hooks) {
        let app = &hooks.0;
        let (mut organiser, mut player, mut outsider, force) = campaign_with_a_force(app, ["kira", "lars", "mona"]);
        let campaign = force_json(app, "lars", &force)["campaign_id"].as_str().unwrap().to_owned();
        let settings = format!("/campaigns/{campaign}/settings");
        let (campaign_page, _) = organiser.page(&format!("/campaigns/{campaign}"));
        assert!(campaign_page.contains(&format!(r#"href="{settings}""#)), "{campaign_page}");
        // Players get 403 and outsiders 404, for the page and every form.
        assert_eq!(player.get(&settings).status(), 403);
        assert_eq!(outsider.get(&settings).status(), 404);
        let (_, player_token) = player.page("/");
        for path in [settings.clone(), format!("/campaigns/{campaign}/api-keys"), format!("/campaigns/{campaign}/webhooks")] {
            let response = player.post(&path, &[("csrf_token", &player_token), ("key_name", "x"), ("url", "http://127.0.0.1:9/h"), ("events", "force.created"), ("version", "1")]);
            assert_eq!(response.status(), 403, "{path}");
        }

        let (page, token) = organiser.page(&settings);
        // Every house-rule switch of the vocabulary, with its default and text.
        let rules = app.get("/api/v1/rules").json::<Value>().unwrap();
        for rule in rules["house_rules"].as_array().unwrap() {
            let name = rule["name"].as_str().unwrap();
            assert!(page.contains(&format!(r#"name="{name}""#)), "{name}: {page}");
            let description = rule["description"].as_str().unwrap().replace('"', "&quot;");
            assert!(page.contains(&description), "{name}'s text: {page}");
        }
        assert!(page.contains("Default: on.") && page.contains("Default: off."), "{page}");
        // Without the token: refused, nothing changed.
        let mut fields = form_fields(&page, &settings);
        fields.retain(|(n, _)| n != "missions_hidden");
        fields = with(fields, "full_strength", &["battle_start"]);
        let response = post_fields(&mut organiser, &settings, &with(fields.clone(), "csrf_token", &["nope"]));
        assert_eq!(response.status(), 403);
        let response = post_fields(&mut organiser, &settings, &fields);
        assert_eq!(response.status(), 303);
        let stored = app.get_with_token(&format!("/api/v1/campaigns/{campaign}/settings"), &bearer(app, "kira")).json::<Value>().unwrap();
        assert_eq!(stored["house_rules"]["missions_hidden"], false, "{stored}");
        assert_eq!(stored["house_rules"]["full_strength"], "battle_start", "{stored}");
        // The same form again is stale now: it says so and changes nothing.
        let response = post_fields(&mut organiser, &settings, &with(fields.clone(), "full_strength", &["establishment"]));
        assert_eq!(response.status(), 409);
        assert!(response.text().unwrap().contains("Someone changed the settings meanwhile"));
        // A value the switch does not have: the form again with the error.
        let (page, _) = organiser.page(&settings);
        let response = post_fields(&mut organiser, &settings, &with(form_fields(&page, &settings), "morale_modifier", &["sometimes"]));
        assert_eq!(response.status(), 422);

        // API keys: an empty name is refused beside the field; a key's secret is shown once.
        let keys = format!("/campaigns/{campaign}/api-keys");
        let response = organiser.post(&keys, &[("csrf_token", &token), ("key_name", " ")]);
        assert_eq!(response.status(), 422);
        assert!(response.text().unwrap().contains(r#"id="f-key-name-error""#));
        let response = organiser.post(&keys, &[("csrf_token", &token), ("key_name", "Club website")]);
        assert_eq!(response.status(), 201);
        let body = response.text().unwrap();
        let start = body.find(r#"<code class="secret">"#).unwrap() + r#"<code class="secret">"#.len();
        let secret: String = body[start..].chars().take_while(|c| *c != '<').collect();
        let read = app.get_with_token(&format!("/api/v1/campaigns/{campaign}"), &secret);
        assert_eq!(read.status(), 200, "the key reads the campaign");
        let (page, _) = organiser.page(&settings);
        assert!(page.contains("Club website") && !page.contains(&secret), "shown once: {page}");
        let start = page.find(&format!("{keys}/")).unwrap();
        let revoke: String = page[start..].chars().take_while(|c| *c != '"').collect();
        assert_eq!(organiser.post(&revoke, &[("csrf_token", "")]).status(), 403);
        assert_eq!(organiser.post(&revoke, &[("csrf_token", &token)]).status(), 303);
        assert_eq!(app.get_with_token(&format!("/api/v1/campaigns/{campaign}"), &secret).status(), 401);

        // Webhooks: a bad URL is refused beside it with the input kept; a good one shows its
        // secret once, takes a test ping that shows in its delivery log, and is deleted.
        let hooks_path = format!("/campaigns/{campaign}/webhooks");
        let response = organiser.post(&hooks_path, &[("csrf_token", &token), ("url", "not a url"), ("events", "force.created"), ("description", "Bot")]);
        assert_eq!(response.status(), 422);
        let body = response.text().unwrap();
        assert!(body.contains(r#"id="f-url-error""#) && body.contains(r#"value="not a url""#), "{body}");
        let response = organiser.post(&hooks_path, &[("csrf_token", &token), ("url", "http://127.0.0.1:9/hook"), ("events", "force.created"), ("events", "battle.created")]);
        assert_eq!(response.status(), 201, "{}", response.text().unwrap_or_default());
        let (page, _) = organiser.page(&settings);
        assert!(page.contains("http://127.0.0.1:9/hook") && page.contains("force.created, battle.created") || page.contains("battle.created, force.created"), "{page}");
        let start = page.find(&format!("{hooks_path}/")).unwrap();
        let hook: String = page[start..].chars().take_while(|c| *c != '"').collect();
        let hook = hook.trim_end_matches("/test").trim_end_matches("/disable").trim_end_matches("/delete").to_owned();
        assert_eq!(organiser.post(&format!("{hook}/test"), &[("csrf_token", &token)]).status(), 303);
        let (log, _) = organiser.page(&hook);
        assert!(log.contains("ping"), "{log}");
        assert_eq!(player.get(&hook).status(), 403);
        // Disabled: it stays listed, marked, and takes no more pings.
        assert_eq!(organiser.post(&format!("{hook}/disable"), &[("csrf_token", "")]).status(), 403);
        assert_eq!(player.post(&format!("{hook}/disable"), &[("csrf_token", &player_token)]).status(), 403);
        assert_eq!(organiser.post(&format!("{hook}/disable"), &[("csrf_token", &token)]).status(), 303);
        let (page, _) = organiser.page(&settings);
        assert!(page.contains("Disabled") && page.contains("disabled by the organiser") && !page.contains("Send test ping"), "{page}");
        assert_eq!(organiser.post(&format!("{hook}/test"), &[("csrf_token", &token)]).status(), 409);
        assert_eq!(organiser.post(&format!("{hook}/delete"), &[("csrf_token", "")]).status(), 403);
        assert_eq!(organiser.post(&format!("{hook}/delete"), &[("csrf_token", &token)]).status(), 303);
        let (page, _) = organiser.page(&settings);
        assert!(page.contains("No webhooks."), "{page}");
    }
}
