//! Reads that gather one person's view for the pages: their campaigns with the battles that
//! wait for them, and one campaign's overview (standings, battles, forces, members). Each is
//! one read transaction, authorized like the JSON reads (a non-member gets 404).

use std::collections::HashMap;

use crate::AppState;
use crate::app::battles::outcome::{side_label, who_won};
use crate::app::battles::result::may_confirm;
use crate::app::battles::{BattleResult, Side};
use crate::app::campaigns::standings::{StandingRow, ranked_rows};
use crate::auth::{Caller, Need, campaign_access};
use crate::db::Db;
use crate::error::ApiError;
use crate::store::battles::Battle;
use crate::store::{self, battles, campaigns, forces, memberships, users};
use fad_domain::lifecycle::BattleState;

/// Most campaigns, battles, forces or members one page lists.
pub const LIST_LIMIT: i64 = 200;

/// A campaign in "my campaigns".
#[derive(Debug, Clone)]
pub struct MyCampaign {
    /// Campaign id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `organiser` or `player`.
    pub role: String,
}

/// A battle as a list shows it.
#[derive(Debug, Clone)]
pub struct BattleLine {
    /// Battle id.
    pub id: String,
    /// Its campaign.
    pub campaign_id: String,
    /// The sides by name (a force's name, or "Non-player force").
    pub sides: Vec<String>,
    /// The stored state.
    pub state: String,
    /// What it waits for, in words.
    pub waits_for: &'static str,
    /// Who won, in words ("Alpha Company (Ann) won", "Draw"), once a result stands (not for
    /// a void battle).
    pub outcome: Option<String>,
    /// When it was created (UTC).
    pub created_at: chrono::NaiveDateTime,
    /// What the person reading the list must do next, in words ("Confirm the result of A vs
    /// B"), when the battle waits for them; set on the home page only.
    pub your_turn: Option<String>,
}

/// The home page of a signed-in person.
#[derive(Debug, Clone, Default)]
pub struct Home {
    /// Campaigns, newest first.
    pub campaigns: Vec<MyCampaign>,
    /// Unfinished battles one of my forces fights, newest first.
    pub waiting: Vec<BattleLine>,
}

/// What a battle in `state` waits for.
pub fn waits_for(state: BattleState) -> &'static str {
    match state {
        BattleState::Scenario => "Waiting for the scenario and the result",
        BattleState::Pending => "Waiting for the result to be confirmed",
        BattleState::Aftermath => "Waiting for the post-battle sequences",
        BattleState::Complete => "Complete",
        BattleState::Void => "Void",
    }
}

/// Who won `battle`, in words, when it has a result that stands; `labels` name each force
/// with its owner.
fn battle_outcome(
    battle: &Battle,
    sides: &[Side],
    labels: &HashMap<String, String>,
) -> Option<String> {
    if battle.state == BattleState::Void {
        return None;
    }
    let result: BattleResult = serde_json::from_str(battle.result.as_deref()?).ok()?;
    let labelled: Vec<(Option<String>, String)> = sides
        .iter()
        .map(|side| {
            let label = match (&side.force_id, &side.non_player) {
                (Some(id), _) => labels.get(id).cloned(),
                (None, Some(np)) => np.name.clone(),
                (None, None) => None,
            };
            let label = label.unwrap_or_else(|| "Non-player force".to_owned());
            (side.force_id.clone(), label)
        })
        .collect();
    Some(who_won(
        &result.outcome,
        result.winner_force_id.as_deref(),
        &labelled,
    ))
}

/// `names` name each force, `labels` each force with its owner.
fn battle_line(
    battle: &Battle,
    names: &HashMap<String, String>,
    labels: &HashMap<String, String>,
) -> BattleLine {
    let sides: Vec<Side> = serde_json::from_str(&battle.sides).unwrap_or_default();
    BattleLine {
        outcome: battle_outcome(battle, &sides, labels),
        id: battle.id.clone(),
        campaign_id: battle.campaign_id.clone(),
        sides: sides
            .iter()
            .map(|side| match &side.force_id {
                Some(id) => names
                    .get(id)
                    .cloned()
                    .unwrap_or_else(|| "A force".to_owned()),
                None => "Non-player force".to_owned(),
            })
            .collect(),
        state: battle.state.as_str().to_owned(),
        waits_for: waits_for(battle.state),
        created_at: battle.created_at,
        your_turn: None,
    }
}

/// What `battle` asks of the person reading their home page, in words: a pending result they
/// may confirm (the other side's owner, or an organiser who plays neither side), the wait for
/// the other side when they recorded it, or refereeing.
fn your_turn(
    battle: &Battle,
    line: &BattleLine,
    organiser: bool,
    fights: bool,
    user_id: &str,
) -> Option<String> {
    let matchup = line.sides.join(" vs ");
    let recorded_it = battle.result_by.as_deref() == Some(user_id);
    match battle.state {
        BattleState::Pending if may_confirm(organiser, fights, recorded_it) => {
            Some(format!("Confirm the result of {matchup}"))
        }
        BattleState::Pending if recorded_it => Some(format!(
            "You recorded the result of {matchup}; the other side confirms it"
        )),
        _ if organiser && !fights => Some(format!(
            "You referee {matchup}: {}",
            line.waits_for.to_lowercase()
        )),
        _ => None,
    }
}

/// My campaigns, the unfinished battles of my forces and, for an organiser, every unfinished
/// battle of the campaign they referee.
pub async fn home(state: &AppState, user_id: &str) -> Result<Home, ApiError> {
    let user_id = user_id.to_owned();
    state
        .db
        .read(move |conn| {
            let mine = campaigns::list_for_user(conn, &user_id, None, LIST_LIMIT)?;
            let mut home = Home::default();
            for (campaign, role) in mine {
                let listed = forces::list_for_campaign(conn, &campaign.id, true, None, LIST_LIMIT)?;
                let labels: HashMap<String, String> = listed
                    .iter()
                    .map(|(f, (username, display))| {
                        let owner = users::shown(username.clone(), display.clone());
                        (f.id.clone(), side_label(&f.name, Some(&owner)))
                    })
                    .collect();
                let forces: Vec<forces::Force> =
                    listed.into_iter().map(|(force, _owner)| force).collect();
                let names: HashMap<String, String> = forces
                    .iter()
                    .map(|f| (f.id.clone(), f.name.clone()))
                    .collect();
                let own: Vec<&str> = forces
                    .iter()
                    .filter(|f| f.owner_id == user_id)
                    .map(|f| f.id.as_str())
                    .collect();
                let organiser = role == "organiser";
                if !own.is_empty() || organiser {
                    for battle in battles::list_for_campaign(conn, &campaign.id, None, LIST_LIMIT)?
                    {
                        let sides: Vec<Side> =
                            serde_json::from_str(&battle.sides).unwrap_or_default();
                        let fights = sides
                            .iter()
                            .any(|s| s.force_id.as_deref().is_some_and(|id| own.contains(&id)));
                        let open = matches!(
                            battle.state,
                            BattleState::Scenario | BattleState::Pending | BattleState::Aftermath
                        );
                        // An organiser who plays neither side referees: the battle waits for
                        // them too (a result to confirm, a correction to make).
                        if open && (fights || organiser) {
                            let mut line = battle_line(&battle, &names, &labels);
                            line.your_turn = your_turn(&battle, &line, organiser, fights, &user_id);
                            home.waiting.push(line);
                        }
                    }
                }
                home.campaigns.push(MyCampaign {
                    id: campaign.id,
                    name: campaign.name,
                    role,
                });
            }
            home.waiting
                .sort_by_key(|b| std::cmp::Reverse(b.created_at));
            Ok(home)
        })
        .await
}

/// A force as the campaign page lists it.
#[derive(Debug, Clone)]
pub struct ForceLine {
    /// Force id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its owner's username.
    pub owner: String,
    /// Whether it is archived.
    pub archived: bool,
}

/// A member as the campaign page lists it.
#[derive(Debug, Clone)]
pub struct MemberLine {
    /// Username.
    pub username: String,
    /// `organiser` or `player`.
    pub role: String,
}

/// One campaign as a member sees it.
#[derive(Debug, Clone)]
pub struct CampaignOverview {
    /// Campaign id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// The caller's role.
    pub my_role: String,
    /// Standings, ranked.
    pub standings: Vec<StandingRow>,
    /// Battles, newest first.
    pub battles: Vec<BattleLine>,
    /// Forces, oldest first.
    pub forces: Vec<ForceLine>,
    /// Members, organiser first.
    pub members: Vec<MemberLine>,
    /// The house rules as switches `(name, on)`, for the organiser.
    pub house_rules: Vec<(String, bool)>,
    /// Open invitations (id, uses, expiry), for the organiser.
    pub open_invites: usize,
    /// The name of the ruleset the campaign plays, and its page.
    pub ruleset: (String, String),
    /// Integration keys that are not revoked `(prefix, name)`, for the organiser.
    pub api_keys: Vec<String>,
}

fn usernames(
    conn: &mut Db,
    campaign_id: &str,
) -> Result<Vec<(memberships::Membership, String)>, ApiError> {
    // The name other players see: the display name, or else the username.
    Ok(
        memberships::list_with_usernames(conn, campaign_id, None, LIST_LIMIT)?
            .into_iter()
            .map(|(member, (username, display_name))| (member, display_name.unwrap_or(username)))
            .collect(),
    )
}

/// The campaign page's read: the caller must be a member (else 404).
pub async fn campaign_overview(
    state: &AppState,
    user_id: &str,
    campaign_id: &str,
) -> Result<CampaignOverview, ApiError> {
    let caller = Caller::User {
        user_id: user_id.to_owned(),
    };
    let campaign_id = campaign_id.to_owned();
    state
        .db
        .read(move |conn| {
            let access = campaign_access(conn, &caller, &campaign_id, Need::Read)?;
            let campaign = campaigns::find_by_id(conn, &campaign_id)?
                .ok_or_else(|| ApiError::not_found("campaign"))?;
            let members = usernames(conn, &campaign_id)?;
            let owner_names: HashMap<String, String> = members
                .iter()
                .map(|(m, name)| (m.user_id.clone(), name.clone()))
                .collect();
            let force_rows: Vec<forces::Force> =
                forces::list_for_campaign(conn, &campaign_id, true, None, LIST_LIMIT)?
                    .into_iter()
                    .map(|(force, _owner)| force)
                    .collect();
            let names: HashMap<String, String> = force_rows
                .iter()
                .map(|f| (f.id.clone(), f.name.clone()))
                .collect();
            let labels: HashMap<String, String> = force_rows
                .iter()
                .map(|f| {
                    let owner = owner_names.get(&f.owner_id).map(String::as_str);
                    (f.id.clone(), side_label(&f.name, owner))
                })
                .collect();
            let mut battle_lines: Vec<BattleLine> =
                battles::list_for_campaign(conn, &campaign_id, None, LIST_LIMIT)?
                    .iter()
                    .map(|b| battle_line(b, &names, &labels))
                    .collect();
            battle_lines.reverse();
            let organiser = access.is_organiser();
            let settings = campaign
                .settings()
                .map_err(|e| ApiError::Internal(e.into()))?;
            let house_rules = if organiser {
                match serde_json::to_value(settings.house_rules) {
                    Ok(serde_json::Value::Object(map)) => map
                        .into_iter()
                        .map(|(k, v)| (k, v.as_bool().unwrap_or(false)))
                        .collect(),
                    _ => Vec::new(),
                }
            } else {
                Vec::new()
            };
            let pinned = crate::app::rulesets::load(conn, &settings.ruleset)?;
            let ruleset = (
                format!("{} (version {})", pinned.name, pinned.version),
                format!("/rules/{}", pinned.id),
            );
            let now = store::now();
            let (open_invites, api_keys) = if organiser {
                let invites =
                    store::invites::list_for_campaign(conn, &campaign_id, None, LIST_LIMIT)?;
                let keys =
                    store::api_keys::list_for_campaign(conn, &campaign_id, None, LIST_LIMIT)?;
                (
                    invites.iter().filter(|i| i.is_usable(now)).count(),
                    keys.into_iter()
                        .filter(|k| k.revoked_at.is_none())
                        .map(|k| format!("{} ({}…)", k.name, k.key_prefix))
                        .collect(),
                )
            } else {
                (0, Vec::new())
            };
            Ok(CampaignOverview {
                standings: ranked_rows(conn, &campaign_id)?,
                id: campaign.id,
                name: campaign.name,
                description: campaign.description,
                my_role: if organiser { "organiser" } else { "player" }.to_owned(),
                battles: battle_lines,
                forces: force_rows
                    .into_iter()
                    .map(|f| ForceLine {
                        owner: owner_names
                            .get(&f.owner_id)
                            .cloned()
                            .unwrap_or_else(|| "a former member".to_owned()),
                        id: f.id,
                        name: f.name,
                        archived: f.archived_at.is_some(),
                    })
                    .collect(),
                members: members
                    .into_iter()
                    .map(|(m, username)| MemberLine {
                        role: m.role,
                        username,
                    })
                    .collect(),
                house_rules,
                open_invites,
                ruleset,
                api_keys,
            })
        })
        .await
}
