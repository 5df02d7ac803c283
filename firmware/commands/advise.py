"""``dicetray advise``: optimal play, its figures, and the best choice for a situation.

    dicetray advise yahtzee --expected        # mean final score of optimal play
    dicetray advise yahtzee --max             # the most the rules allow (dice as wished)
    dicetray advise yahtzee --guaranteed      # what a cautious player is sure to score
    dicetray advise yahtzee --distribution    # optimal play's final scores, exactly
    dicetray advise yahtzee --sheet "sixes=24,yahtzee=50" --dice 6,6,2,3,1 --rolls-left 2

The figure asked for is the last thing printed. The strategy table is computed once per
rule set (a progress bar on stderr) and kept in the data directory's ``advisor`` folder.
Every mistake ends with one ``Error:`` line and exit status 1.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from dicetray.firmware.commands.errors import one_line
from dicetray.firmware.commands.options import data_dir_option
from dicetray.firmware.paths import data_dir
from dicetray.rules import RulesError, RuleSet, load_ruleset


@contextmanager
def _errors() -> Iterator[None]:
    """Rules errors (a refused rule set too) and a missing NumPy as one line."""
    try:
        yield
    except RulesError as exc:
        raise click.ClickException(" ".join(str(exc).split())) from None
    except ImportError as exc:
        raise click.ClickException(
            f"the advisor needs NumPy ({exc}); install dicetray[desktop] or apt's python3-numpy"
        ) from None


class _Command(click.Command):
    """Usage mistakes end in one line too (status 1, no usage block); takes ``--data-dir``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(data_dir_option("where strategy tables are kept"))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise one_line(exc) from None


class _Bar:
    """A progress bar on stderr, opened only if a table has to be computed."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.seen = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(
                length=total, label=self.label, file=sys.stderr
            )
            self.bar.__enter__()
        self.bar.update(done - self.seen)
        self.seen = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _numbers(text: str, what: str) -> list[int]:
    parts = text.replace(",", " ").replace("[", " ").replace("]", " ").split()
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise click.ClickException(
            f"{what} must be whole numbers, like 6,6,2,3,1: {text!r}"
        ) from None


def _scores(text: str) -> dict[str, int]:
    scores: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        box, sep, value = part.partition("=")
        if not sep:
            raise click.ClickException(f"--sheet takes box=points pairs, like sixes=24: {part!r}")
        try:
            scores[box.strip()] = int(value)
        except ValueError:
            raise click.ClickException(f"points must be a whole number: {part!r}") from None
    return scores


def _figure(value: float) -> str:
    return str(round(value)) if abs(value - round(value)) < 1e-9 else f"{value:.4f}"


def _table(rule_set: RuleSet, op: str) -> Any:
    from dicetray.rules.advisor.cache import load_table

    directory = data_dir(click.get_current_context().find_object(dict).get("data_dir")) / "advisor"
    bar = _Bar(f"Solving {rule_set.id}")
    try:
        return load_table(rule_set, directory, op=op, progress=bar)
    finally:
        bar.close()


@click.command("advise", cls=_Command)
@click.argument("ruleset")
@click.option("--expected", "mode", flag_value="expected", help="Mean final score of optimal play.")
@click.option("--max", "mode", flag_value="max", help="The highest score the rules allow.")
@click.option(
    "--guaranteed", "mode", flag_value="guaranteed", help="The score cautious play is sure of."
)
@click.option(
    "--distribution",
    "mode",
    flag_value="distribution",
    help="The exact distribution of optimal play's final score (the median last).",
)
@click.option("--sheet", default=None, help='Boxes filled so far: "sixes=24,yahtzee=50".')
@click.option("--dice", default=None, help="The dice on the table: 6,6,2,3,1.")
@click.option("--rolls-left", type=int, default=None, help="Rolls still allowed this turn.")
@click.option("--locked", default="", help="Dice set aside earlier (locked-hold games).")
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many options to list.",
)
@click.pass_context
def advise(
    ctx: click.Context,
    ruleset: str,
    mode: str | None,
    sheet: str | None,
    dice: str | None,
    rolls_left: int | None,
    locked: str,
    top: int,
) -> None:
    """Optimal play for RULESET: a figure, or the best keep or box for a situation."""
    ctx.ensure_object(dict)
    with _errors():
        rule_set = load_ruleset(ruleset)
        situation_given = dice is not None or rolls_left is not None or sheet is not None
        if mode and situation_given:
            raise click.ClickException(f"--{mode} takes no --sheet, --dice or --rolls-left")
        if mode == "max":
            from dicetray.rules.advisor.extremes import Unbounded, theoretical_max

            try:
                figure = theoretical_max(rule_set)
            except Unbounded as exc:
                click.echo(str(exc))
                click.echo("inf")
                return
            click.echo(f"theoretical maximum of {rule_set.id}: {figure}")
        elif mode == "expected":
            figure = _table(rule_set, "mean").expected
            click.echo(f"expected final score of optimal play in {rule_set.id}: {figure:.4f}")
        elif mode == "guaranteed":
            figure = _table(rule_set, "min").expected
            click.echo(f"score guaranteed whatever the dice do in {rule_set.id}: {_figure(figure)}")
        elif mode == "distribution":
            _distribution(rule_set)
        elif dice is None or rolls_left is None:
            raise click.ClickException(
                "say what to work out: --expected, --max, --guaranteed, --distribution, "
                "or --dice and --rolls-left (with --sheet) for a situation"
            )
        else:
            _situation(rule_set, sheet or "", dice, rolls_left, locked, top)


#: The percentiles ``--distribution`` prints (the median comes last, on its own).
PERCENTILES = (1, 5, 10, 25, 75, 90, 95, 99)


def _distribution(rule_set: RuleSet) -> None:
    from dicetray.rules.advisor.distribution import score_distribution

    table = _table(rule_set, "mean")
    bar = _Bar(f"Following optimal play in {rule_set.id}")
    try:
        found = score_distribution(table, progress=bar)
    finally:
        bar.close()
    mode = found.mode
    click.echo(f"final score of optimal play in {rule_set.id} (exact distribution):")
    click.echo(f"  mean                {found.mean:.4f}")
    click.echo(f"  standard deviation  {found.sd:.4f}")
    click.echo(f"  mode                {mode} ({100 * found.probabilities[mode]:.4f} % of games)")
    for q in PERCENTILES:
        click.echo(f"  percentile {q:>2}       {found.percentile(q)}")
    click.echo(f"median: {found.median}")


def _situation(
    rule_set: RuleSet, sheet: str, dice: str, rolls_left: int, locked: str, top: int
) -> None:
    from dicetray.rules.advisor.advice import Situation
    from dicetray.rules.advisor.advice import advise as advise_on

    situation = Situation.from_scores(rule_set, _scores(sheet))
    values = _numbers(dice, "--dice")
    kept = _numbers(locked, "--locked")
    advice = advise_on(_table(rule_set, "mean"), situation, values, rolls_left, kept)
    width = max(len(o.describe()) for o in advice.options[:top])
    for option in advice.options[:top]:
        click.echo(f"  {option.describe():<{width}}  {option.expected:9.4f}")
    best = advice.best
    click.echo(f"best: {best.describe()}, expected final score {best.expected:.4f}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(advise())
