"""Steps the browser tests share: joining, starting a game, playing a turn."""

from __future__ import annotations

from playwright.sync_api import Page, expect

CHROMIUM = "/usr/bin/chromium"  # Debian's chromium (scripts/test installs it)
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}


def join(page: Page, url: str, name: str, code: str = "4711") -> None:
    page.goto(f"{url}/join")
    expect(page.locator("body[data-ready=true]")).to_be_visible()
    page.fill("#code", code)
    page.fill("#name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_url(f"{url}/")
    expect(page.locator("body[data-ready=true]")).to_be_visible()


def start_game(page: Page, url: str, ruleset: str, players: list[str], games: int = 1) -> None:
    page.goto(f"{url}/new")
    expect(page.locator("body[data-ready=true]")).to_be_visible()
    page.check(f"input[name=ruleset][value={ruleset}]")
    rows = page.locator("#players li")
    while rows.count() > len(players):
        rows.nth(rows.count() - 1).locator(".remove").click()
    while rows.count() < len(players):
        page.click("#add-player")
    for i, name in enumerate(players):
        rows.nth(i).locator("input").fill(name)
    page.fill("#games", str(games))
    page.click("#start")
    page.wait_for_url(f"{url}/")
    expect(page.locator("#sheet")).to_be_visible()


def dice_on(page: Page) -> list[str]:
    return page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.value)")


def wait_rolled(page: Page, rolls_used: int) -> None:
    """Until the page shows the dice of roll ``rolls_used`` and the tray is idle again."""
    page.wait_for_function(
        "n => !document.querySelector('#roll').classList.contains('rolling')"
        " && document.querySelector('#cycle').dataset.cycle === 'idle'"
        " && [...document.querySelectorAll('#dice .die')].every(d => d.dataset.value)",
        arg=rolls_used,
    )
