//! Migrations: both backends produce the same tables and columns; down migrations undo the up
//! migrations exactly; `fad-campaign migrate` applies and reports.

use crate::common::*;
use diesel::prelude::*;
use diesel::sql_types::{Bool, Text};
use fad_api::db::Db;
use std::collections::BTreeSet;

#[derive(QueryableByName)]
struct ColumnRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Bool)]
    not_null: bool,
}

/// (table, column, NOT NULL) for every user table, diesel's bookkeeping table excluded.
fn columns(conn: &mut Db) -> BTreeSet<(String, String, bool)> {
    let query = match conn {
        Db::Pg(_) => {
            "SELECT table_name::text AS table_name, column_name::text AS column_name, \
             (is_nullable = 'NO') AS not_null \
             FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name <> '__diesel_schema_migrations'"
        }
        Db::Sqlite(_) => {
            "SELECT m.name AS table_name, p.name AS column_name, \
             (p.\"notnull\" = 1 OR p.pk > 0) AS not_null \
             FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' \
             AND m.name <> '__diesel_schema_migrations'"
        }
    };
    diesel::sql_query(query)
        .load::<ColumnRow>(conn)
        .expect("schema query")
        .into_iter()
        .map(|r| (r.table_name, r.column_name, r.not_null))
        .collect()
}

#[test]
fn postgres_and_sqlite_migrations_give_the_same_tables_and_columns() {
    // Arrange
    let pg = TestDb::new(Backend::Postgres);
    let sqlite = TestDb::new(Backend::Sqlite);
    // Act
    let pg_columns = columns(&mut pg.migrated());
    let sqlite_columns = columns(&mut sqlite.migrated());
    // Assert
    assert!(!pg_columns.is_empty());
    let only_pg: Vec<_> = pg_columns.difference(&sqlite_columns).collect();
    let only_sqlite: Vec<_> = sqlite_columns.difference(&pg_columns).collect();
    assert!(
        only_pg.is_empty() && only_sqlite.is_empty(),
        "migrations differ:\n  only in postgres: {only_pg:?}\n  only in sqlite: {only_sqlite:?}"
    );
}

#[test]
fn both_migration_folders_have_the_same_migration_names() {
    let names = |backend: &str| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations/").to_owned() + backend;
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(names("postgres"), names("sqlite"));
}

both_backends! {
    fn down_migrations_undo_the_up_migrations_exactly(db: &TestDb) {
        // Arrange
        let mut conn = db.migrated();
        let migrated = columns(&mut conn);
        // Act
        let reverted = fad_api::db::revert_all_migrations(&mut conn).unwrap();
        let after_down = columns(&mut conn);
        fad_api::db::run_migrations(&mut conn).unwrap();
        // Assert
        assert!(reverted > 0);
        assert!(after_down.is_empty(), "left behind: {after_down:?}");
        assert_eq!(columns(&mut conn), migrated);
    }

    fn migrate_subcommand_applies_then_reports_nothing_pending(db: &TestDb) {
        // Act
        let first = command(&["migrate"]).env("DATABASE_URL", db.url()).output().unwrap();
        let second = command(&["migrate"]).env("DATABASE_URL", db.url()).output().unwrap();
        // Assert
        let first_out = String::from_utf8_lossy(&first.stdout);
        assert!(first.status.success(), "{first:?}");
        assert!(first_out.contains("applied 2026-11-23-000000_create_users"), "{first_out}");
        let second_out = String::from_utf8_lossy(&second.stdout);
        assert!(second.status.success(), "{second:?}");
        assert!(second_out.contains("no pending migrations"), "{second_out}");
    }
}
