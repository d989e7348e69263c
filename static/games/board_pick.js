/* Choosing the move on the board (issue 27), the live scoresheet only: the move taps carry where their move
   is on the board (data-pick-from / data-pick-to, the positions games/replay/marbles.py writes as data-pos on
   every marble and hole). Tapping a marble that has a move for the chosen card outlines its targets; tapping a
   target clicks the matching tap, so the server sees exactly the tap it sees without JavaScript. A 7's split
   is chosen segment by segment (each segment is a tap); a Trickser's two marbles in either order; a Krieger's
   marble is its own target (tap it twice). A pair that more than one tap carries stays with the buttons. */
(function () {
  "use strict";
  var selected = null;

  function sheet() { return document.getElementById("sheet"); }

  function moves() {
    var root = sheet();
    var map = {};
    if (!root) return map;
    var taps = root.querySelectorAll("[data-pick-from]");
    function add(from, to, tap) {
      if (!map[from]) map[from] = {};
      var known = map[from][to];
      map[from][to] = known === undefined ? tap : null; // null: more than one tap, ambiguous
    }
    for (var i = 0; i < taps.length; i++) {
      var from = taps[i].getAttribute("data-pick-from");
      var to = taps[i].getAttribute("data-pick-to");
      add(from, to, taps[i]);
      if (taps[i].getAttribute("data-pick-kind") === "swap") add(to, from, taps[i]);
    }
    return map;
  }

  function usable(targets) {
    if (!targets) return [];
    return Object.keys(targets).filter(function (to) { return targets[to]; });
  }

  function apply() {
    var root = sheet();
    if (!root) return;
    var map = moves();
    var board = root.querySelector(".sheet-board");
    var hint = root.querySelector("[data-board-pick-hint]");
    var any = Object.keys(map).some(function (from) { return usable(map[from]).length > 0; });
    if (hint) hint.hidden = !any;
    if (!board) return;
    if (selected !== null && usable(map[selected]).length === 0) selected = null;
    var targets = selected === null ? [] : usable(map[selected]);
    var spots = board.querySelectorAll("[data-pos]");
    for (var i = 0; i < spots.length; i++) {
      var spot = spots[i];
      var pos = spot.getAttribute("data-pos");
      var isMarble = spot.classList.contains("marble");
      spot.classList.toggle("pick-can", isMarble && usable(map[pos]).length > 0 && pos !== selected);
      spot.classList.toggle("pick-on", isMarble && pos === selected);
      spot.classList.toggle("pick-target", targets.indexOf(pos) >= 0);
    }
    board.classList.toggle("picking", any);
  }

  document.addEventListener("click", function (event) {
    var spot = event.target.closest ? event.target.closest(".sheet-board [data-pos]") : null;
    if (!spot) return;
    var map = moves();
    var pos = spot.getAttribute("data-pos");
    if (selected !== null && map[selected] && map[selected][pos]) {
      var tap = map[selected][pos];
      selected = null;
      apply();
      tap.click();
      return;
    }
    selected = usable(map[pos]).length > 0 && selected !== pos ? pos : null;
    apply();
  });
  document.addEventListener("DOMContentLoaded", apply);
  document.addEventListener("htmx:afterSettle", function () { selected = null; apply(); });
  if (document.readyState !== "loading") apply();
})();
