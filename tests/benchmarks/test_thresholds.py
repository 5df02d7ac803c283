"""The count of the numbers the reader decides by: every setting's number is counted, in
the stage modules of the work tree."""

from __future__ import annotations

import dataclasses

from benchmarks.thresholds import STAGES, count
from dicetray.vision.settings import ReaderSettings


def _numbers(value: object) -> int:
    if isinstance(value, tuple):
        return sum(_numbers(v) for v in value)
    return int(isinstance(value, (int, float)) and not isinstance(value, bool))


def test_every_number_of_the_settings_is_counted_in_the_stage_modules() -> None:
    per = count("WT")
    assert set(per) == {f"vision/{m}.py" for m in STAGES}
    # keep_find is the detector's own THRESHOLD, named there: no number written here
    written = sum(_numbers(f.default) for f in dataclasses.fields(ReaderSettings)
                  if f.name != "keep_find")
    assert per["vision/settings.py"].settings == written
    assert sum(c.settings for c in per.values()) == written
