//! The organiser's invitations on the campaign page: every open invitation with its link (a text
//! field to copy from, `Copy link`, `Share` where the browser has a share sheet, a QR code) and
//! `Revoke`. Creating one is a POST answered with a redirect to the campaign page, so a reload
//! never creates another; the page only lists.

use actix_web::{HttpRequest, HttpResponse, post, web};
use maud::{Markup, html};

use crate::AppState;
use crate::app::accounts::SessionUser;
use crate::app::campaign_setup;
use crate::app::campaigns::invites::OpenInvite;

use crate::web::accounts::TokenForm;
use crate::web::accounts::session::{self, FormKey};
use crate::web::assets;
use crate::web::layout::{self, csrf_input};
use crate::web::{PageError, require_user, see_other};

/// The address people open to join with `code`.
fn join_url(req: &HttpRequest, state: &AppState, code: &str) -> String {
    let base = if state.config.public_url.is_empty() {
        let info = req.connection_info();
        format!("{}://{}", info.scheme(), info.host())
    } else {
        state.config.public_url.clone()
    };
    format!("{base}/join/{code}")
}

/// The QR code of `text` as inline SVG (dark modules on white, whatever the theme).
fn qr_svg(text: &str) -> Option<Markup> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(qrcode::render::svg::Color("#000000"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .build();
    // The renderer starts with an XML declaration, which has no place inside HTML.
    let start = svg.find("<svg")?;
    let svg = svg[start..].replacen(
        "<svg",
        r#"<svg role="img" aria-label="QR code of the invitation link""#,
        1,
    );
    Some(layout::trusted(svg))
}

/// The "Invite players" part of the campaign page (organiser only): the open invitations,
/// newest first (the newest with its QR code shown), and the button that makes a new one.
pub fn section(
    state: &AppState,
    req: &HttpRequest,
    user: &SessionUser,
    campaign_id: &str,
    campaign_name: &str,
    invites: &[OpenInvite],
) -> Markup {
    html! {
        section aria-labelledby="invites" {
            h2 id="invites" tabindex="-1" { "Invite players" }
            @if invites.is_empty() {
                p.muted { "No invitation is open. A new link works for 14 days; send it, or let players scan its QR code." }
            } @else {
                p.muted { "Send a link, or let players scan its QR code. Revoke a link to stop it working." }
                ul.cards.invites {
                    @for (k, open) in invites.iter().enumerate() {
                        @let field = format!("invite-{}", k + 1);
                        li data-invite {
                            @match &open.link {
                                Some((code, _)) => {
                                    @let url = join_url(req, state, code);
                                    label for=(field) { "Invitation link " (k + 1) }
                                    input.invite-url id=(field) type="text" readonly value=(url);
                                    p.muted {
                                        "Code " a href=(url) { span.code-inline { (code) } }
                                        " · works until " (open.invite.expires_at.format("%Y-%m-%d %H:%M UTC"))
                                        " · used " (open.invite.uses) @if open.invite.uses == 1 { " time" } @else { " times" }
                                    }
                                    div.actions {
                                        button.copy-link type="button" hidden { "Copy link" }
                                        button.share-link.secondary type="button" hidden data-title={ "Join " (campaign_name) } { "Share" }
                                        (revoke_form(state, user, campaign_id, &open.invite.id))
                                    }
                                    p.copy-status role="status" aria-live="polite" {}
                                    details.qr open[k == 0] {
                                        summary { "QR code" }
                                        @if let Some(svg) = qr_svg(&url) { (svg) }
                                    }
                                }
                                None => {
                                    p { "An invitation made earlier, working until "
                                        (open.invite.expires_at.format("%Y-%m-%d %H:%M UTC"))
                                        ". Its link was shown once, when it was made." }
                                    div.actions { (revoke_form(state, user, campaign_id, &open.invite.id)) }
                                }
                            }
                        }
                    }
                }
                script src=(assets::INVITES_JS_PATH.as_str()) defer {}
            }
            form method="post" action={ "/campaigns/" (campaign_id) "/invites" } {
                (csrf_input(state, &FormKey::session(user)))
                button type="submit" { "Create invite link" }
            }
        }
    }
}

fn revoke_form(state: &AppState, user: &SessionUser, campaign_id: &str, invite_id: &str) -> Markup {
    html! {
        form method="post" action={ "/campaigns/" (campaign_id) "/invites/" (invite_id) "/revoke" } {
            (csrf_input(state, &FormKey::session(user)))
            button.secondary type="submit" { "Revoke" }
        }
    }
}

/// `POST /campaigns/{id}/invites`: a new invitation, then back to the campaign page, which
/// lists it (redirect after post: a reload shows the list again and creates nothing).
#[post("/campaigns/{id}/invites")]
pub async fn create_invite(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    session::check_form(&req, &state, &FormKey::session(&user), form.csrf_token())
        .map_err(|_| PageError::Refused)?;
    campaign_setup::create_invite(&state, &user.user_id, &path).await?;
    Ok(see_other(&format!("/campaigns/{}#invites", path.as_str())))
}

/// `POST /campaigns/{id}/invites/{invite_id}/revoke`: the link stops working; back to the
/// campaign page.
#[post("/campaigns/{id}/invites/{invite_id}/revoke")]
pub async fn revoke_invite(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    form: web::Form<TokenForm>,
) -> Result<HttpResponse, PageError> {
    let user = require_user(&req, &state).await?;
    session::check_form(&req, &state, &FormKey::session(&user), form.csrf_token())
        .map_err(|_| PageError::Refused)?;
    let (campaign_id, invite_id) = path.into_inner();
    campaign_setup::revoke_invite(&state, &user.user_id, &campaign_id, &invite_id).await?;
    Ok(see_other(&format!("/campaigns/{campaign_id}#invites")))
}
