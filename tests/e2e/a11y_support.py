"""What the accessibility browser test checks on every page it loads (tests/e2e/test_e2e_accessibility.py).

- axe-core (the copy bundled by the PyPI package axe-playwright-python, injected into the page; no CDN)
  with the WCAG 2.0/2.1 A and AA rules and axe's best practices;
- our own rules that axe does not have: every id named by aria-describedby / aria-labelledby exists; a
  skip link is the first thing the keyboard reaches and leads to the main content; no two links or
  buttons that lead to different places share one accessible name; the page fits its width (no
  sideways scroll of the whole page).
"""

from __future__ import annotations

from typing import Any

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

# Our own checks, run in the page. Each returns a list of "rule: where" strings.
OWN_CHECKS_JS = r"""
() => {
  const problems = [];
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length)
    && getComputedStyle(el).visibility !== 'hidden';
  // 1. aria-describedby / aria-labelledby point at ids that exist
  for (const attr of ['aria-describedby', 'aria-labelledby']) {
    for (const el of document.querySelectorAll('[' + attr + ']')) {
      for (const id of el.getAttribute(attr).split(/\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) problems.push(`${attr}-missing-id: ${el.tagName.toLowerCase()}[name=${el.getAttribute('name') || ''}] -> #${id}`);
      }
    }
  }
  // 2. a skip link first
  const tabbable = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [tabindex]')]
    .filter((el) => el.tabIndex >= 0 && !el.disabled);
  const first = tabbable[0];
  const skipTarget = first && first.getAttribute('href') && first.getAttribute('href').startsWith('#')
    ? document.getElementById(first.getAttribute('href').slice(1)) : null;
  if (!skipTarget) problems.push('skip-link: the first focusable element is not a link to the main content');
  // 3. one accessible name, one destination
  const nameOf = (el) => (el.getAttribute('aria-label') || el.innerText || el.value || '').replace(/\s+/g, ' ').trim();
  const destinations = new Map();
  for (const el of document.querySelectorAll('a[href], button')) {
    if (!visible(el)) continue;
    let dest;
    if (el.tagName === 'A') dest = 'link ' + new URL(el.getAttribute('href'), location.href).href;
    else {
      const form = el.form;
      if (!form) continue;  // a script's button (no destination of its own)
      const hidden = [...form.querySelectorAll('input[type=hidden]')].filter((i) => i.name !== 'csrfmiddlewaretoken' && i.name !== 'version')
        .map((i) => i.name + '=' + i.value).join('&');
      dest = 'form ' + (form.getAttribute('action') || location.href) + '?' + hidden + '&' + (el.name || '') + '=' + (el.value || '');
    }
    const name = nameOf(el);
    if (!name) continue;
    if (!destinations.has(name)) destinations.set(name, new Set());
    destinations.get(name).add(dest);
  }
  for (const [name, dests] of destinations) {
    if (dests.size > 1) problems.push(`same-name-different-target: "${name}" x${dests.size}`);
  }
  return problems;
}
"""


def axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def audit(page: Any, *, width: int) -> list[str]:
    """Every problem on the loaded page: axe's violations and ours, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_script())
    violations = page.evaluate(
        """async (tags) => {
            const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
            return r.violations.map(v => `axe ${v.id} (${v.impact}): ` + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', ')
              + (v.nodes.length > 4 ? ` and ${v.nodes.length - 4} more` : ''));
        }""",
        AXE_TAGS,
    )
    problems = list(violations) + list(page.evaluate(OWN_CHECKS_JS))
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"sideways-scroll: {scroll} px wide at {width} px")
    return problems


def fits(page: Any, width: int) -> str | None:
    """Narrow the viewport (no reload) and say whether the page scrolls sideways."""
    height = page.viewport_size["height"] if page.viewport_size else 800
    page.set_viewport_size({"width": width, "height": height})
    scroll = page.evaluate("document.documentElement.scrollWidth")
    return None if scroll <= width else f"sideways-scroll: {scroll} px wide at {width} px"
