"""Cube Conquest's pictures: a fixed set of views from seeded games, drawn and checked.

The views come from real games for 2, 3 and 4 players (4 share one deck), played with
seeded random legal moves that attack whenever they can, so that every phase is reached:
setup, a move, an attack being fought (one side chosen, an Outpost's defender holding two
cards), the defender choosing which card to use, and the end. Each is checked for size
(Discord's preview), for hiding what its viewer may not know, for its summary, and for the
defects players reported: an arrow over tile names, '1 cards', and a move's route.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import cube_conquest, kit
from tests import pictures
from tests.pictures import decoded, pixels

GAME = rules.GAMES["cube-conquest"]
SEEDS = {2: 0, 3: 0, 4: 3}  # seeds whose random games reach every phase
PHASES = ("setup", "action", "attack", "choose", "over")
CACHED: list[Any] = [cube_conquest._tile, cube_conquest._plate, cube_conquest._pips,
                     cube_conquest._cube, cube_conquest._card_face]


# --------------------------------------------------------------------------- the views


def fights(rng: random.Random, moves: list[str]) -> str:
    """A pick of the whole setup when there is one, else mostly an attack or an Outpost."""
    attacks = [m for m in moves if m.startswith(("attack", "outpost"))]
    picks = [m for m in moves if m.startswith("pick") and len(m.split()) == 3]
    return rng.choice(picks or (attacks if attacks and rng.random() < 0.8 else moves))


@functools.cache
def play_out(players: int, seed: int) -> tuple[Any, ...]:
    """Every state of one random game, from the deal to the end."""
    return tuple(pictures.play_out(GAME, players, seed, any_seat=True, pick=fights))


@functools.cache
def samples(players: int) -> dict[str, Any]:
    """The fixed set: the last setup state, a move mid-game, an attack with one side
    chosen, an Outpost defended by two cards (before and after the attacker's card is
    shown), and the end."""
    states = play_out(players, SEEDS[players])
    by_phase: dict[str, list[Any]] = {}
    for state in states:
        by_phase.setdefault(state.phase, []).append(state)
    moves = [s for s in by_phase["action"] if s.last_action and s.last_action["kind"] == "move"]
    half = [s for s in by_phase["attack"] if len(GAME.view(s, None)["attack"]["chosen"]) == 1]
    two = [s for s in by_phase["attack"]
           if GAME.view(s, None)["attack"]["defender_card_count"] == 2]
    return {"setup": by_phase["setup"][-1], "move": moves[len(moves) // 2],
            "attack": half[0], "two cards": two[0], "choose": by_phase["choose"][0],
            "over": states[-1]}


def all_samples() -> list[tuple[str, Any]]:
    return [(f"{players}p {name}", state) for players in SEEDS
            for name, state in samples(players).items()]


def viewers(state: Any) -> list[int | None]:
    return [None, *range(state.players)]


def test_the_samples_reach_every_phase_for_every_seat_count() -> None:
    for players in SEEDS:
        assert {s.phase for s in samples(players).values()} == set(PHASES)
        assert samples(players)["over"].phase == "over"
    assert GAME.view(samples(4)["move"], None)["shared_deck"]
    assert not GAME.view(samples(3)["move"], None)["shared_deck"]


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize("players", sorted(SEEDS))
def test_every_attachment_fits_discords_preview(players: int) -> None:
    """Each attachment of every viewer's picture is at most 1.25 times as tall as wide;
    the table alone too, at 600, 1000 and 1400 px, and exactly that wide."""
    for state in samples(players).values():
        for seat in viewers(state):
            view = GAME.view(state, seat)
            for part in render.pngs("cube-conquest", view):
                assert kit.fits(decoded(part))
        view = GAME.view(state, None)
        for width in (600, 1000, 1400):
            table = cube_conquest.table(view, width=width)
            assert table.width == width and kit.fits(table)
            assert table.height > 0.9 * width  # the board takes the room there is


def test_every_letter_is_20_px_tall_and_every_tile_name_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line drawn (sprites drawn afresh, the Outpost's 2 included) has capitals at
    least 20 px tall at 1000 px wide, and every revealed tile's name is drawn, never
    shortened or left off its plate, even with four players' rows under the board."""
    sizes: list[int] = []
    names: list[str] = []
    original: Callable[..., kit.Box] = kit.text

    def spy(image: Image.Image, xy: tuple[float, float], line: str, size: int,
            *args: Any, **kwargs: Any) -> kit.Box:
        sizes.append(size)
        names.append(line)
        return original(image, xy, line, size, *args, **kwargs)

    monkeypatch.setattr(kit, "text", spy)
    for cached in CACHED:
        cached.cache_clear()
    for _, state in all_samples():
        for seat in viewers(state):
            view = GAME.view(state, seat)
            names.clear()
            cube_conquest.draw(view)
            for sq in view["board"]:
                assert sq["symbol"] is None or sq["symbol"] in names, sq
            for cached in CACHED:
                cached.cache_clear()  # each picture draws its own plates
    assert sizes and min(kit.letter_height(size) for size in sizes) >= kit.LETTER


def test_the_goal_goes_under_the_title_where_two_lines_hold_it() -> None:
    view = GAME.view(samples(4)["move"], None)
    at = kit.Layout(1000)
    said = cube_conquest._with_notes(view, at, "Blue moved a1 to a2.")
    assert said == (f"Blue moved a1 to a2. Shared deck: {view['deck_counts'][0]} cards. A fight "
                    "won scores 1 point; first to 10 points wins.")
    long = "Blue attacks Red's Outpost on b3 from b2 and the names are long. " * 2
    assert cube_conquest._with_notes(view, at, long.strip()) == long.strip()


# --------------------------------------------------------------------------- what is drawn


def test_the_spectators_picture_ignores_every_hidden_fact() -> None:
    """A twin state with the face-down tiles, the hands, the decks and the secret picks
    resampled gives the spectator the same picture, pixel for pixel."""
    compared = 0
    for name, state in all_samples():
        spectator = pixels(render.png("cube-conquest", GAME.view(state, None)))
        for seed in (1, 2):
            twin = GAME.determinize(state, None, seed)
            if GAME.dump(twin) == GAME.dump(state):
                continue  # nothing hidden changed: the comparison would prove nothing
            again = render.png("cube-conquest", GAME.view(twin, None))
            assert pixels(again) == spectator, name
            compared += 1
    assert compared >= 2 * len(SEEDS) * (len(PHASES) - 1)


def test_the_table_is_what_everyone_sees_and_the_hand_what_the_seat_holds() -> None:
    """A seat's table is the spectator's; the seat's picture adds its hand whenever it holds
    something, and is the table alone when it holds nothing (setup, the end)."""
    held = 0
    for name, state in all_samples():
        spectator = GAME.view(state, None)
        assert cube_conquest.hand(spectator) is None
        table = cube_conquest.table(spectator).tobytes()
        for seat in range(state.players):
            view = GAME.view(state, seat)
            assert cube_conquest.table(view).tobytes() == table, (name, seat)
            hand = cube_conquest.hand(view)
            if hand is None:
                assert state.phase in ("setup", "over") or not view["hand"], name
                assert cube_conquest.draw(view).tobytes() == table
                continue
            other = copy.deepcopy(view)
            other["hand"] = ["arrow" if c != "arrow" else "drop" for c in view["hand"]]
            changed = cube_conquest.hand(other)
            assert changed is not None
            assert not view["hand"] or changed.tobytes() != hand.tobytes()
            held += 1
    assert held >= 20


def test_a_picture_is_the_same_however_often_it_is_drawn() -> None:
    """Cached sprites are never drawn on: A, B, A gives A twice, pixel for pixel."""
    first, other = samples(3)["move"], samples(4)["choose"]
    a = render.png("cube-conquest", GAME.view(first, 0))
    render.png("cube-conquest", GAME.view(other, other.attack["defender"]))
    assert pixels(render.png("cube-conquest", GAME.view(first, 0))) == pixels(a)


def test_the_final_picture_shows_the_result_in_full() -> None:
    for players in SEEDS:
        view = GAME.view(samples(players)["over"], None)
        lines = cube_conquest._breakdown(view, kit.Layout(1000))
        said = " ".join(lines)
        names = [c.capitalize() for c in view["colours"]]
        assert "one per fight won: " + ", ".join(
            f"{n} {p}" for n, p in zip(names, view["points"], strict=True)) in said
        assert "Cubes on the board: " in said
        assert "Last: " in said
        head, _ = cube_conquest.status(view)
        winners = [names[s] for s in view["result"]["winners"]]
        assert head.startswith(kit.listing(winners))
        assert render.summary("cube-conquest", view).startswith("Cube Conquest, game over: ")


# --------------------------------------------------------------------------- the defects


def route_views() -> list[dict[str, Any]]:
    """Views whose last action drew an arrow: every attack of the samples, and moves by
    routes that turn, that arrive from below, and that double back."""
    views = [GAME.view(s, None) for _, s in all_samples() if len(s.last) == 2
             and s.last_action and s.last_action["kind"] == "attack"]
    wanted: dict[str, dict[str, Any]] = {}
    for state in play_out(2, 0) + play_out(2, 1):
        if not state.last_action or state.last_action["kind"] != "move" or len(state.last) < 3:
            continue
        view = GAME.view(state, None)
        route = view["last"]
        up = route[-1][0] == route[-2][0] and route[-1][1] > route[-2][1]
        turns = len({s[0] for s in route}) > 1 and len({s[1] for s in route}) > 1
        back = len(set(route)) < len(route)
        for kind, yes in (("up", up), ("turn", turns), ("back", back)):
            if yes:
                wanted.setdefault(kind, view)
    assert set(wanted) == {"up", "turn", "back"}
    return views + list(wanted.values())


MAGENTA = (255, 0, 255)


def test_the_arrow_never_covers_a_tile_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawn in a colour found nowhere else, every revealed tile's name plate shows whole,
    however the last move's arrow or an attack's line crosses it; and the arrow is drawn."""
    plates: list[int] = []

    def plate(symbol: str, width: int, height: int, text: int) -> Image.Image:
        plates.append(width * height)
        return kit.canvas(width, height, MAGENTA)

    monkeypatch.setattr(cube_conquest, "_plate", plate)
    views = route_views()
    assert len(views) >= 6
    for view in views:
        plain = cube_conquest.table({**view, "last": []})
        plates.clear()
        table = cube_conquest.table(view)
        assert table.tobytes() != plain.tobytes()  # the arrow is there
        revealed = sum(1 for sq in view["board"] if sq["symbol"] is not None)
        assert len(plates) == revealed
        colours = table.getcolors(table.width * table.height) or []
        assert sum(n for n, colour in colours if colour == MAGENTA) == sum(plates), view["last"]


def test_a_moves_route_is_said_and_drawn() -> None:
    """A route that turns is said square by square, and drawing another route between the
    same squares gives another picture."""
    for view in route_views()[-3:]:
        route = view["last"]
        said = render.summary("cube-conquest", view)
        assert f"moved {route[0]} to {route[-1]} by {'-'.join(route)}." in said
        straight = {**view, "last": [route[0], route[-1]]}
        assert cube_conquest.table(view).tobytes() != cube_conquest.table(straight).tobytes()


def test_one_card_is_one_card() -> None:
    """'1 card' and '1 point', never '1 cards' (the summary and the seats' rows)."""
    view = GAME.view(samples(4)["move"], None)
    one = {**view, "hand_counts": [1, 2, 1, 0], "points": [1, 0, 2, 1]}
    said = render.summary("cube-conquest", one)
    assert "Blue 1 card," in said and "Red 2 cards" in said and "Green 0 cards" in said
    assert "1 cards" not in said
    rows = cube_conquest._seat_lines(one)
    assert rows[0] == "1 point · 1 card" and rows[1].startswith("0 points · 2 cards")
    assert not any("1 cards" in row or "1 points" in row for row in rows)


def test_a_two_card_outpost_defence_shows_in_the_defenders_hand() -> None:
    """The defender's picture shows both cards it placed and what each would count; after
    the attacker's card is shown, which would win. Nobody else's picture or line does."""
    for players in SEEDS:
        for name in ("two cards", "choose"):
            state = samples(players)[name]
            defender = state.attack["defender"]
            view = GAME.view(state, defender)
            placed = view["attack"]["defender_cards"]
            assert len(placed) == 2
            said = render.summary("cube-conquest", view)
            assert f"You picked {kit.listing([f'{c} ({cube_conquest.PIPS[c]})' for c in placed])}" \
                in said
            for card in placed:
                assert f"'use {card}': " in said
            if name == "choose":
                assert ": you win" in said or ": you lose" in said
            hand = cube_conquest.hand(view)
            bare = cube_conquest.hand({**view, "attack": {
                k: v for k, v in view["attack"].items() if k != "defender_cards"}})
            assert hand is not None and bare is not None and hand.height > bare.height
            for seat in [None, *range(players)]:
                if seat != defender:
                    assert "You picked " + placed[0] not in render.summary(
                        "cube-conquest", GAME.view(state, seat))


# --------------------------------------------------------------------------- the summary


def test_the_summary_says_whose_turn_and_the_points() -> None:
    for name, state in all_samples():
        for seat in viewers(state):
            view = GAME.view(state, seat)
            line = render.summary("cube-conquest", view)
            assert line.startswith("Cube Conquest, ") and "\n" not in line
            assert "  " not in line and ".." not in line
            names = [c.capitalize() for c in view["colours"]]
            points = ", ".join(f"{n} {p}" for n, p in zip(names, view["points"], strict=True))
            assert f"Points: {points} (10 to win)." in line, name
            if view["result"] is None:
                assert all(names[s] in line.split(".")[0] for s in view["to_act"]), name
            assert ("Your hand: " in line) == (seat is not None)


def test_display_names_are_drawn_and_said() -> None:
    view = GAME.view(samples(4)["move"], None)
    named = {**view, "names": ["Alice", "Bob", "Chandra", "Dee"]}
    assert cube_conquest.table(named).tobytes() != cube_conquest.table(view).tobytes()
    said = render.summary("cube-conquest", named)
    turn = view["turn"]
    assert f"{named['names'][turn]} ({view['colours'][turn].capitalize()}) to move" in said
    odd = {**view, "names": ["🎲🎲", "x" * 32, "Zoë\nnew line", ""]}
    assert kit.fits(cube_conquest.table(odd))
    assert "\n" not in render.summary("cube-conquest", odd)


# --------------------------------------------------------------------------- as text


def test_the_board_as_text_says_every_square_and_only_what_the_viewer_knows() -> None:
    state = samples(2)["move"]
    seat = state.turn
    view = {**GAME.view(state, seat), "names": ["Ann", "Ben"]}
    text = render.describe("cube-conquest", view)
    lines = text.splitlines()
    assert lines[0].startswith("Cube Conquest. ") and "to move" in lines[0]
    assert "Ann: blue (B), home row 1;" in text and "Ben: red (R), home row 5;" in text
    rows = [line for line in lines if line.startswith("Row ")]
    assert [r.split(":")[0] for r in rows] == ["Row 5", "Row 4", "Row 3", "Row 2", "Row 1"]
    for sq in view["board"]:
        if sq["symbol"] is not None and sq["owner"] is not None:
            colour = view["colours"][sq["owner"]]
            kind = "Outpost" if sq["cubes"] == 2 else "cube"
            assert f"{sq['square']} {sq['symbol']}, {colour} {kind}" in text
    hand = ", ".join(f"{c} ({cube_conquest.PIPS[c]})" for c in view["hand"])
    assert f"Your hand: {hand}." in lines
    spectator = render.describe("cube-conquest", {**GAME.view(state, None),
                                                  "names": ["Ann", "Ben"]})
    assert "Your hand" not in spectator and "Your discard pile" not in spectator
    public = spectator.splitlines()
    assert lines[:len(public)] == public  # the seat's view adds its own lines after


def test_the_board_as_text_says_a_fight_and_the_end() -> None:
    for name, state in all_samples():
        view = GAME.view(state, None)
        text = render.describe("cube-conquest", view)
        if view["attack"] is not None:
            assert f"on {view['attack']['to']} from {view['attack']['from']}" in text, name
        if view["result"] is not None:
            assert f"Game over: {view['result']['reason']}" in text, name
            assert "Cubes on the board: " in text, name


def test_every_discard_pile_is_shown_to_everyone_in_the_picture_and_in_words() -> None:
    """The discard piles are public (face up): a card more on any seat's pile changes the
    channel's picture and its words, which list each pile in order; the summary says each
    pile by card. The board keeps its size with a pile on every row (the rows do not grow)."""
    for players in (2, 3, 4):
        view = GAME.view(samples(players)["move"], None)
        for seat in range(players):
            piles = [list(p) for p in view["discards"]]
            piles[seat] += ["arrow", "drop", "arrow"]
            more = {**view, "discards": piles}
            assert cube_conquest.table(more).tobytes() != cube_conquest.table(view).tobytes()
            text = render.describe("cube-conquest", more)
            name = view["colours"][seat].capitalize()
            assert f"{name}'s discard pile, face up: " + ", ".join(piles[seat]) in text
            assert text != render.describe("cube-conquest", view)
            said = render.summary("cube-conquest", more)
            assert f"{name} " in said.split("Discard piles: ")[1]
            assert f"{piles[seat].count('arrow')} arrows" in said
        full = {**view, "discards": [["drop", "hammers", "circles", "bricks", "crown", "arrow"]
                                     * 2 + ["arrow"] * 2] * players}
        long = {**full, "names": ["A display name of thirty chars"] + ["Computer 2"] * 3}
        at = kit.Layout(1000)
        rows = cube_conquest._seat_rows(view, at).height
        assert rows == at.px(12 + 60 * players)  # one line a seat
        for piled in (full, long):
            assert cube_conquest._seat_rows(piled, at).height == rows
    empty = {**view, "discards": [[] for _ in range(view["players"])]}
    assert "discard pile, face up: empty." in render.describe("cube-conquest", empty)


def test_each_discard_tray_in_the_picture_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's row names the tray of discs beside it ('· discards') where the row has room
    for both; a row with an empty pile names none."""
    drawn: list[list[str]] = []
    rows = kit.seat_rows

    def seen(view: dict[str, Any], at: kit.Layout, lines: list[str], **kw: Any) -> Any:
        drawn.append(list(lines))
        return rows(view, at, lines, **kw)

    monkeypatch.setattr(kit, "seat_rows", seen)
    view = GAME.view(samples(2)["move"], None)
    at = kit.Layout(1000)
    piles = {**view, "discards": [["drop", "arrow"], []]}
    cube_conquest._seat_rows(piles, at)
    assert drawn[-1][0].endswith(" · discards") and "discard" not in drawn[-1][1]
    cube_conquest._seat_rows({**view, "discards": [["drop", "crown", "arrow"] * 2,
                                                   ["arrow"] * 3]}, at)
    assert all(line.endswith(" · discards") for line in drawn[-1])
    # long names leave no room for a tray, nor for the deck and the pile's size: the
    # pile's size comes first, in the deck's place (the auditor's 'Bartholomew Jones 0')
    for name in ("Bartholomew Jones", "Maximiliana Featherstonehaugh"):
        crowded = {**view, "points": [9, 9], "names": [f"{name} 0", f"{name} 1"],
                   "discards": [["drop", "hammers", "circles", "bricks", "crown", "arrow"]] * 2}
        cube_conquest._seat_rows(crowded, at)
        assert [line.split(" · ")[-1] for line in drawn[-1]] == ["6 discards", "6 discards"]
        assert all(kit.text_width(line, at.px(kit.TEXT)) <= at.width - at.margin
                   - kit.seat_column(crowded, at, least=0) for line in drawn[-1])
