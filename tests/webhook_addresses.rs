//! a webhook URL whose address carries an internal IPv4 address inside IPv6
//! (IPv4-compatible, NAT64, 6to4) or names site-local, discard-only or the 6to4 relay range
//! is refused at creation, with the field named and nothing stored. (The unit tests in
//! `webhooks/address.rs` cover every range and the public addresses the same forms may carry;
//! the same check runs again on the addresses each delivery connects to.)

use serde_json::json;

use crate::auth::register;
use crate::campaigns::create_campaign;
use crate::common::{TestApp, assert_problem};

both_backends! {
    fn i27_webhook_urls_with_an_internal_ipv4_inside_ipv6_are_refused(app: &TestApp) {
        let organiser = register(app, "organiser");
        let campaign = create_campaign(app, &organiser, "Long Winter")["id"].as_str().unwrap().to_owned();
        let path = format!("/api/v1/campaigns/{campaign}/webhooks");
        for url in [
            "https://[::127.0.0.1]/hook",
            "https://[::a9fe:a9fe]/latest",
            "https://[64:ff9b::127.0.0.1]/hook",
            "https://[64:ff9b::a9fe:a9fe]/latest",
            "https://[64:ff9b::10.0.0.8]/hook",
            "https://[2002:7f00:1::1]/hook",
            "https://[2002:c0a8:10a::]/hook",
            "https://[fec0::1]/hook",
            "https://[100::1]/hook",
            "https://192.88.99.1/hook",
        ] {
            let response = app.post_json_with_token(&path, &json!({"url": url, "events": ["force.created"]}), &organiser.token);
            let problem = assert_problem(response, 422);
            assert_eq!(problem["errors"][0]["field"], "url", "{url}: {problem}");
        }
        let listed = crate::common::ok(app.get_with_token(&path, &organiser.token));
        assert_eq!(listed["webhooks"].as_array().unwrap().len(), 0, "{listed}");
    }
}
