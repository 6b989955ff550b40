"""The benchmarks still run: they drive the table service from outside, so a change of its
API can break one without any other test noticing (``service.images`` once lost its
setter that way). A few tables for a fraction of a second each: about 3 s, run beside the
other tests."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from benchmarks.adapter import Alone, Collections, queued

ROOT = Path(__file__).resolve().parents[1]


def test_the_tables_benchmark_runs_and_prints_its_figures(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tables.py"), "--tables", "4",
         "--seconds", "0.3", "--image-seconds", "0.3", "--latency-moves", "5",
         "--image-moves", "2", "--games", "1", "--cores", "0", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    for row in ("all tables at once, no images", "all tables at once, images",
                "one at a time, no images", "one at a time, images"):
        line = next(line for line in done.stdout.splitlines() if line.startswith(row))
        assert float(line[len(row):].split()[0]) > 0, line  # moves/s
    assert "Database bytes per finished game" in done.stdout


def test_the_replay_benchmark_runs_and_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "replay.py"), "--seeds", "1", "--steps",
         "2", "--repeats", "1", "--cap", "12", "--game", "battle-tiles", "--cores", "0"],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    row = next(line for line in done.stdout.splitlines() if line.startswith("battle-tiles"))
    assert len(row.split()) == 11 and float(row.split()[6]) > 0, row  # the step's median ms


def test_the_digest_benchmark_runs_and_reads_indexes(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "digest.py"), "--members", "30",
         "--moves", "6", "--memory-members", "10"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "USING COVERING INDEX jobs_due" in done.stdout
    assert "USING COVERING INDEX seats_by_user" in done.stdout
    assert "Digests made: 30 " in done.stdout and "peak" in done.stdout


def test_the_adapter_benchmark_runs_and_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "adapter.py"), "--tables", "3", "--batch",
         "3", "--batches", "1", "--chunk", "3", "--rounds", "1"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [re.split(r"\s{2,}", line.strip()) for line in done.stdout.splitlines()]
    figures = {row[0]: row[1:] for row in rows if len(row) > 1}
    assert figures["moves measured"] == ["6"]  # 3 back to back, 3 alone
    assert float(figures["CPU ms a move (median of batches)"][0]) > 0
    assert figures["alone: silent in the channel"] == ["0"]
    assert float(figures["alone: to the channel, wall, median ms"][0]) > 0
    assert float(figures["queued at 40/s on all CPU, one core: median ms"][0]) > 0
    assert float(figures["channel"][0]) >= 1  # each move shows in its channel
    assert figures["moves refused (should be 0)"] == ["0"]
    assert int(figures["full garbage collections in the moves alone"][0]) >= 0
    assert int(figures["objects tracked at the end, thousands"][0]) > 10  # the modules alone
    assert float(figures["queued at 40/s on the loop's CPU without them: p99 ms"][0]) > 0


def test_the_adapter_benchmark_takes_a_full_collection_out_of_the_move_it_fell_in() -> None:
    seen = Collections()
    seen.ended = [(1.30, 0.40, True), (2.05, 0.10, False), (9.0, 1.0, True)]
    # Two moves: the first [1.0, 1.5] s of CPU, shown at 1.2 (before the collection that
    # ended at 1.3); the second [2.0, 2.2], shown at 2.1, after one in a picture thread.
    first, second = seen.between(1.0, 1.5, 1.2), seen.between(2.0, 2.2, 2.1)
    assert first == (0.40, 0.40, 0.0) and second == (0.10, 0.0, 0.10)
    alone = Alone(shown=[0.03, 0.03], busy=[0.5, 0.2], shown_cpu=[0.2, 0.1], cpu=[0.5, 0.2],
                  loop=[0.45, 0.05], collected=[first, second])
    without = alone.without_collections()
    assert without.loop == [pytest.approx(0.05), 0.05]
    assert without.cpu == [pytest.approx(0.1), pytest.approx(0.1)]
    assert without.shown_cpu == [0.2, pytest.approx(0.0)]
    # At 40 moves a second the second move waits behind the first's loop CPU, less
    # without the collection: 0.45 - 0.025 + 0.1 against 0.05 - 0.025 + 0.0.
    assert queued(alone, 40, "loop")[1] == pytest.approx(0.525)
    assert queued(without, 40, "loop")[1] == pytest.approx(0.025)


def test_the_commands_benchmark_prints_a_row_per_game_and_kind() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "commands.py"), "--games", "1",
         "--players", "2", "--cap", "150"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {}
    for line in done.stdout.splitlines()[1:]:
        game, players, kind = line.split()[:3]
        assert players == "2", line
        rows[game, kind] = [float(cell) for cell in line.split()[-8:]]
    assert set(rows) == {(g, k) for g in rules.GAMES for k in ("random", "strong")}
    for (game, kind), (games, _, turns, median, p90, mean, _, _) in rows.items():
        assert games == 1 and turns > 0, (game, kind)  # a row per game with turns counted
        assert 0 < median <= p90 <= 30 and 0 < mean <= 30, (game, kind, median, p90, mean)


def test_the_league_benchmark_runs_and_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "league.py"), "--players", "20",
         "--rounds", "3", "--leagues", "1", "--compare"],
        capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"Pairing a 20-player Swiss round: median \d+ ms", done.stdout)
    assert done.stdout.count(" 0 rematches") == 6  # each round, windowed and whole


def test_the_league_opening_benchmark_opens_every_table_in_its_thread() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "league_opening.py"), "--tables", "3"],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "3 tables opened: 3 threads, 3 games dealt" in done.stdout
    assert re.search(r"\s3  POST /channels/\{id\}/threads", done.stdout)
