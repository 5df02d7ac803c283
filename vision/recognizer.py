"""The pip recognizer's old name: :func:`read` now lives in :mod:`dicetray.vision.reader`
(its stages in their own modules); this module keeps the old import working.

>>> from dicetray.vision.reader import read as reader_read
>>> read is reader_read
True
"""

from __future__ import annotations

from dicetray.vision.reader import read

__all__ = ["read"]
