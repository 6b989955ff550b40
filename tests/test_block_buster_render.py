"""Block Buster's pictures: valid, wide, small PNGs of real games, the same for everybody, and
changing with every placement; a one-line summary.
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
from tests.pictures import pixels

GAME = rules.GAMES["block-buster"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GAMES = [(2, None), (3, None), (4, None), (2, {"variant": "special-2p"}),
         (4, {"variant": "couples"}), (2, {"variant": "official-2p"})]


@functools.cache
def samples(players: int, variant: str | None) -> tuple[Any, ...]:
    """The start, a few middle positions and the end of one random game."""
    options = {"variant": variant} if variant else None
    state = GAME.new(players, seed=players, options=options)
    rng = random.Random(players)
    states = [state]
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    picked = sorted({0, 1, len(states) // 3, len(states) // 2, len(states) - 2, len(states) - 1})
    return tuple(states[i] for i in picked)


def all_samples() -> list[Any]:
    return [s for players, options in GAMES
            for s in samples(players, options["variant"] if options else None)]


@functools.cache
def _png(view_json: str) -> bytes:
    return render.png("block-buster", json.loads(view_json))


def png(view: dict[str, Any]) -> bytes:
    return _png(json.dumps(view, sort_keys=True))


def test_png_is_valid_wide_portrait_and_small() -> None:
    for state in all_samples():
        data = png(GAME.view(state, None))
        assert data.startswith(PNG_SIGNATURE)
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            assert image.format == "PNG" and image.width == 1000
            assert image.height > image.width
        assert len(data) < 300_000


def test_every_seat_sees_the_spectators_picture_and_determinize_changes_nothing() -> None:
    for state in all_samples()[::3]:
        spectator = render.png("block-buster", GAME.view(state, None))
        for seat in range(state.players):
            view = GAME.view(state, seat)
            assert {**view, "seat": None} == GAME.view(state, None)
            twin = GAME.determinize(state, seat, seed=seat + 7)
            assert pixels(render.png("block-buster", GAME.view(twin, None))) == pixels(spectator)


def test_the_picture_changes_with_every_placement() -> None:
    state = GAME.new(2, seed=3)
    rng = random.Random(3)
    for _ in range(6):
        (seat,) = GAME.to_act(state)
        after, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        assert png(GAME.view(after, None)) != png(GAME.view(state, None))
        state = after


def test_point_block_leaders_and_remaining_blocks_are_drawn() -> None:
    state = next(s for s in all_samples() if any(
        p["leader"] is not None for p in GAME.view(s, None)["point_blocks"]) and
        GAME.outcome(s) is None)
    view = GAME.view(state, None)
    base = png(view)
    led = next(p for p in view["point_blocks"] if p["leader"] is not None)
    other = copy.deepcopy(view)
    other["point_blocks"][view["point_blocks"].index(led)]["leader"] = None
    assert png(other) != base
    fewer = copy.deepcopy(view)
    fewer["blocks"][0] = fewer["blocks"][0][1:]
    assert png(fewer) != base
    named = {**view, "names": ["Alice", "Bob", "Chandra", "Dee"][: view["players"]]}
    assert png(named) != base


def test_width_option_scales_the_picture() -> None:
    view = GAME.view(all_samples()[2], None)
    with Image.open(io.BytesIO(render.png("block-buster", view, width=1400))) as image:
        assert image.width == 1400
    with pytest.raises(ValueError, match="at least"):
        render.png("block-buster", view, width=200)


def test_summary_is_one_line_saying_who_acts() -> None:
    for state in all_samples():
        view = GAME.view(state, None)
        line = render.summary("block-buster", view)
        assert line.startswith("Block Buster, ") and "\n" not in line and "  " not in line
        if view["result"] is None:
            assert f"{view['colours'][view['turn']].capitalize()} to place a block" in line
        else:
            assert "game over" in line and "Scores: " in line
    state = GAME.play(GAME.new(2, seed=1), GAME.new(2, seed=1).start, "1i r0 i1")[0]
    view = {**GAME.view(state, None), "names": ["Alice", "Bob"]}
    line = render.summary("block-buster", view)
    mover = ["Alice (Blue)", "Bob (Red)"][state.start]
    assert f"Last: {mover} placed 1i r0 at i1." in line


def test_special_two_player_result_names_the_winner_once_with_only_their_colours() -> None:
    from render import block_buster as drawing
    from tests.test_block_buster import _ended, rings

    squares = dict.fromkeys(rings("circle", 3), 2) | dict.fromkeys(rings("star", 1), 1)
    state = _ended(2, squares, options={"variant": "special-2p"}, passed=[True] * 4,
                   blocks=[[]] * 4)
    view = {**GAME.view(state, None), "names": ["Alice", "Bob"]}
    head, detail = drawing.status(view)
    assert head == "Game over: Alice wins"  # not 'Alice and Alice wins'
    assert detail == ("Every colour has passed. Alice (Blue and Yellow) wins with 3 point "
                      "blocks of one shape.")
    line = render.summary("block-buster", view)
    assert "Scores: Alice (Blue and Yellow) 12, Bob (Red and Green) 3." in line
    unnamed = drawing.status(GAME.view(state, None))[0]
    assert unnamed == "Game over: Blue and Yellow win"
