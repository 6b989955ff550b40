"""What the render tests share: a seeded random game played out for its states, and a
picture decoded, or its size and colours compared."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

from PIL import Image

from rules.core import Game


def play_out(game: Game[Any], players: int, seed: int, *,
             options: dict[str, Any] | None = None, any_seat: bool = False,
             pick: Callable[[random.Random, list[str]], str] | None = None) -> list[Any]:
    """Every state of one seeded random game, from the deal to the end: at each step the
    lowest seat to act (with ``any_seat``, one drawn at random) plays a random legal move
    (or the one ``pick`` draws from them)."""
    rng = random.Random(seed)
    state = game.new(players, seed, options)
    states = [state]
    while game.outcome(state) is None:
        awaited = sorted(game.to_act(state))
        seat = rng.choice(awaited) if any_seat else awaited[0]
        moves = game.legal_moves(state, seat)
        state, _ = game.play(state, seat, pick(rng, moves) if pick else rng.choice(moves))
        states.append(state)
    return states


def decoded(picture: bytes) -> Image.Image:
    """A PNG (a GIF: its first frame) decoded, in RGB."""
    with Image.open(io.BytesIO(picture)) as image:
        return image.convert("RGB")


def pixels(picture: bytes) -> tuple[tuple[int, int], bytes]:
    """A PNG's size and colours, decoded: what a viewer sees.

    Tests compare these, not the PNG's bytes: ISA-L, the deflater, now and then encodes the
    same rows to other valid bytes, as its buffers start uninitialised (measured: about one
    strip in 3,000).
    """
    image = decoded(picture)
    return image.size, image.tobytes()
