"""Fair shuffles that anyone can check: the commitment, the exported move log, ``verify``.

When a game starts, the service draws its seed (``secrets.randbelow``) and a salt
(``secrets.token_hex``) and posts the *commitment*: the SHA-256 of the UTF-8 text
``f"{seed}:{salt}"`` (the seed in decimal, a colon, the salt as lower-case hex). Both stay
secret until the game is over; then the channel gets them, and ``/game export`` gives the
move log as a file (``document``). ``boardroom verify FILE`` (``main``) recomputes the
commitment and replays every move from the seed with the open rules modules, so every deal,
draw and roll can be checked by anyone. docs/fairness.md explains it for players.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import rules
from bot import words
from bot.records import GameRow, MoveRow, SeatRow
from bot.timeline import Timeline
from rules.core import listing, quote

FORMAT = "boardroom-move-log"  # what an exported file says it is
FORMAT_VERSION = 1  # raised when the document changes in a way an older verify cannot read
HASHED = "SHA-256 of the UTF-8 text '{seed}:{salt}'"  # said in every exported file
FILE_LIMIT = 64 * 1024 * 1024  # bytes: a larger file is not a move log of ours


def hash_input(seed: int, salt: str) -> bytes:
    """The exact bytes the commitment hashes: the seed in decimal, ':', the salt."""
    return f"{seed}:{salt}".encode()


def commitment(seed: int, salt: str) -> str:
    """The commitment to a game's seed: SHA-256 of ``hash_input``, as 64 hex digits."""
    return hashlib.sha256(hash_input(seed, salt)).hexdigest()


def announced(committed: str) -> str:
    """The line of the opening message that posts the commitment (nothing of the seed)."""
    return words.say("fairness.announced", commitment=committed)


def revealed(seed: int, salt: str, committed: str, export: str = "/game export") -> str:
    """The line that reveals seed and salt once the game is over, and how to check them
    (``export``: how the surface spells the command that saves the move log)."""
    return words.say("fairness.revealed", seed=seed, salt=salt, hashed=f"{seed}:{salt}",
                     commitment=committed, export=export, command="boardroom verify")


def boardroom_version() -> str:
    """This Boardroom's version, as installed (the rules that replay a log are its own)."""
    try:
        return metadata.version("boardroom")
    except metadata.PackageNotFoundError:
        return "unknown"


def moment(seconds: float | None) -> str | None:
    """A stored time (unix seconds) in ISO 8601, UTC: '2026-01-01T12:00:00.000Z'."""
    if seconds is None:
        return None
    stamp = datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


# --------------------------------------------------------------------------- the export


def document(row: GameRow, game: rules.Game[Any], seats: Sequence[SeatRow],
             moves: Sequence[MoveRow], outcome: rules.Outcome | None) -> dict[str, Any]:
    """A finished game's move log as one JSON-able document: what ``verify`` checks.

    Every row of the log is there verbatim (seat, canonical text, time), in order, with
    the seed, the salt and the commitment. Only for a game that is over: the caller
    makes sure of that, since the seed and salt must stay secret until then.
    """
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "boardroom": boardroom_version(),
        "game": game.id,
        "game_name": game.name,
        "table": row.id,
        "status": row.status,
        "started": moment(row.started),
        "finished": moment(row.finished),
        "options": row.options,
        "players": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level,
                     "handed": s.handed} for s in seats],
        "seed": row.seed,
        "salt": row.salt,
        "commitment": row.commitment,
        "commitment_hash": HASHED,
        "moves": [{"number": m.version - 1, "version": m.version, "seat": m.seat,
                   "text": m.text, "time": moment(m.time), "unix": m.time} for m in moves],
        "outcome": None if outcome is None else {
            "scores": list(outcome.scores), "winners": sorted(outcome.winners),
            "reason": outcome.reason},
    }


def dumps(doc: dict[str, Any]) -> bytes:
    """The file ``/game export`` gives: the document as UTF-8 JSON, names as written, one
    key a line and each player and each move on a line of its own (easy to read and diff)."""
    def value(key: str, item: Any) -> str:
        if key in ("players", "moves") and isinstance(item, list) and item:
            rows = ",\n".join(f"  {json.dumps(each, ensure_ascii=False)}" for each in item)
            return f"[\n{rows}\n ]"
        return json.dumps(item, ensure_ascii=False)

    body = ",\n".join(f" {json.dumps(key)}: {value(key, item)}" for key, item in doc.items())
    return f"{{\n{body}\n}}\n".encode()


def file_name(game_id: str, table: int) -> str:
    return f"boardroom-{game_id}-table-{table}.json"


# --------------------------------------------------------------------------- verifying


class Unverified(Exception):
    """The file does not check out, or is no move log. ``str()`` is one sentence."""


@dataclass(frozen=True)
class Replayed:
    """What a move log replays to: for the report of ``boardroom verify``."""

    game: rules.Game[Any]
    table: Any
    names: list[str]
    called: list[str]  # what the rules' sentences call each seat ('Blue', 'Player 1')
    seed: int
    salt: str
    commitment: str
    moves: list[MoveRow]
    said: list[list[rules.Event]]  # each move's events, in order
    outcome: rules.Outcome | None

    def report(self, *, events: bool = False) -> list[str]:
        """A few lines: the commitment, how many moves replayed, how it ended; with
        ``events``, every move's events too (each deal, draw and roll)."""
        seats = [words.say("table.label", player=name, colour=called)
                 for name, called in zip(self.names, self.called, strict=True)]
        lines = [words.say("fairness.commitment_ok", hashed=f"{self.seed}:{self.salt}",
                           commitment=self.commitment),
                 words.say("fairness.compare"),
                 words.say("fairness.players", game=self.game.name, table=self.table,
                           count=len(self.names), players=listing(seats))]
        if events:
            for move, said in zip(self.moves, self.said, strict=True):
                lines.append(words.say("fairness.move", number=move.version - 1,
                                       player=self._name(move.seat),
                                       typed=quote(move.text, 60)))
                lines += ["  " + (event.text if event.to is None else words.say(
                    "fairness.told_only", line=event.text,
                    players=listing([self._name(s) for s in sorted(event.to)])))
                          for event in said]
        lines.append(words.say("fairness.replayed", count=len(self.moves),
                               version=boardroom_version()))
        if self.outcome is None:
            lines.append(words.say("fairness.ended"))
        else:
            scores = ", ".join(words.say("replies.score", player=self._name(s), points=p)
                               for s, p in enumerate(self.outcome.scores))
            lines.append(words.say("fairness.outcome", reason=self.outcome.reason,
                                   scores=scores))
        return lines

    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return words.say("fairness.seat", seat=seat + 1)


def verify(data: bytes | str) -> Replayed:
    """Check an exported move log: its commitment against its seed and salt, then every
    move replayed from the seed with the rules modules (``rules.GAMES[id].new`` and
    ``play``, as the service replays a log: ``bot.timeline``), and the outcome it records.

    ``Unverified`` says in one sentence what does not check out: a malformed file, a
    wrong commitment, a move the rules refuse (by its number), another outcome.
    """
    doc = _parse(data)
    game = rules.GAMES[doc["game"]]
    seed, salt, committed = doc["seed"], doc["salt"], doc["commitment"]
    expected = commitment(seed, salt)
    if expected != committed.lower():
        raise Unverified(words.say("fairness.wrong_commitment", hashed=f"{seed}:{salt}",
                                   expected=expected, commitment=committed[:64]))
    names = [str(p["name"]) for p in doc["players"]]
    moves = [MoveRow(int(m.get("version", n + 2)), m["seat"], m["text"],
                     float(m.get("unix") or 0)) for n, m in enumerate(doc["moves"])]
    options = doc["options"] or None
    try:
        line = Timeline(game, len(names), seed, options, moves).whole()
    except Exception:
        raise Unverified(_refusal(game, len(names), seed, options, moves, names)) from None
    state, said = line.final, [list(step.events) for step in line.steps]
    outcome = game.outcome(state)
    colours = game.view(state, None).get("colours")
    called = ([str(c).capitalize() for c in colours]
              if isinstance(colours, list) and len(colours) == len(names)
              else [f"Player {seat + 1}" for seat in range(len(names))])
    recorded = doc.get("outcome")
    if recorded is not None or "outcome" in doc:
        got = None if outcome is None else (list(outcome.scores), sorted(outcome.winners))
        said_so = None if recorded is None else (recorded.get("scores"),
                                                 recorded.get("winners"))
        if got != said_so:
            raise Unverified(words.say("fairness.wrong_ending", replayed=_ending(got),
                                       recorded=_ending(said_so)))
    return Replayed(game, doc.get("table"), names, called, seed, salt, committed.lower(), moves,
                    said, outcome)


def _refusal(game: rules.Game[Any], players: int, seed: int, options: Any,
             moves: list[MoveRow], names: list[str]) -> str:
    """Why a log does not replay, naming the first move the rules refuse: the shortest
    prefix of the log that fails to replay, found by halving (a log replays as a whole,
    undo entries and all, so a move is judged with everything before it)."""

    def fails(count: int) -> Exception | None:
        try:
            Timeline(game, players, seed, options, moves[:count]).whole()
        except Exception as error:
            return error
        return None

    error = fails(0)
    if error is not None:
        return words.say("fairness.wrong_setup", game=game.name, count=players,
                         why=_why(error))
    good, bad = 0, len(moves)  # the first ``good`` moves replay; all ``bad`` do not
    while bad - good > 1:
        middle = (good + bad) // 2
        if fails(middle) is None:
            good = middle
        else:
            bad = middle
    move, error = moves[bad - 1], fails(bad)
    who = (names[move.seat] if 0 <= move.seat < len(names)
           else words.say("fairness.seat", seat=move.seat + 1))
    return words.say("fairness.wrong_move", number=bad, typed=quote(move.text), player=who,
                     why=_why(error))


def _why(error: Exception | None) -> str:
    """A refusal's sentence (the rules'), or the kind of error for anything else."""
    if isinstance(error, rules.GameError):
        return str(error)
    return words.say("fairness.wrong_unplayable", error=type(error).__name__)


def _ending(result: Any) -> str:
    if result is None:
        return words.say("fairness.wrong_not_over")
    return words.say("fairness.wrong_result", totals=result[0], winners=result[1])


def _parse(data: bytes | str) -> dict[str, Any]:
    """The document, checked for the shape ``verify`` needs (else ``Unverified``)."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        doc = json.loads(text)
    except (UnicodeDecodeError, ValueError):
        raise Unverified(words.say("fairness.wrong_not_json")) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Unverified(words.say("fairness.wrong_no_format", format=FORMAT))
    version = doc.get("format_version")
    if not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise Unverified(words.say("fairness.wrong_format_version", typed=quote(version),
                                   most=FORMAT_VERSION))
    if doc.get("game") not in rules.GAMES:
        raise Unverified(words.say("fairness.wrong_unknown_game", typed=quote(doc.get("game")),
                                   games=listing(sorted(rules.GAMES))))
    if any(doc.get(key) is None for key in ("seed", "salt", "commitment")):
        raise Unverified(words.say("fairness.wrong_no_commitment"))
    checks = {
        "seed": _whole(doc["seed"]),
        "salt": isinstance(doc["salt"], str),
        "commitment": isinstance(doc["commitment"], str),
        "options": isinstance(doc.get("options"), dict),
        "players": isinstance(doc.get("players"), list) and bool(doc["players"]) and all(
            isinstance(p, dict) and "name" in p for p in doc["players"]),
        "moves": isinstance(doc.get("moves"), list) and all(
            isinstance(m, dict) and _whole(m.get("seat")) and isinstance(m.get("text"), str)
            and _whole(m.get("version", 0))
            and isinstance(m.get("unix", 0), int | float) and not isinstance(m.get("unix"), bool)
            for m in doc["moves"]),
        "outcome": doc.get("outcome") is None or isinstance(doc["outcome"], dict),
    }
    wrong = [key for key, fine in checks.items() if not fine]
    if wrong:
        raise Unverified(words.say("fairness.wrong_malformed", fields=listing(wrong),
                                   count=len(wrong)))
    return doc


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------- the command


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="boardroom verify",
        description="Check a game's move log from /game export: the commitment posted at "
        "the start against the revealed seed and salt, then every move replayed from the "
        "seed with Boardroom's open rules modules. Exit status 0: it checks out; 1: it "
        "does not (one sentence says why).")
    p.add_argument("log", help="the exported move log (a .json file)")
    p.add_argument("--events", action="store_true",
                   help="also print every move's events: each deal, draw and roll")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``boardroom verify FILE [--events]``: the report on stdout and 0, or one sentence on
    stderr and 1, in plain text (a terminal's)."""
    args = parser().parse_args(argv)
    with words.speaking(words.PLAIN):
        return _verified(Path(args.log), events=args.events)


def _verified(path: Path, *, events: bool) -> int:
    try:
        if path.stat().st_size > FILE_LIMIT:
            raise Unverified(words.say("fairness.wrong_too_large", path=path))
        checked = verify(path.read_bytes())
    except OSError as error:
        print(words.say("fairness.wrong_unreadable", path=path,
                        error=error.strerror or error), file=sys.stderr)
        return 1
    except Unverified as error:
        print(words.say("fairness.wrong_failed", text=str(error)), file=sys.stderr)
        return 1
    try:
        print("\n".join(checked.report(events=events)), flush=True)
    except BrokenPipeError:  # the reader stopped early (| head): no traceback for that
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
