"""Bomb Squares' pictures: size limits, nothing hidden drawn, private parts, summaries.

Views come from one seeded random 3-player game: the start, the middle, a bet pending and
the end.
"""

from __future__ import annotations

import functools
import io
import random
from typing import Any

from PIL import Image

import render
import rules
from tests.pictures import pixels

GAME = rules.GAMES["bomb-squares"]


@functools.cache
def states() -> dict[str, Any]:
    state = GAME.new(3, seed=5)
    rng = random.Random(5)
    seen = [state]
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        seen.append(state)
    bets = [s for s in seen if s.phase == "bets"]
    return {"start": seen[0], "middle": seen[len(seen) // 2], "bets": bets[len(bets) // 2],
            "end": seen[-1]}


def picture(view: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(render.png("bomb-squares", view)))


def test_pictures_fit_the_size_limit() -> None:
    for name, state in states().items():
        for seat in (None, 0, state.turn):
            image = picture(GAME.view(state, seat) | {"names": ["Ann", "Bo", "Zoë"]})
            assert image.width == 1000 and image.height <= 1250, name
            small = render.image("bomb-squares", GAME.view(state, seat), width=600)
            assert small.width == 600 and small.height <= 750


def test_the_spectators_picture_shows_nothing_hidden() -> None:
    """Two states differing only in hidden facts (the deck, the mint tin cards, held cards,
    bets not yet revealed) give the same picture."""
    for state in states().values():
        twins = [GAME.determinize(state, None, k) for k in range(3)]
        assert len({tuple(t.for_sale[0]) for t in [*twins, state]}) > 1 or \
            GAME.outcome(state) is not None or not any(state.for_sale)
        shown = {pixels(render.png("bomb-squares", GAME.view(t, None))) for t in [state, *twins]}
        assert len(shown) == 1


def test_a_seats_picture_adds_its_mint_tin_cards() -> None:
    state = states()["middle"]
    public = picture(GAME.view(state, None))
    private = picture(GAME.view(state, 0))
    assert public.tobytes() != private.tobytes()


def test_a_pending_bet_and_the_end_are_summarised() -> None:
    bets = GAME.view(states()["bets"], None) | {"names": ["Ann", "Bo", "Zoë"]}
    line = render.summary("bomb-squares", bets)
    assert line.startswith("Bomb Squares: Bets on the green die: ")
    assert "attacks" in line and "Crystals: Ann" in line
    end = GAME.view(states()["end"], None)
    assert render.summary("bomb-squares", end).startswith("Bomb Squares: Game over: ")
    start = render.summary("bomb-squares", GAME.view(states()["start"], None))
    assert "draw a square card or sell mint tin cards" in start and "75 wins" in start
