"""The roll cycle as a pure transition function: a state, an event, the next state and what
to do next.

``idle → tumbling → settling → reading → idle`` (the dice applied to the game), or back to
``tumbling`` when the reading is unsure for a reason a re-tumble fixes (a cocked die, a
die off the tray, the wrong count; at most :attr:`CycleSettings.retumbles` times), or
``needs-help`` (the phone shows the frame and the reader's guesses; the players confirm or
correct), and ``error`` when the cup stalls. Its numbers come from the tray's config
(:class:`~dicetray.firmware.config.CycleConfig`). A lost camera turns the tray to dice entered
by hand: the cup still tumbles, and the players type what they see.

Nothing here waits, captures or moves a motor: :func:`step` returns :class:`Action` values
that the thin loop in :mod:`dicetray.firmware.table` carries out, feeding what happened back
in as events. So every path is testable without threads or sleeps:

>>> settings = CycleConfig(retumbles=1)
>>> def show(cycle, actions):
...     return str(cycle.phase), cycle.tumbles, [str(a) for a in actions]
>>> cycle, actions = step(Cycle(), RollAsked(), settings)
>>> show(cycle, actions)
('tumbling', 1, ['tumble'])
>>> cycle, actions = step(cycle, Tumbled(), settings)
>>> show(cycle, actions)
('settling', 1, ['watch'])
>>> cycle, actions = step(cycle, Settled(), settings)
>>> cycle, actions = step(cycle, ReadDone("unsure", "cocked: die at (3, 4) leans"), settings)
>>> show(cycle, actions)  # a cocked die: tumble again
('tumbling', 2, ['tumble'])
>>> cycle, _ = step(step(cycle, Tumbled(), settings)[0], Settled(), settings)
>>> cycle, actions = step(cycle, ReadDone("unsure", "cocked: die at (3, 4) leans"), settings)
>>> show(cycle, actions)  # re-tumbled once already: ask the players
('needs-help', 2, ['ask'])
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from dicetray.firmware.config import CycleConfig

__all__ = [
    "RETUMBLE_FIXES",
    "Action",
    "CameraBack",
    "CameraLost",
    "Cycle",
    "CycleEvent",
    "Phase",
    "ReadAgain",
    "ReadDone",
    "Resolved",
    "RollAsked",
    "SettleTimedOut",
    "Settled",
    "Stalled",
    "Trouble",
    "Tumbled",
    "rested",
    "step",
]


class Phase(StrEnum):
    """Where the roll cycle is (the ``cycle`` field of the API's state)."""

    IDLE = "idle"
    TUMBLING = "tumbling"
    SETTLING = "settling"
    READING = "reading"
    NEEDS_HELP = "needs-help"
    ERROR = "error"


class Action(StrEnum):
    """What the loop does next."""

    TUMBLE = "tumble"  # run the cup's tumble pattern
    WATCH = "watch"  # capture frames until the tray is still
    READ = "read"  # read the settled frame
    APPLY = "apply"  # the reading is sure: its dice go into the game
    ASK = "ask"  # show the frame and guesses; wait for the players' values


class Trouble(StrEnum):
    """What is wrong, as a word each phone shows in its own language (``Cycle.why`` keeps
    the English detail): the cycle's own troubles and the reader's reasons for an unsure
    reading (the leading words of :class:`dicetray.vision.Reading`'s ``reason``)."""

    NONE = ""
    STALLED = "stalled"  # the cup did not get home
    CAMERA_LOST = "camera-lost"  # no camera: dice are entered by hand
    SETTLE_TIMEOUT = "settle-timeout"  # the tray did not come to rest
    NOT_ENTERED = "not-entered"  # the dice read do not fit the turn, or could not be saved
    UNSURE = "unsure"  # an unsure reading whose reason has no leading word known here
    WRONG_COUNT = "wrong-count"
    COCKED = "cocked"
    EDGE = "edge"
    BLUR = "blur"
    AMBIGUOUS = "ambiguous"
    NO_DICE = "no-dice"
    OVERLAP = "overlap"

    @classmethod
    def of_reading(cls, kind: str) -> Trouble:
        """The trouble of an unsure reading whose reason starts with ``kind``.

        >>> Trouble.of_reading("cocked"), Trouble.of_reading("sleepy")
        (<Trouble.COCKED: 'cocked'>, <Trouble.UNSURE: 'unsure'>)
        """
        known = kind in cls._value2member_map_ and kind != ""
        return cls(kind) if known else cls.UNSURE


#: Reasons of an unsure reading that a fresh tumble can cure (the reader's leading words).
RETUMBLE_FIXES = frozenset({"cocked", "edge", "wrong-count", "overlap"})


@dataclass(frozen=True)
class Cycle:
    """The cycle's state: its phase, how many tumbles this roll took, and why it needs help
    (or failed): ``trouble`` as a word, ``why`` in English detail; ``manual`` once the camera
    is lost (dice are entered by hand)."""

    phase: Phase = Phase.IDLE
    tumbles: int = 0
    why: str = ""
    manual: bool = False
    trouble: Trouble = Trouble.NONE

    @property
    def busy(self) -> bool:
        """True while the cup, the camera or the reader is at work."""
        return self.phase in (Phase.TUMBLING, Phase.SETTLING, Phase.READING)


# -- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollAsked:
    """The button was pressed or a phone asked to roll."""


@dataclass(frozen=True)
class ReadAgain:
    """Read the tray again without tumbling (after a player straightened a die by hand)."""


@dataclass(frozen=True)
class Tumbled:
    """The cup finished its pattern and is home."""


@dataclass(frozen=True)
class Stalled:
    """The cup did not get home (the motor is stopped)."""

    why: str


@dataclass(frozen=True)
class Settled:
    """The tray has been still long enough; the last frame is the one to read."""


@dataclass(frozen=True)
class SettleTimedOut:
    """The tray did not come to rest in time (a hand in the tray, a die still rocking)."""

    why: str = "the tray did not come to rest"


@dataclass(frozen=True)
class ReadDone:
    """The reader's verdict on the settled frame."""

    status: str
    reason: str = ""

    @property
    def kind(self) -> str:
        return self.reason.split(":", 1)[0].strip()


@dataclass(frozen=True)
class CameraLost:
    """The camera failed (unplugged, no frames): from now on dice are entered by hand."""

    why: str


@dataclass(frozen=True)
class CameraBack:
    """A camera answers again."""


@dataclass(frozen=True)
class Resolved:
    """The players confirmed or corrected the dice (or dismissed an error)."""


CycleEvent = (
    RollAsked | ReadAgain | Tumbled | Stalled | Settled | SettleTimedOut | ReadDone | CameraLost
    | CameraBack | Resolved
)


# -- the transition function ------------------------------------------------------------------


def step(
    cycle: Cycle, event: CycleEvent, settings: CycleConfig | None = None
) -> tuple[Cycle, tuple[Action, ...]]:
    """The next state of the cycle and the actions to carry out, for one event.

    An event that does not fit the phase (a roll asked while tumbling, a late frame)
    leaves the cycle as it is with nothing to do: the button's presses during a roll are
    ignored here, whatever the device did.

    >>> step(Cycle(Phase.TUMBLING, 1), RollAsked())[1]
    ()
    >>> cycle, actions = step(Cycle(), CameraLost("opencv: read failed"))
    >>> cycle.manual, step(cycle, RollAsked())[0].phase
    (True, <Phase.TUMBLING: 'tumbling'>)
    >>> cycle, actions = step(step(cycle, RollAsked())[0], Tumbled())
    >>> str(cycle.phase), cycle.why, [str(a) for a in actions]  # the players type the dice
    ('needs-help', 'opencv: read failed', ['ask'])
    >>> str(cycle.trouble)
    'camera-lost'
    """
    settings = settings or CycleConfig()
    phase = cycle.phase
    lost = Trouble.CAMERA_LOST
    match event:
        case CameraLost(why=why):
            if phase in (Phase.SETTLING, Phase.READING):
                return replace(cycle, phase=Phase.NEEDS_HELP, why=why, manual=True,
                               trouble=lost), (Action.ASK,)
            return replace(cycle, why=why, manual=True, trouble=lost), ()
        case CameraBack():
            if not cycle.manual:
                return cycle, ()
            if phase in (Phase.IDLE, Phase.TUMBLING):
                return replace(cycle, manual=False, why="", trouble=Trouble.NONE), ()
            return replace(cycle, manual=False), ()
        case RollAsked() if phase in (Phase.IDLE, Phase.NEEDS_HELP, Phase.ERROR):
            return replace(rested(cycle), phase=Phase.TUMBLING, tumbles=1), (Action.TUMBLE,)
        case ReadAgain() if phase is Phase.NEEDS_HELP and not cycle.manual:
            return replace(cycle, phase=Phase.SETTLING), (Action.WATCH,)
        case Tumbled() if phase is Phase.TUMBLING:
            if cycle.manual:
                return replace(cycle, phase=Phase.NEEDS_HELP), (Action.ASK,)
            return replace(cycle, phase=Phase.SETTLING), (Action.WATCH,)
        case Stalled(why=why) if phase is Phase.TUMBLING:
            return replace(cycle, phase=Phase.ERROR, why=why, trouble=Trouble.STALLED), ()
        case Settled() if phase is Phase.SETTLING:
            return replace(cycle, phase=Phase.READING), (Action.READ,)
        case SettleTimedOut(why=why) if phase is Phase.SETTLING:
            return replace(cycle, phase=Phase.NEEDS_HELP, why=why,
                           trouble=Trouble.SETTLE_TIMEOUT), (Action.ASK,)
        case ReadDone() if phase is Phase.READING:
            if event.status == "ok":
                return Cycle(manual=cycle.manual), (Action.APPLY,)
            trouble = Trouble.of_reading(event.kind)
            if event.kind in RETUMBLE_FIXES and cycle.tumbles <= settings.retumbles:
                return replace(cycle, phase=Phase.TUMBLING, tumbles=cycle.tumbles + 1,
                               why=event.reason, trouble=trouble), (Action.TUMBLE,)
            return replace(cycle, phase=Phase.NEEDS_HELP, why=event.reason,
                           trouble=trouble), (Action.ASK,)
        case Resolved() if phase in (Phase.NEEDS_HELP, Phase.ERROR):
            return rested(cycle), ()
    return cycle, ()


def rested(cycle: Cycle) -> Cycle:
    """The cycle at rest: only a lost camera's trouble outlasts a roll.

    >>> rested(Cycle(Phase.ERROR, 2, "stalled", trouble=Trouble.STALLED)) == Cycle()
    True
    """
    if cycle.manual:
        return Cycle(why=cycle.why, manual=True, trouble=cycle.trouble)
    return Cycle()
