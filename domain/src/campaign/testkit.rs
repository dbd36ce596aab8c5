//! Small roster builders for the campaign tests.

use crate::kit::{Armour, BasicWeapon, Mobility, VehicleState};
use crate::ladder::{Leadership, Quality, Resolve};
use crate::roster::{
    Branch, Force, Platoon, Unit, UnitKind, UnitStatus, VehicleArmour, VehicleProfile,
};

/// A Regular/Steady squad at full strength E.
pub fn squad(id: &str, e: u32) -> Unit {
    Unit {
        id: id.into(),
        name: format!("Squad {id}"),
        kind: UnitKind::Squad,
        quality: Quality::Regular,
        resolve: Some(Resolve::Steady),
        strength: e,
        starting_strength: e,
        armour: Armour::Light,
        basic_weapon: Some(BasicWeapon::AssaultRifles),
        support_weapons: vec![],
        heavy_weapons: vec![],
        traits: vec![],
        personalities: vec![],
        leadership: None,
        branch: None,
        leader_experience: None,
        aptitude: None,
        psionic_strength: None,
        vehicle: None,
        vehicle_state: None,
        status: UnitStatus::Active,
        ..Unit::default()
    }
}

/// The same unit with another kind.
pub fn with_kind(mut unit: Unit, kind: UnitKind) -> Unit {
    unit.kind = kind;
    unit
}

/// A Novice infantry character (a lone figure).
pub fn character(id: &str) -> Unit {
    let mut c = with_kind(squad(id, 1), UnitKind::Character);
    c.name = format!("Leader {id}");
    c.leadership = Some(Leadership::Novice);
    c.branch = Some(Branch::Infantry);
    c
}

/// An operational Regular vehicle whose crew has no Resolve (C15).
pub fn vehicle(id: &str) -> Unit {
    let mut v = with_kind(squad(id, 1), UnitKind::Vehicle);
    v.name = format!("Vehicle {id}");
    v.resolve = None;
    v.basic_weapon = None;
    v.vehicle = Some(VehicleProfile {
        mobility: Mobility::Tracked,
        armour: VehicleArmour {
            front: 4,
            side: 3,
            rear: 2,
        },
        crew: 3,
        multi_role_crew: 0,
        passengers: 0,
        passenger_fired_weapons: 0,
    });
    v.vehicle_state = Some(VehicleState::Operational);
    v
}

/// A force with one platoon per list, named `Platoon 0`, `Platoon 1`, ...
pub fn force_of(platoons: Vec<Vec<Unit>>) -> Force {
    Force {
        name: "Test force".into(),
        platoons: platoons
            .into_iter()
            .enumerate()
            .map(|(i, units)| Platoon {
                name: format!("Platoon {i}"),
                units,
            })
            .collect(),
    }
}
