// fad-campaign's service worker: pages a person opened (rosters, cards, sheets, the rules, the
// battle and campaign pages) stay readable with the network off, marked as possibly out of
// date. Nothing is cached ahead of a visit, and logging out empties the cache (the page's script
// does it), so a shared phone keeps no one's pages.
const PAGES = "fad-pages-v1";
const STATIC = "fad-static-v1";
// Pages never kept: signing in and out, the account and anything with a secret in its address.
const NEVER = [/^\/login/, /^\/logout/, /^\/register/, /^\/account/, /^\/invite/, /^\/join/];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== PAGES && k !== STATIC).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function offlineNotice(text) {
  return '<p class="offline-note" role="status" style="border:2px solid #8a1c1c;padding:0.5em;margin:0.5em;font-weight:bold">' +
    text + "</p>";
}

// A kept page, with a notice that it may be out of date right after <body>.
async function stalePage(request) {
  const kept = await caches.match(request, { cacheName: PAGES });
  if (!kept) {
    return new Response(
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Offline · fad-campaign</title></head><body><main>" +
        offlineNotice("You are offline, and this page was not opened on this device before. Reconnect to see it.") +
        "<p><a href=\"/\">Home</a></p></main></body></html>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
    );
  }
  const text = await kept.text();
  const notice = offlineNotice("You are offline: this copy of the page may be out of date. Forms need the network.");
  const marked = text.replace(/<body([^>]*)>/, (m) => m + notice);
  const headers = new Headers(kept.headers);
  headers.set("X-Offline-Copy", "1");
  return new Response(marked, { status: 200, headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Writes go straight to the network: the page's script stops a form sent offline.
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/static/")) {
    // Their names carry their hash: a kept copy is always right.
    event.respondWith(
      caches.match(request, { cacheName: STATIC }).then((kept) =>
        kept || fetch(request).then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(STATIC).then((cache) => cache.put(request, copy));
          }
          return response;
        })),
    );
    return;
  }
  if (request.mode !== "navigate" || NEVER.some((re) => re.test(url.pathname))) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        const html = (response.headers.get("Content-Type") || "").startsWith("text/html");
        if (response.ok && html && !response.redirected) {
          const copy = response.clone();
          caches.open(PAGES).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => stalePage(request)),
  );
});
