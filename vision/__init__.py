"""The eyes: frame sources, the pip recognizer, calibration and the rendered camera."""
