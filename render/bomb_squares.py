"""The pictures of a Bomb Squares view: the table everyone sees, and a seat's mint tin.

The table: who acts and what they may do (``kit.header``); the square cards and one place
around them, files below, ranks left. A card is four marks, each readable on a phone: top
left a chip of its colour with its sections ('R4': red, 4 sections), top right its bomb (a
ringed, lettered disc; on a black square when a lookout tower guards it), bottom left its
meeples (a lettered disc and how many), bottom right 'L' for a landmine. A filled card is
drawn in full colour, an open one pale; a token card is one large disc. The last move's
cards are framed; open places are named, with a price where a card costs crystals ('4+' and
a crystal holding 2). Then the dice (pips, never letters), the supplies, a row per seat
(numbered grey chips: nobody owns a colour) and the legend, shorter on a crowded table. The
hand: the seat's mint tin cards, what it armed, its secret bet, its held square card.
``describe`` says it all as text.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Layout

NAME = "Bomb Squares"
LETTER = {"red": "R", "green": "G", "blue": "B", "orange": "O", "yellow": "Y", "purple": "P"}
MEEPLES = ("green", "blue", "red", "yellow")
MIN_WIDE, MIN_HIGH = 86, 80  # a card's place at 1000 px: two rows of lettered discs
CARDS = {"meeple": "another meeple", "crystals": "2 crystals", "bomb": "another bomb",
         "square": "another square card", "skip": "a player loses a turn",
         "stop": "stops a player's roll"}

TABLE: RGB = kit.rgb("#D9D2C3")  # the table under the cards
EMPTY: RGB = kit.rgb("#EEE9DE")  # an empty place on the table
PALE = 0.88  # an open card's face: this far from its colour to white
CRYSTAL: RGB = kit.seat_colour("sky").fill  # the crystal of a place's price


def fill(colour: str) -> RGB:
    return kit.seat_colour(colour).fill


TINTS: dict[str, RGB] = {name: (round(r + (255 - r) * PALE), round(g + (255 - g) * PALE),
                                 round(b + (255 - b) * PALE))
                          for name, (r, g, b) in ((n, fill(n)) for n in LETTER)}
# Colours players tell apart (tests/test_render.py measures them under colour blindness):
# the six of cards, bombs and tokens (meeples and dice use the same four), and each card's
# full face (filled) against its pale one (open).
TOLD_APART: dict[str, dict[str, RGB]] = {
    "cards, bombs and tokens": {name: fill(name) for name in LETTER},
    "meeples and dice": {name: fill(name) for name in MEEPLES},
    **{f"{name} card filled or open": {"filled": fill(name), "open": TINTS[name]}
       for name in LETTER},
}


# --------------------------------------------------------------------------- words


def _names(view: dict[str, Any], *, spoken: bool = False) -> list[str]:
    """The seats' names ('Player 2' without a display name); nobody owns a colour, so the
    kit draws them as numbered grey chips."""
    return [s.spoken if spoken else s.name for s in kit.seats(view)]


# What the seat to act may do, a phrase per group of first words of moves: the first
# phrase when one of them is surely legal (``view['offers']``), the second when it hangs
# on a card only that seat sees (``view['maybe']``). tests/test_bomb_squares_render.py
# holds them to the legal moves over random games.
PROMPTS: dict[str, list[tuple[tuple[str, ...], str, str]]] = {
    "start": [(("place",), "place the held card", "place the held card"),
              (("draw",), "draw a square card", "draw anew if it fits nowhere for free"),
              (("continue",), "go on without a card", "go on if it fits nowhere for free"),
              (("sell",), "sell mint tin cards", "")],
    "place": [(("place",), "place the drawn card", "place the drawn card"),
              (("keep",), "keep it", "keep it if no place is free")],
    "bomb": [(("bomb",), "put the {pending} bomb on a card", ""), (("redraw",), "redraw it", "")],
    "meeple": [(("meeple",), "place the {pending} meeple", ""), (("redraw",), "redraw it", ""),
               (("clear",), "give it up to clear a landmine", "")],
    "act": [(("roll",), "roll the dice", ""), (("done",), "end the turn", ""),
            (("second",), "place a second card", ""), (("switch",), "switch a bomb", ""),
            (("landmine", "tower", "airplane", "unmine", "buy"), "shop", ""),
            (("bonus",), "take the bonus meeple", ""),
            (("card", "arm"), "play a mint tin card", "play a bought mint tin card")],
    "rolled": [(("attack",), "attack", ""), (("from", "to", "fly"), "move meeples", ""),
               (("reroll",), "reroll dice", ""), (("done",), "end the turn", "")],
    "switch": [(("switch",), "pick the bomb to switch", ""), (("with",), "pick its swap", "")],
    "landmine": [(("landmine",), "lay the landmine on a card", "")],
    "tower": [(("tower",), "put the lookout tower on a bomb", "")],
    "tokens": [(("token",), "lay set tokens on empty cards", "")],
    "bets": [(("bet",), "bet on the green die", "")],
    "challenge": [(("challenge", "no"), "challenge the win or not", "")],
    "sale": [(("buy", "no"), "buy a mint tin card or not", "")],
}


def prompt(view: dict[str, Any]) -> tuple[list[str], list[tuple[str, ...]]]:
    """What the seat to act may do, a phrase each ('roll the dice', 'shop', 'end the
    turn'), and the groups of first words of moves those phrases offer."""
    offers, maybe = set(view.get("offers") or []), set(view.get("maybe") or [])
    phrases, groups = [], []
    for verbs, sure, unsure in PROMPTS.get(view["phase"], []):
        phrase = sure if offers & set(verbs) else unsure if maybe & set(verbs) else ""
        if phrase:
            phrases.append(phrase.format(pending=view.get("pending") or ""))
            groups.append(verbs)
    return phrases, groups


def last_move(view: dict[str, Any], who: list[str]) -> str:
    last = view.get("last")
    return f"Last move by {who[last['seat']]}: {last['text']}." if last else ""


def status(view: dict[str, Any], who: list[str] | None = None, *, first: bool = False,
           last: bool = True) -> tuple[str, str]:
    """The headline (who acts, doing what) and the detail under it; ``first``: only the
    first thing they may do in the headline, the others opening the detail; ``last``: the
    last move and the dice in the detail (the picture frames the move's cards and draws
    the dice)."""
    who = who or _names(view)
    if view.get("result") is not None:
        winners = [who[s] for s in view["result"]["winners"]]
        return (f"{kit.listing(winners)} {'wins' if len(winners) == 1 else 'draw'} with "
                f"{max(view['crystals'])} crystals", "")
    phase, attack = view["phase"], view.get("attack")
    waiting = kit.listing([who[s] for s in view["to_act"]])
    if phase == "bets" and attack:
        return (f"Bets on the green die: {waiting}",
                f"{who[attack['attacker']]} attacks {attack['to']} from {attack['from']} "
                f"with power {attack['power']}." + " The furthest guess wins 2 crystals." * last)
    if phase == "challenge" and attack:
        return (f"{who[attack['challenger']]}: challenge the win or not",
                f"{who[attack['attacker']]} won on {attack['to']}: green {attack['green']}, "
                f"toughness {attack['toughness']} < power {attack['power']}.")
    if phase == "sale" and view.get("sale"):
        return (f"{who[view['sale']['seller']]} sells: {waiting} to answer",
                "Buy one mint tin card, face down, for 1 crystal.")
    what = prompt(view)[0]
    parts = []
    if phase == "tokens" and view.get("to_place"):
        parts.append(f"Tokens to lay: {kit.listing(view['to_place'])}.")
    if first and len(what) > 1:
        parts.append(f"Or {kit.listing(what[1:], 'or')}.")
        what = what[:1]
    moved = last_move(view, who)
    rolled = [f"{die} {value}" for die, value in view["dice"].items() if value]
    if rolled and last and "rolled" not in moved:
        parts.append(f"Dice: {kit.listing(rolled)}.")
    if last:
        parts.append(moved or f"{who[view['turn']]} was drawn to start.")
    return f"{who[view['turn']]}: {kit.listing(what, 'or')}", " ".join(parts)


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
    held, bet = view.get("held"), (view.get("attack") or {}).get("my_bet")
    return " ".join([
        f"Your mint tin: for sale {', '.join(view.get('for_sale') or []) or 'none'}; "
        f"bought {', '.join(view.get('bought') or []) or 'none'}.",
        *(f"Armed: {a['card']} against {who[a['against']]}." for a in view.get("armed") or []),
        f"You hold a square card: {held['colour']}, {held['sections']} sections." if held else "",
        f"Your secret bet: {bet}." if bet else ""]).strip()


def _by_colour(entries: list[tuple[str, str]]) -> str:
    """'red a1 2, c3 4; green b2 6' from (colour, words) pairs, colours in the game's
    order."""
    groups: dict[str, list[str]] = {}
    for colour, words in entries:
        groups.setdefault(colour, []).append(words)
    order = [*LETTER, *(c for c in groups if c not in LETTER)]
    return "; ".join(f"{c} {', '.join(groups[c])}" for c in order if c in groups)


def _board_words(view: dict[str, Any]) -> list[str]:
    """The cards as lines a screen reader reads, each colour said once: the cards and
    their sections, the filled ones by their meeples' colour, the meeples on the others,
    the bombs; then towers, landmines, tokens and the prices of empty places."""
    board = sorted(view["board"], key=lambda c: (int(c["cell"][1:]), c["cell"][0]))
    full = [c for c in board if c["meeples"] and c["meeples"] == c["sections"]]
    lines = [f"{words}: {_by_colour(entries)}." for words, entries in (
        ("Cards (square and sections)", [(c["colour"], f"{c['cell']} {c['sections']}")
                                         for c in board]),
        ("Filled cards, by meeple colour", [(c["meeple_colour"], c["cell"]) for c in full]),
        ("Meeples on open cards (square and count)", [
            (c["meeple_colour"], f"{c['cell']} {c['meeples']}") for c in board
            if c["meeples"] and c not in full]),
        ("Bombs", [(c["bomb"], c["cell"]) for c in board if c["bomb"]])) if entries]
    extras = [f"{what}: {', '.join(cells)}" for what, cells in (
        ("Lookout towers", [c["cell"] for c in board if c["tower"]]),
        ("Landmines", [c["cell"] for c in board if c["landmine"]]),
        ("Tokens, each a filled card with a bomb of its colour",
         [f"{c['cell']} {c['colour']}" for c in board if c["token"]]),
        ("Where a card costs crystals (place, from how many sections, crystals)",
         [f"{cell} {first}+ {cost}" for cell, (first, cost) in sorted(view["costly"].items())
          if view.get("result") is None]))
        if cells]
    return lines + ([". ".join(extras) + "."] if extras else [])


def describe(view: dict[str, Any]) -> str:
    """The picture as lines a screen reader reads: what happens now, the dice, each seat,
    the cards, and in a seat's view what it alone holds; at the end, the result and where
    the crystals came from."""
    who = _names(view, spoken=True)
    head, detail = status(view, who)
    if view.get("result") is not None:
        lines = [f"{NAME}: game over. {head}.", reason(view, who),
                 *breakdown(view, who, spoken=True)]
    else:
        lines = [f"{NAME}, round {view['round']}: {head}.", detail]
        lines += [f"{name}: {_seat_words(view, s, 0, spoken=True)}."
                  for s, name in enumerate(who)]
    lines += _board_words(view)
    if view.get("seat") is not None and view.get("result") is None:
        lines.append(_private_words(view, who))
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------- cards


def _mark(image: Image.Image, x: float, y: float, r: float, back: RGB, letter: str,
          size: int, ring: RGB = INK, width: int = 0) -> None:
    """A lettered disc (a bomb, a meeple, a token) or, in black, a square block (a lookout
    tower under a bomb; a landmine, lettered 'L'), ``r`` from its middle to its edge."""
    box, draw = (x - r, y - r, x + r, y + r), ImageDraw.Draw(image)
    if back == INK:
        draw.rounded_rectangle(box, radius=r / 4, fill=INK)
    else:
        draw.ellipse(box, fill=back, outline=ring, width=width)
    kit.text(image, (x, y), letter, size, kit.ink_for(back), anchor="mm", bold=True)


def _chip(image: Image.Image, x: float, y: float, colour: str, label: str, size: int,
          line: int) -> None:
    """A card's colour and sections ('R4') on a chip of its colour."""
    wide, r = kit.text_width(label, size, bold=True) + 2 * line, size / 2
    ImageDraw.Draw(image).rounded_rectangle((x - wide / 2, y - r, x + wide / 2, y + r),
                                            radius=r / 3, fill=fill(colour), outline=INK,
                                            width=max(1, line // 2 + 1))
    kit.text(image, (x, y), label, size, kit.ink_for(fill(colour)), anchor="mm", bold=True)


def _price(image: Image.Image, x: float, y: float, first: int, cost: int, size: int) -> None:
    """An empty place's price, centred on (x, y): '4+' and a crystal holding the cost,
    for 'a card of 4 sections or more costs 2 crystals here'."""
    d = size * 0.6
    mid = kit.text(image, (x - (kit.text_width(f"{first}+", size, bold=True) + size * 1.35) / 2,
                           y), f"{first}+", size, INK, anchor="lm", bold=True)[2] + size * 0.75
    ImageDraw.Draw(image).polygon([(mid + d * dx, y + size * dy) for dx, dy in (
        (-1, 0), (-.5, -.55), (.5, -.55), (1, 0), (.5, .55), (-.5, .55))], fill=CRYSTAL,
        outline=INK, width=max(1, size // 15))
    kit.text(image, (mid, y), str(cost), size, INK, anchor="mm", bold=True)


@functools.lru_cache(maxsize=2048)
def _card(colour: str, sections: int, bomb: str | None, meeples: int, meeple: str | None,
          landmine: bool, tower: bool, token: int, w: int, h: int, size: int) -> Image.Image:
    """One square card, ``w`` x ``h``, in type of ``size``: its colour and sections, bomb,
    tower, meeples and landmine, each a mark with a letter (see the module's docstring)."""
    full = token == 1 or (sections > 0 and meeples == sections)  # filled: full colour
    face = fill(colour) if full else TINTS[colour]
    card = kit.canvas(w, h, face)
    line, r, label = max(2, w // 44), size / 2, f"{LETTER[colour]}{sections}"
    pad, ring = line + 1, max(3, w // 28)
    ImageDraw.Draw(card).rectangle((0, 0, w - 1, h - 1), outline=INK, width=line)
    if token:  # one large disc: a token (ringed in white on the turn it is laid)
        _mark(card, w / 2, h / 2, min(w, h) / 2 - pad, fill(colour), label, size,
              INK if token == 1 else PAPER, max(3, w // 20))
        return card
    # two rows, each mark in its quarter of the card, pushed to the edges when crowded
    top, bottom = max(pad + r, h * 0.27), min(h - pad - r, h * 0.73)
    chip = kit.text_width(label, size, bold=True) + 2 * line
    left = max(pad + chip / 2, w * 0.27)
    _chip(card, left, top, colour, label, size, line)
    x = min(w - pad - r - ring / 2, max(w * 0.73, left + chip / 2 + r + ring / 2 + 3))
    if tower:  # the lookout tower: a black square the bomb stands on
        _mark(card, x, top, r + ring + 1, INK, "", size)
    if bomb:
        _mark(card, x, top, r, fill(bomb), LETTER[bomb], size, PAPER if tower else INK, ring)
    wide = 2 * r + max(3, line) + kit.text_width(str(meeples), size, bold=True)
    start = max(pad, w * 0.27 - wide / 2)
    if meeples and meeple:
        _mark(card, start + r, bottom, r, fill(meeple), LETTER[meeple], size, INK,
              max(1, line // 2 + 1))
        kit.text(card, (start + 2 * r + max(3, line), bottom), str(meeples), size,
                 kit.ink_for(face), anchor="lm", bold=True)
    if landmine:
        _mark(card, min(w - pad - r * 0.86, max(w * 0.73, start + wide + r * 0.86 + 3)),
              bottom, r * 0.86, INK, "L", size)
    return card


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Files and ranks drawn (first and last, from 0): the cards, and during play one
    place around them where a card may go."""
    cells = [c["cell"] for c in view["board"]] + (view["places"] if view.get("result") is None
                                                  else [])
    files, ranks = zip(*map(kit.square_index, cells), strict=True)
    return min(files), max(files), min(ranks), max(ranks)


def _type(at: Layout, cw: int, ch: int) -> int:
    """The type of a card's marks: the kit's least (capitals 20 px), larger on larger cards."""
    return max(at.px(kit.SMALL), min(at.px(60), round(min(cw, ch * 1.25) / 2.9)))


def _board(view: dict[str, Any], at: Layout, cw: int, ch: int) -> Image.Image:
    """The cards on the table with coordinates: files below, ranks on the left."""
    f0, f1, r0, r1 = _bounds(view)
    files, ranks = f1 - f0 + 1, r1 - r0 + 1
    label, room, pad = at.px(kit.TEXT), at.px(40), at.px(8)
    left, top = (at.width - files * cw + room) // 2, pad
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
    places = set(view["places"]) if view.get("result") is None else set()
    inset, size = max(2, at.px(3)), _type(at, cw, ch)
    w, h = cw - 2 * inset, ch - 2 * inset
    for f in range(files):
        for r in range(ranks):
            name = kit.square_name(f0 + f, r0 + r)
            x, y = left + f * cw + inset, top + (ranks - 1 - r) * ch + inset
            card = cards.get(name)
            if card is None:
                draw.rectangle((x, y, x + w - 1, y + h - 1), fill=EMPTY)
                price = view["costly"].get(name) if name in places else None
                if name in places:  # named, and its price under the name
                    kit.text(block, (x + w / 2, y + h * (0.29 if price else 0.5)), name,
                             at.px(kit.SMALL), MUTED, anchor="mm")
                if price:
                    _price(block, x + w / 2, y + h * 0.71, price[0], price[1], at.px(kit.SMALL))
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


ROLES = {"red": "power", "blue": "reach", "yellow": "distance", "green": "toughness"}


def _strip(view: dict[str, Any], at: Layout, *, supplies: bool = True) -> Image.Image | None:
    """The dice rolled this turn, each a die showing its pips with what it decides
    ('power'), then the supplies on a line of their own."""
    size, side, step = at.px(kit.SMALL), at.px(52), at.px(36)
    dice = [(die, value) for die, value in view["dice"].items() if value]
    words = kit.wrap(f"Deck {view['deck']} · bank {view['bank']} · shop: " + ", ".join(kit.plural(
        view[f"{k}s"], k) for k in ("landmine", "tower", "airplane")), size, at.body) * supplies
    if not dice and not words:
        return None
    x, y, high = at.margin, at.px(6), (side + at.px(8) * bool(words)) * bool(dice)
    block = kit.canvas(at.width, y + high + len(words) * step + at.px(8))
    for die, value in dice:
        kit.die(block, (x, y, x + side, y + side), value, fill(die))
        x = kit.text(block, (x + side + at.px(8), y + side / 2), ROLES[die], size, INK,
                     anchor="lm")[2] + at.px(24)
    kit.lines(block, (at.margin, y + high + step // 2), words, size, step, MUTED, anchor="lm")
    return block


MORE = ("R4: a red card of 4 sections. A bomb on a black square: a lookout tower guards it. "
        "Full colour: a filled card; pale: an open one. One large disc: a token card. R red, "
        "G green, B blue, O orange, Y yellow, P purple.")
LABELS = (("card, sections", "bomb", "meeples", "landmine",
           "a card of 4+ sections costs 2 crystals here"),
          ("card", "bomb", "meeples", "mine", "costs 2 crystals"))


@functools.lru_cache(maxsize=32)
def _legend(at: Layout, short: int = 0) -> Image.Image:
    """The marks drawn as on a card, each with what it stands for, then the rest in words
    with the colours' letters; for a crowded table (``short`` 1: in two rows; 2: in one)
    the marks alone (the guide's 'symbols' topic has them all)."""
    size, line, ring = at.px(kit.SMALL), max(2, at.px(2)), max(3, at.px(3))
    r, high, bold = size / 2, size + at.px(4), functools.partial(kit.text_width, bold=True)
    samples = chip, bomb, meeples, mine, price = [kit.canvas(round(w), high) for w in (
        bold("R4", size) + 2 * line + 1, 2 * r + 1, 2 * r + 4 + bold("2", size),
        2 * r * 0.86 + 1, bold("4+", size) + size * 1.5 + 2)]
    _chip(chip, chip.width / 2, high / 2, "red", "R4", size, line)
    _mark(bomb, r, high / 2, r, fill("green"), "G", size, INK, ring)
    _mark(meeples, r, high / 2, r, fill("blue"), "B", size, INK, line)
    kit.text(meeples, (2 * r + 4, high / 2), "2", size, INK, anchor="lm", bold=True)
    _mark(mine, mine.width / 2, high / 2, r * 0.86, INK, "L", size)
    _price(price, price.width / 2, high / 2, 4, 2, size)
    key = kit.key(at, [(sample, label) for sample, label in zip(samples, LABELS[short > 1],
                                                                strict=True) if label],
                  gap=22 if short < 2 else 18, row_gap=6)
    return key if short else kit.stack([key, kit.footnote(at, MORE)])


def _tokens(colours: list[str], *, tight: bool = False) -> str:
    """'tokens O B R', or '5 tokens O B R' when some colour is won twice ('OBR' tight)."""
    distinct = ("" if tight else " ").join(LETTER[c] for c in dict.fromkeys(colours))
    return f"tokens {distinct}" if tight or len(set(colours)) == len(colours) else \
        f"{len(colours)} tokens {distinct}"


def _seat_words(view: dict[str, Any], s: int, short: int, *, spoken: bool = False) -> str:
    """A seat's crystals, tokens, airplane, held square card, mint tin cards and how many
    it armed; ``short`` 1 and 2 in fewer words (the tin's count left out); ``spoken``:
    for a screen reader, token colours as words."""
    tin = view["for_sale_counts"][s] + view["bought_counts"][s]
    armed, plane, won = view["armed_counts"][s], view["planes"][s], view["tokens"][s]
    bits = [kit.plural(view["crystals"][s], "crystal")]
    if spoken and (view["sets"][s] or won):
        bits.append(("set " if view["sets"][s] else "tokens ")
                    + kit.listing(view["sets"][s] or won))
    elif view["sets"][s]:
        bits.append("set " + ("" if short == 2 else " ").join(
            LETTER[c] for c in view["sets"][s]))
    elif won:
        bits.append(_tokens(won, tight=short == 2))
    if plane:
        bits.append("plane" if short else "airplane" + (" (next turn)" if plane == 1 else ""))
    if view["holding"][s]:
        bits.append("card held" if short else "holds a square card")
    if not short:
        bits.append(kit.plural(tin, "mint tin card"))
    bits += [f"{armed} armed"] if armed else []
    return ", ".join(bits) if short == 2 or spoken else " · ".join(bits)


def _seat_lines(view: dict[str, Any]) -> list[list[str]]:
    """Each seat's line in its three forms, longest first (the kit draws the first that
    fits its row, and wraps the last if none does)."""
    return [[_seat_words(view, s, short) for short in (0, 1, 2)] for s in range(view["players"])]


WAYS = [("fill", "filling"), ("attack", "attacks"), ("bets", "bets"), ("sales", "sales"),
        ("tokens", "token set"), ("challenge", "challenges"), ("cards", "cards")]
START = 5  # crystals each seat starts with


def breakdown(view: dict[str, Any], who: list[str], *, short: bool = False,
              spoken: bool = False) -> list[str]:
    """Where each seat's crystals came from (``short``: the three largest ways and the
    rest together), then who won which tokens (``spoken``: their colours as words)."""
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
    won = [f"{who[s]}: set " + (kit.listing(view["sets"][s]) if spoken else " ".join(
        LETTER[c] for c in view["sets"][s])) if view["sets"][s] else
           f"{who[s]}: " + (kit.listing(t) if spoken else _tokens(t))
           for s, t in enumerate(view["tokens"]) if t or view["sets"][s]]
    lines.append("Tokens won: " + ("; ".join(won) if won else "none") + ".")
    return lines


# --------------------------------------------------------------------------- pictures


def _cell(view: dict[str, Any], at: Layout, used: int) -> tuple[int, int, bool]:
    """A card's place, wide and high: as large and square as fits; whether its marks fit."""
    f0, f1, r0, r1 = _bounds(view)  # then flatter, when the table is crowded
    wide = min(at.px(200), (at.body - at.px(56)) // (f1 - f0 + 1))
    high = min(wide, (at.tallest - used - at.px(56)) // (r1 - r0 + 1))
    return wide, high, wide >= at.px(MIN_WIDE) and high >= at.px(MIN_HIGH)


def table(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """What everyone sees: the header, the cards as large as fits, the dice, the seats and
    the legend, or the end. Where the cards would be too small to read, the legend
    shortens to the marks of every turn, then the last move leaves the header (its cards
    stay framed), the supplies go, the legend takes one row, the seats' rows tighten, the
    dice go (the header says the power), the header cuts long names ('Maximili…'), the cards
    smaller; the legend stays. At the end, the crystals' breakdown first (the message has it)."""
    at, who = Layout(width), _names(view)
    chips = len(view.get("to_act") or []) * at.px(66) + at.px(8)
    first = kit.text_width(status(view, who)[0], at.px(kit.TITLE), bold=True) > \
        at.body - chips  # then a headline of one line, the rest under it
    if view.get("result") is not None:
        top = kit.header(view, at, *status(view, who, first=first))
        ended = {**view, "result": {**view["result"], "reason": reason(view, who)}}
        for lines in (breakdown(view, who), breakdown(view, who, short=True), []):
            end = kit.result_box(ended, at, lines)
            cw, ch, readable = _cell(view, at, top.height + end.height)
            if readable:
                break
        return kit.stack([top, _board(view, at, cw, ch), end])
    names = who, [kit.fit(name, at.px(kit.TITLE), at.px(200), bold=True) for name in who]
    head, strip, rows = (functools.cache(make) for make in (  # each drawn once at most
        lambda last, cut: kit.header(view, at, *status(view, names[cut], first=first, last=last)),
        lambda supplies: _strip(view, at, supplies=supplies),
        lambda row: kit.seat_rows(view, at, _seat_lines(view), row=row)))
    for n in range(8):  # each step leaves out one more thing, as the docstring says
        parts = [head(n < 2, n > 6), strip(n < 3) if n < 6 else None, rows(60 if n < 5 else 48),
                 _legend(at, 0 if n < 1 else 1 if n < 4 else 2)]
        cw, ch, readable = _cell(view, at, sum(b.height for b in parts if b is not None))
        if readable:
            break
    return kit.stack([parts[0], _board(view, at, cw, ch), *parts[1:]])


def _tin_card(image: Image.Image, box: kit.Box, name: str, caption: str, at: Layout) -> None:
    """A mint tin card: its name, what it does, and how it is held."""
    x0, y0, x1, y1 = box
    ImageDraw.Draw(image).rounded_rectangle(box, radius=at.px(14), fill=SHADE, outline=INK,
                                            width=max(2, at.px(3)))
    kit.text(image, ((x0 + x1) / 2, y0 + at.px(14)), name, at.px(kit.LARGE), INK,
             anchor="ma", bold=True)
    kit.lines(image, ((x0 + x1) / 2, y0 + at.px(62)), kit.wrap(
        CARDS.get(name, ""), at.px(kit.SMALL), x1 - x0 - at.px(12)), at.px(kit.SMALL),
        at.px(32), anchor="ma")
    kit.text(image, ((x0 + x1) / 2, y1 - at.px(12)), caption, at.px(kit.SMALL), MUTED,
             anchor="md")


def hand(view: dict[str, Any], *, width: int = 1000) -> Image.Image | None:
    """The viewing seat's mint tin cards, what it armed, its secret bet and the square card
    it holds; None for a spectator."""
    if view.get("seat") is None or view.get("result") is not None:
        return None
    at, who, held = Layout(width), _names(view), view.get("held")
    tin = [(n, "for sale") for n in view.get("for_sale") or []] + \
          [(n, "bought") for n in view.get("bought") or []]
    bet = (view.get("attack") or {}).get("my_bet")
    notes = [f"Armed: {a['card']} against {who[a['against']]}." for a in view.get("armed")
             or []] + ([f"Your secret bet on the green die: {bet}."] if bet else [])
    if not tin and not notes and not held:
        return None
    gap, card, step = at.px(16), at.px(160), at.px(42)
    cw, ch = (at.body - 4 * gap) // 5, at.px(226) if tin else -at.px(20)
    lines = [line for note in notes for line in kit.wrap(note, at.px(kit.TEXT), at.body)]
    x = at.margin + card + at.px(24)
    about = kit.wrap(f"{held['colour']}, {kit.plural(held['sections'], 'section')}: free "
                     "beside a card with as many sections or more", at.px(kit.TEXT),
                     at.width - at.margin - x) if held else []
    y = ch + at.px(20) + len(lines) * step
    block = kit.canvas(at.width, y + at.px(16) + (
        max(card, at.px(60) + len(about) * step) + at.px(36) if held else 0))
    for n, (name, caption) in enumerate(tin):
        left = at.margin + n * (cw + gap)
        _tin_card(block, (left, 0, left + cw, ch), name, caption, at)
    kit.lines(block, (at.margin, ch + at.px(20)), lines, at.px(kit.TEXT), step)
    if held:
        y += at.px(12)
        block.paste(_card(held["colour"], held["sections"], None, 0, None, False, False, 0,
                          card, card, _type(at, card, card)), (at.margin, y))
        kit.text(block, (x, y + at.px(8)), "You hold this square card", at.px(kit.LARGE),
                 INK, bold=True)
        kit.lines(block, (x, y + at.px(60)), about, at.px(kit.TEXT), step)
    return kit.stack([kit.hand_title(view, at, "Your mint tin"), block])


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The table, with the seat's mint tin under it in a seat's view."""
    return kit.stack([table(view, width=width), hand(view, width=width)])
