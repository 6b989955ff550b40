"""The animated picture of a whole game (``render/animation.py``), for the longest game of
each game: size and CPU time.

    .venv/bin/python benchmarks/animation.py [--seeds 3] [--repeats 3] [--cap 5000]

Per game: ``--seeds`` games of random legal moves from seeded generators, with the most
seats the game allows (the rules alone, at most ``--cap`` moves each); the longest (most
turns) is animated ``--repeats`` times. Prints its moves, turns and frames, the GIF's size,
and the median CPU seconds to build it: the replay into public views after each turn
(``turns``), then ``animate`` (drawing the sampled frames, the palette, the GIF).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

import rules
from benchmarks.common import random_game
from bot.records import MoveRow
from bot.timeline import story, turn_ends
from render import animation

NAMES = ["Alice", "Bob", "Chidi", "Dana"]




def build(game: rules.Game[Any], players: int, seed: int, log: list[tuple[int, str]]
          ) -> tuple[bytes, int, float]:
    """The animation of a logged game, its number of turns and the CPU seconds it took."""
    start = time.process_time()
    rows = [MoveRow(n, seat, text, 0.0) for n, (seat, text) in enumerate(log, start=2)]
    shown = animation.turns(game, story(game, players, seed, None, rows).turn_states(),
                            NAMES[:players])
    gif = animation.animate(game.id, [turn.view for turn in shown],
                            captions=animation.captions(shown))
    return gif, len(shown) - 1, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games played per game")
    parser.add_argument("--repeats", type=int, default=3, help="builds of the longest")
    parser.add_argument("--cap", type=int, default=5000, help="most moves in a game")
    parser.add_argument("--game", choices=sorted(rules.GAMES), help="only this game")
    args = parser.parse_args()
    print(f"{'game':<15}{'seats':>6}{'moves':>7}{'turns':>7}{'frames':>8}{'MB':>7}"
          f"{'CPU s':>7}{'  size':>10}")
    for game_id in sorted(rules.GAMES):
        if args.game and game_id != args.game:
            continue
        game = rules.GAMES[game_id]
        players = game.max_players
        logs = {seed: random_game(game, players, seed, args.cap, "animation")
                for seed in range(1, args.seeds + 1)}
        longest = max(logs, key=lambda s: (len(turn_ends(
            game, players, s, None, logs[s], ())), len(logs[s])))
        log = logs[longest]
        runs = [build(game, players, longest, log) for _ in range(args.repeats)]
        gif, turns, _ = runs[0]
        with Image.open(BytesIO(gif)) as opened:
            frames, size = opened.n_frames, opened.size
        seconds = statistics.median(run[2] for run in runs)
        print(f"{game_id:<15}{players:>6}{len(log):>7}{turns:>7}{frames:>8}"
              f"{len(gif) / 1e6:>7.2f}{seconds:>7.2f}{size[0]:>6}x{size[1]}")


if __name__ == "__main__":
    main()
