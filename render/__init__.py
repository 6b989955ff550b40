"""Boardroom's pictures: PNGs and a one-line summary for any game's view.

A renderer is a pure function of a *view* (never a state), so it cannot draw what the
viewer may not know. Each game has one module, ``render/<game>.py``, with
``draw(view, *, width) -> Image``, ``summary(view) -> str`` and ``describe(view) -> str``
(the picture as text a screen reader reads), and the two parts ``draw``
stacks: ``table`` (the board and the seats: what everyone sees, the same for every viewer)
and ``hand`` (what the viewing seat alone knows; None for a spectator or when it holds
nothing).

    render.png("cube-conquest", game.view(state, None))     # the table, for the channel
    render.pngs("cube-conquest", game.view(state, 0))       # seat 0's picture(s), for a DM
    render.summary("cube-conquest", game.view(state, None)) # the same as one line of text
    render.describe("cube-conquest", game.view(state, 0))   # all it shows, as plain text
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import struct
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from PIL import Image

from render import battle_tiles, block_buster, bomb_squares, crystallia, cube_conquest, kit

MIN_WIDTH = 600

RENDERERS: dict[str, ModuleType] = {
    "battle-tiles": battle_tiles,
    "block-buster": block_buster,
    "bomb-squares": bomb_squares,
    "crystallia": crystallia,
    "cube-conquest": cube_conquest,
}


def renderer(game_id: str) -> ModuleType:
    """The module that draws ``game_id``."""
    try:
        return RENDERERS[game_id]
    except KeyError:
        known = ", ".join(sorted(RENDERERS))
        raise ValueError(f"There is no picture for the game {game_id!r} (known: {known}).") \
            from None


def hand_every_turn(game_id: str) -> bool:
    """Whether a seat's own picture goes to its player at each of their turns even when
    nothing only they know changed: a game with nothing hidden whose ``hand`` is what a
    player plays from (a renderer says so with ``HAND_EVERY_TURN = True``)."""
    return bool(getattr(RENDERERS.get(game_id), "HAND_EVERY_TURN", False))


def image(game_id: str, view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The picture of ``view`` as a Pillow image, ``width`` pixels wide (height follows)."""
    _check(width)
    drawn: Image.Image = renderer(game_id).draw(view, width=width)
    return drawn


def png(game_id: str, view: dict[str, Any], *, width: int = 1000) -> bytes:
    """The picture of ``view`` as PNG bytes: 1000 px wide by default, made for phones."""
    return kit.png(image(game_id, view, width=width))


def shown(png_bytes: bytes) -> str:
    """A digest of what a PNG shows (its size and pixels, decoded): equal for two PNGs of
    the same picture, whatever bytes the deflater chose (``kit.png``'s ISA-L now and then
    deflates the same rows to other valid bytes)."""
    with Image.open(io.BytesIO(png_bytes)) as picture:
        rgb = picture.convert("RGB")
    return hashlib.sha256(f"{rgb.size}".encode() + rgb.tobytes()).hexdigest()


def pngs(game_id: str, view: dict[str, Any], *, width: int = 1000,
         table: bytes | None = None) -> list[bytes]:
    """What to attach for ``view``: one picture, or the table and the viewer's private part
    as two when the two stacked would be taller than ``kit.MAX_RATIO`` times the width.

    A table shows only what everyone sees, so it is the same picture for every viewer of a
    state (the render tests hold every game to it): ``table``, the channel's PNG of the same
    state, is attached as it is instead of being drawn again whenever the private part goes
    on its own."""
    _check(width)
    drawer = renderer(game_id)
    hand: Image.Image | None = drawer.hand(view, width=width)
    if table is not None and (hand is None or _height(table) + hand.height
                              > kit.MAX_RATIO * width):
        return [table] if hand is None else [table, kit.png(hand)]
    drawn: Image.Image = drawer.table(view, width=width)
    if hand is None:
        return [kit.png(drawn)]
    whole = kit.stack([drawn, hand])
    return [kit.png(whole)] if kit.fits(whole) else [kit.png(drawn), kit.png(hand)]


def _height(png_bytes: bytes) -> int:
    """A PNG's height, from its header."""
    height: int = struct.unpack(">I", png_bytes[20:24])[0]
    return height


def _check(width: int) -> None:
    if width < MIN_WIDTH:
        raise ValueError(f"Pictures are at least {MIN_WIDTH} pixels wide, not {width}.")


def summary(game_id: str, view: dict[str, Any]) -> str:
    """One line saying what the picture shows: whose turn, the points, the last move."""
    with _saying():
        text: str = renderer(game_id).summary(view)
    return text


def describe(game_id: str, view: dict[str, Any]) -> str:
    """The picture as text a screen reader reads (``/board``'s text): what the picture shows,
    line by line, as the viewer may see it, with every colour said as a word."""
    with _saying():
        text: str = renderer(game_id).describe(view)
    return text


@contextlib.contextmanager
def _saying() -> Iterator[None]:
    """Text to read, not a picture: names and lines as given, not as the font can draw
    them (``kit.clean``), so '小明' or an escaped mention in a summary reads as written."""
    token = kit.SAYING.set(True)
    try:
        yield
    finally:
        kit.SAYING.reset(token)
