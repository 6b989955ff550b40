"""The animated picture of a whole game (``render/animation.py``): a GIF Pillow opens with
one frame per sampled turn, its frames the channel's pictures of the public views (the
first the deal, the last the end), sampled to the cap, under Discord's upload limit, and
never a seat's view."""

from __future__ import annotations

import itertools
import random
from functools import cache
from io import BytesIO
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

import render
import rules
from bot.records import MoveRow
from bot.timeline import story
from render import animation

NAMES = ["Alice", "Bob", "Chidi", "Dana"]


@cache
def logged(game_id: str, players: int, seed: int = 3) -> tuple[tuple[int, str], ...]:
    """A whole seeded game of random legal moves, as ``(seat, text)``."""
    game = rules.GAMES[game_id]
    state = game.new(players, seed)
    rng = random.Random(f"test-animation/{game_id}/{seed}")
    log = []
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, move)
        log.append((seat, move))
    return tuple(log)


@cache
def shown(game_id: str, players: int) -> tuple[animation.Turn, ...]:
    game = rules.GAMES[game_id]
    log = logged(game_id, players)
    rows = [MoveRow(n, seat, text, 0.0) for n, (seat, text) in enumerate(log, start=2)]
    return tuple(animation.turns(game, story(game, players, 3, None, rows).turn_states(),
                                 NAMES[:players]))


def gif_frames(data: bytes) -> list[Image.Image]:
    with Image.open(BytesIO(data)) as opened:
        assert opened.format == "GIF" and opened.is_animated
        out = []
        for n in range(opened.n_frames):
            opened.seek(n)
            out.append(opened.convert("RGB"))
        return out


def board_part(frame: Image.Image, picture: Image.Image) -> Image.Image:
    """The part of a frame under its caption where ``picture`` was pasted."""
    top = animation.caption_band("x").height
    return frame.crop((0, top, picture.width, top + picture.height))


def difference(a: Image.Image, b: Image.Image) -> float:
    """The mean difference of two same-sized RGB pictures, in levels of 255."""
    assert a.size == b.size
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_turns_group_a_seats_steps_and_hold_the_public_view_after_each() -> None:
    game = rules.GAMES["bomb-squares"]
    log = logged("bomb-squares", 3)
    turns = shown("bomb-squares", 3)
    assert turns[0].seats == () and turns[0].moves == 0
    assert [t.moves for t in turns] == sorted({t.moves for t in turns})  # each moves on
    assert turns[-1].moves == len(log)
    assert len(turns) - 1 < len(log)  # some turns are several steps of one seat
    state = game.new(3, 3)
    for before, after in itertools.pairwise(turns):
        steps = log[before.moves:after.moves]
        assert tuple(dict.fromkeys(seat for seat, _ in steps)) == after.seats
        for seat, text in steps:
            state, _ = game.play(state, seat, text)
        assert after.view == {**game.view(state, None), "names": NAMES[:3]}
        assert after.view["seat"] is None  # a spectator's
    assert game.outcome(state) is not None


def test_captions_say_the_turn_and_who_moved() -> None:
    turns = shown("battle-tiles", 2)
    lines = animation.captions(turns)
    last = len(turns) - 1
    assert lines[0] == "The deal"
    assert lines[1] == f"Turn 1 of {last}: {NAMES[turns[1].seats[0]]} " \
        f"({turns[1].view['colours'][turns[1].seats[0]].capitalize()})"
    assert lines[-1].startswith(f"Turn {last} of {last}: ")
    # a game whose seats have no colours: the name alone
    assert animation.captions(shown("bomb-squares", 3))[1].endswith(
        NAMES[shown("bomb-squares", 3)[1].seats[0]])


def test_sampling_keeps_the_first_and_the_last_turn_evenly_spaced() -> None:
    assert animation.sample(5, 8) == [0, 1, 2, 3, 4]
    picked = animation.sample(400, 64)
    assert len(picked) == 64 == len(set(picked))
    assert picked[0] == 0 and picked[-1] == 399
    gaps = {b - a for a, b in itertools.pairwise(picked)}
    assert max(gaps) - min(gaps) <= 1
    assert animation.sample(1) == [0]


def test_durations_make_a_short_loop_with_the_end_held() -> None:
    times = animation.durations(animation.FRAMES)
    assert times[-1] == animation.HELD
    assert 15_000 <= sum(times) <= 35_000
    assert all(t % 10 == 0 and t >= animation.SHORTEST for t in times)


def test_a_whole_game_is_an_animated_gif_of_the_channels_pictures() -> None:
    game_id = "battle-tiles"
    turns = shown(game_id, 2)
    views = [t.view for t in turns]
    gif = animation.animate(game_id, views, captions=animation.captions(turns), cap=6)
    assert len(gif) < animation.LIMIT and len(gif) < 1_000_000
    frames = gif_frames(gif)
    assert len(frames) == 6 == len(animation.sample(len(views), 6))
    assert {f.size for f in frames} == {frames[0].size}
    assert frames[0].width == animation.WIDTH
    first, last = (animation.board(game_id, views[i]) for i in (0, -1))
    assert first.tobytes() == render.image(game_id, views[0], width=600).tobytes()
    # the frames are those pictures but for the palette's 255 colours
    assert difference(board_part(frames[0], first), first) < 3
    assert difference(board_part(frames[-1], last), last) < 3
    assert difference(board_part(frames[0], last), last) > 3 * difference(
        board_part(frames[-1], last), last)


def test_frames_are_the_spectators_pictures_exactly_before_the_palette() -> None:
    """Battle Tiles hides each seat's hand: every frame, before it is reduced to the GIF's
    palette, is exactly the channel's picture of the public view under its caption, and
    a seat's view is refused."""
    game_id = "battle-tiles"
    turns = shown(game_id, 2)
    picked = [turns[i] for i in animation.sample(len(turns), 5)]
    lines = [f"Frame {n}" for n in range(len(picked))]
    frames = animation.frames(game_id, [t.view for t in picked], lines)
    for turn, frame in zip(picked, frames, strict=True):
        picture = render.image(game_id, turn.view, width=animation.WIDTH)
        assert board_part(frame, picture).tobytes() == picture.tobytes()
    game = rules.GAMES[game_id]
    state = game.new(2, 3)
    seat_view: dict[str, Any] = game.view(state, 0)
    assert seat_view != game.view(state, None)  # it holds a hand
    with pytest.raises(ValueError, match="public views only"):
        animation.animate(game_id, [turns[0].view, seat_view], captions=["a", "b"])


def test_a_long_game_is_sampled_to_the_cap_and_stays_small() -> None:
    game_id = "cube-conquest"
    turns = shown(game_id, 2)
    assert len(turns) > 12
    gif = animation.animate(game_id, [t.view for t in turns],
                            captions=animation.captions(turns), cap=12)
    frames = gif_frames(gif)
    assert len(frames) == 12
    assert len(gif) < 4_000_000
    last = animation.board(game_id, turns[-1].view)
    assert difference(board_part(frames[-1], last), last) < 3
    with Image.open(BytesIO(gif)) as opened:
        opened.seek(len(frames) - 1)
        assert opened.info["duration"] == animation.HELD


def test_boards_and_captions_must_pair_up() -> None:
    with pytest.raises(ValueError, match="captions"):
        animation.animate("crystallia", [shown("crystallia", 2)[0].view], captions=[])
