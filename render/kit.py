"""The drawing kit every game's picture shares: palette, fonts, text, the grid, PNG output.

Pictures are made for phones first: a colour-blind-safe palette (Okabe-Ito) with a letter on
every coloured piece, large type from Pillow's built-in scalable font (nothing to install),
and coordinates on every edge of a board so players can type their moves.

Text and repeated sprites are cached: a bot draws the same labels thousands of times, and a
cached mask pasted onto the picture costs a fraction of laying the text out again.
"""

from __future__ import annotations

import ctypes
import functools
import math
import pickle
import struct
import threading
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, NamedTuple

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont, _imaging

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


def rgb(code: str) -> RGB:
    """'#0072B2' -> (0, 114, 178)."""
    code = code.lstrip("#")
    return int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)


# --------------------------------------------------------------------------- palette

INK: RGB = rgb("#1A1A1A")
PAPER: RGB = rgb("#FFFFFF")
MUTED: RGB = rgb("#595959")  # secondary text: 7:1 on white
SHADE: RGB = rgb("#EDEDED")  # quiet backgrounds: rows, boxes


@dataclass(frozen=True)
class SeatColour:
    """A seat's colour: its name, fill, the letter drawn on its pieces and that letter's ink."""

    name: str
    fill: RGB
    letter: str
    ink: RGB


def luminance(colour: RGB) -> float:
    """Relative luminance (WCAG 2)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_for(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    return INK if contrast(fill, INK) >= contrast(fill, PAPER) else PAPER


# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour
# vision deficiency. Seat colours are named as players say them; letters are all distinct.
_OKABE_ITO = [
    ("blue", "#0072B2", "B"),
    ("red", "#D55E00", "R"),  # vermillion
    ("yellow", "#F0E442", "Y"),
    ("green", "#009E73", "G"),  # bluish green
    ("orange", "#E69F00", "O"),
    ("sky", "#56B4E9", "S"),
    ("purple", "#CC79A7", "P"),  # reddish purple
    ("black", "#000000", "K"),
]
SEAT_COLOURS: dict[str, SeatColour] = {
    name: SeatColour(name, rgb(code), letter, ink_for(rgb(code)))
    for name, code, letter in _OKABE_ITO
}


def seat_colour(name: str) -> SeatColour:
    """The palette entry for a colour name from a game's data ('blue', 'red', ...)."""
    try:
        return SEAT_COLOURS[name.lower()]
    except KeyError:
        raise ValueError(f"No palette colour is named {name!r}.") from None


# --------------------------------------------------------------------------- fonts and text


@functools.lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font (Aileron) at ``size`` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType; pictures need scalable text.")
    return loaded


@functools.lru_cache(maxsize=1024)
def _has_glyph(char: str) -> bool:
    """Whether the built-in font draws ``char`` (it covers Latin-1, not arrows or emoji)."""
    probe = font(20)
    return char == " " or bytes(probe.getmask(char)) != bytes(probe.getmask("\uffff"))


def clean(text: str) -> str:
    """One line the font can draw: blanks collapsed, accents dropped ('Zoë' -> 'Zoe'; the
    built-in font is nearly ASCII), anything else it lacks shown as '?'."""
    line = " ".join(text.split())
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", line)
                    if not unicodedata.combining(ch))
    return "".join(ch if _has_glyph(ch) else "?" for ch in plain)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn at ``size``."""
    return _length(text, size) + (2 if bold else 0)


def _length(text: str, size: int) -> int:
    return -(-_line(text, size).advance // 64)


def fit(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """``text``, shortened with an ellipsis until it fits in ``width`` pixels."""
    if text_width(text, size, bold=bold) <= width:
        return text
    while text and text_width(text + "…", size, bold=bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a long word is shortened)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(fit(word, size, width))
    return lines


# Text is laid out here from kept letters, as Pillow's FreeType layout ("basic": no
# shaping) lays out a line: each letter's pen position is the sum of the advances and
# kernings before it (26.6 fixed point), rounded to a whole pixel, and the line's box is
# the union of its letters' boxes and of the pen's path. Laying a name out this way takes
# ~20 us; asking FreeType for the whole line took ~100 us for its box and ~400 us for its
# pixels. ``tests/test_render.py`` holds the two to the same pixels.


class _Line(NamedTuple):
    """A line laid out at one size, from the left end of its baseline (y grows down)."""

    pens: tuple[int, ...]  # each letter's pen position, in whole pixels
    advance: int  # where the pen ends (26.6)
    box: tuple[int, int, int, int]  # left, top, right, bottom of its ink and pen path
    whole: bool  # every advance is a whole number of pixels (see ``_text_box``)


def _pixel(position: int) -> int:
    """A 26.6 position rounded to a whole pixel, as FreeType's PIXEL macro does."""
    return (position + 32) >> 6


@functools.lru_cache(maxsize=16384)
def _line(text: str, size: int) -> _Line:
    pens, position, previous, whole = [], 0, "", True
    left = top = right = bottom = 0
    for char in text:
        if previous:
            position += _kerning(previous + char, size)
        previous = char
        pen = _pixel(position)
        pens.append(pen)
        advance, (x0, y0, x1, y1) = _metrics(char, size)
        left, top = min(left, pen + x0), min(top, y0)
        right, bottom = max(right, pen + x1), max(bottom, y1)
        position += advance
        whole = whole and advance % 64 == 0
    return _Line(tuple(pens), position, (left, top, max(right, _pixel(position)), bottom),
                 whole)


@functools.lru_cache(maxsize=32768)
def _text_box(text: str, size: int, anchor: str, stroke: int) -> tuple[int, int, int, int]:
    """Where the text's coverage lies: its offset from the anchor point, width and height
    (Pillow's ``getbbox``, worked out from the letters)."""
    line = _line(text, size)
    left, top, right, bottom = line.box
    if not text or not line.whole:
        # A letter's box includes the pen's path to its advance: the union of the letters'
        # boxes is the line's only when advances are whole pixels (as in the built-in font).
        box = font(size).getbbox(text, anchor=anchor, stroke_width=stroke)
        left, top, right, bottom = (math.floor(box[0]), math.floor(box[1]),
                                    math.ceil(box[2]), math.ceil(box[3]))
        return left, top, max(1, right - left), max(1, bottom - top)
    across = {"l": 0, "m": _pixel(line.advance // 2), "r": _pixel(line.advance)}[anchor[0]]
    down = {"t": top, "b": bottom, "s": 0}.get(anchor[1])
    if down is None:  # the font's ascender, middle or descender line
        down = _font_line(size, anchor[1])
    return (left - across - stroke, top - down - stroke,
            max(1, right - left + 2 * stroke), max(1, bottom - top + 2 * stroke))


@functools.lru_cache(maxsize=256)
def _font_line(size: int, which: str) -> int:
    """Where the font's ascender ('a'), middle ('m') or descender ('d') line lies from the
    baseline, in pixels (y grows down)."""
    probe = font(size)
    return round(probe.getbbox("x", anchor="ls")[1] - probe.getbbox("x", anchor="l" + which)[1])


@functools.lru_cache(maxsize=4096)
def _metrics(char: str, size: int) -> tuple[int, tuple[int, int, int, int]]:
    """A letter's advance (26.6) and its box from its pen position, pen path included
    (left, top, right, bottom)."""
    box = font(size).getbbox(char, anchor="ls")
    return round(font(size).getlength(char) * 64), (
        math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))


@functools.lru_cache(maxsize=256)
def _text_mask(text: str, size: int, anchor: str, stroke: int) -> tuple[Image.Image, int, int]:
    """The text's coverage as an 'L' mask and its offset from the anchor point: the mask
    FreeType draws for the whole line (``ImageDraw.text``), made of kept letters."""
    left, top, width, height = _text_box(text, size, anchor, stroke)
    # The mask is the same whatever the anchor; only its place moves.
    base_left, base_top, _, _ = _text_box(text, size, "ls", stroke)
    mask = Image.new("L", (width, height), 0)
    core, reach = mask.im, -(2**31)
    for char, pen in zip(text, _line(text, size).pens, strict=True):
        glyph, dx, dy = _letter(char, size, stroke)
        if glyph is not None:
            x, y = pen + dx - base_left, dy - base_top
            box = (x, y, x + glyph.size[0], y + glyph.size[1])
            if x < reach:
                _blend_letter(core, glyph, box)
            else:
                core.paste(glyph, box)
            reach = max(reach, box[2])
    return mask, left, top


def _blend_letter(line: Any, glyph: Any, box: Box) -> None:
    """Blend one letter's coverage into a line's (Pillow cores) where their boxes overlap,
    as Pillow's ``font_render`` does: where both have coverage, new = letter + old *
    (255 - letter) / 255, rounded as it rounds; elsewhere the larger of the two."""
    under = line.crop(box)
    both = under.chop_darker(glyph).getbbox()  # where both have coverage
    line.paste(under.chop_lighter(glyph), box)  # exact wherever one of them is 0
    if both is None:
        return
    width, height = both[2] - both[0], both[3] - both[1]
    old, new = _core_bytes(under.crop(both)), _core_bytes(glyph.crop(both))
    blended = Image.frombytes("L", (width, height), bytes(map(_over, old, new)))
    line.paste(blended.im, (box[0] + both[0], box[1] + both[1],
                            box[0] + both[2], box[1] + both[3]))


def _core_bytes(core: Any) -> bytes:
    """An 'L' core's pixels, row after row."""
    return Image.Image()._new(core).tobytes()


def _over(old: int, new: int) -> int:
    """Coverage ``new`` laid over ``old``, as Pillow blends a letter into its line."""
    if not old or not new:
        return old or new
    product = old * (255 - new) + 128
    return min(255, new + (((product >> 8) + product) >> 8))


@functools.lru_cache(maxsize=4096)
def _letter(char: str, size: int, stroke: int) -> tuple[Any, int, int]:
    """One letter as FreeType draws it (with its stroke): its coverage trimmed to its ink,
    as a Pillow core (None: a blank), and where that lies from the pen on the baseline."""
    drawn, (dx, dy) = font(size).getmask2(char, mode="L", anchor="ls", stroke_width=stroke,
                                          stroke_filled=True)
    glyph = Image.frombytes("L", drawn.size, bytes(drawn)) if drawn.size[0] else None
    ink = glyph.getbbox() if glyph is not None else None
    if glyph is None or ink is None:
        return None, 0, 0
    return glyph.crop(ink).im, dx + ink[0], dy + ink[1]


@functools.lru_cache(maxsize=16384)
def _kerning(pair: str, size: int) -> int:
    """How much further apart (26.6; negative: closer) the font sets two letters."""
    length = font(size).getlength
    return round((length(pair) - length(pair[0]) - length(pair[1])) * 64)


def text(image: Image.Image, xy: tuple[float, float], line: str, size: int,
         fill: RGB = INK, *, anchor: str = "ls", bold: bool = False,
         halo: RGB | None = None) -> None:
    """Draw one line of text; ``anchor`` as in Pillow ('ls' left/baseline, 'mm' centre).

    ``bold`` thickens the strokes (the built-in font has no bold face); ``halo`` rings the
    letters in that colour so they stay readable over lines drawn across them.
    """
    if not line:
        return
    weight = max(1, size // 28) if bold else 0
    x, y = round(xy[0]), round(xy[1])
    if halo is not None:
        _ink(image, (x, y), line, size, anchor, weight + max(3, size // 7), halo)
    _ink(image, (x, y), line, size, anchor, weight, fill)


def _ink(image: Image.Image, at: tuple[int, int], line: str, size: int, anchor: str,
         stroke: int, colour: RGB) -> None:
    """Paint ``colour`` through the text's coverage, on an RGB or a palette canvas.

    On a palette canvas the anti-aliased edges must be mapped to the palette: over a plain
    background (nearly always) that is a cached sprite; over anything else, the few pixels
    under the text are mapped on the spot. Either way the pixels are those an RGB canvas
    would have after ``finish``.
    """
    left, top, width, height = _text_box(line, size, anchor, stroke)
    corner = (at[0] + left, at[1] + top)
    if image.mode != "P":
        image.paste(colour, corner, _text_mask(line, size, anchor, stroke)[0])
        return
    surfaces = _surfaces(image)
    box = (*corner, corner[0] + width, corner[1] + height)
    # The lowest and highest palette index under the text (on the core image: this runs
    # ~30 times a picture, and the Image wrapper would double its cost).
    low, high = image.im.crop(box).getextrema()
    if low == high:
        # The sprite is the text over this very background: pasted whole, no stencil.
        put(image, _glyph(line, size, anchor, stroke, colour, low, surfaces), corner)
        return
    # Over lines and shapes: the result depends on the pixels under the text, which come
    # back often (a name on a tile the last move's arrow crosses), so a small one is kept
    # by them.
    under = image.crop(box)
    key = ((line, size, anchor, stroke, colour, surfaces, _pixels(under))
           if width * height <= PATCH_PIXELS else None)
    patch = None
    if key is not None:
        with _PATCHES_LOCK:
            patch = _PATCHES.get(key)
            if patch is not None:
                _PATCHES.move_to_end(key)
    if patch is None:
        rgb = under.convert("RGB")
        rgb.paste(colour, (0, 0), _text_mask(line, size, anchor, stroke)[0])
        patch = rgb.quantize(palette=palette(surfaces), dither=Image.Dither.NONE)
        if key is not None:
            with _PATCHES_LOCK:
                _PATCHES[key] = patch
                while len(_PATCHES) > 256:
                    _PATCHES.popitem(last=False)
    put(image, patch, corner)


PATCH_PIXELS = 8192  # a tile's name is ~5,000; 256 kept, each with its key, take < 5 MB
_PATCHES: OrderedDict[Hashable, Image.Image] = OrderedDict()  # text over other pixels
_PATCHES_LOCK = threading.Lock()


def _pixels(image: Image.Image, stride: int = 0) -> bytes:
    """A palette image's indices row after row, each row followed by 0s up to ``stride``
    bytes: Pillow's raw encoder asked once (``tobytes`` asks for 64 KB at a time, ~12x
    slower on a board)."""
    width, height = image.size
    stride = max(stride, width)
    image.load()
    encoder = _imaging.raw_encoder("P", "P", stride, 1)
    encoder.setimage(image.im, (0, 0, width, height))
    _, status, data = encoder.encode(max(1, stride * height))
    if status != 1:
        raise RuntimeError(f"Pillow's raw encoder stopped early ({status}).")
    return bytes(data)


@functools.lru_cache(maxsize=1024)
def _glyph(line: str, size: int, anchor: str, stroke: int, colour: RGB, background: int,
           surfaces: tuple[RGB, ...]) -> Image.Image:
    """Text in ``colour`` over the palette colour ``background``, as palette indices (the
    stencil is needless over a plain background): its mask looked up through ``_blend``."""
    _, _, width, height = _text_box(line, size, anchor, stroke)
    indices = _text_mask(line, size, anchor, stroke)[0].tobytes().translate(
        _blend(colour, background, surfaces))
    return Image.frombytes("P", (width, height), indices)


@functools.lru_cache(maxsize=256)
def _blend(colour: RGB, background: int, surfaces: tuple[RGB, ...]) -> bytes:
    """For each coverage 0-255, the palette index of ``colour`` blended over the palette
    colour ``background``: the pixels an RGB canvas has after ``finish``, looked up."""
    ramp = Image.new("RGB", (256, 1), palette_colours(surfaces)[background])
    ramp.paste(colour, (0, 0), Image.frombytes("L", (256, 1), bytes(range(256))))
    return ramp.quantize(palette=palette(surfaces), dither=Image.Dither.NONE).tobytes()


# --------------------------------------------------------------------------- the grid


def square_name(file: int, rank: int) -> str:
    """(0, 0) -> 'a1': files a.. left to right, ranks 1.. bottom to top, like chess."""
    return f"{chr(ord('a') + file)}{rank + 1}"


def square_index(name: str) -> tuple[int, int]:
    """'c4' -> (2, 3), the inverse of ``square_name``."""
    return ord(name[0].lower()) - ord("a"), int(name[1:]) - 1


@dataclass(frozen=True)
class Grid:
    """A board of ``files`` x ``ranks`` square cells whose top-left corner is (left, top)."""

    files: int
    ranks: int
    left: int
    top: int
    cell: int

    @property
    def right(self) -> int:
        return self.left + self.files * self.cell

    @property
    def bottom(self) -> int:
        return self.top + self.ranks * self.cell

    def squares(self) -> list[str]:
        """Every square name, a1 first, along each rank."""
        return [square_name(f, r) for r in range(self.ranks) for f in range(self.files)]

    def box(self, square: str, inset: int = 0) -> Box:
        """The cell of ``square``, shrunk by ``inset`` on every side."""
        file, rank = square_index(square)
        x = self.left + file * self.cell
        y = self.top + (self.ranks - 1 - rank) * self.cell
        return x + inset, y + inset, x + self.cell - inset, y + self.cell - inset

    def centre(self, square: str) -> tuple[int, int]:
        x0, y0, x1, y1 = self.box(square)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def coordinates(self, image: Image.Image, size: int, gap: int, fill: RGB = INK) -> None:
        """Print file letters above and below the board and rank numbers on both sides."""
        for f in range(self.files):
            x = self.left + f * self.cell + self.cell // 2
            letter = chr(ord("a") + f)
            text(image, (x, self.top - gap), letter, size, fill, anchor="md", bold=True)
            text(image, (x, self.bottom + gap), letter, size, fill, anchor="mt", bold=True)
        for r in range(self.ranks):
            y = self.top + (self.ranks - 1 - r) * self.cell + self.cell // 2
            number = str(r + 1)
            text(image, (self.left - gap, y), number, size, fill, anchor="rm", bold=True)
            text(image, (self.right + gap, y), number, size, fill, anchor="lm", bold=True)


# --------------------------------------------------------------------------- shapes


def chip(image: Image.Image, box: Box, colour: SeatColour, size: int) -> None:
    """A seat's colour swatch with its letter: the legend's key for the pieces."""
    x0, y0, x1, y1 = box
    if image.mode == "P":
        low, high = image.im.crop((x0, y0, x1 + 1, y1 + 1)).getextrema()
        if low == high:  # on a plain background: a sprite drawn once
            put(image, _chip(colour, x1 - x0, y1 - y0, size, low, x0 % 2, y0 % 2,
                             _surfaces(image)), (x0, y0))
            return
    _draw_chip(image, box, colour, size)


@functools.lru_cache(maxsize=128)
def _chip(colour: SeatColour, width: int, height: int, size: int, background: int,
          odd_x: int, odd_y: int, surfaces: tuple[RGB, ...]) -> Image.Image:
    """A chip on a plain background, drawn as ``chip`` draws it where its corner's
    coordinates are odd or even as given (the letter's centre is rounded half to even)."""
    image = canvas(width + 3, height + 3, surfaces)
    image.paste(background, (0, 0, image.width, image.height))
    _draw_chip(image, (odd_x, odd_y, odd_x + width, odd_y + height), colour, size)
    return image.crop((odd_x, odd_y, odd_x + width + 1, odd_y + height + 1))


def _draw_chip(image: Image.Image, box: Box, colour: SeatColour, size: int) -> None:
    draw = ImageDraw.Draw(image)
    border = max(2, (box[2] - box[0]) // 16)
    draw.rounded_rectangle(box, radius=(box[2] - box[0]) // 5, fill=colour.fill, outline=INK,
                           width=border)
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    text(image, centre, colour.letter, size, colour.ink, anchor="mm", bold=True)


def triangle(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float,
             angle: float, fill: RGB) -> None:
    """A filled triangle pointing at ``angle`` degrees (0: right, 90: down)."""
    points = [(centre[0] + radius * math.cos(math.radians(angle + turn)),
               centre[1] + radius * math.sin(math.radians(angle + turn)))
              for turn in (0, 140, 220)]
    draw.polygon(points, fill=fill)


def arrow(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], width: int,
          fill: RGB, head: float) -> None:
    """A polyline ending in an arrowhead of length ``head`` whose tip is its last point."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    base = (x1 - ux * head, y1 - uy * head)
    draw.line([*points[:-1], base], fill=fill, width=width, joint="curve")
    for x, y in points[1:-1]:  # round the corners of a route
        draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=fill)
    half = head * 0.62
    draw.polygon([(x1, y1), (base[0] - uy * half, base[1] + ux * half),
                  (base[0] + uy * half, base[1] - ux * half)], fill=fill)


# --------------------------------------------------------------------------- output


@functools.lru_cache(maxsize=16)
def palette(surfaces: tuple[RGB, ...] = ()) -> Image.Image:
    """A fixed 256-colour palette: the kit's colours, a game's ``surfaces``, and for each a
    ramp to black ink and to white, which is what anti-aliased text and icons blend into."""
    bases = [INK, PAPER, MUTED, SHADE, *(c.fill for c in SEAT_COLOURS.values()), *surfaces]
    colours = list(dict.fromkeys(bases))
    for base in bases:
        for target in (INK, PAPER):
            for step in range(1, 7):
                f = step / 7
                blend = (round(base[0] + (target[0] - base[0]) * f),
                         round(base[1] + (target[1] - base[1]) * f),
                         round(base[2] + (target[2] - base[2]) * f))
                # Pillow maps colours through a cache of 4-level steps: a blend closer than
                # this to a colour already chosen could capture that colour's pixels.
                if min(math.dist(blend, c) for c in colours) >= 12:
                    colours.append(blend)
    flat = [v for c in colours[:256] for v in c]
    holder = Image.new("P", (1, 1))
    holder.putpalette(flat + [0] * (768 - len(flat)))
    return holder


def finish(image: Image.Image, *, surfaces: tuple[RGB, ...] = ()) -> bytes:
    """Encode as an 8-bit palette PNG: a third of the bytes of RGB, and fast.

    Every colour a picture draws must be in the kit or among ``surfaces``; blends are mapped
    to the nearest ramp colour (~3 ms for a 1000 x 1750 picture, against ~14 ms for an
    adaptive octree). ``image`` may already be a palette image on the kit's palette.
    """
    if image.mode != "P":
        image = image.quantize(palette=palette(surfaces), dither=Image.Dither.NONE)
    return png_bytes(image)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DEFLATE_LEVEL = 1  # ISA-L's fastest; its level 3 is 7x slower for 0-3% fewer bytes


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind))))


def png_bytes(image: Image.Image) -> bytes:
    """A palette ('P') image as PNG bytes, written here rather than by Pillow.

    Pillow deflates with zlib; ISA-L's deflate (the ``isal`` package) is 5x faster at the
    same size: on a 1000 x 1750 Cube Conquest picture, 0.9 ms and 89 KB against 4.5 ms and
    93 KB for zlib level 1 (7.4 ms and 69 KB at level 3, which Pillow used here before).
    The format is the plainest PNG: 8-bit indices, every row unfiltered.
    """
    return png_stack([image])


class Band(NamedTuple):
    """Rows of a palette picture, already deflated: a part several pictures share (the top
    of a move's channel and DM pictures, say) is compressed once and its bytes reused.

    ``data`` is raw deflate ending on a byte boundary with no final block, so bands simply
    follow one another in a PNG's data; ``adler`` and ``length`` are the Adler-32 and size
    of the rows before deflating (each row a filter byte, 0, then its indices).
    """

    width: int
    height: int
    data: bytes
    adler: int
    length: int
    colours: bytes  # the palette, which every band of a picture must share


def band(image: Image.Image) -> Band:
    """Deflate the rows of a palette image into a ``Band``."""
    if image.mode != "P":
        raise ValueError(f"PNG bands take a palette image, not mode {image.mode!r}.")
    width, height = image.size
    # Each row followed by a 0: after one more 0 in front, each row follows its filter
    # byte, 0.
    padded = _pixels(image, width + 1)
    rows = memoryview(padded)[:-1]
    deflate = isal_zlib.compressobj(DEFLATE_LEVEL, isal_zlib.DEFLATED, -15)
    data = (deflate.compress(b"\0") + deflate.compress(rows)
            + deflate.flush(isal_zlib.Z_SYNC_FLUSH))
    surfaces = image.info.get("surfaces")
    colours = (_palette_bytes(surfaces) if surfaces is not None
               else bytes((image.getpalette() or [0, 0, 0])[:768]))
    return Band(width, height, data, isal_zlib.adler32(rows, isal_zlib.adler32(b"\0")),
                len(padded), _PALETTES.setdefault(colours, colours))


_PALETTES: dict[bytes, bytes] = {}  # one copy of each palette for all the bands kept


@functools.lru_cache(maxsize=16)
def _palette_bytes(surfaces: tuple[RGB, ...]) -> bytes:
    """The palette of a ``canvas`` with ``surfaces``, as a PNG's PLTE chunk holds it."""
    return bytes((palette(surfaces).getpalette() or [0, 0, 0])[:768])


_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's and the second's length
    (zlib's ``adler32_combine``, which Python does not expose)."""
    rem = length % _ADLER_BASE
    low = ((first & 0xFFFF) + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (rem * (first & 0xFFFF) + (first >> 16) + (second >> 16) + _ADLER_BASE
            - rem) % _ADLER_BASE
    return low | (high << 16)


def png_stack(parts: list[Image.Image | Band]) -> bytes:
    """One PNG of palette images and ``Band``s stacked top to bottom (same width and
    palette): bands are copied as they are, images deflated here."""
    bands = [part if isinstance(part, Band) else band(part) for part in parts]
    width, colours = bands[0].width, bands[0].colours
    if any(b.width != width or b.colours != colours for b in bands):
        raise ValueError("Stacked bands must share one width and one palette.")
    adler = 1
    for b in bands:
        adler = adler32_combine(adler, b.adler, b.length)
    # A zlib stream (header 78 01: deflate, 32K window, fastest), the bands' blocks, an
    # empty final block (03 00), and the Adler-32 of all the rows.
    idat = b"".join([b"\x78\x01", *(b.data for b in bands), b"\x03\x00",
                     struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, sum(b.height for b in bands), 8, 3, 0, 0, 0)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", colours),
                     _chunk(b"IDAT", idat), _chunk(b"IEND", b"")))


# --------------------------------------------------------------------------- strips
# A picture drawn as strips, top to bottom: each a band of rows drawn on its own, so a strip
# that shows what an earlier picture showed (a status line, a seat's row in the table, a
# hand) comes back already deflated instead of being drawn and deflated again.


@dataclass(frozen=True)
class Strip:
    """Rows of a picture: how to paint them on a blank canvas, and what they show.

    ``paint`` draws on a canvas ``height`` rows high; with ``height`` None it draws on a
    tall one and returns how many rows it used. ``key`` names everything the strip shows
    (it must, since a strip with the same key is not drawn again); None: drawn each time.
    ``lasting``: the key comes back across moves (kept on the ``_STRIPS`` shelf, of
    ``STRIP_BYTES``); otherwise only among one move's pictures (the last 16 kept).
    """

    height: int | None
    paint: Callable[[Image.Image], Any]
    key: Hashable | None = None
    lasting: bool = True


class Shelf:
    """Bytes kept by key in one fixed buffer, the oldest overwritten first, each with a
    small ``meta`` object (what the bytes are). An entry read when it is near the point of
    being overwritten is copied to the front: what keeps being asked for stays.

    One buffer, not a bytes object per entry: thousands of small long-lived objects freed
    in turn scatter through the heap and keep several times their size resident (measured:
    40 MB of deflated strips held 170 MB more RSS); a buffer holds exactly its size.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._buffer: bytearray | None = None  # made on first use
        self._index: dict[Hashable, tuple[int, int, Any]] = {}  # key: offset, length, meta
        # Every copy written, oldest first; a key's older copies are skipped when dropped.
        self._order: deque[tuple[int, Hashable, tuple[int, int, Any]]] = deque()
        self._head = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[Any, bytes] | None:
        """The meta and bytes kept under ``key``, or None."""
        with self._lock:
            found = self._index.get(key)
            if found is None or self._buffer is None:
                return None
            offset, length, meta = found
            data = bytes(memoryview(self._buffer)[offset:offset + length])
            if (offset - self._head) % self.size < self.size // 4:  # next to be overwritten
                self._write(key, data, meta)
            return meta, data

    def put(self, key: Hashable, data: bytes, meta: Any = None) -> None:
        """Keep ``data`` under ``key`` (unless it is over an eighth of the shelf)."""
        if len(data) > self.size // 8:
            return
        with self._lock:
            if key not in self._index:
                self._write(key, data, meta)

    def _write(self, key: Hashable, data: bytes, meta: Any) -> None:
        length = len(data)
        if self._buffer is None:
            self._buffer = bytearray(self.size)
        if self._head + length > self.size:  # back to the start: the tail goes
            while self._order and self._order[0][0] >= self._head:
                self._drop()
            self._head = 0
        while self._order and self._head <= self._order[0][0] < self._head + length:
            self._drop()
        self._buffer[self._head:self._head + length] = data
        entry = self._index[key] = (self._head, length, meta)
        self._order.append((self._head, key, entry))
        self._head += length

    def _drop(self) -> None:
        _, key, entry = self._order.popleft()
        if self._index.get(key) is entry:  # not a copy since made again nearer the front
            del self._index[key]

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._index

    @property
    def used(self) -> int:
        """Bytes kept."""
        return sum(length for _, length, _ in self._index.values())


STRIP_BYTES = 32 * 2**20  # 1,000 tables' status lines, hand titles and hands
MEASURED_HEIGHT = 1600  # the canvas for a strip whose height is known once drawn
_STRIPS = Shelf(STRIP_BYTES)
_MOVE_STRIPS: OrderedDict[Hashable, Band] = OrderedDict()
_STRIPS_LOCK = threading.Lock()




def strip_image(strip: Strip, width: int, surfaces: tuple[RGB, ...] = ()) -> Image.Image:
    """The strip drawn: on a palette canvas, or an RGB one when ``PALETTE_DRAWING`` is off."""
    image = canvas(width, strip.height or MEASURED_HEIGHT, surfaces)
    used = strip.paint(image)
    if strip.height is None:
        image = image.crop((0, 0, width, int(used)))
    return image


def strip_band(strip: Strip, width: int, surfaces: tuple[RGB, ...] = ()) -> Band:
    """The strip deflated, from the shelf when a picture showed the same ``key`` before."""
    if strip.key is None:
        return band(strip_image(strip, width, surfaces))
    key = (strip.key, width, surfaces)
    if strip.lasting:
        kept = _STRIPS.get(key)
        if kept is not None:
            meta: Band = kept[0]
            return meta._replace(data=kept[1])
    else:
        with _STRIPS_LOCK:
            found = _MOVE_STRIPS.get(key)
        if found is not None:
            return found
    made = band(strip_image(strip, width, surfaces))
    if strip.lasting:
        _STRIPS.put(key, made.data, made._replace(data=b""))
    else:
        with _STRIPS_LOCK:
            _MOVE_STRIPS[key] = made
            while len(_MOVE_STRIPS) > 16:
                _MOVE_STRIPS.popitem(last=False)
    return made


_RECENT: deque[tuple[dict[str, Any], int, list[Strip]]] = deque(maxlen=8)


def recent_strips(shown: dict[str, Any], width: int,
                  make: Callable[[dict[str, Any]], list[Strip]]) -> list[Strip]:
    """The strips ``make`` returns for ``shown`` (a JSON-like view, or part of one), made
    once for the last few pictures that show an equal one: a move's pictures share their
    top. They are made from a copy, which the caller cannot change afterwards; finding them
    is a comparison, which costs less than a key."""
    with _STRIPS_LOCK:
        for seen, seen_width, strips in _RECENT:
            if seen_width == width and seen == shown:
                return strips
    private = pickle.loads(pickle.dumps(shown, pickle.HIGHEST_PROTOCOL))  # a deep copy
    strips = make(private)
    with _STRIPS_LOCK:
        _RECENT.append((private, width, strips))
    return strips


def strips_image(strips: list[Strip], width: int, surfaces: tuple[RGB, ...] = ()
                 ) -> Image.Image:
    """The strips drawn and stacked: the whole picture as one image."""
    return stack([strip_image(strip, width, surfaces) for strip in strips])


def strips_bands(strips: list[Strip], width: int, surfaces: tuple[RGB, ...] = ()
                 ) -> list[Image.Image | Band]:
    """The strips as the parts of a PNG (``png_stack``), each deflated once."""
    return [strip_band(strip, width, surfaces) for strip in strips]


# --------------------------------------------------------------------------- memory

MMAP_FROM = 8 * 2**20  # blocks this large or larger come straight from the system
FREE_KEPT = 64 * 2**20  # free memory the C heap keeps for reuse instead of returning it
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


@functools.cache
def keep_freed_memory() -> bool:
    """Have the C allocator reuse the memory a picture frees for the next picture.

    A move's pictures take and free a few megabytes at a time: the board's canvas, its rows
    to deflate. glibc maps blocks over its threshold (128 KB until it adapts, which it
    often does not in drawing threads) from the system and unmaps them when freed, or
    trims its heap, so every picture's memory was new pages, each faulted in and zeroed:
    ~190-450 page faults a move on 1,000 tables, over a quarter of a move's CPU. With
    blocks under ``MMAP_FROM`` served from the heap and up to ``FREE_KEPT`` of it kept
    free, the next picture reuses the same pages. Peak memory is what it was; memory now
    stays near that peak between pictures instead of dipping. Once per process; glibc only
    (Linux): elsewhere nothing changes and this returns False.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_FROM)) and bool(
        mallopt(_M_TRIM_THRESHOLD, FREE_KEPT))


# --------------------------------------------------------------------------- canvases

PALETTE_DRAWING = True  # False: draw on RGB and map to the palette at the end (tests compare)


def canvas(width: int, height: int, surfaces: tuple[RGB, ...] = ()) -> Image.Image:
    """A blank picture (``PAPER``) to draw on, with the kit's palette and a game's colours.

    Pictures are drawn straight onto palette indices ('P' mode): a third of the memory of
    RGB, and no ~4 ms of mapping a finished 1000 x 1750 RGB picture to the palette. Draw on
    it with ``ImageDraw`` in any kit or ``surfaces`` colour, with ``text``, and with
    ``paste`` for sprites.
    """
    if not PALETTE_DRAWING:
        return Image.new("RGB", (width, height), PAPER)
    # Cut from a blank kept per width: a third of the cost of a new palette image.
    image = (_blank(width, MEASURED_HEIGHT, surfaces) if height <= MEASURED_HEIGHT
             else _blank(width, height, surfaces)).crop((0, 0, width, height))
    assert image.palette is not None
    # ImageDraw looks each colour up here; Pillow would build this per canvas (~40 us).
    image.palette.colors = dict(_colour_indices(surfaces))
    return image


@functools.lru_cache(maxsize=4)
def _blank(width: int, height: int, surfaces: tuple[RGB, ...]) -> Image.Image:
    colours = palette_colours(surfaces)
    image = Image.new("P", (width, height), colours.index(PAPER))
    image.putpalette(palette(surfaces).getpalette() or [])
    image.load()  # the palette applied now
    image.info["surfaces"] = surfaces
    return image


@functools.lru_cache(maxsize=16)
def _colour_indices(surfaces: tuple[RGB, ...]) -> dict[tuple[int, ...], int]:
    """Each palette colour's first index, as Pillow's ``ImagePalette.colors`` has it."""
    indices: dict[tuple[int, ...], int] = {}
    for index, colour in enumerate(palette_colours(surfaces)):
        indices.setdefault(colour, index)
    return indices


def stack(parts: list[Image.Image]) -> Image.Image:
    """Pictures of one width (and palette), one below the other, as one picture."""
    width = parts[0].width
    whole = canvas(width, sum(part.height for part in parts), _surfaces(parts[0]))
    y = 0
    for part in parts:
        put(whole, part, (0, y))
        y += part.height
    return whole


def _surfaces(image: Image.Image) -> tuple[RGB, ...]:
    surfaces: tuple[RGB, ...] = image.info.get("surfaces", ())
    return surfaces


@functools.lru_cache(maxsize=16)
def palette_colours(surfaces: tuple[RGB, ...] = ()) -> tuple[RGB, ...]:
    """The palette's colours by index."""
    flat = palette(surfaces).getpalette() or []
    return tuple((flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))


_SPRITES: dict[tuple[int, tuple[RGB, ...]],
               tuple[Image.Image, Image.Image, Image.Image | None]] = {}


def put(image: Image.Image, sprite: Image.Image, corner: tuple[int, int],
        stencil: Image.Image | None = None) -> None:
    """``image.paste(sprite, corner, stencil)`` for a ``sprite`` in ``image``'s mode, on
    Pillow's core: the checks ``paste`` makes cost more than copying a small sprite (this
    runs ~50 times a picture)."""
    x, y = corner
    box = (x, y, x + sprite.width, y + sprite.height)
    if stencil is None:
        image.im.paste(sprite.im, box)
    else:
        image.im.paste(sprite.im, box, stencil.im)


def paste(image: Image.Image, sprite: Image.Image, corner: tuple[int, int]) -> None:
    """Paste an RGB or RGBA ``sprite`` (alpha 0 or 255: shapes, and text drawn on them) at
    ``corner``; on a palette canvas its palette copy is made once and kept."""
    if image.mode != "P":
        image.paste(sprite, corner, sprite if sprite.mode == "RGBA" else None)
        return
    surfaces = _surfaces(image)
    known = _SPRITES.get((id(sprite), surfaces))
    if known is None or known[0] is not sprite:  # the id of a sprite since forgotten
        if len(_SPRITES) >= 512:
            _SPRITES.clear()
        mapped = sprite.convert("RGB").quantize(palette=palette(surfaces),
                                                dither=Image.Dither.NONE)
        stencil = (sprite.getchannel("A").point(lambda v: 255 if v >= 128 else 0, "1")
                   if sprite.mode == "RGBA" else None)
        known = _SPRITES[(id(sprite), surfaces)] = (sprite, mapped, stencil)
    put(image, known[1], corner, known[2])


# --------------------------------------------------------------------------- seats and names


@dataclass(frozen=True)
class Seat:
    """One seat: its colour, its name as drawn (what the font can show) and as said."""

    index: int
    colour: SeatColour
    name: str
    spoken: str


def seats(view: dict[str, Any]) -> list[Seat]:
    """The seats of ``view``, named by ``view['names']`` when the bot gave them."""
    return list(_seats(tuple(view["colours"]), tuple(view.get("names") or ())))


@functools.lru_cache(maxsize=4096)
def _seats(colours: tuple[str, ...], names: tuple[Any, ...]) -> tuple[Seat, ...]:
    out = []
    for i, colour_name in enumerate(colours):
        colour, plain = seat_colour(colour_name), colour_name.capitalize()
        given = " ".join(str(names[i]).split()) if i < len(names) and names[i] else ""
        drawn = clean(given)
        out.append(Seat(i, colour, drawn if drawn.strip("? ") else plain, given or plain))
    return tuple(out)


def called(seat: Seat) -> str:
    """'Blue', or 'Alice (Blue)' when the bot gave display names."""
    colour = seat.colour.name.capitalize()
    return colour if seat.spoken == colour else f"{seat.spoken} ({colour})"


def listing(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return " and ".join(words) if len(words) <= 2 else ", ".join(words[:-1]) + " and " + words[-1]


# --------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    """Every measure of a picture for one width: designed at 1000 px and scaled."""

    width: int
    margin_at_1000: int = 65

    def px(self, value: float) -> int:
        return round(value * self.width / 1000)

    @property
    def margin(self) -> int:
        return self.px(self.margin_at_1000)

    @property
    def body(self) -> int:
        """Width of the board and the panels under it."""
        return self.width - 2 * self.margin


def header(image: Image.Image, view: dict[str, Any], at: Layout, head: str, detail: str
           ) -> int:
    """The status line at the top: chips of the seats awaited (or of the winners), what
    happens now in large type, and a detail line under it. Returns where it ends."""
    headline(image, view, at, head)
    detail_line(image, at, detail, 0)
    return at.px(HEADER_HEIGHT)


def headline(image: Image.Image, view: dict[str, Any], at: Layout, head: str) -> None:
    """The status line's first part: chips of the seats awaited (or of the winners) and
    what happens now in large type; it ends above ``HEADLINE_END``."""
    all_seats = seats(view)
    shown = view["result"]["winners"] if view.get("result") is not None else view["to_act"]
    x, top, size = at.margin, at.px(28), at.px(54)
    for s in shown:
        chip(image, (x, top, x + size, top + size), all_seats[s].colour, at.px(34))
        x += size + at.px(10)
    x += at.px(8)
    text(image, (x, top + size // 2), fit(head, at.px(40), at.width - at.margin - x,
         bold=True), at.px(40), INK, anchor="lm", bold=True)


def detail_line(image: Image.Image, at: Layout, detail: str, y: int) -> None:
    """The status line's detail, under the headline, on an image whose first row is the
    picture's row ``y``; it starts below ``HEADLINE_END``."""
    text(image, (at.margin, at.px(124) - y), fit(detail, at.px(30), at.body), at.px(30), MUTED)


# Between the headline's lowest descender (row 80 at a width of 1000: chips end at 82) and
# the detail line's tallest letter (row 100): a picture may be cut here.
HEADLINE_END = 90
HEADER_HEIGHT = 150  # where ``header`` ends, at a width of 1000


def hand_title(image: Image.Image, view: dict[str, Any], at: Layout, y: int) -> int:
    """'Your hand, Alice' with the seat's chip, over a seat's own hand. Returns where the
    hand itself starts."""
    seat = seats(view)[view["seat"]]
    y += at.px(52)
    chip(image, (at.margin, y - at.px(38), at.margin + at.px(46), y + at.px(8)), seat.colour,
         at.px(28))
    text(image, (at.margin + at.px(60), y), fit(f"Your hand, {seat.name}", at.px(38),
         at.body - at.px(60), bold=True), at.px(38), INK, bold=True)
    return y


def finish_picture(image: Image.Image, view: dict[str, Any], at: Layout, y: int,
                   hand: Callable[[Image.Image, dict[str, Any], Layout, int], int]
                   ) -> Image.Image:
    """The end of every game's picture from ``y`` down: the result once the game is over,
    then, in a seat's own view, its ``hand``; cropped below them with a margin."""
    if view.get("result") is not None:
        y = result_box(image, view, at, y)
    if view.get("seat") is not None and "hand" in view:
        y = hand(image, view, at, y)
    return image.crop((0, 0, image.width, y + at.px(36)))


def result_box(image: Image.Image, view: dict[str, Any], at: Layout, y: int) -> int:
    """The end of the game: 'Game over' and the reason, framed. Returns where it ends."""
    draw_ = ImageDraw.Draw(image)
    top = y + at.px(8)
    y = top + at.px(52)
    text(image, (at.margin + at.px(20), y), "Game over", at.px(38), INK, bold=True)
    for line in wrap(clean(view["result"]["reason"]), at.px(32), at.body - at.px(40)):
        y += at.px(44)
        text(image, (at.margin + at.px(20), y), line, at.px(32), INK)
    y += at.px(26)
    draw_.rounded_rectangle((at.margin, top, at.width - at.margin, y), radius=at.px(16),
                            outline=INK, width=at.px(4))
    return y + at.px(20)
