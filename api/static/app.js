// Every page: registers the service worker that keeps opened pages readable offline, and stops
// a form sent without a network with a plain message instead of a browser error.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (navigator.onLine) {
    // Logging out forgets the pages kept for offline reading.
    if (form.action && new URL(form.action, location.href).pathname === "/logout" && "caches" in window) {
      caches.delete("fad-pages-v1");
    }
    return;
  }
  event.preventDefault();
  let note = form.querySelector(".offline-note");
  if (!note) {
    note = document.createElement("p");
    note.className = "offline-note error";
    note.setAttribute("role", "alert");
    form.prepend(note);
  }
  note.textContent = "You are offline: this form needs the network. Nothing was sent; your input is kept. Reconnect and send it again.";
}, true);
