//! Unique violations by constraint, in plain words. PostgreSQL names the constraint; SQLite
//! names the columns ("UNIQUE constraint failed: users.username_lower"), so each entry knows
//! both. No handler reads database error texts: they pass through [`message`].

use diesel::result::DatabaseErrorInformation;

/// One unique constraint: its PostgreSQL name, SQLite's column list, and what the client reads.
struct Constraint {
    postgres: &'static str,
    sqlite: &'static str,
    message: &'static str,
}

const RETRY: &str =
    "A concurrent change conflicted with this request; read the data again and retry.";

const CONSTRAINTS: &[Constraint] = &[
    Constraint {
        postgres: "users_username_lower_key",
        sqlite: "users.username_lower",
        message: "This username is taken; choose another.",
    },
    Constraint {
        postgres: "users_username_key",
        sqlite: "users.username",
        message: "This username is taken; choose another.",
    },
    Constraint {
        postgres: "memberships_pkey",
        sqlite: "memberships.campaign_id, memberships.user_id",
        message: "This account is already a member of the campaign.",
    },
    Constraint {
        postgres: "memberships_one_organiser",
        sqlite: "memberships.campaign_id",
        message: "The campaign already has an organiser; a campaign has exactly one.",
    },
    Constraint {
        postgres: "force_history_version_unique",
        sqlite: "force_history.force_id, force_history.version",
        message: "The force changed meanwhile; read it again and retry.",
    },
    Constraint {
        postgres: "force_ledger_seq_unique",
        sqlite: "force_ledger.force_id, force_ledger.seq",
        message: "The force's campaign points changed meanwhile; read them again and retry.",
    },
    Constraint {
        postgres: "idempotency_keys_pkey",
        sqlite: "idempotency_keys.user_id, idempotency_keys.scope, idempotency_keys.idempotency_key",
        message: "Another request with this Idempotency-Key finished first; send it again to get its answer.",
    },
    Constraint {
        postgres: "battle_aftermaths_pkey",
        sqlite: "battle_aftermaths.battle_id, battle_aftermaths.force_id",
        message: "The post-battle sequence of this force has already begun; read it again.",
    },
    Constraint {
        postgres: "battle_scenarios_pkey",
        sqlite: "battle_scenarios.battle_id",
        message: "This battle already has a scenario; read it again.",
    },
];

/// The plain message of a unique violation.
pub fn message(info: &dyn DatabaseErrorInformation) -> &'static str {
    let found = match info.constraint_name() {
        Some(name) => CONSTRAINTS.iter().find(|c| c.postgres == name),
        None => info
            .message()
            .strip_prefix("UNIQUE constraint failed: ")
            .and_then(|columns| CONSTRAINTS.iter().find(|c| c.sqlite == columns)),
    };
    found.map_or(RETRY, |c| c.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_texts_find_their_constraint() {
        let text = "UNIQUE constraint failed: users.username_lower".to_owned();
        assert_eq!(message(&text), "This username is taken; choose another.");
        let unknown = "UNIQUE constraint failed: other.thing".to_owned();
        assert_eq!(message(&unknown), RETRY);
    }
}
