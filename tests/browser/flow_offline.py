"""Browser test of reading offline: a player opens their roster, its cards and the rules with
the network on; with the network off the same pages come back from the service worker marked
"may be out of date", a page never opened says so plainly, and a form sent offline says it
needs the network and keeps the input. Logging out forgets the kept pages. Screenshots at
375 px and 1280 px.

Run through tests/browser/run.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

import flow
from flow import CHROMIUM, SHOTS, audit, check, start_server
from flow_aftermath import api, log_in, roster, user

STALE = "You are offline: this copy of the page may be out of date"


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = start_server(Path(tmp))
        try:
            token = user(base, "olga")
            campaign = api(base, "POST", "/api/v1/campaigns", {"name": "Night Ride"}, token)
            force = api(base, "POST", f"/api/v1/campaigns/{campaign['id']}/forces", roster("Olga's Outriders"), token)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                ctx = browser.new_context(viewport={"width": 375, "height": 812}, bypass_csp=True)
                page = ctx.new_page()
                log_in(page, base, "olga")
                manifest = page.locator('link[rel="manifest"]').get_attribute("href")
                check(manifest == "/manifest.webmanifest", f"the page links its manifest: {manifest}")
                check(page.evaluate("fetch('/manifest.webmanifest').then(r => r.json()).then(m => m.display)") == "standalone",
                      "the manifest opens standalone")
                # The service worker takes over; pages opened from then on are kept.
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                page.wait_for_function("navigator.serviceWorker.controller !== null")
                roster_url = base + f"/forces/{force['id']}"
                for path in (roster_url, roster_url + "/cards", base + "/rules"):
                    page.goto(path)
                page.goto(roster_url)
                expect(page.get_by_role("heading", level=1)).to_contain_text("Olga's Outriders")

                ctx.set_offline(True)
                page.reload()
                expect(page.get_by_text(STALE)).to_be_visible()
                expect(page.get_by_role("heading", level=1)).to_contain_text("Olga's Outriders")
                expect(page.get_by_text("Alpha Squad").first).to_be_visible()
                audit(page, "90-offline-roster")
                page.goto(roster_url + "/cards")
                expect(page.get_by_text(STALE)).to_be_visible()
                expect(page.get_by_text("Bravo Squad").first).to_be_visible()
                # The rules are public and cached by the browser for a while: they may come from
                # its own cache (then they are current) or from the kept copy.
                page.goto(base + "/rules")
                expect(page.get_by_role("heading", level=1)).to_contain_text("rules reference")
                # A page never opened on this phone says so.
                page.goto(base + f"/campaigns/{campaign['id']}/story")
                expect(page.get_by_text("was not opened on this device before")).to_be_visible()
                # A form sent offline stays, with a plain message.
                page.goto(roster_url)
                page.get_by_role("button", name="Log out").click()
                expect(page.get_by_text("this form needs the network")).to_be_visible()
                expect(page.get_by_role("button", name="Log out")).to_be_visible()
                audit(page, "91-offline-form")

                # Back online, logging out forgets the kept pages.
                ctx.set_offline(False)
                page.reload()
                page.get_by_role("button", name="Log out").click()
                expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
                kept = page.evaluate("caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k).then(c => c.keys())))).then(all => all.flat().filter(r => r.url.includes('/forces/')).length)")
                check(kept == 0, f"logging out forgets the kept pages ({kept} left)")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if flow.failures:
        print(f"{len(flow.failures)} browser check(s) failed", file=sys.stderr)
        return 1
    print(f"offline browser test passed; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
