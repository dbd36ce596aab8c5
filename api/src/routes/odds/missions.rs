//! `GET /api/v1/odds/missions?stance=…&attitude=…&bonus=…&bonus=…`: each mission's exact chance
//! of being assigned at step 5 and the chance of a tie (docs/rules.md §3.5, S8, S9).

use actix_web::{HttpResponse, get, web};
use fad_domain::names::Named;
use fad_domain::odds::{Chance, MissionBonuses, MissionOdds, OddsQuery};
use fad_domain::orders::{Attitude, Mission, Stance};
use serde::Serialize;
use utoipa::{IntoParams, ToSchema};

use crate::app::odds::cached_odds;
use crate::error::{ApiError, FieldError, Problem};

/// The query parameters (documentation only: the handler reads the raw pairs so that `bonus`
/// may repeat).
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, reason = "documents the query string for OpenAPI")]
pub struct OddsParams {
    /// `offensive`, `neutral` or `defensive`.
    #[param(value_type = fad_domain::orders::Stance)]
    stance: String,
    /// `aggressive`, `cautious` or `passive`.
    #[param(value_type = fad_domain::orders::Attitude)]
    attitude: String,
    /// A mission taking a +1 (S8): give it twice for the two bonuses, or not at all.
    #[param(value_type = Option<Vec<fad_domain::orders::RolledMission>>)]
    bonus: Option<Vec<String>>,
}

/// An exact probability.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ChanceBody {
    /// Over `denominator` (6^8 × 840, shared by every chance in the answer).
    pub numerator: u64,
    /// The common denominator.
    pub denominator: u64,
    /// The same fraction in lowest terms, `"p/q"`.
    #[schema(example = "35/162")]
    pub fraction: String,
    /// `numerator / denominator` as a float.
    pub probability: f64,
}

impl ChanceBody {
    fn new(chance: Chance, denominator: u64) -> Self {
        let g = gcd(chance.numerator, denominator).max(1);
        Self {
            numerator: chance.numerator,
            denominator,
            fraction: format!("{}/{}", chance.numerator / g, denominator / g),
            probability: chance.probability,
        }
    }
}

/// One mission's chance of being assigned (a tie split evenly among the tied missions).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct MissionChanceBody {
    /// The mission (one of the eight rolled missions).
    #[schema(value_type = fad_domain::orders::RolledMission, example = "assault")]
    pub mission: Mission,
    /// Its chance.
    #[serde(flatten)]
    pub chance: ChanceBody,
}

/// The odds of step 5 for one side.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct MissionOddsResponse {
    /// The stance asked about.
    #[schema(example = "offensive")]
    pub stance: Stance,
    /// The attitude asked about.
    #[schema(example = "aggressive")]
    pub attitude: Attitude,
    /// The two +1 bonuses, or empty.
    #[schema(value_type = Vec<fad_domain::orders::RolledMission>)]
    pub bonuses: Vec<Mission>,
    /// The common denominator of every numerator: 6^8 × 840.
    pub denominator: u64,
    /// Every rolled mission, in MISSION TABLE order; the numerators sum to `denominator`.
    pub missions: Vec<MissionChanceBody>,
    /// The chance that two or more missions share the top total (the player then picks, S9;
    /// the one-shot generator picks uniformly).
    pub tie: ChanceBody,
}

impl From<&MissionOdds> for MissionOddsResponse {
    fn from(odds: &MissionOdds) -> Self {
        Self {
            stance: odds.query.stance,
            attitude: odds.query.attitude,
            bonuses: odds.query.bonuses.map(Vec::from).unwrap_or_default(),
            denominator: odds.denominator,
            missions: odds
                .missions
                .iter()
                .map(|m| MissionChanceBody {
                    mission: m.mission,
                    chance: ChanceBody::new(m.chance, odds.denominator),
                })
                .collect(),
            tie: ChanceBody::new(odds.tie, odds.denominator),
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Lists a named enum's accepted values for an error message.
fn accepted<T: Named>() -> String {
    T::ALL
        .iter()
        .map(|v| v.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads one required enum parameter, recording a problem when it is missing, repeated or unknown.
fn one<T: Named>(pairs: &[(String, String)], key: &str, errors: &mut Vec<FieldError>) -> Option<T> {
    let values: Vec<&str> = pairs
        .iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect();
    match values.as_slice() {
        [] => errors.push(FieldError::new(
            key,
            format!("is required; give one of: {}", accepted::<T>()),
        )),
        [value] => match T::parse(value) {
            Ok(v) => return Some(v),
            Err(_) => errors.push(FieldError::new(
                key,
                format!("must be one of: {}, not \"{value}\"", accepted::<T>()),
            )),
        },
        _ => errors.push(FieldError::new(
            key,
            "is given more than once; give it once",
        )),
    }
    None
}

/// Parses the query pairs into an [`OddsQuery`], every problem at once.
pub fn parse_query(pairs: &[(String, String)]) -> Result<OddsQuery, ApiError> {
    let mut errors = Vec::new();
    for (key, _) in pairs {
        if !["stance", "attitude", "bonus"].contains(&key.as_str()) {
            errors.push(FieldError::new(
                key.clone(),
                "is not a parameter of this request; use stance, attitude and bonus",
            ));
        }
    }
    let stance = one::<Stance>(pairs, "stance", &mut errors);
    let attitude = one::<Attitude>(pairs, "attitude", &mut errors);
    let mut bonuses = Vec::new();
    for (_, value) in pairs.iter().filter(|(k, _)| k == "bonus") {
        match Mission::parse(value) {
            Ok(m) => bonuses.push(m),
            Err(_) => errors.push(FieldError::new(
                "bonus",
                format!(
                    "must be a rolled mission, one of: {}, not \"{value}\"",
                    Mission::ROLLED
                        .iter()
                        .map(|m| m.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
    let bonuses = if errors.iter().any(|e| e.field == "bonus") {
        None
    } else {
        MissionBonuses::from_slice(&bonuses)
            .map_err(|e| errors.push(FieldError::new("bonus", e.to_string())))
            .ok()
            .flatten()
    };
    match (stance, attitude) {
        (Some(stance), Some(attitude)) if errors.is_empty() => Ok(OddsQuery {
            stance,
            attitude,
            bonuses,
        }),
        _ => Err(ApiError::Validation(errors)),
    }
}

/// The exact odds of each mission and of a tie for one side's choices. Public: no credentials.
#[utoipa::path(
    tag = "odds",
    operation_id = "get_mission_odds",
    params(OddsParams),
    responses(
        (status = 200, description = "Each mission's exact chance and the tie chance", body = MissionOddsResponse),
        (status = 400, description = "Unreadable query string", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Missing or unknown stance or attitude, unknown mission, not exactly zero or two different bonuses", body = Problem, content_type = "application/problem+json"),
        (status = "5XX", description = "Server error", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/odds/missions")]
pub async fn get_mission_odds(
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, ApiError> {
    let query = parse_query(&query)?;
    let odds = web::block(move || cached_odds(query)).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=86400"))
        .json(MissionOddsResponse::from(&odds)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()
    }

    #[test]
    fn two_bonuses_parse_in_any_order_and_none_is_fine() {
        let q = parse_query(&pairs(&[
            ("stance", "offensive"),
            ("attitude", "passive"),
            ("bonus", "sweep"),
            ("bonus", "assault"),
        ]))
        .unwrap();
        assert!(q.bonuses.is_some());
        let q = parse_query(&pairs(&[("stance", "neutral"), ("attitude", "cautious")])).unwrap();
        assert!(q.bonuses.is_none());
    }

    #[test]
    fn bad_values_name_their_parameter() {
        for (q, field) in [
            (
                vec![("stance", "sideways"), ("attitude", "passive")],
                "stance",
            ),
            (vec![("stance", "neutral")], "attitude"),
            (
                vec![
                    ("stance", "neutral"),
                    ("attitude", "passive"),
                    ("bonus", "hold"),
                ],
                "bonus",
            ),
            (
                vec![
                    ("stance", "neutral"),
                    ("attitude", "passive"),
                    ("bonus", "hold"),
                    ("bonus", "hold"),
                ],
                "bonus",
            ),
            (
                vec![
                    ("stance", "neutral"),
                    ("attitude", "passive"),
                    ("bonus", "escalating_engagement"),
                    ("bonus", "hold"),
                ],
                "bonus",
            ),
            (
                vec![("stance", "neutral"), ("attitude", "passive"), ("x", "1")],
                "x",
            ),
        ] {
            let Err(ApiError::Validation(errors)) = parse_query(&pairs(&q)) else {
                panic!("{q:?} accepted");
            };
            assert!(errors.iter().any(|e| e.field == field), "{q:?}: {errors:?}");
        }
    }

    #[test]
    fn fractions_are_in_lowest_terms() {
        let c = ChanceBody::new(
            Chance {
                numerator: 840,
                probability: 0.0,
            },
            1680,
        );
        assert_eq!(c.fraction, "1/2");
        let zero = ChanceBody::new(
            Chance {
                numerator: 0,
                probability: 0.0,
            },
            1680,
        );
        assert_eq!(zero.fraction, "0/1");
    }
}
