"""Battle Tiles pictures: valid, small PNGs of real games; nothing hidden drawn; summaries.

Views come from seeded random games (every power token played, the rotate and chaos
follow-up choices reached, games to the end).
"""

from __future__ import annotations

import copy
import functools
import io
import json
import random
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render.battle_tiles import status
from tests.pictures import pixels

GAME = rules.GAMES["battle-tiles"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def play_out(seed: int) -> list[Any]:
    """Every state of one random game, preferring moves with power tokens."""
    rng = random.Random(seed)
    state = GAME.new(2, seed)
    states = [state]
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        moves = GAME.legal_moves(state, seat)
        powered = [m for m in moves if " with " in m]
        move = rng.choice(powered if powered and rng.random() < 0.5 else moves)
        state, _ = GAME.play(state, seat, move)
        states.append(state)
    return states


@functools.cache
def samples() -> tuple[Any, ...]:
    picked: list[Any] = []
    for seed in (1, 2, 3):
        states = play_out(seed)
        picked += [*states[::6], states[-1]]
        picked += [s for s in states if s.phase in ("rotate", "chaos")][:2]
    return tuple(picked)


@functools.cache
def _png(view_json: str) -> bytes:
    return render.png("battle-tiles", json.loads(view_json))


def png(view: dict[str, Any]) -> bytes:
    return _png(json.dumps(view, sort_keys=True))


def test_samples_reach_every_phase() -> None:
    assert {s.phase for s in samples()} >= {"place", "rotate", "over"}


def test_png_is_valid_wide_and_small() -> None:
    for state in samples():
        for seat in (None, 0, 1):
            data = png(GAME.view(state, seat))
            assert data.startswith(PNG_SIGNATURE)
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                assert image.width == 1000 and image.height >= image.width
            assert len(data) < 300_000


def test_spectator_picture_is_pixel_identical_after_determinize() -> None:
    compared = 0
    for state in samples()[::2]:
        spectator = png(GAME.view(state, None))
        for seat in (0, 1):
            other = GAME.determinize(state, seat, seed=seat + 7)
            if other.hands == state.hands and other.stacks == state.stacks:
                continue
            assert pixels(render.png("battle-tiles", GAME.view(other, None))) == pixels(spectator)
            compared += 1
    assert compared >= 5


def test_picture_changes_after_a_move() -> None:
    state = samples()[1]
    seat = min(GAME.to_act(state))
    after, _ = GAME.play(state, seat, GAME.legal_moves(state, seat)[0])
    assert png(GAME.view(after, None)) != png(GAME.view(state, None))


def test_a_seats_picture_adds_its_hand() -> None:
    state = samples()[2]
    mine = GAME.view(state, 0)
    assert png(mine) != png(GAME.view(state, None))
    other = copy.deepcopy(mine)
    other["hand"][0]["sides"] = ["P", "B", 9, 9]
    assert png(other) != png(mine)  # the tiles themselves are drawn
    assert png(GAME.view(state, 0)) != png(GAME.view(state, 1))


def test_markers_tokens_and_icons_are_drawn() -> None:
    view = GAME.view(samples()[3], None)
    base = png(view)
    placed = next(i for i, sq in enumerate(view["grid"]) if sq["sides"] is not None)
    tile = view["grid"][placed]
    for change in ({"marker": 1 - (tile["marker"] or 0), "scoring": True},
                   {"token": "life" if tile["token"] == "death" else "death"},
                   {"sides": ["P", "B", 1, 1] if tile["sides"][0] != "P" else [1, 1, 1, 1]}):
        other = copy.deepcopy(view)
        other["grid"][placed].update(change)
        assert png(other) != base, change
    used = copy.deepcopy(view)
    used["tokens"][0] = [] if view["tokens"][0] else ["rotate", "chaos", "death", "life"]
    assert png(used) != base


def test_display_names_are_drawn_and_said() -> None:
    view = GAME.view(samples()[2], None)
    named = {**view, "names": ["Alice", "Bob"]}
    assert png(named) != png(view)
    assert "Alice (Red)" in render.summary("battle-tiles", named) or \
        "Bob (Blue)" in render.summary("battle-tiles", named)


def test_summary_is_one_line_and_only_a_seat_hears_its_hand() -> None:
    for state in samples():
        line = render.summary("battle-tiles", GAME.view(state, None))
        assert line.startswith("Battle Tiles, ") and "\n" not in line and "  " not in line
        assert "Your hand" not in line
        assert "Score: Red " in line
        if GAME.outcome(state) is None:
            assert ("Red" if state.turn == 0 else "Blue") in line.split(".")[0]
        else:
            assert "game over" in line
    state = samples()[2]
    mine = render.summary("battle-tiles", GAME.view(state, 0))
    assert "Your hand: 1: " in mine


@pytest.mark.parametrize("width", [600, 1400])
def test_other_widths_scale(width: int) -> None:
    data = render.png("battle-tiles", GAME.view(samples()[-1], 1), width=width)
    with Image.open(io.BytesIO(data)) as image:
        assert image.width == width


def test_the_opening_picture_says_who_was_drawn_to_start() -> None:
    starts = {}
    for seed in range(12):
        state = GAME.new(2, seed)
        view = GAME.view(state, None)
        name = "Red" if state.first == 0 else "Blue"
        assert status(view) == (f"{name} starts: place a tile",
                                "Drawn at random. Type 'place 2 at c3' (hand tile 2).")
        assert render.summary("battle-tiles", view).startswith(
            f"Battle Tiles, {name} to place a tile, drawn at random to start.")
        starts[state.first] = png(view)
    assert len(starts) == 2 and starts[0] != starts[1]
    after, _ = GAME.play(state, state.first, GAME.legal_moves(state, state.first)[0])
    assert "starts" not in status(GAME.view(after, None))[0]
