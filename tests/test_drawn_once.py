"""A picture is drawn only when what it shows changed, once for everyone who asks for the
same view at once, and kept under its table, audience and view, so that a seat's picture
never goes to another seat or the channel."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import pytest

import rules
from bot.service import TableService
from bot.service import pictures as pictures_module
from bot.service.pictures import Picture, Pictures
from bot.service.table import view_digest
from bot.store import Store
from tests.test_service import ANN, BOB, CH, GAME, step, table


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every view drawn, in the order drawn."""
    views: list[dict[str, Any]] = []
    draw = pictures_module.pictures

    def counted(game_id: str, shown: list[dict[str, Any]], table: bytes | None = None
                ) -> list[Picture]:
        views.extend(shown)
        return draw(game_id, shown, table)

    monkeypatch.setattr(pictures_module, "pictures", counted)
    return views


def a_view(seat: int | None = None, moves: int = 3) -> dict[str, Any]:
    game = rules.GAMES[GAME]
    state, rng = game.new(2, 5), random.Random(5)
    for _ in range(moves):
        mover = sorted(game.to_act(state))[0]
        state, _ = game.play(state, mover, rng.choice(game.legal_moves(state, mover)))
    return {**game.view(state, seat), "names": ["Ann", "Bob"]}


async def test_a_view_that_did_not_change_is_not_drawn_again(
        drawn: list[dict[str, Any]]) -> None:
    pictures = Pictures(images=True)
    try:
        view = a_view()
        (first,) = await pictures.draw(GAME, [((7, None, view_digest(view)), view)])
        again = copy.deepcopy(view)  # the same view, made afresh (a later version)
        (second,) = await pictures.draw(GAME, [((7, None, view_digest(again)), again)])
        assert first is second and len(drawn) == 1
        assert first is not None and first.key == (7, None, view_digest(view))
        other = a_view(moves=4)  # what it shows changed: drawn
        (third,) = await pictures.draw(GAME, [((7, None, view_digest(other)), other)])
        assert third is not None and third.key != first.key and len(drawn) == 2
    finally:
        pictures.close()


async def test_a_view_asked_for_by_two_replies_at_once_is_drawn_once(
        drawn: list[dict[str, Any]]) -> None:
    pictures = Pictures(images=True)
    try:
        view = a_view()
        shown = ((7, None, view_digest(view)), view)
        one, two = await asyncio.gather(pictures.draw(GAME, [shown]),
                                        pictures.draw(GAME, [shown, shown]))
        assert len(drawn) == 1 and one[0] is two[0] is two[1]
    finally:
        pictures.close()


async def test_a_picture_is_kept_apart_for_its_table_and_audience(
        drawn: list[dict[str, Any]]) -> None:
    """Even a view that reads the same is drawn apart for another seat or table: a kept
    picture only ever goes where it was drawn for."""
    pictures = Pictures(images=True)
    try:
        view = a_view(seat=0)
        digest = view_digest(view)
        keys = [(7, 0, digest), (7, 1, digest), (7, None, digest), (8, 0, digest)]
        out = [(await pictures.draw(GAME, [(key, view)]))[0] for key in keys]
        assert len(drawn) == len(keys)
        assert [p.key for p in out if p is not None] == keys
    finally:
        pictures.close()


async def test_the_service_names_each_picture_by_its_audience(store: Store) -> None:
    service = TableService(store, images=True)
    try:
        await table(service, humans=2, seed=4)
        rng = random.Random(3)
        for _ in range(3):
            await step(service, rng)
            board = await service.board(CH)
            hands = [(await service.hand(CH, user)).private[0].picture for user in (ANN, BOB)]
            assert board.picture is not None and None not in hands
            keys = [board.picture.key, *(p.key for p in hands if p is not None)]
            assert [key[1] for key in keys] == [None, 0, 1]  # the channel, seat 0, seat 1
            assert len({key[0] for key in keys}) == 1 and len(set(keys)) == 3
            again = await service.board(CH)  # nothing changed: the same picture
            assert again.picture is board.picture
    finally:
        service.pictures.close()
