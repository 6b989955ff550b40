"""A league's standings as a picture: rank, player, points, games and the format's
tiebreaks, one row an entry, drawn like the tables (1000 px wide by default, no capital or
digit under 20 px tall there, no taller than 1.25 x the width).

``draw(data, *, width)`` is a pure function of plain data (``bot.leagues.picture`` makes it
from the standings, with the names the bot gives):

    {"title": "Autumn league: standings after round 3",
     "columns": ["Points", "Games", "Buchholz", "Sonneborn-Berger"],
     "rows": [{"rank": "1", "name": "Alice", "withdrawn": False,
               "figures": ["3", "3", "4.5", "3.5"]},          # as shown, one per column
              {"rank": "=2", "name": "Bob", ...}, ...]}       # '=2': a shared rank

The figures are drawn as given, so the picture and the text (``bot.leagues.text``) say the
same. Long names are shortened with an ellipsis; a league longer than the picture can hold
shows its top rows and says how many more the text lists.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, SHADE, Layout

# Column headings short enough for a phone, and what the footnote says they stand for.
SHORT = {"Points": "Pts", "Games": "Games", "Buchholz": "Buch.", "Sonneborn-Berger": "S-B",
         "head-to-head": "H2H", "score difference": "Diff."}
ROW, HEAD, TITLE_HEIGHT, NOTE = 58, 52, 84, 44  # heights at 1000 px


def heading(column: str) -> str:
    return SHORT.get(column, column)


def fitting(data: dict[str, Any], width: int = 1000) -> int:
    """How many rows the picture shows: all of them, or as many as fit in 1.25 x the width
    with a line saying how many more there are."""
    at = Layout(width)
    room = at.tallest - at.px(TITLE_HEIGHT + HEAD + 2 * NOTE + 24)
    rows = len(data["rows"])
    if rows * at.px(ROW) <= room + at.px(NOTE):
        return rows
    return max(1, room // at.px(ROW))


def summary(data: dict[str, Any]) -> str:
    """One line for the picture's alt text: the title and who leads."""
    rows = data["rows"]
    if not rows:
        return f"{data['title']}: nobody yet."
    leaders = [r["name"] for r in rows if r["rank"].lstrip("=") == "1"]
    unit = data["columns"][0].lower()
    return (f"{data['title']}: {kit.listing(leaders)} "
            f"{'lead' if len(leaders) > 1 else 'leads'} with {rows[0]['figures'][0]} {unit}; "
            f"{len(rows)} players.")


def draw(data: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The title, the column headings, a row per entry shown, and the footnotes."""
    at = Layout(width)
    shown = fitting(data, width)
    columns = _columns(data, at, shown)
    blocks = [_title(data, at), _heads(data, at, columns),
              _rows(data, at, columns, shown)]
    longer = [c for c in data["columns"] if heading(c) != c]
    if longer:
        blocks.append(kit.footnote(at, kit.fit("; ".join(
            f"{heading(c)}: {c}" for c in longer), at.px(kit.SMALL), at.body)))
    if shown < len(data["rows"]):
        more = len(data["rows"]) - shown
        blocks.append(kit.footnote(at, f"and {more} more: the text lists every player"))
    return kit.stack(blocks)


def png(data: dict[str, Any], *, width: int = 1000) -> bytes:
    return kit.png(draw(data, width=width))


def _columns(data: dict[str, Any], at: Layout, shown: int) -> list[int]:
    """The right edge of each figure's column, from the right margin leftwards, each as
    wide as its widest figure or heading."""
    size = at.px(kit.TEXT)
    edges: list[int] = []
    right = at.width - at.margin
    for k in reversed(range(len(data["columns"]))):
        widest = max([kit.text_width(heading(data["columns"][k]), at.px(kit.SMALL),
                                     bold=True)]
                     + [kit.text_width(row["figures"][k], size, bold=k == 0)
                        for row in data["rows"][:shown]])
        edges.append(right)
        right -= max(widest, at.px(60)) + at.px(28)
    return list(reversed(edges))


def _chip_width(data: dict[str, Any], at: Layout) -> int:
    """The rank chips' width: a square, or as wide as the widest rank ('=128') needs."""
    return max([at.px(48)] + [kit.text_width(row["rank"], at.px(kit.SMALL), bold=True)
                              + at.px(16) for row in data["rows"]])


def _name_room(at: Layout, columns: list[int], data: dict[str, Any]) -> tuple[int, int]:
    """Where names start and how wide they may be."""
    start = at.margin + _chip_width(data, at) + at.px(20)
    first = columns[0] - max(kit.text_width(heading(data["columns"][0]), at.px(kit.SMALL),
                                            bold=True), at.px(60))
    return start, first - at.px(28) - start


def _title(data: dict[str, Any], at: Layout) -> Image.Image:
    block = kit.canvas(at.width, at.px(TITLE_HEIGHT))
    kit.text(block, (at.margin, at.px(24)), kit.fit(data["title"], at.px(kit.LARGE),
             at.body, bold=True), at.px(kit.LARGE), INK, bold=True)
    return block


def _heads(data: dict[str, Any], at: Layout, columns: list[int]) -> Image.Image:
    block = kit.canvas(at.width, at.px(HEAD))
    size, middle = at.px(kit.SMALL), at.px(HEAD) // 2
    kit.text(block, (at.margin, middle), "#", size, MUTED, anchor="lm", bold=True)
    start, _ = _name_room(at, columns, data)
    kit.text(block, (start, middle), "Player", size, MUTED, anchor="lm", bold=True)
    for column, right in zip(data["columns"], columns, strict=True):
        kit.text(block, (right, middle), heading(column), size, MUTED, anchor="rm",
                 bold=True)
    ImageDraw.Draw(block).line((at.margin, at.px(HEAD) - at.px(3), at.width - at.margin,
                                at.px(HEAD) - at.px(3)), fill=INK, width=max(1, at.px(3)))
    return block


def _rows(data: dict[str, Any], at: Layout, columns: list[int], shown: int
          ) -> Image.Image:
    """Every other row shaded; the rank in a chip (the top three in the palette's first
    colours, each with its number); a withdrawn entry's name muted and marked."""
    step, size = at.px(ROW), at.px(kit.TEXT)
    block = kit.canvas(at.width, step * shown + at.px(12))
    draw = ImageDraw.Draw(block)
    start, room = _name_room(at, columns, data)
    chip, wide = at.px(48), _chip_width(data, at)
    medals = [kit.seat_colour(c) for c in ("yellow", "sky", "orange")]
    for i, row in enumerate(data["rows"][:shown]):
        top = at.px(6) + i * step
        middle = top + step // 2
        if i % 2:
            draw.rounded_rectangle((at.margin - at.px(10), top, at.width - at.margin
                                    + at.px(10), top + step), radius=at.px(10), fill=SHADE)
        rank = row["rank"]
        place = int(rank.lstrip("="))
        colour = (medals[place - 1] if place <= 3 else
                  kit.SeatColour("rank", kit.NUMBERED, rank, INK))
        kit.chip(block, (at.margin, middle - chip // 2, at.margin + wide, middle + chip // 2),
                 colour, at.px(kit.SMALL), rank)
        name = row["name"] + (" (withdrawn)" if row["withdrawn"] else "")
        kit.text(block, (start, middle), kit.fit(kit.clean(name), size, room, bold=True),
                 size, MUTED if row["withdrawn"] else INK, anchor="lm", bold=True)
        for k, (figure, right) in enumerate(zip(row["figures"], columns, strict=True)):
            kit.text(block, (right, middle), figure, size, INK if k == 0 else MUTED,
                     anchor="rm", bold=k == 0)
    return block
