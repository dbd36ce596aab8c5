//! `Database::transaction`: commits on `Ok`, rolls back on `Err`, and concurrent
//! read-then-write transactions all succeed on both backends (SQLite writers are queued).

use crate::common::*;
use fad_api::db::{Database, DatabaseUrl, PoolOptions};
use fad_api::error::ApiError;
use fad_api::store::{self, users};

fn database(db: &TestDb) -> Database {
    drop(db.migrated());
    let url = DatabaseUrl::parse(db.url()).unwrap();
    Database::connect(&url, PoolOptions::default()).unwrap()
}

fn user(name: &str) -> users::User {
    users::User {
        id: store::new_id(),
        username: name.to_owned(),
        username_lower: name.to_lowercase(),
        password_hash: "x".to_owned(),
        created_at: store::now(),
        display_name: None,
    }
}

both_backends! {
    fn transaction_commits_on_ok_and_rolls_back_on_err(db: &TestDb) {
        let database = database(db);
        actix_web::rt::System::new().block_on(async move {
            // Act
            let kept = user("kept");
            let dropped = user("dropped");
            let kept_id = kept.id.clone();
            let dropped_id = dropped.id.clone();
            database
                .transaction(move |conn| Ok(users::insert(conn, &kept)?))
                .await
                .unwrap();
            let failed = database
                .transaction(move |conn| {
                    users::insert(conn, &dropped)?;
                    Err::<(), _>(ApiError::validation("name", "rejected after the insert"))
                })
                .await;
            // Assert
            assert!(matches!(failed, Err(ApiError::Validation(_))));
            let (kept, dropped) = database
                .read(move |conn| {
                    Ok((users::find_by_id(conn, &kept_id)?, users::find_by_id(conn, &dropped_id)?))
                })
                .await
                .unwrap();
            assert!(kept.is_some());
            assert!(dropped.is_none(), "the failed transaction was rolled back");
        });
    }

    fn concurrent_read_then_write_transactions_all_commit(db: &TestDb) {
        let database = database(db);
        actix_web::rt::System::new().block_on(async move {
            // Act: each transaction reads, then writes, the pattern that trips SQLite's
            // SQLITE_BUSY_SNAPSHOT without queuing.
            let handles: Vec<_> = (0..24)
                .map(|i| {
                    let database = database.clone();
                    actix_web::rt::spawn(async move {
                        database
                            .transaction(move |conn| {
                                let _ = users::find_by_username(conn, "anyone")?;
                                users::insert(conn, &user(&format!("user{i}")))?;
                                Ok(())
                            })
                            .await
                    })
                })
                .collect();
            let mut failures = Vec::new();
            for handle in handles {
                if let Err(err) = handle.await.unwrap() {
                    failures.push(err.to_string());
                }
            }
            // Assert
            assert!(failures.is_empty(), "{failures:?}");
            let count = database
                .read(|conn| {
                    use diesel::prelude::*;
                    Ok(fad_api::schema::users::table.count().get_result::<i64>(conn)?)
                })
                .await
                .unwrap();
            assert_eq!(count, 24);
        });
    }
}
