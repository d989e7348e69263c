// Hall display (issue 30, tournaments/views/hall.py): show one panel at a time, the next every
// data-hall-seconds; live.js replaces the panels when something changed and the cycle goes on.
(function () {
  "use strict";
  var main = document.getElementById("hall");
  if (!main) { return; }
  var index = 0;
  var seconds = parseInt(main.getAttribute("data-hall-seconds"), 10) || 15;

  function show() {
    var panels = main.querySelectorAll(".hall-panel");
    if (!panels.length) { return; }
    index = index % panels.length;
    for (var i = 0; i < panels.length; i++) { panels[i].hidden = i !== index; }
    main.setAttribute("data-hall-panel", panels[index].getAttribute("data-panel"));
  }

  document.documentElement.classList.add("hall-cycling");
  show();
  window.setInterval(function () { index += 1; show(); }, seconds * 1000);
  document.addEventListener("live:updated", show);
})();
