//! Security headers: `X-Content-Type-Options: nosniff` on every response
//! (JSON, problem+json, HTML, scripts, redirects), a restrictive `Content-Security-Policy` on
//! every response, and on the Swagger UI page one that still lets its own vendored scripts and
//! styles load (`script-src 'self'`, no inline scripts).

use crate::auth::register;
use crate::common::TestApp;
use reqwest::Method;
use reqwest::blocking::Response;

fn header(response: &Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

both_backends! {
    fn every_response_says_nosniff_and_carries_a_content_security_policy(app: &TestApp) {
        // Arrange
        let alice = register(app, "alice");
        let no_redirects = reqwest::blocking::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();

        // Act
        let responses = vec![
            ("health", app.get("/health")),
            ("ready", app.get("/ready")),
            ("me", app.get_with_token("/api/v1/me", &alice.token)),
            ("401", app.get("/api/v1/me")),
            ("404", app.get("/no/such/path")),
            ("405", app.request(Method::DELETE, "/health").send().unwrap()),
            ("openapi", app.get("/api-docs/openapi.json")),
            ("docs redirect", no_redirects.get(app.url("/docs")).send().unwrap()),
            ("docs page", app.get("/docs/")),
            ("swagger script", app.get("/docs/swagger-ui-bundle.js")),
            ("preflight", app.request(Method::OPTIONS, "/api/v1/me")
                .header("Origin", "https://evil.example")
                .header("Access-Control-Request-Method", "GET")
                .send()
                .unwrap()),
        ];

        // Assert
        for (what, response) in &responses {
            assert_eq!(header(response, "x-content-type-options"), "nosniff", "{what}");
            let csp = header(response, "content-security-policy");
            assert!(csp.contains("default-src 'none'"), "{what}: CSP `{csp}`");
            assert!(csp.contains("frame-ancestors 'none'"), "{what}: CSP `{csp}`");
            assert!(!csp.contains("unsafe-eval"), "{what}: CSP `{csp}`");
            assert!(!csp.contains("script-src 'self' 'unsafe-inline'"), "{what}: CSP `{csp}`");
        }
        let api_csp = header(&responses[2].1, "content-security-policy");
        assert_eq!(api_csp, "default-src 'none'; frame-ancestors 'none'");
    }

    fn swagger_ui_loads_only_same_origin_scripts_that_its_policy_allows(app: &TestApp) {
        // Arrange + Act
        let page = app.get("/docs/");
        let csp = header(&page, "content-security-policy");
        let content_type = header(&page, "content-type");
        let html = page.text().unwrap();

        // Assert: the page is HTML, every script is an external same-origin file that loads,
        // and no inline script would be blocked by `script-src 'self'`.
        assert!(content_type.starts_with("text/html"), "{content_type}");
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(csp.contains("connect-src 'self'"), "the page fetches the document: {csp}");
        let mut scripts = 0;
        for tag in html.split("<script").skip(1) {
            let open = &tag[..tag.find('>').unwrap()];
            let body = &tag[tag.find('>').unwrap() + 1..tag.find("</script>").unwrap()];
            assert!(body.trim().is_empty(), "an inline script `script-src 'self'` blocks: {body}");
            let src = open.split("src=\"").nth(1).unwrap().split('"').next().unwrap();
            assert!(!src.contains("://"), "a script from elsewhere: {src}");
            let script = app.get(&format!("/docs/{}", src.trim_start_matches("./")));
            assert_eq!(script.status(), 200, "{src}");
            assert!(header(&script, "content-type").contains("javascript"), "{src}");
            scripts += 1;
        }
        assert!(scripts >= 2, "Swagger UI's bundle and initializer: {html}");
    }
}
