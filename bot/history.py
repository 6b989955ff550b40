"""Looking back: a game's log as one seat may see it, what happened since a seat's last move
(the digest that ``/since`` answers and a reminder carries), a player's list of tables, and
the daily digest of the tables that wait for a player in every server.

Everything here is a pure function of a game's *timeline*: the logged moves replayed from
the seed (``bot.timeline.Timeline``), each with its events and time. What a reader is
shown passes through ``Event.visible_to`` and ``view()`` alone, so a seat never reads
another seat's private events or anything its view hides: the same text comes out for any
state that seat cannot tell apart from the real one (``tests/test_history.py`` checks it
with ``determinize``).

A move is numbered as the board and ``/game undo`` number it (``undo.number``: the move
that made state version *v* is move *v* - 1). An undo entry of the log (``undo <v>``) is
shown as the taking back it was, and the moves it took back are marked so.

Text is made for Discord: times are Discord timestamps (``<t:UNIX:R>``, shown in each
reader's own time zone, pinging nobody), and a text is fitted to Discord's 2,000 characters
by leaving out the oldest moves and saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import render
import rules
from bot import undo
from bot.records import MoveRow
from bot.timeline import Step, Timeline
from rules.core import listing

LIMIT = 2000  # characters of a Discord message
LOG_COUNT = 10  # moves /log shows when no count is given
LOG_MOST = 25  # and at most
PRIVATE = "\N{LOCK}"  # marks a line only the reader may see

Annotate = Callable[[str], str]


# --------------------------------------------------------------------------- pieces


def number(version: int) -> str:
    """'`#5`': the move that made ``version``, numbered as the board numbers moves."""
    return f"`#{undo.number(version)}`"


def when(moment: float, style: str = "R") -> str:
    """A Discord timestamp: 'R' reads '3 hours ago' / 'in 2 days', 'f' a full date."""
    return f"<t:{int(moment)}:{style}>"


def step_lines(step: Step, seat: int | None, labels: Sequence[str], annotate: Annotate,
               taken_back: Collection[int] = (), *, revealed: bool = False) -> str:
    """A move as ``seat`` (None: a spectator) may see it: its number and time, the public
    events, then the reader's own private events on lines marked with a lock. A move an
    undo took back (its version in ``taken_back``) says so. ``revealed`` (a game over,
    its seed given: nothing is secret any more): every seat's private events, each line
    naming whom it was told to."""
    public = " ".join(e.text for e in step.events if e.to is None)
    secret = [e for e in step.events if e.to is not None and (revealed or e.visible_to(seat))]
    mine = [(f"{listing([label(labels, s) for s in sorted(e.to)])}: " if revealed else "")
            + annotate(e.text) for e in secret if e.to is not None]
    if step.took_back:
        moves = [undo.number(v) for v in step.took_back]
        said = (f"{label(labels, step.seat)} took back "
                + (f"move {moves[0]}." if len(moves) == 1 else
                   f"moves {moves[0]} to {moves[-1]}."))
    else:
        said = annotate(public) if public else (
            f"{label(labels, step.seat)} made a move." if not mine else "")
    back = " (taken back)" if step.version in taken_back else ""
    head = f"{number(step.version)}{back} {when(step.time)} {said}".rstrip()
    return "\n".join([head, *(f"\u2003{PRIVATE} {text}" for text in mine)])


def lost_line(move: MoveRow, labels: Sequence[str]) -> str:
    return (f"{number(move.version)} {when(move.time)} {label(labels, move.seat)} made a move "
            "(it can't be shown: it no longer replays).")


def label(labels: Sequence[str], seat: int) -> str:
    return labels[seat] if 0 <= seat < len(labels) else f"seat {seat + 1}"


def over_line(game: rules.Game[Any], state: Any, labels: Sequence[str], annotate: Annotate
              ) -> str:
    """'Game over: <reason> Final score: ...' once the game is over, else ''."""
    if state is None:
        return ""
    outcome = game.outcome(state)
    if outcome is None:
        return ""
    scores = ", ".join(f"{label(labels, s)} {p}" for s, p in enumerate(outcome.scores))
    return f"Game over: {annotate(outcome.reason)} Final score: {scores}."


def _fit(head: str, blocks: list[str], tail: list[str], limit: int, more: str
         ) -> tuple[str, int]:
    """``head``, as many of the last ``blocks`` as fit with ``tail`` in ``limit``
    characters, then ``tail``; how many blocks were left out. ``more`` is said where the
    left-out blocks were ('{moves}': '1 earlier move', '3 earlier moves')."""
    def size(parts: list[str]) -> int:
        return sum(len(p) + 1 for p in parts)

    room = limit - size([head, *tail]) - len(more) - 8
    kept: list[str] = []
    for block in reversed(blocks):
        if size([*kept, block]) > room:
            break
        kept.insert(0, block)
    dropped = len(blocks) - len(kept)
    moves = f"{dropped} earlier move{'s' if dropped != 1 else ''}"
    lines = [head, *([more.format(moves=moves)] if dropped else []), *kept, *tail]
    text = "\n".join(line for line in lines if line)
    return cut(text, limit), dropped


def cut(text: str, limit: int) -> str:
    """``text``, or as much of it as fits ``limit`` characters with an ellipsis: never in
    the middle of a timestamp or a mention (``<...>``), and after a whole word where one
    ends in its second half."""
    if len(text) <= limit:
        return text
    kept = text[: max(0, limit - 1)]
    if kept.rfind("<") > kept.rfind(">"):
        kept = kept[: kept.rfind("<")]
    space = max(kept.rfind(" "), kept.rfind("\n"))
    if space > limit // 2:
        kept = kept[:space]
    return kept.rstrip() + "\u2026"


def _blocks(past: Timeline, seat: int | None, labels: Sequence[str], annotate: Annotate,
            after: int = 0) -> list[tuple[int, str]]:
    """(version, text) of every logged move after version ``after``, as ``seat`` sees it."""
    taken_back = past.taken_back
    out = [(s.version, step_lines(s, seat, labels, annotate, taken_back))
           for s in past.steps if s.version > after]
    out += [(m.version, lost_line(m, labels)) for m in past.lost if m.version > after]
    return out


# --------------------------------------------------------------------------- /log


def log_text(past: Timeline, seat: int | None, *, count: int, labels: Sequence[str],
             annotate: Annotate, limit: int = LIMIT) -> str:
    """The last ``count`` moves, each as ``seat`` may see it (None: a spectator, public
    events only), oldest first, with move numbers and times; the game's end, if over."""
    blocks = [text for _, text in _blocks(past, seat, labels, annotate)]
    total = len(blocks)
    name = past.game.name
    if not total:
        return f"{name}: no moves yet."
    shown = blocks[-count:]
    if len(shown) < total:
        last = f"last {len(shown)}" if len(shown) > 1 else "last"
        head = f"{name}: the {last} of {total} moves"
    else:
        head = f"{name}: " + ("its one move" if total == 1 else f"all {total} moves")
    head += (
        ", as everyone sees them:" if seat is None else
        f", as you see them ({PRIVATE}: only you):")
    tail = [over_line(past.game, past.final if not past.lost else None, labels, annotate)]
    text, _ = _fit(head, shown, tail, limit, "({moves} left out to fit.)")
    return text


# --------------------------------------------------------------------------- /since


def last_move(moves: Sequence[MoveRow], seat: int) -> MoveRow | None:
    """The seat's last logged move."""
    return next((m for m in reversed(moves) if m.seat == seat), None)


def digest(past: Timeline, seat: int, now: Any, *, mark: MoveRow | None,
           labels: Sequence[str], names: Sequence[str], annotate: Annotate,
           limit: int = LIMIT) -> str:
    """What happened since ``seat``'s last move (``mark``; None: since the deal), from its
    own view: the moves with what was revealed to it, how the points changed, and its
    private picture now (the one-line summary of its view, as ``/hand`` gives it).

    ``now`` is the current state; the points before are read from the public view of the
    state after ``mark`` (``past.points``). ``names`` are the seats' names as
    the text shows them (escaped), for the summary.
    """
    game = past.game
    after = mark.version if mark is not None else 1
    head = (f"**Since your last move** ({number(mark.version)}, {when(mark.time)}) "
            f"in {game.name}:" if mark is not None else
            f"**Since the game began** in {game.name}:")
    blocks = [text for _, text in _blocks(past, seat, labels, annotate, after)]
    if not blocks:
        head += " nothing has happened yet."
    tail = [_points_line(past, now, after, labels),
            over_line(game, now, labels, annotate), _now_line(game, now, seat, labels, names)]
    text, _ = _fit(head, blocks, tail, limit, "({moves} left out; /log shows "
                                              "more.)")
    return text


def _points_line(past: Timeline, now: Any, after: int, labels: Sequence[str]) -> str:
    """'Points since then: Blue (Ann) 3 → 5, Red (Bob) 2.' (``Game.points``), or
    'Points unchanged.'; '' where the game shows no points (the summary below has them)."""
    if after > past.last:  # not replayed
        return ""
    before, current = past.points(after), past.game.points(now)
    if before is None or current is None:
        return ""
    if before == current:
        return "Points unchanged."
    return "Points since then: " + ", ".join(
        f"{label(labels, s)} {b} \u2192 {p}" if b != p else f"{label(labels, s)} {p}"
        for s, (b, p) in enumerate(zip(before, current, strict=True))) + "."


def _now_line(game: rules.Game[Any], now: Any, seat: int, labels: Sequence[str],
              names: Sequence[str]) -> str:
    """'Now: You are Blue (Ann). <your view's summary> It is your turn.'"""
    view = game.view(now, seat)
    view["names"] = list(names)
    text = f"Now: you are {label(labels, seat)}. {render.summary(game.id, view)}"
    if seat in game.to_act(now):
        text += " It is your turn."
    return text


# --------------------------------------------------------------------------- /games


@dataclass(frozen=True)
class Seated:
    """One of a player's tables, as ``/games`` lists it."""

    channel_id: int
    game: str  # the game's name
    started: bool
    yours: bool = False  # the game waits for the player
    waiting: tuple[str, ...] = ()  # the others it waits for ('Red (Bob)')
    since: float | None = None  # when that wait began
    deadline: float | None = None  # when its turn time runs out (None: no turn time)
    seated: str = ""  # before the start: who sits there
    bank: str | None = None  # with a time bank: the player's, as shown ('1d 4h')


def games_text(tables: Sequence[Seated], *, limit: int = LIMIT) -> str:
    """The player's tables, theirs to play first (longest waiting first), then the ones
    waiting for others, then those not started; each with its channel as a link."""
    if not tables:
        return ("You have no tables in this server. Open one with /game new in a channel, "
                "or join one there with /game join.")

    def order(t: Seated) -> tuple[int, float, int]:
        return (0 if t.yours else 1 if t.started else 2,
                t.since if t.since is not None else float("inf"), t.channel_id)

    lines = [_seated_line(t) for t in sorted(tables, key=order)]
    mine = sum(t.yours for t in tables)
    head = (f"Your tables in this server: {len(tables)}, your turn at {mine}."
            if mine else f"Your tables in this server: {len(tables)}; none waits for you.")
    text = head
    for shown, line in enumerate(lines):
        if len(text) + len(line) + 32 > limit:  # room left for the line saying how many more
            return f"{text}\n\u2026 and {len(lines) - shown} more."
        text += "\n" + line
    return text


def _seated_line(t: Seated) -> str:
    where = f"\u2022 <#{t.channel_id}> {t.game}: "
    if not t.started:
        return where + f"waiting to start. {t.seated}".rstrip()
    if not t.waiting and not t.yours:
        return where + "moving on (a computer player is thinking)."
    if t.yours:
        text = where + "**your turn**" + (f" (with {listing(list(t.waiting))})"
                                           if t.waiting else "")
    else:
        text = where + f"waiting for {listing(list(t.waiting))}"
    if t.since is not None:
        text += f" since {when(t.since)}"
    if t.deadline is not None:
        text += f"; the turn {'ends' if t.bank is not None else 'time runs out'} " \
                f"{when(t.deadline)}"
    if t.bank is not None:
        text += f"; your time bank: {t.bank}"
    return text + "."


# --------------------------------------------------------------------------- the daily digest

SINCE_LEAST = 150  # characters of a table's since-your-last-move lines, at least, or none
SINCE_MOST = 600  # and at most, however much room is left
DAILY_FOOT = "Play there with /play; /me digest at:off stops this digest."


@dataclass(frozen=True)
class Awaiting:
    """A table that waits for the reader, as the daily digest lists it. ``lines(n)`` is
    what happened there since the reader's last move, as their seat may see it
    (``digest``), in at most ``n`` characters."""

    channel_id: int
    server: str | None  # the server's name, if known
    game: str  # the game's name
    seat: str  # the reader's label there ('Ann (Blue)')
    others: tuple[str, ...]  # the others it waits for at the same time
    since: float  # when the wait began
    deadline: float | None  # when the turn time runs out (None: no turn time)
    lines: Callable[[int], str]
    bank: str | None = None  # with a time bank: the reader's now, as shown ('1d 4h')


def daily_text(tables: Sequence[Awaiting], *, limit: int = LIMIT) -> str:
    """One message listing the tables that wait for the reader, the most pressing first
    (the turn time that runs out first, then the longest wait): each with its game, its
    channel as a link, the server, whose turn, since when, when its turn time runs out, and
    its since-your-last-move lines, shortened to share the message. Tables whose line does
    not fit are counted at the end. '' when nothing waits."""
    if not tables:
        return ""
    ordered = sorted(tables, key=pressing)
    count = len(ordered)
    head = (f"**Your daily digest**: {count} table{'s wait' if count != 1 else ' waits'} "
            "for you.")
    lines = [_awaiting_line(t) for t in ordered]

    def more(left: int) -> str:
        return (f"\u2026 and {left} more table{'s' if left != 1 else ''} waiting for you, "
                "left out to fit: /games in each server lists them.") if left else ""

    def size(shown: int) -> int:
        parts = [head, *lines[:shown], more(count - shown), DAILY_FOOT]
        return sum(len(p) + 2 for p in parts if p)

    shown = count
    while shown > 1 and size(shown) > limit:
        shown -= 1
    room = limit - size(shown)
    slots = min(shown, max(0, room) // (SINCE_LEAST + 1))
    blocks = []
    for n, line in enumerate(lines[:shown]):
        since = ""
        if n < slots:
            since = _quoted(ordered[n].lines, min(SINCE_MOST, room // (slots - n)) - 1)
            room -= len(since) + 1 if since else 0
        blocks.append(f"{line}\n{since}" if since else line)
    text = "\n\n".join(p for p in (head, *blocks, more(count - shown), DAILY_FOOT) if p)
    return cut(text, limit)


def pressing(t: Awaiting) -> tuple[bool, float, float, int]:
    """The order of the digest: the turn time that runs out first, then the longest wait."""
    return (t.deadline is None, t.deadline or 0.0, t.since, t.channel_id)


def _awaiting_line(t: Awaiting) -> str:
    where = f"**{t.game}** in <#{t.channel_id}>" + (f" ({t.server})" if t.server else "")
    text = f"{where}: your turn as {t.seat}"
    if t.others:
        text += f", with {listing(list(t.others))}"
    text += f", since {when(t.since)}"
    if t.bank is not None:
        text += f"; your time bank: {t.bank}"
    if t.deadline is not None:
        text += f"; the turn {'ends' if t.bank is not None else 'time runs out'} " \
                f"{when(t.deadline)}"
    return text + "."


def _quoted(lines: Callable[[int], str], room: int) -> str:
    """The lines ``lines`` gives in ``room`` characters, each as a Discord quote ('> ')."""
    budget = room
    for _ in range(3):
        text = lines(budget) if budget > 0 else ""
        quoted = "\n".join(f"> {line}" for line in text.splitlines() if line.strip())
        if len(quoted) <= room:
            return quoted
        budget -= len(quoted) - room
    return cut(quoted, room)
