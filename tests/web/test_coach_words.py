"""The coach's words on the page are the page's own, in English and German: the server
sends a reason code (and the rule refused), never only an English sentence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dicetray.firmware.service import CoachReason
from dicetray.rules.advisor.errors import Refusal

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
COACH_JS = (STATIC / "js" / "coach.js").read_text(encoding="utf-8")


def words(lang: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_reason_and_refusal_has_its_words(lang: str) -> None:
    found = words(lang)
    wanted = [f"coach.reason.{r}" for r in CoachReason] + [f"coach.refused.{r}" for r in Refusal]
    missing = [key for key in wanted if not found.get(key, "").strip()]
    assert not missing, f"{lang}.json lacks {missing}"
    assert "{percent}" in found["coach.computing"]


def test_the_german_words_are_not_the_english_ones() -> None:
    en, de = words("en"), words("de")
    keys = [k for k in en if k.startswith(("coach.reason.", "coach.refused.", "coach.computing"))]
    assert keys and all(en[k] != de[k] for k in keys)


def test_the_page_builds_its_words_from_the_codes() -> None:
    """coach.js looks the reason and the refusal up (the server's English only when a code
    is unknown to this page), and shows the progress while the coach computes."""
    assert re.search(r"`coach\.reason\.\$\{answer\.reason\}`", COACH_JS)
    assert re.search(r"`coach\.refused\.\$\{answer\.refusal\}`", COACH_JS)
    assert 't("coach.computing", { percent:' in COACH_JS
    assert "why: advice.why" not in COACH_JS and "why: analysis.why" not in COACH_JS


def test_every_unavailable_answer_of_the_service_carries_a_known_reason(sim_tray) -> None:
    table = sim_tray(seed=11).table
    answers = [table.advice()]
    table.new_game(table.version, "mickey", ["Ann", "Bo"])
    answers.append(table.advice())
    table.roll(table.version)
    answers += [table.advice(), table.advice(1)]
    reasons = [a["reason"] for a in answers]
    assert reasons == ["no-game", "not-rolled", "refused", "not-this-player"]
    assert answers[2]["refusal"] in set(Refusal)
