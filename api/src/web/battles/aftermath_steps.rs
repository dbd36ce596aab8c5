//! The forms of the post-battle page ([`crate::web::battles::aftermath`]): each parses its fields, calls the
//! same use case as the JSON API (roll, reinforcements, purchases, finalize) and answers 303 back
//! to the page, or the page again with the error beside its field and the input kept.

use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, post, web};
use fad_domain::campaign::{
    Allocation, NewSquad, PlatoonRef, Purchase, PurchaseItem, ReinforcementChoice, TeamAllocation,
};
use fad_domain::dice::RollStep;
use fad_domain::kit::Personality;
use fad_domain::names::Named;
use fad_domain::traits::Trait;
use serde::Deserialize;

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::battle_pages;
use crate::app::battles::aftermath::finalize::{FORGO_FIELD, FinalizeRequest, finalize_aftermath};
use crate::app::battles::aftermath::purchases::{Parsed, purchase_aftermath};
use crate::app::battles::aftermath::reinforcements::reinforce_aftermath;
use crate::app::battles::aftermath::roll::roll_aftermath;
use crate::app::battles::aftermath::{DiceRequest, RawDice};
use crate::error::{ApiError, FieldError};

use crate::web::battles::aftermath::{Failure, Ids, aftermath_page, purchase_key};
use crate::web::battles::result::{Fields, auth_user, check_csrf, page_write};
use crate::web::layout::Errors;
use crate::web::nested_form::{UnreadableForm, form_name, read_pairs};
use crate::web::{PageError, require_user, respond, see_other};

/// After an action: the page again, or on failure the page with the error and the input kept.
async fn answer(
    state: &AppState,
    user: &SessionUser,
    battle_id: &str,
    force_id: &str,
    fields: &Fields,
    result: Result<(), ApiError>,
    anchor: &str,
) -> Result<HttpResponse, PageError> {
    let failure = match result {
        Ok(()) => {
            return Ok(see_other(&format!(
                "/battles/{battle_id}/aftermath/{force_id}#{anchor}"
            )));
        }
        Err(ApiError::Validation(errors)) => Failure {
            errors: Errors(errors),
            conflict: None,
        },
        Err(ApiError::Conflict(message)) => Failure {
            errors: Errors::default(),
            conflict: Some(message),
        },
        Err(other) => return Err(other.into()),
    };
    let status = if failure.conflict.is_some() {
        StatusCode::CONFLICT
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let view = battle_pages::aftermath_view(state, &user.user_id, battle_id, force_id).await?;
    if !view.role.may_run(force_id) {
        // Someone who may not act never gets the forms back, whatever they sent.
        return Err(ApiError::Forbidden(
            "Only the force's owner or the organiser may run its post-battle sequence.".to_owned(),
        )
        .into());
    }
    Ok(respond(
        status,
        aftermath_page(state, user, &view, fields, &failure),
    ))
}

/// A die's entered text: `None` when empty, else its value (faces are checked by the rules).
fn die_value(text: &str) -> Result<Option<u8>, ()> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<u8>().map(Some).map_err(|_| ())
}

/// `POST /battles/{id}/aftermath/{force_id}/roll`: rolls the next step with the entered dice.
#[post("/battles/{id}/aftermath/{force_id}/roll")]
pub async fn roll_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: Ids,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let (battle_id, force_id) = path.into_inner();
    let step = fields.get("step").cloned();
    // The entered dice, by step and subject, in die order: `dice.<step>.<subject>.<k>`.
    let mut dice: BTreeMap<(String, String), BTreeMap<usize, u8>> = BTreeMap::new();
    let mut errors = Vec::new();
    for (key, text) in &fields {
        let Some(rest) = key.strip_prefix("dice.") else {
            continue;
        };
        let mut parts = rest.rsplitn(2, '.');
        let (Some(k), Some(head)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Some((step_name, subject)) = head.split_once('.') else {
            continue;
        };
        let Ok(k) = k.parse::<usize>() else { continue };
        match die_value(text) {
            Ok(Some(v)) => {
                dice.entry((step_name.to_owned(), subject.to_owned()))
                    .or_default()
                    .insert(k, v);
            }
            Ok(None) => {}
            Err(()) => errors.push(FieldError::new(
                format!("dice.{head}"),
                "enter a die's face, 1 to 6, or leave it empty",
            )),
        }
    }
    let result = if errors.is_empty() {
        let mut raw = RawDice::new();
        for ((step_name, subject), values) in dice {
            raw.entry(step_name)
                .or_default()
                .insert(subject, values.into_values().collect());
        }
        let request = DiceRequest {
            step,
            dice: (!raw.is_empty()).then_some(raw),
            client_seed: None,
        };
        let write = page_write(
            &user,
            format!("page POST /battles/{battle_id}/aftermath/{force_id}/roll"),
        );
        roll_aftermath(
            &state,
            &auth_user(&user),
            battle_id.clone(),
            force_id.clone(),
            request,
            write,
        )
        .await
        .map(|_| ())
    } else {
        Err(ApiError::Validation(errors))
    };
    answer(
        &state, &user, &battle_id, &force_id, &fields, result, "dice",
    )
    .await
}

/// `POST /battles/{id}/aftermath/{force_id}/reinforcements`: sets the allocation.
#[post("/battles/{id}/aftermath/{force_id}/reinforcements")]
pub async fn reinforcements_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: Ids,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let (battle_id, force_id) = path.into_inner();
    let mut errors = Vec::new();
    let mut allocations = Vec::new();
    // A force of figures names teams by their place (M7): `figures.<index>`.
    let mut teams = Vec::new();
    for (key, text) in &fields {
        let Some(index) = key.strip_prefix("figures.") else {
            continue;
        };
        match (index.parse::<usize>(), text.trim()) {
            (_, "") => {}
            (Ok(i), text) => match text.parse::<u32>() {
                Ok(0) => {}
                Ok(figures) => teams.push(TeamAllocation {
                    team: PlatoonRef::Index(i),
                    figures,
                }),
                Err(_) => errors.push(FieldError::new(
                    key.clone(),
                    "enter a whole number of figures, or leave it empty",
                )),
            },
            (Err(_), _) => {}
        }
    }
    for (key, text) in &fields {
        let Some(unit_id) = key.strip_prefix("troopers.") else {
            continue;
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match text.parse::<u32>() {
            Ok(0) => {}
            Ok(troopers) => allocations.push(Allocation {
                unit_id: unit_id.to_owned(),
                troopers,
            }),
            Err(_) => errors.push(FieldError::new(
                key.clone(),
                "enter a whole number of troopers, or leave it empty",
            )),
        }
    }
    let name = fields.get("new_squad.name").map_or("", |s| s.trim());
    let troopers = fields.get("new_squad.troopers").map_or("", |s| s.trim());
    let platoon = fields.get("new_squad.platoon").map_or("", |s| s.trim());
    let new_squad = if name.is_empty() && troopers.is_empty() {
        None
    } else {
        match troopers.parse::<u32>() {
            Ok(n) => Some(NewSquad {
                name: name.to_owned(),
                troopers: n,
                platoon: (!platoon.is_empty()).then(|| PlatoonRef::Name(platoon.to_owned())),
                id: None,
                modelled_on: None,
            }),
            Err(_) => {
                errors.push(FieldError::new(
                    "new_squad.troopers",
                    "enter the new squad's troopers, 5 to 8",
                ));
                None
            }
        }
    };
    let result = if errors.is_empty() {
        // The rules name allocations by their place in the list; the form names them by unit.
        let order: Vec<String> = allocations.iter().map(|a| a.unit_id.clone()).collect();
        let team_order: Vec<String> = teams
            .iter()
            .map(|t| match &t.team {
                PlatoonRef::Index(i) => i.to_string(),
                PlatoonRef::Name(name) => name.clone(),
            })
            .collect();
        let choice = ReinforcementChoice {
            teams,
            allocations,
            new_squad,
        };
        let write = page_write(
            &user,
            format!("page POST /battles/{battle_id}/aftermath/{force_id}/reinforcements"),
        );
        reinforce_aftermath(
            &state,
            &auth_user(&user),
            battle_id.clone(),
            force_id.clone(),
            choice,
            write,
        )
        .await
        .map(|_| ())
        .map_err(|e| {
            rename_fields(e, |field| {
                if let Some(rest) = field.strip_prefix("teams[") {
                    let (n, _) = rest.split_once(']')?;
                    let team = team_order.get(n.parse::<usize>().ok()?)?;
                    return Some(format!("figures.{team}"));
                }
                let rest = field.strip_prefix("allocations[")?;
                let (n, _) = rest.split_once(']')?;
                let unit = order.get(n.parse::<usize>().ok()?)?;
                Some(format!("troopers.{unit}"))
            })
        })
    } else {
        Err(ApiError::Validation(errors))
    };
    answer(
        &state,
        &user,
        &battle_id,
        &force_id,
        &fields,
        result,
        "reinforcements",
    )
    .await
}

/// Renames the fields of a validation error (`rename` answers `None` to keep a field).
fn rename_fields(error: ApiError, rename: impl Fn(&str) -> Option<String>) -> ApiError {
    match error {
        ApiError::Validation(errors) => ApiError::Validation(
            errors
                .into_iter()
                .map(|e| match rename(&e.field) {
                    Some(field) => FieldError::new(field, e.message),
                    None => e,
                })
                .collect(),
        ),
        other => other,
    }
}

/// `POST /battles/{id}/aftermath/{force_id}/purchases`: replaces the purchases.
/// The purchase form's rows as serde_qs reads them from the bracketed names
/// (`purchases[2][item]`), by row; each row's fields by name.
#[derive(Debug, Default, Deserialize)]
struct PurchasesForm {
    #[serde(default)]
    purchases: BTreeMap<usize, BTreeMap<String, String>>,
}

#[post("/battles/{id}/aftermath/{force_id}/purchases")]
pub async fn purchases_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: Ids,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let pairs = form.into_inner();
    let fields: Fields = pairs.iter().cloned().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let (battle_id, force_id) = path.into_inner();
    let mut errors = Vec::new();
    let mut list = Vec::new();
    let mut order = Vec::new();
    let rows = read_pairs::<PurchasesForm>(&pairs).unwrap_or_else(|UnreadableForm| {
        errors.push(FieldError::new("extra_dice", UnreadableForm::MESSAGE));
        PurchasesForm::default()
    });
    for (row, line) in &rows.purchases {
        let row = *row;
        let get = |f: &str| line.get(f).map_or("", |s| s.trim());
        let item = get("item");
        if item.is_empty() {
            continue;
        }
        let Ok(item) = PurchaseItem::parse(item) else {
            errors.push(FieldError::new(
                purchase_key(row, "item"),
                "choose an item of the menu",
            ));
            continue;
        };
        // Each item takes only what it names: a unit, a personality, a trait.
        let unit_id = Some(get("unit_id")).filter(|u| !u.is_empty() && item.needs_unit());
        let personality = match get("personality") {
            "" => None,
            _ if item != PurchaseItem::GrantPersonality => None,
            name => match Personality::parse(name) {
                Ok(p) => Some(p),
                Err(_) => {
                    errors.push(FieldError::new(
                        purchase_key(row, "personality"),
                        "choose a personality of the list",
                    ));
                    continue;
                }
            },
        };
        let trait_ = match get("trait") {
            "" => None,
            _ if item != PurchaseItem::AssignTrait => None,
            name => match Trait::parse(name) {
                Ok(t) => Some(t),
                Err(_) => {
                    errors.push(FieldError::new(
                        purchase_key(row, "trait"),
                        "choose a trait of the list",
                    ));
                    continue;
                }
            },
        };
        let mut purchase = Purchase::of(item, unit_id);
        purchase.personality = personality;
        purchase.trait_ = trait_;
        list.push(purchase);
        order.push(row);
    }
    let mut extra = Vec::new();
    for text in fields
        .get("extra_dice")
        .map_or("", String::as_str)
        .split([' ', ','])
    {
        match die_value(text) {
            Ok(Some(v)) => extra.push(v),
            Ok(None) => {}
            Err(()) => {
                errors.push(FieldError::new(
                    "extra_dice",
                    "enter dice faces, 1 to 6, separated by spaces",
                ));
                break;
            }
        }
    }
    let result = if errors.is_empty() {
        let dice = (!extra.is_empty()).then(|| {
            let mut raw = RawDice::new();
            raw.entry(RollStep::ReinforcementsExtra.to_string())
                .or_default()
                .insert(force_id.clone(), extra);
            raw
        });
        let request = Parsed {
            purchases: list,
            dice,
            client_seed: None,
        };
        let write = page_write(
            &user,
            format!("page POST /battles/{battle_id}/aftermath/{force_id}/purchases"),
        );
        purchase_aftermath(
            &state,
            &auth_user(&user),
            battle_id.clone(),
            force_id.clone(),
            request,
            write,
        )
        .await
        .map(|_| ())
        .map_err(|e| {
            rename_fields(e, |field| {
                if field.starts_with("dice.") {
                    return Some("extra_dice".to_owned());
                }
                let rest = field.strip_prefix("purchases[")?;
                let (n, tail) = rest.split_once(']')?;
                let row = order.get(n.parse::<usize>().ok()?)?;
                Some(form_name(&format!("purchases[{row}]{tail}")))
            })
        })
    } else {
        Err(ApiError::Validation(errors))
    };
    answer(
        &state,
        &user,
        &battle_id,
        &force_id,
        &fields,
        result,
        "purchases",
    )
    .await
}

/// `POST /battles/{id}/aftermath/{force_id}/finalize`: commits the sequence.
#[post("/battles/{id}/aftermath/{force_id}/finalize")]
pub async fn finalize_page(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: Ids,
    form: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    let fields: Fields = form.into_inner().into_iter().collect();
    check_csrf(&req, &state, &user, &fields)?;
    let (battle_id, force_id) = path.into_inner();
    let write = page_write(
        &user,
        format!("page POST /battles/{battle_id}/aftermath/{force_id}/finalize"),
    );
    let request = FinalizeRequest {
        forgo_reinforcements: fields.get(FORGO_FIELD).is_some_and(|v| v == "1"),
    };
    let result = finalize_aftermath(
        &state,
        &auth_user(&user),
        battle_id.clone(),
        force_id.clone(),
        request,
        write,
    )
    .await
    .map(|_| ());
    answer(
        &state, &user, &battle_id, &force_id, &fields, result, "summary",
    )
    .await
}
