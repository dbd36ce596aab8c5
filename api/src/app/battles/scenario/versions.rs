//! Per-viewer versions of a battle's scenario. One shared counter would tell the opponent and
//! integration keys that a side made (or remade) a secret choice; instead each viewer (each
//! side, an outsider, a referee) has its own counter, bumped only when what that viewer sees
//! changes. A caller's `version` is its viewer's counter, so a stale one is still 409.

use fad_domain::scenario::Viewer;
use serde::{Deserialize, Serialize};

use super::{BattleScenarioDocument, BattleScenarioResponse};
use crate::error::ApiError;

/// The viewers whose sight is versioned.
const VIEWERS: [Viewer; 4] = [
    Viewer::Side(0),
    Viewer::Side(1),
    Viewer::Outsider,
    Viewer::Everything,
];

/// Each viewer's version (stored in the document).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewVersions {
    /// Per side, in side order.
    pub sides: [i64; 2],
    /// An integration key or a member who plays neither side.
    pub outsider: i64,
    /// A referee, or a member who owns both sides.
    pub everything: i64,
}

impl ViewVersions {
    /// Every viewer at `version` (a document stored before per-viewer versions: its one
    /// version stands for all).
    pub fn all(version: i64) -> Self {
        Self {
            sides: [version; 2],
            outsider: version,
            everything: version,
        }
    }

    /// The version `viewer` sees.
    pub fn of(&self, viewer: Viewer) -> i64 {
        match viewer {
            Viewer::Side(i) => self.sides[i.min(1)],
            Viewer::Outsider => self.outsider,
            Viewer::Everything => self.everything,
        }
    }

    fn bump(&mut self, viewer: Viewer) {
        match viewer {
            Viewer::Side(i) => self.sides[i.min(1)] += 1,
            Viewer::Outsider => self.outsider += 1,
            Viewer::Everything => self.everything += 1,
        }
    }
}

/// The stored versions of a document whose row has `row_version` (0: no row yet).
pub fn stored(doc: &BattleScenarioDocument, row_version: i64) -> ViewVersions {
    doc.view_versions
        .unwrap_or_else(|| ViewVersions::all(row_version))
}

/// What each viewer sees of a document, as text, to tell whether a step changed it.
pub struct Sight([String; 4]);

impl Sight {
    /// Every viewer's answer to `GET .../scenario` (without its version).
    pub fn of(battle_id: &str, doc: &BattleScenarioDocument) -> Result<Self, ApiError> {
        let mut out: [String; 4] = Default::default();
        for (slot, viewer) in out.iter_mut().zip(VIEWERS) {
            let seen = BattleScenarioResponse::new(battle_id, 0, doc, viewer, &doc.rolls);
            *slot = serde_json::to_string(&seen).map_err(|e| ApiError::Internal(e.into()))?;
        }
        Ok(Self(out))
    }

    /// Whether the outsider's sight differs between `self` and `after`.
    pub fn public_changed(&self, after: &Self) -> bool {
        self.0[2] != after.0[2]
    }

    /// `versions` with each viewer whose sight changed bumped.
    pub fn advance(&self, after: &Self, mut versions: ViewVersions) -> ViewVersions {
        for ((before, now), viewer) in self.0.iter().zip(&after.0).zip(VIEWERS) {
            if before != now {
                versions.bump(viewer);
            }
        }
        versions
    }
}
