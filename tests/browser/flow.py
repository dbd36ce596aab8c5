"""Browser tests of the web app: a real Chromium drives the debug binary on a fresh SQLite
database through what a club does on its first evening (register, create a campaign, invite,
a second player joins in another browser), checking on every page: axe-core (vendored, injected
by this test) reports no serious or critical violation, nothing scrolls sideways at 360 px,
controls are at least 44 px tall, and scripts-off forms work (the second player has JavaScript
disabled). Screenshots at 375 px and 1280 px go to $SCREENSHOT_DIR.

Run through tests/browser/run (which .ci/run calls after the cargo tests).
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Page, expect, sync_playwright

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BINARY = Path(os.environ.get("FAD_BINARY", ROOT / "target" / "debug" / "fad-campaign"))
AXE = HERE / "vendor" / "axe-4.14.1.min.js"
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", ROOT / "target" / "browser-screenshots"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PASSWORD = "correct horse battery staple"

failures: list[str] = []


def check(condition: bool, message: str) -> None:
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}", file=sys.stderr)


def start_server(workdir: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [
            str(BINARY),
            "serve",
            "--bind", "127.0.0.1:0",
            "--database-url", f"sqlite://{workdir / 'browser.sqlite3'}",
            "--data-dir", str(workdir),
            "--jwt-secret", "browser-test-secret-browser-test-secret-0123",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        match = re.search(r"listening on (http://\S+)", line)
        if match:
            return proc, match.group(1)
    raise SystemExit("the server did not start")


# What a person must never read: an id, a key meant for programs, "value(s)".
INTERNAL_NAMES = (
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I), "a UUID"),
    (re.compile(r"(?<![\w.@/-])[a-z]+_[a-z_]+\b"), "a snake_case key"),
    (re.compile(r"\bs\d+-u\d+\b"), "a unit key"),
    (re.compile(r"value\(s\)"), '"value(s)"'),
)
# Pages written for programs as much as people: the rules reference lists every word a client
# may send, the API document is for programs.
INTERNAL_NAMES_ALLOWED_PATHS = ("/rules", "/api-docs")


def plain_words(text: str, name: str, path: str = "") -> None:
    """No UUID, snake_case key, unit key or "value(s)" in the visible text of a page."""
    if path.startswith(INTERNAL_NAMES_ALLOWED_PATHS):
        return
    for pattern, what in INTERNAL_NAMES:
        matches = list(pattern.finditer(text))
        found = sorted(set(m.group(0) for m in matches))
        # Where it shows, so the page that leaks it is found at once.
        context = [text[max(0, m.start() - 60):m.end() + 20].replace("\n", " ") for m in matches[:2]]
        check(not found, f"{name}: shows {what} to people: {found[:5]} in {context}")


def page_text(html: str) -> str:
    """The text a browser shows of an HTML document (scripts, styles and tags dropped)."""
    html = re.sub(r"(?is)<(script|style|template)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<[^>]+>", " ", html)
    return html.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'").replace("&quot;", '"')


def audit(page: Page, name: str, scripts: bool = True) -> None:
    """axe-core, sideways scrolling, tap targets, one h1 and a main landmark, plain words;
    then screenshots."""
    plain_words(page.locator("body").inner_text(), name, urlparse(page.url).path)
    check(page.locator("h1").count() == 1, f"{name}: exactly one h1")
    check(page.locator("main").count() == 1, f"{name}: one main landmark")
    check(page.get_by_role("navigation").get_by_role("link", name="Home").count() == 1, f"{name}: nav link Home")
    if scripts:
        page.add_script_tag(path=str(AXE))
        result = page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))"
        )
        bad = [v for v in result if v["impact"] in ("serious", "critical")]
        check(not bad, f"{name}: axe serious/critical violations {bad}")
        minor = [v for v in result if v not in bad]
        if minor:
            print(f"note: {name}: minor axe findings {minor}")
    size = page.viewport_size
    for width, height in ((360, 780), (375, 812), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        if scripts:
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            check(overflow <= 0, f"{name}: scrolls sideways by {overflow}px at {width}px")
            small = page.evaluate(
                """() => [...document.querySelectorAll('button, input:not([type=hidden]), select, textarea, nav a, .actions a')]
                    .filter(e => e.offsetParent !== null && !e.hidden)
                    .map(e => [e.tagName + ':' + (e.textContent || e.name || '').trim().slice(0, 30),
                               // A checkbox's target is its row with the label.
                               (e.type === 'checkbox' ? e.parentElement : e).getBoundingClientRect()])
                    .filter(([_, r]) => r.height < 44 || (r.width < 24))
                    .map(([n, r]) => n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
            )
            check(not small, f"{name}: tap targets under 44px at {width}px: {small}")
        if width != 360:
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    if size:
        page.set_viewport_size(size)


def open_section(scope, title: str) -> None:
    """Opens a unit's collapsible section (a section in use starts open)."""
    section = scope.locator("details.group").filter(has=scope.page.locator("summary", has_text=title)).first
    if section.get_attribute("open") is None:
        section.locator("summary").click()


def register(page: Page, base: str, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                # bypass_csp lets the test inject axe; the pages themselves allow no inline script.
                organiser = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                page = organiser.new_page()
                page.goto(base + "/")
                audit(page, "01-landing")
                page.get_by_role("link", name="Create an account").first.click()
                audit(page, "02-register")
                # Bad input first: the form comes back with the input kept and the summary focused.
                page.get_by_label("Username").fill("olga")
                page.get_by_label("Password").fill("short")
                page.get_by_role("button", name="Create account").click()
                expect(page.locator("#error-summary")).to_be_focused()
                expect(page.get_by_label("Username")).to_have_value("olga")
                audit(page, "03-register-error")
                page.get_by_label("Password").fill(PASSWORD)
                page.get_by_role("button", name="Create account").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Your campaigns")
                audit(page, "04-home-empty")
                page.get_by_role("link", name="Create a campaign").click()
                page.get_by_label("Name").fill("Operation Long Winter")
                page.get_by_label("Description").fill("Tuesdays at the club, 600 points.")
                audit(page, "05-new-campaign")
                page.get_by_role("button", name="Create campaign").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Operation Long Winter")
                page.get_by_role("button", name="Create invite link").click()
                expect(page.locator(".qr svg")).to_be_visible()
                audit(page, "06-campaign-invite")
                invite = page.locator("a[href*='/join/']").first.get_attribute("href")
                check(bool(invite and "/join/" in invite), "invite link shown")
                # Copy link (the clipboard, or the link selected to copy by hand); a reload
                # lists the one invitation again and creates none.
                page.get_by_role("button", name="Copy link").first.click()
                expect(page.locator(".copy-status").first).to_contain_text(re.compile("copied|selected"))
                page.reload()
                check(page.locator("[data-invite]").count() == 1, "a reload creates no invitation")
                # A second invitation, revoked: the list keeps the first.
                page.get_by_role("button", name="Create invite link").click()
                check(page.locator("[data-invite]").count() == 2, "two invitations listed")
                page.locator("[data-invite]").first.get_by_role("button", name="Revoke").click()
                check(page.locator("[data-invite]").count() == 1, "the revoked invitation leaves the list")
                check(page.locator("input.invite-url").first.input_value() == invite, "the first invitation stays")
                audit(page, "06a-campaign-invites")

                # The second player opens the link with scripts off, in another browser.
                player_ctx = browser.new_context(viewport={"width": 375, "height": 812}, java_script_enabled=False)
                player = player_ctx.new_page()
                player.goto(invite)
                expect(player.get_by_role("heading", level=1)).to_contain_text("Operation Long Winter")
                audit(player, "07-join-signed-out", scripts=False)
                player.get_by_role("link", name="Create an account").click()
                register(player, base, "pavel")
                expect(player.get_by_role("button", name="Join campaign")).to_be_visible()
                audit(player, "08-join", scripts=False)
                player.get_by_role("button", name="Join campaign").click()
                expect(player.get_by_role("heading", level=1)).to_have_text("Operation Long Winter")
                check(player.get_by_role("button", name="Create invite link").count() == 0, "a player sees no invite button")
                check("olga" in player.content() and "pavel" in player.content(), "both members listed")

                page.reload()
                check("pavel" in page.content(), "the organiser sees the new member")
                audit(page, "09-campaign-organiser")
                # The organiser's settings: house rules, API keys, webhooks.
                campaign_url = re.sub(r"/invites$", "", page.url)
                page.get_by_role("link", name="campaign settings").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Campaign settings")
                page.get_by_label("Key name").fill("Club website")
                page.get_by_role("button", name="Create API key").click()
                expect(page.locator("code.secret")).to_be_visible()
                audit(page, "09a-settings")
                page.goto(campaign_url)
                # Forces: the player generates one with scripts off, the organiser two platoons.
                player.get_by_role("link", name="Add a force").click()
                player.get_by_label("Force name").fill("Pavel's Rangers")
                player.get_by_role("button", name="Generate force").click()
                expect(player.get_by_role("heading", level=1)).to_have_text("Pavel's Rangers")
                audit(player, "10-force-player", scripts=False)
                page.get_by_role("link", name="Add a force").click()
                audit(page, "11-add-force")
                page.get_by_role("link", name="Generate with advanced choices").click()
                expect(page.get_by_label("Manpower points")).to_be_visible()
                audit(page, "11a-add-force-advanced")
                page.get_by_role("link", name="Build a force unit by unit").click()
                expect(page.get_by_role("button", name="Create force")).to_be_visible()
                audit(page, "11b-add-force-build")
                page.get_by_role("link", name="Generate a basic force").click()
                page.get_by_label("Force name").fill("Olga's Lancers")
                page.get_by_label("Platoons").select_option("2")
                page.get_by_role("button", name="Generate force").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Olga's Lancers")
                audit(page, "12-force")
                # History (and the roster as of an entry) and the ledger, where the organiser adjusts.
                page.get_by_role("link", name="History").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Olga's Lancers · history")
                audit(page, "12a-history")
                page.get_by_role("link", name="The roster as of version 1").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Olga's Lancers as of version 1")
                audit(page, "12b-history-entry")
                page.get_by_role("link", name="The roster now").click()
                page.get_by_role("link", name="Campaign points ledger").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Olga's Lancers · campaign points")
                audit(page, "12c-ledger")
                page.get_by_label("Amount").fill("2")
                page.get_by_label("Reason").fill("Painting prize")
                page.get_by_role("button", name="Adjust points").click()
                expect(page.get_by_role("status")).to_contain_text("The adjustment is in the ledger.")
                check("Painting prize" in page.content(), "the adjustment is listed")
                audit(page, "12d-ledger-adjusted")
                page.get_by_role("link", name="Back to the roster").click()
                page.get_by_role("link", name="Edit roster").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Edit Olga's Lancers")
                audit(page, "12e-edit")
                # The full editor: the first unit's weapons and traits, then a new unit.
                first_unit = page.locator("fieldset.unit").first
                open_section(first_unit, "Weapons")
                first_unit.get_by_label("Support weapon 1", exact=True).select_option("flame_thrower")
                open_section(first_unit, "Traits and personalities")
                traits = first_unit.get_by_role("group", name="Traits", exact=True)
                for trait in ("tough", "stealth"):
                    traits.locator(f"input[value='{trait}']").check()
                page.get_by_role("button", name=re.compile(r"^Add a unit to")).last.click()
                expect(page.locator("fieldset.unit").last).to_contain_text("New unit")
                new_unit = page.locator("fieldset.unit").last
                new_unit.get_by_label("Name", exact=True).fill("Scouts")
                new_unit.get_by_label("Strength", exact=True).fill("1")
                # The page came back at the new unit (its anchor), not at the top.
                check(page.url.endswith("#" + (page.locator("fieldset.unit").last.get_attribute("id") or "-")),
                      f"adding a unit keeps the place: {page.url}")
                check(page.evaluate("window.scrollY") > 0, "adding a unit scrolls to it")
                # The section is folded again, so by name rather than by role.
                kept = first_unit.locator("input[type=checkbox][name$='[traits]']:checked")
                check(sorted(kept.evaluate_all("l => l.map(i => i.value)")) == ["stealth", "tough"],
                      "adding a unit keeps the unsaved traits")
                audit(page, "12f-edit-unit-added")
                page.get_by_role("button", name="Save roster").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Olga's Lancers")
                check("Scouts" in page.content() and "flame thrower" in page.content() and "stealth" in page.content(),
                      "the roster shows the edited weapons, traits and the new unit")
                page.get_by_role("link", name="Unit cards").click()
                audit(page, "13-cards")
                cards = page.locator(".card").count()
                # Lay out as the printer does: A4 less 10 mm margins is 190 mm wide.
                page.set_viewport_size({"width": round(190 * 96 / 25.4), "height": 1000})
                page.emulate_media(media="print")
                # Expected pages: lay the cards out as print does (rows of inline blocks that never
                # split) on an A4 page of 277 mm usable height.
                expected = page.evaluate(
                    """() => {
                        const pageHeight = 277 * 96 / 25.4;
                        const rows = new Map();
                        for (const card of document.querySelectorAll('.card')) {
                            const r = card.getBoundingClientRect();
                            const top = Math.round(r.top + scrollY);
                            rows.set(top, Math.max(rows.get(top) || 0, Math.round(r.bottom + scrollY)));
                        }
                        let pages = 1, pageTop = 0;
                        for (const [top, bottom] of [...rows.entries()].sort((a, b) => a[0] - b[0])) {
                            if (bottom - pageTop > pageHeight) { pages += 1; pageTop = top; }
                        }
                        return pages;
                    }"""
                )
                pdf = SHOTS / "cards.pdf"
                page.pdf(path=str(pdf), format="A4", print_background=False)
                info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
                pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
                print(f"cards: {cards} cards on {pages} A4 page(s), expected {expected}")
                check(pages == expected, f"cards PDF has {pages} pages, expected {expected}")
                text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
                check("Olga's Lancers" in text and "Rules this force uses" in text, "cards PDF text")
                check(cards > 12 or pages <= 3, f"{cards} cards print on {pages} A4 pages, at most 3")
                # Every weapon's profile from the rules tables, the strength now / starting.
                for words in ("Weapons", "AT ", "FE ", "Range", "Strength", " / "):
                    check(words in text, f"cards PDF shows {words!r}")
                check("see the rules reference" not in text, "every weapon on the cards has its profile")
                page.emulate_media(media="screen")
                page.set_viewport_size({"width": 375, "height": 812})

                page.goto(base + "/")
                expect(page.get_by_text("Operation Long Winter")).to_be_visible()
                audit(page, "14-home")

                # Logging out ends the session.
                page.get_by_role("button", name="Log out").click()
                expect(page.get_by_role("link", name="Log in").first).to_be_visible()
                page.goto(base + "/campaigns/new")
                expect(page).to_have_url(re.compile(r"/login\?next="))
                audit(page, "15-login")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"browser tests passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
