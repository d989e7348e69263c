/* Replay viewer: keyboard arrows, the step slider, and keeping the slider and move list in step.
   Without JavaScript the page still works: every control is a plain link or a GET form. */
(function () {
  "use strict";
  var seq = 0;
  var wanted = null;
  var timer = null;

  function root() { return document.getElementById("replay"); }
  function stepEl() { return document.getElementById("replay-step"); }
  function total() { return parseInt(root().getAttribute("data-total"), 10) || 0; }
  function current() {
    var el = stepEl();
    return el ? parseInt(el.getAttribute("data-step"), 10) || 0 : 0;
  }
  function base() { return root().getAttribute("data-detail-url"); }
  function fragmentUrl(n) { return base() + "steps/" + n + "/"; }
  function pageUrl(n) { return base() + "?step=" + n + "#replay"; }

  function sync() {
    var el = stepEl();
    if (!el || !root()) { return; }
    var n = current();
    wanted = n;
    var range = document.getElementById("replay-range");
    if (range) {
      if (document.activeElement !== range) { range.value = n; }
      var counter = el.querySelector(".step-counter");
      if (counter) { range.setAttribute("aria-valuetext", counter.textContent.trim()); }
    }
    var links = root().querySelectorAll(".move-list a[data-step]");
    for (var i = 0; i < links.length; i++) {
      if (parseInt(links[i].getAttribute("data-step"), 10) === n) {
        links[i].setAttribute("aria-current", "step");
        var list = links[i].closest(".move-list");
        if (list) {
          var top = links[i].offsetTop - list.offsetTop;
          if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) {
            list.scrollTop = Math.max(0, top - list.clientHeight / 2);
          }
        }
      } else {
        links[i].removeAttribute("aria-current");
      }
    }
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", pageUrl(n));
    }
  }

  function go(n) {
    var last = total() - 1;
    n = Math.max(0, Math.min(last, n));
    if (n === wanted && n === current()) { return; }
    wanted = n;
    var mine = ++seq;
    fetch(fragmentUrl(n), { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        if (mine !== seq) { return; }  /* a newer step was asked for meanwhile */
        var old = stepEl();
        if (!old) { return; }
        var holder = document.createElement("div");
        holder.innerHTML = html.trim();
        var fresh = holder.firstElementChild;
        old.replaceWith(fresh);
        if (window.htmx) { window.htmx.process(fresh); }
        sync();
      })
      .catch(function () { window.location.href = pageUrl(n); });
  }

  document.addEventListener("keydown", function (event) {
    if (!root() || !stepEl()) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName))) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var from = wanted === null ? current() : wanted;
    var next;
    switch (event.key) {
      case "ArrowLeft": next = from - 1; break;
      case "ArrowRight": next = from + 1; break;
      case "Home": next = 0; break;
      case "End": next = total() - 1; break;
      default: return;
    }
    event.preventDefault();
    go(next);
  });

  document.addEventListener("input", function (event) {
    if (!event.target || event.target.id !== "replay-range") { return; }
    var n = parseInt(event.target.value, 10);
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(function () { go(n); }, 40);
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && (event.target.id === "replay-step" || (event.detail && event.detail.target && event.detail.target.id === "replay-step"))) {
      seq++;
      sync();
    }
  });
  document.addEventListener("htmx:afterSettle", function () { if (stepEl()) { sync(); } });

  document.addEventListener("DOMContentLoaded", function () {
    if (root() && stepEl()) {
      wanted = current();
      document.documentElement.classList.add("replay-js");
    }
  });
})();
