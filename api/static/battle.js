// The battle page's live updates. The server's event stream (/battles/{id}/events) says when
// something this person can see has changed; the page then fetches itself again and swaps in
// the new content. A form someone has started filling in is never thrown away: a notice asks
// them to reload instead. When the stream cannot be opened, the page polls every 5 seconds.
// Without this script the page works the same; a reload shows the changes.
(function () {
  "use strict";
  var POLL_MS = 5000;
  var dirty = false;
  var busy = false;
  var pollTimer = null;

  function root() {
    return document.getElementById("battle");
  }

  function say(text) {
    var status = document.getElementById("live-status");
    if (status) {
      status.textContent = text;
    }
  }

  document.addEventListener("input", function (event) {
    if (event.target && event.target.closest && event.target.closest("#battle form")) {
      dirty = true;
    }
  });
  document.addEventListener("submit", function () {
    dirty = false;
  });

  // Swaps in the fetched page's content when its signature differs from the one shown.
  function apply(html) {
    var next = new DOMParser().parseFromString(html, "text/html").getElementById("battle");
    var now = root();
    if (!next || !now) {
      return;
    }
    var signature = next.getAttribute("data-signature") || "";
    if (signature === now.getAttribute("data-signature")) {
      return;
    }
    if (dirty) {
      say("The battle has changed. Submit your form, or reload the page to see what changed.");
      return;
    }
    now.innerHTML = next.innerHTML;
    now.setAttribute("data-signature", signature);
    if (window.htmx) {
      window.htmx.process(now);
    }
    say("Updated just now.");
  }

  // Fetches the page and applies it, unless it already shows signature `known`.
  function refresh(known) {
    var current = root();
    if (!current || busy || (known && current.getAttribute("data-signature") === known)) {
      return;
    }
    busy = true;
    fetch(window.location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error("status " + response.status);
        }
        return response.text();
      })
      .then(apply)
      .catch(function () {
        say("Could not update the page; reload it to see changes.");
      })
      .then(function () {
        busy = false;
      });
  }

  function poll() {
    if (!pollTimer) {
      pollTimer = window.setInterval(function () {
        refresh(null);
      }, POLL_MS);
    }
  }

  function listen() {
    var current = root();
    if (!current) {
      return;
    }
    var url = current.getAttribute("data-events");
    if (!url || !window.EventSource) {
      poll();
      return;
    }
    var since = encodeURIComponent(current.getAttribute("data-signature") || "");
    var source = new EventSource(url + "?since=" + since);
    source.addEventListener("changed", function (event) {
      refresh(event.data);
    });
    source.onerror = function () {
      // CLOSED: the server refused the stream (not a plain end, which reconnects by itself).
      if (source.readyState === EventSource.CLOSED) {
        poll();
      }
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", listen);
  } else {
    listen();
  }
})();
