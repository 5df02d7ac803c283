"""Two phones at a phone-sized viewport play through the pages of a tray (the API stand-in)."""

from __future__ import annotations

import re

import cv2
import numpy as np
from helpers import dice_on, join, start_game, wait_rolled
from playwright.sync_api import Page, expect


def _score_best(page: Page) -> None:
    """Score the option worth most (a zero asks first: say yes)."""
    options = page.locator("#sheet button.option:enabled")
    expect(options.first).to_be_visible()
    points = [int(text) for text in options.all_inner_texts()]
    options.nth(points.index(max(points))).click()
    if max(points) == 0:
        page.click("#confirm-yes")


def _filled(page: Page) -> int:
    return page.locator("#sheet .filled").count()


def test_two_phones_play_a_whole_game_live_with_a_corrected_reading(served, phone):
    ann, bo = phone(), phone()
    join(ann, served.url, "Ann")
    join(bo, served.url, "Bo")
    start_game(ann, served.url, "ohio", ["Ann", "Bo"])
    expect(bo.locator("#sheet th.player")).to_have_text(["Ann", "Bo"])
    boxes = served.table.match.game.sheets[0].scorable
    corrected = False
    for turn in range(2 * len(boxes)):
        me, other = (ann, bo) if turn % 2 == 0 else (bo, ann)
        name = "Ann" if me is ann else "Bo"
        expect(other.locator("#whose")).to_contain_text(name)
        if turn == 3:
            served.table.unsure_next = True
            me.click("#roll")
            # both phones show the snapshot with the reader's guesses; one corrects die 1
            expect(other.locator("#help")).to_be_visible()
            expect(me.locator("#help .snapshot-marks")).to_be_visible()
            guessed = served.table.reading["dice"][0]["value"]
            me.locator("#help-dice .die").first.click()
            wanted = guessed % 6 + 1
            expect(me.locator("#help-dice .die").first).to_have_attribute("data-value", str(wanted))
            me.click("#help-confirm")
            expect(me.locator("#help")).to_be_hidden()
            expect(other.locator("#help")).to_be_hidden()
            assert dice_on(other)[0] == str(wanted)
            assert served.table.match.game.turn.dice[0] == wanted
            corrected = True
        else:
            me.click("#roll")
            wait_rolled(me, 1)
        # the other phone sees the same dice, live
        expect(other.locator("#dice .die").first).to_have_attribute("data-value", dice_on(me)[0])
        assert dice_on(other) == dice_on(me)
        if turn % 3 == 0:  # keep the first die and roll the rest once more
            me.locator("#dice .die").first.click()
            expect(other.locator("#dice .die.kept")).to_have_count(1)
            me.click("#roll")
            wait_rolled(me, 2)
        before = _filled(other)
        _score_best(me)
        expect(other.locator("#sheet .filled")).to_have_count(before + 1)
    assert corrected
    match = served.table.match
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
    ann.click("#roll")
    wait_rolled(ann, 1)
    # Bo's phone stops hearing the tray, so it still offers the box when Ann has scored
    bo.route("**/api/events", lambda route: route.abort())
    bo.reload()
    wait_rolled(bo, 1)
    ann.locator("#sheet tr[data-box=chance] button.option").click()
    expect(ann.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    bo.locator("#sheet tr[data-box=chance] button.option").click()
    expect(bo.locator("#banner")).to_be_visible()
    expect(bo.locator("#banner")).to_contain_text("Someone was quicker")
    # Bo's phone shows the new state: one entry, Bo's turn
    expect(bo.locator("#sheet tr[data-box=chance] .filled")).to_have_count(1)
    expect(bo.locator("#whose")).to_contain_text("Bo")
    assert len(served.table.match.game.sheets[0].entries) == 1
    assert served.table.match.game.current == 1


def test_a_phone_waking_from_sleep_catches_up(served, phone):
    ann, bo = phone(), phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    bo.route("**/api/events", lambda route: route.abort())
    bo.goto(served.url + "/")
    expect(bo.locator("#sheet")).to_be_visible()
    ann.click("#roll")
    wait_rolled(ann, 1)
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
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    ann.click("#roll")
    wait_rolled(ann, 1)
    ann.locator("#sheet tr[data-box=chance] button.option").click()
    expect(ann.locator("#sheet .filled")).to_have_count(1)
    ann.click("#undo")
    expect(ann.locator("#confirm")).to_be_visible()
    ann.locator("#confirm button[value=no]").click()
    expect(ann.locator("#sheet .filled")).to_have_count(1)
    ann.click("#undo")
    ann.click("#confirm-yes")
    expect(ann.locator("#sheet .filled")).to_have_count(0)
    assert served.table.match.game.sheets[0].entries == ()


def test_a_phone_that_has_not_joined_watches_but_cannot_act(served, phone):
    ann, guest = phone(), phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    guest.goto(served.url + "/")
    expect(guest.locator("#join-note")).to_be_visible()
    expect(guest.locator("#roll")).to_be_disabled()
    ann.click("#roll")
    wait_rolled(guest, 1)
    expect(guest.locator("#sheet button.option").first).to_be_disabled()


def test_dice_are_entered_by_hand_when_the_camera_is_lost(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    served.table.manual = True
    served.table.why = "camera lost"
    ann.reload()
    expect(ann.locator("#help")).to_be_visible()
    expect(ann.locator("#roll")).to_be_hidden()
    expect(ann.locator("#help-why")).to_contain_text("camera lost")
    expect(ann.locator("#help-confirm")).to_be_disabled()  # no value yet
    dice = ann.locator("#help-dice .die")
    for i in range(5):
        for _ in range(i + 1):
            dice.nth(i).click()
    ann.click("#help-confirm")
    expect(ann.locator("#sheet tr[data-box=chance] button.option")).to_have_text("15")
    assert served.table.match.game.turn.dice == (1, 2, 3, 4, 5)


def test_new_game_remembers_the_names_and_checks_the_count(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yahtzee", ["Ann", "Bo", "Cleo"])
    ann.goto(served.url + "/new")
    expect(ann.locator("#players input")).to_have_count(3)
    assert ann.locator("#players input").evaluate_all("els => els.map(e => e.value)") == [
        "Ann", "Bo", "Cleo"
    ]
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
    ann.check("input[name=ruleset][value=kniffel]")
    ann.check("input[name=option][value=columns-3]")
    ann.click("#start")
    ann.wait_for_url(served.url + "/")
    assert served.table.match.ruleset.id == "kniffel+columns-3"
    expect(ann.locator("#sheet .col-name")).to_have_count(3)


def test_german_phones_get_german_and_the_switch_is_remembered(served, phone):
    page = phone(locale="de-DE")
    page.goto(served.url + "/")
    expect(page.locator(".nav a").first).to_have_text("Spielblock")
    page.click("#lang")
    expect(page.locator(".nav a").first).to_have_text("Scorecard")
    page.goto(served.url + "/new")
    expect(page.locator("h1")).to_have_text("New game")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_wrong_code_is_said_and_a_joined_phone_shows_the_qr_code_of_the_join_link(served, phone):
    page = phone()
    page.goto(served.url + "/join")
    expect(page.locator("body[data-ready=true]")).to_be_visible()
    page.fill("#code", "0000")
    page.click("#join-form button[type=submit]")
    expect(page.locator("#join-error")).to_have_text("That is not the table's code.")
    join(page, served.url, "Ann")
    page.goto(served.url + "/join")
    expect(page.locator("#share")).to_be_visible()
    expect(page.locator("#code-show")).to_have_text("4711")
    page.wait_for_function("document.querySelector('#qr').naturalWidth > 0")
    png = page.locator("#qr").screenshot()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text == f"{served.url}/join?code=4711"
    # the link prefills the code for the next phone
    other = phone()
    other.goto(text)
    expect(other.locator("#code")).to_have_value("4711")


def test_the_snapshot_shows_the_value_read_over_each_die(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    ann.click("#roll")
    wait_rolled(ann, 1)
    marks = ann.locator("#frame .snapshot-marks text")
    expect(marks).to_have_count(5)
    read = [str(d["value"]) for d in served.table.reading["dice"]]
    assert marks.all_text_contents() == read
    expect(ann.locator("#frame figcaption")).to_have_text(re.compile(" ".join(read)))


def test_mickey_is_declared_after_the_first_roll(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "mickey", ["Ann"])
    expect(ann.locator("#declare")).to_be_hidden()
    ann.click("#roll")
    wait_rolled(ann, 1)
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


def test_a_tray_in_trouble_says_why_and_a_kept_die_that_changed_is_flagged(served, phone):
    ann = phone()
    join(ann, served.url, "Ann")
    start_game(ann, served.url, "yacht", ["Ann"])
    with served.table.lock:
        served.table.cycle = "error"
        served.table.why = "the cup did not reach home in 3 s"
        served.table.flags = ["die 2 was kept as a 5 and now shows 3"]
        served.table.changed()
    expect(ann.locator("#cycle")).to_have_text("Error")
    expect(ann.locator("#why")).to_have_text("the cup did not reach home in 3 s")
    expect(ann.locator("#flags .flag")).to_contain_text("die 2 was kept as a 5 and now shows 3")
    expect(ann.locator("#roll")).to_be_disabled()
