//! The committed `openapi/openapi.json` must match the generated and the served document.

use crate::common::*;

const COMMITTED: &str = include_str!("../openapi/openapi.json");
const REGENERATE: &str = "regenerate it with `cargo run -p fad-api -- openapi > openapi/openapi.json` \
                          and review the diff";

#[test]
fn committed_openapi_document_matches_the_generated_one() {
    // Act
    let output = command(&["openapi"]).output().unwrap();
    // Assert
    assert!(output.status.success(), "{output:?}");
    let generated = String::from_utf8(output.stdout).unwrap();
    assert!(
        generated == COMMITTED,
        "openapi/openapi.json is out of date: {REGENERATE}"
    );
}

#[test]
fn served_openapi_document_matches_the_committed_one() {
    // Arrange
    let app = TestApp::spawn(Backend::Sqlite);
    // Act
    let served: serde_json::Value = app.get("/api-docs/openapi.json").json().unwrap();
    // Assert
    let committed: serde_json::Value = serde_json::from_str(COMMITTED).unwrap();
    assert!(
        served == committed,
        "served document differs from openapi/openapi.json: {REGENERATE}"
    );
    assert_eq!(served["openapi"], "3.1.0");
}

#[test]
fn docs_page_and_its_assets_are_served_without_internet() {
    // Arrange
    let app = TestApp::spawn(Backend::Sqlite);
    // Act
    let page = app.get("/docs/");
    let redirect = app.get("/docs");
    let script = app.get("/docs/swagger-ui-bundle.js");
    // Assert
    assert_eq!(page.status(), 200);
    let html = page.text().unwrap();
    assert!(html.contains("swagger-ui"), "{html}");
    assert!(
        !html.contains("https://"),
        "the page must not load anything from the internet"
    );
    assert_eq!(redirect.status(), 200, "GET /docs reaches the page");
    assert_eq!(script.status(), 200);
    let config = app.get("/docs/swagger-initializer.js").text().unwrap();
    assert!(config.contains("/api-docs/openapi.json"), "{config}");
}
