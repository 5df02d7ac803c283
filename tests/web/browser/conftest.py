"""A simulated tray served by waitress, and phones made of headless Chromium contexts.

The tray is the real one (tests/conftest.py's ``sim_tray``: MockFactory pins, the rendered
camera, the real recognizer, SQLite), its roll cycle on its own thread as in ``dicetray
run --simulate --fast``. Chromium is Debian's, driven by Playwright.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from helpers import CHROMIUM, CODE, PHONE
from playwright.sync_api import Browser, Page, sync_playwright

from dicetray.firmware.table import start_thread
from dicetray.web.app import Serving, create_app

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Served:
    url: str
    tray: Any


@pytest.fixture
def serve(sim_tray) -> Iterator[Callable[..., Served]]:
    """A factory of served trays: each call opens a simulated tray (``options`` as
    ``sim_tray``'s, e.g. a ``reader``) and serves its pages; all stopped afterwards."""
    servings: list[Serving] = []

    def make(**options: Any) -> Served:
        tray = sim_tray(seed=21, code=CODE, run=start_thread, **options)
        app = create_app(tray.table, secret_key=b"pages-test" * 4)
        # each open page holds one thread on the live stream
        servings.append(Serving(app, host="127.0.0.1", port=0, threads=32))
        return Served(f"http://127.0.0.1:{servings[-1].port}", tray)

    try:
        yield make
    finally:
        for serving in servings:
            serving.stop()


@pytest.fixture
def served(serve) -> Served:
    return serve()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Browser):
    """A factory of phones: each call is a fresh browser context (its own cookies)."""
    contexts = []

    def make(locale: str = "en-GB", viewport: dict | None = None, dark: bool = False,
             pixels: float = 1) -> Page:
        """``pixels``: the screen's pixels per CSS px (2.625 on many Android phones)."""
        context = browser.new_context(
            viewport=viewport or PHONE,
            locale=locale,
            color_scheme="dark" if dark else "light",
            device_scale_factor=pixels,
            has_touch=True,
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        return page

    yield make
    for context in contexts:
        context.close()
