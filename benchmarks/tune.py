"""Tune a game's evaluation weights by self-play, and write them beside the rules.

    .venv/bin/python -m benchmarks.tune --game ID [--level normal] [--games 40]
        [--step 0.5] [--rounds 2] [--margin 0.55] [--budget N] [--workers 2] [--dry-run]

Coordinate search: for each weight in turn (``Game.weights``, from
``data/weights/<id>.json``), a candidate with that weight moved up by ``--step`` of itself
(or by ``--step`` when it is 0) plays ``--games`` games against the current weights at
``--level``, seats alternated, seeds fixed; if it scores at least ``--margin``, it becomes
the current weights; else the weight moved down is tried the same way. ``--rounds`` passes
over every weight, the step halving after each. The result, the command that produced it
and each accepted change with its score go to ``data/weights/<id>.json`` (``--dry-run``
prints them instead). ``normal`` (one-step look-ahead on ``evaluate``) is the cheap level
to tune with; a change is worth keeping only if ``benchmarks/computers.py`` then shows the
level doing better against the rule-based players too.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import rules
from benchmarks.computers import Match, run, score

WEIGHTS = Path(__file__).resolve().parent.parent / "data" / "weights"


def duel(game_id: str, level: str, current: dict[str, float], candidate: dict[str, float],
         games: int, budget: int | None, workers: int, round_: int) -> float:
    """The candidate weights' win rate against the current ones over ``games`` games."""
    a, b = f"{level}~candidate", f"{level}~current"
    weights = ((a, tuple(sorted(candidate.items()))), (b, tuple(sorted(current.items()))))
    todo = [Match(game_id, (a, b) if g % 2 == 0 else (b, a), 50_000 * round_ + g, budget,
                  weights) for g in range(games)]
    points, played = score(run(todo, workers), a, b)
    return points / max(1, played)


def tune(game_id: str, level: str, games: int, step: float, rounds: int, margin: float,
         budget: int | None, workers: int) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """The tuned weights and the changes accepted on the way."""
    current = dict(rules.GAMES[game_id].weights)
    if not current:
        raise SystemExit(f"{game_id} has no weights to tune (data/weights/{game_id}.json)")
    accepted: list[dict[str, Any]] = []
    trial = 0
    for round_ in range(rounds):
        for name in sorted(current):
            value = current[name]
            delta = abs(value) * step if value else step
            for moved in (value + delta, value - delta):
                trial += 1
                candidate = {**current, name: round(moved, 4)}
                rate = duel(game_id, level, current, candidate, games, budget, workers, trial)
                print(f"round {round_ + 1}: {name} {value:g} -> {moved:g}: {100 * rate:.1f}%",
                      file=sys.stderr, flush=True)
                if rate >= margin:
                    accepted.append({"weight": name, "from": value, "to": candidate[name],
                                     "win_rate": round(rate, 3), "games": games})
                    current = candidate
                    break
        step /= 2
    return current, accepted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(rules.GAMES), required=True)
    parser.add_argument("--level", default="normal", help="the level that plays (normal)")
    parser.add_argument("--games", type=int, default=40, help="games per candidate")
    parser.add_argument("--step", type=float, default=0.5,
                        help="how far a weight moves, as a share of itself (halves each round)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--margin", type=float, default=0.55,
                        help="the win rate a candidate needs to be kept")
    parser.add_argument("--budget", type=int, default=None, help="hard's playouts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args()
    weights, accepted = tune(args.game, args.level, args.games, args.step, args.rounds,
                             args.margin, args.budget, args.workers)
    path = WEIGHTS / f"{args.game}.json"
    old = json.loads(path.read_text(encoding="utf-8"))
    command = "python -m benchmarks.tune " + shlex.join(sys.argv[1:])
    new = {**old, "weights": weights, "tuned_by": command, "accepted": accepted}
    text = json.dumps(new, indent=2) + "\n"
    if args.dry_run:
        print(text)
    else:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}: {len(accepted)} changes kept")


if __name__ == "__main__":
    main()
