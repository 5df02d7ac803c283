"""Stage 3, the second opinion: a face classifier (a
:class:`~dicetray.vision.parts.FaceClassifier`) reads each die's crop as a whole, and its
answer is weighed against the pips'.

A find it calls no die (a key, a plug, a coin) is dropped unless the frame cuts it; one
the frame cuts on which it reads no face refuses the roll without showing a value; where
it reads another value than the pips, the die is read again from its top face alone (a
slanted view's side-face pip left out) or with that value's layout laid on its grid
(pips the finder missed or ran together added, none it read dropped) and, if that does
not settle it, refused; a face the pips read in doubt it settles when it is sure of
their value, or of another that the top face alone, or its grid with that layout laid on
it, reads as; a lone spot on a faint find is no die unless it is sure of the 1; a die
the pips could not read it reads alone when sure, and a find without pips it calls a
moving or leaning die is refused, and one it reads unsurely is shown in doubt when it
looks like the dice read (:mod:`dicetray.vision.kinship`); so is a find the detector
scores too low to keep that is smeared one way and that it is sure shows no face (a die
blurred mid-tumble). Where it reads two or more clean faces of a frame otherwise and the
top faces' pips bear out none of its values, it is not reading these dice: its
disagreement is set aside there, and so it is against a clean face whose pips fit a
layout the calibration learnt from the tray's own dice where that is unlike the usual
one.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np

from dicetray.vision.classifier import CLASSES, TURNS
from dicetray.vision.detector import Candidate
from dicetray.vision.faces import inside
from dicetray.vision.kinship import (
    could_be_kin,
    cut_off_die,
    cut_off_dim,
    cut_off_kin,
    look_alike,
    odd_one_out,
    set_apart,
)
from dicetray.vision.measure import cut, near, patch_roundness, reaches_past
from dicetray.vision.parts import FaceClassifier, Teacher
from dicetray.vision.pipcheck import check, dice_size, like_size, read_laid, spots
from dicetray.vision.pipfaces import (
    Die,
    Doubt,
    doubt,
    look_closer,
    read_apart,
    read_as,
    shown_edge,
    take,
    unread_at,
)
from dicetray.vision.pipscene import Scene
from dicetray.vision.reading import Reason, Why
from dicetray.vision.settings import ReaderSettings

__all__ = ["CUT_NONE", "MOVING", "Early", "Opinion", "guesses", "one_die_a_pip"]

#: What the classifier read on a find before the pips were read: the first view's answer,
#: and the next views' (k x 8) where it read them ahead (else None), see
#: :meth:`dicetray.vision.classifier.Ahead.rows`.
Early = tuple[np.ndarray, np.ndarray | None]

_UNREADABLE, _NONE = CLASSES.index("unreadable"), CLASSES.index("none")
#: The reason given for a find cut by the frame on which the classifier reads no face
#: (it calls it no die, or a die with no readable face): it may be a die (the classifier
#: never saw one cut), so the roll is refused, but no value is shown for it.
CUT_NONE = "something cut by the frame edge at {where} may be a die"
#: The reason given for a die smeared by motion.
MOVING = "die at {where} is moving: smeared, no face can be read"


@dataclass(frozen=True)
class Opinion:
    """The second opinion on one frame: its ``classifier`` (its answers read by a
    ``teaching`` when given) on the frame ``img`` whose pips' scene is ``sc``."""

    img: np.ndarray
    sc: Scene
    classifier: FaceClassifier
    teaching: Teacher | None = None

    @property
    def st(self) -> ReaderSettings:
        """The settings the frame is read with (the scene's)."""
        return self.sc.st

    def weigh(self, dice: list[Die], unread: list[Die], bare: list[Die],
              faint: list[Candidate], early: dict[Candidate, Early],
              why: dict[Candidate, Why], dim: list[Candidate] | None = None
              ) -> tuple[list[Die], list[Die], list[tuple[Candidate, np.ndarray]]]:
        """Ask the classifier about every die found, drop the finds it says are no die
        (``likely``), and weigh its answer against the pips' (:meth:`weigh_read`,
        :meth:`_weigh_unread`); a find the frame cuts on which it reads no face is kept
        unread, to refuse the roll without a value (:data:`CUT_NONE`); a ``faint`` find
        it sees as a die smeared by motion is a moving die (:meth:`moving`), and so is a
        die the pips read on a smeared find it likeliest calls unreadable; a ``faint`` find
        like the dice read is shown in doubt (:meth:`_faint_kin`), and one the frame cuts
        that shows a pip like theirs refuses the roll (:meth:`_cut_off`), as does any find
        left out that is centred beyond the frame's edge and shows one; so does a ``dim``
        find (under the faint finds), or any find left out centred beyond the frame's
        edge, on a patch of the dice's colour the frame cuts
        (:func:`~dicetray.vision.kinship.cut_off_dim`). ``early`` holds its answers, read
        once, on the finds it was asked about before the pips were read (its first view,
        and the next ones where it read them ahead); ``why`` gets why each find it leaves
        out is left out.
        Returns (dice, unread, left out): the last, each find no die stands for, with the
        classifier's probabilities (see :func:`guesses`)."""
        img, sc, st = self.img, self.sc, self.st
        finds = [d.found for d in (*dice, *unread, *bare) if d.found is not None]
        moving = [unread_at(sc, c, Reason.BLUR, MOVING) for c in self.moving(faint, finds)]
        every = [*dice, *unread, *bare]  # each one a find of the detector (see confirm)
        if not every:
            return dice, [*unread, *moving], []
        seen = self._opinions(every, early)
        if self.teaching is not None:  # read by the prototypes of the dice confirmed here
            seen = {k: self.teaching.second_opinion(p) for k, p in seen.items()}
        # a face read only by looking closer stands only where the classifier reads a value
        # but is unsure of it, or is unsure the die shows no readable face (then in doubt);
        # elsewhere the find is weighed as before it was looked at again
        kept = []
        for die in dice:
            p = seen[id(die)]
            best = int(np.argmax(p))
            if die.fallback is None:
                kept.append(die)
                continue
            placeholder, is_bare = die.fallback
            # one spot looked for closer on a find the detector is unsure of and that
            # showed no pips at first: a speck or a screw, as often as a die showing 1
            faint_one = (is_bare and die.value == 1 and die.found is not None
                         and die.found.score < st.sure_find)
            if (best not in (_UNREADABLE, _NONE) and float(p[best]) < st.net_sure
                    and not faint_one):
                kept.append(die)
                continue
            # on a find the detector is sure of that the classifier, unsurely, calls a die
            # with no readable face, the face the pips read closer is shown, in doubt (left
            # to the classifier, such a find is dropped as a key or a clip)
            if (best == _UNREADABLE and float(p[best]) < st.fairly_sure
                    and die.found is not None and die.found.score >= st.sure_find):
                doubt(die, Doubt.BARE)
                kept.append(die)
                continue
            seen[id(placeholder)] = p
            (bare if is_bare else unread).append(placeholder)
        dice = kept
        # a thing on the table the detector took for a die, whatever its marks read as
        # (the classifier never saw a die cut by the frame: such a find stays, refused)
        frame = (float(img.shape[1]), float(img.shape[0]))
        for d in (*dice, *unread, *bare):
            if d.found is not None and float(seen[id(d)][_NONE]) >= st.likely:
                why[d.found] = Why.NO_DIE
        dice, unread, bare = ([d for d in group if float(seen[id(d)][_NONE]) < st.likely
                               or d.found is None or reaches_past(d.found, frame)]
                              for group in (dice, unread, bare))
        rescued, unread = self._weigh_unread(unread, bare, seen, finds, why, dice)
        unread, unlike = set_apart(img, unread, dice, st)
        moving, unlike_moving = set_apart(img, moving, dice, st)
        for d in (*unlike, *unlike_moving):
            if d.found is not None:
                why[d.found] = Why.UNLIKE
        taken = {id(d) for d in (*rescued, *unread)}
        rescued += look_alike(img, [d for d in bare if id(d) not in taken], [*dice, *rescued],
                              unread, seen, finds, st)
        rescued += self._faint_kin(faint, [*dice, *rescued], [*unread, *moving], finds, seen,
                                   why)
        # pips read on a find smeared one way that the classifier is sure shows no face: a
        # die moving, whose streaked pips happened to make a face
        for die in dice:
            if (not die.problem and die.found is not None
                    and int(np.argmax(seen[id(die)])) == _UNREADABLE
                    and self.moving([die.found], finds, seen[id(die)], st.net_sure)):
                die.problem, die.detail = Reason.BLUR, MOVING
        for die in dice:
            self._flat_after_all(die, seen[id(die)], dice)
            self._fewer_than_seen(die, seen[id(die)])
        answered = one_die_a_pip(sc, [*self.weigh_read(dice, seen, why), *rescued], why)
        odd_one_out(img, answered, seen, st)
        # a find the frame cuts shows a value only where the classifier reads a face there
        # (a cut die's pips may be outside; keys at the border make pip-like spots)
        hidden = [d for d in answered if d.found is not None
                  and reaches_past(d.found, frame)
                  and int(np.argmax(seen[id(d)])) in (_UNREADABLE, _NONE)]
        hidden_ids = {id(d) for d in hidden}
        answered = [d for d in answered if id(d) not in hidden_ids]
        # such a find, or one whose marks read as a face that would refuse the roll
        # (blurred, cocked, in doubt) where the classifier likeliest sees no die, is no
        # die where it is unlike the dice read cleanly in colour and its marks stand out
        # the other way (a laptop's key, its glyph read as pips), as for a find no face
        # was read on
        troubled = [d for d in answered
                    if d.problem and int(np.argmax(seen[id(d)])) == _NONE]
        _, strangers = set_apart(img, [*hidden, *troubled], answered, st, faces=True)
        apart = {id(d) for d in strangers}
        answered = [d for d in answered if id(d) not in apart]
        cut_off = [unread_at(sc, d.found, Reason.EDGE, CUT_NONE)
                   for d in hidden if d.found is not None and id(d) not in apart]
        for d in strangers:
            if d.found is not None:
                why[d.found] = Why.UNLIKE
        # a faint find the frame cuts, alone or showing a pip like the dice's: a die half
        # out of view; and so, whatever it was left out for, a find centred beyond the
        # frame's edge that shows a pip like the dice's: the rules that left it out weighed
        # a sliver's colour, shape and face, some against the dice as the pips read them,
        # before the classifier settled those in doubt (a die in doubt is none to compare
        # a pip with)
        cut_off += self._cut_off(faint, [*answered, *unread, *moving, *cut_off], answered,
                                 why)
        weighed = {c for c in faint if c not in why}  # (just now, against the same dice)
        beyond = [c for c in dict.fromkeys((*finds, *faint)) if cut(c, frame, 0.0)]
        cut_off += self._cut_off([c for c in beyond if c not in weighed],
                                 [*answered, *unread, *moving, *cut_off], answered, {},
                                 plain_floor=False)
        # fainter still, a die a third inside the frame or less: a strip of the dice's
        # colour, with a dim find or none (the detector learnt whole dice); and so,
        # whatever its score, a find left out that is centred beyond the frame's edge: what
        # it is shows only in the strip
        shown_finds = [d.found for d in (*answered, *unread, *moving, *cut_off)
                       if d.found is not None]
        beyond = [c for c in beyond if c not in shown_finds]
        cut_off += [unread_at(sc, c, Reason.EDGE, CUT_NONE)
                    for c in cut_off_dim(img, [*(dim or []), *beyond], answered, shown_finds,
                                         st)]
        unread = [*unread, *moving, *cut_off]
        shown = {d.found for d in (*answered, *unread)}
        left_out = {d.found: seen[id(d)] for d in every
                    if d.found is not None and d.found not in shown}
        return answered, unread, list(left_out.items())

    def _opinions(self, every: list[Die],
                  early: dict[Candidate, Early]) -> dict[int, np.ndarray]:
        """The classifier's probabilities per die (by ``id``), each read once (taken from
        ``early`` where it was read already), and again in four views (quarter turns) where
        the answer decides something: a die the pips did not read, or read unlike the
        classifier; and in the mirror image's four where those four disagree or are not
        sure (``net_sure``) of their answer. The views ``early`` read ahead are not read
        again."""
        finds = [d.found for d in every]
        assert all(f is not None for f in finds)
        # cropped where the detector saw the die (centring on the pips' fit was measured
        # to make the classifier echo the pips' misreadings), as large as the detector
        # found it unless that is off the frame's dice: then as large as the face is
        # shown (its pips' spread; a 1's is the dice's)
        size = dice_size(self.sc, every)
        where = [(f.x, f.y, shown_edge(self.sc, d) if size is not None and d.value
                  and not like_size(self.sc, d, size) else f.size)
                 for d, f in zip(every, finds, strict=True) if f is not None]
        probs = np.zeros((len(finds), len(CLASSES)), np.float32)
        late = []
        ahead: dict[int, np.ndarray] = {}  # the next views read ahead, by die
        for i, f in enumerate(finds):
            if f in early and f is not None and where[i][2] == f.size:
                probs[i], more = early[f]
                if more is not None:
                    ahead[i] = more
            else:
                late.append(i)
        if late:
            probs[late] = self.classifier.classify(self.img, [where[i] for i in late], turns=1)
        again = [i for i, d in enumerate(every)
                 if not d.value or d.fallback is not None or probs[i, d.value] < self.st.likely]
        # (each crop is read on its own: which others share its call changes no answer)
        known = [i for i in again if i in ahead]
        if known:
            probs[known] = self.classifier.classify(
                self.img, [where[i] for i in known], first=probs[known],
                more=np.stack([ahead[i] for i in known], axis=1), settled=self.st.net_sure)
        rest = [i for i in again if i not in ahead]
        if rest:
            probs[rest] = self.classifier.classify(self.img, [where[i] for i in rest],
                                                   first=probs[rest], settled=self.st.net_sure)
        return {id(d): p for d, p in zip(every, probs, strict=True)}

    def _faint_kin(self, faint: list[Candidate], known: list[Die], shown: list[Die],
                   finds: list[Candidate], seen: dict[int, np.ndarray],
                   why: dict[Candidate, Why]) -> list[Die]:
        """The ``faint`` finds (under the detector's threshold) that look like the dice read
        (``known``: colour, size, shape) and that the classifier takes for a die, each shown
        in doubt with its likeliest value (:func:`~dicetray.vision.kinship.look_alike`;
        the classifier's answers on those shown are added to ``seen``). Out of focus,
        every die of a frame is soft, and the detector finds the softest under its
        threshold: left out, the dice it is sure of would be answered as the whole roll. A
        faint find beside a die shown (``streak``: a side face of a die seen at a slant) or
        left out already (in ``why``) is not asked about."""
        st = self.st
        placed = [d.found for d in (*known, *shown) if d.found is not None]
        loose = [c for c in faint if c not in why and not near(c, placed, st.streak)]
        kin = could_be_kin(self.img, loose, known, shown, [*finds, *loose], st)
        if not kin:
            return []
        dice = [unread_at(self.sc, c, None, "") for c in kin]
        probs = self.classifier.classify(self.img, [(c.x, c.y, c.size) for c in kin])
        asked = {id(die): p for die, p in zip(dice, probs, strict=True)}
        shown_too = look_alike(self.img, dice, known, shown, asked, [*finds, *loose], st)
        for die in shown_too:  # (only these live on: a key of ``seen`` is an object's id)
            seen[id(die)] = asked[id(die)]
        return shown_too

    def _cut_off(self, looked: list[Candidate], shown: list[Die], dice: list[Die],
                 why: dict[Candidate, Why], *, plain_floor: bool = True) -> list[Die]:
        """The finds ``looked`` at that the frame cuts and that may be dice partly out of
        view, alone on a plain floor (only with ``plain_floor``) or showing a pip like the
        ``dice``'s (:func:`~dicetray.vision.kinship.cut_off_die`), away from every die
        ``shown`` (``streak``) and not left out already (in ``why``): each kept unread,
        refusing the roll with no value shown (:data:`CUT_NONE`): a die half out of the
        frame, which left out would leave the roll answered a die short."""
        placed = [d.found for d in shown if d.found is not None]
        out = []
        for c in looked:
            # (``near`` passes a find by itself: one shown already, in doubt, is shown)
            if (c in why or c in placed or near(c, placed, self.st.streak)
                    or not cut_off_die(self.img, c, dice, self.sc, plain_floor=plain_floor)):
                continue
            out.append(unread_at(self.sc, c, Reason.EDGE, CUT_NONE))
            placed.append(c)
        return out

    def moving(self, finds: list[Candidate], others: list[Candidate],
               probs: np.ndarray | None = None, sure: float | None = None) -> list[Candidate]:
        """The ``finds`` that are dice smeared by motion: not beside one of the ``others``
        (``streak``: a side face of a die seen at a slant looks smeared too), the
        gradients around each too one-way for a die's body (``alike_round``), and the
        classifier (its ``probs`` when given, one row per find) is ``sure`` no face can be
        read there (``moving_sure`` unless told).

        A die blurred mid-tumble is a streak the detector scores low and the pips cannot
        read; left out, the dice still on the tray would be answered as the whole roll.
        """
        st = self.st
        sure = st.moving_sure if sure is None else sure
        smeared = []
        for i, c in enumerate(finds):
            if near(c, others, st.streak):
                continue
            if patch_roundness(self.img, c, st.streak * c.size) < st.alike_round:
                smeared.append(i)
        if not smeared:
            return []
        if probs is None:
            where = [(finds[i].x, finds[i].y, finds[i].size) for i in smeared]
            probs = self.classifier.classify(self.img, where, turns=1)
            # the eight views' mean reaches ``sure`` only if the first view reaches what
            # the other seven (each at most 1) leave to it: below that, it is decided
            # (and where the four turns settle it, they answer)
            views = TURNS
            could = np.flatnonzero(probs[:, _UNREADABLE] >= views * sure - (views - 1) - 1e-3)
            if len(could):
                probs[could] = self.classifier.classify(
                    self.img, [where[i] for i in could], first=probs[could],
                    settled=st.net_sure)
        else:
            probs = probs.reshape(len(finds), -1)[smeared]
        return [finds[i] for i, p in zip(smeared, probs, strict=True)
                if float(p[_UNREADABLE]) >= sure]

    def _flat_after_all(self, die: Die, p: np.ndarray, dice: list[Die]) -> None:
        """Read again a die the pips alone call cocked (its face's grid far from the
        aspect the frame's faces of its value have, or from square; the detector found it
        flat) whose value the classifier is fairly sure of (``fairly_sure``): from its top
        face alone (:meth:`_top_face`: seen at a slant, a side face's pips were taken
        into the face), else looking closer (a pip run together with the face's bright
        edge was missed, and the rest fitted a smaller face askew). The face read so is
        taken when it is that value and passes every check the frame's faces (``dice``)
        passed, flat among them; else the die stays cocked."""
        if die.problem != Reason.COCKED or die.found is None or die.found.kind != "flat":
            return
        sc, st = self.sc, self.st
        value = 1 + int(np.argmax(p[1:7]))
        if float(p[value]) < st.fairly_sure:
            return
        old = sc.pips, sc.face
        face = self._top_face(die, value)
        if face is None:
            face = look_closer(sc, die.found)
        if face is not None and face.value == value:
            face.found = die.found
            check(sc, [face], among=[*(d for d in dice if d is not die), face])
            if face.problem is None:
                take(die, face, float(p[value]))
                die.dark, die.spots_map = face.dark, face.spots_map
                die.problem, die.detail = None, ""
                return
        sc.pips, sc.face = old

    def _fewer_than_seen(self, die: Die, p: np.ndarray) -> None:
        """Look closer at a die in doubt, or whose value the classifier all but excludes
        (``net_doubt``), whose pips read fewer than the classifier's likeliest value (its
        probabilities ``p``; ``net_doubt`` at least), and read it from the pips found
        there when they make a face of more pips: a red pip on a blue face, or on a dark
        smoky one, shows in no channel extreme the scene's pips are found on. The face
        read stays in doubt unless the classifier confirms it (``fairly_sure``)."""
        sc, st = self.sc, self.st
        seen = 1 + int(np.argmax(p[1:7]))
        if (die.found is None or die.fallback is not None or seen <= die.value
                or float(p[seen]) < st.net_doubt
                or die.problem not in (None, Reason.AMBIGUOUS)
                or (not die.problem and float(p[die.value]) >= st.net_doubt)):
            return
        old = sc.pips, sc.face
        closer = look_closer(sc, die.found)
        if closer is not None and closer.value > die.value:
            check(sc, [closer])
            if closer.problem in (None, Reason.AMBIGUOUS):
                take(die, closer, 1.0)
                die.dark, die.spots_map = closer.dark, closer.spots_map
                # settled if the classifier confirms it
                die.problem, die.detail, die.doubt = Reason.AMBIGUOUS, "", Doubt.CLOSER
                return
        sc.pips, sc.face = old

    def weigh_read(self, dice: list[Die], seen: dict[int, np.ndarray],
                    why: dict[Candidate, Why]) -> list[Die]:
        """The dice the pips read, weighed against the classifier (``seen``).

        A single pip on a faint find is a die only when the classifier is sure of the 1 (or
        sees another face there), and so is one on a find far smaller than the others
        (``speck``); one that looks like the dice read is shown in doubt, or read when the
        classifier is fairly sure of the 1. A value the classifier is fairly sure is another
        (``fairly_sure``) is read again from the top face alone (:meth:`_top_face`) or, failing
        that, from its grid with that value's layout laid on two of its pips (:meth:`_laid`)
        where the face so read keeps every pip the die was read with (the 6 whose close
        columns the finder ran into a 3's pips; never a 2 laid small on two of a 4's);
        failing that, or when the classifier is less sure, a value it reads as another
        (``net_doubt``) is put in doubt. A die the pips read in doubt is
        settled when the classifier is fairly sure of the same value, or when the top face
        alone reads as another it is fairly sure of, or its grid does with that value's
        layout laid on two of its pips (:meth:`_laid`), a spot under a pip's share
        (``spot_on``) then read as blank; one still in doubt shows the
        classifier's value when it is the likelier, unless that value needs a pip on the
        face's blank centre (:meth:`_centre_blank`).
        """
        st = self.st
        sizes = [d.found.size for d in dice if d.found is not None]
        small = st.speck * statistics.median(sizes) if sizes else 0.0

        def stray(d: Die) -> bool:
            """One spot the classifier is not sure is a 1, on a faint find it sees as no
            other face (a key, a screw: measured, never a die showing 1 on the real
            photos) or on a find far smaller than the other dice (a speck, a crumb)."""
            p = seen[id(d)]
            if d.value != 1 or d.found is None or float(p[1]) >= st.net_sure:
                return False
            faint = (not d.problem and d.found.score < st.sure_find
                     and int(np.argmax(p)) in (_UNREADABLE, 1, _NONE))
            return faint or d.found.size < small

        flags = [stray(d) for d in dice]
        strays = [d for d, is_stray in zip(dice, flags, strict=True) if is_stray]
        dice = [d for d, is_stray in zip(dice, flags, strict=True) if not is_stray]
        # ... unless it looks like the dice read here (their body's colour, size and
        # shape): a die showing a 1 whose small pip the classifier is unsure of, shown in
        # doubt (dropped, the answer would be a die short and look sure), unless it is
        # fairly sure of the 1
        kin = look_alike(self.img, strays, dice, [], seen,
                         [d.found for d in (*dice, *strays) if d.found is not None], st,
                         read=True)
        shown = {id(k) for k in kin}
        for d in kin:  # settled as any face in doubt: the classifier is fairly sure of it
            if float(seen[id(d)][d.value]) >= st.fairly_sure:
                d.problem, d.detail = None, ""
        for d in strays:
            if d.found is not None and id(d) not in shown:
                why[d.found] = Why.SPECK
        dice = [*dice, *kin]
        # the classifier was trained on rendered dice: where it reads two or more of the
        # faces the pips read cleanly otherwise, and the top face's pips bear out none of
        # its values, it is not reading these dice, and its disagreement is no evidence
        # against a clean face (one disagreement is heeded)
        clean = {id(d) for d in dice if not d.problem and d.value > 1
                 and d.confidence >= st.likely and self._centred(d)}
        disagree = [(d, 1 + int(np.argmax(seen[id(d)][1:7]))) for d in dice if id(d) in clean]
        disagree = [(d, v) for d, v in disagree if v != d.value]
        credible = (len(disagree) < st.unheard
                    or any(self._top_face(d, v) is not None for d, v in disagree))
        for die in dice:
            p = seen[id(die)]
            value = 1 + int(np.argmax(p[1:7]))  # the value it finds likeliest
            if die.problem == Reason.AMBIGUOUS and not die.detail and die.value:
                if float(p[die.value]) >= st.fairly_sure:
                    die.problem = None  # the pips' doubt settled: the classifier is sure
                    die.confidence = float(p[die.value])
                elif value != die.value and float(p[value]) >= st.fairly_sure:
                    # sure of another: do the pips agree, where the spots they left
                    # unclear are the classifier's to settle?
                    face = self._read_again(die, value, dice, blank=st.spot_on)
                    if face is not None:
                        take(die, face, float(p[value]))
                        die.problem = None
                        continue
            if die.problem:  # unsure anyway: show the likelier value of the two opinions
                if self._likelier(p, value, die.value) and not self._centre_blank(die, value):
                    die.value = value
                continue
            best = int(np.argmax(p))
            # a clean face whose pips fit a layout learnt from this tray's own dice, unlike
            # the usual one: the calibration knows it, and the classifier (which learnt
            # usual dice) alone is no evidence against it. Against usual faces it is heeded:
            # on rendered trays two pips of a 5 or 6 whose others were missed fit a learnt
            # usual 2 as well as the fixed one, and the classifier alone refused them
            if id(die) in clean and (not credible or die.fit.unusual):
                # a face whose pips fill its layout cleanly: the classifier is a second
                # opinion only; where it reads another value the top face's pips must agree
                if best != die.value and 1 <= best <= 6 and float(p[best]) >= st.fairly_sure:
                    face = self._top_face(die, best)
                    if face is not None:
                        take(die, face, float(p[best]))
                continue
            die.confidence = min(die.confidence, float(p[die.value]))
            if best in (_UNREADABLE, _NONE) and float(p[value]) >= st.net_doubt:
                best = value
            # else a die it calls unreadable or no die is left to the pips: on real photos
            # an angled view of a flat die can look like a leaning one
            if float(p[die.value]) < st.net_doubt and best not in (_UNREADABLE, _NONE):
                face = (self._read_again(die, best, dice, keep_pips=True)
                        if float(p[best]) >= st.fairly_sure else None)
                if face is not None:  # the pips took in a side face's: they read as it does
                    take(die, face, float(p[best]))
                    continue
                _doubt(die, best)
                # unsure now: show the likelier of the two values
                if self._likelier(p, best, die.value) and not self._centre_blank(die, best):
                    die.value = best
        return dice

    def _read_again(self, die: Die, value: int, dice: list[Die], *,
                    keep_pips: bool = False, blank: float | None = None) -> Die | None:
        """``die`` read again as ``value``: from its top face alone (:meth:`_top_face`),
        or else with that value's layout laid on its grid (:meth:`_laid`); None where
        neither reads so. With ``keep_pips`` (a face the pips read clean) the laid face
        only where it keeps every pip the die was read with: laying may add the pips the
        finder missed or ran together, never drop one it read. ``blank``: the most a
        blank grid spot may show (:func:`~dicetray.vision.pipcheck.check`)."""
        face = self._top_face(die, value, blank=blank)
        if face is None:
            face = self._laid(die, value, dice, blank=blank)
            if face is not None and keep_pips and not set(die.pips) <= set(face.pips):
                face = None
        return face

    def _top_face(self, die: Die, value: int, *, blank: float | None = None) -> Die | None:
        """``die`` read again as ``value`` from its top face alone, or None: from the pips
        within a half edge of its find's centre (:func:`~dicetray.vision.pipfaces.read_as`)
        when the face they make is flat (two rows of a 6 on a find centred off it make a 4
        twice as wide as high), or else from pips that make that face with none of the
        others on it (:func:`~dicetray.vision.pipfaces.read_apart`: a find centred off the
        top face, towards a side face) when that face passes every check on its own."""
        face = read_as(self.sc, die, value)
        if face is not None:
            check(self.sc, [face], blank=blank)
            if face.problem != Reason.COCKED and face.value == value:
                return face
        face = read_apart(self.sc, die, value)
        if face is not None:
            check(self.sc, [face], blank=blank)
            if face.problem is None and face.value == value:
                return face
        return None

    def _laid(self, die: Die, value: int, dice: list[Die], *,
              blank: float | None = None) -> Die | None:
        """``die`` read again as ``value`` with that face's layout laid on its pips
        (:func:`~dicetray.vision.pipcheck.read_laid`), when the face so read passes every
        check among the frame's other ``dice``; else None."""
        face = read_laid(self.sc, die, value, blank=blank)
        if face is None:
            return None
        face.found = die.found
        check(self.sc, [face], among=[*(d for d in dice if d is not die), face], blank=blank)
        return face if face.problem is None and face.value == value else None

    def _centred(self, die: Die) -> bool:
        """Whether a face's fit is centred on its find (``centred``)."""
        if die.found is None:
            return False
        centre, a, _ = self.sc.on_find(die.found)
        return math.hypot(*(die.fit.centre - centre)) <= self.st.centred * a

    def _centre_blank(self, die: Die, seen: int) -> bool:
        """Whether the classifier's value ``seen`` is a 3 or 5, the corner pips of the
        pips' 2, 4 or 6 and a centre pip, while the face, read where the detector found
        the die, shows a blank centre spot: the pip it counted is another face's or a
        mark (its crop holds the die's side faces, and a slanted 2 shows a side face's
        pip beside its own). Not when the pips may be a 3's corner and centre read as a
        small 2 (a spot as far on past either pip)."""
        sc, st = self.sc, self.st
        if (die.value, seen) not in ((2, 3), (4, 5), (6, 5)) or die.found is None:
            return False
        centre, a, _ = sc.on_find(die.found)
        if (math.hypot(*(die.fit.centre - centre)) > st.beside * a
                or spots(sc, die)[4] >= st.spot_off):
            return False  # a face beside the find (a side face's, maybe), or a centre pip
        if die.value > 2:
            return True
        if len(die.pips) != 2:
            return False
        xy = np.stack([sc.pips.x[die.pips], sc.pips.y[die.pips]], axis=1)
        past = np.array([2 * xy[0] - xy[1], 2 * xy[1] - xy[0]])
        return bool(spots(sc, die, past).max() < st.spot_off)

    def _likelier(self, p: np.ndarray, seen: int, read: int) -> bool:
        """Whether to show the classifier's value ``seen`` (its probabilities ``p``) for a
        die in doubt whose pips read ``read``: when it finds it likely (``likely``) or
        clearly likelier than the pips' value (``guess_ratio``)."""
        st = self.st
        return float(p[seen]) >= st.likely or float(p[seen]) >= st.guess_ratio * float(p[read])

    def _pips_inside(self, cand: Candidate) -> int:
        """How many pips of one colour (the more numerous) lie well inside a find's top
        face (within ``lone`` pip offsets of its centre, where no side face's pip lies)."""
        p = self.sc.pips
        if len(p) == 0:
            return 0
        _, a, dist = self.sc.on_find(cand)
        inside = dist <= self.st.lone * a
        return int(max((inside & p.dark).sum(), (inside & ~p.dark).sum()))

    def _weigh_unread(self, unread: list[Die], bare: list[Die], seen: dict[int, np.ndarray],
                      finds: list[Candidate], why: dict[Candidate, Why], pipped: list[Die]
                      ) -> tuple[list[Die], list[Die]]:
        """The finds the pips could not read (``unread``) or saw no pips on (``bare``), read
        by the classifier (``seen``): returns (dice it read, dice still unread).

        A die the pips could not read the classifier reads alone when it is sure (else it
        stays unread, or shows the classifier's guess with an unsure answer); a faint one
        whose likeliest class is no die is dropped unless the frame cuts it. A bare find (no
        pips, or a faint one) is a die when the classifier is sure of it, or finds a value
        there likely (``likely``), or when the detector is sure or the frame cuts it and the
        classifier reads a value at all (unsure then, showing that value); one smeared by
        motion (:meth:`moving`, away from the other ``finds``) is a moving die. A bare find
        the classifier fairly surely (``fairly_sure``) calls a die with no readable face is
        kept, refusing the roll, however unsure the detector: a die smeared past its pips
        scores low. Keys and clips, which it calls so too, are set apart by their colour and
        size (:func:`~dicetray.vision.kinship.set_apart`). A bare find centred beyond the
        frame's edge and like the dice the pips read (``pipped``) in colour is kept,
        refusing the roll with no value shown, whatever the classifier says
        (:func:`~dicetray.vision.kinship.cut_off_kin`): a die mostly cut off; so is one the
        frame cuts alone on a plain floor or showing a pip like theirs that would be left
        out as bare (:func:`~dicetray.vision.kinship.cut_off_die`): a die half out of view.
        """
        st = self.st
        h, w = self.img.shape[:2]
        dice, kept = [], []
        bare_ids = {id(d) for d in bare}
        for die in (*unread, *bare):
            p = seen[id(die)]
            best = int(np.argmax(p))
            sure = float(p[best]) >= st.net_sure
            cand = die.found
            assert cand is not None
            if id(die) in bare_ids and self.moving([cand], finds, p):
                die.problem, die.detail = Reason.BLUR, MOVING
                kept.append(die)
                continue
            is_cut = reaches_past(cand, (w, h))
            if id(die) in bare_ids and cut_off_kin(self.img, cand, pipped, st):
                die.problem, die.detail = Reason.EDGE, CUT_NONE
                kept.append(die)
                continue
            # a weak guess is no evidence on a find the frame cuts: the classifier never
            # learnt cut dice (training/crops.py), and a cut die refuses the roll by its place
            if id(die) in bare_ids and (best == _NONE or (
                    float(p[best]) < st.likely and cand.score < st.sure_find
                    and not is_cut) or (
                    best == _UNREADABLE and float(p[best]) < st.fairly_sure)):
                if cut_off_die(self.img, cand, pipped, self.sc):
                    # ... unless the frame cuts it and it stands alone on a plain floor or
                    # a pip like the dice's shows on the part inside: a die half out of view
                    die.problem, die.detail = Reason.EDGE, CUT_NONE
                    kept.append(die)
                    continue
                why[cand] = Why.BARE
                continue  # no die: every face shows a pip, and a magnet or a button shows none
            if best == _NONE and cand.score < st.sure_find and not is_cut:
                why[cand] = Why.FAINT
                continue  # neither network sees a die: a smeared cable, a label
            if best in (_UNREADABLE, _NONE):
                if best == _UNREADABLE:
                    _doubt(die, best)
                kept.append(die)
                continue
            if best < self._pips_inside(cand):
                _doubt(die, best)  # the face shows more pips than the classifier's value
                kept.append(die)
                continue
            die.value, die.confidence = best, float(p[best])
            if is_cut:
                die.problem = Reason.EDGE
            elif sure and die.problem == Reason.AMBIGUOUS:
                die.problem, die.detail = None, ""
            dice.append(die)  # read, or unsure with the classifier's best guess
        return dice, kept


def _doubt(die: Die, seen: int) -> None:
    """Mark a die whose face the classifier reads otherwise (``seen``: its best class)."""
    if seen == _UNREADABLE:
        moving = die.found is not None and die.found.kind == "moving"
        die.problem = die.problem if die.problem in (Reason.BLUR, Reason.COCKED) else (
            Reason.BLUR if moving else Reason.COCKED)
        die.detail = "die at {where} is leaning or moving: no face can be read"
    elif not die.value:
        die.problem = Reason.AMBIGUOUS
        die.detail = f"die at {{where}} shows more pips than the {seen} it looks like"
    else:
        die.problem = Reason.AMBIGUOUS
        die.detail = f"die at {{where}}: its pips read {die.value} but it looks like a {seen}"


def guesses(sc: Scene, left_out: list[tuple[Candidate, np.ndarray]], n: int) -> list[Die]:
    """When fewer dice were read than the tray holds, the ``n`` finds left out (each with
    the classifier's probabilities) that look likeliest to show a face, each shown with
    the value the classifier finds likeliest: guesses for the players to confirm, never
    part of an ``ok`` answer."""
    def face(item: tuple[Candidate, np.ndarray]) -> float:
        return float(item[1][1:7].max())

    out = []
    for cand, p in sorted(left_out, key=face, reverse=True)[:n]:
        die = unread_at(sc, cand, None, "")
        die.value = 1 + int(np.argmax(p[1:7]))
        die.confidence = float(p[die.value])
        out.append(die)
    return out


def one_die_a_pip(sc: Scene, dice: list[Die], why: dict[Candidate, Why]) -> list[Die]:
    """``dice`` but those that are another die found again: read from a pip that die was
    read from, their find's centre on that die's top face. The detector may find one die
    twice, the second find off its centre, and that find's nearest pip be read as a 1.
    Of two such dice the one read from more pips (else the surer) is kept, and the
    other's find left out (``why``: :attr:`~dicetray.vision.reading.Why.ON_A_DIE`).
    Settled after the second opinion, and only where the finds overlap: two 1s side by
    side whose pips were fitted as one 2 are each read from their own pip, or refused."""
    kept: list[Die] = []
    for die in sorted(dice, key=lambda d: (-len(d.pips), -d.confidence)):
        find = die.found
        at = None if find is None else np.array([[find.x * sc.scale, find.y * sc.scale]])
        if at is not None and any(
                not set(die.pips).isdisjoint(other.pips)
                and inside(at, other.fit, sc.st.half_edge)[0]
                for other in kept):
            why[find] = Why.ON_A_DIE
        else:
            kept.append(die)
    ids = {id(d) for d in kept}
    return [d for d in dice if id(d) in ids]
