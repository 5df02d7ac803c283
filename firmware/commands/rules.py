"""``dicetray rules``: list, show and score rule sets.

RULESET is a built-in id (``kniffel``), a combination with house-rule options
(``kniffel+sharp+full-cup``) or the path of a rule-set file. Every mistake (unknown rule
set or box, bad dice, a malformed file) ends with a one-line message and exit status 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from dicetray.firmware.commands.options import data_dir_option
from dicetray.rules import RulesError, RuleSet, ScoreContext, load_ruleset
from dicetray.rules.loader import list_options, list_rulesets, option_info


@contextmanager
def _rules_errors() -> Iterator[None]:
    """Turn any rules error into a one-line click error (no traceback)."""
    try:
        yield
    except RulesError as exc:
        raise click.ClickException(" ".join(str(exc).split())) from None


def _load(ruleset: str) -> RuleSet:
    with _rules_errors():
        return load_ruleset(ruleset)


def _one_line(exc: click.UsageError, command: str = "") -> click.ClickException:
    where = f"dicetray rules {command}".strip()
    return click.ClickException(f"{exc.format_message()} (see {where} --help)")


class _Command(click.Command):
    """A command whose usage mistakes end in one line too (status 1, no usage block).

    Like every dicetray command it takes ``--data-dir`` (the rules keep no files there).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(data_dir_option("unused by rules"))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _one_line(exc, self.name or "") from None


class _Group(click.Group):
    command_class = _Command

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:
            names = ", ".join(self.list_commands(ctx))
            raise click.ClickException(
                f"missing command: one of {names} (see dicetray rules --help)"
            )
        return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            raise _one_line(exc) from None


@click.group(cls=_Group)
def rules() -> None:
    """List, show and score rule sets."""


@rules.command("list")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
def list_command(lang: str) -> None:
    """The built-in rule sets, then the house-rule options (combine as kniffel+sharp)."""
    with _rules_errors():
        width = max(len(name) for name in [*list_rulesets(), *list_options()])
        click.echo("Rule sets:")
        for ruleset_id in list_rulesets():
            click.echo(f"  {ruleset_id:<{width}}  {load_ruleset(ruleset_id).name(lang)}")
        click.echo("Options (add to a rule set with +, e.g. kniffel+sharp+full-cup):")
        for option in list_options():
            click.echo(f"  {option:<{width}}  {option_info(option).name(lang)}")


@rules.command("show")
@click.argument("ruleset")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of text.")
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
def show_command(ruleset: str, as_json: bool, lang: str) -> None:
    """Settings and boxes of RULESET in sheet order, with what each box needs and scores."""
    rule_set = _load(ruleset)
    if as_json:
        click.echo(json.dumps(rule_set.to_dict(), ensure_ascii=False, indent=2))
        return
    for line in _show_lines(rule_set, lang):
        click.echo(line)


def _show_lines(rule_set: RuleSet, lang: str) -> Iterator[str]:
    yield f"{rule_set.name(lang)} ({rule_set.id})"
    if rule_set.description:
        yield rule_set.description
    if rule_set.source:
        yield f"source: {rule_set.source}"
    yield (
        f"dice {rule_set.dice}, faces 1-{rule_set.faces}, rolls {rule_set.rolls}, "
        f"hold {rule_set.hold}, scratch {rule_set.scratch}, declaration {rule_set.declaration}"
    )
    bonus = rule_set.upper_bonus
    if bonus:
        yield f"upper bonus: {bonus.points} at {bonus.threshold} ({', '.join(bonus.boxes)})"
    if rule_set.five_of_a_kind:
        extra = rule_set.extra
        further = (
            "no extra bonus, no joker"
            if extra.mode == "none"
            else f"a further one: {extra.mode}, bonus {extra.bonus}"
        )
        yield f"five-of-a-kind box: {rule_set.five_of_a_kind} ({further})"
    if rule_set.sharp:
        yield f"sharp throws: x{rule_set.sharp.factor} for {', '.join(rule_set.sharp.boxes)}"
    if rule_set.strict:
        chance = rule_set.strict.chance_five_of_a_kind
        rule = "" if chance is None else f"; Chance with a five-of-a-kind = {chance}"
        if rule_set.strict.full_house:
            rule += "; a five-of-a-kind counts as a full house"
        yield f"strict: top to bottom, no jokers{rule}"
    if rule_set.save_rolls:
        yield "unused rolls carry over to later turns"
    columns = ", ".join(f"{c.name(lang)} ({c.order})" for c in rule_set.columns)
    yield f"columns: {columns}; games per match: {rule_set.games_per_match}"
    if rule_set.options:
        yield f"options: {', '.join(rule_set.options)}"
    yield ""
    id_width = max(len(box.id) for box in rule_set.boxes)
    name_width = max(len(box.name(lang)) for box in rule_set.boxes)
    for box in rule_set.boxes:
        yield f"  {box.id:<{id_width}}  {box.name(lang):<{name_width}}  {box.describe()}"


@rules.command(
    "score",
    context_settings={"ignore_unknown_options": True},  # lets a bad die like -1 through
)
@click.argument("ruleset")
@click.argument("category")
@click.argument("dice", nargs=-1, required=True)
@click.option("--roll", type=int, default=None, help="Which roll of the turn made the dice.")
@click.option("--thrown", type=int, default=None, help="How many dice that roll threw.")
@click.option("--filled", multiple=True, metavar="BOX", help="A box already filled (repeatable).")
def score_command(
    ruleset: str,
    category: str,
    dice: tuple[str, ...],
    roll: int | None,
    thrown: int | None,
    filled: tuple[str, ...],
) -> None:
    """Points the dice make in CATEGORY of RULESET on an empty sheet (an integer).

    CATEGORY is a box id (full-house) or the box spelt another way: any case, spaces,
    underscores, camelCase, or the box's English or German name (FULL_HOUSE, "full house",
    Dreierpasch). DICE are separate numbers or one list: 1 2 3 4 5, or 1,2,3,4,5.
    """
    rule_set = _load(ruleset)
    # "1,2,3,4,5" (or "[1, 2, 3, 4, 5]") is five dice too
    values = [
        _die(part)
        for text in dice
        for part in (text.strip("[]").split(",") if "," in text else [text])
    ]
    with _rules_errors():
        filled_ids = frozenset(rule_set.find_box(box).id for box in filled)
        ctx = ScoreContext(roll=roll, thrown=thrown, filled=filled_ids)
        click.echo(rule_set.score(category, values, ctx))


def _die(text: str) -> int:
    """One DICE argument as a number; an unknown option that landed among the dice says so."""
    try:
        return int(text)
    except ValueError:
        if text.startswith("-"):
            raise click.ClickException(
                f"no such option {text!r} (see dicetray rules score --help)"
            ) from None
        raise click.ClickException(f"a die must be a whole number, not {text!r}") from None
