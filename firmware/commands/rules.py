"""``dicetray rules``: list, show and score rule sets (being built)."""

from __future__ import annotations

import click


@click.group()
def rules() -> None:
    """List, show and score rule sets."""
