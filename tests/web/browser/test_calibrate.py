"""Calibrating from a phone-sized browser: the live view, a corner dragged, the empty tray
captured, the save and its report; a damaged calibration explained in words."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from helpers import CODE, join, ready
from playwright.sync_api import Page, expect
from waitress import create_server

from dicetray.firmware.table import start_thread
from dicetray.firmware.tray import open_tray
from dicetray.web.app import create_app, stop_streams


def _draft(page: Page) -> dict:
    return page.evaluate("fetch('/api/calibration').then(r => r.json())")


def _newer(page: Page, version: int) -> dict:
    """Until the tray's calibration is newer than ``version``: the newer one."""
    for _ in range(300):
        found = _draft(page)
        if found["version"] > version:
            return found
        page.wait_for_timeout(100)
    raise AssertionError(f"the calibration stayed at version {version}")


def _settled(page: Page) -> None:
    """Until no command is on its way."""
    expect(page.locator("#cal-progress")).to_have_text("")


def _shot(page: Page, name: str, tmp_path: Path) -> None:
    """A screenshot to look at, beside test_screens' ones."""
    out = Path(os.environ.get("DICETRAY_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=out / f"{name}.png", full_page=True)


def _live(page: Page) -> None:
    """Until the live view shows a frame."""
    page.wait_for_function("document.querySelector('#live-view').naturalWidth > 0",
                           timeout=60_000)


def test_a_phone_drags_a_corner_captures_the_empty_tray_and_saves(served, phone, tmp_path):
    page = phone()
    join(page, served.url, "Builder")
    page.goto(f"{served.url}/calibrate")
    ready(page)
    expect(page.locator("#cal-status")).to_have_attribute("data-status", "ok")
    expect(page.locator("#cal-status")).to_contain_text("Calibrated")
    _live(page)
    before = _draft(page)
    handle = page.locator('#cal-zones g.handle[data-zone="tray"][data-index="0"]')
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 9, steps=4)
    page.mouse.move(x + 24, y + 18, steps=4)
    page.mouse.up()
    _newer(page, before["version"])
    _settled(page)
    after = _draft(page)
    scale = before["image_size"][0] / page.locator("#cal-view").bounding_box()["width"]
    moved_x = after["draft"]["tray"][0][0] - before["draft"]["tray"][0][0]
    moved_y = after["draft"]["tray"][0][1] - before["draft"]["tray"][0][1]
    assert moved_x == pytest.approx(24 * scale, abs=3 * scale)
    assert moved_y == pytest.approx(18 * scale, abs=3 * scale)
    assert after["draft"]["tray"][1:] == before["draft"]["tray"][1:]
    page.click("#cal-empty")
    expect(page.locator("#cal-steps")).to_have_class("cal-steps empty-done")
    _settled(page)
    page.click("#cal-save")
    expect(page.locator("#cal-result")).to_be_visible(timeout=60_000)
    report = page.locator("#cal-report")
    expect(report).to_contain_text("dice found per frame:")
    expect(report).to_contain_text("die size:")
    expect(report).to_contain_text("calibration written to")
    expect(page.locator("#cal-saved")).to_contain_text("Saved")
    _shot(page, "calibrate-saved-phone-en-light", tmp_path)
    saved = _draft(page)["calibration"]
    assert saved["tray"][0] == after["draft"]["tray"][0]
    assert served.tray.table.calibration.tray[0] == tuple(after["draft"]["tray"][0])


def test_the_arrow_keys_move_a_focused_corner(served, phone):
    page = phone(viewport={"width": 1024, "height": 768})
    join(page, served.url, "Builder")
    page.goto(f"{served.url}/calibrate")
    ready(page)
    before = _draft(page)
    page.focus('#cal-zones g.handle[data-zone="ledge"][data-index="2"]')
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Shift+ArrowLeft")
    _newer(page, before["version"])
    _settled(page)
    after = _draft(page)
    step = max(before["image_size"]) / 100
    x0, y0 = before["draft"]["ledge"][2]
    x1, y1 = after["draft"]["ledge"][2]
    assert y1 == pytest.approx(min(y0 + 3 * step, before["image_size"][1]), abs=2)
    assert x1 == pytest.approx(x0 - 5 * step, abs=2)
    assert after["draft"]["tray"] == before["draft"]["tray"]
    focused = page.evaluate("document.activeElement.dataset.zone + document.activeElement"
                            ".dataset.index")
    assert focused == "ledge2"  # the redrawn corner keeps the focus


def test_a_phone_that_has_not_joined_watches_but_cannot_calibrate(served, phone):
    page = phone(locale="de-DE")
    page.goto(f"{served.url}/calibrate")
    ready(page)
    expect(page.locator("#cal-join")).to_be_visible()
    expect(page.locator("#cal-join")).to_contain_text("Tritt dem Tisch bei")
    expect(page.locator("#cal-empty")).to_be_disabled()
    expect(page.locator("#cal-save")).to_be_disabled()
    assert page.locator("#cal-zones g.handle.fixed").count() >= 6
    _live(page)


@pytest.fixture
def damaged(tmp_path):
    """A simulated tray whose calibration.json is damaged, served by waitress."""
    (tmp_path / "calibration.json").write_text(
        '{"version": 1, "image_size": "big", "tray": [[0, 0], [9, 0], [9, 9]], "die_size": 40}')
    tray = open_tray(tmp_path, simulate=True, fast=True, seed=21, code=CODE, run=start_thread,
                     calibration_file=tmp_path / "calibration.json")
    app = create_app(tray.table, secret_key=b"calibrate" * 4)
    server = create_server(app, host="127.0.0.1", port=0, threads=16)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop_streams(app)
        server.close()
        tray.close()


def test_a_damaged_calibration_is_explained_and_mended_from_the_phone(damaged, phone, tmp_path):
    page = phone()
    join(page, damaged, "Builder")
    page.goto(f"{damaged}/calibrate")
    ready(page)
    status = page.locator("#cal-status")
    expect(status).to_have_attribute("data-status", "bad")
    expect(status).to_contain_text("The calibration file cannot be used")
    expect(status).to_contain_text("calibration.json: image_size must be a list")
    expect(status).not_to_contain_text("/tmp")  # the tray's folders are its own business
    _live(page)
    _shot(page, "calibrate-bad-phone-en-light", tmp_path)
    page.click("#cal-empty")
    expect(page.locator("#cal-steps")).to_have_class("cal-steps empty-done")
    _settled(page)
    page.click("#cal-save")
    expect(page.locator("#cal-report")).to_contain_text("status:", timeout=60_000)
    expect(status).to_have_attribute("data-status", "ok")
