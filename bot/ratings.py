"""Ratings per game per server, with openskill's Plackett-Luce model (``openskill``).

A game counts when it ends by its rules with every seat played by its own human to the
end. It does not count (and ``games.unrated`` says why) once a computer player stood in for
a late player, a player resigned, a seat was handed to someone else, or a computer player
had a seat; nor outside a server. The rating update is written with the game's last move
in one transaction (``store.tables.finish_game``), so it happens exactly once per game.

Players are ranked by the outcome: the winners first (a shared win is a tie), then the
others by points (equal points tie). What players see is openskill's *ordinal*,
``mu - 3 * sigma``: a conservative rating that starts at 0 and rises as the bot grows
sure of a player's skill, so one lucky game does not top the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from openskill.models import PlackettLuce

import rules
from bot import words
from bot.records import Rated, RatingRow, SeatRow

MODEL = PlackettLuce()
TOP = 20  # players /rank lists

# Why a game does not count (``games.unrated`` holds the name; ``reason`` says it).
STOOD_IN = "stood_in"
RESIGNED = "resigned"
REPLACED = "replaced"
COMPUTER = "computer"
NO_SERVER = "no_server"


def reason(why: str) -> str:
    """Why a game does not count, said (a sentence stored before reasons were stored by
    name is said as it is)."""
    if why == STOOD_IN:
        return words.say("ratings.stood_in")
    if why == RESIGNED:
        return words.say("ratings.resigned")
    if why == REPLACED:
        return words.say("ratings.replaced")
    if why == COMPUTER:
        return words.say("ratings.computer")
    if why == NO_SERVER:
        return words.say("ratings.no_server")
    return why


def seated_reason(seats: Sequence[SeatRow]) -> str | None:
    """Why the seats as they end the game keep it from counting, if they do."""
    if any(s.handed == "resigned" for s in seats):
        return RESIGNED
    if any(s.handed == "replaced" for s in seats):
        return REPLACED
    if any(s.kind != "human" or s.user_id is None for s in seats):
        return COMPUTER
    return None


def ranks(outcome: rules.Outcome) -> list[int]:
    """Each seat's place (0 is best): winners share the first, the others follow by points."""
    others = sorted({p for s, p in enumerate(outcome.scores) if s not in outcome.winners},
                    reverse=True)
    return [0 if s in outcome.winners else 1 + others.index(p)
            for s, p in enumerate(outcome.scores)]


def rater(game_id: str, outcome: rules.Outcome, seats: Sequence[SeatRow], now: float
          ) -> Callable[[int, list[RatingRow | None]], list[RatingRow]]:
    """What ``store.tables.finish_game`` calls with the seats' ratings before the game (None: a
    first rated game): their ratings after it, one team per seat, placed by ``ranks``."""

    def rate(guild_id: int, before: list[RatingRow | None]) -> list[RatingRow]:
        teams = [[MODEL.rating() if r is None else MODEL.rating(mu=r.mu, sigma=r.sigma)]
                 for r in before]
        new = MODEL.rate(teams, ranks=[float(r) for r in ranks(outcome)])
        share = 1 / len(outcome.winners) if outcome.winners else 0.0
        return [RatingRow(guild_id, game_id, seat.user_id or 0, seat.name, team[0].mu,
                          team[0].sigma, (old.games if old else 0) + 1,
                          (old.wins if old else 0.0) + (share if s in outcome.winners else 0),
                          now)
                for s, (seat, old, team) in enumerate(zip(seats, before, new, strict=True))]

    return rate


def shown(row: RatingRow | None) -> float:
    """The rating players see: openskill's ordinal (mu - 3 sigma), 0 before any game."""
    if row is None:
        return MODEL.rating().ordinal()
    return MODEL.rating(mu=row.mu, sigma=row.sigma).ordinal()


def _signed(value: float) -> str:
    return f"{value:+.1f}".replace("+0.0", "±0.0").replace("-0.0", "±0.0")


def result_line(rated: Rated | None, names: Sequence[str]) -> str:
    """The final reply's line on the ratings: each player's new rating and change, or why
    the game did not count. ``rated`` None: the game ended before this process built the
    reply (a restart); the ratings were written with the last move all the same."""
    if rated is None:
        return words.say("ratings.see_rank")
    if rated.unrated is not None:
        return words.say("ratings.not_rated", why=reason(rated.unrated))
    changes = ", ".join(
        words.say("ratings.change", player=name, rating=f"{shown(new):.1f}",
                  change=_signed(shown(new) - shown(old)))
        for name, old, new in zip(names, rated.before, rated.after, strict=True))
    return words.say("ratings.rated", changes=changes)


def ranking(rows: Sequence[RatingRow]) -> list[RatingRow]:
    """Best first: by the rating shown, then more games, then the name."""
    return sorted(rows, key=lambda r: (-shown(r), -r.games, r.name.casefold(), r.user_id))


def table_text(game_name: str, rows: Sequence[RatingRow], shown_name: Callable[[str], str]
               ) -> str:
    """/rank's answer: the server's table for a game, best first, names as ``shown_name``
    shows them (escaped in Discord: no markdown, no mentions)."""
    if not rows:
        return words.say("ratings.nobody", game=game_name)
    lines = [words.say("ratings.table", game=game_name)]
    for place, row in enumerate(ranking(rows)[:TOP], start=1):
        won = (words.say("ratings.one_win") if row.wins == 1
               else words.say("ratings.wins", wins=f"{row.wins:g}"))
        lines.append(words.say("ratings.row", place=place, player=shown_name(row.name),
                               rating=f"{shown(row):.1f}", count=row.games, won=won))
    if len(rows) > TOP:
        lines.append(words.say("ratings.more", count=len(rows) - TOP))
    return "\n".join(lines)
