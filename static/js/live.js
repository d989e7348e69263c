// Live pages (issue 30, tournaments/live.py): while <main data-live="N"> is present, fetch this page again
// every N seconds with If-None-Match; a 304 (nothing changed) costs nothing, a 200 replaces <main>.
// Stops when the new page has no data-live (the tournament is over); waits while the tab is hidden.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live]");
  if (!main || !window.fetch || !window.DOMParser) { return; }
  var etag = null;
  var stopped = false;

  function seconds() {
    var value = parseInt(main.getAttribute("data-live"), 10);
    return isNaN(value) || value < 1 ? 20 : value;
  }

  function schedule() {
    if (!stopped) { window.setTimeout(poll, seconds() * 1000); }
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
    if (!fresh) { return; }
    main.innerHTML = fresh.innerHTML;
    if (fresh.hasAttribute("data-live")) {
      main.setAttribute("data-live", fresh.getAttribute("data-live"));
    } else {
      main.removeAttribute("data-live");
      stopped = true;
    }
    document.dispatchEvent(new CustomEvent("live:updated", { detail: { main: main } }));
  }

  function poll() {
    if (document.hidden) { schedule(); return; }
    var headers = { "X-Live-Refresh": "1" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(window.location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          etag = response.headers.get("ETag");
          return response.text().then(swap);
        }
        return null;  // 304: unchanged; anything else: try again later
      })
      .catch(function () { return null; })
      .then(schedule);
  }

  schedule();
})();
