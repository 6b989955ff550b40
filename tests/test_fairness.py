"""Fair shuffles that anyone can check: the commitment posted at the start, seed and salt
secret until the end and revealed then, ``/game export``'s move log, and
``boardroom verify`` passing on real games and failing on tampered or malformed files."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import rules
from bot import fairness, undo
from bot.service import TableService
from bot.service.replies import Reply
from bot.service.table import TableError
from bot.store import Store
from tests.conftest import Clock

CH, OTHER = 700, 701
ANN, BOB = 201, 202


def texts(reply: Reply) -> list[str]:
    """Every text a reply holds: the channel's, the caller's and each DM."""
    return [reply.public, reply.ephemeral, *(p.text for p in reply.private)]


async def start(service: TableService, game: str, channel: int = CH, *,
                names: tuple[str, str] = ("Ann", "Bob")) -> Reply:
    """Ann opens ``game``, Bob joins, Ann starts with a seed from ``secrets``."""
    await service.open(channel, 1, ANN, names[0], game)
    await service.join(channel, BOB, names[1])
    return await service.start(channel, ANN)


async def play_out(service: TableService, clock: Clock, rng: random.Random,
                   channel: int = CH, *, limit: int = 2000, watch: list[str] | None = None
                   ) -> Reply:
    """The awaited players make random legal moves until the game is over; with ``watch``,
    everything the game shows on the way (before the last move) is collected there."""
    for _ in range(limit):
        waiting = await service.waiting(channel)
        user = waiting[0][0]
        moves = await service.legal_moves(channel, user)
        clock.t += 60
        if watch is not None:
            watch += [*texts(await service.board(channel)), *texts(await service.status(channel)),
                      *texts(await service.hand(channel, ANN)),
                      *texts(await service.hand(channel, BOB)),
                      await service.hint(channel, user), *moves]
            with pytest.raises(TableError) as refused:
                await service.export(channel)
            watch.append(str(refused.value))
        reply = await service.play(channel, user, rng.choice(moves))
        if reply.over:
            return reply
        if watch is not None:
            watch += texts(reply)
    raise AssertionError("the game did not end")


async def exported(service: TableService, channel: int = CH) -> dict[str, Any]:
    name, data = await service.export(channel)
    assert name.endswith(".json")
    loaded: dict[str, Any] = json.loads(data.decode("utf-8"))
    return loaded


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --------------------------------------------------------------------------- the commitment


async def test_the_commitment_is_the_sha256_of_seed_and_salt_posted_at_the_start(
        service: TableService, store: Store) -> None:
    reply = await start(service, "crystallia")
    row = await store.tables.active_game(CH)
    assert row is not None and row.seed is not None and row.salt is not None
    assert len(row.salt) == 32 and int(row.salt, 16) >= 0  # 16 random bytes, in hex
    assert row.commitment == sha256(f"{row.seed}:{row.salt}")
    assert fairness.hash_input(row.seed, row.salt) == f"{row.seed}:{row.salt}".encode()
    assert f"Fair shuffle: commitment `{row.commitment}`" in reply.public
    assert reply.public.index("Crystallia begins") < reply.public.index("Fair shuffle")


async def test_every_game_gets_its_own_salt(service: TableService, store: Store) -> None:
    await start(service, "battle-tiles", CH)
    await start(service, "battle-tiles", OTHER)
    first, second = await store.tables.active_game(CH), await store.tables.active_game(OTHER)
    assert first is not None and second is not None
    assert first.salt != second.salt and first.commitment != second.commitment


async def test_seed_and_salt_show_nowhere_before_the_end_and_are_revealed_then(
        service: TableService, store: Store, clock: Clock,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="boardroom")  # the bot's own log, all of it
    seen = texts(await start(service, "battle-tiles"))
    row = await store.tables.active_game(CH)
    assert row is not None and row.seed is not None and row.salt is not None
    seed, salt = str(row.seed), row.salt
    assert len(seed) >= 6  # long enough not to turn up by chance in a sentence
    last = await play_out(service, clock, random.Random(3), watch=seen)
    seen += [record.getMessage() for record in caplog.records
             if record.name.startswith("boardroom")]
    assert len(seen) > 100
    for text in seen:
        assert seed not in text and salt not in text, text
    assert row.commitment is not None and any(row.commitment in text for text in seen)
    # The last move's reply ends the game and reveals both, with how to check them.
    assert "Game over" in last.public
    reveal = fairness.revealed(row.seed, salt, row.commitment)
    assert reveal in last.public.splitlines()
    assert f"seed {seed}, salt {salt}" in reveal and "boardroom verify" in reveal
    assert "/game export" in reveal
    for private in last.private:
        assert seed not in private.text  # the channel says it; no DM needs to


async def test_a_game_ended_with_game_end_reveals_its_seed_and_salt(
        service: TableService, store: Store, clock: Clock) -> None:
    await start(service, "crystallia")
    row = await store.tables.active_game(CH)
    assert row is not None and row.seed is not None and row.salt and row.commitment
    for _ in range(3):
        user = (await service.waiting(CH))[0][0]
        await service.play(CH, user, (await service.legal_moves(CH, user))[0])
    ended = await service.end(CH, ANN)
    assert ended.public.splitlines() == [
        "Ann ended the game of Crystallia.",
        fairness.revealed(row.seed, row.salt, row.commitment)]
    # A table that never started has nothing to reveal.
    await service.open(OTHER, 1, ANN, "Ann", "crystallia")
    assert (await service.end(OTHER, ANN)).public == "Ann ended the game of Crystallia."


async def test_a_start_posted_after_a_restart_still_shows_the_commitment(
        service: TableService, store: Store) -> None:
    await start(service, "crystallia")  # never delivered: the bot stopped before posting
    row = await store.tables.active_game(CH)
    assert row is not None and row.commitment and row.salt
    again = TableService(store, images=False)
    (channel, reply), = await again.undelivered()
    assert channel == CH
    assert fairness.announced(row.commitment) in reply.public.splitlines()
    assert row.salt not in reply.public and str(row.seed) not in reply.public


# --------------------------------------------------------------------------- /game export


async def test_export_is_refused_while_the_game_runs(service: TableService,
                                                     clock: Clock) -> None:
    with pytest.raises(TableError) as none:
        await service.export(CH)
    assert str(none.value) == "There is no game in this channel with a move log to export."
    await service.open(CH, 1, ANN, "Ann", "battle-tiles")
    with pytest.raises(TableError):  # a table that has not started has no log
        await service.export(CH)
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN)
    with pytest.raises(TableError) as running:
        await service.export(CH)
    assert str(running.value) == (
        "The move log is given once the game is over: until then its seed and salt stay "
        "secret. Ask again after the last move (or once the game is ended with /game end).")
    await play_out(service, clock, random.Random(1))
    assert (await exported(service))["status"] == "over"


async def test_the_export_holds_every_log_row_verbatim(service: TableService, store: Store,
                                                       clock: Clock) -> None:
    await start(service, "crystallia", names=("Zoë «Z»", "Bob"))
    await play_out(service, clock, random.Random(5))
    row = await store.tables.latest_game(CH)
    assert row is not None
    name, data = await service.export(CH)
    assert name == f"boardroom-crystallia-table-{row.id}.json"
    assert "Zoë «Z»".encode() in data  # UTF-8, names as written
    doc = json.loads(data.decode("utf-8"))
    assert {"seed", "salt", "commitment", "game", "table", "options", "players", "moves",
            "format", "format_version", "boardroom"} <= set(doc)
    assert (doc["seed"], doc["salt"], doc["commitment"]) == (row.seed, row.salt,
                                                             row.commitment)
    assert (doc["game"], doc["table"], doc["options"]) == ("crystallia", row.id, {})
    assert (doc["format"], doc["format_version"]) == ("boardroom-move-log", 1)
    assert doc["players"] == [
        {"seat": 0, "name": "Zoë «Z»", "kind": "human", "level": None, "handed": None},
        {"seat": 1, "name": "Bob", "kind": "human", "level": None, "handed": None}]
    logged = await store.tables.moves(row.id)
    assert len(logged) > 10
    assert [(m["version"], m["seat"], m["text"], m["unix"]) for m in doc["moves"]] == [
        (m.version, m.seat, m.text, m.time) for m in logged]
    assert [m["number"] for m in doc["moves"]] == list(range(1, len(logged) + 1))
    for move in doc["moves"]:
        assert move["time"].endswith("Z")
        assert datetime.fromisoformat(move["time"]).timestamp() == pytest.approx(move["unix"])
    assert doc["moves"][0]["time"] == "2026-01-01T00:01:00.000Z"  # the first, a minute in
    state = rules.GAMES["crystallia"].load(json.loads(row.state or "{}"))
    outcome = rules.GAMES["crystallia"].outcome(state)
    assert outcome is not None
    assert doc["outcome"]["scores"] == list(outcome.scores)


async def test_computer_players_are_in_the_export_and_their_moves_verify(
        service: TableService, clock: Clock, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    await service.open(CH, 1, ANN, "Ann", "battle-tiles")
    await service.add_computer(CH, ANN, "random")
    await service.start(CH, ANN)
    await play_out(service, clock, random.Random(6))
    name, data = await service.export(CH)
    doc = json.loads(data)
    assert doc["players"][1] == {"seat": 1, "name": "Computer 1", "kind": "computer",
                                 "level": "easy", "handed": None}
    assert {m["seat"] for m in doc["moves"]} == {0, 1}
    (tmp_path / name).write_bytes(data)
    assert fairness.main([str(tmp_path / name)]) == 0
    assert "Ann (Red) and Computer 1 (Blue)" in capsys.readouterr().out


async def test_export_of_an_earlier_table_in_this_channel_only(service: TableService,
                                                               store: Store,
                                                               clock: Clock) -> None:
    await start(service, "battle-tiles")
    await play_out(service, clock, random.Random(2))
    first = await store.tables.latest_game(CH)
    assert first is not None
    await service.open(CH, 1, ANN, "Ann", "crystallia")  # a new table, not started yet
    assert (await exported(service))["table"] == first.id  # the last game that started
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN)
    with pytest.raises(TableError):  # the channel's game runs: /game export waits
        await service.export(CH)
    _, data = await service.export(CH, first.id)  # the earlier one, by its number
    assert json.loads(data)["game"] == "battle-tiles"
    with pytest.raises(TableError) as elsewhere:
        await service.export(OTHER, first.id)
    assert str(elsewhere.value) == f"There is no table {first.id} played in this channel."


# --------------------------------------------------------------------------- verify


async def finished_log(service: TableService, clock: Clock, game: str, seed: int,
                       tmp_path: Path, channel: int = CH) -> Path:
    await start(service, game, channel)
    await play_out(service, clock, random.Random(seed), channel)
    name, data = await service.export(channel)
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("game", ["crystallia", "battle-tiles", "bomb-squares"])
async def test_verify_passes_on_a_real_exported_game(
        game: str, service: TableService, clock: Clock, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = await finished_log(service, clock, game, 11, tmp_path)
    doc = json.loads(path.read_bytes())
    assert fairness.main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == (f"Commitment ok: SHA-256 of '{doc['seed']}:{doc['salt']}' is "
                        f"{doc['commitment']}.")
    count = len(doc["moves"])
    assert f"{count} moves replayed from the seed" in out and count > 10
    assert lines[-1].startswith("Outcome: ") and "Final score: Ann " in lines[-1]
    # The same replay the rules modules give by hand: every random draw from the seed.
    rules_game = rules.GAMES[game]
    state = rules_game.new(2, doc["seed"], None)
    for move in doc["moves"]:
        state, _ = rules_game.play(state, move["seat"], move["text"])
    assert state.draws > 0, "a game with randomness"
    outcome = rules_game.outcome(state)
    assert outcome is not None and list(outcome.scores) == doc["outcome"]["scores"]


async def test_verify_prints_every_deal_and_roll_on_request(
        service: TableService, clock: Clock, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = await finished_log(service, clock, "bomb-squares", 4, tmp_path)
    assert fairness.main([str(path), "--events"]) == 0
    out = capsys.readouterr().out
    assert "move 1: Ann plays" in out or "move 1: Bob plays" in out
    assert "roll" in out.lower()


async def test_verify_reports_a_game_ended_before_it_finished(
        service: TableService, clock: Clock, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    await start(service, "battle-tiles")
    for _ in range(4):
        user = (await service.waiting(CH))[0][0]
        await service.play(CH, user, (await service.legal_moves(CH, user))[-1])
    await service.end(CH, ANN)
    name, data = await service.export(CH)
    (tmp_path / name).write_bytes(data)
    assert fairness.main([str(tmp_path / name)]) == 0
    out = capsys.readouterr().out
    assert "4 moves replayed" in out and "ended before it finished" in out


def tampered(path: Path, change: Any) -> Path:
    doc = json.loads(path.read_bytes())
    change(doc)
    out = path.with_name("tampered.json")
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


def refused(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``boardroom verify`` fails with status 1 and one sentence on stderr."""
    assert fairness.main([str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("boardroom verify: ") and err.endswith(".\n")
    assert err.count("\n") == 1
    return err.removeprefix("boardroom verify: ").strip()


async def test_verify_fails_on_a_changed_seed_salt_move_or_outcome(
        service: TableService, clock: Clock, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = await finished_log(service, clock, "crystallia", 7, tmp_path)
    doc = json.loads(path.read_bytes())
    seed, salt = doc["seed"], doc["salt"]

    def seed_plus_one(d: dict[str, Any]) -> None:
        d["seed"] += 1

    assert refused(tampered(path, seed_plus_one), capsys) == (
        f"The commitment does not match: SHA-256 of '{seed + 1}:{salt}' is "
        f"{sha256(f'{seed + 1}:{salt}')}, but the file says {doc['commitment']}.")

    def other_salt(d: dict[str, Any]) -> None:
        d["salt"] = "0" * 32

    assert refused(tampered(path, other_salt), capsys).startswith(
        "The commitment does not match")

    def move_five_changed(d: dict[str, Any]) -> None:
        d["moves"][4]["text"] = "take the crown jewels"

    sentence = refused(tampered(path, move_five_changed), capsys)
    name = doc["players"][doc["moves"][4]["seat"]]["name"]
    assert sentence.startswith(f"Move 5 ('take the crown jewels' by {name}) is refused by "
                               "the rules: ")

    def move_out_of_turn(d: dict[str, Any]) -> None:
        d["moves"][2]["seat"] = 1 - d["moves"][2]["seat"]

    assert refused(tampered(path, move_out_of_turn), capsys).startswith("Move 3 (")

    def one_move_left_out(d: dict[str, Any]) -> None:
        del d["moves"][-1]

    assert refused(tampered(path, one_move_left_out), capsys).startswith(
        "The replayed game does not end as the file says")

    def other_scores(d: dict[str, Any]) -> None:
        d["outcome"]["scores"] = [s + 1 for s in d["outcome"]["scores"]]

    assert refused(tampered(path, other_scores), capsys).startswith(
        "The replayed game does not end as the file says")
    assert fairness.main([str(path)]) == 0  # the file as exported still checks out


async def test_verify_follows_undo_entries_as_the_bot_replays_them(
        service: TableService, clock: Clock, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = await finished_log(service, clock, "crystallia", 3, tmp_path)

    def move_three_taken_back_and_made_again(d: dict[str, Any]) -> None:
        moves = d["moves"]
        third = moves[2]
        back = {**third, "text": undo.entry(third["version"]), "version": third["version"] + 1}
        again = {**third, "version": third["version"] + 2}
        later = [{**m, "version": m["version"] + 2} for m in moves[3:]]
        d["moves"] = [*moves[:3], back, again, *later]
        for number, move in enumerate(d["moves"], start=1):
            move["number"] = number

    with_undo = tampered(path, move_three_taken_back_and_made_again)
    assert fairness.main([str(with_undo)]) == 0
    count = len(json.loads(path.read_bytes())["moves"]) + 2
    assert f"{count} moves replayed" in capsys.readouterr().out

    def then_move_nine_changed(d: dict[str, Any]) -> None:
        move_three_taken_back_and_made_again(d)
        d["moves"][8]["text"] = "juggle"

    assert refused(tampered(path, then_move_nine_changed), capsys).startswith(
        "Move 9 ('juggle' by ")


async def test_verify_fails_on_a_malformed_file(service: TableService, clock: Clock,
                                                tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = await finished_log(service, clock, "battle-tiles", 2, tmp_path)
    broken = tmp_path / "broken.json"
    broken.write_bytes(path.read_bytes()[:200])
    assert refused(broken, capsys) == (
        "The file is not a Boardroom move log: it is not UTF-8 JSON.")
    broken.write_bytes(b"\xff\xfe not utf-8")
    assert refused(broken, capsys).endswith("it is not UTF-8 JSON.")
    broken.write_text("[1, 2, 3]", encoding="utf-8")
    assert refused(broken, capsys) == (
        'The file is not a Boardroom move log (it has no "format": "boardroom-move-log").')

    def no_moves(d: dict[str, Any]) -> None:
        del d["moves"]

    assert refused(tampered(path, no_moves), capsys) == (
        "The file is not a whole Boardroom move log: its moves is missing or malformed.")

    def odd_seed_and_moves(d: dict[str, Any]) -> None:
        d["seed"] = "12"
        d["moves"][0]["seat"] = "0"

    assert refused(tampered(path, odd_seed_and_moves), capsys) == (
        "The file is not a whole Boardroom move log: its seed and moves are missing or "
        "malformed.")

    def unknown_game(d: dict[str, Any]) -> None:
        d["game"] = "chess"

    assert refused(tampered(path, unknown_game), capsys).startswith(
        "The file's game 'chess' is none of this Boardroom's games")

    def no_commitment(d: dict[str, Any]) -> None:
        d["commitment"] = None

    assert "no seed, salt or commitment" in refused(tampered(path, no_commitment), capsys)

    def three_players(d: dict[str, Any]) -> None:
        d["players"].append({"seat": 2, "name": "Cy", "kind": "human"})

    assert refused(tampered(path, three_players), capsys).startswith(
        "Battle Tiles cannot be set up for 3 players")
    assert refused(tmp_path / "missing.json", capsys).startswith(
        f"{tmp_path / 'missing.json'} could not be read")


async def test_the_console_command_verifies_a_file(service: TableService, clock: Clock,
                                                   tmp_path: Path) -> None:
    path = await finished_log(service, clock, "battle-tiles", 9, tmp_path)
    run = [sys.executable, "-m", "bot", "verify"]
    good = subprocess.run([*run, str(path)], capture_output=True, text=True, timeout=120)
    assert good.returncode == 0, good.stderr
    assert good.stdout.startswith("Commitment ok: ")

    def seed_plus_one(d: dict[str, Any]) -> None:
        d["seed"] += 1

    bad = subprocess.run([*run, str(tampered(path, seed_plus_one))], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("boardroom verify: The commitment does not match")
    usage = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                           text=True, timeout=120)
    assert "boardroom verify FILE" in usage.stdout
