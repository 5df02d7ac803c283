"""Phones at a phone-sized viewport play on a simulated tray through the pages."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest
from helpers import (
    CODE,
    PHONE,
    dice_on,
    join,
    ready,
    rest,
    roll,
    roll_to_rest,
    same_state,
    seated,
    start_game,
    version,
)
from playwright.sync_api import Page, expect


def _score_best(page: Page) -> None:
    """Score the option worth most (a zero asks first: say yes)."""
    options = page.locator("#sheet button.option:enabled")
    expect(options.first).to_be_visible()
    points = [int(text) for text in options.all_inner_texts()]
    before = version(page)
    options.nth(points.index(max(points))).click()
    if max(points) == 0:
        page.click("#confirm-yes")
    page.wait_for_function("v => +document.body.dataset.version > v", arg=before)


def test_two_phones_play_a_whole_game_live_with_a_corrected_reading(served, phone):
    ann, bo = phone(), phone()
    join(ann, served.url, "Ann")
    join(bo, served.url, "Bo")
    start_game(ann, served.url, "ohio", ["Ann", "Bo"])
    expect(bo.locator("#sheet th.player")).to_have_text(["Ann", "Bo"])
    table = served.tray.table
    sim = served.tray.rig.sim
    turns = 2 * len(table.match.game.sheets[0].scorable)
    corrected = False
    for turn in range(turns):
        me, other = (ann, bo) if turn % 2 == 0 else (bo, ann)
        expect(other.locator("#whose")).to_contain_text("Ann" if me is ann else "Bo")
        if turn == 3:
            # a die falls off the tray: five of six are read, twice re-tumbled, then asked
            sim.tray.use(5)
            before = version(me)
            me.click("#roll")
            assert rest(me, before) == "needs-help"
            same_state(me, other)
            expect(other.locator("#help")).to_be_visible()
            expect(me.locator("#help-why")).to_contain_text("not every die was found")
            expect(me.locator("#help .snapshot-marks text")).to_have_count(5)
            missing = me.locator("#help-dice .die[data-value='']")
            expect(missing).to_have_count(1)
            for _ in range(3):
                missing.first.click() if missing.count() else me.locator(
                    "#help-dice .die").last.click()
            values = me.locator("#help-dice .die").evaluate_all(
                "els => els.map(e => +e.dataset.value)")
            before = version(me)
            me.click("#help-confirm")
            rest(me, before)
            same_state(me, other)
            expect(other.locator("#help")).to_be_hidden()
            assert list(table.match.game.turn.dice) == values
            assert [int(v) for v in dice_on(other)] == values
            sim.tray.use(6)
            corrected = True
        else:
            roll(me)
        # the other phone sees the same dice, live
        same_state(me, other)
        assert dice_on(other) == dice_on(me)
        if turn % 3 == 0 and me.locator("#dice .die").first.is_enabled():
            before = version(me)
            me.locator("#dice .die").first.click()
            me.wait_for_function("v => +document.body.dataset.version > v", arg=before)
            same_state(me, other)
            expect(other.locator("#dice .die.kept")).to_have_count(1)
            roll(me)
        filled = other.locator("#sheet .filled").count()
        _score_best(me)
        same_state(me, other)
        expect(other.locator("#sheet .filled")).to_have_count(filled + 1)
    assert corrected
    match = table.match
    assert match.finished
    totals = match.totals()
    winners = [match.players[i] for i in match.winners()]
    for page in (ann, bo):
        expect(page.locator("#winner")).to_be_visible()
        for winner in winners:
            expect(page.locator("#winner")).to_contain_text(winner)
        expect(page.locator("#sheet tr.total td")).to_have_text([str(t) for t in totals])
        expect(page.locator("#sheet th.won")).to_have_count(len(winners))
        expect(page.locator("#turn")).to_be_hidden()


def test_two_phones_scoring_the_same_turn_give_one_entry_and_a_clear_message(served, phone):
    ann, bo = phone(), phone()
    join(ann, served.url, "Ann")
    join(bo, served.url, "Bo")
    start_game(ann, served.url, "yahtzee", ["Ann", "Bo"])
    roll(ann)
    # Bo's phone stops hearing the tray, so it still offers the box when Ann has scored
    bo.route("**/api/events", lambda route: route.abort())
    bo.reload()
    ready(bo)
    bo.wait_for_function("v => +document.body.dataset.version >= v", arg=version(ann))
    ann.locator("#sheet tr[data-box=chance] button.option").click()
    expect(ann.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    bo.locator("#sheet tr[data-box=chance] button.option").click()
    expect(bo.locator("#banner")).to_be_visible()
    expect(bo.locator("#banner")).to_contain_text("Someone was quicker")
    # Bo's phone shows the new state: one entry, Bo's turn
    expect(bo.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    expect(bo.locator("#whose")).to_contain_text("Bo")
    game = served.tray.table.match.game
    assert len(game.sheets[0].entries) == 1 and game.current == 1


def test_a_phone_waking_from_sleep_catches_up(served, phone):
    ann, bo = phone(), phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    bo.route("**/api/events", lambda route: route.abort())
    bo.goto(served.url + "/")
    expect(bo.locator("#sheet")).to_be_visible()
    roll(ann)
    ann.locator("#sheet tr[data-box=chance] button.option").click()
    expect(ann.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    expect(bo.locator("#sheet tr[data-box=chance] .filled")).to_have_count(0)
    bo.evaluate(
        """() => {
            Object.defineProperty(document, 'visibilityState',
                                  {value: 'visible', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    expect(bo.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)


def test_undo_asks_first(served, phone):
    ann = seated(phone(), served.url)
    roll(ann)
    ann.locator("#sheet tr[data-box=chance] button.option").click()
    expect(ann.locator("#sheet .filled")).to_have_count(1)
    ann.click("#undo")
    expect(ann.locator("#confirm")).to_be_visible()
    ann.locator("#confirm button[value=no]").click()
    expect(ann.locator("#sheet .filled")).to_have_count(1)
    ann.click("#undo")
    ann.click("#confirm-yes")
    expect(ann.locator("#sheet .filled")).to_have_count(0)
    assert served.tray.table.match.game.sheets[0].entries == ()


def test_a_phone_that_has_not_joined_watches_but_cannot_act(served, phone):
    ann, guest = phone(), phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    guest.goto(served.url + "/")
    expect(guest.locator("#join-note")).to_be_visible()
    expect(guest.locator("#roll")).to_be_disabled()
    roll(ann)
    same_state(ann, guest)
    expect(guest.locator("#sheet button.option").first).to_be_disabled()
    expect(guest.locator("#dice .die").first).to_be_disabled()


def test_dice_are_entered_by_hand_when_the_camera_is_lost(served, phone):
    ann = seated(phone(), served.url)
    served.tray.rig.sim.unplug_camera()
    assert roll_to_rest(ann) == "needs-help"
    expect(ann.locator("#help-why")).to_contain_text("Enter the dice by hand")
    expect(ann.locator("#help-why")).to_contain_text("unplugged")
    expect(ann.locator("#help .snapshot")).to_have_count(0)
    expect(ann.locator("#help-confirm")).to_be_disabled()  # no value yet
    dice = ann.locator("#help-dice .die")
    for i in range(5):
        for _ in range(i + 1):
            dice.nth(i).click()
    ann.click("#help-confirm")
    expect(ann.locator("#sheet tr[data-box=chance] button.option")).to_have_text("15")
    assert served.tray.table.match.game.turn.dice == (1, 2, 3, 4, 5)


def test_new_game_remembers_the_names_and_checks_the_count(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yahtzee", ["Ann", "Bo", "Cleo"])
    ann.goto(served.url + "/new")
    expect(ann.locator("#players input")).to_have_count(3)
    names = ann.locator("#players input").evaluate_all("els => els.map(e => e.value)")
    assert names == ["Ann", "Bo", "Cleo"]
    ann.locator("#players input").nth(1).fill("Ann")
    ann.click("#start")
    expect(ann.locator("#form-error")).to_have_text("Two players share a name.")
    for _ in range(5):
        ann.click("#add-player")
    expect(ann.locator("#players input")).to_have_count(8)
    expect(ann.locator("#add-player")).to_be_disabled()


def test_a_house_rule_reaches_the_tray(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    ann.goto(served.url + "/new")
    ready(ann)
    ann.check("input[name=ruleset][value=kniffel]")
    ann.check("input[name=option][value=columns-3]")
    ann.click("#start")
    ann.wait_for_url(served.url + "/")
    expect(ann.locator("#sheet .col-name")).to_have_count(3)
    assert served.tray.table.match.ruleset.id == "kniffel+columns-3"


def test_german_phones_get_german_and_the_switch_is_remembered(served, phone):
    page = phone(locale="de-DE")
    page.goto(served.url + "/new")
    expect(page.locator("label.choice", has_text="Yacht").first).to_contain_text(
        "12 Felder, kein Bonus")  # the rule set's own German description
    page.goto(served.url + "/")
    expect(page.locator(".nav a").first).to_have_text("Spielblock")
    page.click("#lang")
    expect(page.locator(".nav a").first).to_have_text("Scorecard")
    page.goto(served.url + "/new")
    expect(page.locator("h1")).to_have_text("New game")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_german_phone_is_told_what_went_wrong_in_german(served, phone):
    ann = seated(phone(locale="de-DE"), served.url)
    served.tray.rig.sim.jam()
    assert roll_to_rest(ann) == "error"
    expect(ann.locator("#why")).to_have_text("der Becher klemmt")
    served.tray.rig.sim.unjam()
    roll(ann)
    # a move decided on an old state: the tray's refusal in German, and the new state shown
    ann.route("**/api/events", lambda route: route.abort())
    ann.reload()
    ready(ann)
    stale = served.tray.table.version
    ann.wait_for_function("v => +document.body.dataset.version >= v", arg=stale)
    served.tray.table.keep(stale, [0])
    ann.locator("#sheet button.option").first.click()
    expect(ann.locator("#banner")).to_have_text(
        "Jemand war schneller: Der Tisch hat sich inzwischen geändert.")
    expect(ann.locator("#dice .die.kept")).to_have_count(1)


def _qr_image(page: Page) -> np.ndarray:
    """The QR code as the phone's screen shows it (its own pixels), greyscale."""
    png = page.locator("#qr").screenshot()
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)


@pytest.mark.parametrize("pixels", [1, 2.625])
def test_a_wrong_code_is_said_and_a_joined_phone_shows_the_qr_code_of_the_join_link(
        served, phone, pixels):
    page = phone(pixels=pixels)
    page.goto(served.url + "/join")
    ready(page)
    page.fill("#code", "0000")
    page.click("#join-form button[type=submit]")
    expect(page.locator("#join-error")).to_have_text("That is not the table's code.")
    join(page, served.url, "Ann")
    page.goto(served.url + "/join")
    expect(page.locator("#share")).to_be_visible()
    expect(page.locator("#code-show")).to_have_text(CODE)
    page.wait_for_function("document.querySelector('#qr').dataset.fitted === 'true'")
    image = _qr_image(page)
    # every module a whole number of the screen's pixels: no module edge blurred to grey
    # (the rounded corners, in the blank margin, aside)
    inner = image[8:-8, 8:-8]
    assert np.isin(inner, (0, 255)).all(), f"{np.count_nonzero(~np.isin(inner, (0, 255)))} grey px"
    # OpenCV's ArUco-based QR reader: its classic reader misses about 1 code in 700 of
    # this size (the module pattern depends on the server's random port); this one read
    # every code for ports 20000-65535 drawn at 7 and 18 px a module
    text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    assert text == f"{served.url}/join?code={CODE}"
    # ... and as large as the room allows: more than three quarters of the width it may
    # take (app.css: at most 264 px, and 80 % of the screen's width)
    width = page.evaluate("document.querySelector('#qr').getBoundingClientRect().width")
    room = min(264, 0.8 * PHONE["width"])
    assert 0.75 * room < width <= room
    other = phone()  # the link fills in the code for the next phone
    other.goto(text)
    expect(other.locator("#code")).to_have_value(CODE)


def test_the_snapshot_shows_the_value_read_over_each_die(served, phone):
    ann = seated(phone(), served.url)
    roll(ann)
    reading = served.tray.table.reading
    read = [str(d["value"]) for d in reading["dice"]]
    marks = ann.locator("#frame .snapshot-marks text")
    expect(marks).to_have_count(len(read))
    assert marks.all_text_contents() == read
    expect(ann.locator("#frame figcaption")).to_have_text(re.compile(" ".join(read)))
    expect(ann.locator("#frame img")).to_have_attribute("src", reading["view"])
    # the marks sit over the dice although the photo is smaller than the frame
    box = ann.locator("#frame img").bounding_box()
    marks = ann.locator("#frame .snapshot-marks circle")
    for die, mark in zip(reading["dice"], marks.all(), strict=True):
        centre = mark.bounding_box()
        x = (centre["x"] + centre["width"] / 2 - box["x"]) / box["width"] * reading["width"]
        y = (centre["y"] + centre["height"] / 2 - box["y"]) / box["height"] * reading["height"]
        assert abs(x - die["x"]) < 0.02 * reading["width"]
        assert abs(y - die["y"]) < 0.02 * reading["height"]


def test_mickey_is_declared_after_the_first_roll(served, phone):
    ann = seated(phone(), served.url, "mickey")
    expect(ann.locator("#declare")).to_be_hidden()
    roll(ann)
    ann.click("#declare")
    choices = ann.locator("#declare-list button")
    expect(choices).to_have_count(8)
    choices.filter(has_text="Mickey").click()
    expect(ann.locator("#dice-hint")).to_have_text("Declared: Mickey")
    expect(ann.locator("#declare")).to_be_hidden()
    # the declared box is the only one that takes the roll now
    expect(ann.locator("#sheet button.option")).to_have_count(1)
    expect(ann.locator("#sheet tr[data-box=mickey] button.option")).to_have_count(1)
    expect(ann.locator("#rolls-left")).to_have_text("Rolls left: 1")


def test_a_stalled_cup_says_why_and_the_roll_can_be_tried_again(served, phone):
    ann = seated(phone(), served.url)
    sim = served.tray.rig.sim
    sim.jam()
    assert roll_to_rest(ann) == "error"
    expect(ann.locator("#cycle")).to_have_text("Error")
    expect(ann.locator("#why")).to_be_visible()
    why = served.tray.table.state()["why"]
    assert why and ann.inner_text("#why") == f"the cup is stuck: {why}"
    sim.unjam()
    roll(ann)
    expect(ann.locator("#why")).to_be_hidden()
    expect(ann.locator("#sheet button.option").first).to_be_visible()


def test_a_finished_game_of_a_match_leads_to_the_next(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "ohio", ["Ann"], games=2)
    for _ in range(len(served.tray.table.match.game.sheets[0].scorable)):
        roll(ann)
        _score_best(ann)
    expect(ann.locator("#winner")).to_be_visible()
    expect(ann.locator("#next-game")).to_have_text("Play game 2")
    ann.click("#next-game")
    expect(ann.locator("#winner")).to_be_hidden()
    expect(ann.locator("#match-line")).to_contain_text("game 2 of 2")
    expect(ann.locator("#sheet tr.match td")).to_have_count(1)
    assert served.tray.table.match.number == 2
    # the match is in the history with its total so far; high scores wait for its end
    first = served.tray.table.match.games[0].totals()[0]
    ann.goto(served.url + "/history")
    ready(ann)
    expect(ann.locator(".games li")).to_have_count(1)
    expect(ann.locator(".games li")).to_contain_text("ohio · 2 games")
    expect(ann.locator(".games li")).to_contain_text("playing now")
    expect(ann.locator(".games li .game-scores")).to_have_text(f"Ann {first}")
    expect(ann.locator("#high-scores")).to_have_text("Nothing yet.")
    expect(ann.locator("#faces-chart rect.bar")).to_have_count(6)
    expect(ann.locator("#fairness")).to_contain_text("Chi-square")


def test_a_phone_whose_live_stream_broke_reconnects_and_catches_up(served, phone):
    ann, bo = phone(), phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    bo.goto(served.url + "/")
    ready(bo)
    expect(bo.locator("#live")).to_have_attribute("data-state", "live")
    # the network drops: the stream ends and every reconnection fails for a while
    bo.route("**/api/events", lambda route: route.abort())
    bo.evaluate("() => 0")
    roll(ann)
    ann.locator("#sheet tr[data-box=chance] button.option").click()
    expect(ann.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    bo.unroute("**/api/events")
    # the browser's own retry or the page's reconnection opens the stream again, and the
    # page fetches what it missed
    expect(bo.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    expect(bo.locator("#live")).to_have_attribute("data-state", "live")


@pytest.fixture
def blurred_tray(serve):
    """A simulated tray whose camera shows a rendered frame with one die still moving (the
    real recognizer reads it: four dice read, the fifth seen but smeared)."""
    from dicetray.vision import read
    from dicetray.vision.render import render_dataset

    frame, truth = list(render_dataset(11, seed=2026, hard=True, image_size=(640, 480)))[10]
    assert sum(d.blurred for d in truth.dice) == 1

    def reader(_camera_frame, calibration=None, **options):
        return read(frame, None, **options)

    return serve(reader=reader)


def test_the_help_snapshot_marks_the_die_seen_but_not_read(blurred_tray, phone):
    ann = seated(phone(), blurred_tray.url)
    assert roll_to_rest(ann) == "needs-help"
    reading = blurred_tray.tray.table.reading
    assert [u["problem"].split(":")[0] for u in reading["unread"]] == ["blur"]
    marks = ann.locator("#help .snapshot-marks g")
    expect(marks).to_have_count(len(reading["dice"]) + 1)
    # the die not read is marked unsure with a question mark, and says why on hover
    unread = ann.locator("#help .snapshot-marks g.unsure", has_text="?")
    expect(unread).to_have_count(1)
    expect(unread.locator("title")).to_have_text(reading["unread"][0]["problem"])
    read = " ".join(str(d["value"]) for d in reading["dice"])
    expect(ann.locator("#help figcaption")).to_have_text(re.compile(re.escape(read) + " [?]$"))
