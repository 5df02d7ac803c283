"""The coach on a phone: hints after a roll for a player who switched them on."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from helpers import CODE, PHONE, join, ready, roll, start_game, version
from playwright.sync_api import expect
from waitress import create_server

from dicetray.firmware.table import start_thread
from dicetray.web.app import create_app


def test_hints_switched_on_show_the_dice_to_keep_or_the_box_to_score(served, phone, tmp_path):
    page = phone(viewport=PHONE)
    join(page, served.url, "Ann")
    start_game(page, served.url, "yahtzee", ["Ann", "Bo"])
    toggles = page.locator("#sheet th.player .hint-toggle")
    expect(toggles).to_have_count(2)
    toggles.first.click()
    expect(toggles.first).to_have_attribute("aria-pressed", "true")
    expect(toggles.nth(1)).to_have_attribute("aria-pressed", "false")
    roll(page)
    # the first hint of a rule set waits for its strategy table (built once, then kept)
    expect(page.locator("#coach")).to_be_visible(timeout=60_000)
    expect(page.locator("#coach .coach-options li").first).to_be_visible()
    advised = page.locator("#dice .die.advised, #sheet td.advised")
    expect(advised.first).to_be_visible()
    out = Path(os.environ.get("DICETRAY_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=out / "coach-phone-en.png", full_page=True)
    # the toggle is remembered on this phone
    page.reload()
    expect(page.locator("#sheet th.player .hint-toggle").first).to_have_attribute(
        "aria-pressed", "true")
    expect(page.locator("#coach")).to_be_visible()
    # another phone, in German, has its own toggles
    german = phone(locale="de-DE", viewport=PHONE)
    join(german, served.url, "Bo")
    expect(german.locator("#coach")).to_be_hidden()
    german.locator("#sheet th.player .hint-toggle").first.click()
    expect(german.locator("#coach .coach-title")).to_have_text("Coach: die besten Züge jetzt")
    german.screenshot(path=out / "coach-phone-de.png", full_page=True)


def test_a_finished_game_shows_its_analysis_here_and_from_the_history(served, phone, tmp_path):
    page = phone(viewport=PHONE)
    join(page, served.url, "Ann")
    start_game(page, served.url, "general", ["Ann"])
    while page.locator("#roll").is_visible():
        roll(page)
        before = version(page)
        page.locator("#sheet button.option:enabled").first.click()
        if page.locator("#confirm").is_visible():
            page.click("#confirm-yes")
        page.wait_for_function("v => +document.body.dataset.version > v", arg=before)
    panel = page.locator("#analysis")
    expect(panel).to_be_visible(timeout=60_000)
    expect(panel.locator(".analysis-player h3")).to_contain_text("Ann")
    expect(panel.locator("svg.expected-chart polyline")).to_have_count(1)
    out = Path(os.environ.get("DICETRAY_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=out / "analysis-phone-en.png", full_page=True)
    page.goto(f"{served.url}/history")
    ready(page)
    page.locator("a.analysis-link").first.click()
    expect(page.locator("#analysis .analysis-player h3")).to_contain_text("Ann")


def test_while_the_coach_computes_the_phone_says_so_then_shows_the_hint(sim_tray, phone):
    """The table is prepared in the background (here: when the test says); meanwhile the
    hint says the coach is computing, in the phone's language, and comes by itself later."""
    jobs: list = []
    tray = sim_tray(seed=21, code=CODE, run=start_thread, advisor_run=jobs.append)
    server = create_server(create_app(tray.table, secret_key=b"coach-test" * 4),
                           host="127.0.0.1", port=0, threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.effective_port}"
        page = phone(locale="de-DE", viewport=PHONE)
        join(page, url, "Ann")
        start_game(page, url, "general", ["Ann"])
        page.locator("#sheet th.player .hint-toggle").first.click()
        roll(page)
        expect(page.locator("#coach .coach-computing")).to_have_text(
            "Der Coach berechnet gerade seine Strategie für diese Regeln: 0 %")
        assert len(jobs) == 1
        jobs.pop()()
        expect(page.locator("#coach .coach-options li").first).to_be_visible()
    finally:
        server.close()
