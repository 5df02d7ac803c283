"""The web layer: the scorecard every phone at the table opens."""
