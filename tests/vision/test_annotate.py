"""Annotated frames: the reason of a refusal is readable whole, however narrow the frame."""

from __future__ import annotations

import numpy as np

from dicetray.vision.annotate import UNSURE_COLOUR, annotate
from dicetray.vision.reading import DieReading, Reading

REASON = "ambiguous: die at (391, 242): its pips read 2 but it looks like a 1"


def _unsure_pixels(image: np.ndarray) -> np.ndarray:
    """Where the image shows the unsure colour (or near it, once anti-aliased)."""
    return np.abs(image.astype(int) - np.array(UNSURE_COLOUR)).sum(axis=2) < 60


def _text_rows(image: np.ndarray) -> np.ndarray:
    """Rows holding pixels of the unsure colour."""
    return np.flatnonzero(_unsure_pixels(image).any(axis=1))


def test_a_long_reason_wraps_inside_a_narrow_frame() -> None:
    frame = np.full((240, 200, 3), 200, np.uint8)
    out = annotate(frame, Reading("unsure", REASON, ()))
    rows = _text_rows(out)
    lines = 1 + int((np.diff(rows) > 1).sum())  # runs of rows with text, gaps between
    assert lines >= 2  # one line of it is some 300 px wide
    assert not _unsure_pixels(out)[:, -4:].any()  # nothing runs off the right edge


def test_a_short_status_and_die_labels_sit_on_dark_boxes() -> None:
    frame = np.full((240, 320, 3), 230, np.uint8)
    die = DieReading(2, 160.0, 150.0, 0.0, "unknown", 0.4, 50.0)
    out = annotate(frame, Reading("unsure", "ambiguous: one die", (die,)))
    rows = _text_rows(out)
    assert rows.min() < 30  # the status on top
    assert ((rows > 95) & (rows < 115)).any()  # the die's label just above its box (y 125)
    assert (out.sum(axis=2) == 0).sum() > 200  # the dark boxes behind the text


def test_labels_of_dice_at_the_frame_s_edge_stay_inside_it() -> None:
    frame = np.full((240, 320, 3), 230, np.uint8)
    top = DieReading(1, 300.0, 12.0, 0.0, "unknown", 0.6, 30.0)  # no room above, nor right
    out = annotate(frame, Reading("unsure", "edge: cut", (top,)))
    dark = (out[:, 240:].sum(axis=2) == 0).any(axis=1)  # the label's box (the status's is left)
    rows = np.flatnonzero(dark)
    assert len(rows) and rows.min() > 27  # below the die's box, not cut off above the frame
    assert not _unsure_pixels(out)[rows.min():rows.max() + 1, -2:].any()  # nor at the right
