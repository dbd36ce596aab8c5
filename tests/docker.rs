//! `docker/`: no Docker engine runs here, so the files are checked statically: the compose
//! file parses and wires PostgreSQL 16 to the service, and every path, flag and variable the
//! Dockerfile and compose file use exists.

use crate::common::*;
use serde_yaml_ng::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn compose() -> Value {
    serde_yaml_ng::from_str(&read("docker/compose.yml")).expect("compose.yml is valid YAML")
}

/// Whether `--help` lists `var` (clap prints `[env: VAR=value]`, or `[env: VAR]` when hidden).
fn reads_env(help: &str, var: &str) -> bool {
    help.contains(&format!("env: {var}=")) || help.contains(&format!("env: {var}]"))
}

#[test]
fn compose_runs_postgres_16_with_a_named_volume_and_healthcheck() {
    let compose = compose();
    let postgres = &compose["services"]["postgres"];
    assert_eq!(postgres["image"].as_str(), Some("postgres:16"));
    let volume = postgres["volumes"][0].as_str().unwrap();
    let name = volume.split(':').next().unwrap();
    assert!(
        compose["volumes"].get(name).is_some(),
        "volume {name} is declared"
    );
    assert!(postgres["healthcheck"]["test"].is_sequence());
}

#[test]
fn compose_service_waits_for_healthy_postgres_and_is_configured_by_env_only() {
    let compose = compose();
    let service = &compose["services"]["fad-campaign"];
    assert_eq!(
        service["depends_on"]["postgres"]["condition"].as_str(),
        Some("service_healthy")
    );
    let env = service["environment"].as_mapping().unwrap();
    let url = env.get("DATABASE_URL").and_then(Value::as_str).unwrap();
    assert!(
        url.starts_with("postgres://") && url.contains("@postgres:5432/"),
        "{url}"
    );
    // Every variable the compose file sets must be one the binary reads.
    let help = command(&["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    for key in env.keys() {
        let key = key.as_str().unwrap();
        let known = key == "RUST_LOG" || reads_env(&help, key);
        assert!(
            known,
            "compose sets {key}, which `fad-campaign serve` does not read"
        );
    }
    // The build section points at files that exist.
    let context = service["build"]["context"].as_str().unwrap();
    let dockerfile = service["build"]["dockerfile"].as_str().unwrap();
    let dir = format!("{ROOT}/docker/{context}");
    assert!(std::path::Path::new(&format!("{dir}/{dockerfile}")).is_file());
    assert!(
        std::path::Path::new(&format!("{dir}/Cargo.lock")).is_file(),
        "context is the root"
    );
}

#[test]
fn dockerfile_is_multi_stage_non_root_with_a_ready_healthcheck() {
    let dockerfile = read("docker/Dockerfile");
    assert!(dockerfile.matches("\nFROM ").count() >= 3, "multi-stage");
    assert!(dockerfile.contains("-slim AS runtime"));
    let user = dockerfile
        .lines()
        .find_map(|l| l.strip_prefix("USER "))
        .expect("USER line");
    assert_ne!(user.trim(), "root");
    assert!(dockerfile.contains("HEALTHCHECK") && dockerfile.contains("/ready"));
}

#[test]
fn dockerfile_uses_only_existing_flags_and_variables() {
    let dockerfile = read("docker/Dockerfile");
    let help = command(&["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let cmd = dockerfile
        .lines()
        .find_map(|l| l.strip_prefix("CMD "))
        .expect("CMD line");
    let args: Vec<String> = serde_json::from_str(cmd).expect("CMD is exec form");
    assert_eq!(args[0], "serve");
    for flag in args.iter().filter(|a| a.starts_with("--")) {
        assert!(help.contains(flag.as_str()), "`serve` has no flag {flag}");
    }
    for var in ["FAD_BIND", "FAD_DATA_DIR", "FAD_LOG_FORMAT"] {
        assert!(dockerfile.contains(&format!("{var}=")));
        assert!(reads_env(&help, var), "`serve` does not read {var}");
    }
    assert!(dockerfile.contains("--bin fad-campaign"));
    assert!(dockerfile.contains("target/release/fad-campaign"));
}
