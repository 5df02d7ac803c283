"""The tray-view benchmark's pip options: the pips drawn as asked, bad values refused."""

from __future__ import annotations

import pytest

from benchmarks.tray_view import PipLook, main, shot
from dicetray.vision.scene import tray_view


@pytest.mark.parametrize("argv, said", [
    (["--pips", "mauve"], "--pips takes a colour name"),
    (["--pips", "1,2"], "or B,G,R (0-255 each)"),
    (["--pips", "0,0,256"], "or B,G,R (0-255 each)"),
    (["--pip-diameter", "0"], "--pip-diameter takes a share of the edge"),
    (["--pip-spacing", "0.5"], "--pip-spacing takes a share of the edge from 0.15 to 0.35"),
])
def test_a_pip_look_no_die_has_is_refused_before_any_frame_is_read(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--rolls", "1"])
    assert stop.value.code == 2
    assert said in capsys.readouterr().err


def test_the_pips_are_drawn_in_the_colour_asked_and_the_dice_keep_theirs() -> None:
    view = tray_view(3000, "white", image_size=(640, 360))
    plain, truth = shot(view)
    red, same = shot(PipLook.parse("red", 0.2, None).on(view))
    assert same.values == truth.values
    centred = [d for d in truth.dice if d.value in (1, 3, 5)]  # a pip on the face's centre
    assert centred
    for die in centred:
        x, y = round(die.x), round(die.y)  # the top face's centre
        b, g, r = (int(v) for v in red[y, x])
        assert r > b + 60 and r > g + 60  # red where the plain die's pip is black
        assert max(int(v) for v in plain[y, x]) < 120
