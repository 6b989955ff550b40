"""Looking at a table: the board (as a picture, or as text a screen reader reads), a seat's
own hand, who sits where, and a seat's moves now."""

from __future__ import annotations

import render
from bot import words
from bot.moves import Choices
from bot.service.clocks import Clocks
from bot.service.pictures import Picture, Pictures
from bot.service.replies import Private, Reply
from bot.service.table import Table, TableError
from bot.service.tables import Tables
from bot.service.turns import choices, not_your_turn
from rules.computer import level_name


class Looking:
    """What anyone may look at, and what a seat alone may."""

    def __init__(self, tables: Tables, pictures: Pictures, clocks: Clocks) -> None:
        self.tables = tables
        self.pictures = pictures
        self.clocks = clocks

    async def board(self, channel_id: int, *, clocks: bool = True) -> Reply:
        """The board as spectators see it, and whose turn it is (no mentions); with
        ``clocks`` (not in the terminal, which has none) its settings and time banks."""
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            text = table.situation()
            if clocks and table.status in ("open", "playing"):
                text += f"\n{table.settings()}"
            if clocks and (banks := await self.clocks.banks(table)):
                text += f"\n{banks}"
            if table.state is None:
                return Reply(public=text, version=table.version, game=table.id)
            (picture,) = await self.pictures.draw(table.game.id, [table.shown_to(None)])
            return Reply(public=text, picture=picture, version=table.version, game=table.id,
                         over=table.over())

    async def board_text(self, channel_id: int, user_id: int | None) -> str:
        """The board as text a screen reader reads (``render.describe``), as the caller may
        see it: a seated player's own view, anyone else's a spectator's."""
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            text = table.situation()
            if table.state is None:
                return text
            seat = table.seat_of(user_id) if user_id is not None else None
            view = table.game.view(table.state, seat)
            view["names"] = [table.who(s.seat) for s in table.seats]  # as text shows names
            return f"{text}\n{render.describe(table.game.id, view)}"

    async def game_of(self, channel_id: int) -> str | None:
        """The id of the game at the channel's table (running, else its last), if any."""
        async with self.tables.lock(channel_id):
            try:
                return (await self.tables.latest(channel_id)).game.id
            except TableError:
                return None

    async def hand(self, channel_id: int, user_id: int) -> Reply:
        """The caller's private view: ``ephemeral`` text and, in ``private``, their picture.

        Both are meant for an ephemeral answer to the caller, not for a DM.
        """
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            seat = table.seat_for(user_id, "looking.no_seat")
            if table.state is None:
                return Reply(ephemeral=words.say("looking.hand_before", seat=seat + 1),
                             version=table.version, game=table.id)
            shown = table.shown_to(seat)
            # the summary is text: the names in it as the surface shows them (escaped)
            named = {**shown[1], "names": [table.shown(n) for n in table.names()]}
            summary = render.summary(table.game.id, named)
            text = (words.say("looking.hand_turn", player=table.label(seat), summary=summary)
                    if seat in table.awaited() else
                    words.say("looking.hand", player=table.label(seat), summary=summary))
            (picture,) = await self.pictures.draw(table.game.id, [shown])
            return Reply(ephemeral=text, private=(Private(user_id, text, picture),),
                         version=table.version, game=table.id, over=table.over())

    async def seen(self, channel_id: int, user_id: int, board: Picture | None = None,
                   version: int = 0) -> Picture | None:
        """The caller's picture as their seat sees the table now, for the DM that starts
        their turn; ``board``: the channel's picture of ``version``, whose table it shares
        if the table is still at that version. None without a seat or a game under way."""
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            seat = table.seat_of(user_id)
            if seat is None or table.state is None or table.over():
                return None
            shared = board if board is not None and table.version == version else None
            (picture,) = await self.pictures.draw(table.game.id, [table.shown_to(seat)],
                                                  shared)
            return picture

    async def status(self, channel_id: int) -> Reply:
        """Who sits where and where the game stands, as text."""
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            seats = "; ".join(
                words.say("looking.seat_computer", seat=s.seat + 1, player=named(table, s.seat),
                          level=level_name(s.level)) if s.kind == "computer" else
                words.say("looking.seat", seat=s.seat + 1, player=named(table, s.seat))
                for s in table.seats)
            return Reply(public="\n".join([table.situation(),
                                            words.say("looking.seats", seats=seats)]),
                         version=table.version, game=table.id, over=table.over())

    async def choices(self, channel_id: int, user_id: int) -> Choices:
        """The caller's legal moves, free ones first, with what the costly ones cost (none
        unless they are seated and awaited)."""
        async with self.tables.lock(channel_id):
            try:
                table = await self.tables.running(channel_id)
            except TableError as refusal:
                return Choices(why=str(refusal))
            seat = table.seat_of(user_id)
            if seat is None:
                return Choices(why=words.say("seats.no_seat"))
            found = choices(table, seat)
            if not found.moves and not table.over():
                return Choices(why=not_your_turn(table))
            return found

    async def hint(self, channel_id: int, user_id: int) -> str:
        """How the caller writes a move now (the game's sentence), or '' if they are not
        seated and awaited."""
        async with self.tables.lock(channel_id):
            try:
                table = await self.tables.running(channel_id)
            except TableError:
                return ""
            seat = table.seat_of(user_id)
            if seat is None or seat not in table.awaited():
                return ""
            return table.game.notation_hint(table.state, seat)

    async def waiting(self, channel_id: int) -> list[tuple[int, str]]:
        """The humans the running game awaits: (user id, 'Alice (Blue)'), by seat."""
        async with self.tables.lock(channel_id):
            try:
                table = await self.tables.running(channel_id)
            except TableError:
                return []
            return [(table.seats[s].user_id or 0, table.label(s)) for s in sorted(table.awaited())
                    if table.seats[s].kind == "human"]


def named(table: Table, seat: int) -> str:
    """A seat as the status lists it: with its colour, where the game has colours."""
    return table.label(seat) if table.colours else table.who(seat)
