"""The pictures of a Bomb Squares view: the table everyone sees, and a seat's mint tin.

The table: who acts and the last move (``kit.header``); the square cards and one place
around them, files below and ranks on the left. A card is tinted in its colour and holds a
3x3: the bomb in the middle (a ringed, lettered disc), the card's colour tag left of it, a
tower's 'T' right of it, its sections above and below, filled clockwise from the top left
(meeples as lettered discs, a landmine as a black 'L'); a token card is one large disc. The
last move's cards are framed; the empty places a card may join are named. Then the dice and
supplies, a row per seat and a legend (left out when the cards would be too small to read);
at the end, the result with where each seat's crystals came from and who won which tokens.
The hand: the seat's mint tin cards, what it armed, its secret bet, its held square card.
Nobody owns a colour, so seats are drawn in sky and black (then purple, orange): never a
meeple's colour.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Layout, SeatColour

NAME = "Bomb Squares"
LETTER = {"red": "R", "green": "G", "blue": "B", "orange": "O", "yellow": "Y", "purple": "P"}
SEATS = ["sky", "black", "purple", "orange"]  # seat chips: not the meeples' colours
SLOTS = [(0, 0), (1, 0), (2, 0), (2, 2), (1, 2), (0, 2)]  # sections, clockwise
MIN_CELL = 78  # at 1000 px: a slot's lettered disc (26 px across) holds 24 px type
CARDS = {"meeple": "another meeple", "crystals": "2 crystals", "bomb": "another bomb",
         "square": "another square card", "skip": "a player loses a turn",
         "stop": "stops a player's roll"}

TABLE: RGB = kit.rgb("#D9D2C3")  # the table under the cards
EMPTY: RGB = kit.rgb("#EEE9DE")  # an empty place on the table


def fill(colour: str) -> RGB:
    return kit.seat_colour(colour).fill


def _tint(colour: RGB) -> RGB:
    """A card's pale face: five sevenths of the way from its colour to white."""
    r, g, b = (round(v + (255 - v) * 5 / 7) for v in colour)
    return r, g, b


TINTS = {name: _tint(fill(name)) for name in LETTER}
LEGEND = [(SeatColour(n, fill(n), LETTER[n], kit.ink_for(fill(n))), n) for n in LETTER] + [
    (SeatColour("landmine", INK, "L", PAPER), "landmine"),
    (SeatColour("tower", INK, "T", PAPER), "tower")]


# --------------------------------------------------------------------------- words


def seated(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the kit's blocks take it: seats named ('Player 2' without a display
    name) and coloured apart from the game's pieces."""
    given = view.get("names") or []
    names = [str(given[s]) if s < len(given) and given[s] else f"Player {s + 1}"
             for s in range(view["players"])]
    return {**view, "names": names, "colours": SEATS[: view["players"]]}


def _names(view: dict[str, Any], *, spoken: bool = False) -> list[str]:
    return [s.spoken if spoken else s.name for s in kit.seats(seated(view))]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


DOING = {"start": "draw a square card or sell", "place": "place the square card or keep it",
         "bomb": "put the {pending} bomb on a card", "meeple": "place the {pending} meeple",
         "act": "roll, shop, play a card or end the turn", "switch": "switch a bomb",
         "rolled": "move meeples, attack or end the turn", "landmine": "lay the landmine",
         "tower": "put up the lookout tower", "tokens": "lay set tokens"}


def last_move(view: dict[str, Any], who: list[str]) -> str:
    last = view.get("last")
    return f"Last move by {who[last['seat']]}: {last['text']}." if last else ""


def status(view: dict[str, Any], who: list[str] | None = None) -> tuple[str, str]:
    """The headline (who acts, doing what) and the detail under it."""
    who = who or _names(view)
    result = view.get("result")
    if result is not None:
        winners = [who[s] for s in result["winners"]]
        best = max(view["crystals"])
        verb = "wins" if len(winners) == 1 else "draw"
        return f"{kit.listing(winners)} {verb} with {best} crystals", ""
    phase, attack = view["phase"], view.get("attack")
    if phase == "bets" and attack:
        waiting = [who[s] for s in view["to_act"]]
        return (f"Bets on the green die: {kit.listing(waiting)}",
                f"{who[attack['attacker']]} attacks {attack['to']} from {attack['from']} "
                f"with power {attack['power']}. The furthest guess wins 2 crystals.")
    if phase == "challenge" and attack:
        return (f"{who[attack['challenger']]}: challenge the win or not",
                f"{who[attack['attacker']]} won on {attack['to']}: green {attack['green']}, "
                f"toughness {attack['toughness']} < power {attack['power']}.")
    if phase == "sale" and view.get("sale"):
        waiting = [who[s] for s in view["to_act"]]
        return (f"{who[view['sale']['seller']]} sells: {kit.listing(waiting)} to answer",
                "Buy one mint tin card, face down, for 1 crystal.")
    what = DOING.get(phase, phase).format(pending=view.get("pending") or "")
    detail = last_move(view, who) or f"{who[view['turn']]} was drawn to start."
    rolled = [f"{die} {value}" for die, value in view["dice"].items() if value]
    if rolled and not (view.get("last") or {}).get("text", "").startswith("rolled"):
        detail = f"Dice: {kit.listing(rolled)}. " + detail
    if phase == "tokens" and view.get("to_place"):
        detail = f"Tokens to lay: {kit.listing(view['to_place'])}. " + detail
    return f"{who[view['turn']]}: {what}", detail


def reason(view: dict[str, Any], who: list[str]) -> str:
    """Why the game ended, with the seats' names for the rules' 'Player 2'."""
    text = str(view["result"]["reason"])
    for s in range(view["players"]):
        text = text.replace(f"Player {s + 1}", who[s])
    return text


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications: whose turn, the crystals, the last
    move; at the end, where each seat's crystals came from; in a seat's view, its cards."""
    who = _names(view, spoken=True)
    head, detail = status(view, who)
    scores = ", ".join(f"{who[s]} {c}" for s, c in enumerate(view["crystals"]))
    parts = [f"{NAME}: {head}.", f"Crystals: {scores} ({view['to_win']} wins)."]
    if view.get("result") is not None:
        parts = [f"{NAME}: Game over: {head}.", parts[1], reason(view, who),
                 *breakdown(view, who)]
    else:
        parts.append(detail)
        if view.get("last") and last_move(view, who) not in detail:
            parts.append(last_move(view, who))
        if view.get("seat") is not None:
            parts.append(_private_words(view, who))
    return " ".join(" ".join(parts).split())


def _private_words(view: dict[str, Any], who: list[str]) -> str:
    words = [f"Your mint tin: for sale {', '.join(view.get('for_sale') or []) or 'none'}; "
             f"bought {', '.join(view.get('bought') or []) or 'none'}."]
    for armed in view.get("armed") or []:
        words.append(f"Armed: {armed['card']} against {who[armed['against']]}.")
    held = view.get("held")
    if held:
        words.append(f"You hold a {held['colour']} {held['sections']}-section square card.")
    bet = (view.get("attack") or {}).get("my_bet")
    if bet:
        words.append(f"Your secret bet: {bet}.")
    return " ".join(words)


# --------------------------------------------------------------------------- cards


@functools.lru_cache(maxsize=2048)
def _card(colour: str, sections: int, bomb: str | None, meeples: int, meeple: str | None,
          landmine: bool, tower: bool, token: int, w: int, h: int, size: int) -> Image.Image:
    """One square card, ``w`` x ``h``: its colour tag, bomb, tower and section slots."""
    card = kit.canvas(w, h, TINTS[colour])
    draw = ImageDraw.Draw(card)
    line = max(2, w // 40)
    draw.rectangle((0, 0, w - 1, h - 1), outline=fill(colour), width=line)

    def spot(col: int, row: int) -> tuple[float, float]:
        return w * (2 * col + 1) / 6, h * (2 * row + 1) / 6

    def disc(centre: tuple[float, float], r: float, back: RGB, letter: str,
             ring: RGB = INK, width: int = max(1, line // 2)) -> None:
        x, y = centre
        draw.ellipse((x - r, y - r, x + r, y + r), fill=back, outline=ring, width=width)
        if letter:
            kit.text(card, centre, letter, size, kit.ink_for(back), anchor="mm", bold=True)

    r = min(w, h) / 6 - max(1, line // 2)
    if token:
        disc(spot(1, 1), min(w, h) * 0.38, fill(colour), LETTER[colour],
             PAPER if token == 2 else INK, max(3, w // 22))
        return card
    x, y = spot(0, 1)
    draw.rectangle((x - r, y - r, x + r, y + r), fill=fill(colour), outline=INK,
                   width=max(1, line // 2))
    kit.text(card, (x, y), LETTER[colour], size, kit.ink_for(fill(colour)), anchor="mm",
             bold=True)
    if tower:
        x, y = spot(2, 1)
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=r / 3, fill=INK)
        kit.text(card, (x, y), "T", size, PAPER, anchor="mm", bold=True)
    for n in range(sections):
        centre = spot(*SLOTS[n])
        if n < meeples and meeple:
            disc(centre, r, fill(meeple), LETTER[meeple])
        elif landmine and n == sections - 1:
            disc(centre, r, INK, "L")
        else:
            disc(centre, r * 0.75, PAPER, "", MUTED, max(1, line // 2))
    if bomb:
        disc(spot(1, 1), r * 1.1, fill(bomb), LETTER[bomb], INK, max(3, w // 24))
    else:
        x, y = spot(1, 1)
        draw.ellipse((x - line, y - line, x + line, y + line), fill=MUTED)
    return card


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Files and ranks drawn (first and last, from 0): the cards, and during play one
    place around them where a card may go."""
    files = [kit.square_index(c["cell"])[0] for c in view["board"]]
    ranks = [kit.square_index(c["cell"])[1] for c in view["board"]]
    top, around = int(view["size"]) - 1, 0 if view.get("result") is not None else 1
    return (max(0, min(files) - around), min(top, max(files) + around),
            max(0, min(ranks) - around), min(top, max(ranks) + around))


def _open_places(view: dict[str, Any]) -> set[str]:
    """Empty places touching a card edge to edge: where a square card may go."""
    taken = {c["cell"] for c in view["board"]}
    size = int(view["size"])
    out = set()
    for name in taken:
        f, r = kit.square_index(name)
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= f + df < size and 0 <= r + dr < size:
                out.add(kit.square_name(f + df, r + dr))
    return out - taken


def _board(view: dict[str, Any], at: Layout, cell: int) -> Image.Image:
    """The cards on the table with coordinates: files below, ranks on the left."""
    f0, f1, r0, r1 = _bounds(view)
    files, ranks, cw, ch = f1 - f0 + 1, r1 - r0 + 1, cell, cell
    label, room, pad = at.px(kit.TEXT), at.px(40), at.px(8)
    left = (at.width - files * cw + room) // 2
    top = pad
    block = kit.canvas(at.width, top + ranks * ch + pad + room)
    draw = ImageDraw.Draw(block)
    draw.rectangle((left - pad, top - pad, left + files * cw + pad, top + ranks * ch + pad),
                   fill=TABLE)
    for f in range(files):
        kit.text(block, (left + f * cw + cw // 2, top + ranks * ch + pad + at.px(6)),
                 chr(ord("a") + f0 + f), label, INK, anchor="mt")
    for r in range(ranks):
        kit.text(block, (left - pad - at.px(8), top + (ranks - 1 - r) * ch + ch // 2),
                 str(r0 + r + 1), label, INK, anchor="rm")
    cards = {c["cell"]: c for c in view["board"]}
    places = _open_places(view) if view.get("result") is None else set()
    inset = max(2, at.px(3))
    size = max(at.px(24), min(at.px(40), round(min(cw, ch) / 3 * 0.62)))
    for f in range(files):
        for r in range(ranks):
            name = kit.square_name(f0 + f, r0 + r)
            x, y = left + f * cw + inset, top + (ranks - 1 - r) * ch + inset
            w, h = cw - 2 * inset, ch - 2 * inset
            card = cards.get(name)
            if card is None:
                draw.rectangle((x, y, x + w - 1, y + h - 1), fill=EMPTY)
                if name in places:
                    kit.text(block, (x + w / 2, y + h / 2), name, at.px(24), MUTED,
                             anchor="mm")
                continue
            block.paste(_card(card["colour"], card["sections"], card["bomb"],
                              card["meeples"], card["meeple_colour"], bool(card["landmine"]),
                              bool(card["tower"]), card["token"], w, h, size), (x, y))
    for name in (view.get("last") or {}).get("cells", []):
        f, r = kit.square_index(name)
        x, y = left + (f - f0) * cw, top + (r1 - r) * ch
        draw.rectangle((x, y, x + cw - 1, y + ch - 1), outline=INK, width=max(3, at.px(6)))
    return block


# --------------------------------------------------------------------------- panels


def _strip(view: dict[str, Any], at: Layout) -> Image.Image:
    """The dice rolled this turn (lettered chips with their values), then the supplies."""
    height = at.px(56)
    block = kit.canvas(at.width, height + at.px(12))
    x, top = at.margin, at.px(6)
    for die, value in view["dice"].items():
        if value:
            chip = SeatColour(die, fill(die), LETTER[die], kit.ink_for(fill(die)))
            kit.chip(block, (x, top, x + at.px(76), top + height), chip, at.px(kit.TEXT),
                     f"{LETTER[die]}{value}")
            x += at.px(86)
    room = at.width - at.margin - x - (at.px(8) if x > at.margin else 0)
    for mines, towers, planes in (("landmine", "tower", "airplane"), ("mine", "tower", "plane")):
        words = (f"Deck {view['deck']} · bank {view['bank']} · shop: "
                 f"{_plural(view['landmines'], mines)}, {_plural(view['towers'], towers)}, "
                 f"{_plural(view['airplanes'], planes)}")
        if kit.text_width(words, at.px(kit.SMALL)) <= room:
            break
    kit.text(block, (x + (at.px(8) if x > at.margin else 0), top + height // 2),
             kit.fit(words, at.px(kit.SMALL), at.width - at.margin - x), at.px(kit.SMALL),
             MUTED, anchor="lm")
    return block


def _legend(at: Layout) -> Image.Image:
    """The letters of the colours and pieces, and where a card holds what."""
    note = kit.canvas(at.width, at.px(44))
    kit.text(note, (at.margin, at.px(4)), kit.fit(
        "Centre: the bomb, ringed. Left: the card's colour. Around: its sections.",
        at.px(kit.SMALL), at.body), at.px(kit.SMALL), MUTED)
    return kit.stack([kit.legend(at, LEGEND), note])


def _tokens(colours: list[str], *, tight: bool = False) -> str:
    """'tokens O B R', or '5 tokens O B R' when some colour is won twice ('OBR' tight)."""
    distinct = ("" if tight else " ").join(LETTER[c] for c in dict.fromkeys(colours))
    return f"tokens {distinct}" if tight or len(set(colours)) == len(colours) else \
        f"{len(colours)} tokens {distinct}"


def _room(view: dict[str, Any], at: Layout) -> list[int]:
    """The width ``kit.seat_rows`` leaves each seat's line, after its chip and name."""
    size = at.px(kit.TEXT)
    return [at.width - at.margin - max(at.px(400), at.margin + at.px(80) + kit.text_width(
        kit.fit(seat.name, size, at.px(300), bold=True), size, bold=True))
        for seat in kit.seats(seated(view))]


def _seat_lines(view: dict[str, Any], at: Layout) -> list[str]:
    """Each seat's crystals, tokens, airplane, a held square card, its mint tin cards and
    how many it armed; in shorter words (the tin's count left out) where the long ones
    would not fit the row."""
    lines, size = [], at.px(kit.TEXT)
    for s, room in enumerate(_room(view, at)):
        tin = view["for_sale_counts"][s] + view["bought_counts"][s]
        armed, plane = view["armed_counts"][s], view["planes"][s]
        for short in (0, 1, 2):
            bits = [_plural(view["crystals"][s], "crystal")]
            if view["sets"][s]:
                bits.append("set " + ("" if short == 2 else " ").join(
                    LETTER[c] for c in view["sets"][s]))
            elif view["tokens"][s]:
                bits.append(_tokens(view["tokens"][s], tight=short == 2))
            if plane:
                bits.append("plane" if short else "airplane" + (" (next turn)" if plane == 1
                                                                 else ""))
            if view["holding"][s]:
                bits.append("card held" if short else "holds a card")
            if not short:
                bits.append(_plural(tin, "tin card"))
            bits += [f"{armed} armed"] if armed else []
            line = (", " if short == 2 else " · ").join(bits)
            if kit.text_width(line, size) <= room:
                break
        lines.append(line)
    return lines


WAYS = [("fill", "filling"), ("attack", "attacks"), ("bets", "bets"), ("sales", "sales"),
        ("tokens", "token set"), ("challenge", "challenges"), ("cards", "cards")]
START = 5  # crystals each seat starts with


def breakdown(view: dict[str, Any], who: list[str], *, short: bool = False) -> list[str]:
    """Where each seat's crystals came from (``short``: the three largest ways and the
    rest together), then who won which tokens."""
    lines = []
    for s, name in enumerate(who):
        earned = sorted(((view["earned"][key][s], word) for key, word in WAYS
                         if view["earned"][key][s]), reverse=True)
        spent = START + sum(n for n, _ in earned) - view["crystals"][s]
        if short and len(earned) > 4:
            earned = [*earned[:3], (sum(n for n, _ in earned[3:]), "more")]
        parts = [f"{START} start", *(f"{n} {word}" for n, word in earned)]
        lines.append(f"{name} {view['crystals'][s]} = " + " + ".join(parts)
                     + (f" - {spent} spent" if spent else "") + ".")
    won = [f"{who[s]}: set " + " ".join(LETTER[c] for c in view["sets"][s])
           if view["sets"][s] else f"{who[s]}: {_tokens(t)}"
           for s, t in enumerate(view["tokens"]) if t or view["sets"][s]]
    lines.append("Tokens won: " + ("; ".join(won) if won else "none") + ".")
    return lines


# --------------------------------------------------------------------------- pictures


def _cell(view: dict[str, Any], at: Layout, used: int) -> int:
    """A card's side: as large as fits beside and under the rest."""
    f0, f1, r0, r1 = _bounds(view)
    return min(at.px(200), (at.body - at.px(56)) // (f1 - f0 + 1),
               (at.tallest - used - at.px(56)) // (r1 - r0 + 1))


def table(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """What everyone sees: the header, the cards as large as fits, the seats or the end.
    Where the cards would be too small to read, the legend is left out (then the
    supplies), or the breakdown of the final crystals is shortened."""
    at = Layout(width)
    seen = seated(view)
    who = _names(view)
    top = kit.header(seen, at, *status(view, who))
    if view.get("result") is not None:
        ended = {**seen, "result": {**view["result"], "reason": reason(view, who)}}
        for short in (False, True):
            end = kit.result_box(ended, at, breakdown(view, who, short=short))
            cell = _cell(view, at, top.height + end.height)
            if cell >= at.px(MIN_CELL):
                break
        return kit.stack([top, _board(view, at, cell), end])
    rows = kit.seat_rows(seen, at, _seat_lines(view, at))
    strip: Image.Image | None = _strip(view, at)
    legend: Image.Image | None = _legend(at)
    for leave_out in ("", "legend", "strip"):
        if leave_out == "legend":
            legend = None
        elif leave_out == "strip":
            strip = None
        used = sum(b.height for b in (top, rows, strip, legend) if b is not None)
        cell = _cell(view, at, used)
        if cell >= at.px(MIN_CELL):
            break
    return kit.stack([top, _board(view, at, cell), strip, rows, legend])


def _tin_card(image: Image.Image, box: kit.Box, name: str, caption: str, at: Layout) -> None:
    """A mint tin card: its name, what it does, and how it is held."""
    x0, y0, x1, y1 = box
    ImageDraw.Draw(image).rounded_rectangle(box, radius=at.px(14), fill=SHADE, outline=INK,
                                            width=max(2, at.px(3)))
    inner = x1 - x0 - at.px(16)
    kit.text(image, ((x0 + x1) / 2, y0 + at.px(14)), kit.fit(name, at.px(kit.LARGE), inner,
             bold=True), at.px(kit.LARGE), INK, anchor="ma", bold=True)
    y = y0 + at.px(62)
    for line in kit.wrap(CARDS.get(name, ""), at.px(kit.SMALL), inner)[:2]:
        kit.text(image, ((x0 + x1) / 2, y), line, at.px(kit.SMALL), INK, anchor="ma")
        y += at.px(32)
    kit.text(image, ((x0 + x1) / 2, y1 - at.px(14)), caption, at.px(kit.SMALL), MUTED,
             anchor="md")


def hand(view: dict[str, Any], *, width: int = 1000) -> Image.Image | None:
    """The viewing seat's mint tin cards, what it armed, its secret bet and the square card
    it holds; None for a spectator."""
    if view.get("seat") is None or view.get("result") is not None:
        return None
    at = Layout(width)
    who = _names(view)
    tin = [(n, "for sale") for n in view.get("for_sale") or []] + \
          [(n, "bought") for n in view.get("bought") or []]
    notes = [f"Armed: {a['card']} against {who[a['against']]}." for a in view.get("armed")
             or []]
    bet = (view.get("attack") or {}).get("my_bet")
    if bet:
        notes.append(f"Your secret bet on the green die: {bet}.")
    if not tin and not notes and not view.get("held"):
        return None
    gap = at.px(16)
    cw, ch = (at.body - 4 * gap) // 5, at.px(190)
    held = view.get("held")
    lines = [line for note in notes for line in kit.wrap(note, at.px(kit.TEXT), at.body)]
    card = at.px(150)
    height = (ch + at.px(20) if tin else 0) + len(lines) * at.px(42) + \
        (card + at.px(36) if held else 0) + at.px(16)
    block = kit.canvas(at.width, height)
    x, y = at.margin, 0
    for name, caption in tin:
        _tin_card(block, (x, y, x + cw, y + ch), name, caption, at)
        x += cw + gap
    y += ch + at.px(20) if tin else 0
    for line in lines:
        kit.text(block, (at.margin, y), line, at.px(kit.TEXT), INK)
        y += at.px(42)
    if held:
        y += at.px(12)
        block.paste(_card(held["colour"], held["sections"], None, 0, None, False, False, 0,
                          card, card, max(at.px(24), round(card / 3 * 0.62))), (at.margin, y))
        x = at.margin + card + at.px(24)
        kit.text(block, (x, y + at.px(40)), "You hold this square card", at.px(kit.LARGE),
                 INK, bold=True)
        kit.text(block, (x, y + at.px(92)), f"{held['colour']}, "
                 f"{_plural(held['sections'], 'section')}: type 'place c3'", at.px(kit.TEXT),
                 INK)
    return kit.stack([kit.hand_title(seated(view), at, "Your mint tin"), block])


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The table, with the seat's mint tin under it in a seat's view."""
    return kit.stack([table(view, width=width), hand(view, width=width)])
