"""Screenshots of every page at phone and tablet size, in English and German, light and dark.

They are written to $DICETRAY_SCREENSHOTS (or the test's tmp_path) to be looked at; the test
checks what can be checked without eyes: nothing overflows the viewport sideways, every
text is translated (no i18n key shows), and every touch target is at least 40 px high.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from helpers import PHONE, TABLET, join, ready, rest, roll, start_game, version
from playwright.sync_api import Page, expect

SIZES = {"phone": PHONE, "tablet": TABLET}
LOCALES = {"en": "en-GB", "de": "de-DE"}
PAGES = ["/", "/new", "/history", "/calibrate", "/join"]
KEY = re.compile(
    r"\b(nav|score|turn|die|play|help|frame|sheet|winner|join|new|history|stats|cal|cycle|live"
    r"|status|error|dialog|coach|analysis)\.[a-z_-]+\b"
)


def _out(tmp_path: Path) -> Path:
    out = Path(os.environ.get("DICETRAY_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    return out


def _check(page: Page) -> None:
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url}: the page is {scroll} px wide in a {width} px viewport"
    text = page.inner_text("body")
    assert not KEY.search(text), f"{page.url}: untranslated {KEY.search(text).group(0)}"
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, .button, .nav a, .option')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim() || e.getAttribute('aria-label'),
                       e.getBoundingClientRect().height])
            .filter(([_, h]) => h < 40)"""
    )
    assert not small, f"{page.url}: touch targets under 40 px: {small}"


@pytest.mark.parametrize("size", SIZES)
def test_every_page_in_both_languages_light_and_dark(served, phone, size, tmp_path):
    out = _out(tmp_path)
    host = phone(viewport=SIZES[size])
    join(host, served.url, "Ann")
    start_game(host, served.url, "yahtzee", ["Ann", "Bo", "Cleo"])
    # a game under way: Ann scored, Bo kept two dice and rolled again
    roll(host)
    host.locator("#sheet tr[data-box=chance] button.option").click()
    roll(host)
    for position in (0, 2):
        before = version(host)
        host.locator("#dice .die").nth(position).click()
        host.wait_for_function("v => +document.body.dataset.version > v", arg=before)
    roll(host)
    for lang, locale in LOCALES.items():
        for scheme in ("light", "dark"):
            page = phone(locale=locale, viewport=SIZES[size], dark=scheme == "dark")
            join(page, served.url, "Viewer")
            for path in PAGES:
                page.goto(served.url + path)
                ready(page)
                if path == "/calibrate":  # the camera's live view: its first frame
                    page.wait_for_function(
                        "document.querySelector('#live-view').naturalWidth > 0", timeout=60_000)
                page.wait_for_timeout(300)  # images and the snapshot's marks
                _check(page)
                name = (path.strip("/") or "scorecard").replace("/", "-")
                page.screenshot(path=out / f"{name}-{size}-{lang}-{scheme}.png", full_page=True)
    # a die fell off the tray: the reading is unsure and waits for the players
    served.tray.rig.sim.tray.use(4)
    before = version(host)
    host.click("#roll")
    assert rest(host, before) == "needs-help"
    for lang, locale in LOCALES.items():
        page = phone(locale=locale, viewport=SIZES[size])
        join(page, served.url, "Viewer")
        expect(page.locator("#help")).to_be_visible()
        page.wait_for_timeout(300)
        _check(page)
        page.screenshot(path=out / f"needs-help-{size}-{lang}-light.png", full_page=True)
