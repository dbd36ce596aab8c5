// The organiser's open invitations (and a new personal token, `data-copied` naming what): `Copy link` puts the link on the clipboard (or selects it in
// its text field to copy by hand where the clipboard is not allowed) and `Share` opens the
// system share sheet where the browser has one. Without this script both buttons stay hidden
// and the link is there to select in its text field.
(function () {
  "use strict";

  function init(root) {
    root.querySelectorAll("[data-invite]").forEach(function (row) {
      if (row.dataset.ready) {
        return;
      }
      row.dataset.ready = "1";
      var field = row.querySelector("input.invite-url");
      var copy = row.querySelector("button.copy-link");
      var share = row.querySelector("button.share-link");
      var status = row.querySelector(".copy-status");
      var done = row.dataset.copied || "Link copied.";
      if (!field) {
        return;
      }
      function say(text) {
        if (status) {
          status.textContent = text;
        }
      }
      function byHand() {
        field.focus();
        field.select();
        var copied = false;
        try {
          copied = document.execCommand("copy");
        } catch (e) {
          copied = false;
        }
        say(copied ? done : "It is selected: copy it from the field.");
      }
      if (copy) {
        copy.hidden = false;
        copy.addEventListener("click", function () {
          if (navigator.clipboard && window.isSecureContext) {
            navigator.clipboard.writeText(field.value).then(function () {
              say(done);
            }, byHand);
          } else {
            byHand();
          }
        });
      }
      if (share && navigator.share) {
        share.hidden = false;
        share.addEventListener("click", function () {
          navigator.share({ title: share.dataset.title, url: field.value }).catch(function () {});
        });
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      init(document);
    });
  } else {
    init(document);
  }
  document.addEventListener("htmx:load", function (event) {
    init(event.target);
  });
})();
