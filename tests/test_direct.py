"""A player's DM channel and closed DMs, kept in the database (``bot.service.direct``), on
both engines: opened once for every process, held back a day after a refusal on the
service's clock, back at once when they show they are; and which of the mover's own views
go with the answer to their move (``bot.discord.direct.answered``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import discord

from bot.discord.delivery import Delivery
from bot.discord.direct import answered, send
from bot.moves import Choices
from bot.records import PlayerRow
from bot.service import TableService
from bot.service.direct import HOLD, DirectLines
from bot.service.replies import Private, Reply
from bot.store.errors import StoreUnavailable
from tests.pg import Database

ANN = 1_400_000_000_000_000_001  # a Discord snowflake: beyond 32 bits
CHANNEL = 1_400_000_000_000_000_777


async def test_a_dm_channel_and_a_refusal_are_kept_for_every_process(
        database: Database) -> None:
    clock = [1_000_000.0]
    first, second = await database.open(), await database.open()  # two bot processes
    try:
        here = DirectLines(first, now=lambda: clock[0])
        there = DirectLines(second, now=lambda: clock[0])
        assert (await here.line(ANN)).channel_id is None and not await here.held(ANN)
        await here.opened(ANN, CHANNEL)
        assert (await there.line(ANN)).channel_id == CHANNEL  # not opened again there
        # Quiet hours written meanwhile leave the DM columns alone.
        await first.members.set_player(PlayerRow(ANN, 22, 7, "Europe/Paris"))
        assert await second.members.direct(ANN) == (CHANNEL, None)

        await there.refused(ANN)
        assert await there.held(ANN)
        assert await DirectLines(first, now=lambda: clock[0]).held(ANN)  # after a restart
        # A process that knew the DMs open learns of the refusal from its own (one try).
        assert not await here.held(ANN)
        await here.refused(ANN)
        clock[0] += HOLD - 1
        assert await here.held(ANN) and await there.held(ANN)
        clock[0] += 1
        assert not await here.held(ANN)  # a day later, one DM may be tried

        await here.refused(ANN)
        assert await here.back(ANN)  # /hand: held back until now, and no longer
        assert not await there.held(ANN) and not await there.back(ANN)
        assert await first.members.direct(ANN) == (CHANNEL, None)
        # One process sees a refusal; a DM through, or /hand, on another that knew the
        # DMs open ends it for both (an audit: the other kept holding them for a day).
        await here.refused(ANN)
        assert await there.back(ANN) and not await here.held(ANN)
        assert await first.members.direct(ANN) == (CHANNEL, None)
        # A process that looked before any channel was opened learns of the one opened
        # by another (an audit: it opened a second one).
        fresh = DirectLines(second, now=lambda: clock[0])
        assert (await fresh.line(ANN + 1)).channel_id is None
        await here.opened(ANN + 1, CHANNEL + 2)
        assert (await fresh.line(ANN + 1)).channel_id == CHANNEL + 2
        await there.opened(ANN, CHANNEL + 1)  # Discord gave another channel
        assert await first.members.direct(ANN) == (CHANNEL + 1, None)
        assert (await first.members.player(ANN)).quiet_from == 22
    finally:
        await first.close()
        await second.close()


def test_only_a_view_that_tells_the_mover_nothing_new_goes_with_their_answer() -> None:
    ann, bob = 1, 2
    mine, news = Private(ann, "You draw arrow (6).", None), Private(bob, "You draw a crown.", None)
    moved = Reply(private=(news, mine), ephemeral="You draw arrow (6).", mention=(bob,),
                  step=True, game=3, version=9)
    sent, at = answered(moved, ann)
    assert at == 1 and sent.private == (news,) and sent.version == 9
    # The end, or a line from another seat (a computer took a card): the DM goes as before.
    for reply in (replace(moved, over=True, mention=()), replace(moved, ephemeral="")):
        assert answered(reply, ann) == (reply, None)
    # Still (or again) their turn: the answer shows it too, and its DM goes as before (it is
    # edited, or asks for the turn, with its buttons), whatever it tells.
    for reply in (replace(moved, mention=(ann,)), replace(moved, mention=(ann,), ephemeral="")):
        assert answered(reply, ann) == (reply, 1)
    assert answered(replace(moved, private=(news,), mention=(ann,)), ann) == (
        replace(moved, private=(news,), mention=(ann,)), None)  # their view is unchanged
    done = replace(moved, mention=())
    assert answered(done, bob) == (done, None)  # bob's line is not in the answer: his DM


class Edited:
    """A DM as the desk holds it: its buttons, and the edits made to it."""

    def __init__(self, components: list[Any]) -> None:
        self.components = components
        self.attachments: list[Any] = []  # no picture: none to bring up to date
        self.edits: list[dict[str, Any]] = []

    async def edit(self, **changes: Any) -> Edited:
        self.edits.append(changes)
        return self


class Service:
    """What ``Delivery._direct`` asks of the service: an open DM line, the player's moves."""

    def __init__(self, moves: list[str]) -> None:
        self.moves = moves

    async def dm_line(self, user_id: int) -> tuple[int | None, bool]:
        return 7, False

    async def choices(self, channel_id: int, user_id: int) -> Choices:
        return Choices(self.moves)


async def test_a_step_of_ones_own_turn_that_changes_nothing_edits_no_dm() -> None:
    many = [f"move {n}" for n in range(40)]  # too many for buttons: no view
    for components, moves, edits in (([], many, 0),  # nothing changes: no request
                                     (["a row"], many, 1),  # its buttons come off
                                     ([], ["move 1"], 1)):  # buttons come
        desk = Delivery(cast(discord.Client, None), cast(TableService, Service(moves)))
        held = Edited(components)
        desk._asked[5, 3, 11] = (cast(discord.Message, held), "You drew a card.")
        went = await desk._direct(5, Private(11, "", None), 3, 9, asking=True, own=True)
        assert went is (True if edits else None)  # nothing sent: not a DM that got through
        assert len(held.edits) == edits


async def test_a_database_that_refuses_the_dm_state_costs_no_dm() -> None:
    """The database full or busy when a DM channel is opened (or read): the DM goes."""

    class Channel:
        async def send(self, text: str, **options: Any) -> str:
            return f"sent: {text}"

    class Client:
        async def create_dm(self, user: Any) -> Any:
            return type("Opened", (), {"id": 7})()

        def get_partial_messageable(self, channel_id: int, **options: Any) -> Channel:
            return Channel()

    class Refusing:
        async def dm_line(self, user_id: int) -> tuple[int | None, bool]:
            raise StoreUnavailable("The game's database is full right now.")

        async def dm_opened(self, user_id: int, channel_id: int) -> None:
            raise StoreUnavailable("The game's database is full right now.")

        async def dm_back(self, user_id: int) -> bool:
            return False

    sent = await send(cast(discord.Client, Client()), cast(TableService, Refusing()), 11, "hi")
    assert cast(Any, sent) == "sent: hi"


async def test_a_turn_s_dm_left_with_no_buttons_and_no_picture_says_where_to_play() -> None:
    """Crystallia's DM of a turn went from its buttons to 'Your turn in #channel:' and
    nothing more once the next step had more choices than buttons hold."""
    many = [f"place a{n} a{n + 1}" for n in range(1, 30)]
    desk = Delivery(cast(discord.Client, None), cast(TableService, Service(many)))
    held = Edited(["a row"])
    desk._asked[5, 3, 11] = (cast(discord.Message, held), "")
    assert await desk._direct(5, Private(11, "", None), 3, 9, asking=True, own=True)
    (edit,) = held.edits
    assert edit["view"] is None and "attachments" not in edit
    assert "29 moves, more than buttons hold" in edit["content"]
    assert "/play" in edit["content"]
