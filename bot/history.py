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

Every sentence is the catalogue's (``bot/words/en/history.toml``), its fields marked by role:
a time is ``{time:R}``, which Discord shows in each reader's own time zone and the terminal
as a local date; a move number is ``{number:mark}``. A text is fitted to Discord's 2,000
characters by leaving out the oldest moves and saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import render
import rules
from bot import undo, words
from bot.records import MoveRow
from bot.timeline import Step, Timeline
from rules.core import listing

LIMIT = 2000  # characters of a Discord message
LOG_COUNT = 10  # moves /log shows when no count is given
LOG_MOST = 25  # and at most
LOG_PAGES = 5  # messages /log fills at most (``pages``): a long computer turn's every line
PRIVATE = "\N{LOCK}"  # marks a line only the reader may see

Annotate = Callable[[str], str]


# --------------------------------------------------------------------------- pieces


def numbered(version: int) -> str:
    """'#5': the move that made ``version``, numbered as the board numbers moves (a
    template's ``{number:mark}``)."""
    return f"#{undo.number(version)}"


def step_lines(step: Step, seat: int | None, labels: Sequence[str], annotate: Annotate,
               taken_back: Collection[int] = (), *, revealed: bool = False) -> str:
    """A move as ``seat`` (None: a spectator) may see it: its number and time, the public
    events, then the reader's own private events on lines marked with a lock. A move an
    undo took back (its version in ``taken_back``) says so. ``revealed`` (a game over,
    its seed given: nothing is secret any more): every seat's private events, each line
    naming whom it was told to."""
    public = " ".join(e.text for e in step.events if e.to is None)
    secret = [e for e in step.events if e.to is not None and (revealed or e.visible_to(seat))]
    mine = [words.say("history.told_to", said=annotate(e.text),
                      players=listing([label(labels, s) for s in sorted(e.to)]))
            if revealed else annotate(e.text) for e in secret if e.to is not None]
    if step.took_back:
        moves = [undo.number(v) for v in step.took_back]
        said = words.say("history.took_back", player=label(labels, step.seat),
                         count=len(moves), first=moves[0], last=moves[-1])
    else:
        said = annotate(public) if public else (
            words.say("history.made_a_move", player=label(labels, step.seat))
            if not mine else "")
    fields = {"number": numbered(step.version), "time": step.time, "said": said}
    head = (words.say("history.step_taken_back", **fields) if step.version in taken_back
            else words.say("history.step", **fields)).rstrip()
    return "\n".join([head, *(f"\u2003{PRIVATE} {text}" for text in mine)])


def lost_line(move: MoveRow, labels: Sequence[str]) -> str:
    return words.say("history.lost", number=numbered(move.version), time=move.time,
                     player=label(labels, move.seat))


def label(labels: Sequence[str], seat: int) -> str:
    return labels[seat] if 0 <= seat < len(labels) else words.say("history.seat",
                                                                   seat=seat + 1)


def over_line(game: rules.Game[Any], state: Any, labels: Sequence[str], annotate: Annotate
              ) -> str:
    """'Game over: <reason> Final score: ...' once the game is over, else ''."""
    if state is None:
        return ""
    outcome = game.outcome(state)
    if outcome is None:
        return ""
    scores = ", ".join(words.say("history.points", player=label(labels, s), points=p)
                       for s, p in enumerate(outcome.scores))
    return words.say("history.game_over", reason=annotate(outcome.reason), scores=scores)


def _fit(head: str, blocks: list[str], tail: list[str], limit: int,
         more: Callable[[int], str]) -> tuple[str, int]:
    """``head``, as many of the last ``blocks`` as fit with ``tail`` in ``limit``
    characters, then ``tail``; how many blocks were left out. ``more(n)`` is said where
    the ``n`` left-out blocks were."""
    def size(parts: list[str]) -> int:
        return sum(len(p) + 1 for p in parts)

    room = limit - size([head, *tail]) - len(more(len(blocks))) - 8
    kept: list[str] = []
    for block in reversed(blocks):
        if size([*kept, block]) > room:
            break
        kept.insert(0, block)
    dropped = len(blocks) - len(kept)
    lines = [head, *([more(dropped)] if dropped else []), *kept, *tail]
    text = "\n".join(line for line in lines if line)
    return cut(text, limit), dropped


def pages(text: str, limit: int = LIMIT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, each ending at a line's end (a
    line too long alone is ``cut``)."""
    out: list[str] = []
    for line in text.split("\n"):
        line = cut(line, limit)
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


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
             annotate: Annotate, limit: int = LIMIT, messages: int = 1) -> str:
    """The last ``count`` moves, each as ``seat`` may see it (None: a spectator, public
    events only), oldest first, with move numbers and times; the game's end, if over. As
    many as fit ``messages`` messages of ``limit`` characters (``pages``), the oldest
    left out first, and the head counting those shown ('the last 4 of 41')."""
    blocks = [text for _, text in _blocks(past, seat, labels, annotate)]
    total = len(blocks)
    name = past.game.name
    if not total:
        return words.say("history.log.nothing", game=name)
    shown = blocks[-count:]
    tail = [over_line(past.game, past.final if not past.lost else None, labels, annotate)]

    def more(n: int) -> str:
        return words.say("history.log.left_out", count=n)

    def fitted(room: int) -> str:  # the head counts the moves that fit ``room``
        text, dropped = _fit(_log_head(name, len(shown), total, seat is None), shown, tail,
                             room, more)
        if dropped:
            text, _ = _fit(_log_head(name, len(shown) - dropped, total, seat is None),
                           shown, tail, room, more)
        return text

    room = messages * limit
    text = fitted(room)
    while len(pages(text, limit)) > messages and room > limit:  # pages end at a line's
        room -= limit // 4                                        # end: some run short
        text = fitted(room)
    return text


def _log_head(game: str, count: int, total: int, public: bool) -> str:
    """'Cube Conquest: the last 3 of 12 moves, as everyone sees them:' and its kin."""
    fields = {"game": game, "count": count, "total": total, "lock": PRIVATE}
    if count < total:
        return (words.say("history.log.last_public", **fields) if public
                else words.say("history.log.last_yours", **fields))
    return (words.say("history.log.all_public", **fields) if public
            else words.say("history.log.all_yours", **fields))


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
    blocks = [text for _, text in _blocks(past, seat, labels, annotate, after)]
    if mark is not None:
        fields = {"heading": words.say("history.since.last_move"), "game": game.name,
                  "number": numbered(mark.version), "time": mark.time}
        head = (words.say("history.since.mark", **fields) if blocks
                else words.say("history.since.mark_nothing", **fields))
    else:
        fields = {"heading": words.say("history.since.began"), "game": game.name}
        head = (words.say("history.since.start", **fields) if blocks
                else words.say("history.since.start_nothing", **fields))
    tail = [_points_line(past, now, after, labels),
            over_line(game, now, labels, annotate), _now_line(game, now, seat, labels, names)]
    text, _ = _fit(head, blocks, tail, limit,
                   lambda n: words.say("history.since.left_out", count=n))
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
        return words.say("history.since.unchanged")
    return words.say("history.since.points", changes=", ".join(
        words.say("history.since.changed", player=label(labels, s), before=b, points=p)
        if b != p else words.say("history.points", player=label(labels, s), points=p)
        for s, (b, p) in enumerate(zip(before, current, strict=True))))


def _now_line(game: rules.Game[Any], now: Any, seat: int, labels: Sequence[str],
              names: Sequence[str]) -> str:
    """'Now: You are Blue (Ann). <your view's summary> It is your turn.'"""
    view = game.view(now, seat)
    view["names"] = list(names)
    fields = {"player": label(labels, seat), "summary": render.summary(game.id, view)}
    if seat in game.to_act(now):
        return words.say("history.since.now_your_turn", **fields)
    return words.say("history.since.now", **fields)


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
        return words.say("history.games.none")

    def order(t: Seated) -> tuple[int, float, int]:
        return (0 if t.yours else 1 if t.started else 2,
                t.since if t.since is not None else float("inf"), t.channel_id)

    lines = [_seated_line(t) for t in sorted(tables, key=order)]
    mine = sum(t.yours for t in tables)
    head = (words.say("history.games.head", count=len(tables), yours=mine)
            if mine else words.say("history.games.head_none_yours", count=len(tables)))
    text = head
    for shown, line in enumerate(lines):
        if len(text) + len(line) + 32 > limit:  # room left for the line saying how many more
            return text + "\n" + words.say("history.games.more", count=len(lines) - shown)
        text += "\n" + line
    return text


def _seated_line(t: Seated) -> str:
    where = {"channel": t.channel_id, "game": t.game}
    if not t.started:
        return words.say("history.games.waiting_to_start", seated=t.seated, **where).rstrip()
    if not t.waiting and not t.yours:
        return words.say("history.games.moving_on", **where)
    state = {"players": listing(list(t.waiting)), "since": t.since,
             "heading": words.say("history.games.your_turn")}
    if t.yours and t.waiting:
        first = (words.say("history.games.yours_with", **state) if t.since is None
                 else words.say("history.games.yours_with_since", **state))
    elif t.yours:
        first = (words.say("history.games.yours", **state) if t.since is None
                 else words.say("history.games.yours_since", **state))
    else:
        first = (words.say("history.games.waiting_for", **state) if t.since is None
                 else words.say("history.games.waiting_for_since", **state))
    clauses = [first, *_deadline(t.deadline, t.bank), *_bank(t.bank)]
    return words.say("history.games.line", status="; ".join(clauses), **where)


def _deadline(deadline: float | None, bank: str | None) -> list[str]:
    """'the turn ends <when>' (with a time bank) or 'the turn time runs out <when>'."""
    if deadline is None:
        return []
    if bank is not None:
        return [words.say("history.turn.ends", deadline=deadline)]
    return [words.say("history.turn.time_runs_out", deadline=deadline)]


def _bank(bank: str | None) -> list[str]:
    return [] if bank is None else [words.say("history.turn.bank", bank=bank)]


# --------------------------------------------------------------------------- the daily digest

SINCE_LEAST = 150  # characters of a table's since-your-last-move lines, at least, or none
SINCE_MOST = 600  # and at most, however much room is left


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
    head = words.say("history.daily.head", count=count,
                     heading=words.say("history.daily.heading"))
    lines = [_awaiting_line(t) for t in ordered]
    foot = words.say("history.daily.foot")

    def more(left: int) -> str:
        return words.say("history.daily.more", count=left) if left else ""

    def size(shown: int) -> int:
        parts = [head, *lines[:shown], more(count - shown), foot]
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
    text = "\n\n".join(p for p in (head, *blocks, more(count - shown), foot) if p)
    return cut(text, limit)


def pressing(t: Awaiting) -> tuple[bool, float, float, int]:
    """The order of the digest: the turn time that runs out first, then the longest wait."""
    return (t.deadline is None, t.deadline or 0.0, t.since, t.channel_id)


def _awaiting_line(t: Awaiting) -> str:
    turn = {"player": t.seat, "players": listing(list(t.others)), "since": t.since}
    first = (words.say("history.daily.yours_with", **turn) if t.others
             else words.say("history.daily.yours", **turn))
    status = "; ".join([first, *_bank(t.bank), *_deadline(t.deadline, t.bank)])
    where = {"game": t.game, "channel": t.channel_id, "status": status}
    if t.server:
        return words.say("history.daily.line_server", server=t.server, **where)
    return words.say("history.daily.line", **where)


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
