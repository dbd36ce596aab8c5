//! Exact mission odds: `GET /api/v1/odds/missions` is public, answers with
//! numerators over one denominator that sum to it, and names the bad parameter in a 422.

use crate::common::{TestApp, assert_problem};
use serde_json::Value;

/// 6^8 × 840.
const DENOMINATOR: u64 = 1_679_616 * 840;

both_backends! {
    fn odds_are_public_exact_and_sum_to_one(app: &TestApp) {
        let response = app.get("/api/v1/odds/missions?stance=offensive&attitude=aggressive");
        assert_eq!(response.status(), 200);
        let body: Value = response.json().unwrap();
        assert_eq!(body["denominator"], DENOMINATOR);
        assert_eq!(body["stance"], "offensive");
        assert_eq!(body["bonuses"], serde_json::json!([]));
        let missions = body["missions"].as_array().unwrap();
        assert_eq!(missions.len(), 8);
        let sum: u64 = missions.iter().map(|m| m["numerator"].as_u64().unwrap()).sum();
        assert_eq!(sum, DENOMINATOR);
        let tie = body["tie"]["numerator"].as_u64().unwrap();
        assert!(tie > 0 && tie < DENOMINATOR);
        for m in missions {
            let p = m["probability"].as_f64().unwrap();
            let exact = m["numerator"].as_u64().unwrap() as f64 / DENOMINATOR as f64;
            assert!((p - exact).abs() < 1e-12);
            let (a, b) = m["fraction"].as_str().unwrap().split_once('/').unwrap();
            let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
            assert_eq!(u128::from(a) * u128::from(DENOMINATOR), u128::from(b) * u128::from(m["numerator"].as_u64().unwrap()));
        }
    }

    fn a_bonus_raises_its_mission_and_order_does_not_matter(app: &TestApp) {
        let get = |q: &str| -> Value {
            let r = app.get(&format!("/api/v1/odds/missions?stance=neutral&attitude=cautious{q}"));
            assert_eq!(r.status(), 200);
            r.json().unwrap()
        };
        let chance = |v: &Value, m: &str| {
            v["missions"].as_array().unwrap().iter().find(|x| x["mission"] == m).unwrap()["numerator"].as_u64().unwrap()
        };
        let plain = get("");
        let a = get("&bonus=hold&bonus=sweep");
        let b = get("&bonus=sweep&bonus=hold");
        assert_eq!(a["missions"], b["missions"]);
        assert!(chance(&a, "hold") > chance(&plain, "hold"));
        assert!(chance(&a, "sweep") > chance(&plain, "sweep"));
        assert!(chance(&a, "assault") < chance(&plain, "assault"));
    }

    fn bad_parameters_are_named(app: &TestApp) {
        for (q, field) in [
            ("stance=sideways&attitude=passive", "stance"),
            ("attitude=passive", "stance"),
            ("stance=neutral&attitude=furious", "attitude"),
            ("stance=neutral&attitude=passive&bonus=hold", "bonus"),
            ("stance=neutral&attitude=passive&bonus=hold&bonus=hold", "bonus"),
            ("stance=neutral&attitude=passive&bonus=hold&bonus=sweep&bonus=patrol", "bonus"),
            ("stance=neutral&attitude=passive&bonus=nap&bonus=sweep", "bonus"),
        ] {
            let body = assert_problem(app.get(&format!("/api/v1/odds/missions?{q}")), 422);
            let errors = body["errors"].as_array().unwrap();
            assert!(errors.iter().any(|e| e["field"] == field), "{q}: {body}");
        }
        let body = assert_problem(app.get("/api/v1/odds/missions?stance=sideways&attitude=passive"), 422);
        assert!(body["errors"][0]["message"].as_str().unwrap().contains("offensive, neutral, defensive"), "{body}");
    }
}
