/* Embedded standings and rounds keep themselves current without reloading the page (a reload, as a
   <meta http-equiv="refresh"> does, throws a screen reader back to the top: WCAG 2.2.1 and 3.2.5).
   Every `data-refresh` seconds the page is fetched again and #embed-content replaced only when it
   changed; a polite status then says "Updated HH:MM". "Stop updating" pauses (2.2.2); "Update now"
   (a plain link, so it also works without JavaScript) asks at once. */
(function () {
  "use strict";
  function start() {
    var main = document.getElementById("main");
    var content = document.getElementById("embed-content");
    var status = document.getElementById("embed-status");
    var time = document.getElementById("embed-time");
    var pause = document.getElementById("embed-pause");
    var now = document.getElementById("embed-update-now");
    if (!main || !content) return;
    var seconds = parseInt(main.getAttribute("data-refresh"), 10) || 60;
    var paused = false;
    var stopLabel = pause ? pause.textContent : "";

    function update(announceAlways) {
      return fetch(window.location.href, { cache: "no-store", credentials: "omit" })
        .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("embed-content");
          var freshTime = doc.getElementById("embed-time");
          if (freshTime && time) time.textContent = freshTime.textContent;
          if (!fresh) return;
          var changed = fresh.innerHTML !== content.innerHTML;
          if (changed) content.innerHTML = fresh.innerHTML;
          if ((changed || announceAlways) && status) {
            status.textContent = status.getAttribute("data-updated") + " " + (time ? time.textContent : "");
          }
        })
        .catch(function () { /* offline or refused: try again at the next interval */ });
    }

    window.setInterval(function () { if (!paused) update(false); }, seconds * 1000);
    if (pause) {
      pause.hidden = false;
      pause.addEventListener("click", function () {
        paused = !paused;
        pause.setAttribute("aria-pressed", paused ? "true" : "false");
        pause.textContent = paused ? pause.getAttribute("data-resume") : stopLabel;
      });
    }
    if (now) {
      now.addEventListener("click", function (event) {
        event.preventDefault();
        update(true);
      });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
