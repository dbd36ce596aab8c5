//! `store::{campaigns, memberships, invites, api_keys}` on both backends: the rules the HTTP
//! tests cannot see directly (one organiser per campaign, the atomic last invitation use,
//! `last_used_at` written at most once a minute, versioned settings).

use crate::common::*;
use chrono::TimeDelta;
use fad_api::db::Db;
use fad_api::store::campaigns::{Campaign, CampaignSettings};
use fad_api::store::memberships::{Membership, Role};
use fad_api::store::{self, api_keys, campaigns, invites, memberships, users};

fn user(conn: &mut Db, name: &str) -> String {
    let user = users::User {
        id: store::new_id(),
        username: name.to_owned(),
        username_lower: name.to_lowercase(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".to_owned(),
        created_at: store::now(),
        display_name: None,
    };
    users::insert(conn, &user).unwrap().id
}

fn campaign(conn: &mut Db, organiser: &str) -> Campaign {
    let now = store::now();
    let campaign = Campaign {
        id: store::new_id(),
        name: "c".to_owned(),
        description: None,
        settings: serde_json::to_string(&CampaignSettings::default()).unwrap(),
        version: 1,
        created_by: organiser.to_owned(),
        created_at: now,
        updated_at: now,
        settings_version: 1,
    };
    campaigns::insert(conn, &campaign).unwrap();
    memberships::insert(
        conn,
        &Membership::new(&campaign.id, organiser, Role::Organiser, now),
    )
    .unwrap();
    campaign
}

both_backends! {
    fn a_campaign_has_at_most_one_organiser(db: &TestDb) {
        let mut conn = db.migrated();
        let (a, b) = (user(&mut conn, "a"), user(&mut conn, "b"));
        let c = campaign(&mut conn, &a);
        let second = Membership::new(&c.id, &b, Role::Organiser, store::now());
        assert!(memberships::insert(&mut conn, &second).is_err());
        memberships::insert(&mut conn, &Membership::new(&c.id, &b, Role::Player, store::now()))
            .unwrap();
        assert!(memberships::set_role(&mut conn, &c.id, &b, Role::Organiser).is_err());
        assert_eq!(memberships::find(&mut conn, &c.id, &b).unwrap().unwrap().role(), Role::Player);
    }

    fn the_last_use_of_an_invitation_is_claimed_once(db: &TestDb) {
        let mut conn = db.migrated();
        let a = user(&mut conn, "a");
        let c = campaign(&mut conn, &a);
        let now = store::now();
        let invite = invites::Invite {
            id: store::new_id(),
            campaign_id: c.id.clone(),
            code_hash: "h".repeat(64),
            created_by: a.clone(),
            created_at: now,
            expires_at: now + TimeDelta::hours(1),
            max_uses: Some(2),
            uses: 0,
            revoked_at: None,
        };
        invites::insert(&mut conn, &invite).unwrap();
        assert!(invites::claim_use(&mut conn, &invite.id, now).unwrap());
        assert!(invites::claim_use(&mut conn, &invite.id, now).unwrap());
        assert!(!invites::claim_use(&mut conn, &invite.id, now).unwrap());
        let stored = invites::find_in_campaign(&mut conn, &c.id, &invite.id).unwrap().unwrap();
        assert_eq!(stored.uses, 2);
        assert!(!stored.is_usable(now));
        // Past its expiry nothing is claimed.
        let later = invites::Invite { id: store::new_id(), code_hash: "i".repeat(64), ..invite };
        invites::insert(&mut conn, &later).unwrap();
        assert!(!invites::claim_use(&mut conn, &later.id, later.expires_at).unwrap());
    }

    fn key_last_use_is_written_at_most_once_a_minute(db: &TestDb) {
        let mut conn = db.migrated();
        let a = user(&mut conn, "a");
        let c = campaign(&mut conn, &a);
        let now = store::now();
        let id = store::new_id();
        let key = api_keys::NewApiKey {
            id: &id,
            campaign_id: &c.id,
            name: "site",
            key_hash: &"k".repeat(64),
            key_prefix: "fad_kkkkkkkk",
            created_by: &a,
            created_at: now,
        };
        api_keys::insert(&mut conn, &key).unwrap();
        assert_eq!(api_keys::touch_last_used(&mut conn, &id, now).unwrap(), 1);
        assert_eq!(api_keys::touch_last_used(&mut conn, &id, now + TimeDelta::seconds(59)).unwrap(), 0);
        let minute = now + TimeDelta::seconds(61);
        assert_eq!(api_keys::touch_last_used(&mut conn, &id, minute).unwrap(), 1);
        let stored = api_keys::find_active_by_hash(&mut conn, &"k".repeat(64)).unwrap().unwrap();
        assert_eq!(stored.last_used_at, Some(minute));
        api_keys::revoke(&mut conn, &c.id, &id, minute).unwrap();
        assert_eq!(api_keys::find_active_by_hash(&mut conn, &"k".repeat(64)).unwrap(), None);
    }

    fn settings_update_only_from_the_current_version(db: &TestDb) {
        let mut conn = db.migrated();
        let a = user(&mut conn, "a");
        let c = campaign(&mut conn, &a);
        let mut settings = CampaignSettings::default();
        settings.house_rules.missions_hidden = false;
        let updated = campaigns::update_settings_if_version(&mut conn, &c.id, 1, &settings, store::now())
            .unwrap()
            .unwrap();
        assert_eq!(updated.settings_version, 2);
        assert_eq!(updated.version, 1, "the name's version is the settings' no more");
        assert_eq!(updated.settings().unwrap(), settings);
        let stale = campaigns::update_settings_if_version(&mut conn, &c.id, 1, &CampaignSettings::default(), store::now())
            .unwrap();
        assert_eq!(stale, None);
        assert_eq!(campaigns::find_by_id(&mut conn, &c.id).unwrap().unwrap(), updated);
    }
}
