//! `store::users` on both backends: round trip, case-insensitive look-up, unique names.

use crate::common::*;
use fad_api::error::ApiError;
use fad_api::store::{self, users};

fn user(name: &str) -> users::User {
    users::User {
        id: store::new_id(),
        username: name.to_owned(),
        username_lower: name.to_lowercase(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".to_owned(),
        created_at: store::now(),
        display_name: None,
    }
}

both_backends! {
    fn inserted_user_reads_back_identically_including_microseconds(db: &TestDb) {
        // Arrange
        let mut conn = db.migrated();
        let new = user("Ada");
        // Act
        let stored = users::insert(&mut conn, &new).unwrap();
        let by_id = users::find_by_id(&mut conn, &new.id).unwrap();
        // Assert
        assert_eq!(stored, new);
        assert_eq!(by_id, Some(new));
    }

    fn find_by_username_ignores_case(db: &TestDb) {
        let mut conn = db.migrated();
        let new = users::insert(&mut conn, &user("Grace")).unwrap();
        assert_eq!(users::find_by_username(&mut conn, "gRACE").unwrap(), Some(new));
        assert_eq!(users::find_by_username(&mut conn, "nobody").unwrap(), None);
    }

    fn names_differing_only_in_case_conflict_with_409(db: &TestDb) {
        let mut conn = db.migrated();
        users::insert(&mut conn, &user("Linus")).unwrap();
        let err = users::insert(&mut conn, &user("LINUS")).unwrap_err();
        assert!(matches!(ApiError::from(err), ApiError::Conflict(_)));
    }
}
