//! Start-up: configuration precedence and validation, the default SQLite database, the
//! generated JWT secret, and connection errors that name the real cause.

use crate::common::*;
use std::process::Command;

/// Runs `serve` expecting it to exit with an error; returns what it printed.
fn serve_fails(mut cmd: Command) -> String {
    cmd.args(["--bind", "127.0.0.1:0"]).env("FAD_WORKERS", "1");
    match Server::start(cmd) {
        Ok(server) => panic!("server started but should not have:\n{}", server.logs()),
        Err(failure) => {
            let status = failure.status.expect("the process exits by itself");
            assert!(!status.success(), "exit status {status}");
            failure.output
        }
    }
}

#[test]
fn short_jwt_secret_is_refused_at_start_naming_the_variable() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve"]);
    cmd.env("FAD_DATA_DIR", data.path())
        .env("FAD_JWT_SECRET", "short");
    let output = serve_fails(cmd);
    assert!(
        output.contains(
            "FAD_JWT_SECRET (--jwt-secret) is 5 bytes long; it must be at least 32 bytes"
        ),
        "{output}"
    );
}

#[test]
fn no_configuration_serves_on_a_sqlite_file_with_a_generated_secret() {
    // Arrange
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve", "--bind", "127.0.0.1:0"]);
    cmd.env("FAD_DATA_DIR", data.path()).env("FAD_WORKERS", "1");
    // Act
    let server = Server::start(cmd).unwrap_or_else(|f| panic!("did not start: {}", f.output));
    let ready = reqwest::blocking::get(format!("{}/ready", server.base_url)).unwrap();
    // Assert
    assert_eq!(ready.status(), 200);
    assert!(data.path().join("fad-campaign.sqlite3").is_file());
    let secret = data.path().join("jwt_secret");
    let meta = std::fs::metadata(&secret).expect("generated secret file");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::read_to_string(&secret).unwrap().len(), 64);
    assert!(
        server.logs().contains("generated a new secret"),
        "{}",
        server.logs()
    );
}

#[test]
fn flags_win_over_environment() {
    // Arrange: the environment is wrong everywhere, the flags are right.
    let db = TestDb::new(Backend::Sqlite);
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve", "--bind", "127.0.0.1:0", "--database-url", db.url()]);
    cmd.env("FAD_BIND", "not-an-address")
        .env("DATABASE_URL", "mysql://nowhere/x")
        .env("FAD_DATA_DIR", data.path())
        .env("FAD_WORKERS", "1");
    // Act
    let server = Server::start(cmd).unwrap_or_else(|f| panic!("did not start: {}", f.output));
    // Assert
    let ready = reqwest::blocking::get(format!("{}/ready", server.base_url)).unwrap();
    assert_eq!(ready.status(), 200);
}

#[test]
fn unreachable_postgres_is_reported_with_the_real_cause() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve"]);
    cmd.env("FAD_DATA_DIR", data.path())
        .env("DATABASE_URL", "postgres://postgres:pw@127.0.0.1:1/fad");
    let output = serve_fails(cmd);
    assert!(
        output.contains("cannot connect to postgres://postgres:***@127.0.0.1:1/fad"),
        "{output}"
    );
    assert!(output.contains("Connection refused"), "{output}");
    assert!(
        !output.contains(":pw@"),
        "the password must not be printed: {output}"
    );
}

#[test]
fn missing_postgres_database_is_reported_with_the_real_cause() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve"]);
    let url = format!(
        "{}/fad_t_does_not_exist",
        pg_server_url().trim_end_matches('/')
    );
    cmd.env("FAD_DATA_DIR", data.path())
        .env("DATABASE_URL", &url);
    let output = serve_fails(cmd);
    assert!(
        output.contains("database \"fad_t_does_not_exist\" does not exist"),
        "{output}"
    );
}

#[test]
fn unknown_database_scheme_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve"]);
    cmd.env("FAD_DATA_DIR", data.path())
        .env("DATABASE_URL", "mysql://u@h/db");
    let output = serve_fails(cmd);
    assert!(
        output.contains("invalid DATABASE_URL (--database-url): unsupported scheme `mysql`"),
        "{output}"
    );
}

#[test]
fn port_in_use_is_reported() {
    let db = TestDb::new(Backend::Sqlite);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let data = tempfile::tempdir().unwrap();
    let mut cmd = command(&["serve", "--bind", &address]);
    cmd.env("FAD_DATA_DIR", data.path())
        .env("DATABASE_URL", db.url());
    let output = match Server::start(cmd) {
        Ok(server) => panic!("started on a taken port:\n{}", server.logs()),
        Err(failure) => failure.output,
    };
    assert!(
        output.contains(&format!("cannot listen on {address}")),
        "{output}"
    );
}
