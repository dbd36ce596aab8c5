//! Kit vocabulary: armour, small arms, support and heavy weapons, vehicle mobility and state, and
//! personalities (docs/rules.md §1.6–§1.12; S000 › TECHNOLOGY, POINT VALUE SYSTEM, PERSONALITIES).
//! Each enumeration carries its table as data; points feed the point value system (§4.3).

use crate::named_enum;
use crate::names::Named;

named_enum! {
    /// Personal armour (docs/rules.md §1.6).
    pub enum Armour("armour") {
        /// Rating −2.
        None = "none",
        /// Rating −1.
        Improvised = "improvised",
        /// Rating 0, the default.
        Light = "light",
        /// Rating 0; a hiding unit gets 4 hidden markers.
        Scout = "scout",
        /// Rating +1.
        Improved = "improved",
        /// Rating +2.
        Heavy = "heavy",
        /// Rating +2, "Fast" (read as Swift, F18) and Self Repairing.
        BioMechEnhanced = "bio_mech_enhanced" ["bio_mech", "bio_mech_enhanced_suit"],
        /// Rating +2, +1 to unit assault rolls.
        Storm = "storm" ["storm_suit"],
        /// Rating +3.
        BattleDress = "battle_dress",
        /// Rating +4, may not Rush.
        Breach = "breach",
        /// Rating +4, powered-armour rules.
        LightPowered = "light_powered",
        /// Rating +6, powered-armour rules.
        HeavyPowered = "heavy_powered",
    }
}

impl Armour {
    /// The armour rating.
    pub fn rating(self) -> i8 {
        [-2, -1, 0, 0, 1, 2, 2, 2, 3, 4, 4, 6][self.index()]
    }
    /// Points per figure (docs/rules.md §1.6).
    pub fn points(self) -> f64 {
        [-1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 5.0, 3.0, 3.0, 3.5, 6.0, 9.0][self.index()]
    }
    /// Whether the powered-armour rules apply.
    pub fn is_powered(self) -> bool {
        matches!(self, Self::LightPowered | Self::HeavyPowered)
    }
    /// Whether this is a better armour than `other` by rating then points (for "one level better").
    pub fn next_better(self) -> Self {
        match self {
            Self::None => Self::Improvised,
            Self::Improvised => Self::Light,
            Self::Light | Self::Scout => Self::Improved,
            Self::Improved => Self::Heavy,
            Self::Heavy | Self::BioMechEnhanced | Self::Storm => Self::BattleDress,
            Self::BattleDress => Self::Breach,
            Self::Breach | Self::LightPowered => Self::HeavyPowered,
            Self::HeavyPowered => Self::HeavyPowered,
        }
    }
    fn index(self) -> usize {
        Self::ALL.iter().position(|a| *a == self).unwrap_or(0)
    }
}

named_enum! {
    /// Squad basic weapons, the small arms (docs/rules.md §1.7).
    pub enum BasicWeapon("basic_weapon") {
        /// ×5, +1.
        LowTechRifles = "low_tech_rifles" ["low_tech_rifle"],
        /// ×2, +1, +1 to close assault.
        SubMachineGuns = "sub_machine_guns" ["smgs", "smg", "sub_machine_gun"],
        /// ×4, +2.
        AssaultCarbines = "assault_carbines" ["assault_carbine"],
        /// ×5, +2, the base weapon.
        AssaultRifles = "assault_rifles" ["assault_rifle"],
        /// ×6, +2.
        HighTechRifles = "high_tech_rifles" ["high_tech_rifle"],
        /// ×6, +3.
        GaussRifles = "gauss_rifles" ["gauss_rifle"],
        /// ×7, +1.
        LaserRifles = "laser_rifles" ["laser_rifle"],
        /// ×3, +4.
        Blasters = "blasters" ["blaster"],
        /// ×2, +1; wounded targets are stunned.
        Stunners = "stunners" ["stunner"],
        /// Points list only.
        Unarmed = "unarmed",
    }
}

impl BasicWeapon {
    /// Points per trooper (docs/rules.md §1.7).
    pub fn points(self) -> f64 {
        match self {
            Self::LowTechRifles => -0.25,
            Self::SubMachineGuns => -0.5,
            Self::AssaultCarbines => -0.25,
            Self::AssaultRifles => 0.0,
            Self::HighTechRifles => 0.25,
            Self::GaussRifles => 1.0,
            Self::LaserRifles => 0.5,
            Self::Blasters => 1.0,
            Self::Stunners => -0.25,
            Self::Unarmed => -1.0,
        }
    }
    /// Range multiple of the base range (`None` for unarmed).
    pub fn range_multiple(self) -> Option<u8> {
        match self {
            Self::LowTechRifles | Self::AssaultRifles => Some(5),
            Self::SubMachineGuns | Self::Stunners => Some(2),
            Self::AssaultCarbines => Some(4),
            Self::HighTechRifles | Self::GaussRifles => Some(6),
            Self::LaserRifles => Some(7),
            Self::Blasters => Some(3),
            Self::Unarmed => None,
        }
    }
}

named_enum! {
    /// Squad support weapons (docs/rules.md §1.8).
    pub enum SupportWeapon("support_weapon") {
        /// +1 points.
        AssaultShotgun = "assault_shotgun",
        /// +3.
        FlameThrower = "flame_thrower" ["flamethrower"],
        /// +1.
        RifleGrenade = "rifle_grenade" ["rifle_grenades", "rifle_grenade_launcher"],
        /// +3.
        GrenadeLauncher = "grenade_launcher",
        /// +3.
        SquadAutomaticWeapon = "squad_automatic_weapon" ["saw"],
        /// +4.
        RapidFireSaw = "rapid_fire_saw",
        /// +4.
        PlasmaRifle = "plasma_rifle",
        /// +5.
        BeamRifle = "beam_rifle",
        /// +3.
        FusionGun = "fusion_gun",
        /// +6, powered armour only.
        MissileRack = "missile_rack",
        /// +3, powered armour only.
        AssaultMountedAutomaticWeapon = "assault_mounted_automatic_weapon" ["amaw"],
        /// +1.
        MarksmansWeapon = "marksmans_weapon" ["marksman_weapon"],
        /// +1.
        CombatBlade = "combat_blade",
        /// +4.
        MultiGun = "multi_gun",
    }
}

impl SupportWeapon {
    /// Points per weapon (docs/rules.md §1.8).
    pub fn points(self) -> f64 {
        match self {
            Self::AssaultShotgun | Self::RifleGrenade | Self::MarksmansWeapon => 1.0,
            Self::CombatBlade => 1.0,
            Self::FlameThrower | Self::GrenadeLauncher | Self::SquadAutomaticWeapon => 3.0,
            Self::FusionGun | Self::AssaultMountedAutomaticWeapon => 3.0,
            Self::RapidFireSaw | Self::PlasmaRifle | Self::MultiGun => 4.0,
            Self::BeamRifle => 5.0,
            Self::MissileRack => 6.0,
        }
    }
    /// Whether only powered armour may carry it.
    pub fn powered_armour_only(self) -> bool {
        matches!(
            self,
            Self::MissileRack | Self::AssaultMountedAutomaticWeapon
        )
    }
}

named_enum! {
    /// Heavy weapons for weapons teams and vehicles (docs/rules.md §1.9).
    pub enum HeavyWeapon("heavy_weapon") {
        /// Crew 3, +10.
        AutoCannonLight = "auto_cannon_light" ["light_auto_cannon"],
        /// Crew 4, +16.
        AutoCannonHeavy = "auto_cannon_heavy" ["heavy_auto_cannon"],
        /// Crew 2, +10.
        BeamLight = "beam_light" ["light_beam"],
        /// Crew 3, +16.
        BeamHeavy = "beam_heavy" ["heavy_beam"],
        /// Crew 3, +10.
        CannonLight = "cannon_light" ["light_cannon"],
        /// Crew 4, +16.
        CannonMedium = "cannon_medium" ["medium_cannon"],
        /// Crew 5, +22.
        CannonHeavy = "cannon_heavy" ["heavy_cannon"],
        /// Crew 2, +8.
        ChainGunLight = "chain_gun_light" ["light_chain_gun"],
        /// Crew 4, +10.
        ChainGunHeavy = "chain_gun_heavy" ["heavy_chain_gun"],
        /// Crew 2, +5.
        GeneralPurposeMg = "general_purpose_mg" ["gpmg"],
        /// Crew 3, +6.
        HeavyMg = "heavy_mg" ["hmg"],
        /// No crew, no points.
        MinesAntiPersonnel = "mines_anti_personnel",
        /// No crew, no points.
        MinesAntiVehicle = "mines_anti_vehicle",
        /// Crew 2, +10.
        MissileLauncher = "missile_launcher",
        /// Crew 2, +10.
        MortarLight = "mortar_light" ["light_mortar"],
        /// Crew 3, +16.
        MortarHeavy = "mortar_heavy" ["heavy_mortar"],
        /// Crew 3, +20.
        RailGunLight = "rail_gun_light" ["light_rail_gun"],
        /// Crew 5, +30.
        RailGunHeavy = "rail_gun_heavy" ["heavy_rail_gun"],
        /// Crew 1, +5.
        Rpg = "rpg",
        /// Crew 1, included in the sniper's base cost.
        SniperRifle = "sniper_rifle",
        /// Crew 3, +10.
        GravGun = "grav_gun",
        /// Crew 2, +16.
        NerveDisruptor = "nerve_disruptor",
        /// Crew 3, +8.
        WebCannonLight = "web_cannon_light" ["light_web_cannon"],
        /// Crew 4, +12.
        WebCannonMedium = "web_cannon_medium" ["medium_web_cannon"],
        /// Crew 5, +16.
        WebCannonHeavy = "web_cannon_heavy" ["heavy_web_cannon"],
        /// Crew 3, +20.
        ConversionGun = "conversion_gun",
        /// Crew 2, +6.
        AntiMaterielRifle = "anti_materiel_rifle",
        /// Crew 3, +12.
        BurstLauncherLight = "burst_launcher_light" ["light_burst_launcher"],
        /// Crew 5, +20.
        BurstLauncherHeavy = "burst_launcher_heavy" ["heavy_burst_launcher"],
        /// Not a weapon; built like a team, +5.
        CryoStasisUnit = "cryo_stasis_unit",
    }
}

impl HeavyWeapon {
    /// (crew, points) from docs/rules.md §1.9; mines have no crew.
    pub fn crew_and_points(self) -> (u8, f64) {
        match self {
            Self::AutoCannonLight => (3, 10.0),
            Self::AutoCannonHeavy => (4, 16.0),
            Self::BeamLight => (2, 10.0),
            Self::BeamHeavy => (3, 16.0),
            Self::CannonLight => (3, 10.0),
            Self::CannonMedium => (4, 16.0),
            Self::CannonHeavy => (5, 22.0),
            Self::ChainGunLight => (2, 8.0),
            Self::ChainGunHeavy => (4, 10.0),
            Self::GeneralPurposeMg => (2, 5.0),
            Self::HeavyMg => (3, 6.0),
            Self::MinesAntiPersonnel | Self::MinesAntiVehicle => (0, 0.0),
            Self::MissileLauncher => (2, 10.0),
            Self::MortarLight => (2, 10.0),
            Self::MortarHeavy => (3, 16.0),
            Self::RailGunLight => (3, 20.0),
            Self::RailGunHeavy => (5, 30.0),
            Self::Rpg => (1, 5.0),
            Self::SniperRifle => (1, 0.0),
            Self::GravGun => (3, 10.0),
            Self::NerveDisruptor => (2, 16.0),
            Self::WebCannonLight => (3, 8.0),
            Self::WebCannonMedium => (4, 12.0),
            Self::WebCannonHeavy => (5, 16.0),
            Self::ConversionGun => (3, 20.0),
            Self::AntiMaterielRifle => (2, 6.0),
            Self::BurstLauncherLight => (3, 12.0),
            Self::BurstLauncherHeavy => (5, 20.0),
            Self::CryoStasisUnit => (0, 5.0),
        }
    }
    /// The usual crew size.
    pub fn crew(self) -> u8 {
        self.crew_and_points().0
    }
    /// Points for the weapon.
    pub fn points(self) -> f64 {
        self.crew_and_points().1
    }
}

named_enum! {
    /// Vehicle mobility (docs/rules.md §1.11).
    pub enum Mobility("mobility") {
        /// Fly/Grav, +10 (not the Flyer trait, F18).
        Grav = "grav" ["fly", "flyer", "grav_flyer", "fly_grav"],
        /// +5.
        Hover = "hover",
        /// +5.
        Tracked = "tracked" ["track"],
        /// +0.
        Walker = "walker" ["walk"],
        /// +0.
        Wheeled = "wheeled" ["wheel"],
        /// +10.
        Warp = "warp",
    }
}

impl Mobility {
    /// (cautious, standard) move in inches; `None` where the source gives NA.
    pub fn moves(self) -> (u8, Option<u8>) {
        match self {
            Self::Grav => (14, Some(20)),
            Self::Hover => (10, Some(16)),
            Self::Tracked => (12, Some(18)),
            Self::Walker => (6, Some(12)),
            Self::Wheeled => (18, Some(24)),
            Self::Warp => (10, None),
        }
    }
    /// Points (docs/rules.md §1.11).
    pub fn points(self) -> f64 {
        match self {
            Self::Grav | Self::Warp => 10.0,
            Self::Hover | Self::Tracked => 5.0,
            Self::Walker | Self::Wheeled => 0.0,
        }
    }
}

/// Vehicle armour points per facing rating 3..=12 (docs/rules.md §1.11): (front, side, rear).
pub const VEHICLE_ARMOUR_POINTS: [(u8, f64, f64, f64); 10] = [
    (3, 5.0, 3.0, 2.0),
    (4, 8.0, 5.0, 3.0),
    (5, 13.0, 9.0, 4.0),
    (6, 21.0, 14.0, 7.0),
    (7, 34.0, 22.0, 11.0),
    (8, 55.0, 36.0, 18.0),
    (9, 88.0, 58.0, 29.0),
    (10, 112.0, 75.0, 37.0),
    (11, 140.0, 93.0, 47.0),
    (12, 180.0, 120.0, 60.0),
];

named_enum! {
    /// A vehicle's campaign state (docs/rules.md C16).
    pub enum VehicleState("vehicle_state") {
        /// Fit to field.
        Operational = "operational",
        /// System-killed, immobilized or abandoned; not fielded until repaired.
        Damaged = "damaged",
        /// Vehicle kill; replaced only by the roll or 2 CP.
        Destroyed = "destroyed",
    }
}

named_enum! {
    /// Personalities (docs/rules.md §1.12).
    pub enum Personality("personality") {
        /// +1.
        Brawler = "brawler",
        /// +2.
        Comms = "comms" ["comm_s", "comm's"],
        /// +1.
        KnifeFighter = "knife_fighter",
        /// +1.
        Lucky = "lucky",
        /// +2.
        Medic = "medic",
        /// +2.
        Motivator = "motivator",
        /// +3.
        Sharpshooter = "sharpshooter",
        /// +1.
        TriggerHappy = "trigger_happy",
        /// +1.
        Tech = "tech",
        /// +2.
        Intruder = "intruder",
        /// +1.
        ForwardObserver = "forward_observer",
        /// +1 AP with the figure's weapons. The F.A.D. basic and advanced rules' personality;
        /// FAD 5e has no price for it (0 points, listed as unpriced).
        AntiArmourExpert = "anti_armour_expert" ["anti_armor_expert"],
    }
}

impl Personality {
    /// FAD 5e's eleven, in its table order (docs/rules.md §1.12).
    pub const FAD5E: [Self; 11] = [
        Self::Brawler,
        Self::Comms,
        Self::KnifeFighter,
        Self::Lucky,
        Self::Medic,
        Self::Motivator,
        Self::Sharpshooter,
        Self::TriggerHappy,
        Self::Tech,
        Self::Intruder,
        Self::ForwardObserver,
    ];

    /// Whether FAD 5e's point system has a price for it.
    pub fn priced_by_fad5e(self) -> bool {
        self != Self::AntiArmourExpert
    }

    /// Points (docs/rules.md §1.12).
    pub fn points(self) -> f64 {
        match self {
            Self::Comms | Self::Medic | Self::Motivator | Self::Intruder => 2.0,
            Self::Sharpshooter => 3.0,
            Self::AntiArmourExpert => 0.0,
            _ => 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armour_table_matches_rules_1_6() {
        let pts: Vec<f64> = Armour::ALL.iter().map(|a| a.points()).collect();
        assert_eq!(
            pts,
            [-1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 5.0, 3.0, 3.0, 3.5, 6.0, 9.0]
        );
        let ratings: Vec<i8> = Armour::ALL.iter().map(|a| a.rating()).collect();
        assert_eq!(ratings, [-2, -1, 0, 0, 1, 2, 2, 2, 3, 4, 4, 6]);
        assert!(Armour::HeavyPowered.is_powered() && !Armour::Breach.is_powered());
    }

    #[test]
    fn basic_weapon_table_matches_rules_1_7() {
        let pts: Vec<f64> = BasicWeapon::ALL.iter().map(|w| w.points()).collect();
        assert_eq!(
            pts,
            [-0.25, -0.5, -0.25, 0.0, 0.25, 1.0, 0.5, 1.0, -0.25, -1.0]
        );
        assert_eq!(BasicWeapon::parse("SMGs"), Ok(BasicWeapon::SubMachineGuns));
        assert_eq!(BasicWeapon::LaserRifles.range_multiple(), Some(7));
    }

    #[test]
    fn support_weapon_table_matches_rules_1_8() {
        let pts: Vec<f64> = SupportWeapon::ALL.iter().map(|w| w.points()).collect();
        assert_eq!(
            pts,
            [
                1.0, 3.0, 1.0, 3.0, 3.0, 4.0, 4.0, 5.0, 3.0, 6.0, 3.0, 1.0, 1.0, 4.0
            ]
        );
        assert_eq!(
            SupportWeapon::parse("SAW"),
            Ok(SupportWeapon::SquadAutomaticWeapon)
        );
    }

    #[test]
    fn heavy_weapon_table_matches_rules_1_9() {
        assert_eq!(HeavyWeapon::ALL.len(), 30);
        assert_eq!(HeavyWeapon::CannonLight.crew_and_points(), (3, 10.0));
        assert_eq!(HeavyWeapon::RailGunHeavy.crew_and_points(), (5, 30.0));
        assert_eq!(HeavyWeapon::Rpg.crew_and_points(), (1, 5.0));
        assert_eq!(
            HeavyWeapon::parse("Light Auto Cannon"),
            Ok(HeavyWeapon::AutoCannonLight)
        );
        let total: f64 = HeavyWeapon::ALL.iter().map(|w| w.points()).sum();
        assert_eq!(total, 345.0);
    }

    #[test]
    fn mobility_and_vehicle_armour_match_rules_1_11() {
        let pts: Vec<f64> = Mobility::ALL.iter().map(|m| m.points()).collect();
        assert_eq!(pts, [10.0, 5.0, 5.0, 0.0, 0.0, 10.0]);
        assert_eq!(Mobility::Warp.moves(), (10, None));
        assert_eq!(VEHICLE_ARMOUR_POINTS[7], (10, 112.0, 75.0, 37.0));
        assert_eq!(VEHICLE_ARMOUR_POINTS[9], (12, 180.0, 120.0, 60.0));
    }

    #[test]
    fn personality_table_matches_rules_1_12() {
        assert_eq!(Personality::FAD5E.len(), 11);
        assert_eq!(Personality::FAD5E, Personality::ALL[..11]);
        let pts: Vec<f64> = Personality::FAD5E.iter().map(|p| p.points()).collect();
        assert_eq!(pts, [1.0, 2.0, 1.0, 1.0, 2.0, 2.0, 3.0, 1.0, 1.0, 2.0, 1.0]);
        // The basic and advanced rules' twelfth has no FAD 5e price (B6).
        assert_eq!(Personality::AntiArmourExpert.points(), 0.0);
        assert!(!Personality::AntiArmourExpert.priced_by_fad5e());
        assert!(Personality::FAD5E.iter().all(|p| p.priced_by_fad5e()));
    }
}
