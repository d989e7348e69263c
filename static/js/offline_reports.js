// Reports that survive the network (issue 30, tournaments/idempotency.py). A form marked
// data-offline-queue is not posted by the browser: the tap is kept in localStorage with an
// Idempotency-Key, then sent with fetch, in order, one at a time, now or when the network returns
// (the "online" event, and every 15 s). The server answers a key it has seen with the same answer,
// so a tap is written exactly once however often it is sent. The list under the form shows each tap
// as pending, sent or refused (with the reason). Without JavaScript the form posts as before.
// A form marked data-offline-when-offline (the scoresheet's taps) is kept only when the phone is offline.
(function () {
  "use strict";
  var STORE = "offline-reports-v1";
  var status = document.querySelector("[data-offline-status]");
  var forms = document.querySelectorAll("form[data-offline-queue]");
  if (!status || !window.fetch || !window.localStorage) { return; }
  var flushing = false;
  var sentHere = false;

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function save(entries) {
    var day = Date.now() - 86400000;
    localStorage.setItem(STORE, JSON.stringify(entries.filter(function (e) { return e.state === "pending" || e.at > day; })));
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }
  function render() {
    var mine = load().filter(function (e) { return e.url === window.location.pathname; });
    status.hidden = mine.length === 0;
    var list = status.querySelector("ol");
    list.textContent = "";
    mine.forEach(function (e) {
      var item = document.createElement("li");
      item.className = "offline-" + e.state;
      item.setAttribute("data-state", e.state);
      var text = e.label + " · " + (status.getAttribute("data-label-" + e.state) || e.state);
      if (e.reason) { text += ": " + e.reason; }
      item.textContent = text;
      list.appendChild(item);
    });
  }
  function reasonOf(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var found = doc.querySelector("main .errorlist, main .notice-err, main .messages .error");
    return found ? found.textContent.replace(/\s+/g, " ").trim().slice(0, 300) : "";
  }
  function update(key, changes) {
    var entries = load();
    entries.forEach(function (e) { if (e.key === key) { Object.assign(e, changes); } });
    save(entries);
    render();
  }

  function flush(interactive) {
    if (flushing) { return; }
    var next = load().filter(function (e) { return e.state === "pending"; })[0];
    if (!next) {
      // Taps of this page went through while it stood behind: show the page as it is now.
      if (sentHere) { sentHere = false; window.location.reload(); }
      return;
    }
    flushing = true;
    // A saved tap answers with a redirect (not followed here, so that the page's "saved" message is left
    // for the next page the player sees); a refusal answers 4xx with the page and its error.
    fetch(next.url, {
      method: "POST", body: next.body, credentials: "same-origin", redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": next.key }
    }).then(function (response) {
      if (response.status >= 500) { flushing = false; return; }
      return response.text().then(function (html) {
        flushing = false;
        if (response.type === "opaqueredirect" || response.ok) {
          update(next.key, { state: "sent" });
          if (interactive && next.url === window.location.pathname) { window.location.assign(next.url); return; }
          if (next.url === window.location.pathname) { sentHere = true; }
        } else {
          update(next.key, { state: "refused", reason: reasonOf(html) || String(response.status) });
        }
        flush(interactive);
      });
    }).catch(function () { flushing = false; });  // no network: stays pending, tried again later
  }

  function keep(form, event) {
    event.preventDefault();
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    var entries = load();
    entries.push({
      key: newKey(), url: new URL(form.getAttribute("action") || window.location.href, window.location.href).pathname,
      body: new URLSearchParams(data).toString(), state: "pending", at: Date.now(),
      label: form.getAttribute("data-offline-label") || document.title
    });
    save(entries);
    render();
    flush(true);
  }
  Array.prototype.forEach.call(forms, function (form) {
    form.addEventListener("submit", function (event) { keep(form, event); });
  });
  // The scoresheet's taps (templates/games/scoresheet.html): htmx posts them while the phone is online;
  // a tap made offline is kept instead (captured before htmx sees it, also in a sheet htmx swapped in).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-offline-when-offline]") || navigator.onLine !== false) { return; }
    event.stopPropagation();
    keep(form, event);
  }, true);
  window.addEventListener("online", function () { flush(false); });
  window.setInterval(function () { flush(false); }, 15000);
  render();
  flush(false);
})();
