"""Cube Conquest's six symbols as icons, drawn from simple shapes so that they read at any
size: on the board's revealed tiles and on the cards of a hand (``render.cube_conquest``)."""

from __future__ import annotations

import itertools
import math
from typing import Any

from PIL import ImageDraw

from render.kit import INK, Box


def _turned(points: list[tuple[float, float]], centre: tuple[float, float], degrees: float
            ) -> list[tuple[float, float]]:
    """``points`` turned by ``degrees`` about ``centre`` (clockwise, y pointing down)."""
    a, (cx, cy) = math.radians(degrees), centre
    return [(cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a),
             cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a)) for x, y in points]


def icon(draw: ImageDraw.ImageDraw, symbol: str, box: Box) -> None:
    """``symbol``'s icon in the square ``box``, from simple shapes (it reads at any size)."""
    s = box[2] - box[0]

    def at(x: float, y: float) -> tuple[float, float]:
        return box[0] + s * x, box[1] + s * y

    def disc(x: float, y: float, r: float, **style: Any) -> None:
        (cx, cy), r = at(x, y), r * s
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), **style)

    def rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
        return [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)]

    if symbol == "drop":  # a circle drawn up into a point
        draw.polygon([at(0.5, 0.04), at(0.245, 0.55), at(0.755, 0.55)], fill=INK)
        disc(0.5, 0.64, 0.29, fill=INK)
    elif symbol == "hammers":  # two, crossed
        for degrees in (-38, 38):
            for part in (rect(0.45, 0.2, 0.55, 0.98), rect(0.28, 0.04, 0.72, 0.26)):
                draw.polygon(_turned(part, at(0.5, 0.5), degrees), fill=INK)
    elif symbol == "circles":  # three rings
        for x, y in ((0.5, 0.27), (0.26, 0.71), (0.74, 0.71)):
            disc(x, y, 0.2, outline=INK, width=max(2, round(s * 0.08)))
    elif symbol == "bricks":  # a wall of three staggered courses
        for row, joints in enumerate(((0, 0.5, 1), (0, 0.25, 0.75, 1), (0, 0.5, 1))):
            for left, right in itertools.pairwise(joints):
                draw.polygon(rect(left + 0.03, 0.13 + row * 0.28, right - 0.03,
                                  0.35 + row * 0.28), fill=INK)
    elif symbol == "crown":  # a band with three points, a ball on each
        draw.polygon([at(0.06, 0.84), at(0.06, 0.3), at(0.3, 0.56), at(0.5, 0.2),
                      at(0.7, 0.56), at(0.94, 0.3), at(0.94, 0.84)], fill=INK)
        for x, y in ((0.06, 0.24), (0.5, 0.14), (0.94, 0.24)):
            disc(x, y, 0.07, fill=INK)
    elif symbol == "arrow":  # flying up and to the right
        for part in ([at(0.02, 0.43), at(0.6, 0.43), at(0.6, 0.26), at(0.98, 0.5),
                      at(0.6, 0.74), at(0.6, 0.57), at(0.02, 0.57)], rect(0.02, 0.35, 0.16, 0.65)):
            draw.polygon(_turned(part, at(0.5, 0.5), -45), fill=INK)
