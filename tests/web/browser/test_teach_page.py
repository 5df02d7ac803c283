"""What the tray learnt of the players' dice, on a phone-sized calibrate page: a roll the
players confirmed on the scorecard shows up as dice learnt per value, and forgetting asks
first, then moves the teaching file aside."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from helpers import ready, roll, seated
from playwright.sync_api import expect

from dicetray.firmware.learning import SIMULATED_TEACHING_FILE
from dicetray.vision import read


def doubting(frame, calibration=None, dice=None, *, teaching=None):
    """The real recognizer, whose readings all need checking."""
    reading = read(frame, calibration, dice, teaching=teaching)
    return dataclasses.replace(reading, status="unsure", reason="ambiguous: a test's doubt")


def test_a_checked_roll_is_learnt_and_forgotten_on_request(served, phone, tmp_path):
    served.tray.table.reader = doubting
    page = seated(phone(), served.url)
    roll(page)  # the tray asks; the phone confirms the dice as read
    learnt = served.tray.data_dir / SIMULATED_TEACHING_FILE
    assert learnt.exists()

    page.goto(f"{served.url}/calibrate")
    ready(page)
    status = page.locator("#teach-status")
    expect(status).to_have_attribute("data-status", "ok")
    expect(status).to_contain_text("learnt 5 of your dice")
    counts = page.locator("#teach-values .count").all_inner_texts()
    assert len(counts) == 6 and sum(int(n) for n in counts) == 5
    page.locator("#teach").scroll_into_view_if_needed()
    out = Path(os.environ.get("DICETRAY_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    page.locator("#teach").screenshot(path=out / "teach-phone.png")

    # cancelled: nothing forgotten
    page.click("#teach-forget")
    expect(page.locator("#teach-confirm")).to_be_visible()
    page.click("#teach-confirm button[value=no]")
    expect(status).to_have_attribute("data-status", "ok")
    assert learnt.exists()

    page.click("#teach-forget")
    page.click("#teach-confirm-yes")
    expect(status).to_have_attribute("data-status", "missing")
    expect(status).to_contain_text("Nothing learnt yet")
    assert not learnt.exists()
    assert (served.tray.data_dir / "teaching.sim.forgotten.json").exists()
    expect(page.locator("#teach-forget")).to_be_disabled()
    page.click("#lang")  # the page's own words, in German too
    expect(status).to_contain_text("Noch nichts gelernt")
    expect(page.locator("#teach-forget")).to_have_text("Gelerntes vergessen")
    page.screenshot(path=out / "teach-phone-de.png", full_page=True)
