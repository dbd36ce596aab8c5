//! `/campaigns/{id}/standings/embed`: a published campaign's standings as a small page a club
//! site may frame (`frame-ancestors *`), for anyone, no sign-in; 404 while the organiser has
//! not published them (campaign setting `public_standings`). It shows what the standings show
//! and nothing else: forces, their owners' names, results and campaign points.

use actix_web::http::StatusCode;
use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, get, web};
use maud::{DOCTYPE, Markup, html};

use crate::AppState;
use crate::app::campaigns::standings::{self, PublicStandings};
use crate::error::ApiError;

use crate::web::assets;

/// The embed's policy: its own stylesheet only, framed by any site.
const EMBED_CSP: &str = "default-src 'none'; style-src 'self'; base-uri 'none'; \
                         form-action 'none'; frame-ancestors *";

fn markup(table: &PublicStandings) -> Markup {
    let title = format!("Standings of {}", table.campaign_name);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                title { (title) }
                link rel="stylesheet" href=(assets::CSS_PATH.as_str());
            }
            body.embed {
                main.wrap {
                    h1 { (title) }
                    @if table.rows.is_empty() {
                        p.muted { "No forces yet." }
                    } @else {
                        // The order is told above the table, not in a caption: a caption is as wide as
                        // the table, so on a phone it would be cut off where the table scrolls.
                        p.muted id="order" { "Most wins first, then campaign points earned, then fewest losses." }
                        div.table-wrap tabindex="0" role="region" aria-label="Standings table" {
                            table aria-describedby="order" {
                                thead { tr {
                                    th.num scope="col" { "Rank" }
                                    th scope="col" { "Force" }
                                    th scope="col" { "Player" }
                                    th.num scope="col" { "Won" }
                                    th.num scope="col" { "Drawn" }
                                    th.num scope="col" { "Lost" }
                                    th.num scope="col" { "Campaign points" }
                                } }
                                tbody {
                                    @for row in &table.rows {
                                        tr {
                                            td.num { (row.rank) }
                                            th scope="row" { (row.name) }
                                            td { (row.owner_name) }
                                            td.num { (row.wins) }
                                            td.num { (row.draws) }
                                            td.num { (row.losses) }
                                            td.num { (row.campaign_points_earned) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `GET /campaigns/{id}/standings/embed`.
#[get("/campaigns/{id}/standings/embed")]
pub async fn standings_embed(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let table = standings::read_public_standings(&state, &path.into_inner()).await?;
    Ok(HttpResponse::build(StatusCode::OK)
        .content_type(ContentType::html())
        .insert_header(("Content-Security-Policy", EMBED_CSP))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Referrer-Policy", "no-referrer"))
        // Results change after a battle; a minute is fresh enough for a club page.
        .insert_header(("Cache-Control", "public, max-age=60"))
        .body(markup(&table).into_string()))
}
