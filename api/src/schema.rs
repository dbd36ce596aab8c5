//! Table definitions for both backends (one file; the migrations in `migrations/postgres` and
//! `migrations/sqlite` must produce exactly these tables and columns, which a black-box test
//! checks). Column types stay in the common subset: Text ids, Timestamp (UTC), JSON as Text.

diesel::table! {
    /// Accounts.
    users (id) {
        /// UUID as text.
        id -> Text,
        /// The name as registered.
        username -> Text,
        /// Lowercased name; unique, so names differing only in case collide.
        username_lower -> Text,
        /// Argon2id PHC string.
        password_hash -> Text,
        /// Creation time, UTC.
        created_at -> Timestamp,
        /// The name other players see; `None` means the username.
        display_name -> Nullable<Text>,
        /// Generation of the credentials; access tokens carry it (`cv`) and a password change
        /// adds one, so tokens issued before are refused.
        credentials_version -> BigInt,
    }
}
diesel::table! {
    /// Campaigns: a group's shared space.
    campaigns (id) {
        id -> Text,
        name -> Text,
        description -> Nullable<Text>,
        settings -> Text,
        version -> BigInt,
        created_by -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        settings_version -> BigInt,
    }
}

diesel::table! {
    /// Who belongs to which campaign, and in which role.
    memberships (campaign_id, user_id) {
        campaign_id -> Text,
        user_id -> Text,
        role -> Text,
        joined_at -> Timestamp,
    }
}

diesel::table! {
    /// Invitation codes (stored hashed) to join a campaign as a player.
    invites (id) {
        id -> Text,
        campaign_id -> Text,
        code_hash -> Text,
        created_by -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        max_uses -> Nullable<Integer>,
        uses -> Integer,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Read-only integration keys (stored hashed), one campaign each.
    api_keys (id) {
        id -> Text,
        campaign_id -> Text,
        name -> Text,
        key_hash -> Text,
        key_prefix -> Text,
        created_by -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Personal access tokens (`fadp_…`): a person's credential for bots, stored as SHA-256.
    personal_tokens (id) {
        id -> Text,
        user_id -> Text,
        name -> Text,
        token_hash -> Text,
        token_prefix -> Text,
        /// JSON array of scopes.
        scopes -> Text,
        created_at -> Timestamp,
        expires_at -> Nullable<Timestamp>,
        last_used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(personal_tokens -> users (user_id));
diesel::joinable!(campaigns -> users (created_by));
diesel::joinable!(memberships -> campaigns (campaign_id));
diesel::joinable!(memberships -> users (user_id));
diesel::joinable!(invites -> campaigns (campaign_id));
diesel::joinable!(api_keys -> campaigns (campaign_id));

diesel::table! {
    /// Forces (rosters): the roster is JSON text, guarded by `version`.
    forces (id) {
        id -> Text,
        campaign_id -> Text,
        owner_id -> Text,
        name -> Text,
        roster -> Text,
        version -> BigInt,
        archived_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// Every change to a roster, with its cause, per-unit diff, rolls and the roster after it.
    force_history (id) {
        id -> Text,
        force_id -> Text,
        version -> BigInt,
        at -> Timestamp,
        actor_id -> Nullable<Text>,
        cause_kind -> Text,
        cause_id -> Nullable<Text>,
        diff -> Text,
        rolls -> Text,
        snapshot -> Text,
    }
}

diesel::table! {
    /// Campaign points earned and spent per force, with the running balance.
    force_ledger (id) {
        id -> Text,
        force_id -> Text,
        seq -> BigInt,
        at -> Timestamp,
        kind -> Text,
        amount -> BigInt,
        balance -> BigInt,
        actor_id -> Nullable<Text>,
        cause_kind -> Text,
        cause_id -> Nullable<Text>,
        note -> Nullable<Text>,
    }
}

diesel::table! {
    /// Battles: sides, state, result.
    battles (id) {
        id -> Text,
        campaign_id -> Text,
        state -> Text,
        sides -> Text,
        result -> Nullable<Text>,
        result_by -> Nullable<Text>,
        confirmed_by -> Nullable<Text>,
        version -> BigInt,
        created_by -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        /// Voids and reopenings as a JSON array (see `store::battles::Correction`).
        corrections -> Text,
        /// Options chosen at set-up as a JSON object (see `store::battles::BattleOptions`).
        options -> Text,
    }
}

diesel::table! {
    /// One player side's post-battle sequence.
    battle_aftermaths (battle_id, force_id) {
        battle_id -> Text,
        force_id -> Text,
        battle_start -> Text,
        force_version -> BigInt,
        stage -> Text,
        state -> Nullable<Text>,
        outcome -> Nullable<Text>,
        version -> BigInt,
        updated_at -> Timestamp,
        /// The state's after-rolls roster, apart from `state` (NULL in rows written before:
        /// their state holds it).
        after_rolls -> Nullable<Text>,
    }
}

diesel::table! {
    /// A battle's scenario workflow: the machine state, roll log and pending dice as JSON.
    battle_scenarios (battle_id) {
        battle_id -> Text,
        document -> Text,
        version -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// Share links to one side's printable sheet of a battle (the token itself is derived from
    /// `id`, never stored; see `auth::derived`).
    battle_share_links (id) {
        id -> Text,
        battle_id -> Text,
        force_id -> Text,
        /// SHA-256 hex of the link's token.
        token_hash -> Text,
        created_by -> Text,
        created_at -> Timestamp,
    }
}

diesel::joinable!(battle_share_links -> battles (battle_id));
diesel::joinable!(forces -> campaigns (campaign_id));
diesel::joinable!(force_history -> forces (force_id));
diesel::joinable!(force_ledger -> forces (force_id));

diesel::table! {
    /// The event outbox: changes an integration may hear about, in `seq` order per campaign.
    events (seq) {
        seq -> BigInt,
        id -> Text,
        event_type -> Text,
        campaign_id -> Text,
        battle_id -> Nullable<Text>,
        force_id -> Nullable<Text>,
        occurred_at -> Timestamp,
        payload -> Text,
    }
}

diesel::table! {
    /// Signed webhooks of a campaign (the signing secret in clear: HMAC needs it).
    webhooks (id) {
        id -> Text,
        campaign_id -> Text,
        url -> Text,
        events -> Text,
        description -> Nullable<Text>,
        secret -> Text,
        created_by -> Text,
        created_at -> Timestamp,
        disabled_at -> Nullable<Timestamp>,
        disabled_reason -> Nullable<Text>,
    }
}

diesel::table! {
    /// One event for one webhook: the delivery queue and log.
    webhook_deliveries (id) {
        id -> Text,
        webhook_id -> Text,
        event_seq -> BigInt,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        leased_until -> Nullable<Timestamp>,
        last_attempt_at -> Nullable<Timestamp>,
        last_status_code -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(events -> campaigns (campaign_id));
diesel::joinable!(webhooks -> campaigns (campaign_id));
diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::joinable!(webhook_deliveries -> events (event_seq));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    personal_tokens,
    campaigns,
    memberships,
    invites,
    api_keys,
    scenarios,
    idempotency_keys,
    forces,
    force_history,
    force_ledger,
    battles,
    battle_aftermaths,
    battle_scenarios,
    battle_share_links,
    events,
    webhooks,
    webhook_deliveries,
    web_sessions,
    rulesets,
    solo_states
);

diesel::table! {
    /// One-shot scenarios: the whole scenario as JSON, readable by its creator or a share token
    /// (a signed-out one, with no creator, by its id until it expires).
    scenarios (id) {
        id -> Text,
        created_by -> Nullable<Text>,
        share_token_hash -> Nullable<Text>,
        document -> Text,
        created_at -> Timestamp,
        expires_at -> Nullable<Timestamp>,
        client_hash -> Nullable<Text>,
        /// SHA-256 hex of side 1's sheet token.
        side1_token_hash -> Nullable<Text>,
        /// SHA-256 hex of side 2's sheet token.
        side2_token_hash -> Nullable<Text>,
    }
}

diesel::table! {
    /// First responses to writes sent with an `Idempotency-Key`, per user and endpoint.
    idempotency_keys (user_id, scope, idempotency_key) {
        user_id -> Text,
        scope -> Text,
        idempotency_key -> Text,
        request_hash -> Text,
        status -> Integer,
        response -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Signed-in browser sessions of the web pages; the key is the SHA-256 of the cookie value.
    web_sessions (id_hash) {
        id_hash -> Text,
        user_id -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    /// Verifiable server dice: seeds committed before the roll that uses them.
    dice_commitments (id) {
        id -> Text,
        scope -> Text,
        seed -> Text,
        sha256 -> Text,
        created_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
        expires_at -> Nullable<Timestamp>,
        client_hash -> Nullable<Text>,
    }
}

diesel::joinable!(web_sessions -> users (user_id));

diesel::table! {
    /// House rulesets, one row per version; `document` is the house document as JSON.
    rulesets (id, version) {
        id -> Text,
        version -> BigInt,
        owner -> Text,
        name -> Text,
        family -> Text,
        document -> Text,
        hash -> Text,
        created_at -> Timestamp,
        archived -> Bool,
    }
}

diesel::joinable!(rulesets -> users (owner));

diesel::table! {
    /// Solo play: a non-player side's groups and turn log during the battle, per battle or
    /// one-shot scenario (`owner_id` is that battle's or scenario's id), with an
    /// optimistic-concurrency `version`.
    solo_states (owner_id) {
        owner_id -> Text,
        battle_id -> Nullable<Text>,
        scenario_id -> Nullable<Text>,
        document -> Text,
        version -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}
