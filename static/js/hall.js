// Hall display (issue 30, tournaments/views/hall.py): show one panel at a time, the next every
// data-hall-seconds; live.js replaces the panels when something changed and the cycle goes on.
// The "Tables being played" panel (games/scoresheet/hall.py) is fetched from its own URL every
// BOARDS_SECONDS with If-None-Match (304 while no scoresheet changed) and skipped while it is empty.
(function () {
  "use strict";
  var main = document.getElementById("hall");
  if (!main) { return; }
  var index = 0;
  var seconds = parseInt(main.getAttribute("data-hall-seconds"), 10) || 15;
  var BOARDS_SECONDS = 5;
  var boardsHtml = null;
  var boardsCount = 0;
  var boardsTag = null;

  function fillBoards() {
    var panel = main.querySelector(".hall-panel[data-hall-boards]");
    if (!panel || boardsHtml === null) { return; }
    panel.querySelector(".hall-live-slot").innerHTML = boardsHtml;
    panel.setAttribute("data-empty", boardsCount > 0 ? "false" : "true");
  }

  function show() {
    var all = main.querySelectorAll(".hall-panel");
    var panels = [];
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-empty") === "true") { all[i].hidden = true; } else { panels.push(all[i]); }
    }
    if (!panels.length) { return; }
    index = index % panels.length;
    for (var j = 0; j < panels.length; j++) { panels[j].hidden = j !== index; }
    main.setAttribute("data-hall-panel", panels[index].getAttribute("data-panel"));
  }

  function pollBoards() {
    var panel = main.querySelector(".hall-panel[data-hall-boards]");
    if (!panel || !window.fetch || document.hidden) { return; }
    var headers = {};
    if (boardsTag) { headers["If-None-Match"] = boardsTag; }
    fetch(panel.getAttribute("data-hall-boards"), { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) { return null; }  // 304: no sheet changed
        boardsTag = response.headers.get("ETag");
        return response.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var boards = doc.querySelector(".hall-live-boards");
          if (!boards) { return; }
          var wasEmpty = boardsCount === 0;
          boardsCount = parseInt(boards.getAttribute("data-hall-boards-count"), 10) || 0;
          boardsHtml = boards.outerHTML;
          fillBoards();
          if (wasEmpty !== (boardsCount === 0)) { show(); }
        });
      })
      .catch(function () { return null; });
  }

  document.documentElement.classList.add("hall-cycling");
  show();
  pollBoards();
  window.setInterval(function () { index += 1; show(); }, seconds * 1000);
  window.setInterval(pollBoards, BOARDS_SECONDS * 1000);
  document.addEventListener("live:updated", function () { fillBoards(); show(); });
})();
