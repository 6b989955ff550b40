"""The standings picture (render/standings.py): it draws the same ranks, names and figures
as the text a screen reader gets (bot.leagues.text), in type no smaller than the tables',
no taller than 1.25 x its width, long names shortened, a long league cut with a line
saying so."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from PIL import Image

from bot import leagues
from render import kit, standings

LONG = "Bartholomew Featherstonehaugh-Cholmondeley the Third of Little Snoring"


def played(n: int, fmt: leagues.Format, rounds: int, seed: int = 1) -> leagues.League:
    lg = leagues.start(leagues.Settings("crystallia", fmt, rounds, 86400.0), list(range(n)))
    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = leagues.pair(lg, seed)
        lg = dataclasses.replace(lg, rounds=(*lg.rounds, round_))
        for table in round_.tables:
            places = rng.choice([(0, 1), (1, 0), (0, 0)])
            lg = leagues.record(lg, leagues.Result(round_.number, table, places, (
                float(rng.randrange(30)), float(rng.randrange(30)))))
    return lg


def names(lg: leagues.League) -> dict[int, str]:
    return {e.number: LONG if e.number == 3 else f"Player {e.number + 1}"
            for e in lg.entries}


class Drawn:
    """What a picture drew, in order: each line of text (a chip's letter too: ``kit.chip``
    draws it with ``kit.text``), with its type size."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lines: list[tuple[str, int]] = []
        text = kit.text

        def spy_text(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                     *args: Any, **kwargs: Any) -> kit.Box:
            self.lines.append((line, size))
            return text(image, xy, line, size, *args, **kwargs)

        monkeypatch.setattr(kit, "text", spy_text)

    @property
    def words(self) -> list[str]:
        return [line for line, _ in self.lines]


@pytest.mark.parametrize(("fmt", "n", "rounds"), [("swiss", 12, 4), ("round-robin", 8, 7)])
def test_the_picture_and_the_text_give_the_same_ranks_names_and_figures(
        monkeypatch: pytest.MonkeyPatch, fmt: leagues.Format, n: int, rounds: int) -> None:
    lg = played(n, fmt, rounds)
    table = leagues.standings(lg)
    said = leagues.text(table, names(lg)).splitlines()
    drawn = Drawn(monkeypatch)
    image = standings.draw(leagues.picture(table, names(lg), "Standings after round 4"))
    words = drawn.words
    at = words.index("Player") + len(table.columns) + 3  # the headings drawn, then the rows
    cells = 4 + len(table.columns)  # rank, name, points, games, tiebreaks
    assert len(words) - at >= cells * n
    for k, (line, row) in enumerate(zip(said, table.rows, strict=True)):
        rank, name, points, games, *breaks = words[at + k * cells: at + (k + 1) * cells]
        assert line.startswith(f"{rank}. ")
        assert rank.lstrip("=") == str(row.rank)
        spoken = line.split(". ", 1)[1].split(": ")[0]
        assert spoken == name or (name.endswith("…") and spoken.startswith(name[:-1])), (
            spoken, name)
        assert f": {points} point" in line and f"from {games} game" in line
        for column, figure in zip(table.columns, breaks, strict=True):
            assert f"{column} {figure}" in line
    assert image.width == 1000 and kit.fits(image)
    assert any(w.endswith("…") and LONG.startswith(w[:-1]) for w in words)  # shortened


def test_every_line_is_large_enough_to_read_on_a_phone(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    lg = played(12, "swiss", 4)
    drawn = Drawn(monkeypatch)
    standings.draw(leagues.picture(leagues.standings(lg), names(lg), "Standings"))
    sizes = {size for _, size in drawn.lines}
    assert min(sizes) >= 24
    assert all(kit.letter_height(size) >= kit.LETTER for size in sizes)


@pytest.mark.parametrize("width", [600, 1000, 1400])
def test_a_long_league_shows_its_top_rows_and_says_how_many_more(
        monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    lg = played(40, "swiss", 5)
    data = leagues.picture(leagues.standings(lg), names(lg), "Standings")
    drawn = Drawn(monkeypatch)
    image = standings.draw(data, width=width)
    shown = standings.fitting(data, width)
    assert 10 <= shown < 40
    assert f"and {40 - shown} more: the text lists every player" in drawn.words
    assert image.width == width and kit.fits(image)


def test_a_short_league_shows_everyone_and_says_who_leads() -> None:
    lg = played(4, "round-robin", 3)
    data = leagues.picture(leagues.standings(lg), names(lg), "Spring league")
    assert standings.fitting(data) == 4
    leader = data["rows"][0]
    assert standings.summary(data).startswith(f"Spring league: {leader['name']}")
    assert standings.summary(data).endswith("; 4 players.")
    assert kit.fits(standings.draw(data))
    assert standings.png(data).startswith(b"\x89PNG")
    empty = {"title": "New league", "columns": ["Points", "Games"], "rows": []}
    assert standings.summary(empty) == "New league: nobody yet."
    assert kit.fits(standings.draw(empty))
