"""A folder of pictures a maintainer can open and look at: every game, every seat count and
variant, at set moments of seeded games, as the channel and as a seat see them.

    .venv/bin/python -m render.gallery OUT_DIR

Writes ``OUT_DIR/<game>/<name>.png`` (a second attachment as ``<name>-2.png``), each game's
recap chart as ``OUT_DIR/<game>/recap.png``, and ``OUT_DIR/index.html``, one row a picture
with its summary. ``moments`` is also the fixed set of views the render tests check.
"""

from __future__ import annotations

import html
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import render
import rules
from render import recap

NAMES = ["Alice", "Bob", "Chidi", "Dana"]


@dataclass(frozen=True)
class Moment:
    """One picture's view: which game, at what point, seen by whom."""

    game: str
    name: str  # e.g. '3p-advanced-mid-seat1'
    state: Any
    seat: int | None

    def view(self) -> dict[str, Any]:
        game = rules.GAMES[self.game]
        view = game.view(self.state, self.seat)
        view["names"] = NAMES[: self.state.players]
        return view


def variants(game: rules.Game[Any]) -> list[tuple[str, dict[str, Any] | None]]:
    """The default set-up, then each option's values one at a time."""
    out: list[tuple[str, dict[str, Any] | None]] = [("", None)]
    for name, values in game.option_values.items():
        for value in values:
            if value is True:
                out.append((f"-{name}", {name: True}))
            elif value is not False:
                out.append((f"-{value}", {name: value}))
    return out


def moments(game_id: str, *, seed: int = 1) -> Iterator[Moment]:
    """For each seat count and variant, a seeded random game at its start, a third and two
    thirds of the way, the first time several seats are awaited at once (a secret choice),
    and its end; the channel's view, and the view of the seat to act (or the first)."""
    game = rules.GAMES[game_id]
    for players in range(game.min_players, game.max_players + 1):
        for suffix, options in variants(game):
            try:
                state = game.new(players, seed + players, options)
            except rules.GameError:
                continue  # a variant for another seat count
            rng = random.Random(f"gallery/{game_id}/{players}{suffix}/{seed}")
            states = [state]
            while game.outcome(state) is None:
                seat = rng.choice(sorted(game.to_act(state)))
                state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
                states.append(state)
            points = {"start": states[0], "early": states[len(states) // 3],
                      "late": states[2 * len(states) // 3], "over": states[-1]}
            secret = next((s for s in states if len(game.to_act(s)) > 1), None)
            if secret is not None:
                points["secret"] = secret
            for when, shown in points.items():
                awaited = sorted(game.to_act(shown)) or [0]
                for looking in (None, awaited[-1]):
                    viewer = "channel" if looking is None else f"seat{looking + 1}"
                    yield Moment(game_id, f"{players}p{suffix}-{when}-{viewer}", shown,
                                 looking)


def recap_chart(game_id: str, *, seed: int = 1) -> dict[str, Any]:
    """The recap's chart of a seeded random game of the fewest players: each seat's public
    points at the deal and after each move."""
    game = rules.GAMES[game_id]
    state = game.new(game.min_players, seed)
    rng = random.Random(f"gallery/{game_id}/recap/{seed}")
    series: list[list[float]] = [[p] for p in game.points(state) or ()]
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
        for line, points in zip(series, game.points(state) or (), strict=True):
            line.append(points)
    view = game.view(state, None)
    view["names"] = NAMES[: state.players]
    return recap.chart(game_id, view, series)


def write(folder: str) -> int:
    """Every game's moments as PNGs in ``folder``, with an index page; returns the count."""
    rows, count = [], 0
    for game_id in sorted(rules.GAMES):
        os.makedirs(os.path.join(folder, game_id), exist_ok=True)
        for moment in moments(game_id):
            view = moment.view()
            names = []
            for n, png in enumerate(render.pngs(game_id, view)):
                name = f"{moment.name}{f'-{n + 1}' if n else ''}.png"
                with open(os.path.join(folder, game_id, name), "wb") as file:
                    file.write(png)
                names.append(f"{game_id}/{name}")
                count += 1
            images = "".join(f'<img src="{html.escape(n)}" width="500">' for n in names)
            rows.append(f"<tr><td>{html.escape(game_id)}<br>{html.escape(moment.name)}<br>"
                        f"{html.escape(render.summary(game_id, view))}</td>"
                        f"<td>{images}</td></tr>")
        chart = recap_chart(game_id)
        with open(os.path.join(folder, game_id, "recap.png"), "wb") as file:
            file.write(recap.png(chart))
        count += 1
        rows.append(f"<tr><td>{html.escape(game_id)}<br>recap<br>"
                    f"{html.escape(recap.summary(chart))}</td><td><img src="
                    f"\"{html.escape(game_id)}/recap.png\" width=\"500\"></td></tr>")
    with open(os.path.join(folder, "index.html"), "w", encoding="utf-8") as page:
        page.write("<!doctype html><meta charset='utf-8'><title>Boardroom pictures</title>"
                   "<table border=1 cellpadding=6>" + "\n".join(rows) + "</table>")
    return count


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m render.gallery OUT_DIR", file=sys.stderr)
        return 2
    count = write(args[0])
    print(f"{count} pictures in {args[0]} (open {os.path.join(args[0], 'index.html')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
