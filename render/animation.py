"""An animated picture of a whole game: the public board after each turn, for the recap
when a game ends and for replays later.

    shown = turns(game, timeline.turn_states(), names)
    gif = animate("cube-conquest", [t.view for t in shown], captions=captions(shown))

Only *public* views are drawn (``game.view(state, None)``: what a spectator sees), each by
the same renderer as the channel's board (``render.image``), so a frame is the board the
channel showed after that turn; ``animate`` refuses a view of a seat. Where each turn
ends is the caller's to say (its timeline's turns, ``bot.timeline``: the bot's one rule,
``bot.steps``, by which the channel posts a turn's message); the first frame is the deal.

Decisions, measured with ``benchmarks/animation.py`` on the longest of seeded random games:

- **GIF**, not APNG: every frame shares one palette of 255 colours (Pillow's fast octree
  over eight frames spread over the game, mean error under 1 level of 255), the 256th
  marks a pixel unchanged since the previous frame, so a frame that changes a few cells
  stores little more than those cells. The same 72 frames as an APNG were 27% smaller for
  Bomb Squares and 29% larger for Cube Conquest (kept in full colour: 2-4 times the GIF);
  a GIF plays everywhere Discord shows pictures, an APNG attachment was not checked there.
- **Drawn at 600 px** (``render.image`` at ``width=600``, the renderers' least width), not
  drawn at 1000 and shrunk: the same layout, text hinted at its final size (sharper than a
  shrunk picture) and a third of the pixels to draw and store. Discord shows it in a column
  of about 400 px, where the boards' least text stands 8 px tall, as on a phone today.
- **A caption a frame**, 'Turn 12 of 40: Alice (Red)', in white on ink over the board, in
  type whose capitals stand 24 px at 600 px (16 px in a 400 px column); the board is
  padded at its foot to the tallest frame's height, so every frame is the same size.
- **At most ``FRAMES`` frames**: a longer game is sampled at evenly spaced turns, always
  the deal and the last turn; a frame lasts ``SECONDS`` over their number (between
  ``SHORTEST`` and ``LONGEST`` ms), the first a little longer, the last ``HELD`` ms, and
  the animation loops.

The longest of 3 random games with 4 seats (2 in Battle Tiles), on one core: Bomb Squares
(1168 moves, 395 turns) 64 frames, 3.2 MB, 0.9 s of CPU; Cube Conquest (829 moves) 64
frames, 1.2 MB, 0.6 s; the others 23-55 frames, 0.4-0.8 MB, under 0.5 s. Discord's limit
without boosts is 10 MiB (``LIMIT``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from PIL import Image

import render
import rules
from render import kit

WIDTH = 600  # px: a frame's width (Discord's column is ~400 px; a phone's ~360-430)
FRAMES = 64  # the most frames an animation holds
SECONDS = 24.0  # the whole animation, about, before the last frame's hold
SHORTEST, LONGEST, HELD = 250, 1200, 4000  # ms: a frame's least and most, the last's
CAPTION = 34  # px at WIDTH: capitals 24 px tall (16 px in a 400 px column)
LIMIT = 10 * 1024 * 1024  # bytes: Discord's upload limit on a server without boosts


@dataclass(frozen=True)
class Turn:
    """The public board after a turn: ``seats`` moved in it (none: the deal), ``moves``
    moves had been played by its end."""

    seats: tuple[int, ...]
    moves: int
    view: dict[str, Any]


def turns(game: rules.Game[Any], told: Iterable[tuple[tuple[int, ...], int, Any]],
          names: Sequence[str] = ()) -> list[Turn]:
    """The public view after each turn, with ``names`` for the pictures. ``told``: each
    turn's movers, the state version it ended at and the state there, the deal (version
    1) first: the caller's timeline says where turns end (``bot.timeline``, by the rule
    the channel's turn messages follow), and a turn still under way ends at the last."""
    out = []
    for seats, version, state in told:
        view = game.view(state, None)
        if names:
            view["names"] = list(names)
        out.append(Turn(tuple(seats), version - 1, view))
    return out


def captions(shown: Sequence[Turn]) -> list[str]:
    """'The deal', then 'Turn 12 of 40: Alice (Red)' for each turn (its movers' names)."""
    last = len(shown) - 1
    out = []
    for n, turn in enumerate(shown):
        if not turn.seats:
            out.append("The deal" if n == 0 else f"Turn {n} of {last}")
            continue
        seats = kit.seats(turn.view)
        who = kit.listing([_name(seats[s]) for s in turn.seats])
        out.append(f"Turn {n} of {last}: {who}")
    return out


def _name(seat: kit.Seat) -> str:
    plain = seat.colour.name.capitalize()
    return seat.name if seat.name == plain or not seat.colour.letter.isalpha() \
        else f"{seat.name} ({plain})"


def sample(count: int, cap: int = FRAMES) -> list[int]:
    """Which of ``count`` turns to show: all of them, or ``cap`` evenly spaced, always the
    first and the last."""
    if count <= cap:
        return list(range(count))
    if cap < 2:
        raise ValueError("An animation of a long game needs at least 2 frames.")
    return [round(i * (count - 1) / (cap - 1)) for i in range(cap)]


def board(game_id: str, view: dict[str, Any], *, width: int = WIDTH) -> Image.Image:
    """The channel's picture of a public ``view``, as a frame shows it (refuses a seat's)."""
    if view.get("seat") is not None:
        raise ValueError("An animation draws public views only, not a seat's.")
    return render.image(game_id, view, width=width)


def caption_band(line: str, width: int = WIDTH) -> Image.Image:
    """One line in white on ink, as wide as the frame (shortened with '…' if need be)."""
    at = kit.Layout(width)
    size = round(CAPTION * width / WIDTH)
    band = kit.canvas(width, round(size * 1.6), kit.INK)
    shown = kit.fit(kit.clean(line), size, at.width - 2 * at.px(24), bold=True)
    kit.text(band, (at.px(24), band.height / 2), shown, size, kit.PAPER, anchor="lm",
             bold=True)
    return band


def frames(game_id: str, boards: Sequence[dict[str, Any]], captions: Sequence[str], *,
           width: int = WIDTH) -> list[Image.Image]:
    """Each public view drawn under its caption, all padded to the same height (RGB)."""
    if len(boards) != len(captions):
        raise ValueError(f"{len(boards)} boards but {len(captions)} captions.")
    drawn = [board(game_id, view, width=width) for view in boards]
    bands = [caption_band(line, width) for line in captions]
    height = max(b.height for b in bands) + max(d.height for d in drawn)
    out = []
    for band, picture in zip(bands, drawn, strict=True):
        frame = kit.canvas(width, height)
        frame.paste(band, (0, 0))
        frame.paste(picture, (0, band.height))
        out.append(frame)
    return out


def durations(count: int) -> list[int]:
    """Each frame's time in ms: the whole about ``SECONDS``, the last held ``HELD``."""
    each = max(SHORTEST, min(LONGEST, round(SECONDS * 1000 / max(1, count))))
    each -= each % 10  # GIF counts hundredths of a second
    times = [each] * count
    times[0] = min(2 * each, LONGEST * 2)
    times[-1] = HELD
    return times


def palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette of 256 colours for every frame, made from up to eight of them spread
    over the game (stacked, at half size)."""
    picked = [images[i] for i in sample(len(images), 8)]
    small = kit.stack([image.reduce(2) for image in picked])
    return small.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def animate(game_id: str, boards: Sequence[dict[str, Any]], *, captions: Sequence[str],
            cap: int = FRAMES, width: int = WIDTH) -> bytes:
    """An animated GIF of the public ``boards`` (views, one a turn, the deal first) under
    their ``captions``: ``cap`` frames at most, evenly spaced, always the first and the
    last. Refuses a view of a seat, so nothing hidden can be drawn."""
    if not boards:
        raise ValueError("An animation needs at least one board.")
    if len(boards) != len(captions):
        raise ValueError(f"{len(boards)} boards but {len(captions)} captions.")
    chosen = sample(len(boards), cap)
    images = frames(game_id, [boards[i] for i in chosen], [captions[i] for i in chosen],
                    width=width)
    colours = palette(images)
    indexed = [image.quantize(palette=colours, dither=Image.Dither.NONE) for image in images]
    out = BytesIO()
    indexed[0].save(out, format="GIF", save_all=True, append_images=indexed[1:],
                    duration=durations(len(indexed)), loop=0, optimize=True, disposal=1)
    return out.getvalue()
