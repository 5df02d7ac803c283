"""The reader's parts passed in: its networks and its settings, never module globals."""

from __future__ import annotations

import dataclasses
import math
import re
from concurrent.futures import Future
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.vision import Reading, read
from dicetray.vision.classifier import CLASSES, Ahead, answered
from dicetray.vision.detector import Candidate
from dicetray.vision.layouts import LAYOUTS
from dicetray.vision.reading import REASONS, Reason, Why
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings


def a_die(value: int = 4) -> np.ndarray:
    """A white die showing ``value`` at (160, 120) on grey felt, 60 px wide."""
    img = np.full((240, 320, 3), (90, 120, 90), np.uint8)
    cv2.rectangle(img, (130, 90), (190, 150), (235, 235, 235), -1)
    for x, y in LAYOUTS[value] * 16 + (160, 120):
        cv2.circle(img, (round(x), round(y)), 5, (20, 20, 20), -1, cv2.LINE_AA)
    return img


class Finds:
    """A detector that finds what it is given, and counts how it was asked."""

    def __init__(self, *found: Candidate) -> None:
        self.found, self.asked = list(found), []

    def find(self, frame: np.ndarray, threshold: float, die_size: float | None) -> list:
        self.asked.append((threshold, die_size))
        return [c for c in self.found if c.score >= threshold]


class Says:
    """A classifier sure of one class everywhere; counts the crops it read."""

    def __init__(self, cls: int, p: float = 0.95) -> None:
        self.probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
        self.probs[cls] = p
        self.crops = 0

    def classify(self, frame: np.ndarray, dice: list, *, turns: int = 8,
                 first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        self.crops += len(dice)
        return np.tile(self.probs, (len(dice), 1))

    def classify_soon(self, frame: np.ndarray, dice: list) -> Future[Ahead]:
        return answered(self.classify(frame, dice, turns=1))


DIE = Candidate(160.0, 120.0, 60.0, 0.9, "flat")


def test_the_networks_passed_in_read_the_frame() -> None:
    finds, says = Finds(DIE), Says(4)
    roll = read(a_die(4), detector=finds, classifier=says)
    assert roll.ok and roll.values == (4,), roll
    assert finds.asked == [(DEFAULT_SETTINGS.dim_find, None)] and says.crops >= 1


def test_nothing_found_asks_the_classifier_nothing() -> None:
    says = Says(4)
    roll = read(a_die(4), detector=Finds(), classifier=says)
    assert roll.reason.startswith(Reason.NO_DICE) and says.crops == 0


def test_the_calibration_die_size_is_what_the_detector_is_asked_for() -> None:
    finds = Finds(DIE)

    class Calibrated:
        die_size = 60.0

    read(a_die(4), Calibrated(), detector=finds, classifier=Says(4))
    assert finds.asked == [(DEFAULT_SETTINGS.dim_find, 60.0)]


def test_a_classifier_reading_another_value_refuses_the_roll() -> None:
    roll = read(a_die(4), detector=Finds(DIE), classifier=Says(6))
    assert roll.kind == Reason.AMBIGUOUS and "pips read 4 but it looks like a 6" in roll.reason


@pytest.mark.parametrize(("keep", "values"), [(0.3, (4,)), (0.95, ())])
def test_the_settings_passed_in_decide(keep: float, values: tuple[int, ...]) -> None:
    settings = dataclasses.replace(DEFAULT_SETTINGS, keep_find=keep)
    roll = read(a_die(4), detector=Finds(DIE), classifier=Says(4), settings=settings)
    assert roll.values == values, roll
    if not values:  # under the threshold, the find is faint and left out as such
        assert [f.why for f in roll.left_out] == [Why.FAINT]


def test_settings_are_frozen_and_checked() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_SETTINGS.net_sure = 0.5  # type: ignore[misc]
    with pytest.raises(ValueError, match="faint_find"):
        ReaderSettings(faint_find=0.5, keep_find=0.3)
    with pytest.raises(ValueError, match="dim_find"):
        ReaderSettings(dim_find=0.2, faint_find=0.12)


def test_every_setting_is_a_finite_number() -> None:
    for f in dataclasses.fields(ReaderSettings):
        value = getattr(DEFAULT_SETTINGS, f.name)
        for v in value if isinstance(value, tuple) else (value,):
            assert isinstance(v, (int, float)) and math.isfinite(v) and v >= 0, f.name


def test_the_reasons_are_the_contracts_words() -> None:
    assert REASONS == ("wrong-count", "cocked", "edge", "blur", "ambiguous", "no-dice",
                       "overlap")
    assert [str(w) for w in Why] == ["faint", "no-die", "bare", "speck", "unlike",
                                     "background", "on-a-die"]


class Where(Says):
    """Sure of a 4 on a die, a weak guess of 2 on anything near the frame's bottom edge."""

    def classify(self, frame: np.ndarray, dice: list, *, turns: int = 8,
                 first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        weak = np.full(len(CLASSES), 0.1, np.float32)
        weak[2] = 0.3
        return np.array([weak if y > frame.shape[0] - 20 else Says(4).probs
                         for _, y, _ in dice], np.float32)


def test_a_faint_find_the_frame_cuts_refuses_the_roll_on_a_weak_guess() -> None:
    # no pips show on the part inside the frame, and the classifier (which never learnt
    # cut dice) only guesses: it may be a die half out of view, so the roll is refused
    # by its place rather than the find left out and the rest answered as the whole roll
    cut_find = Candidate(60.0, 232.0, 60.0, 0.3, "flat")
    roll = read(a_die(4), detector=Finds(DIE, cut_find), classifier=Where(4))
    assert not roll.ok and roll.kind == Reason.EDGE, roll


@pytest.mark.parametrize("mistaken", [5, 5.0, "calibration.json", Path("calibration.json")])
def test_a_number_or_a_path_for_the_calibration_is_a_clear_error(mistaken: object) -> None:
    # read(frame, 5) reads as if told no calibration and any number of dice: refused
    frame = np.zeros((100, 100, 3), np.uint8)
    with pytest.raises(TypeError, match="calibration must be a Calibration"):
        read(frame, mistaken)
    assert read(frame, None, 5).status == "unsure"


def a_die_with_a_mark(value: int, shade: int) -> np.ndarray:
    """:func:`a_die` with a grey mark on its face's centre spot, as dark as ``shade``."""
    img = a_die(value)
    cv2.circle(img, (160, 120), 5, (shade, shade, shade), -1, cv2.LINE_AA)
    return img


def test_the_reason_says_which_check_doubted_the_pips() -> None:
    # a grey mark where a 4 has blank face: neither clearly a pip nor clearly blank
    unsure = read(a_die_with_a_mark(4, 150), detector=Finds(DIE), classifier=Says(4, 0.5))
    assert unsure.kind == Reason.AMBIGUOUS
    assert unsure.reason.endswith(
        "a spot on the die at (159, 120) is neither clearly a pip nor clearly blank face"), unsure
    # a mark as pale as the face is no doubt
    clean = read(a_die_with_a_mark(4, 220), detector=Finds(DIE), classifier=Says(4, 0.5))
    assert clean.ok and clean.values == (4,), clean


def test_a_face_unlike_the_other_dice_in_size_is_doubted_for_its_size() -> None:
    img = np.full((300, 480, 3), (90, 120, 90), np.uint8)
    finds = []
    for cx, cy, edge, value in ((80, 80, 60, 4), (240, 80, 60, 2), (400, 80, 60, 5),
                                (160, 220, 36, 3), (320, 220, 60, 6)):
        half = edge // 2
        cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), (235,) * 3, -1)
        for x, y in LAYOUTS[value] * (edge * 16 / 60) + (cx, cy):
            cv2.circle(img, (round(x), round(y)), round(5 * edge / 60), (20,) * 3, -1,
                       cv2.LINE_AA)
        finds.append(Candidate(float(cx), float(cy), float(edge), 0.9, "flat"))
    roll = read(img, detector=Finds(*finds), classifier=Says(4, 0.5))
    assert roll.kind == Reason.AMBIGUOUS
    assert roll.reason.endswith("die at (160, 219) is not the size of the other dice"), roll


def dice_and_a_blank(blank: tuple[int, int, int]) -> np.ndarray:
    """Two white dice showing 4 at (80, 120) and (160, 120), 50 px wide, on grey felt, and
    a square of colour ``blank`` with no marks at all at (240, 120): a die smeared past
    its pips, or a key of the same size."""
    img = np.full((240, 320, 3), (90, 120, 90), np.uint8)
    for cx in (80, 160):
        cv2.rectangle(img, (cx - 25, 95), (cx + 25, 145), (235, 235, 235), -1)
        for x, y in LAYOUTS[4] * 13 + (cx, 120):
            cv2.circle(img, (round(x), round(y)), 4, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.rectangle(img, (215, 95), (265, 145), blank, -1)
    return img


class Elsewhere(Says):
    """Sure of a 4 on the dice at x < 200; elsewhere it answers class ``name`` (a die
    whose face cannot be read, or no die), as surely as ``p``."""

    def __init__(self, name: str, p: float = 0.95) -> None:
        super().__init__(4)
        self.elsewhere = Says(CLASSES.index(name), p).probs

    def classify(self, frame: np.ndarray, dice: list, *, turns: int = 8,
                 first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        self.crops += len(dice)
        return np.array([self.probs if x < 200 else self.elsewhere for x, _, _ in dice],
                        np.float32)


FOURS = (Candidate(80.0, 120.0, 50.0, 0.9, "flat"), Candidate(160.0, 120.0, 50.0, 0.9, "flat"))
# the detector unsure of the blank (a smeared die scores low), over its own threshold
BLANK = Candidate(240.0, 120.0, 50.0, 0.35, "flat")


def test_a_find_like_the_dice_sure_to_show_no_readable_face_refuses_the_roll() -> None:
    # the blank square is white like the dice and of their size: a die the classifier is
    # sure shows no face that can be read refuses the roll, however unsure the detector
    # (before, below sure_find it was dropped, and two dice answered as the whole roll)
    assert BLANK.score < DEFAULT_SETTINGS.sure_find
    sure = DEFAULT_SETTINGS.fairly_sure + 0.15
    roll = read(dice_and_a_blank((235, 235, 235)), detector=Finds(*FOURS, BLANK),
                classifier=Elsewhere("unreadable", sure))
    assert not roll.ok and roll.kind == Reason.COCKED, roll
    assert "(240, 120)" in roll.reason and "no face can be read" in roll.reason, roll


def test_a_blank_find_unlike_the_dice_is_left_out_however_sure_the_classifier() -> None:
    # as sure that no face can be read, but far from the dice's colour: a key, a clip
    roll = read(dice_and_a_blank((40, 40, 40)), detector=Finds(*FOURS, BLANK),
                classifier=Elsewhere("unreadable", 0.9))
    assert roll.ok and roll.values == (4, 4), roll
    assert [(round(f.x), f.why) for f in roll.left_out] == [(240, Why.UNLIKE)], roll


def dice_and_a_sliver(sliver: tuple[int, int, int]) -> np.ndarray:
    """:func:`dice_and_a_blank`'s two white 4s with no blank, and the top 12 px of a
    square 50 px wide, of colour ``sliver``, showing at the frame's bottom edge: a die
    mostly cut off by the frame, or a thing on the table the frame cuts."""
    img = dice_and_a_blank((90, 120, 90))  # the blank as the felt: not there
    cv2.rectangle(img, (215, 228), (265, 239), sliver, -1)
    return img


# the detector puts a sliver's die where its face's centre lies: below the frame
SLIVER = Candidate(240.0, 253.0, 50.0, 0.4, "flat")


@pytest.mark.parametrize(("sliver", "refused"), [((235, 235, 235), True), ((40, 40, 40), False)])
def test_a_bare_find_centred_beyond_the_frame_like_the_dice_refuses_the_roll(
        sliver: tuple[int, int, int], refused: bool) -> None:
    # no pips show on the sliver, and the classifier calls it no die: like the dice in
    # colour it may be a die mostly cut off, and the roll is refused with no value shown
    # (before, it was left out as bare and the two dice answered as the whole roll);
    # unlike them (dark among white dice, its face standing out the other way), it is a
    # thing on the table the frame cuts, set apart as unlike and left out
    roll = read(dice_and_a_sliver(sliver), detector=Finds(*FOURS, SLIVER),
                classifier=Elsewhere("none"))
    cut_off_or_left_out(roll, (240, 253), refused, Why.UNLIKE)


def cut_off_or_left_out(roll: Reading, at: tuple[int, int], refused: bool, why: Why) -> None:
    """``roll``, of two white 4s and a find at ``at`` that the frame cuts, is refused for
    that find with no value shown (``refused``), or else answered as the two 4s with the
    find left out for ``why``."""
    if refused:
        assert not roll.ok and roll.kind == Reason.EDGE, roll
        assert f"({at[0]}, {at[1]})" in roll.reason and "may be a die" in roll.reason, roll
        assert roll.values == (4, 4), roll
    else:
        assert roll.ok and roll.values == (4, 4), roll
        assert [(round(f.y), f.why) for f in roll.left_out] == [(at[1], why)], roll


def test_one_odd_die_among_dice_of_one_colour_still_sets_an_unlike_find_apart() -> None:
    # two white 4s and a red one read cleanly: one colour holds most of the dice, so they
    # are no set "of many colours" and a dark blank find unlike every one of them is set
    # apart (before, any two dice apart made the set many, the find was kept, and the
    # roll refused for a face that cannot be read)
    img = dice_and_a_blank((40, 40, 40))
    cv2.rectangle(img, (135, 175), (185, 225), (40, 40, 200), -1)
    for x, y in LAYOUTS[4] * 13 + (160, 200):
        cv2.circle(img, (round(x), round(y)), 4, (20, 20, 20), -1, cv2.LINE_AA)
    red = Candidate(160.0, 200.0, 50.0, 0.9, "flat")
    roll = read(img, detector=Finds(*FOURS, red, BLANK),
                classifier=Elsewhere("unreadable", 0.9))
    assert roll.ok and roll.values == (4, 4, 4), roll
    assert [(round(f.x), f.why) for f in roll.left_out] == [(240, Why.UNLIKE)], roll


def dice_and_a_half(half: tuple[int, int, int], pip: tuple[int, int, int] | None,
                    beside: str = "") -> np.ndarray:
    """:func:`dice_and_a_blank`'s two white 4s with no blank, and the top 22 px of a
    square 50 px wide, of colour ``half``, at the frame's bottom edge, showing a pip of
    colour ``pip`` (None: none) 4 px below its top edge's middle: a die half out of the
    frame, its top row of pips showing, or a thing on the table the frame cuts. Alone on
    the felt unless ``beside`` says what it is part of: ``"sheet"``, the same colour on
    to the frame's right edge (a sheet of paper, a label); ``"keys"``, two more like it
    on either side, 10 px apart (a row of keys)."""
    img = dice_and_a_blank((90, 120, 90))  # the blank as the felt: not there
    cv2.rectangle(img, (215, 218), (265, 239), half, -1)
    if beside == "sheet":
        cv2.rectangle(img, (150, 218), (319, 239), half, -1)
    elif beside == "keys":
        for left in (155, 275):
            cv2.rectangle(img, (left, 218), (left + 50, 239), half, -1)
    if pip is not None:
        cv2.circle(img, (240, 229), 4, pip, -1, cv2.LINE_AA)
    return img


# the detector finds a die half out of the frame only faintly, centred where its face's
# centre lies: at the frame's edge
HALF = Candidate(240.0, 240.0, 50.0, 0.2, "flat")


@pytest.mark.parametrize(("half", "pip", "beside", "refused"), [
    ((235, 235, 235), (20, 20, 20), "sheet", True),  # white, a dark pip: a die half out
    ((235, 235, 235), None, "sheet", False),  # white, blank: a sheet of paper the frame cuts
    ((235, 235, 235), None, "", True),        # ... a die's size, alone: its pips beyond
    ((40, 40, 40), (235, 235, 235), "keys", False),  # a dark key with a light mark
    ((40, 40, 40), (235, 235, 235), "", True),  # ... alone: a black die among white ones
])
def test_a_faint_find_the_frame_cuts_showing_a_pip_like_the_dice_refuses_the_roll(
        half: tuple[int, int, int], pip: tuple[int, int, int] | None, beside: str,
        refused: bool) -> None:
    # under the detector's threshold, a faint find is read only when it is like the dice;
    # one the frame cuts that shows a pip like theirs (polarity, size, and the face around
    # it their colour) may be a die half out of view, and the roll is refused with no
    # value shown (before, it was left out and the two dice answered as the whole roll).
    # So may one of a die's size standing alone on the felt, whatever it shows
    # (kinship.alone): a die whose pips lie beyond the edge, or unlike the dice read; a
    # sheet of paper or a row of keys the frame cuts runs on past it, and is left out
    assert DEFAULT_SETTINGS.faint_find <= HALF.score < DEFAULT_SETTINGS.keep_find
    roll = read(dice_and_a_half(half, pip, beside), detector=Finds(*FOURS, HALF),
                classifier=Elsewhere("none"))
    cut_off_or_left_out(roll, (240, 240), refused, Why.FAINT)


@pytest.mark.parametrize(("half", "shadow", "y", "refused", "at"), [
    # 65 from the felt, 53 from the white dice: one of them, its shadow 18 from the felt
    ((170, 180, 170), (75, 102, 75), 236, True, 236),
    ((150, 165, 150), (75, 102, 75), 236, False, 236),  # 49 from the felt, 69 from the dice
    # a dark band 41 from the felt: no plain floor, but the patch of the dice's colour
    # the edge cuts (kinship.cut_off_dim) refuses the roll at its middle
    ((170, 180, 170), (55, 80, 55), 236, True, 229),
    ((170, 180, 170), (55, 80, 55), 240, True, 240),  # ... centred beyond the frame's edge
])
def test_a_faint_find_the_frame_cuts_nearer_the_dice_than_its_floor_refuses_the_roll(
        half: tuple[int, int, int], shadow: tuple[int, int, int], y: int,
        refused: bool, at: int) -> None:
    # a die half out of the frame that stands out of the felt less than alone_apart (a
    # blue die on dark felt, a red one on a red tray) casts its shadow on the felt beside
    # it, so that the ring around it is plain only at kin_plain_gap: it is nearer the
    # colour of the dice read than the felt's, and refuses the roll (before, it was left
    # out and the two dice answered as the whole roll); a thing nearer the felt's colour is
    # left out. Where the ring is not plain even so, a find centred inside the frame is
    # no die by its ring (before the patch rule, it was left out); one centred beyond it,
    # the felt beside it along the edge, ends as a die does and refuses the roll (a
    # neighbour or a soft shadow in its ring says nothing of it; a sheet the frame cuts
    # runs on along the edge: the tests above)
    img = dice_and_a_half(half, None)
    img[182:197, 200:290] = shadow
    find = Candidate(240.0, float(y), 50.0, 0.2, "flat")
    roll = read(img, detector=Finds(*FOURS, find), classifier=Elsewhere("none"))
    cut_off_or_left_out(roll, (240, at), refused, Why.FAINT)


@pytest.mark.parametrize(("strip", "beside", "score", "refused"), [
    ((235, 235, 235), "", 0.05, True),        # white as the dice, ending as a die does
    ((235, 235, 235), "sheet", 0.05, False),  # a white sheet on past the frame's corner
    ((235, 235, 235), "long", 0.05, False),   # a white strip three dice long
    # white, 1.8 dice along the edge: a die seen at a slant, its side faces beside its
    # top face (the detector sizes the top face alone; before, only a top face's
    # diagonal, 1.41, was a die's)
    ((235, 235, 235), "slant", 0.05, True),
    ((190, 190, 190), "", 0.05, True),        # light grey: nearer the white dice than the felt
    ((190, 190, 190), "greys", 0.05, False),  # ... in a grey thing running on along the edge
    ((40, 40, 40), "", 0.05, False),          # dark among white dice: a thing on the table
    ((100, 135, 100), "", 0.05, False),       # 14 from the felt: its grain or a stain
])
def test_a_dim_find_on_a_strip_of_the_dice_colour_the_frame_cuts_refuses_the_roll(
        strip: tuple[int, int, int], beside: str, score: float, refused: bool) -> None:
    # a die a third inside the frame shows a strip of its body, and the detector scores
    # it under its faint finds (0.03-0.5 on the cut tray views): on a patch the frame's
    # edge cuts, nearer the white dice's colour than the felt's and a die's width along
    # the edge, such a find refuses the roll with no value shown (before, no find was
    # weighed there and the two dice answered as the whole roll). Nothing else dim is
    # shown or left out: the detector scores hundreds of such spots in a photo. A patch
    # longer than a die's diagonal, or one beside which the edge runs on in a colour
    # nearer its own than the felt's (a larger thing, split by its shading or the frame's
    # noise into pieces of the dice's colour and not), is no die cut by the edge; a die
    # seen at a slant shows its side faces too, longer than a top face's diagonal
    img = dice_and_a_half(strip, None, "sheet" if beside == "sheet" else "")
    if beside == "long":
        cv2.rectangle(img, (150, 218), (310, 239), strip, -1)
    elif beside == "slant":
        cv2.rectangle(img, (195, 218), (285, 239), strip, -1)
    elif beside == "greys":  # 69 from the white dice, 52 from the felt
        img[218:, 150:215] = img[218:, 266:310] = (160, 160, 160)
    dim = Candidate(240.0, 245.0, 50.0, score, "flat")
    assert score < DEFAULT_SETTINGS.faint_find
    roll = read(img, detector=Finds(*FOURS, dim), classifier=Elsewhere("none"))
    if refused:
        cut_off_or_left_out(roll, (240, 245), True, Why.FAINT)
    else:
        assert roll.ok and roll.values == (4, 4) and not roll.left_out, roll


@pytest.mark.parametrize(("shape", "refused"), [
    ("sliver", True),   # a die's sliver, 22 px deep: a die cut by the edge
    ("deep", False),    # a white thing a die wide and 1.5 dice deep (deeper than a
                        # die's diagonal): no die the edge cuts, and no find is there
    ("corner", False),  # a sliver cut by two edges (the frame's corner): not weighed
])
@pytest.mark.parametrize("dim", [None, 0.02])
def test_a_patch_of_the_dice_colour_the_frame_cuts_refuses_the_roll_where_the_detector_sees_nothing(
        shape: str, refused: bool, dim: float | None) -> None:
    # a fifth of a die inside the frame, the detector scores nothing there (or under
    # dim_find): the patch of the dice's colour the edge cuts, a die's width along it,
    # ending as a die does and no deeper than a die's diagonal, refuses the roll by
    # itself, at its middle (before, the roll was answered a die short). A deeper thing
    # (a label, a cable) or one in the frame's corner is left unweighed; nothing is
    # shown for it, and the two dice are the roll
    img = dice_and_a_blank((90, 120, 90))
    box = {"sliver": ((215, 218), (265, 239)), "deep": ((215, 164), (265, 239)),
           "corner": ((0, 218), (40, 239))}[shape]
    cv2.rectangle(img, *box, (235, 235, 235), -1)
    extra = [] if dim is None else [Candidate(240.0, 245.0, 50.0, dim, "flat")]
    assert dim is None or dim < DEFAULT_SETTINGS.dim_find
    roll = read(img, detector=Finds(*FOURS, *extra), classifier=Elsewhere("none"))
    assert roll.values == (4, 4), roll
    if refused:
        assert not roll.ok and roll.kind == Reason.EDGE and "may be a die" in roll.reason, roll
        at = re.search(r"at \((-?\d+), (-?\d+)\)", roll.reason)
        assert at is not None, roll.reason
        x, y = int(at[1]), int(at[2])
        assert abs(x - 240) <= 2 and 225 <= y <= 233, roll.reason  # the sliver's middle
    else:
        assert roll.ok and not roll.left_out, roll


def turned(x: float, y: float, size: tuple[int, int], k: int) -> tuple[float, float]:
    """Where the point (``x``, ``y``) of a frame of ``size`` (w, h) lies once the frame is
    turned ``k`` quarters anticlockwise (``np.rot90``)."""
    w, h = size
    for _ in range(k % 4):
        x, y, w, h = y, w - 1 - x, h, w
    return x, y


@pytest.mark.parametrize("quarters", [1, 2, 3])
def test_a_patch_of_the_dice_colour_is_weighed_alike_at_every_edge_of_the_frame(
        quarters: int) -> None:
    # the die's sliver of the test above, the frame turned so that the top, the right or
    # the left edge cuts it: the roll is refused for it all the same, at its middle (the
    # strips along the frame's four edges are each shrunk and turned to be looked at
    # alike; shrinking a strip where it lies and turning it after is the same to the bit)
    img = dice_and_a_blank((90, 120, 90))
    cv2.rectangle(img, (215, 218), (265, 239), (235, 235, 235), -1)
    size = (img.shape[1], img.shape[0])
    dice = [Candidate(*turned(c.x, c.y, size, quarters), c.size, c.score, c.kind)
            for c in FOURS]
    roll = read(np.ascontiguousarray(np.rot90(img, quarters)), detector=Finds(*dice),
                classifier=Says(4))
    assert roll.values == (4, 4), roll
    assert not roll.ok and roll.kind == Reason.EDGE and "may be a die" in roll.reason, roll
    at = re.search(r"at \((-?\d+), (-?\d+)\)", roll.reason)
    assert at is not None, roll.reason
    x, y = turned(240, 229, size, quarters)
    assert math.hypot(int(at[1]) - x, int(at[2]) - y) <= 4, roll.reason


def test_a_dim_find_on_a_patch_deeper_than_a_die_the_frame_cuts_is_no_die() -> None:
    # a white thing a die wide running 1.5 dice into the frame from its edge (deeper
    # than a die's diagonal, which is as deep as a die the edge cuts can show) with a
    # dim find on it: no die cut off (before, any depth would do, and the roll was
    # refused for a label or a cable's plug)
    img = dice_and_a_blank((90, 120, 90))
    cv2.rectangle(img, (215, 160), (265, 239), (235, 235, 235), -1)
    dim = Candidate(240.0, 225.0, 50.0, 0.05, "flat")  # its box reaches past the edge
    assert DEFAULT_SETTINGS.dim_find <= dim.score < DEFAULT_SETTINGS.faint_find
    roll = read(img, detector=Finds(*FOURS, dim), classifier=Elsewhere("none"))
    assert roll.ok and roll.values == (4, 4) and not roll.left_out, roll


@pytest.mark.parametrize(("pip", "refused"), [((20, 20, 20), True), (None, False)])
def test_a_bare_find_the_frame_cuts_showing_a_pip_like_the_dice_refuses_the_roll(
        pip: tuple[int, int, int] | None, refused: bool) -> None:
    # over the detector's threshold but unsure, centred inside the frame, no die to the
    # classifier: a bare find, left out (a magnet or a button shows no pip); with a pip
    # like the dice's on its part inside, a die half out of view (before, left out); on a
    # sheet of paper the frame cuts, so that it does not stand alone (kinship.alone)
    half = Candidate(240.0, 236.0, 50.0, 0.4, "flat")
    assert DEFAULT_SETTINGS.keep_find <= half.score < DEFAULT_SETTINGS.sure_find
    roll = read(dice_and_a_half((235, 235, 235), pip, "sheet"), detector=Finds(*FOURS, half),
                classifier=Elsewhere("none"))
    cut_off_or_left_out(roll, (240, 236), refused, Why.BARE)


@pytest.mark.parametrize(("half", "refused"), [
    ((235, 235, 235), True),   # white, as the dice: a die half out of view
    ((170, 205, 235), False),  # cream (31 from the dice in CIELAB): a label's print
])
def test_a_faint_find_the_frame_cuts_through_a_pip_like_the_dice_refuses_the_roll(
        half: tuple[int, int, int], refused: bool) -> None:
    # the frame's edge cuts the only pip showing in two: half a pip is too long for one,
    # and its ring runs off the frame. Made whole in the frame's mirror image it is a pip
    # like the dice's, on a face as near their colour as a half ring can tell
    # (half look_alike): the roll is refused with no value shown (before, the find was left
    # out and the two 4s answered as the whole roll). A face further off than that (but
    # within look_alike) is taken for a thing the frame cuts, its print made round.
    img = dice_and_a_half(half, None, "sheet")  # a label, not alone (kinship.alone)
    cv2.circle(img, (240, 240), 4, (20, 20, 20), -1, cv2.LINE_AA)
    roll = read(img, detector=Finds(*FOURS, HALF), classifier=Elsewhere("none"))
    cut_off_or_left_out(roll, (240, 240), refused, Why.FAINT)


@pytest.mark.parametrize(("second", "refused"), [
    ((235, 235, 235), False),  # both dice white: a green thing the frame cuts is no die
    ((200, 120, 40), True),    # a white die and a blue one: a green die may be there too
])
def test_among_dice_of_many_colours_a_cut_find_showing_their_pip_refuses_the_roll(
        second: tuple[int, int, int], refused: bool) -> None:
    # a faint find at the frame's edge whose face is unlike every die read, showing a pip
    # of their polarity and size: where the dice read are of one colour, it is a thing on
    # the table (left out); where they are of many (here two, further apart than
    # look_alike), a die's colour says nothing of another's, and the roll is refused for
    # it (before, the two dice were answered as the whole roll). The green thing is part
    # of a sheet, so that it does not stand alone (kinship.alone): its pip decides
    img = dice_and_a_half((60, 180, 60), (20, 20, 20), "sheet")
    cv2.rectangle(img, (135, 95), (185, 145), second, -1)
    for x, y in LAYOUTS[4] * 13 + (160, 120):
        cv2.circle(img, (round(x), round(y)), 4, (20, 20, 20), -1, cv2.LINE_AA)
    roll = read(img, detector=Finds(*FOURS, HALF), classifier=Elsewhere("none"))
    cut_off_or_left_out(roll, (240, 240), refused, Why.FAINT)


def a_glossy_black_die(value: int, light: tuple[float, float],
                       middle: tuple[float, float] = (160, 120)) -> np.ndarray:
    """A black die showing ``value`` in white pips at (160, 120), 60 px wide, on red felt,
    lit by a lamp's highlight centred at ``light``: the face there is lighter, so the pips
    in it have another face colour than the rest. The middle pip (of a 3 or a 5) is drawn
    at ``middle``."""
    img = np.full((240, 320, 3), (60, 60, 150), np.float32)
    cv2.rectangle(img, (130, 90), (190, 150), (40, 40, 40), -1)
    yy, xx = np.mgrid[:240, :320]
    glow = np.exp(-((xx - light[0]) ** 2 + (yy - light[1]) ** 2) / (2 * 9.0 ** 2))
    img = np.clip(img + 60 * glow[..., None], 0, 255).astype(np.uint8)
    for x, y in LAYOUTS[value] * 16 + (160, 120):
        at = middle if (x, y) == (160, 120) else (x, y)
        cv2.circle(img, (round(at[0]), round(at[1])), 5, (230, 230, 230), -1, cv2.LINE_AA)
    return img


@pytest.mark.parametrize("value", [5, 3])
def test_a_middle_pip_in_a_highlight_is_read_with_its_face(value: int) -> None:
    # the middle pip (drawn 1.5 px right of the face's centre, where the find lies, as
    # seen on rendered tray views) is not linked to the others by colour, but it lies on
    # their face where their layout and it make one: a 5 (a 3), not a 4 (a 2) and a 1 on
    # one die (before: "reads 1, but its face shows marks beside the pip")
    on_it = Candidate(161.5, 120.0, 60.0, 0.9, "flat")
    img = a_glossy_black_die(value, light=(161.5, 120), middle=(161.5, 120))
    roll = read(img, detector=Finds(on_it), classifier=Says(value, 0.5))
    assert roll.ok and roll.values == (value,), roll


def test_a_face_read_from_some_of_its_pips_takes_in_the_pip_that_completes_it() -> None:
    # the highlight between a 3's lower pips parts the lowest from the two above it, and
    # the find lies off the die's centre towards them (as the detector's did on rendered
    # tray views): read from the pips nearest the find, the die was a 2 of half its size;
    # the lowest pip, beyond the find's reach, makes a 3 with them centred on the find
    off_centre = Candidate(152.0, 112.0, 60.0, 0.9, "flat")
    roll = read(a_glossy_black_die(3, light=(168, 128)), detector=Finds(off_centre),
                classifier=Says(3, 0.5))
    assert roll.ok and roll.values == (3,), roll
