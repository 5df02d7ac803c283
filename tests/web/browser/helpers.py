"""Steps the browser tests share: joining, starting a game, rolling until the tray rests."""

from __future__ import annotations

from playwright.sync_api import Page, expect

CHROMIUM = "/usr/bin/chromium"  # Debian's chromium (scripts/test installs it)
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}
CODE = "4711"
BUSY = "['tumbling', 'settling', 'reading']"


def ready(page: Page) -> None:
    expect(page.locator("body[data-ready=true]")).to_be_visible()


def join(page: Page, url: str, name: str, code: str = CODE) -> None:
    page.goto(f"{url}/join")
    ready(page)
    page.fill("#code", code)
    page.fill("#name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_url(f"{url}/")
    ready(page)


def start_game(page: Page, url: str, ruleset: str, players: list[str], games: int = 1) -> None:
    page.goto(f"{url}/new")
    ready(page)
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


def seated(page: Page, url: str, ruleset: str = "yacht") -> Page:
    """The phone joined as Ann, playing a game of ``ruleset`` alone."""
    join(page, url, "Ann")
    start_game(page, url, ruleset, ["Ann"])
    return page


def roll_to_rest(page: Page) -> str:
    """Press Roll and wait until the tray rests again; its cycle."""
    before = version(page)
    page.click("#roll")
    return rest(page, before)


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || -1"))


def rest(page: Page, after: int) -> str:
    """Until the page shows a state newer than ``after`` with the tray at rest; its cycle."""
    try:
        page.wait_for_function(
            f"v => +document.body.dataset.version > v && !{BUSY}.includes("
            "document.querySelector('#cycle').dataset.cycle)",
            arg=after,
            timeout=90_000,
        )
    except Exception as exc:
        seen = page.evaluate(
            "() => [document.body.dataset.version, document.querySelector('#cycle').dataset"
            ".cycle, document.querySelector('#banner').textContent]"
        )
        raise AssertionError(f"the tray did not rest after version {after}: {seen}") from exc
    return page.get_attribute("#cycle", "data-cycle")


def confirm_dice(page: Page) -> None:
    """The tray asks: give every die the reader could not place a value, then confirm."""
    expect(page.locator("#help")).to_be_visible()
    for die in page.locator("#help-dice .die[data-value='']").all():
        die.click()
    before = version(page)
    page.click("#help-confirm")
    rest(page, before)


def roll(page: Page) -> None:
    """Roll and wait for the tray to rest; when it asks, confirm its dice as read."""
    before = version(page)
    page.click("#roll")
    if rest(page, before) == "needs-help":
        confirm_dice(page)


def dice_on(page: Page) -> list[str]:
    return page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.value)")


def same_state(page: Page, other: Page) -> None:
    """Until ``other`` shows the state ``page`` shows (the live stream got there)."""
    other.wait_for_function("v => +document.body.dataset.version >= v", arg=version(page))
