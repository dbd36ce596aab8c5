//! Gear vocabulary that only the point value system prices: weapon traits, munitions, grenades,
//! gadgets, bots, armour add-ons, powered-armour upgrades and the abilities (docs/rules.md §1.6, §1.7,
//! §1.10, §1.13 › Abilities, §4.3; S000 › POINT VALUE SYSTEM › Basic weapon traits, Support
//! weapon traits, HEAVY WEAPON TRAITS, HEAVY WEAPON MUNITIONS, AUTOCANNON MUNITIONS, GADGETS, GEAR,
//! ABILITIES, POWERED ARMOUR SQUADS). Each enumeration carries its price table as data.

use crate::kit::{HeavyWeapon, SupportWeapon};
use crate::named_enum;

named_enum! {
    /// A weapon trait (docs/rules.md §1.10); priced per small arm, per support weapon or per heavy
    /// weapon.
    pub enum WeaponTrait("weapon_trait") {
        /// +0.5 / +1.75 / +6.
        Terror = "terror" ["terror_weapon"],
        /// −0.25 / −0.75 / −3.
        LimitedSupply = "limited_supply",
        /// −0.25 / −0.75 / included in every heavy weapon.
        Cumbersome = "cumbersome",
        /// +0.25 / +0.75 / +3.
        LongRangeTargeting = "long_range_targeting",
        /// +0.25 / +0.5 / +1.
        AutoTarget = "auto_target",
        /// Support weapons only, +2.
        SmartTargeting = "smart_targeting",
        /// Heavy weapons only, +5.
        ManPortable = "man_portable",
        /// Heavy weapons only (auto cannon and MGs), +3.
        Gatling = "gatling",
        /// Heavy weapons only: +2 on auto cannon and MGs, +3 on beam weapons.
        HypertechCoolingSystem = "hypertech_cooling_system" ["hypertech_cooling"],
        /// Heavy weapons only, −4.
        Static = "static",
        /// Heavy weapons only, −4.
        SlowFiring = "slow_firing",
        /// Heavy weapons only, +5 (needs only 2 crew).
        MountedOnGravMount = "mounted_on_grav_mount" ["grav_mount"],
    }
}

/// What a weapon trait is put on, for its price column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponClass {
    /// A squad basic weapon, priced per model.
    SmallArm,
    /// A squad support weapon.
    Support(SupportWeapon),
    /// A heavy weapon.
    Heavy(HeavyWeapon),
}

impl WeaponTrait {
    /// The trait's price on `class`, `None` where the table has no price (the trait is not
    /// available there). Cumbersome on a heavy weapon is 0: "already includes". Combat blades take
    /// only Terror (S000 › Support weapon traits).
    pub fn points(self, class: WeaponClass) -> Option<f64> {
        use WeaponTrait::*;
        match class {
            WeaponClass::SmallArm => match self {
                Terror => Some(0.5),
                LimitedSupply | Cumbersome => Some(-0.25),
                LongRangeTargeting | AutoTarget => Some(0.25),
                _ => None,
            },
            WeaponClass::Support(SupportWeapon::CombatBlade) if self != Terror => None,
            WeaponClass::Support(_) => match self {
                Terror => Some(1.75),
                LimitedSupply | Cumbersome => Some(-0.75),
                LongRangeTargeting => Some(0.75),
                SmartTargeting => Some(2.0),
                AutoTarget => Some(0.5),
                _ => None,
            },
            WeaponClass::Heavy(weapon) => match self {
                Terror => Some(6.0),
                LimitedSupply => Some(-3.0),
                Cumbersome => Some(0.0),
                ManPortable | MountedOnGravMount => Some(5.0),
                Gatling if is_auto_cannon_or_mg(weapon) => Some(3.0),
                HypertechCoolingSystem if is_auto_cannon_or_mg(weapon) => Some(2.0),
                HypertechCoolingSystem if is_beam(weapon) => Some(3.0),
                LongRangeTargeting => Some(3.0),
                AutoTarget => Some(1.0),
                Static | SlowFiring => Some(-4.0),
                _ => None,
            },
        }
    }
}

fn is_auto_cannon_or_mg(weapon: HeavyWeapon) -> bool {
    matches!(
        weapon,
        HeavyWeapon::AutoCannonLight
            | HeavyWeapon::AutoCannonHeavy
            | HeavyWeapon::GeneralPurposeMg
            | HeavyWeapon::HeavyMg
    )
}

fn is_beam(weapon: HeavyWeapon) -> bool {
    matches!(weapon, HeavyWeapon::BeamLight | HeavyWeapon::BeamHeavy)
}

/// Whether `weapon` may fire munitions: mortars, missile launchers and cannon (S000 › HEAVY
/// WEAPON MUNITIONS).
pub fn takes_munitions(weapon: HeavyWeapon) -> bool {
    matches!(
        weapon,
        HeavyWeapon::MortarLight
            | HeavyWeapon::MortarHeavy
            | HeavyWeapon::MissileLauncher
            | HeavyWeapon::CannonLight
            | HeavyWeapon::CannonMedium
            | HeavyWeapon::CannonHeavy
    )
}

/// Whether `weapon` may fire auto-cannon rounds.
pub fn takes_auto_cannon_rounds(weapon: HeavyWeapon) -> bool {
    matches!(
        weapon,
        HeavyWeapon::AutoCannonLight | HeavyWeapon::AutoCannonHeavy
    )
}

named_enum! {
    /// Heavy-weapon munitions and auto-cannon rounds (docs/rules.md §1.10). Hypertech and Ultratech
    /// are their own +3 / +4; list the two or three combined types beside them.
    pub enum Munition("munition") {
        /// +5.
        Incendiary = "incendiary",
        /// +3.
        ClusterBomb = "cluster_bomb",
        /// +3.
        Shrapnel = "shrapnel",
        /// +3.
        Plasma = "plasma",
        /// +8, limited supply.
        Redeemer = "redeemer",
        /// +5, limited supply.
        Scramble = "scramble",
        /// +3.
        Nanowire = "nanowire",
        /// +2.
        Wipe = "wipe",
        /// +8.
        Smart = "smart",
        /// +3.
        RocketAssisted = "rocket_assisted" ["ram"],
        /// +6.
        ArmourKill = "armour_kill",
        /// +4.
        MineLayer = "mine_layer",
        /// +9.
        SpiderMineLayer = "spider_mine_layer",
        /// +3 plus the two combined types.
        Hypertech = "hypertech",
        /// +4 plus the three combined types.
        Ultratech = "ultratech",
        /// +15.
        ShortRangeWarpEmitter = "short_range_warp_emitter",
        /// Auto-cannon round, +6.
        Fragstorm = "fragstorm",
        /// Auto-cannon round, +8.
        ClingFire = "cling_fire",
        /// Auto-cannon round, +8.
        Smash = "smash",
        /// Auto-cannon round, +5.
        Swarm = "swarm",
        /// Auto-cannon round, +6.
        Penetrator = "penetrator",
    }
}

impl Munition {
    /// Points per unit (docs/rules.md §1.10).
    pub fn points(self) -> f64 {
        use Munition::*;
        match self {
            Incendiary | Scramble | Swarm => 5.0,
            ClusterBomb | Shrapnel | Plasma | Nanowire | RocketAssisted | Hypertech => 3.0,
            Redeemer | Smart | ClingFire | Smash => 8.0,
            Wipe => 2.0,
            ArmourKill | Fragstorm | Penetrator => 6.0,
            MineLayer | Ultratech => 4.0,
            SpiderMineLayer => 9.0,
            ShortRangeWarpEmitter => 15.0,
        }
    }
    /// Whether this is an auto-cannon round rather than a mortar/missile/cannon munition.
    pub fn is_auto_cannon_round(self) -> bool {
        matches!(
            self,
            Self::Fragstorm | Self::ClingFire | Self::Smash | Self::Swarm | Self::Penetrator
        )
    }
}

named_enum! {
    /// Grenades, priced per unit (docs/rules.md §1.10).
    pub enum Grenade("grenade") {
        /// +3.
        Haze = "haze",
        /// +2.
        Defensive = "defensive",
        /// +2.
        ImprovisedCharges = "improvised_charges",
        /// +6.
        Penetrator = "penetrator",
        /// +3.
        Jinx = "jinx",
        /// +3.
        RazorField = "razor_field",
    }
}

impl Grenade {
    /// Points per unit.
    pub fn points(self) -> f64 {
        match self {
            Self::Haze | Self::Jinx | Self::RazorField => 3.0,
            Self::Defensive | Self::ImprovisedCharges => 2.0,
            Self::Penetrator => 6.0,
        }
    }
}

named_enum! {
    /// Gadgets (docs/rules.md §1.10). Jammers are priced by rating through `Unit::jammer_rating`.
    pub enum Gadget("gadget") {
        /// +10 per projector (list it once per projector).
        FieldProjector = "field_projector",
        /// +8 per unit.
        Drones = "drones",
        /// +10.
        RegenUnit = "regen_unit",
        /// +6 per unit.
        Snoopers = "snoopers",
        /// +5 per unit.
        HaywireEmitter = "haywire_emitter",
        /// +1 per figure.
        ThermalImaging = "thermal_imaging",
        /// +10 per unit.
        ShortRangeWarp = "short_range_warp",
        /// +5 per unit.
        GuardedSystems = "guarded_systems",
    }
}

impl Gadget {
    /// Points per unit, or per figure for Thermal Imaging (see [`Gadget::per_figure`]).
    pub fn points(self) -> f64 {
        match self {
            Self::FieldProjector | Self::RegenUnit | Self::ShortRangeWarp => 10.0,
            Self::Drones => 8.0,
            Self::Snoopers => 6.0,
            Self::HaywireEmitter | Self::GuardedSystems => 5.0,
            Self::ThermalImaging => 1.0,
        }
    }
    /// Whether the price is per figure rather than per unit.
    pub fn per_figure(self) -> bool {
        matches!(self, Self::ThermalImaging)
    }
}

/// Jammers: +3 per rating per unit (docs/rules.md §1.10).
pub const JAMMER_POINTS_PER_RATING: f64 = 3.0;
/// The highest jammer rating.
pub const JAMMER_MAX_RATING: u8 = 3;

named_enum! {
    /// Bots (docs/rules.md §1.10). A Gun-Bot's weapon is priced through the unit's heavy weapons.
    pub enum Bot("bot") {
        /// +7.
        MedBot = "med_bot",
        /// +6.
        SupplyBot = "supply_bot",
        /// +10.
        ShieldBot = "shield_bot",
        /// +6.
        SpotBot = "spot_bot",
        /// +5 plus its weapon.
        GunBot = "gun_bot",
    }
}

impl Bot {
    /// Points per bot.
    pub fn points(self) -> f64 {
        match self {
            Self::MedBot => 7.0,
            Self::SupplyBot | Self::SpotBot => 6.0,
            Self::ShieldBot => 10.0,
            Self::GunBot => 5.0,
        }
    }
}

/// Upgrading one bot to a Hover-Bot: +2.
pub const HOVER_BOT_UPGRADE_POINTS: f64 = 2.0;

named_enum! {
    /// Suits worn over armour, priced per figure (docs/rules.md §1.6).
    pub enum ArmourAddon("armour_addon") {
        /// +2.
        DazzleSuit = "dazzle_suit" ["dazzle"],
        /// +0.5; not for powered armour.
        ColdSuit = "cold_suit" ["cold"],
        /// +0.25.
        SelfSealing = "self_sealing",
    }
}

impl ArmourAddon {
    /// Points per figure.
    pub fn points(self) -> f64 {
        match self {
            Self::DazzleSuit => 2.0,
            Self::ColdSuit => 0.5,
            Self::SelfSealing => 0.25,
        }
    }
}

named_enum! {
    /// Powered-armour upgrades, priced per figure (docs/rules.md §4.3).
    pub enum PoweredArmourUpgrade("powered_armour_upgrade") {
        /// +3.
        SoldierBoysLight = "soldier_boys_light",
        /// +5.
        SoldierBoysHeavy = "soldier_boys_heavy",
        /// +3.
        Scout = "scout",
        /// +5.
        Assault = "assault",
        /// +3.
        Gunner = "gunner",
        /// +3.
        Command = "command",
        /// +15.
        Marksman = "marksman",
        /// +8.
        Shielded = "shielded",
        /// −2.
        Crude = "crude",
    }
}

impl PoweredArmourUpgrade {
    /// Points per figure.
    pub fn points(self) -> f64 {
        match self {
            Self::SoldierBoysLight | Self::Scout | Self::Gunner | Self::Command => 3.0,
            Self::SoldierBoysHeavy | Self::Assault => 5.0,
            Self::Marksman => 15.0,
            Self::Shielded => 8.0,
            Self::Crude => -2.0,
        }
    }
}

/// Linked weapons: +1 per figure over the basic weapon (powered armour only).
pub const LINKED_WEAPONS_POINTS: f64 = 1.0;

named_enum! {
    /// Abilities: costed like traits but not traits (docs/rules.md §1.13 › Abilities).
    pub enum Ability("ability") {
        /// ×1.3.
        DropTroops = "drop_troops",
        /// ×1.5.
        JetPacks = "jet_packs" ["jet_pack", "jetpacks"],
    }
}

impl Ability {
    /// The multiplier.
    pub fn multiplier(self) -> f64 {
        match self {
            Self::DropTroops => 1.3,
            Self::JetPacks => 1.5,
        }
    }
}

named_enum! {
    /// Vehicle properties (docs/rules.md §1.11). The source prices none of them: free unless the
    /// campaign agrees a house table (F17). Not the trait or personality of the same name (F18).
    pub enum VehicleProperty("vehicle_property") {
        /// Advanced Targeting System.
        AdvancedTargetingSystem = "advanced_targeting_system",
        /// Amphibious.
        Amphibious = "amphibious",
        /// Close In Defense System.
        CloseInDefenseSystem = "close_in_defense_system" ["cids"],
        /// Command Vehicle.
        CommandVehicle = "command_vehicle",
        /// Cybertank.
        Cybertank = "cybertank",
        /// Electronic Countermeasures.
        ElectronicCountermeasures = "electronic_countermeasures" ["ecm"],
        /// Energy Screen.
        EnergyScreen = "energy_screen",
        /// Forward Observer (the vehicle property, not the personality).
        ForwardObserver = "forward_observer",
        /// Fragile.
        Fragile = "fragile",
        /// Improved Weapons Control.
        ImprovedWeaponsControl = "improved_weapons_control",
        /// Jump Jets (walkers only).
        JumpJets = "jump_jets",
        /// Medevac.
        Medevac = "medevac",
        /// Mine Clearing.
        MineClearing = "mine_clearing",
        /// Reactive Armour.
        ReactiveArmour = "reactive_armour",
        /// Smoke.
        Smoke = "smoke",
        /// Stealth (the vehicle property, not the trait).
        Stealth = "stealth",
        /// Supercharged.
        Supercharged = "supercharged",
        /// Under Powered.
        UnderPowered = "under_powered",
        /// Urban Warfare Kit.
        UrbanWarfareKit = "urban_warfare_kit",
        /// Weapon Stabilizer.
        WeaponStabilizer = "weapon_stabilizer",
    }
}

named_enum! {
    /// Vehicle fire control (docs/rules.md §1.11); unpriced in the source (F17).
    pub enum FireControl("fire_control") {
        /// Primitive.
        Primitive = "primitive",
        /// Improved.
        Improved = "improved",
        /// Extensive.
        Extensive = "extensive",
        /// Hyper Tech.
        HyperTech = "hyper_tech" ["hypertech"],
        /// Ultratech.
        Ultratech = "ultratech" ["ultra_tech"],
        /// Defensive.
        Defensive = "defensive",
        /// Close Support.
        CloseSupport = "close_support",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Named;

    #[test]
    fn weapon_trait_small_arm_column_matches_rules_1_10() {
        let got: Vec<_> = WeaponTrait::ALL
            .iter()
            .map(|t| t.points(WeaponClass::SmallArm))
            .collect();
        assert_eq!(
            got,
            [
                Some(0.5),
                Some(-0.25),
                Some(-0.25),
                Some(0.25),
                Some(0.25),
                None,
                None,
                None,
                None,
                None,
                None,
                None
            ]
        );
    }

    #[test]
    fn weapon_trait_support_column_matches_rules_1_10() {
        let class = WeaponClass::Support(SupportWeapon::SquadAutomaticWeapon);
        let got: Vec<_> = WeaponTrait::ALL.iter().map(|t| t.points(class)).collect();
        assert_eq!(
            got,
            [
                Some(1.75),
                Some(-0.75),
                Some(-0.75),
                Some(0.75),
                Some(0.5),
                Some(2.0),
                None,
                None,
                None,
                None,
                None,
                None
            ]
        );
        let blade = WeaponClass::Support(SupportWeapon::CombatBlade);
        assert_eq!(WeaponTrait::Terror.points(blade), Some(1.75));
        assert_eq!(WeaponTrait::LimitedSupply.points(blade), None);
    }

    #[test]
    fn weapon_trait_heavy_column_matches_rules_1_10() {
        let hmg = WeaponClass::Heavy(HeavyWeapon::HeavyMg);
        let got: Vec<_> = WeaponTrait::ALL.iter().map(|t| t.points(hmg)).collect();
        assert_eq!(
            got,
            [
                Some(6.0),
                Some(-3.0),
                Some(0.0),
                Some(3.0),
                Some(1.0),
                None,
                Some(5.0),
                Some(3.0),
                Some(2.0),
                Some(-4.0),
                Some(-4.0),
                Some(5.0)
            ]
        );
        let beam = WeaponClass::Heavy(HeavyWeapon::BeamHeavy);
        assert_eq!(WeaponTrait::HypertechCoolingSystem.points(beam), Some(3.0));
        assert_eq!(WeaponTrait::Gatling.points(beam), None);
        let mortar = WeaponClass::Heavy(HeavyWeapon::MortarLight);
        assert_eq!(WeaponTrait::HypertechCoolingSystem.points(mortar), None);
    }

    #[test]
    fn munitions_match_rules_1_10() {
        let got: Vec<f64> = Munition::ALL.iter().map(|m| m.points()).collect();
        assert_eq!(
            got,
            [
                5.0, 3.0, 3.0, 3.0, 8.0, 5.0, 3.0, 2.0, 8.0, 3.0, 6.0, 4.0, 9.0, 3.0, 4.0, 15.0,
                6.0, 8.0, 8.0, 5.0, 6.0
            ]
        );
        assert_eq!(
            Munition::ALL
                .iter()
                .filter(|m| m.is_auto_cannon_round())
                .count(),
            5
        );
        assert!(takes_munitions(HeavyWeapon::CannonMedium));
        assert!(!takes_munitions(HeavyWeapon::HeavyMg));
        assert!(takes_auto_cannon_rounds(HeavyWeapon::AutoCannonHeavy));
    }

    #[test]
    fn grenades_gadgets_bots_match_rules_1_10() {
        let g: Vec<f64> = Grenade::ALL.iter().map(|g| g.points()).collect();
        assert_eq!(g, [3.0, 2.0, 2.0, 6.0, 3.0, 3.0]);
        let d: Vec<f64> = Gadget::ALL.iter().map(|g| g.points()).collect();
        assert_eq!(d, [10.0, 8.0, 10.0, 6.0, 5.0, 1.0, 10.0, 5.0]);
        assert!(Gadget::ThermalImaging.per_figure() && !Gadget::Drones.per_figure());
        assert_eq!(JAMMER_POINTS_PER_RATING, 3.0);
        assert_eq!(JAMMER_MAX_RATING, 3);
        let b: Vec<f64> = Bot::ALL.iter().map(|b| b.points()).collect();
        assert_eq!(b, [7.0, 6.0, 10.0, 6.0, 5.0]);
        assert_eq!(HOVER_BOT_UPGRADE_POINTS, 2.0);
    }

    #[test]
    fn armour_addons_upgrades_and_abilities_match_rules() {
        let a: Vec<f64> = ArmourAddon::ALL.iter().map(|a| a.points()).collect();
        assert_eq!(a, [2.0, 0.5, 0.25]);
        let u: Vec<f64> = PoweredArmourUpgrade::ALL
            .iter()
            .map(|u| u.points())
            .collect();
        assert_eq!(u, [3.0, 5.0, 3.0, 5.0, 3.0, 3.0, 15.0, 8.0, -2.0]);
        assert_eq!(Ability::DropTroops.multiplier(), 1.3);
        assert_eq!(Ability::JetPacks.multiplier(), 1.5);
        assert_eq!(Ability::parse("Jet Packs"), Ok(Ability::JetPacks));
        assert_eq!(LINKED_WEAPONS_POINTS, 1.0);
    }

    #[test]
    fn vehicle_properties_and_fire_control_list_rules_1_11() {
        assert_eq!(VehicleProperty::ALL.len(), 20);
        assert_eq!(FireControl::ALL.len(), 7);
        assert_eq!(
            VehicleProperty::parse("ECM"),
            Ok(VehicleProperty::ElectronicCountermeasures)
        );
        assert_eq!(FireControl::parse("Hyper Tech"), Ok(FireControl::HyperTech));
    }
}
