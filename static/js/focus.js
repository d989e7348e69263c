/* Focus and announcements after htmx swaps (issue 31).

   When htmx replaces part of a page (a scoresheet tap, a check-in row's Drop / Undo drop, a round's
   "Save this table"), the element that had the focus is gone and the browser drops it to <body>: a
   keyboard user starts again at the top and a screen reader says nothing. After each swap this script
   - moves the focus to the next thing to do inside the new content: an element marked
     [data-focus-next], else (scoresheet) the first tap, the first field of a deal form, the finish
     button; elsewhere the new twin of the control that had the focus (same id or data-nav: the
     replay's "next step"), else the first enabled button of the new content (a row's actions), else
     its first link or field, else its heading;
   - says in the page's polite live region (#live-status, base.html) what happened: the new content's
     [data-announce] text, else its role=status notice, or for the scoresheet the last move in words (or the card chosen so far)
     and whose turn it is.
   Pages loaded normally are left alone (no focus moves on load). A round's whole-round entry moves on to
   the next table itself (round_entry.js, whose handler runs after this one). */
(function () {
  "use strict";

  var swappedId = null;
  var hadFocusInside = false;
  var focusKey = null;  // the focused control's id or data-nav, to find its twin in the new content

  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function announce(message) {
    var region = document.getElementById("live-status");
    if (!region || !message) return;
    region.textContent = "";
    // A new text node a moment later: screen readers announce it even when it repeats the last one.
    window.setTimeout(function () { region.textContent = message; }, 60);
  }

  function usable(el) {
    return el && !el.disabled && !el.hidden && el.getClientRects().length > 0;
  }

  function first(root, selector) {
    var all = root.querySelectorAll(selector);
    for (var i = 0; i < all.length; i++) if (usable(all[i])) return all[i];
    return null;
  }

  function focus(el) {
    if (!el) return;
    if (!el.matches("a[href], button, input, select, textarea, [tabindex]")) el.setAttribute("tabindex", "-1");
    el.focus();
  }

  function scoresheetNext(sheet) {
    return first(sheet, "[data-focus-next]")
      || first(sheet, ".sheet-taps .tap")
      || first(sheet, ".sheet-deal-form input:not([type=hidden]), .sheet-deal-form select")
      || first(sheet, "[data-testid=finish]")
      || first(sheet, ".sheet-start select, .sheet-start input:not([type=hidden])")
      || sheet.querySelector("h1");
  }

  function scoresheetMessage(sheet) {
    var parts = [];
    var last = sheet.querySelector("[data-testid=last]");
    var words = sheet.querySelector(".board-words .move-words");
    var status = sheet.querySelector("[data-testid=status]");
    var path = sheet.querySelector(".sheet-path strong");
    // A card chosen: the choice so far; an entry made: the move in words (games.replay.describe), else its label.
    if (path) parts.push(text(path));
    else if (words) parts.push(text(words) + ".");
    else if (last) parts.push(text(last));
    if (status) parts.push(text(status));
    return parts.join(" ");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    swappedId = target && target.id ? target.id : null;
    hadFocusInside = !!(target && document.activeElement && target.contains(document.activeElement))
      || !!(target && event.detail.requestConfig && target.contains(event.detail.requestConfig.elt));
    var active = document.activeElement;
    focusKey = null;
    if (active && target && target.contains(active)) {
      if (active.getAttribute("data-nav")) focusKey = '[data-nav="' + active.getAttribute("data-nav") + '"]';
      else if (active.id) focusKey = "#" + (window.CSS && CSS.escape ? CSS.escape(active.id) : active.id);
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!swappedId) return;
    var fresh = document.getElementById(swappedId);
    var moveFocus = hadFocusInside || document.activeElement === document.body || !document.activeElement;
    swappedId = null;
    if (!fresh) return;
    var announced = fresh.matches("[data-announce]") ? fresh : fresh.querySelector("[data-announce]");
    if (fresh.id === "sheet") {
      announce(announced ? announced.getAttribute("data-announce") : scoresheetMessage(fresh));
      if (moveFocus) focus(scoresheetNext(fresh));
      return;
    }
    if (announced) announce(announced.getAttribute("data-announce"));
    else {
      var status = fresh.querySelector("[role=status]");
      if (status) announce(text(status));
    }
    var twin = focusKey ? first(fresh, focusKey) : null;  // e.g. the replay's "next step" after a step
    if (moveFocus) {
      focus(twin || first(fresh, "[data-focus-next]") || first(fresh, "button")
        || first(fresh, "a[href], input:not([type=hidden]), select") || fresh.querySelector("h1, h2, h3") || fresh);
    }
  });
})();
