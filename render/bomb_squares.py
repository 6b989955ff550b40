"""The picture of a Bomb Squares view: the table of square cards, the dice, the players.

Top to bottom: who acts and what they must do, the last move and the dice; the grid of
square cards with coordinates on its edges (each card tinted in its colour with a lettered
tag, its sections as slots around the middle, meeples as lettered discs, the bomb's letter
in the middle, landmines as black 'L' slots, a lookout tower as a 'T' tag, a token as a
large lettered disc; empty places show their names, for typing 'place d4'); one line per
player (crystals, tokens, airplane, mint tin cards, a held square card); the supplies; and
in a seat's private picture, its mint tin cards and the square card it holds.

Drawn with plain Pillow from the view alone: hidden cards are drawn as counts only.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import kit

RGB = tuple[int, int, int]
INK: RGB = kit.INK
PAPER: RGB = kit.PAPER
MUTED: RGB = kit.MUTED
NAME = "Bomb Squares"
LETTER = {"red": "R", "green": "G", "blue": "B", "orange": "O", "yellow": "Y", "purple": "P"}
TEXT = 24  # the smallest type, at 1000 px wide
LEGEND = "Square tag: card colour. Ringed disc: bomb. Discs: meeples. L landmine, T tower."
GRID = 9


def fill(name: str) -> RGB:
    return kit.seat_colour(name).fill


def _tint(colour: RGB) -> RGB:
    """A card's pale face: five sevenths of the way from its colour to white."""
    return (round(colour[0] + (255 - colour[0]) * 5 / 7),
            round(colour[1] + (255 - colour[1]) * 5 / 7),
            round(colour[2] + (255 - colour[2]) * 5 / 7))


TABLE: RGB = kit.rgb("#D9D2C3")  # the table under the cards
EMPTY: RGB = kit.rgb("#EEE9DE")  # an empty place on the table
TINTS = {name: _tint(fill(name)) for name in LETTER}
SURFACES: tuple[RGB, ...] = (TABLE, EMPTY, *TINTS.values())


def _font(size: int) -> ImageFont.FreeTypeFont:
    return kit.font(size)


def names(view: dict[str, Any]) -> list[str]:
    """Each seat's name: the display name the bot gave, else 'Player N'."""
    given = view.get("names") or []
    out = []
    for s in range(view["players"]):
        name = kit.clean(str(given[s])) if s < len(given) and given[s] else ""
        out.append(name if name.strip("? ") else f"Player {s + 1}")
    return out


# --------------------------------------------------------------------------- words

DOING = {
    "start": "draw a square card or sell mint tin cards",
    "place": "place the square card or keep it",
    "bomb": "put the {pending} bomb on a card",
    "meeple": "place the {pending} meeple",
    "act": "roll, shop, play a card or end the turn",
    "rolled": "move meeples, attack or end the turn",
    "switch": "switch a bomb",
    "landmine": "lay the landmine",
    "tower": "put up the lookout tower",
    "tokens": "lay set tokens",
}


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and a line of detail."""
    who = names(view)
    result = view.get("result")
    if result is not None:
        winners = [who[s] for s in result["winners"]]
        verb = "wins" if len(winners) == 1 else "win"
        return f"Game over: {kit.listing(winners)} {verb}", str(result["reason"])
    phase = view["phase"]
    if phase == "bets":
        waiting = [who[s] for s in view["to_act"]]
        attack = view["attack"]
        head = f"Bets on the green die: {kit.listing(waiting)}"
        detail = f"{who[attack['attacker']]} attacks {attack['to']} from {attack['from']} " \
                 f"with power {attack['power']}."
        return head, detail
    if phase == "challenge":
        attack = view["attack"]
        return (f"{who[attack['challenger']]}: challenge the win or not",
                f"{who[attack['attacker']]} won on {attack['to']} (toughness "
                f"{attack['toughness']} < power {attack['power']}).")
    if phase == "sale":
        waiting = [who[s] for s in view["to_act"]]
        return (f"{who[view['sale']['seller']]} sells: {kit.listing(waiting)} to answer",
                "Buy one mint tin card, face down, for 1 crystal.")
    turn = view["turn"]
    what = DOING.get(phase, phase).format(pending=view.get("pending") or "")
    return f"{who[turn]}: {what}", f"Round {view['round']}, turn {view['turns']} of " \
                                   f"{view['turn_limit']}."


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications."""
    head, detail = status(view)
    who = names(view)
    scores = ", ".join(f"{who[s]} {c}" for s, c in enumerate(view["crystals"]))
    parts = [f"{NAME}: {head}.", f"Crystals: {scores} (75 wins)."]
    last = view.get("last")
    if last and view.get("result") is None:
        parts.append(f"Last: {who[last['seat']]} {last['text']}.")
    if view.get("result") is None and view["phase"] in ("bets", "challenge"):
        parts.append(detail)
    return " ".join(parts)


# --------------------------------------------------------------------------- pieces


def _disc(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float,
          colour: RGB, letter: str, size: int, outline: RGB = INK, width: int = 2) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour,
                 outline=outline, width=width)
    if letter:
        draw.text((x, y), letter, font=_font(size), fill=kit.ink_for(colour), anchor="mm")


def _tag(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], colour: RGB,
         letter: str, size: int) -> None:
    draw.rectangle(box, fill=colour, outline=INK, width=1)
    draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), letter, font=_font(size),
              fill=kit.ink_for(colour), anchor="mm")


def _card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: dict[str, Any],
          size: int, last: bool) -> None:
    """One square card as a 3x3 of places: the bomb in the middle, the lettered colour tag
    left of it, a tower's 'T' right of it, and the sections as slots above and below,
    filled clockwise from the top left."""
    x0, y0, x1, y1 = box
    cell = x1 - x0
    third = cell / 3
    colour = card["colour"]
    draw.rectangle(box, fill=TINTS[colour], outline=INK if last else fill(colour),
                   width=max(4, cell // 20) if last else max(2, cell // 40))

    def at(col: int, row: int) -> tuple[float, float]:
        return x0 + third * (col + 0.5), y0 + third * (row + 0.5)

    half = third / 2 - max(2, cell // 50)
    if card["token"]:
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        _disc(draw, centre, cell * 0.36, fill(colour), LETTER[colour], round(size * 1.4),
              outline=PAPER if card["token"] == 2 else INK, width=max(3, cell // 25))
        return
    tag = at(0, 1)
    _tag(draw, (tag[0] - half, tag[1] - half, tag[0] + half, tag[1] + half), fill(colour),
         LETTER[colour], size)
    if card["tower"]:
        spot = at(2, 1)
        _tag(draw, (spot[0] - half, spot[1] - half, spot[0] + half, spot[1] + half), INK,
             "T", size)
    for n in range(card["sections"]):
        spot = SLOTS[n]
        centre = at(*spot)
        if n < card["meeples"]:
            meeple = card["meeple_colour"]
            _disc(draw, centre, half, fill(meeple), LETTER[meeple], size)
        elif card["landmine"] and n == card["sections"] - 1:
            _disc(draw, centre, half, INK, "L", size, outline=INK)
        else:
            _disc(draw, centre, half * 0.8, PAPER, "", size, outline=MUTED, width=2)
    bomb = card["bomb"]
    centre = at(1, 1)
    if bomb:
        r = half + max(1, cell // 60)
        draw.ellipse((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r),
                     fill=fill(bomb), outline=INK, width=max(4, cell // 22))
        draw.text(centre, LETTER[bomb], font=_font(size), fill=kit.ink_for(fill(bomb)),
                  anchor="mm")
    else:
        draw.ellipse((centre[0] - 4, centre[1] - 4, centre[0] + 4, centre[1] + 4), fill=MUTED)


SLOTS = [(0, 0), (1, 0), (2, 0), (2, 2), (1, 2), (0, 2)]  # around the middle, clockwise


# --------------------------------------------------------------------------- drawing


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Columns and rows to draw: the cards and one place around them, within the grid."""
    cols = [ord(c["cell"][0]) - ord("a") for c in view["board"]]
    rows = [int(c["cell"][1:]) - 1 for c in view["board"]]
    size = view.get("size", GRID)
    return (max(0, min(cols) - 1), min(size - 1, max(cols) + 1),
            max(0, min(rows) - 1), min(size - 1, max(rows) + 1))


def _player_lines(view: dict[str, Any]) -> list[tuple[int, str, list[str]]]:
    """Per seat: the seat, its line of text and its token colours."""
    who = names(view)
    out = []
    for s in range(view["players"]):
        bits = [f"{view['crystals'][s]} crystals"]
        plane = view["planes"][s]
        if plane:
            bits.append("airplane" + (" (next turn)" if plane == 1 else ""))
        bits.append(f"tin {view['for_sale_counts'][s]}+{view['bought_counts'][s]}")
        if view["armed_counts"][s]:
            bits.append(f"{view['armed_counts'][s]} armed")
        if view["holding"][s]:
            bits.append("holds a card")
        if view["sets"][s]:
            bits.append("set laid")
        out.append((s, f"{who[s]}: " + ", ".join(bits), view["tokens"][s]))
    return out


def _private_lines(view: dict[str, Any]) -> list[str]:
    if view.get("seat") is None:
        return []
    lines = ["Your mint tin: for sale " + (", ".join(view.get("for_sale") or []) or "none")
             + "; bought " + (", ".join(view.get("bought") or []) or "none") + "."]
    armed = view.get("armed") or []
    if armed:
        who = names(view)
        lines.append("Armed: " + ", ".join(f"{a['card']} against {who[a['against']]}"
                                           for a in armed) + ".")
    attack = view.get("attack")
    if attack and attack.get("my_bet"):
        lines.append(f"Your secret bet: {attack['my_bet']}.")
    return lines


def _fit(text: str, size: int, width: int) -> str:
    font = _font(size)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "...") > width:
        text = text[:-1]
    return text + "..."


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The whole picture of ``view``, ``width`` pixels wide, at most 1.25 x as tall."""
    k = width / 1000
    size = round(TEXT * k)
    line = round(34 * k)
    margin = round(16 * k)
    head, detail = status(view)
    players = _player_lines(view)
    private = _private_lines(view)
    held = view.get("held") if view.get("seat") is not None else None
    extra = line * 3  # dice, supplies and the legend
    below = line * len(players) + extra + line * len(private) + (
        round(70 * k) if held else 0) + margin * 3
    top = round(44 * k) + line * 2 + margin
    c0, c1, r0, r1 = _bounds(view)
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    label = round(30 * k)
    room_h = int(width * 1.25) - top - below - label
    cell = int(min(150 * k, (width - 2 * margin - label) / cols, room_h / rows))
    board_w, board_h = cell * cols, cell * rows
    height = top + label + board_h + below
    image = Image.new("RGB", (width, height), PAPER)
    pen = ImageDraw.Draw(image)
    big = _font(round(34 * k))
    small = _font(size)
    pen.text((margin, margin), _fit(head, round(34 * k), width - 2 * margin), font=big,
             fill=INK, stroke_width=1, stroke_fill=INK)
    y = margin + round(44 * k)
    pen.text((margin, y), _fit(detail, size, width - 2 * margin), font=small, fill=MUTED)
    y += line
    last = view.get("last")
    if last:
        who = names(view)
        text = f"Last: {who[last['seat']]} {last['text']}."
        pen.text((margin, y), _fit(text, size, width - 2 * margin), font=small, fill=INK)
    y += line
    # the table
    x0 = (width - board_w - label) // 2 + label
    y0 = y + label
    pen.rectangle((x0 - 4, y0 - 4, x0 + board_w + 4, y0 + board_h + 4), fill=TABLE)
    for ci in range(cols):
        pen.text((x0 + ci * cell + cell / 2, y0 - label / 2), "abcdefghi"[c0 + ci],
                 font=small, fill=INK, anchor="mm")
    for ri in range(rows):
        row = r1 - ri  # row 9 at the top
        pen.text((x0 - label / 2 - 2, y0 + ri * cell + cell / 2), str(row + 1), font=small,
                 fill=INK, anchor="mm")
    cards = {c["cell"]: c for c in view["board"]}
    marked = set(last["cells"]) if last else set()
    for ri in range(rows):
        for ci in range(cols):
            name = f"{'abcdefghi'[c0 + ci]}{r1 - ri + 1}"
            box = (x0 + ci * cell + 2, y0 + ri * cell + 2, x0 + (ci + 1) * cell - 2,
                   y0 + (ri + 1) * cell - 2)
            if name in cards:
                _card(pen, box, cards[name], size, name in marked)
            else:
                pen.rectangle(box, fill=EMPTY)
                pen.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), name, font=small,
                         fill=MUTED, anchor="mm")
    y = y0 + board_h + margin
    # the dice
    x = margin
    pen.text((x, y + line / 2), "Dice:", font=small, fill=INK, anchor="lm")
    x += round(70 * k)
    for die, value in view["dice"].items():
        if not value:
            continue
        box = (x, y + 2, x + round(56 * k), y + line - 2)
        _tag(pen, box, fill(die), f"{die[0].upper()}{value}", size)
        x += round(64 * k)
    attack = view.get("attack")
    if attack and attack.get("bets"):
        who = names(view)
        bets = ", ".join(f"{who[s][:10]} {b}" for s, b in enumerate(attack["bets"]) if b > 0)
        pen.text((x + 8, y + line / 2), _fit(f"bets: {bets}", size, width - x - margin),
                 font=small, fill=INK, anchor="lm")
    elif not any(view["dice"].values()):
        pen.text((x, y + line / 2), "not rolled this turn", font=small, fill=MUTED,
                 anchor="lm")
    y += line
    # the players
    for seat, text, tokens in players:
        acting = seat in view["to_act"]
        if acting:
            pen.rectangle((margin - 6, y, width - margin + 6, y + line - 2), fill=EMPTY)
        chips = len(tokens) * round(34 * k)
        pen.text((margin, y + line / 2), _fit(("> " if acting else "") + text, size,
                                              width - 2 * margin - chips - 8),
                 font=small, fill=INK, anchor="lm")
        x = width - margin - chips
        for colour in tokens:
            _tag(pen, (x, y + 2, x + round(30 * k), y + line - 4), fill(colour),
                 LETTER[colour], size)
            x += round(34 * k)
        y += line
    supplies = (f"Deck {view['deck']}, bank {view['bank']}; shop: {view['landmines']} "
                f"landmines (2), {view['towers']} towers (2), {view['airplanes']} airplanes (5)")
    pen.text((margin, y + line / 2), _fit(supplies, size, width - 2 * margin), font=small,
             fill=MUTED, anchor="lm")
    y += line
    pen.text((margin, y + line / 2), _fit(LEGEND, size, width - 2 * margin), font=small,
             fill=MUTED, anchor="lm")
    y += line
    for text in private:
        pen.text((margin, y + line / 2), _fit(text, size, width - 2 * margin), font=small,
                 fill=INK, anchor="lm")
        y += line
    if held:
        pen.text((margin, y + round(35 * k)), "You hold:", font=small, fill=INK, anchor="lm")
        colour = held["colour"]
        box = (margin + round(120 * k), y + 2, margin + round(300 * k), y + round(66 * k))
        pen.rectangle(box, fill=TINTS[colour], outline=fill(colour), width=3)
        _tag(pen, (box[0] + 6, box[1] + 12, box[0] + 6 + round(40 * k), box[3] - 12),
             fill(colour), LETTER[colour], size)
        pen.text((box[0] + round(56 * k), (box[1] + box[3]) / 2),
                 f"{held['sections']} sections", font=small, fill=INK, anchor="lm")
    return image
