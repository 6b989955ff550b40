"""Bomb Squares pictures: a fixed set of views from seeded games, drawn and checked.

The moments: for 2, 3 and 4 players the start, early, the middle and the end of a seeded
random game; and from the 2-player game the first drawn card to place, the first landmine,
the first bets on the green die (a secret pick of several seats), the first challenge, the
first tokens to lay and the first sale (several seats answer at once). Each is drawn for the
channel and for the seats awaited: sizes within Discord's limit, no text under 30 px type,
nothing hidden drawn, the seat's mint tin added, summaries, and what players must be able to
read. Then the prompt over random games: it offers what the legal moves allow, no more.
"""

from __future__ import annotations

import copy
import functools
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import bomb_squares as bs
from render import kit
from rules.bomb_squares import ANSWERS, Steps
from tests.pictures import decoded, pixels, play_out

GAME = rules.GAMES["bomb-squares"]
ID = "bomb-squares"
WIDTHS = (600, 1000, 1400)
NAMES = ["Ann", "Bo", "Zoë", "Dee"]


@functools.cache
def games() -> dict[int, list[Any]]:
    """Every state of one seeded random game for 2, 3 and 4 players."""
    return {players: play_out(GAME, players, 7 + players, any_seat=True)
            for players in (2, 3, 4)}


# The first state of the 2- and 3-player games at each step worth a picture of its own.
FIRSTS: dict[str, Callable[[Any], bool]] = {
    "place": lambda s: s.phase == "place", "landmine": lambda s: any(s.mine),
    "bets": lambda s: s.phase == "bets", "challenge": lambda s: s.phase == "challenge",
    "tokens": lambda s: s.phase == "tokens", "sale": lambda s: s.phase == "sale"}
# Named before any game is played, so that collecting the tests plays nothing.
MOMENTS = sorted([f"{players}p-{when}" for players in (2, 3, 4)
                  for when in ("start", "early", "mid", "over")] + list(FIRSTS))


@functools.cache
def moments() -> dict[str, Any]:
    out: dict[str, Any] = {}
    games_ = games()
    for players, game in games_.items():
        out |= {f"{players}p-start": game[0], f"{players}p-early": game[len(game) // 8],
                f"{players}p-mid": game[len(game) // 2], f"{players}p-over": game[-1]}
    game = games_[2] + games_[3]
    for name, found in FIRSTS.items():
        out[name] = next(s for s in game if found(s) and GAME.outcome(s) is None)
    assert sorted(out) == MOMENTS
    return out


def view(state: Any, seat: int | None) -> dict[str, Any]:
    return GAME.view(state, seat) | {"names": NAMES[: state.players]}


def viewers(state: Any) -> list[int | None]:
    return [None, *sorted(GAME.to_act(state))] if GAME.outcome(state) is None else [None, 0]


def colour_count(image: Image.Image, colour: kit.RGB) -> int:
    return sum(n for n, c in image.convert("RGB").getcolors(1 << 24) or [] if c == colour)


def test_the_moments_reach_every_step_worth_a_picture() -> None:
    phases = {s.phase for s in moments().values()}
    assert {"start", "place", "bets", "challenge", "tokens", "sale", "over"} <= phases
    assert {s.players for s in moments().values()} == {2, 3, 4}
    assert len(GAME.to_act(moments()["bets"])) > 1 or moments()["bets"].players == 2


@pytest.mark.parametrize("name", MOMENTS)
def test_every_picture_fits_discord(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each attachment within 1.25 x its width, the table at every width; no type under
    30 px at 1000 px wide (capitals 20 px); the cards never too small for their marks."""
    state = moments()[name]
    drawn_text, cells = [], []
    real_text, real_board = kit.text, bs._board

    def text(image: Image.Image, xy: Any, line: str, size: int, *args: Any,
             **kw: Any) -> Any:
        drawn_text.append((image.width, size, line))
        return real_text(image, xy, line, size, *args, **kw)

    def board(v: dict[str, Any], at: kit.Layout, cw: int, ch: int) -> Image.Image:
        cells.append((at.width, cw, ch))
        return real_board(v, at, cw, ch)

    monkeypatch.setattr(kit, "text", text)
    monkeypatch.setattr(bs, "_board", board)
    for seat in viewers(state):
        shown = view(state, seat)
        parts = [decoded(p) for p in render.pngs(ID, shown)]
        assert all(p.width == 1000 and kit.fits(p) for p in parts), (seat, parts)
        for width in WIDTHS:
            drawn_text.clear()
            table = bs.table(shown, width=width)
            assert table.width == width and kit.fits(table), (seat, width, table.size)
            hand = bs.hand(shown, width=width)
            assert hand is None or (hand.width == width and kit.fits(hand))
            least = round(kit.SMALL * width / 1000)
            assert all(size >= least for w, size, _ in drawn_text if w > 100), drawn_text
        hand = bs.hand(shown)
        if seat is None or GAME.outcome(state) is not None:
            assert hand is None and len(parts) == 1
        else:
            assert hand is not None
            assert pixels(kit.png(bs.draw(shown))) == pixels(kit.png(kit.stack(
                [bs.table(shown), hand])))
    assert all(cw >= round(bs.MIN_WIDE * width / 1000) - 1 and ch >= round(
        bs.MIN_HIGH * width / 1000) - 1 for width, cw, ch in cells), cells


@pytest.mark.parametrize("name", MOMENTS)
def test_the_spectators_picture_shows_nothing_hidden(name: str) -> None:
    """Twins that differ in the deck, others' mint tin cards, held cards and bets not yet
    revealed draw the same channel picture."""
    state = moments()[name]
    spectator = pixels(render.png(ID, view(state, None)))
    differ = 0
    for seed in (1, 2):
        twin = GAME.determinize(state, None, seed)
        differ += (twin.deck, twin.for_sale, twin.held) != (state.deck, state.for_sale,
                                                            state.held)
        assert pixels(render.png(ID, view(twin, None))) == spectator
    assert differ or GAME.outcome(state) is not None


def test_the_pictures_are_small() -> None:
    """A start is under 100 KB; a full table of 81 cards, each with its lettered pieces,
    stays under 180 KB (kit.png's one fast deflate of unfiltered rows)."""
    sizes = {name: len(render.png(ID, view(s, None))) for name, s in moments().items()}
    assert all(size < 100_000 for name, size in sizes.items() if name.endswith("start"))
    assert max(sizes.values()) < 180_000


def test_a_seats_picture_adds_its_mint_tin_and_held_card() -> None:
    state = moments()["place"]  # the seat to act holds the card it drew
    seat = state.turn
    mine = view(state, seat)
    assert mine["held"] is not None and mine["for_sale"]
    assert pixels(render.png(ID, mine)) != pixels(render.png(ID, view(state, None)))
    hand = bs.hand(mine)
    assert hand is not None
    tint = bs.TINTS[mine["held"]["colour"]]
    assert colour_count(hand, tint) > 5000  # the held card, drawn large
    assert colour_count(bs.hand({**mine, "held": None}) or hand, tint) < 500
    other = copy.deepcopy(mine)
    other["for_sale"][0] = "stop" if mine["for_sale"][0] != "stop" else "meeple"
    assert pixels(kit.png(bs.hand(other) or hand)) != pixels(kit.png(hand))
    line = bs.summary(mine)
    assert f"Your mint tin: for sale {', '.join(mine['for_sale'])};" in line
    assert (f"You hold a square card: {mine['held']['colour']}, "
            f"{mine['held']['sections']} sections.") in line
    assert "Your mint tin" not in bs.summary(view(state, None))


def test_a_secret_bet_is_the_bettors_alone() -> None:
    state = moments()["bets"]
    seat = next(s for s in range(state.players) if state.attack["bets"][s] > 0) \
        if any(b > 0 for b in state.attack["bets"]) else None
    if seat is None:  # nobody has bet yet: bet as the first seat awaited
        seat = min(GAME.to_act(state))
        state, _ = GAME.play(state, seat, next(m for m in GAME.legal_moves(state, seat)
                                               if m.startswith("bet")))
    mine = view(state, seat)
    if mine["phase"] == "bets":
        bet = mine["attack"]["my_bet"]
        assert f"Your secret bet: {bet}." in bs.summary(mine)
        assert "secret bet" not in bs.summary(view(state, None))


@pytest.mark.parametrize("name", MOMENTS)
def test_the_summary_says_whose_turn_the_crystals_and_the_last_move(name: str) -> None:
    state = moments()[name]
    shown = view(state, None)
    line = render.summary(ID, shown)
    assert line.startswith("Bomb Squares: ") and "\n" not in line and "  " not in line
    scores = ", ".join(f"{NAMES[s]} {c}" for s, c in enumerate(state.crystals))
    assert f"Crystals: {scores} (75 wins)." in line
    if GAME.outcome(state) is None:
        awaited = [NAMES[s] for s in sorted(GAME.to_act(state))]
        assert any(n in line.split(".")[0] for n in awaited)
        if state.last:
            assert f"Last move by {NAMES[state.last['seat']]}: {state.last['text']}." in line
    else:
        assert line.startswith("Bomb Squares: Game over: ")


def spy_text(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line the kit draws from now on, in order."""
    drawn: list[str] = []
    real = kit.text

    def text(image: Image.Image, xy: Any, line: str, *args: Any, **kw: Any) -> Any:
        drawn.append(line)
        return real(image, xy, line, *args, **kw)

    monkeypatch.setattr(kit, "text", text)
    return drawn


def test_each_seat_row_shows_crystals_tokens_shop_items_and_cards_in_full(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Players must read each one's crystals, tokens, airplane and mint tin at a glance:
    each form of a seat's line says them all (the shorter ones in fewer words), and the
    row draws the longest form that fits (the kit wraps the shortest if none does)."""
    drawn = spy_text(monkeypatch)
    for state in moments().values():
        shown = view(state, None)
        for s, forms in enumerate(bs._seat_lines(shown)):
            for line in forms:
                assert line.startswith(f"{state.crystals[s]} crystal")
                found = re.search(r"(?:tokens|set) ([RGBOYP ]+?)(?: ·|,|$)", line)
                letters = set(found.group(1).replace(" ", "")) if found else set()
                assert letters == {bs.LETTER[c] for c in shown["sets"][s] or shown["tokens"][s]}
                assert ("plane" in line) == bool(shown["planes"][s])
                assert ("card held" in line or "holds a square card" in line) == \
                    shown["holding"][s]
                assert ("armed" in line) == bool(shown["armed_counts"][s])
            drawn.clear()
            kit.seat_rows(shown, kit.Layout(1000), bs._seat_lines(shown))
            room = 1000 - 48 - 400  # the names here are short: the words start at 400 px
            fitting = [f for f in forms if kit.text_width(f, kit.TEXT) <= room]
            assert (fitting[0] if fitting else kit.wrap(forms[-1], kit.TEXT, room)[0]) in drawn
    rows = kit.seat_rows({"players": 1}, kit.Layout(1000), [["x" * 200, "short"]])
    assert rows.height == kit.seat_rows({"players": 1}, kit.Layout(1000), ["short"]).height


def test_the_board_shows_every_piece() -> None:
    """A card's colour and sections, meeples with their letter and count, the bomb, a
    landmine, a tower and a token each change the picture; the card sprite has them where
    they belong, each mark lettered in type of 30 px or more."""
    state = moments()["landmine"]
    shown = view(state, None)
    base = pixels(render.png(ID, shown))
    spot = next(i for i, c in enumerate(shown["board"]) if not c["token"])
    card = shown["board"][spot]
    for change in ({"landmine": 0 if card["landmine"] else 3},
                   {"tower": not card["tower"]},
                   {"token": 0 if card["token"] else 1},
                   {"bomb": "purple" if card["bomb"] != "purple" else "red"},
                   {"meeples": 1 if card["meeples"] != 1 else 2, "meeple_colour": "red"},
                   {"colour": "green" if card["colour"] != "green" else "blue"},
                   {"sections": 5 if card["sections"] != 5 else 4}):
        other = copy.deepcopy(shown)
        other["board"][spot].update(change)
        assert pixels(render.png(ID, other)) != base, change
    assert any(c["landmine"] for c in shown["board"])
    w, h, size = 94, 84, 30
    sprite = bs._card("red", 6, "green", 2, "blue", True, True, 0, w, h, size)
    colours = set(sprite.get_flattened_data())
    assert bs.TINTS["red"] in colours  # open: the pale face
    left, right, top, bottom = w * 0.2, w * 0.8, h * 0.25, h * 0.75

    def near(x: float, y: float, colour: kit.RGB) -> bool:
        return any(sprite.getpixel((round(x) + dx, round(y) + dy)) == colour
                   for dx in range(-12, 13) for dy in range(-8, 9))
    assert near(left, top, bs.fill("red"))  # the chip: colour and sections
    assert near(right, top, bs.fill("green"))  # the bomb, on its tower
    assert near(right, top, kit.INK)
    assert near(left, bottom, bs.fill("blue"))  # the meeples
    assert near(right, bottom, kit.INK)  # the landmine
    bare = bs._card("red", 6, "green", 2, "blue", False, True, 0, w, h, size)
    beside = [(x, y) for x in range(w * 55 // 94) for y in range(h)]  # the meeples' count
    assert [sprite.getpixel(p) for p in beside] == [bare.getpixel(p) for p in beside]
    full = bs._card("red", 2, None, 2, "blue", False, False, 0, w, h, size)
    assert full.getpixel((w // 2, h // 2)) == bs.fill("red")  # filled: the full colour
    token = bs._card("red", 6, None, 0, None, False, False, 1, w, h, size)
    assert token.getpixel((w // 2 - 20, h // 2)) == bs.fill("red")


def test_every_mark_on_a_card_is_20_px_tall_at_1000_px(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The letters and numbers on the cards of the most crowded table: capitals and digits
    20 px tall or more (8 px on a 400 px phone column)."""
    sizes: list[int] = []
    real = kit.text

    def text(image: Image.Image, xy: Any, line: str, size: int, *args: Any, **kw: Any
             ) -> Any:
        if image.width < 300:  # a card sprite
            sizes.append(size)
        return real(image, xy, line, size, *args, **kw)

    monkeypatch.setattr(kit, "text", text)
    bs._card.cache_clear()
    for name in ("4p-mid", "4p-over", "3p-mid"):
        bs.table(view(moments()[name], None))
    assert sizes and min(kit.letter_height(s) for s in sizes) >= kit.LETTER


def test_the_board_has_coordinates_and_names_the_open_places() -> None:
    shown = view(moments()["2p-start"], None)
    assert sorted(shown["places"]) == ["d5", "e4", "e6", "f5"]
    first = bs.table(shown)
    for place in ("d5", "e6"):  # an open place's name drawn, then not
        other = copy.deepcopy(shown)
        other["board"].append({**shown["board"][0], "cell": place})
        assert pixels(kit.png(bs.table(other))) != pixels(kit.png(first))
    assert bs._bounds(shown) == (3, 5, 3, 5)


def test_the_final_picture_shows_the_result_in_full() -> None:
    for name in ("2p-over", "3p-over", "4p-over"):
        state = moments()[name]
        shown = view(state, None)
        who = NAMES[: state.players]
        winners = [who[s] for s in shown["result"]["winners"]]
        assert bs.status(shown, who)[0].startswith(kit.listing(winners))
        for short in (False, True):
            lines = bs.breakdown(shown, who, short=short)
            for s, line in enumerate(lines[:-1]):
                head, _, rest = line.partition(" = ")
                assert head == f"{who[s]} {state.crystals[s]}"
                numbers = [int(n) for n in re.findall(r"\d+", rest)]
                total = sum(numbers[:-1]) - numbers[-1] if " spent" in rest else sum(numbers)
                assert total == state.crystals[s], line
            assert lines[-1].startswith("Tokens won: ")
            for s in range(state.players):
                if shown["sets"][s] or shown["tokens"][s]:
                    assert who[s] in lines[-1]
        assert "Player" not in bs.reason(shown, who)
        line = bs.summary(shown)
        assert all(part in line for part in bs.breakdown(shown, who))
        # the text read aloud gives every way in full, as the summary does ('+ 8 more'
        # beside a picture's '+ 7 attacks + 1 sales' read as two results)
        spoken = bs.describe(shown)
        assert all(part in spoken for part in bs.breakdown(shown, NAMES[: state.players],
                                                           spoken=True)[:-1])
        assert bs.hand(view(state, 0)) is None


# --------------------------------------------------------------------------- the prompt


def test_the_prompt_offers_what_the_legal_moves_allow() -> None:
    """Over random games, the header's words for what the seat to act may do: a phrase is
    offered plainly only when a move it stands for is legal, and with its condition ('keep
    it if no place is free') only for a move that hangs on a card hidden from the channel;
    every legal move's first word is offered one way or the other."""
    hidden = {"card", "arm", "place", "keep", "draw", "continue"}
    checked = 0
    for states in games().values():
        for state in states[::3]:
            if GAME.outcome(state) is not None:
                continue
            shown = view(state, None)
            legal = {m.split()[0] for s in GAME.to_act(state)
                     for m, d in GAME.moves(state, s).items()
                     if not (isinstance(d, Steps) and d.steps[0] in ANSWERS)}
            # (a sale's or a challenge's next player may move on instead of answering: the
            # prompt shows the question, the list and the hint the shortcut)
            phrases, groups = bs.prompt(shown)
            assert len(phrases) == len(groups) and phrases, shown["phase"]
            offers, maybe = set(shown["offers"]), set(shown["maybe"])
            assert offers <= legal and maybe <= hidden, (offers, legal)
            for verbs in groups:
                assert set(verbs) & legal or set(verbs) & maybe, (shown["phase"], verbs)
            offered = {v for verbs in groups for v in verbs}
            assert legal <= offered, (shown["phase"], legal - offered)
            checked += 1
    assert checked > 500


def test_the_prompt_never_offers_keep_or_an_attack_that_is_not_there() -> None:
    """The issue's two cases: a drawn card that fits for free is not offered to be kept,
    and after a roll with nothing in reach the header does not say 'attack'."""
    for states in games().values():
        for state in states:
            if GAME.outcome(state) is not None or state.phase not in ("place", "rolled"):
                continue
            legal = {m.split()[0] for m in GAME.legal_moves(state, state.turn)}
            head = bs.status(view(state, None))[0]
            if state.phase == "place":
                assert "keep it if no place is free" in head or "keep it" not in head
            elif "attack" not in legal:
                assert "attack" not in head and ("move meeples" in head) == bool(
                    legal & {"from", "to", "fly"}), (head, legal)


# --------------------------------------------------------------------------- issue 38


def playing(step: int) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every ``step``-th state of the seeded games still in play, with the channel's view."""
    for states in games().values():
        for state in states[::step]:
            if GAME.outcome(state) is None:
                yield state, view(state, None)


def test_the_legend_stays_at_nine_columns_and_more() -> None:
    """The issue's report: a table of nine columns left its legend out. Now the picture
    always ends in one of the legend's three forms (drawn marks with their words; the
    shortest in one row), at the default width and at the narrowest."""
    crowded = [(s, shown) for s, shown in playing(15) if bs._bounds(shown)[1]
               - bs._bounds(shown)[0] >= 8]
    assert len(crowded) > 60 and {s.players for s, _ in crowded} == {2, 3, 4}
    for n, (_, shown) in enumerate(crowded):
        for width in (1000, 600) if n % 4 == 0 else (1000,):
            table = bs.table(shown, width=width)
            legends = [bs._legend(kit.Layout(width), short) for short in (0, 1, 2)]
            assert any(table.crop((0, table.height - legend.height, width, table.height))
                       .tobytes() == legend.tobytes() for legend in legends), (n, width)


def test_the_legend_stays_when_a_bettor_has_a_long_name() -> None:
    """An audit's report: four seats betting on the green die over a full 9 x 9 table, one
    named with 30 characters (Discord allows 32): the headline took three lines and the
    legend was left out. Now the names in the header are cut with an ellipsis first."""
    from tests import test_bomb_squares as tbs
    state = tbs.battle(4)  # e5 may attack f5; every other place holds a card
    for n, cell in enumerate(c for c in (f"{f}{r}" for r in range(1, 10) for f in "abcdefghi")
                             if c not in ("e5", "f5")):
        tbs.card(state, cell, list(bs.LETTER)[n % 6], n % 6 + 1,
                 bomb=list(bs.LETTER)[n * 5 % 6] if n % 3 else None, meeples=n % 6 // 2,
                 meeple=bs.MEEPLES[n % 4])
    state, _ = tbs.play(state, 0, "attack f5 from e5")
    assert state.phase == "bets" and len(GAME.to_act(state)) == 3
    for name in ("Maximilian_the_Magnificent_XIV", "W" * 32):
        shown = GAME.view(state, None) | {"names": ["Alice", "Bob", "Carol", name]}
        assert bs._bounds(shown) == (0, 8, 0, 8)
        for width in (1000, 600):
            table = bs.table(shown, width=width)
            legend = bs._legend(kit.Layout(width), 2)
            assert kit.fits(table) and table.crop((0, table.height - legend.height, width,
                                                   table.height)).tobytes() == \
                legend.tobytes(), (name, width)


@pytest.mark.parametrize(("seed", "steps"), [(6, 578), (1, 699)])
def test_the_legend_stays_on_a_crowded_table_with_named_seats(seed: int, steps: int) -> None:
    """An audit's random 4-player games, seats named as Discord names them: the last
    layout tried (the seat rows tight, the header cut) left the legend out. Now it stays,
    in one row that still names the landmine ('mine'), and the cards give way instead."""
    state, rng = GAME.new(4, seed), random.Random(seed)
    for _ in range(steps):
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    shown = view(state, None) | {"names": ["alice", "bob", "carol", "dave"]}
    assert bs._bounds(shown)[1] - bs._bounds(shown)[0] == 8
    table, legend = bs.table(shown), bs._legend(kit.Layout(1000), 2)
    assert kit.fits(table) and table.crop((0, table.height - legend.height, 1000,
                                           table.height)).tobytes() == legend.tobytes()
    assert "mine" in bs.LABELS[1]


def test_dice_are_drawn_as_dice_not_as_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card's chip reads 'R4'; a die shows its pips on a square of its colour, no letter
    and no number, with the word for what it decides beside it."""
    for value in range(1, 7):
        image = kit.canvas(60, 60)
        kit.die(image, (4, 4, 56, 56), value, bs.fill("red"))
        pips = {str(i) for i in range(9) if image.getpixel(
            (round(30 + (i % 3 - 1) * 52 * 0.26), round(30 + (i // 3 - 1) * 52 * 0.26)))
                == kit.ink_for(bs.fill("red"))}
        assert pips == set(kit.PIPS[value]), value
    drawn = spy_text(monkeypatch)
    monkeypatch.setattr(kit, "chip", lambda *a, **kw: pytest.fail("a die drawn as a chip"))
    rolled = view(moments()["bets"], None)
    assert sum(1 for v in rolled["dice"].values() if v) >= 3
    strip = bs._strip(rolled, kit.Layout(1000))
    assert strip is not None and colour_count(strip, bs.fill("red")) > 1000
    assert {"power", "reach", "distance"} <= set(drawn)
    assert not [line for line in drawn if re.fullmatch(r"[RGBOYP]\d", line)], drawn


def test_prices_stand_exactly_where_a_card_costs_crystals(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Over random games: the view's open places and prices are the rules' own (a card of
    so many sections or more costs that many crystals there, fewer go free), the board
    draws a price on each of those places and nowhere else, and the text says each."""
    from rules import bomb_squares as rb
    assert view(moments()["2p-start"], None)["costly"] == {}  # beside a 6: all free
    priced: list[tuple[int, int]] = []
    monkeypatch.setattr(bs, "_price", lambda image, x, y, first, cost, size:
                        priced.append((first, cost)))
    checked = 0
    for state, shown in playing(60):
        for sections in range(1, 7):
            costs = rb.spots_for(state, rb.card_code(0, sections))
            assert {rb.CELLS[c] for c in costs} == set(shown["places"])
            if state.deck or max(state.held) >= 0:
                assert {rb.CELLS[c]: cost for c, cost in costs.items() if cost} == {
                    cell: cost for cell, (first, cost) in shown["costly"].items()
                    if sections >= first}
        priced.clear()
        bs._board(shown, kit.Layout(1000), 94, 80)
        assert priced == [tuple(shown["costly"][c])
                          for c in sorted(shown["costly"], key=kit.square_index)]
        said = re.search(r"Where a card costs crystals \(place, from how many sections, "
                         r"crystals\): ([^.]*)", bs.describe(shown))
        assert ({tuple(p.split()) for p in said.group(1).split(", ")} if said else set()) == {
            (cell, f"{first}+", str(cost)) for cell, (first, cost) in shown["costly"].items()}
        checked += bool(shown["costly"])
    assert checked > 10
