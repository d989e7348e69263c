/* Larger marbles (issue 31): the "Larger marbles" button beside a board (games/_board_words.html) scales
   every marble on the board's SVG by 1.45 (site.css, html.big-marbles), remembered on this device
   (localStorage). The button stays hidden without JavaScript; prefers-contrast: more enlarges them anyway. */
(function () {
  "use strict";
  var KEY = "board-big-marbles";
  function stored() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }
  function apply(on) {
    document.documentElement.classList.toggle("big-marbles", on);
    var buttons = document.querySelectorAll("[data-board-size]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].setAttribute("aria-pressed", on ? "true" : "false");
    }
  }
  apply(stored());
  document.addEventListener("DOMContentLoaded", function () { apply(stored()); });
  document.addEventListener("htmx:afterSettle", function () { apply(stored()); });
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-board-size]") : null;
    if (!button) return;
    var on = !document.documentElement.classList.contains("big-marbles");
    try { window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
    apply(on);
  });
})();
