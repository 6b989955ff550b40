"""Crystallia's pictures: a fixed set of views drawn and checked.

Views come from seeded random games for 2, 3 and 4 players, plain and advanced: the start,
the first state of every phase (the advanced flip, take, place, a pending ability, a colour
to gain), the middle, and the end (stones run out, and the 13-crystal loss). For each:
Discord's size limit at every width, nothing hidden drawn, the summary; and the defects
players reported stay fixed (tiny labels; the 2-player pyramid of 20 stones).
"""

from __future__ import annotations

import functools
import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import crystallia as drawing
from render import kit
from tests import pictures
from tests.pictures import pixels

GAME = rules.GAMES["crystallia"]
GAMES = ((2, 1, False), (3, 2, True), (4, 3, False), (2, 4, True), (2, 0, False))
LOSS = (2, 0, False)  # this game ends by the 13-crystal loss


def play_out(players: int, seed: int, advanced: bool = False) -> list[Any]:
    return pictures.play_out(GAME, players, seed, options={"advanced": advanced})


@functools.cache
def samples() -> tuple[Any, ...]:
    """The first state of each phase met, a middle state and the last, of each game."""
    picked: list[Any] = []
    for players, seed, advanced in GAMES:
        states = play_out(players, seed, advanced)
        seen: set[str] = set()
        for state in states:
            if state.phase not in seen:
                seen.add(state.phase)
                picked.append(state)
        picked += [states[len(states) // 2], states[-1]]
    return tuple(picked)


def size(picture: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(picture)) as image:
        return image.size


def test_the_samples_reach_every_phase_seat_count_option_and_ending() -> None:
    views = [GAME.view(s, None) for s in samples()]
    assert {v["phase"] for v in views} == {"flip", "take", "place", "ability", "gain", "over"}
    assert {(v["players"], v["advanced"]) for v in views} >= {(2, False), (2, True),
                                                               (3, True), (4, False)}
    endings = {v["result"]["loser"] is None for v in views if v["result"] is not None}
    assert endings == {True, False}


@pytest.mark.parametrize("index", range(6))
def test_pictures_fit_discord_at_every_width(index: int) -> None:
    for state in samples()[index::6]:
        for seat in (None, 0):
            view = GAME.view(state, seat)
            parts = render.pngs("crystallia", view)
            assert len(parts) == 1  # nothing private: the table alone
            width, height = size(parts[0])
            assert width == 1000 and height <= 1.25 * width
        for width in (600, 1000, 1400):
            table = drawing.table(view, width=width)
            assert table.width == width and kit.fits(table), (width, table.size)


def test_no_text_is_smaller_than_the_kits_smallest_type(monkeypatch: pytest.MonkeyPatch) -> None:
    """Players read 4-6 px labels at 400 px wide: every text is now the kit's smallest type
    (30 px at 1000 px wide, capitals 20 px tall) or more."""
    sizes: list[int] = []
    drawn = kit.text

    def recording(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                  fill: kit.RGB, **options: Any) -> kit.Box:
        sizes.append(size)
        return drawn(image, xy, line, size, fill, **options)

    monkeypatch.setattr(kit, "text", recording)
    for state in samples()[::2]:
        drawing.table(GAME.view(state, None), width=1000)
    assert sizes and min(sizes) >= kit.SMALL


def test_the_two_player_pyramid_is_drawn_as_the_view_gives_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The 2-player pyramid has 20 stones in rows of 8, 7 and 5: all 20 are drawn, and the
    8 of the front row are numbered as the ones to take."""
    stones: list[bool] = []
    drawn = drawing._stone

    def counting(image: Image.Image, outer: kit.Box, crystals: list[str] | None,
                 across: bool, size: int, border: int) -> None:
        stones.append(across)
        drawn(image, outer, crystals, across, size, border)

    monkeypatch.setattr(drawing, "_stone", counting)
    for players, count in ((2, 20), (3, 24)):
        view = GAME.view(GAME.new(players, seed=7), None)
        rows = [sum(1 for p in view["pyramid"] if p["row"] == r) for r in range(3)]
        assert rows == ([8, 7, 5] if players == 2 else [9, 8, 7])
        stones.clear()
        drawing.table(view)
        assert stones.count(False) == count  # upright: the pyramid's stones
    summary = render.summary("crystallia", GAME.view(GAME.new(2, seed=7), None))
    assert "20 stones left in the pyramid" in summary


def test_face_down_stones_are_drawn_the_same_whatever_they_are() -> None:
    """The spectator's picture is pixel-identical after the unseen stones are dealt again."""
    for state in (GAME.new(3, seed=5), GAME.new(2, seed=6), samples()[3]):
        twins = [GAME.determinize(state, None, k) for k in range(3)]
        assert len({(tuple(t.pyramid), tuple(t.left_out)) for t in [state, *twins]}) > 1
        first = pixels(render.png("crystallia", GAME.view(state, None)))
        for twin in twins:
            assert pixels(render.png("crystallia", GAME.view(twin, None))) == first


def test_nothing_is_private_so_a_seat_sees_the_spectators_picture() -> None:
    for state in samples()[:8]:
        spectator = GAME.view(state, None)
        for seat in range(state.players):
            view = GAME.view(state, seat)
            assert drawing.hand(view) is None
            assert pixels(render.png("crystallia", view)) == \
                pixels(render.png("crystallia", spectator))


def test_the_picture_changes_after_a_move() -> None:
    states = play_out(2, 9)
    for before, after in itertools.pairwise(states[:10]):
        assert pixels(render.png("crystallia", GAME.view(before, None))) != \
            pixels(render.png("crystallia", GAME.view(after, None)))


def test_an_uncovered_stone_gets_its_number_badge(monkeypatch: pytest.MonkeyPatch) -> None:
    """Front stones 1 and 2 cover 10 (3-4 players); taking both puts 10's badge in the
    picture."""
    state = GAME.new(3, seed=2)
    rng = random.Random(0)
    for take in ("take 1", "take 2"):
        state, _ = GAME.play(state, state.turn, take)
        while state.phase != "take":
            state, _ = GAME.play(state, state.turn,
                                 rng.choice(GAME.legal_moves(state, state.turn)))
    lines: list[str] = []
    drawn = kit.text

    def recording(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                  fill: kit.RGB, **options: Any) -> kit.Box:
        if fill == kit.PAPER:
            lines.append(line)
        return drawn(image, xy, line, size, fill, **options)

    monkeypatch.setattr(kit, "text", recording)
    drawing.table(GAME.view(state, None))
    assert "10" in lines and "1" not in lines


def test_summaries_say_who_acts_the_points_and_the_last_action() -> None:
    state = GAME.new(2, seed=1)
    view = GAME.view(state, None) | {"names": ["Alice", "Zoë"]}
    first = ["Alice", "Zoë"][state.turn]  # said as given (the picture draws 'Zoe')
    line = render.summary("crystallia", view)
    assert line.startswith(f"Crystallia: {first}: take a stone or a talisman.")
    assert "Points as the platforms stand now: Alice 0, Zoë 0." in line
    state, _ = GAME.play(state, state.turn, "take 1")
    view = GAME.view(state, None) | {"names": ["Alice", "Bob"]}
    line = render.summary("crystallia", view)
    assert "Last: " in line and "took stone 1." in line and "In hand: " in line
    for sample in samples():
        view = GAME.view(sample, None)
        line = render.summary("crystallia", view)
        scores = ", ".join(f"Player {s + 1} {p}" for s, p in enumerate(view["scores"]))
        assert f"Points as the platforms stand now: {scores}." in line
        if view["result"] is None:
            assert line.startswith(f"Crystallia: Player {view['turn'] + 1}: ")
        else:
            assert line.startswith("Crystallia: Game over: ")


def test_the_final_picture_breaks_the_score_down() -> None:
    for players, seed, advanced in (GAMES[1], LOSS):
        view = GAME.view(play_out(players, seed, advanced)[-1], None)
        lines = drawing.breakdown(view)
        assert len(lines) == players + 1 and lines[-1].startswith("Supercrystals: ")
        for seat, line in enumerate(lines[:-1]):
            assert line.startswith(f"Player {seat + 1}: {view['scores'][seat]} point")
        reason = drawing._reason(view)
        if view["result"]["loser"] is not None:
            assert "reached 13 crystals" in reason
        assert "wins with" in reason or "win with" in reason


def test_status_names_the_second_turn_and_the_pending_ability() -> None:
    for state in samples():
        view = GAME.view(state, None)
        head, detail = drawing.status(view)
        if state.phase == "ability":
            assert "a stone (" in head and "or skip" in head
        if state.phase not in ("over", "flip") and state.streak == 2:
            assert detail.startswith("Second turn in a row.")
            assert "(second turn in a row)" in render.summary("crystallia", view)


def test_printed_squares_and_stones_are_drawn_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """A colour printed on the board is a flat lettered diamond, drawn only where no stone
    lies; a stone is a raised piece; the legend names both."""
    printed: list[str] = []
    drawn = drawing._printed

    def recording(image: Image.Image, box: kit.Box, colour: str, size: int) -> None:
        printed.append(colour)
        drawn(image, box, colour, size)

    lines: list[str] = []
    text = kit.text

    def reading(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                fill: kit.RGB, **options: Any) -> kit.Box:
        lines.append(line)
        return text(image, xy, line, size, fill, **options)

    monkeypatch.setattr(drawing, "_printed", recording)
    monkeypatch.setattr(kit, "text", reading)
    view = GAME.view(play_out(3, 2)[30], None)
    drawing.table(view)
    open_colours = sorted(s["shows"] for s in view["board"]
                          if s["crystal"] is None and s["shows"] in drawing.COLOURS)
    assert sorted(printed) == sorted([*open_colours, "red"])  # and the legend's red
    assert {"printed square", "stone", "move", "rotate", "again", "black -1",
            "supercrystal +2"} <= set(lines)
    assert any(line.startswith("talisman, ") and line.endswith(" left") for line in lines)


def test_the_text_alternative_reads_the_board_the_pyramid_and_the_seats() -> None:
    state = play_out(2, 1)[12]
    view = GAME.view(state, None) | {"names": ["Alice", "Zoë"]}
    text = drawing.describe(view)
    lines = text.splitlines()
    assert lines[0].startswith("Crystallia: ")
    assert any(line.startswith("Alice: ") and " point" in line for line in lines)
    assert any(line.startswith("Zoë: ") for line in lines)  # as said, not as drawn
    board = {s["square"]: s for s in view["board"]}
    for name, square in board.items():
        if square["partner"] and drawing._order(name) < drawing._order(square["partner"]):
            partner = board[square["partner"]]
            assert f"{name}-{square['partner']} {square['crystal']}/{partner['crystal']}" \
                in text
    free = [p for p in view["pyramid"] if p["available"] and not p["taken"]]
    assert all(f"{p['number']} {'/'.join(p['stone'])}" in text for p in free)
    assert "face down" in text and "Supply: red " in text
    assert drawing.describe(view) == text


def test_the_last_action_is_the_last_step_even_a_skip_or_a_lone_stones_gain() -> None:
    """The picture's 'Last:' follows every step of a turn: letting an ability go and the
    crystal a lone stone gives are steps too (before, 'Last:' still told the step before)."""
    rng = random.Random(4)
    seen: set[str] = set()
    for seed in range(30):
        state = GAME.new(2, seed)
        while GAME.outcome(state) is None and len(seen) < 2:
            seat = min(GAME.to_act(state))
            move = rng.choice(GAME.legal_moves(state, seat))
            state, _ = GAME.play(state, seat, move)
            line = render.summary("crystallia", GAME.view(state, None))
            if move == "skip":
                seen.add("skip")
                assert "ability on" in line and " go." in line, line
            elif move.startswith("gain "):
                seen.add("gain")
                assert f"took a {move.split()[1]} crystal for a stone touching no other" in line
        if len(seen) == 2:
            break
    assert seen == {"skip", "gain"}
