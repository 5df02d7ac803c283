"""Stage 4, the verdict: ``ok`` or ``unsure`` with the reason, from the dice read, the
dice seen but not read, the guesses shown when told more dice than were read, and the
finds left out (each with why).

>>> from dicetray.vision.reading import Reason
>>> REASON_ORDER[0] is Reason.BLUR
True
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from dicetray.vision.detector import Candidate
from dicetray.vision.measure import cut
from dicetray.vision.pipfaces import Die, Doubt, shown_edge
from dicetray.vision.pipscene import Scene, smeared
from dicetray.vision.reading import DieReading, LeftOut, Reading, Reason, UnreadDie, Why

__all__ = ["REASON_ORDER", "UNSURE_READ", "verdict"]

#: Which die's problem gives the roll's reason when several have one: the first here.
REASON_ORDER = (Reason.BLUR, Reason.EDGE, Reason.COCKED, Reason.AMBIGUOUS)
#: The reason given for a die read less surely than ``net_doubt``.
UNSURE_READ = "die at {where} is read too unsurely to answer"
#: The reason's words for a die's problem, when the stage that found it gave none.
_USUAL = {
    Reason.BLUR: "pips blurred at {where}",
    Reason.EDGE: "die cut by the frame edge at {where}",
    Reason.COCKED: "die at {where} is not flat",
    Reason.AMBIGUOUS: "pips of the die at {where} do not fit one face cleanly",
}
#: The words for a face's pips in doubt, by the check that doubted them.
_DOUBTS = {
    Doubt.NO_LAYOUT: "pips of the die at {where} make no face's layout",
    Doubt.UNCLEAR_SPOT: "a spot on the die at {where} is neither clearly a pip nor clearly "
                        "blank face",
    Doubt.SIZE: "die at {where} is not the size of the other dice",
    Doubt.SIDE_FACE: "die at {where} has a rounder-pipped face beside the one read: its top "
                     "face may be the other",
    Doubt.SIDE_PIP: "die at {where} reads 2, but one of its pips may be a side face's",
    Doubt.LONE_PIP: "die at {where} reads 1, but its face shows marks beside the pip",
    Doubt.BARE: "die at {where} showed no pips at first, and may show no face",
    Doubt.CLOSER: "die at {where} shows more pips looked at closer than at first",
}


def zone(calibration: Any, x: float, y: float) -> str:
    """The calibration's zone of a point (frame px), ``unknown`` without one."""
    zone_of = getattr(calibration, "zone_of", None)
    if zone_of is None:
        return "unknown"
    try:
        where = str(zone_of(x, y))
    except Exception:  # a calibration that cannot place a point leaves the zone unknown
        return "unknown"
    return where if where in ("tray", "ledge") else "unknown"


def verdict(sc: Scene, found: list[Die], unread: list[Die], guessed: list[Die],
            finds: list[Candidate], why: dict[Candidate, Why], told: int | None,
            calibration: Any, start: float) -> Reading:
    """The answer for one frame read at the scene ``sc``: the dice read (``found``), those
    seen but not read, the ``guessed`` ones, every find of the detector (those not shown,
    each with its reason in ``why``, or faint or bare), ``told`` the dice expected;
    ``start`` is when the reading began (:func:`time.perf_counter`)."""
    s, st = sc.scale, sc.st
    for die in found:
        if not die.problem and die.confidence < st.net_doubt:
            die.problem, die.detail = Reason.AMBIGUOUS, UNSURE_READ
    # a face its pips place at the frame's edge is cut, wherever the detector saw its
    # die: a 2 the edge cuts through shows one pip, read as a 1, its find centred on the
    # part inside (the frame's size to within half a working pixel)
    frame = (sc.work.shape[1] / s, sc.work.shape[0] / s)
    for die in found:
        if not die.problem and die.found is not None and cut(
                replace(die.found, x=float(die.fit.centre[0]) / s,
                        y=float(die.fit.centre[1]) / s), frame, st.cut_die):
            die.problem = Reason.EDGE
    count = len(found) + len(unread)
    readings = tuple(
        DieReading(
            value=die.value,
            x=float(die.fit.centre[0]) / s,
            y=float(die.fit.centre[1]) / s,
            angle=die.fit.angle if die.value > 1 else 0.0,
            zone=zone(calibration, float(die.fit.centre[0]) / s, float(die.fit.centre[1]) / s),
            confidence=die.confidence,
            size=shown_edge(sc, die),
            problem=_problem(die, s),
        )
        for die in sorted((*found, *guessed), key=lambda d: (d.fit.centre[1], d.fit.centre[0]))
    )
    not_read = tuple(
        UnreadDie(float(die.fit.centre[0]) / s, float(die.fit.centre[1]) / s,
                  die.found.size if die.found is not None else shown_edge(sc, die),
                  _problem(die, s))
        for die in sorted(unread, key=lambda d: (d.fit.centre[1], d.fit.centre[0]))
        if die.problem)
    reason = ""
    problems = [die for die in (*found, *unread) if die.problem]
    if problems:
        kind = min((d.problem for d in problems if d.problem), key=REASON_ORDER.index)
        reason = _problem(next(d for d in problems if d.problem == kind), s)
    elif told is not None and count != told:
        reason = f"{Reason.WRONG_COUNT}: expected {told} dice, found {count}"
        if guessed:
            reason += f" ({len(guessed)} more shown as a guess)"
    elif not found and told != 0:
        reason = (f"{Reason.BLUR}: the frame is smeared, no pips sharp enough to read"
                  if smeared(sc) else f"{Reason.NO_DICE}: nothing die-like in the frame")
    shown = {d.found for d in (*found, *unread, *guessed)}
    passed_by = tuple(
        LeftOut(c.x, c.y, c.size, why.get(c, Why.FAINT if c.score < st.keep_find else Why.BARE))
        for c in finds if c not in shown)
    ms = (time.perf_counter() - start) * 1000
    return Reading("unsure" if reason else "ok", reason, readings, ms, passed_by, not_read)


def _problem(die: Die, s: float) -> str:
    """Why the roll is refused for ``die`` (a reason, its place in frame px at the scale
    ``s`` read), ``""`` when it is not."""
    if not die.problem:
        return ""
    where = f"({die.fit.centre[0] / s:.0f}, {die.fit.centre[1] / s:.0f})"
    detail = die.detail or (_DOUBTS[die.doubt] if die.problem is Reason.AMBIGUOUS and die.doubt
                            else _USUAL[die.problem])
    return f"{die.problem}: {detail.format(where=where)}"
