// Whole-round result entry: Enter in a table's field saves that table (htmx) instead of the whole
// form; after a save, the cursor moves to the next table still open. Without this script (or
// without JavaScript) Enter and the buttons submit the whole form, which saves every entered table.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !window.htmx) return;
    var field = event.target;
    if (!(field instanceof HTMLInputElement)) return;
    var table = field.closest("fieldset.entry-table");
    var button = table && table.querySelector("button.save-table");
    if (!button) return;
    event.preventDefault();
    button.click();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    var saved = target && target.id ? document.getElementById(target.id) : null;
    if (!saved || !saved.classList.contains("entry-table")) return;
    if (!saved.classList.contains("entry-saved")) {
      var wrong = saved.querySelector("[aria-invalid], .errorlist ~ input, input");
      if (wrong) wrong.focus();
      return;
    }
    var next = saved.nextElementSibling;
    while (next && !(next.matches("fieldset.entry-table") && !next.classList.contains("entry-saved"))) {
      next = next.nextElementSibling;
    }
    var input = next && next.querySelector("input[type=number], input:not([type=hidden])");
    if (input) input.focus();
  });
})();
