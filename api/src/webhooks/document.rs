//! The OpenAPI document's `webhooks` section: one entry per event type, each with its own
//! payload schema (`BattleCreatedEvent`, ...) naming the `data` fields that event always
//! carries, so a generator gets one typed class per event.

use utoipa::openapi::path::{HttpMethod, OperationBuilder, PathItem, Paths};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{
    ContentBuilder, KnownFormat, OpenApi, Ref, RefOr, Required, ResponseBuilder, Schema,
};

use crate::store::events::EventType;

/// Fields every payload's `data` carries.
const EVERY: [&str; 4] = ["campaign_id", "campaign_name", "ruleset", "links"];

/// The `data` fields `event_type` always carries besides [`EVERY`].
pub fn required(event_type: EventType) -> &'static [&'static str] {
    use EventType as E;
    match event_type {
        E::BattleCreated | E::BattleScenarioReady | E::BattleVoided | E::BattleSoloTurn => {
            &["battle_id", "state", "sides"]
        }
        E::BattleResultRecorded
        | E::BattleResultConfirmed
        | E::BattleCompleted
        | E::BattleResultReopened => &["battle_id", "state", "sides", "outcome"],
        E::ScenarioStepChanged => &["battle_id", "state", "sides", "step", "waiting_for"],
        E::ForceCreated => &["force_id", "force_name", "owner_name"],
        E::ForceRosterChanged => &["force_id", "force_name", "owner_name", "version"],
        E::ForceLedgerAdjusted => &["force_id", "force_name", "owner_name", "kind", "amount"],
        E::AftermathStepRolled => &[
            "battle_id",
            "sides",
            "force_id",
            "force_name",
            "owner_name",
            "step",
        ],
        E::AftermathFinalized => &["battle_id", "sides", "force_id", "force_name", "owner_name"],
        E::MemberJoined => &["user_id", "member_name", "role"],
        E::MemberLeft => &["user_id", "member_name"],
        E::Ping => &["webhook_id"],
    }
}

/// The component name of an event's payload: `battle.result_confirmed` →
/// `BattleResultConfirmedEvent`.
pub fn schema_name(event_type: EventType) -> String {
    let mut name: String = event_type
        .as_str()
        .split(['.', '_'])
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    name.push_str("Event");
    name
}

fn payload_schema(event_type: EventType) -> Schema {
    // Only which of `EventData`'s fields this event always carries: no type of its own, so it
    // never reads as an object without properties.
    let mut data = ObjectBuilder::new().schema_type(utoipa::openapi::schema::SchemaType::AnyValue);
    for field in EVERY.iter().chain(required(event_type)) {
        data = data.required(*field);
    }
    let data = AllOfBuilder::new()
        .item(Ref::from_schema_name("EventData"))
        .item(data);
    ObjectBuilder::new()
        .description(Some(format!(
            "The body of a `{}` delivery.",
            event_type.as_str()
        )))
        .property(
            "type",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([event_type.as_str()])),
        )
        .required("type")
        .property(
            "timestamp",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
                .description(Some("When the event happened (RFC 3339, UTC).")),
        )
        .required("timestamp")
        .property("data", data)
        .required("data")
        .into()
}

/// Adds the `webhooks` section and each payload's schema to `api`.
pub fn document(api: &mut OpenApi) {
    let mut paths = Paths::new();
    let components = api.components.get_or_insert_with(Default::default);
    for event_type in EventType::ALL {
        let name = schema_name(event_type);
        components
            .schemas
            .insert(name.clone(), RefOr::T(payload_schema(event_type)));
        let operation = OperationBuilder::new()
            .summary(Some(format!("`{}`", event_type.as_str())))
            .description(Some(
                "Sent signed (Standard Webhooks: `webhook-id`, `webhook-timestamp`, \
                 `webhook-signature`) to each webhook subscribed to this event; any 2xx \
                 answer acknowledges it, `410 Gone` disables the webhook.",
            ))
            .request_body(Some(
                RequestBodyBuilder::new()
                    .required(Some(Required::True))
                    .content(
                        "application/json",
                        ContentBuilder::new()
                            .schema(Some(Ref::from_schema_name(name)))
                            .build(),
                    )
                    .build(),
            ))
            .response(
                "200",
                ResponseBuilder::new().description("Received (any 2xx)"),
            )
            .response(
                "410",
                ResponseBuilder::new().description("Gone: the webhook is disabled"),
            );
        paths.paths.insert(
            event_type.as_str().to_owned(),
            PathItem::new(HttpMethod::Post, operation),
        );
    }
    api.webhooks = Some(paths);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_are_camel_cased_wire_names() {
        assert_eq!(
            schema_name(EventType::BattleResultConfirmed),
            "BattleResultConfirmedEvent"
        );
        assert_eq!(
            schema_name(EventType::ScenarioStepChanged),
            "ScenarioStepChangedEvent"
        );
        assert_eq!(schema_name(EventType::Ping), "PingEvent");
    }

    #[test]
    fn every_event_is_documented_with_its_own_schema() {
        let mut api = utoipa::openapi::OpenApi::default();
        document(&mut api);
        let hooks = api.webhooks.map(|w| w.paths).unwrap_or_default();
        assert_eq!(hooks.len(), EventType::ALL.len());
        let schemas = api.components.map(|c| c.schemas).unwrap_or_default();
        for event_type in EventType::ALL {
            assert!(hooks.contains_key(event_type.as_str()), "{event_type:?}");
            assert!(schemas.contains_key(&schema_name(event_type)));
        }
    }
}
