//! Force generation by the marker draw (M10): the player names the force and its teams with
//! their sizes, kit and, if the table plays another mix, the pool of markers; each figure then
//! draws its grade and Motivation from the pool, team by team, one logged `marker_draw` roll
//! each (see [`super::markers`]).

use serde::{Deserialize, Serialize};

use super::figure::{FmaArmour, FmaProfile, FmaWeapon, Toughness};
use super::markers::{Marker, check_pool, default_pool, draw_from};
use crate::dice::{Dice, DiceError};
use crate::roster::{Force, Platoon, Problem, Unit, UnitKind, UnitStatus};
use crate::validation::{MAX_PLATOONS, MAX_UNITS_PER_PLATOON, check_name};

fn light() -> FmaArmour {
    FmaArmour::Light
}

/// One team to draw for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MarkerTeam {
    /// The team's name; also the subject of its draws (`dice.marker_draw.<name>`).
    pub name: String,
    /// Its figures, each drawing one marker.
    pub figures: u32,
    /// Every figure's armour (default `light`).
    #[serde(default = "light")]
    pub armour: FmaArmour,
    /// Every figure's weapons.
    #[serde(default)]
    pub weapons: Vec<FmaWeapon>,
}

/// The choices of a marker draw (`method: "markers"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MarkerChoices {
    /// The force's name.
    pub name: String,
    /// The teams, drawn in this order.
    pub teams: Vec<MarkerTeam>,
    /// The pool, in the order an entered die counts it; absent: two markers per figure of the
    /// default mix (M10).
    #[serde(default)]
    pub markers: Option<Vec<Marker>>,
}

impl MarkerChoices {
    /// Figures to draw for, over every team.
    pub fn figures(&self) -> usize {
        self.teams
            .iter()
            .map(|t| usize::try_from(t.figures).unwrap_or(usize::MAX))
            .fold(0, usize::saturating_add)
    }

    /// The pool the draw takes from.
    pub fn pool(&self) -> Vec<Marker> {
        self.markers
            .clone()
            .unwrap_or_else(|| default_pool(self.figures()))
    }
}

/// Every problem of the choices, before any die is rolled.
pub fn validate_choices(choices: &MarkerChoices) -> Vec<Problem> {
    let mut out = Vec::new();
    check_name(&choices.name, "name", &mut out);
    if choices.teams.is_empty() {
        out.push(Problem::new("teams", "name at least one team (M1)"));
    }
    if choices.teams.len() > MAX_PLATOONS {
        out.push(Problem::new(
            "teams",
            format!("at most {MAX_PLATOONS} teams"),
        ));
    }
    for (i, team) in choices.teams.iter().enumerate() {
        check_name(&team.name, &format!("teams[{i}].name"), &mut out);
        if choices.teams[..i].iter().any(|t| t.name == team.name) {
            out.push(Problem::new(
                format!("teams[{i}].name"),
                "two teams have this name: each team's draws are logged under its name",
            ));
        }
        let most = u32::try_from(MAX_UNITS_PER_PLATOON).unwrap_or(u32::MAX);
        if team.figures == 0 || team.figures > most {
            out.push(Problem::new(
                format!("teams[{i}].figures"),
                format!("a team has 1 to {most} figures, not {}", team.figures),
            ));
        }
    }
    if out.is_empty() {
        out.extend(check_pool(&choices.pool(), choices.figures()));
    }
    out
}

/// Whether `subject` names a team of the choices (the subjects `dice.marker_draw` may hold).
pub fn subject_allowed(choices: &MarkerChoices, subject: &str) -> bool {
    choices.teams.iter().any(|t| t.name == subject)
}

/// The force the draw gives: one figure per marker drawn, named after its team. Unit ids are
/// left empty for the service to assign. The caller validates the choices first.
pub fn generate_by_markers(
    choices: &MarkerChoices,
    dice: &mut dyn Dice,
) -> Result<Force, DiceError> {
    let mut left = choices.pool();
    let mut platoons = Vec::with_capacity(choices.teams.len());
    for team in &choices.teams {
        let figures = usize::try_from(team.figures).unwrap_or(0);
        let drawn = draw_from(dice, &mut left, figures, &team.name, None)?;
        let units = drawn
            .iter()
            .enumerate()
            .map(|(n, marker)| figure(team, n + 1, *marker))
            .collect();
        platoons.push(Platoon {
            name: team.name.clone(),
            units,
        });
    }
    Ok(Force {
        name: choices.name.clone(),
        platoons,
    })
}

fn figure(team: &MarkerTeam, n: usize, marker: Marker) -> Unit {
    let profile = FmaProfile {
        experience: marker.experience,
        motivation: marker.motivation,
        role: None,
        armour: team.armour,
        toughness: Toughness::Normal,
        weapons: team.weapons.clone(),
        dead: false,
        replaced: false,
    };
    let mut unit = Unit {
        name: format!("{} {n}", team.name),
        kind: UnitKind::Character,
        strength: 1,
        starting_strength: 1,
        status: UnitStatus::Active,
        ..Unit::default()
    };
    profile.sync_fad_fields(&mut unit);
    unit.fma = Some(profile);
    unit
}
