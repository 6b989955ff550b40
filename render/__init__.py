"""Boardroom's pictures: a PNG and a one-line summary for any game's view.

A renderer is a pure function of a *view* (never a state), so it cannot draw what the
viewer may not know. Each game adds one module and one line in ``RENDERERS``.

    render.png("cube-conquest", game.view(state, None))       # the board, for the channel
    render.png("cube-conquest", game.view(state, 0))          # adds seat 0's hand, for a DM
    render.summary("cube-conquest", game.view(state, None))   # the same as one line of text
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from render import battle_tiles, block_buster, bomb_squares, crystallia, cube_conquest, kit

MIN_WIDTH = 600


class Draw(Protocol):
    """A game's picture of a view, ``width`` pixels wide."""

    def __call__(self, view: dict[str, Any], *, width: int = ...) -> Image.Image: ...


class Parts(Protocol):
    """A game's picture of a view as parts to stack: palette images and deflated bands."""

    def __call__(self, view: dict[str, Any], *,
                 width: int = ...) -> list[Image.Image | kit.Band]: ...


@dataclass(frozen=True)
class Renderer:
    """How one game is drawn: the picture of a view, and the view as a sentence."""

    draw: Draw
    summary: Callable[[dict[str, Any]], str]
    surfaces: tuple[kit.RGB, ...] = ()  # colours the game adds to the kit's palette
    # ``draw``'s picture as parts of a PNG (``kit.png_stack``), when some are shared by the
    # pictures of a move and kept deflated; None: the PNG is made from ``draw``.
    parts: Parts | None = None


RENDERERS: dict[str, Renderer] = {
    "battle-tiles": Renderer(battle_tiles.draw, battle_tiles.summary, battle_tiles.SURFACES),
    "cube-conquest": Renderer(cube_conquest.draw, cube_conquest.summary,
                              cube_conquest.SURFACES, cube_conquest.parts),
    "crystallia": Renderer(crystallia.draw, crystallia.summary, crystallia.SURFACES),
    "block-buster": Renderer(block_buster.draw, block_buster.summary, block_buster.SURFACES),
    "bomb-squares": Renderer(bomb_squares.draw, bomb_squares.summary, bomb_squares.SURFACES),
}


def renderer(game_id: str) -> Renderer:
    """The renderer registered for ``game_id``."""
    try:
        return RENDERERS[game_id]
    except KeyError:
        known = ", ".join(sorted(RENDERERS))
        raise ValueError(f"There is no picture for the game {game_id!r} (known: {known}).") \
            from None


def image(game_id: str, view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The picture of ``view`` as a Pillow image, ``width`` pixels wide (height follows)."""
    _check(width)
    return renderer(game_id).draw(view, width=width)


def png(game_id: str, view: dict[str, Any], *, width: int = 1000) -> bytes:
    """The picture of ``view`` as PNG bytes: 1000 px wide by default, made for phones."""
    drawer = renderer(game_id)
    if drawer.parts is not None and kit.PALETTE_DRAWING:
        _check(width)
        return kit.png_stack(drawer.parts(view, width=width))
    return kit.finish(image(game_id, view, width=width), surfaces=drawer.surfaces)


def _check(width: int) -> None:
    if width < MIN_WIDTH:
        raise ValueError(f"Pictures are at least {MIN_WIDTH} pixels wide, not {width}.")


def summary(game_id: str, view: dict[str, Any]) -> str:
    """One line saying what the picture shows: whose turn, the points, the last move."""
    return renderer(game_id).summary(view)


__all__ = ["RENDERERS", "Draw", "Parts", "Renderer", "image", "png", "renderer", "summary"]
