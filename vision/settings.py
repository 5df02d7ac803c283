"""Every number the reader decides by, in one place: :class:`ReaderSettings`.

Each field has a line on the measurement or the reason that set it. The stages
(:mod:`~dicetray.vision.finding`, :mod:`~dicetray.vision.pipscene`,
:mod:`~dicetray.vision.pipfaces`, :mod:`~dicetray.vision.pipcheck`,
:mod:`~dicetray.vision.opinion`, :mod:`~dicetray.vision.kinship`,
:mod:`~dicetray.vision.verdict`) take them from one instance, passed to
:func:`dicetray.vision.read` as ``settings`` (the defaults when not given).

Units: *pip offset* ``a`` is the distance from a face's centre to a corner pip's row
or column (about 0.3 of the edge); *edge* is the die's edge length; *pip diameter* is a
pip's width; probabilities are the face classifier's; *detector score* is the dice
detector's heat at a find.

>>> s = ReaderSettings()
>>> s.half_edge, s.net_sure
(1.65, 0.8)
>>> ReaderSettings(spot_on=0.2)
Traceback (most recent call last):
...
ValueError: spot_on (0.2) must lie above spot_off (0.3)
"""

from __future__ import annotations

from dataclasses import dataclass

from dicetray.vision.detector import THRESHOLD
from dicetray.vision.measure import odd

__all__ = ["DEFAULT_SETTINGS", "ReaderSettings"]


@dataclass(frozen=True)
class ReaderSettings:
    """The reader's thresholds (see the module's docstring for the units)."""

    # --- the working scale and the windows read -------------------------------------
    #: Pip diameter aimed for in the working image, px (the pip filters' kernels are
    #: sized for it).
    work_pip: float = 6.0
    #: Long side of the image a frame is looked at in where the detector found nothing:
    #: no face is read (a face is read on a find only), and a smear over the whole frame
    #: tells a frame blurred by motion from an empty one. (Once the scale was chosen from
    #: the pips found at this side and at 640, and set again from them: a face read there
    #: lay on no find and was dropped, and with every find leaning or smeared the scale
    #: is now set from their median size; over the shared sets, the cut photos and tray
    #: views and 400 hard frames, no outcome changed.)
    coarse_side: int = 320
    #: Largest enlargement of the frame, so the pips of small dice are wide enough to read.
    max_upscale: float = 2.0
    #: A pip's diameter as a share of the die's edge (standard dice: 0.15-0.2), to set the
    #: scale from a die size; and, with :attr:`half_edge`, a lone pip's face's offset from
    #: its pip where no face of two or more pips was read (1.78 pip diameters; once a
    #: setting of its own, 1.9: at 1.78 no outcome changed on the shared sets, the cut
    #: photos and tray views or 400 hard frames).
    pip_per_edge: float = 0.17
    #: Pip filter kernel, in working pip diameters (a pip and the face ring around it); no
    #: window narrower than it is read (:attr:`kernel_side`; once a setting of its own, 8
    #: px: at 13, the kernel's, no reading changed).
    kernel: float = 2.2
    #: The pip contrast maps are widened by this many pip diameters (0.35 each side), so
    #: a grid a little off still finds its pips.
    widen: float = 0.7
    #: Side of the box the gradient structure tensor is averaged over, in pip diameters.
    tensor_box: float = 1.6
    #: How far a die's side faces reach from its centre, in edges: the window read around
    #: each die the detector found (with room for the pips of a die it sized too small),
    #: and where the pips beside a face are looked at for its side faces'.
    reach: float = 1.3
    #: Half the face edge in pip offsets (a is ~0.3 of the edge): the dice's geometry.
    half_edge: float = 1.65
    #: Least detector score of a find kept at all: the faint finds below the detector's own
    #: threshold are looked at only for a die smeared by motion.
    faint_find: float = 0.12
    #: Least detector score of a find read as a die (the detector's own threshold).
    keep_find: float = THRESHOLD
    #: Detector score from which the detector is sure of a find: such a find whose pips fit
    #: no face is refused rather than ignored, and below it a find the pips could not read
    #: is dropped when the classifier's likeliest answer is "no die" (smeared cables,
    #: labels).
    sure_find: float = 0.5

    # --- pips and faces ---------------------------------------------------------------
    #: A pip's ring starts this many px (at least) past its edge ...
    ring_gap_px: float = 1.5
    #: ... or this share of its diameter, whichever is larger.
    ring_gap: float = 0.2
    #: Ring samples that may fail (a neighbouring pip must not veto a pip).
    ring_spoilers: int = 2
    #: Largest pip-to-pip distance on one face, in pip diameters.
    max_link: float = 7.0
    #: Largest ratio of two pips' diameters on one face.
    pip_ratio: float = 1.7
    #: Where the face around a lone pip is sampled for its colour, in pip offsets: between
    #: the pip and the grid's edge spots.
    lone_face: float = 0.9
    #: Where the face of a lone pip is seen to end: beyond its corners, in pip offsets ...
    face_ends: float = 2.8
    #: ... colour this far (8-bit) from the face at least, at one of the sixteen points
    #: around it. (Once also: or 0.12 of the pip's contrast, whichever larger; and at 3 of
    #: the points at least. Without either, no outcome changed on the shared sets, the cut
    #: photos and tray views or 400 hard frames.)
    face_ends_colour: float = 20.0
    #: A group of pips makes a face when its pip offset is within this many pip diameters
    #: (and a face's pips' median diameter at a find lies within the inverse shares, 0.28-1.33,
    #: of the pip offset its size implies: once a band of its own, 0.25-1.3, which changed
    #: no outcome on the shared sets whole and cut, the tray views and 400 hard frames) ...
    offset_per_pip: tuple[float, float] = (0.75, 3.6)
    #: ... and its grid's aspect (the layout fit's skew) is at most this.
    max_skew: float = 2.2
    #: With no face of two or more pips read in the frame, a lone pip's diameter over the
    #: diameter its face's offset is reckoned from (found alone, a pip comes out larger
    #: than a face's pips).
    lone_pip_larger: float = 1.3
    #: Most elongation of a lone pip read as a 1 (a side face's pip is foreshortened).
    lone_max_elong: float = 1.8
    #: A group split in two where one part's pips are this much more oval than the other's
    #: (a side face beside a top face). A 2 whose pips differ this much, the more oval one
    #: nearer in ovalness to the pips beside the face than to its partner, is put in doubt:
    #: a 1's pip and a side face's (the pips of a 2 lie on one face, equally foreshortened;
    #: on matteop65's Train half the two pips of 172 real 2s answered right differ by 0.07
    #: at the median, 0.26 at the 95th percentile). There it put 19 of the 24 1s the pips
    #: read as 2s in doubt (2 answered wrong before) and 3 real 2s, which the classifier
    #: settled. A face is put in doubt, too, where the pips within :attr:`reach` beside it
    #: are this much rounder than its own (once 0.1 for that: at 0.2, one matteop65 photo
    #: more read right, no outcome else changed on the shared sets, the cut photos and
    #: tray views or 400 hard frames).
    side_split_elong: float = 0.2
    #: A face is dropped where the pips within :attr:`reach` beside it are this much
    #: rounder than its own (the die's top face beside a side face).
    side_drop_elong: float = 0.3
    #: A find's middle: within this share of its edge of its centre. A face whose centre
    #: lies there is that find's die; the colour there is the die's body colour (its pips
    #: too few to sway it), and is compared there with the empty tray.
    middle: float = 0.4
    #: Pips within this many half edges of a find's centre may be its face's.
    find_reach: float = 1.1
    #: Half-side of a find's patch, in edges: the die and a margin, as the classifier's
    #: crop (:data:`dicetray.vision.classifier.SPAN`); pips are looked for closer there,
    #: and its gradients' roundness tells a die from a cable or a label. A dim find whose
    #: patch holds the middle of a patch of the dice's colour the frame's edge cuts stands
    #: for it (:func:`~dicetray.vision.kinship.cut_off_dim`).
    patch: float = 0.75
    #: Most pips near a find whose subsets are tried (each a layout fit, 120 at most) when
    #: its nearest pips make no face. (Once also at most 48 subsets tried; all of them
    #: changed no outcome on the shared sets whole and cut, the tray views and 400 hard
    #: frames.)
    subset_pips: int = 7
    #: Reach from a single pip, in pip offsets, within which no other pip of its colour may
    #: lie for it to be read as a 1 (the face reaches 1.65 from its centre; a 2 whose pips
    #: sit towards the centre has them 0.9 apart).
    lone: float = 1.3
    #: Pip offset of a face read at a find, as shares of the offset its size implies: some
    #: dice have large pips drawn in towards the middle (0.35), and a die's rounded edges
    #: make the find a little larger than its flat top.
    offset_band: tuple[float, float] = (0.35, 1.6)
    #: Farthest a face's fit may lie from its find's centre, in pip offsets, to be read as
    #: its face (further: a side face's, or a neighbour's).
    beside: float = 0.6
    #: Farthest a face's fit may lie from the centre of its find, in pip offsets, for it
    #: to count as the whole top face, and a lone pip read as a 1 there. On 400 rendered
    #: hard frames the 2s read off a side's two corners (of a 4, a 5) or a 1 and a
    #: neighbour's pip lay 0.49-0.9 off; true 2s and 3s mostly under 0.4. (Once 0.4 for
    #: the faces and 0.5 for the 1s; one half pip offset for both changed no outcome on
    #: the shared sets whole and cut, the tray views and 400 hard frames, and 0.4 for both
    #: read 4 fewer right.)
    centred: float = 0.5

    # --- the face checked on its grid -------------------------------------------------
    #: A grid spot holds a pip at this share of the die's pip contrast (and a lone pip read
    #: as a 1 is in doubt where a blank spot of its face shows as much: once 0.45 of its
    #: own contrast for that, which changed no reading) ...
    spot_on: float = 0.5
    #: ... and below this it is blank face; in between it is unclear (but where the
    #: classifier, fairly sure, reads another value than a die in doubt, the face read
    #: again as that value needs only its blank spots under :attr:`spot_on`: the doubt
    #: between is the classifier's to settle. Chosen on nell-byler's classifier's half:
    #: bounds of 0.35-0.49 all read the same 3 more photos right there, none wrong;
    #: ``spot_on`` adds no number; docs/benchmarks.md, "Spots between"). A mark fainter than
    #: this share of a pip's contrast is the face's own shading: a pip stands out of the
    #: ring around it by this much at least, and two parts of one face differ by this much
    #: at most, or by :attr:`face_colour` (each once a setting of its own, of the same 0.3).
    spot_off: float = 0.3
    #: Most colour distance (8-bit BGR) between two parts of one face where the pips'
    #: contrast is low. (Without it, the share above alone, 3 more of 400 hard frames read
    #: right at seed 2026 and 4 at seed 7, but one of seed 7's, a die hidden under another,
    #: was answered a die short where it was refused.)
    face_colour: float = 30.0
    #: Nearest a grid spot may lie to a pip found on its face, in pip diameters, for its
    #: contrast to be read on the widened maps: nearer, the widening alone makes the spot
    #: read as the pip. Measured on sketched dice: a 6's middle spots with its columns at
    #: 0.6 of the usual spread lie 0.89 pip diameters from them and read 0.55 widened.
    pip_apart: float = 1.0
    #: Faces (of one value, or of any) a frame needs for its own reference (the aspect of a
    #: value's grid, the dice's size): fewer, and one odd face sets it.
    refs: int = 3
    #: Most factor between a die's size and the frame's other dice's (their median) for it
    #: to be one of them: a face read at another size was framed wrongly; a faint find
    #: without pips of another size is no die of the set. (Once 0.75-1.33 for the first,
    #: 1.35 for the second: one factor changed no answer right, refused or wrong.) On a
    #: calibrated tray, also between a face fitted to its dice's learnt layouts and the
    #: dice found (their median edge): on clean views of 24 calibrated trays (96 frames,
    #: 406 faces, ``tray_view(7000 + 1000 t)``) the faces lie at 0.91-1.16 of it (5th-99th
    #: percentile), none above 1.28; 8 under 0.74, down to 0.50: half size, as two pips
    #: of a 3 fitted as a 2 make.
    like_size: float = 1.35
    #: Most a face's grid aspect may differ, as a share, from the median of the faces of its
    #: value in the frame before it is called cocked (a die leaning 40 degrees shows its
    #: face foreshortened to 0.77, an aspect 1.3 times the flat faces') ...
    cocked_aspect: float = 0.3
    #: ... or from square, without such faces (not for a 6: its columns may sit close).
    cocked_square: float = 0.8
    #: Least isotropy of the gradients around a die's pips (or of the whole frame's strong
    #: edges) before it counts as blurred.
    min_roundness: float = 0.3
    #: A face's confidence is scaled by its pips' roundness plus this (at most 1).
    round_credit: float = 0.5
    #: The whole frame is smeared when its strongest edges (the :attr:`strong_edges` share
    #: of its pixels; once the strongest 2 %, which changed no outcome), at least this
    #: many pixels, run one way.
    smear_pixels: int = 16

    # --- the second opinion: the face classifier's probabilities ---------------------
    #: From which it reads a die the pips could not, calls a find no readable die, or a
    #: die the pips read moving (streaked pips can happen to make a face).
    net_sure: float = 0.8
    #: From which its value is shown for a die the pips read unsure; below it (at first
    #: look) for the pips' value, it looks again in eight views. From it, too, a faint
    #: find with no pips is a die, shown with that value in an unsure answer (below it,
    #: such finds are mostly keys and clips); and a find is dropped whatever its pips read
    #: where "no die" is this likely: a key and its letter, a plug, a coin (on the real
    #: photos no die reaches 0.45). (Each once a setting of its own, ``bare_guess`` and
    #: ``no_die``, both 0.6; at this one, no outcome changed on the shared sets whole and
    #: cut, the tray views and 400 hard frames: 52 finds left out bare were left out as
    #: no die.)
    likely: float = 0.5
    #: ... or how many times likelier than the pips' value it must find its own to show it.
    guess_ratio: float = 2.0
    #: From which it settles a face the pips read in doubt, or has it read again from its
    #: top face alone when it reads another value. Averaged over turns, its answers seldom
    #: reach 0.9; with the count told, 0.7 reads the most rolls right on every set with no
    #: more silent errors (0.6: one more; at 0.6 a die leaning on another, hidden from the
    #: detector, is read as a flat 1). Of "unreadable", too, from which a find with no
    #: pips is a die with no readable face however unsure the detector (a die smeared past
    #: its pips scores low). Keys and clips look unreadable too, less surely: 4 of the 400
    #: hard rendered frames' dice smeared past their pips and matteop65's ``six_44`` reach
    #: 0.83-0.98; a cable's ferrite bead 0.73, which is then left out as unlike the dice
    #: (178 from their colour) rather than bare. (Once a setting of its own,
    #: ``bare_unreadable``, 0.75: at this one no outcome changed on the shared sets whole
    #: and cut, the tray views and 400 hard frames; at :attr:`net_sure` none either, but a
    #: sketched tray's clip was shown left out as bare instead of unlike the dice.)
    fairly_sure: float = 0.7
    #: Below this for the value the pips read, the classifier disagrees; and the least
    #: confidence of a die in an ``ok`` answer: on the real photos a laptop key read as a
    #: 1 and a die blurred mid-tumble read as a 2 came out at 0.02-0.03; a 1 read as a 2
    #: with a side face's pip (0.15) and a cocked die read as flat (0.14, and 0.199 where
    #: the first roll read right is at 0.173) fall under it. From it, another value counts
    #: also when the likeliest answer is "no die" or "no readable face" (a side face's pip
    #: read in with a 1's, say; once ``other_value``, 0.3: at this one no outcome changed).
    net_doubt: float = 0.2
    #: How many faces the pips read cleanly (two or more pips, no doubt, a confidence of
    #: :attr:`likely` at least) the classifier must read otherwise in one frame for its
    #: disagreement to be set aside there: it cannot veto them. Heeded always, it answered
    #: 7 more matteop65 photos silently wrong (a 1 and a slanted view's side-face pip read
    #: as a 2). (The confidence once had a bar of its own, ``clean_read``, 0.6: from 0.5 to
    #: 0.7 no reading changed on the shared sets whole and cut, the tray views and 400 hard
    #: frames.)
    unheard: int = 2
    #: Most size, as a share of the median find's, of a find read as a single spot that is
    #: no die unless the classifier is sure of the 1 (measured: specks 0.47-0.53 of it,
    #: real 1s from 0.68 on, over the real photos and the rendered frames). (A lone pip
    #: under 0.8 of the faces' pips was once no 1 either, ``lone_min_pip``: without it no
    #: outcome changed on the shared sets whole and cut, the tray views and 400 hard
    #: frames.)
    speck: float = 0.6
    #: Of "unreadable" from which a smeared find is a moving die.
    moving_sure: float = 0.9
    #: How far a moving die's streak reaches from its find's centre, in edges: the patch
    #: whose gradients tell it smeared, and how near another find it is not taken for one
    #: (a side face of a die seen at a slant looks smeared too).
    streak: float = 1.0

    # --- kinship: is a find one of the set of dice read? ------------------------------
    #: Most colour difference (CIELAB, OpenCV's 8-bit scale) between the body of a find
    #: the pips saw nothing on and a die read in the same frame for it to be taken for one
    #: of the set; and how far apart two dice may be to share a colour (a set of dice
    #: of many colours has no one look: ``kinship._many_colours``). Measured on the real
    #: photos: nell-byler's 21 faint dice lie 4-43 from a die read, matteop65's 11 keys,
    #: plugs and labels 75 and more from its white dice. Half as far for a pip the frame's
    #: edge cuts in two, made whole in the frame's mirror image
    #: (:func:`~dicetray.vision.kinship.cut_off_die`): half its ring is the mirror of the
    #: other half. Checked on the tray views of seed 180000 cut through a die (the half
    #: pips of 14 lay 5-36 from the dice's body) and on matteop65 (5 things its frame cuts
    #: on three photos, labels' print made round by the mirror, lay 33-43); reported on
    #: seed 190000 (docs/benchmarks.md). (Once a setting of its own, 22.5.)
    look_alike: float = 45.0
    #: A find the frame cuts standing alone on a plain floor may be a die partly out of
    #: view (:func:`~dicetray.vision.kinship.alone`): the ring around it looked at starts
    #: this many edges from its centre (a die's own edge at 0.5, its shadow and a
    #: neighbour's side face nearer than this), and is half an edge wide ...
    alone_ring: float = 0.8
    #: ... of one colour: this share of its pixels within :attr:`plain_gap` of its median
    #: colour. Chosen on the train halves of both shared sets, each cut through a die
    #: (``benchmarks/cut_photos.py``): of nell-byler's 9 photos answered a die short at
    #: half a die inside, 8 have the cut die's find at 0.9-0.99 (the ninth 0.86); of the
    #: 482 finds the frame cuts on matteop65's photos read right (a laptop's keys among
    #: other keys, cables, labels, the table's grain) 12 reach 0.9 ...
    alone_plain: float = 0.9
    #: ... (CIELAB, OpenCV's 8-bit scale: a plain floor's noise and shading) ...
    plain_gap: float = 12.0
    #: ... with at least this share of the ring inside the frame: four of the five of
    #: those 12 that also stand out (below) lie in a corner of the frame, 0.24-0.32 of
    #: their ring inside, where a find centred on one edge keeps half of it (0.38 centred
    #: half an edge beyond) ...
    alone_inside: float = 0.4
    #: ... and the find's middle this far from that colour (as :attr:`look_alike`): the 9
    #: cut dice lie 118-169 from their floor; of the 12, 7 lie at 1-49 (the floor's own
    #: grain) and the five at 89-145: midway between 49 and 89. Reported on the held-out
    #: halves and the rendered cut tray views (docs/benchmarks.md, "A die alone on a
    #: plain floor, cut by the frame").
    alone_apart: float = 70.0
    #: ... or the find's middle nearer the colour of one of the dice read than the floor's
    #: (and farther than :attr:`plain_gap` from the floor), and the ring of one colour at
    #: this wider gap: a die's shadow darkens the floor beside it. Chosen on the train
    #: halves and the tray views of seed 180000, each cut through a die: of the 62 photos
    #: answered a die short with such a find, 0.9 of its ring lies within 12 of the median
    #: on 24, within 20 on 43, within 30 on 48; the two such finds on photos read right
    #: lie within 20 at 0.54-0.62 (30: 0.62-0.71). A find centred beyond the frame's edge
    #: needs no plain ring, only the floor beside it along the edge: its own soft shadow
    #: or a neighbour die spoils the ring of all 8 such cut dice answered short at half
    #: inside, and none of the 360 faint finds centred beyond the edge on photos read
    #: right is nearer a die's colour than its floor's. Reported on the held-out halves
    #: and seed 190000 (docs/benchmarks.md, "A die cut by the frame, nearer the dice than
    #: the floor").
    kin_plain_gap: float = 20.0
    #: ... the classifier's most probability of "no die" there ...
    alike_none: float = 0.1
    #: ... and the least roundness of the gradients around it (a die's square body has
    #: edges every way; a cable, a label's print or a key's letters run mostly one way);
    #: its size within :attr:`like_size` of the median find's too. A find less round than
    #: this within :attr:`streak` of its centre is smeared: a die blurred mid-tumble is
    #: smeared one way, a key or a sharp die is not (with 0.4 there, the bar once apart,
    #: a die spinning as it slid, 0.45, was neither die-shaped nor smeared, and was left
    #: out: 3 of the 400 hard rendered frames at 1920x1080 answered a die short).
    alike_round: float = 0.5
    #: Two finds within this many edges are one die found twice (two flat dice lie an edge
    #: apart at least).
    twice: float = 0.6
    #: Most factor between the size of a find no face was read on and the dice read cleanly
    #: for it to be taken for one of them: a leaning die's find comes out up to a third
    #: larger than a flat one's ...
    unlike_size: float = 1.6
    #: ... and the least colour difference (as :attr:`look_alike`) from every one of them:
    #: a die smeared by motion mixes its colour with the floor's (a grey die on 400
    #: rendered hard frames lay 49 from its set), a clip or a knot is far from white dice
    #: (90 and more).
    unlike_colour: float = 90.0
    #: Least difference (8-bit, the strongest channel, 99th percentile over the middle of
    #: a find, both smoothed 5x5) between a frame and the calibration's empty tray for a
    #: find to be something put there: a die's pips differ by 60 and more even on a floor
    #: of its own colour; a clip, a knot or the wood's grain differs by noise and light.
    background_same: float = 25.0
    #: ... smoothed this many px (odd) first: a die's pips survive it, the camera's noise
    #: does not ...
    background_blur: int = 5
    #: ... at this percentile of the middle (a 1's pip covers 3 % of it).
    background_percentile: float = 99.0

    # --- the verdict ------------------------------------------------------------------
    #: A frame out of focus (:mod:`~dicetray.vision.focus`): the second blur, px, whose
    #: loss of gradient at an edge tells how blurred the edge was (1 px: a few times the
    #: finest blur told, in the working die of 35 px) ...
    reblur: float = 1.0
    #: ... taken at the strongest edges of a die's patch, this share of its pixels (its
    #: outline and its pips' rims: about a twentieth of a 35 px die's patch) ...
    strong_edges: float = 0.05
    #: ... less the blur, px, the measure reads on a perfectly sharp edge (a square drawn
    #: and turned, 25-200 px, measured 0.81-0.86 px at the working size) ...
    focus_floor: float = 0.85
    #: ... and the roll refused when the dice read are blurred over this share of an edge
    #: (a pip's radius is 0.085): chosen on the tray views of seed 180000 blurred by 3-10
    #: px (dice 80-100 px): of those answered wrong, the least blurred measures 0.052. The
    #: answers of the shared sets' photos measure 0.033 at most (matteop65; nell-byler's
    #: 0.000), of the hard rendered frames 0.037.
    defocus: float = 0.05
    #: A die whose find's centre lies within this share of its edge of the frame's border
    #: is cut by it (the pips read may all be on the part inside), and so is one whose face
    #: its pips place there (a 2 cut through shows one pip; the find is centred on the
    #: part inside: one matteop65 photo cut through a die, refused, nothing else changed
    #: on the shared, rendered, cut and calibrated sets). A find whose box reaches past
    #: the border (its centre within half its edge of it) is refused rather than left out:
    #: the classifier never saw a die cut. (Once a setting of its own, ``cut_face``, of
    #: that half.)
    cut_die: float = 0.25
    #: Least detector score of a find looked at only for a die the frame cuts so far that
    #: the detector hardly sees it (:func:`~dicetray.vision.kinship.cut_off_dim`): on a
    #: patch of the dice's colour the frame's edge cuts. Chosen on the tray views of seed
    #: 180000 cut to a third of a die inside and the train halves so cut: of the 39 such
    #: views answered a die short with that patch, the cut die's best find scores 0.03-0.49
    #: (2 none); on the photos read right whole, such patches hold finds of 0.02 and less
    #: but for four finds over :attr:`faint_find` that the reader weighed and left out
    #: (keys and a hub beside the pale table), which this rule leaves alone. A find left
    #: out that is centred beyond the frame's edge is weighed so too, whatever its score
    #: (its sliver is no whole die to the rules that left it out): of the views so cut
    #: and answered a die short, 9 of 19 refused at seed 180000 and 12 of 22 at seed
    #: 190000 (held out); of the photos read right whole, one is refused so (a white
    #: plug's corner the frame cuts, matteop65 five_40) ...
    dim_find: float = 0.03
    #: ... the frame looked at shrunk to this many px a die (the patch's pips and shading
    #: smoothed over; a die's part inside the frame a few px deep) ...
    blob_side: float = 16.0
    #: ... the patch (pixels nearer a clean die's body colour than any of their floors,
    #: and more than :attr:`plain_gap` from those: once :attr:`kin_plain_gap`'s 20, at
    #: which 5 more tray views cut to a third at seed 180000 and 4 at seed 190000, held
    #: out, were answered a die short) touching one of the frame's edges
    #: along at least this many edges (slivers of a tray's rim and of the table's grain,
    #: and a die's shadowed side, are shorter; the cut dice's patches on the tray views
    #: run 0.4-1.3) and at most :attr:`blob_outline` edges, no deeper than a top face's
    #: diagonal, ending there as a die does ...
    blob_along: float = 0.3
    #: ... (the most a die's outline runs along the edge, in the dice's median find
    #: sizes: seen at a slant a die shows its side faces, and the detector sizes its top
    #: face alone. A top face's diagonal, 1.41, was the bound before; nell-byler's
    #: labelled boxes run 1.73 of their photo's median find along their longer side at the
    #: median, 2.16 at the 95th percentile, 2.38 at the 99th; the tray views' outlines
    #: (seeds 3000-3039) 1.43, and 1.77 at most. Set to nell-byler's 95th percentile: of
    #: its photos cut to a third and answered a die short untold, 4 of 5 refused; held
    #: out, 2 of 9 such tray views at seed 180000 and 1 of 9 at 190000; 1.8 did the same.
    #: No photo or view read right whole is refused by it); its middle within the
    #: :attr:`patch` of a find (once a setting of its own, of the same 0.75); or, where no
    #: find over :attr:`dim_find` is there, its middle within half the dice's median size
    #: of the edge by itself
    #: (the detector may score nothing on a die a fifth inside the frame: of the tray
    #: views cut to a third and answered a die short, 1 more of 10 refused at seed 180000,
    #: 1 of 10 at seed 190000 held out; 2 of the cut real photos' 11 and 2 of 5 at half;
    #: one real photo read right whole refused, a white plug at the frame's edge,
    #: matteop65 six_60, and one read wrong, dice_8, refused).
    blob_outline: float = 2.2

    @property
    def kernel_side(self) -> int:
        """The pip filter kernel's side, working px (odd)."""
        return odd(self.kernel * self.work_pip)

    @property
    def pip_per_offset(self) -> tuple[float, float]:
        """The shares of the pip offset a find's size implies within which its face's
        pips' median diameter lies: the inverse of :attr:`offset_per_pip`."""
        return 1 / self.offset_per_pip[1], 1 / self.offset_per_pip[0]

    def __post_init__(self) -> None:
        if not self.spot_off < self.spot_on:
            raise ValueError(f"spot_on ({self.spot_on}) must lie above spot_off "
                             f"({self.spot_off})")
        if not 0.0 < self.dim_find <= self.faint_find:
            raise ValueError(f"dim_find ({self.dim_find}) must lie in (0, faint_find "
                             f"{self.faint_find}]")
        if not 0.0 < self.faint_find <= self.keep_find:
            raise ValueError(f"faint_find ({self.faint_find}) must lie in (0, keep_find "
                             f"{self.keep_find}]")


#: The settings the shipped reader uses.
DEFAULT_SETTINGS = ReaderSettings()
