"""The eyes: frame sources, the pip recognizer, calibration and the rendered camera.

>>> from dicetray.vision import DieReading, Reading
>>> Reading("ok", "", (DieReading(4, 10.0, 10.0, 0.0, "unknown", 0.9, 20.0),)).values
(4,)
"""

from dicetray.vision.reader import read
from dicetray.vision.reading import DieReading, Reading, Reason

__all__ = ["DieReading", "Reading", "Reason", "read"]
