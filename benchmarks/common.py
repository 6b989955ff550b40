"""What several benchmarks share: pinning the process to some cores, and a random game."""

from __future__ import annotations

import os
import random
from typing import Any

import rules


def pin(cores: int) -> str:
    """Run on the first ``cores`` CPUs we may use (Linux); say which."""
    if cores <= 0 or not hasattr(os, "sched_setaffinity"):
        return "all cores"
    allowed = sorted(os.sched_getaffinity(0))[:cores]
    os.sched_setaffinity(0, allowed)
    return f"{len(allowed)} core{'s' if len(allowed) > 1 else ''} (CPU {allowed})"


def random_game(game: rules.Game[Any], players: int, seed: int, cap: int, tag: str
                ) -> list[tuple[int, str]]:
    """A whole game of random legal moves from ``seed`` (at most ``cap`` moves); ``tag``
    names the benchmark, so each draws its own games."""
    state = game.new(players, seed)
    rng = random.Random(f"{tag}/{game.id}/{seed}")
    log: list[tuple[int, str]] = []
    while game.outcome(state) is None and len(log) < cap:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, move)
        log.append((seat, move))
    return log
