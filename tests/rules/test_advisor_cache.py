"""The strategy table on disk: reused when it checks out, recomputed when it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicetray.rules import load_ruleset
from dicetray.rules.advisor.cache import TableCache, content_key


@pytest.fixture
def cache(tmp_path: Path) -> TableCache:
    return TableCache(tmp_path / "advisor")


def _calls(cache: TableCache, ruleset: str) -> list[tuple[int, int]]:
    seen: list[tuple[int, int]] = []
    cache.load_or_build(
        load_ruleset(ruleset), progress=lambda done, total: seen.append((done, total))
    )
    return seen


def test_the_table_is_computed_once_then_read(cache: TableCache) -> None:
    first = _calls(cache, "general")
    assert first and first[-1][0] == first[-1][1]  # the progress reached the end
    assert _calls(cache, "general") == []  # read back, nothing computed
    table = cache.load(load_ruleset("general"))
    assert table is not None and table.expected == pytest.approx(
        cache.load_or_build(load_ruleset("general")).expected
    )


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[:-8],  # cut short
        lambda raw: raw[:-1] + bytes([raw[-1] ^ 1]),  # one bit of a value flipped
        lambda raw: b"X" + raw[1:],  # not a table file
        lambda raw: raw.replace(b'"sha256": "', b'"sha256": "0', 1),  # checksum altered
        lambda raw: b"",
    ],
)
def test_a_damaged_file_is_recomputed_never_trusted(cache: TableCache, damage) -> None:
    rs = load_ruleset("general")
    good = cache.load_or_build(rs).expected
    path = cache.path(rs)
    path.write_bytes(damage(path.read_bytes()))
    assert cache.load(rs) is None
    assert _calls(cache, "general")  # computed again
    assert cache.load(rs).expected == good


def test_a_changed_rule_set_gets_its_own_table(cache: TableCache, tmp_path: Path) -> None:
    house = tmp_path / "general.toml"
    house.write_text('extends = "general"\n[[boxes]]\nid = "general"\nparams = { points = 80 }\n')
    plain, changed = load_ruleset("general"), load_ruleset(house)
    assert content_key(plain) != content_key(changed)
    assert cache.load_or_build(changed).expected > cache.load_or_build(plain).expected


def test_names_and_descriptions_do_not_change_the_key(tmp_path: Path) -> None:
    renamed = tmp_path / "renamed.toml"
    renamed.write_text('extends = "yacht"\nnames = { en = "Boat" }\ndescription = "Same game."\n')
    assert content_key(load_ruleset(renamed)) == content_key(load_ruleset("yacht"))


def test_a_stale_file_under_the_right_name_is_recomputed(cache: TableCache, tmp_path: Path) -> None:
    house = tmp_path / "general.toml"
    house.write_text('extends = "general"\n[[boxes]]\nid = "general"\nparams = { points = 80 }\n')
    plain, changed = load_ruleset("general"), load_ruleset(house)
    cache.load_or_build(changed)
    cache.path(changed).replace(cache.path(plain))  # another game's table under this name
    assert cache.load(plain) is None
