"""Headless Chromium (Debian's) driven by Playwright, and phones made of browser contexts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers import CHROMIUM, PHONE
from playwright.sync_api import Browser, Page, sync_playwright


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

    def make(locale: str = "en-GB", viewport: dict | None = None, dark: bool = False) -> Page:
        context = browser.new_context(
            viewport=viewport or PHONE,
            locale=locale,
            color_scheme="dark" if dark else "light",
            device_scale_factor=1,
            has_touch=True,
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()
