"""The vision benchmark runner's parts: measuring, tables, the doc section, the report."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.vision import (
    END,
    START,
    Method,
    Sample,
    floor_lines,
    measure,
    parse_args,
    progress_report,
    real_speed,
    real_speed_lines,
    set_table,
    speed_lines,
    timed,
    write_section,
)
from dicetray.vision import DieReading, Reading


def reading_of(values: tuple[int, ...], status: str = "ok") -> Reading:
    dice = tuple(
        DieReading(v, 10.0 * i, 0.0, 0.0, "unknown", 1.0, 10.0) for i, v in enumerate(values)
    )
    return Reading(status, "" if status == "ok" else "blur: test", dice)


def frame_saying(values: tuple[int, ...]) -> np.ndarray:
    """A tiny frame whose first pixels carry the values a fake reader will "see"."""
    frame = np.zeros((2, 8, 3), np.uint8)
    frame[0, : len(values), 0] = values
    return frame


def sees(frame: np.ndarray, dice: int | None) -> Reading:
    values = tuple(int(v) for v in frame[0, :, 0] if v)
    return reading_of(values) if values else reading_of((), "unsure")


def boom(frame: np.ndarray, dice: int | None) -> Reading:
    raise RuntimeError("reader fell over")


def sample(
    name: str, shown: tuple[int, ...], true: tuple[int, ...], refuse: bool = False
) -> Sample:
    return Sample(name, true, lambda: frame_saying(shown), refuse_expected=refuse)


SAMPLES = [
    sample("a.jpg", (1, 2), (1, 2)),
    sample("b.jpg", (3,), (4,)),
    sample("c.jpg", (), (5, 5)),
    sample("d.jpg", (), (6,), refuse=True),
]


def test_measure_tallies_outcomes_and_lists_silent_errors() -> None:
    results = measure(SAMPLES, [Method("seer", sees)], repeat=2, tell_count=False)
    r = results["seer"]
    assert (r.tally.right, r.tally.refused, r.tally.wrong) == (2, 1, 1)
    assert r.tally.correct_refusals == 1 and r.should_refuse == 1
    assert r.wrong == [("b.jpg", (3,), (4,))]
    assert r.reasons == {"blur": 2}
    assert len(r.ms) == 4 and r.median_ms >= 0


def test_a_crashing_reader_is_counted_and_reported() -> None:
    results = measure(SAMPLES[:2], [Method("boom", boom)], repeat=1, tell_count=False)
    assert results["boom"].crashes == 2 and results["boom"].tally.refused == 2
    assert "raised an error (counted refused): boom: 2" in "\n".join(set_table(results))


def test_tell_count_passes_the_true_number_of_dice() -> None:
    told: list[int | None] = []

    def counting(frame: np.ndarray, dice: int | None) -> Reading:
        told.append(dice)
        return sees(frame, dice)

    measure(SAMPLES[:2], [Method("c", counting)], repeat=1, tell_count=True)
    measure(SAMPLES[:1], [Method("c", counting)], repeat=1, tell_count=False)
    assert told == [2, 1, None]


def test_timed_reads_repeat_times() -> None:
    calls = []
    reading, ms = timed(lambda f, d: calls.append(1) or reading_of((4,)), frame_saying(()), None, 3)
    assert len(calls) == 3 and reading.values == (4,) and ms >= 0


def test_set_table_rows() -> None:
    table = set_table(measure(SAMPLES, [Method("seer", sees)], repeat=1, tell_count=False))
    assert table[0].startswith("| method | photos | fully right | refused | silently wrong")
    assert table[2].startswith("| seer | 4 | 2 (50.0 %), 1 of them rightly refused | 1 (25.0 %) |")
    assert "| 1 (25.0 %) | 33.3 % |" in table[2]  # per-die: a 1 2 right of a 1 2, b 4, c 5 5, d 6


def test_speed_lines_ratio_and_pi_estimate() -> None:
    table = {(640, 480): {"dicetray": 10.0, "Golsteyn 2020": 20.0}}
    lines = speed_lines(table, frames=50, repeat=5, here=2955.66)
    assert "| 640×480 | 10.0 | 20.0 | 0.50 |" in lines
    estimate = lines[-1]
    assert "estimate" in estimate and "2.0× slower" in estimate and "20 ms at 640×480" in estimate
    assert "skipped" in speed_lines(table, 50, 5, None)[-1]


def test_write_section_replaces_only_between_markers(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Benchmarks\n\nintro\n\n{START}\nold\n{END}\n\n## Rules\nkept\n")
    write_section(doc, "## Vision\nnew")
    text = doc.read_text()
    assert "old" not in text and f"{START}\n## Vision\nnew\n{END}" in text
    assert text.startswith("# Benchmarks\n\nintro") and text.endswith("## Rules\nkept\n")


def test_write_section_appends_when_no_markers(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n")
    write_section(doc, "## Vision")
    assert doc.read_text() == f"# Benchmarks\n\n{START}\n## Vision\n{END}\n"


def test_progress_report_lists_silent_errors() -> None:
    results = {"matteop65": measure(SAMPLES, [Method("dicetray", sees)], 1, False)}
    report = progress_report(results, "python3 benchmarks/vision.py")
    assert "- b.jpg: read [3] true [4]" in report
    assert "dicetray refusals by reason: blur 2" in report


def test_parse_args_checks_sets_and_size() -> None:
    args = parse_args(["--sets", "matteop65,rendered", "--rendered-size", "1280x960"])
    assert args.sets == ["matteop65", "rendered"] and args.rendered_size == (1280, 960)
    with pytest.raises(SystemExit):
        parse_args(["--sets", "kaggle"])
    with pytest.raises(SystemExit):
        parse_args(["--rendered-size", "big"])
    assert parse_args(["--distort", "motion:9"]).distort == "motion:9"
    assert parse_args(["--distort", "turn:270"]).distort == "turn:270"
    for wrong in ("fog:2", "turn:45"):
        with pytest.raises(SystemExit):
            parse_args(["--distort", wrong])


def test_photos_are_distorted_when_asked(tmp_path: Path) -> None:
    import cv2

    from benchmarks.datasets import Photo
    from benchmarks.vision import photo_samples

    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), np.full((30, 40, 3), 120, np.uint8))
    photo = Photo("test", "roll.png", path, (3,), 1)
    plain, far, turned = (next(iter(photo_samples([photo], how))).load()
                          for how in (None, "zoom-out:2", "turn:90"))
    assert plain.shape == (30, 40, 3) and far.shape == (60, 80, 3)
    assert turned.shape == (40, 30, 3)


def test_speed_times_every_method_at_both_sizes() -> None:
    from benchmarks.vision import SPEED_SIZES, speed

    shapes: list[tuple[int, ...]] = []

    def looks(frame: np.ndarray, dice: int | None) -> Reading:
        shapes.append(frame.shape)
        return reading_of((), "unsure")

    table = speed([Method("a", looks), Method("b", looks)], frames=1, repeat=2, seed=3)
    assert list(table) == list(SPEED_SIZES)
    assert all(set(row) == {"a", "b"} and min(row.values()) >= 0 for row in table.values())
    assert shapes == [(480, 640, 3)] * 4 + [(960, 1280, 3)] * 4


def test_speed_runs_with_the_threads_asked_and_restores_them() -> None:
    from benchmarks.vision import speed

    seen: list[int] = []

    def counts_threads(frame: np.ndarray, dice: int | None) -> Reading:
        seen.append(cv2.getNumThreads())
        return reading_of((), "unsure")

    before = cv2.getNumThreads()
    wanted = 1 if before != 1 else 2
    speed([Method("a", counts_threads)], frames=1, repeat=1, seed=3, threads=wanted)
    assert seen == [wanted, wanted] and cv2.getNumThreads() == before


def test_the_opencv_engine_row_is_timed_only_and_reads_on_that_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os

    from benchmarks.vision import OPENCV_ENGINE, SPEED, methods, on_engine
    from dicetray.vision.networks import ENGINE_VARIABLE

    row = next(m for m in methods() if m.name == OPENCV_ENGINE)
    assert row.only_on == SPEED and not row.told
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    engines: list[str | None] = []

    def notes(frame: np.ndarray, dice: int | None) -> Reading:
        engines.append(os.environ.get(ENGINE_VARIABLE))
        return reading_of((), "unsure")

    on_engine(notes, "opencv")(frame_saying(()), None)
    assert engines == ["opencv"] and ENGINE_VARIABLE not in os.environ


def test_a_told_method_gets_the_count_when_the_others_do_not() -> None:
    told: dict[str, list[int | None]] = {"plain": [], "told": []}

    def noting(name: str):
        def read(frame: np.ndarray, dice: int | None) -> Reading:
            told[name].append(dice)
            return sees(frame, dice)

        return read

    chosen = [Method("plain", noting("plain")), Method("told", noting("told"), told=True)]
    measure(SAMPLES[:2], chosen, repeat=1, tell_count=False)
    assert told == {"plain": [None, None], "told": [2, 1]}


def test_speed_lines_name_the_threads_in_the_text_and_the_estimate() -> None:
    table = {(640, 480): {"dicetray": 10.0, "Golsteyn 2020": 20.0}}
    lines = speed_lines(table, frames=50, repeat=5, here=2955.66, threads=2)
    assert "with 2 OpenCV threads unless the column says otherwise" in lines[0]
    assert "on 2 of its four cores" in lines[-1]
    assert "with 1 OpenCV thread unless" in speed_lines(table, 50, 5, None)[0]


def test_set_table_gives_answered_dice_and_clean_refusals() -> None:
    row = set_table(measure(SAMPLES, [Method("seer", sees)], repeat=1, tell_count=False))[2]
    # answered: a (1 2 of 1 2) and b (3 for 4): 2 of 3 dice; c refused of 3 clean photos
    assert row.endswith("| 66.7 % of 3 dice in 2 photos | 1 (33.3 %) |")


def test_floor_lines_report_each_set_with_a_floor_chosen_on_the_other() -> None:
    def unsure_below(frame: np.ndarray, dice: int | None) -> Reading:
        values = tuple(int(v) for v in frame[0, :, 0] if v)
        dice_read = tuple(DieReading(v, 0.0, 0.0, 0.0, "unknown", 0.1 * v, 10.0)
                          for v in values)
        return Reading("ok", "", dice_read)

    one = measure([sample("a", (2,), (3,)), sample("b", (6,), (6,))],
                  [Method("dicetray", unsure_below)], 1, False)
    two = measure([sample("c", (5,), (5,)), sample("d", (1,), (1,))],
                  [Method("dicetray", unsure_below)], 1, False)
    lines = floor_lines({"one": one, "two": two})
    # chosen on "one": refuse under 0.25 (its silent 2 at 0.2), which refuses two's 1
    assert "| two | one | 0.25 | 1 (50.0 %) | 1 (50.0 %) | 0 (0.0 %) |" in "\n".join(lines)
    assert "| one | two | 0.00 | 1 (50.0 %) | 0 (0.0 %) | 1 (50.0 %) |" in "\n".join(lines)
    assert any("| one | one (tuned on itself) |" in line for line in lines)


def test_real_speed_times_each_method_at_own_size_and_1280x960() -> None:
    shapes: list[tuple[int, ...]] = []

    def looks(frame: np.ndarray, dice: int | None) -> Reading:
        shapes.append(frame.shape)
        return reading_of(())

    table = real_speed([sample("a", (1,), (1,))], [Method("dicetray", looks)], repeat=2)
    assert set(table) == {"own size", "1280×960"}
    assert shapes == [(2, 8, 3)] * 2 + [(960, 1280, 3)] * 2
    lines = real_speed_lines({"set": table}, photos=1, repeat=2)
    assert any(line.startswith("| set | 1280×960 |") for line in lines)
    assert "Pi 4" not in lines[-1]
    assert "with 1 OpenCV thread." in lines[0]
    estimate = real_speed_lines({"set": {"1280×960": {"dicetray": 10.0}}}, 1, 2,
                                here=2955.66)[-1]
    assert "2.0× slower" in estimate and "set 1280×960 20 ms" in estimate
    assert "on one Pi 4 core" in estimate
    # timed on two threads: said so, and the estimate is not one core's
    two = real_speed_lines({"set": {"1280×960": {"dicetray": 10.0}}}, 1, 2, here=2955.66,
                           threads=2)
    assert "with 2 OpenCV threads." in two[0]
    assert "on 2 of a Pi 4's four cores" in two[-1] and "one Pi 4 core" not in two[-1]
