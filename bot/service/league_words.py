"""What a league's message and lists say (``Told``): the sign-up message with who has
signed up, the standings message (the round under way, who sits out, how it ended), a
server's leagues and a member's, all from the catalogue (``bot/words/en/leagues.toml``)."""

from __future__ import annotations

from collections.abc import Callable

import rules
from bot import leagues, scheduler, words
from bot.records import LeagueRow
from bot.service.league_records import Held, Shown


class Told:
    """The sentences of leagues, names shown as the surface shows them (``shown``)."""

    def __init__(self, shown: Callable[[str], str]) -> None:
        self.shown = shown

    def names(self, held: Held, members: list[int]) -> str:
        return ", ".join(self.shown(held.names.get(m, "?")) for m in members)

    def signup(self, row: LeagueRow, held: Held) -> str:
        """The sign-up message: what the league is, and who has signed up so far."""
        settings = held.settings
        rule = words.say("leagues.rule_play_on") if settings.deadline == "play on" \
            else words.say("leagues.rule_stand_in")
        intro = words.say("leagues.signup", organiser=self.shown(held.organiser),
                          league=row.id, game=rules.GAMES[row.game].name,
                          pairing=settings.format, count=settings.rounds,
                          duration=scheduler.duration(settings.round_seconds),
                          size=settings.per_table, rule=rule)
        signed = words.say("leagues.signed", count=len(held.names),
                           players=self.names(held, list(held.names))) \
            if held.names else words.say("leagues.nobody")
        return f"{intro}\n{signed}"

    def shown_standings(self, row: LeagueRow, held: Held) -> Shown:
        """The standings as text (for screen readers) and as the picture's data."""
        game = rules.GAMES[held.settings.game]
        league = held.league
        if league is None:
            return Shown(words.say("leagues.heading_start", league=row.id, game=game.name),
                         "", {})
        table = leagues.standings(league)
        names = {e.number: self.shown(held.names.get(e.member, "?")) for e in league.entries}
        heading = (words.say("leagues.heading", league=row.id, game=game.name,
                             round=table.after, rounds=held.settings.rounds)
                   if table.after else
                   words.say("leagues.heading_start", league=row.id, game=game.name))
        return Shown(heading, leagues.text(table, names),
                     leagues.picture(table, names, f"{game.name}: league {row.id}"))

    def standings(self, row: LeagueRow, held: Held, shown: Shown) -> str:
        """The standings message: its heading, the round under way or how the league
        ended, and the standings as text."""
        lines = [shown.heading]
        round_ = held.current()
        league = held.league
        if league is not None and round_ is not None:
            members = {e.number: e.member for e in league.entries}
            if row.status == "running" and row.due is not None:
                lines.append(words.say("leagues.round", round=round_.number, league=row.id,
                                       count=len(round_.tables), time=row.due))
            elif row.status == "running":
                lines.append(words.say("leagues.play_on", round=round_.number,
                                       league=row.id))
            if row.status in ("running", "paused") and round_.byes:
                lines.append(words.say("leagues.bye", players=self.names(
                    held, [members[b] for b in round_.byes])))
            if row.status in ("running", "paused") and round_.rematches:
                lines.append(words.say("leagues.rematches", count=round_.rematches))
        if row.status == "paused":
            lines.append(words.say("leagues.paused", league=row.id))
        elif row.status == "ended":
            lines.append(words.say("leagues.ended", league=row.id))
        elif row.status == "over" and league is not None:
            first = leagues.standings(league).rows[0]
            lines.append(words.say("leagues.over", league=row.id,
                                   player=self.shown(held.names.get(first.member, "?"))))
        return "\n".join([*lines, "", shown.text])

    def status(self, row: LeagueRow, held: Held) -> str:
        round_ = held.current()
        number = round_.number if round_ is not None else 1
        if row.status == "signup":
            return words.say("leagues.status_signup")
        if row.status == "running":
            return words.say("leagues.status_running", round=number,
                             rounds=held.settings.rounds)
        if row.status == "paused":
            return words.say("leagues.status_paused", round=number,
                             rounds=held.settings.rounds)
        if row.status == "over":
            return words.say("leagues.status_over")
        return words.say("leagues.status_ended")

    def listed(self, row: LeagueRow, held: Held) -> str:
        """One line of ``/league list``."""
        members = list(held.names) if held.league is None else [
            e.member for e in held.league.entries]
        return words.say("leagues.listed", league=row.id, game=rules.GAMES[row.game].name,
                         pairing=held.settings.format, status=self.status(row, held),
                         players=self.names(held, members) or words.say("leagues.nobody"))

    def mine(self, row: LeagueRow, held: Held, member: int) -> str | None:
        """A member's place in a league, if they hold one."""
        if held.league is None:
            return self.listed(row, held) if member in held.names else None
        table = leagues.standings(held.league)
        for line in table.rows:
            if line.member == member:
                return words.say("leagues.mine", league=row.id,
                                 game=rules.GAMES[row.game].name, place=line.rank,
                                 count=len(table.rows),
                                 points=leagues.ranking.points_said(line.points))
        return None
