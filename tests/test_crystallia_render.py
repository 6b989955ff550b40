"""Crystallia's pictures: valid small PNGs of real games, nothing hidden drawn, summaries.

Views come from seeded random games for 2, 3 and 4 players (one in advanced mode), sampled
at the start, in every phase of a turn, and at the end.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import random
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import crystallia as drawing
from tests.pictures import pixels

GAME = rules.GAMES["crystallia"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def play_out(players: int, seed: int, advanced: bool = False) -> list[Any]:
    rng = random.Random(seed)
    state = GAME.new(players, seed, {"advanced": advanced})
    states = [state]
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return states


@functools.cache
def samples() -> tuple[Any, ...]:
    """The first state of each phase met, a middle state and the last, of four games."""
    picked: list[Any] = []
    for players, seed, advanced in ((2, 1, False), (3, 2, True), (4, 3, False), (2, 4, True)):
        states = play_out(players, seed, advanced)
        seen: set[str] = set()
        for state in states:
            if state.phase not in seen:
                seen.add(state.phase)
                picked.append(state)
        picked += [states[len(states) // 2], states[-1]]
    return tuple(picked)


@functools.cache
def _png(view_json: str) -> bytes:
    return render.png("crystallia", json.loads(view_json))


def png(view: dict[str, Any]) -> bytes:
    return _png(json.dumps(view, sort_keys=True))


def test_the_samples_reach_every_phase() -> None:
    assert {s.phase for s in samples()} == {"flip", "take", "place", "ability", "gain", "over"}


@pytest.mark.parametrize("index", range(8))
def test_pictures_are_small_wide_pngs(index: int) -> None:
    for state in samples()[index::8]:
        for seat in (None, 0):
            data = png(GAME.view(state, seat))
            assert data.startswith(PNG_SIGNATURE)
            assert len(data) < 300_000
            image = Image.open(io.BytesIO(data))
            image.verify()
            assert image.width == 1000 and 1200 < image.height < 2400


def test_face_down_stones_are_drawn_the_same_whatever_they_are() -> None:
    """The spectator's image of a state is pixel-identical after the face-down stones are
    dealt again: nothing about them is drawn."""
    state = GAME.new(3, seed=5)
    twins = [GAME.determinize(state, None, k) for k in range(4)]
    assert len({tuple(t.pyramid) for t in twins}) > 1
    assert {pixels(png(GAME.view(t, None))) for t in [state, *twins]} == {
        pixels(png(GAME.view(state, None)))}


def test_nothing_is_private_so_a_seat_sees_the_spectators_picture() -> None:
    for state in samples()[:6]:
        spectator = GAME.view(state, None)
        assert pixels(png({**GAME.view(state, 0), "seat": None})) == pixels(png(spectator))


def test_the_picture_changes_after_a_move() -> None:
    states = play_out(2, 9)
    for before, after in itertools.pairwise(states[:13]):
        assert png(GAME.view(before, None)) != png(GAME.view(after, None))


def test_a_uncovered_stone_appears_in_the_picture() -> None:
    """Front stones 1 and 2 cover 10 (the 24-stone pyramid of 3-4 players); taking both
    makes 10 available: its badge is drawn."""
    state = GAME.new(3, seed=2)
    view = GAME.view(state, None)
    assert not view["pyramid"][9]["available"]
    rng = random.Random(0)
    for take in ("take 1", "take 2"):
        state, _ = GAME.play(state, state.turn, take)
        while state.phase != "take":
            state, _ = GAME.play(state, state.turn, rng.choice(GAME.legal_moves(state,
                                                                                 state.turn)))
    assert GAME.view(state, None)["pyramid"][9]["available"]


def test_summaries_say_who_acts_the_points_and_the_last_action() -> None:
    state = GAME.new(2, seed=1)
    view = GAME.view(state, None) | {"names": ["Alice", "Zoë"]}
    first = view["names"][state.turn]
    line = render.summary("crystallia", view)
    assert line.startswith(f"Crystallia: {kit_clean(first)}: take a stone or a talisman.")
    assert "Points: Alice 0, Zoe 0." in line
    state, _ = GAME.play(state, state.turn, "take 1")
    view = GAME.view(state, None) | {"names": ["Alice", "Bob"]}
    assert render.summary("crystallia", view).endswith("took stone 1.")
    end = samples()[-1]
    assert render.summary("crystallia", GAME.view(end, None)).startswith("Crystallia: Game over")


def kit_clean(name: str) -> str:
    return drawing.kit.clean(name)


def test_status_names_the_second_turn_and_the_pending_ability() -> None:
    for state in samples():
        view = GAME.view(state, None)
        head, detail = drawing.status(view)
        if state.phase == "ability":
            assert "a stone (" in head and "or skip" in head
        if state.phase not in ("over", "flip") and state.streak == 2:
            assert detail.startswith("Second turn in a row.")
            assert "(second turn in a row)" in render.summary("crystallia", view)
