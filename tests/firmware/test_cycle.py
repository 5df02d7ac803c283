"""The roll cycle's transitions: every path, no threads, no sleeps."""

from __future__ import annotations

import pytest

from dicetray.firmware.config import CycleConfig
from dicetray.firmware.cycle import (
    RETUMBLE_FIXES,
    Action,
    CameraBack,
    CameraLost,
    Cycle,
    Phase,
    ReadAgain,
    ReadDone,
    Resolved,
    RollAsked,
    Settled,
    SettleTimedOut,
    Stalled,
    Trouble,
    Tumbled,
    step,
)
from dicetray.vision import Reason


def run(events, cycle=None, settings=None):
    """Feed events one by one; the phases passed through and the actions asked for."""
    cycle, settings = cycle or Cycle(), settings or CycleConfig()
    phases, actions = [], []
    for event in events:
        cycle, todo = step(cycle, event, settings)
        phases.append(str(cycle.phase))
        actions.extend(str(a) for a in todo)
    return cycle, phases, actions


class TestSureRoll:
    def test_a_sure_reading_goes_round_to_idle_and_is_applied(self):
        cycle, phases, actions = run([RollAsked(), Tumbled(), Settled(), ReadDone("ok")])
        assert phases == ["tumbling", "settling", "reading", "idle"]
        assert actions == ["tumble", "watch", "read", "apply"]
        assert cycle == Cycle()

    def test_busy_only_while_the_cup_camera_or_reader_work(self):
        assert [Cycle(p).busy for p in Phase] == [False, True, True, True, False, False]


class TestRetumble:
    @pytest.mark.parametrize("kind", sorted(RETUMBLE_FIXES))
    def test_a_reason_a_tumble_fixes_tumbles_again_up_to_the_limit(self, kind):
        unsure = ReadDone("unsure", f"{kind}: somewhere")
        round_ = [Tumbled(), Settled(), unsure]
        cycle, _, actions = run([RollAsked(), *round_, *round_, *round_],
                                     settings=CycleConfig(retumbles=2))
        assert actions.count("tumble") == 3
        assert cycle.phase is Phase.NEEDS_HELP and cycle.tumbles == 3
        assert cycle.why == f"{kind}: somewhere"
        assert actions[-1] == "ask"

    @pytest.mark.parametrize("kind", ["blur", "ambiguous", "no-dice"])
    def test_a_reason_a_tumble_cannot_fix_asks_the_players_at_once(self, kind):
        cycle, _, actions = run([RollAsked(), Tumbled(), Settled(),
                                 ReadDone("unsure", f"{kind}: x")])
        assert cycle.phase is Phase.NEEDS_HELP and actions.count("tumble") == 1

    def test_no_retumbles_configured_asks_after_the_first(self):
        cycle, _, _ = run([RollAsked(), Tumbled(), Settled(), ReadDone("unsure", "cocked: x")],
                          settings=CycleConfig(retumbles=0))
        assert cycle.phase is Phase.NEEDS_HELP


class TestHelpAndErrors:
    def test_players_resolve_a_needs_help_back_to_idle(self):
        cycle, phases, _ = run([RollAsked(), Tumbled(), Settled(), ReadDone("unsure", "blur: x"),
                                Resolved()])
        assert phases[-1] == "idle" and cycle.why == ""

    def test_a_stall_is_an_error_and_a_new_roll_tries_again(self):
        cycle, _, _ = run([RollAsked(), Stalled("home not reached in 3 s")])
        assert cycle.phase is Phase.ERROR and cycle.why == "home not reached in 3 s"
        cycle, todo = step(cycle, RollAsked())
        assert cycle.phase is Phase.TUMBLING and todo == (Action.TUMBLE,)

    def test_settling_that_never_ends_asks_the_players(self):
        cycle, _, _ = run([RollAsked(), Tumbled(), SettleTimedOut("a hand in the tray")])
        assert cycle.phase is Phase.NEEDS_HELP and cycle.why == "a hand in the tray"

    def test_read_again_without_tumbling_from_needs_help(self):
        cycle, _, _ = run([RollAsked(), Tumbled(), Settled(), ReadDone("unsure", "blur: x")])
        cycle, todo = step(cycle, ReadAgain())
        assert cycle.phase is Phase.SETTLING and todo == (Action.WATCH,)

    @pytest.mark.parametrize("event", [RollAsked(), Resolved(), ReadAgain(), Tumbled()])
    def test_events_out_of_turn_change_nothing(self, event):
        for phase in (Phase.TUMBLING, Phase.SETTLING, Phase.READING):
            if isinstance(event, Tumbled) and phase is Phase.TUMBLING:
                continue
            cycle = Cycle(phase, 1)
            assert step(cycle, event) == (cycle, ())


class TestCameraLost:
    def test_a_camera_lost_while_watching_asks_for_the_dice_by_hand(self):
        cycle, _, actions = run([RollAsked(), Tumbled(), CameraLost("opencv: read failed")])
        assert cycle.phase is Phase.NEEDS_HELP and cycle.manual
        assert cycle.why == "opencv: read failed" and actions[-1] == "ask"

    def test_without_a_camera_the_cup_still_tumbles_then_the_players_type(self):
        cycle, phases, actions = run([CameraLost("no camera"), RollAsked(), Tumbled()])
        assert phases == ["idle", "tumbling", "needs-help"]
        assert actions == ["tumble", "ask"]
        cycle, _ = step(cycle, Resolved())
        assert cycle.phase is Phase.IDLE and cycle.manual and cycle.why == "no camera"

    def test_a_camera_that_comes_back_reads_again(self):
        cycle, _, _ = run([CameraLost("unplugged"), CameraBack()])
        assert not cycle.manual and cycle.why == ""
        _, _, actions = run([RollAsked(), Tumbled()], cycle)
        assert actions == ["tumble", "watch"]


class TestTrouble:
    """What is wrong, as a word the phones translate; the English detail stays in ``why``."""

    @pytest.mark.parametrize(("events", "trouble"), [
        ([RollAsked(), Stalled("jammed")], Trouble.STALLED),
        ([RollAsked(), Tumbled(), SettleTimedOut()], Trouble.SETTLE_TIMEOUT),
        ([RollAsked(), Tumbled(), CameraLost("unplugged")], Trouble.CAMERA_LOST),
        ([RollAsked(), Tumbled(), Settled(), ReadDone("unsure", "blur: smeared")], Trouble.BLUR),
        ([RollAsked(), Tumbled(), Settled(), ReadDone("unsure", "odd: new")], Trouble.UNSURE),
    ])
    def test_each_way_to_need_help_names_its_trouble(self, events, trouble):
        cycle, _, _ = run(events, settings=CycleConfig(retumbles=0))
        assert cycle.phase in (Phase.NEEDS_HELP, Phase.ERROR)
        assert cycle.trouble is trouble and cycle.why

    def test_every_reason_of_the_reader_is_a_trouble_of_its_own(self):
        for reason in Reason:
            assert Trouble.of_reading(str(reason)) == str(reason)

    def test_the_trouble_goes_with_the_next_roll_but_a_lost_camera_stays(self):
        cycle, _, _ = run([RollAsked(), Stalled("jammed"), RollAsked()])
        assert cycle.trouble is Trouble.NONE and cycle.why == ""
        cycle, _, _ = run([CameraLost("unplugged"), RollAsked(), Tumbled(), Resolved()])
        assert cycle.trouble is Trouble.CAMERA_LOST and cycle.manual
        cycle, _, _ = run([CameraBack()], cycle=cycle)
        assert cycle.trouble is Trouble.NONE and not cycle.manual
