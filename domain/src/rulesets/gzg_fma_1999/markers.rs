//! Force generation by the marker draw (M10; 003 l.126–131, l.371–388): each figure of a team
//! draws one activation marker, grade and Motivation, at random from a pool without putting it
//! back. Every draw is a logged `marker_draw` roll of one die with as many sides as markers are
//! left (`1d8`, then `1d7`...), subject the team's name; an entered value picks that position
//! among the markers still in the pool, in the pool's listed order.

use serde::{Deserialize, Serialize};

use super::figure::Experience;
use crate::dice::{Dice, DiceError, RollRequest, RollStep};
use crate::roster::Problem;

/// One activation marker: a grade (its colour) and a Motivation level (its number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Marker {
    /// The grade.
    pub experience: Experience,
    /// The Motivation level, 1 to 3.
    pub motivation: u8,
}

impl Marker {
    /// A marker of `experience` and `motivation`.
    pub const fn new(experience: Experience, motivation: u8) -> Self {
        Self {
            experience,
            motivation,
        }
    }
}

/// The most markers a pool may hold (a die of more sides is no die anyone rolls at a table).
pub const MAX_POOL: usize = 100;

/// Markers in the default pool per figure (M10: at least two per figure).
pub const DEFAULT_PER_FIGURE: usize = 2;

/// The default mix, repeated to size (M10, our reading of l.371–379): no Elite or Untrained
/// markers, mostly Regular, some Green and Veteran, mostly Motivation 2.
pub const DEFAULT_MIX: [Marker; 8] = [
    Marker::new(Experience::Green, 2),
    Marker::new(Experience::Regular, 2),
    Marker::new(Experience::Regular, 2),
    Marker::new(Experience::Regular, 2),
    Marker::new(Experience::Regular, 2),
    Marker::new(Experience::Veteran, 2),
    Marker::new(Experience::Veteran, 2),
    Marker::new(Experience::Regular, 3),
];

/// The default pool for a team of `figures`: two markers per figure, the mix repeated.
pub fn default_pool(figures: usize) -> Vec<Marker> {
    DEFAULT_MIX
        .iter()
        .copied()
        .cycle()
        .take(figures * DEFAULT_PER_FIGURE)
        .collect()
}

/// Checks a pool against a team of `figures`: enough markers for every figure, no more than
/// [`MAX_POOL`], every Motivation 1 to 3. Problems name `markers[i]`.
pub fn check_pool(pool: &[Marker], figures: usize) -> Vec<Problem> {
    let mut out = Vec::new();
    if figures == 0 {
        out.push(Problem::new(
            "figures",
            "a team draws for at least one figure",
        ));
    }
    if pool.len() < figures {
        out.push(Problem::new(
            "markers",
            format!(
                "{} markers cannot give each of {figures} figures one (M10)",
                pool.len()
            ),
        ));
    }
    if pool.len() > MAX_POOL {
        out.push(Problem::new(
            "markers",
            format!("at most {MAX_POOL} markers, not {}", pool.len()),
        ));
    }
    for (i, m) in pool.iter().enumerate() {
        if !(1..=3).contains(&m.motivation) {
            out.push(Problem::new(
                format!("markers[{i}].motivation"),
                format!(
                    "Motivation is 1 (high), 2 (average) or 3 (low), not {} (M3)",
                    m.motivation
                ),
            ));
        }
    }
    out
}

/// Draws one marker for each of `figures` figures of `team` from `pool`, one logged roll each.
/// The caller checks the pool first ([`check_pool`]).
pub fn draw_markers(
    dice: &mut dyn Dice,
    pool: &[Marker],
    figures: usize,
    team: &str,
    force_id: Option<&str>,
) -> Result<Vec<Marker>, DiceError> {
    let mut left = pool.to_vec();
    draw_from(dice, &mut left, figures, team, force_id)
}

/// Draws one marker for each of `figures` figures of `team` from the markers `left`, taking
/// each out of it, so several teams can draw from one pool in turn.
pub fn draw_from(
    dice: &mut dyn Dice,
    left: &mut Vec<Marker>,
    figures: usize,
    team: &str,
    force_id: Option<&str>,
) -> Result<Vec<Marker>, DiceError> {
    let mut drawn = Vec::with_capacity(figures);
    for _ in 0..figures.min(left.len()) {
        let sides = u8::try_from(left.len()).unwrap_or(u8::MAX);
        let mut request = RollRequest::d6(RollStep::MarkerDraw, team, 1).with_sides(sides);
        request.force_id = force_id;
        let value = dice.roll(request)?.first().copied().unwrap_or(1);
        let at = usize::from(value.clamp(1, sides)) - 1;
        drawn.push(left.remove(at));
    }
    Ok(drawn)
}
