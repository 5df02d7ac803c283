"""Command groups of the `dicetray` command line."""
