"""Pictures of views, drawn in worker threads so the event loop stays free while Pillow
draws, and the last few kept."""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import render
from bot.service.table import Shown

KEPT = 64  # pictures kept, keyed by what their view shows (``Table.shown_to``)


@dataclass(frozen=True)
class Picture:
    """An image and the one line that says what it shows (screen readers, notifications);
    ``more`` holds a second image where one would be too tall (a seat's private part under
    the table), attached with it."""

    png: bytes
    summary: str
    more: tuple[bytes, ...] = ()


def cores() -> int:
    """How many cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class Pictures:
    """Pictures of views (a view is named by what it shows, ``Shown``), drawn in threads;
    with ``images`` off, none are drawn at all."""

    def __init__(self, *, images: bool) -> None:
        self.images = images
        self._kept: OrderedDict[Hashable, Picture] = OrderedDict()
        self._painters: ThreadPoolExecutor | None = None
        # A few replies at a time build their views and draw: a crowd of moves waits holding
        # little more than its events, not views and images.
        self.drawing = asyncio.Semaphore(2 * cores())

    def painter(self) -> ThreadPoolExecutor:
        """Threads that draw pictures, one per core we may use: no more pictures are held
        in memory at once than cores."""
        if self._painters is None:
            self._painters = ThreadPoolExecutor(max_workers=cores(),
                                                thread_name_prefix="boardroom-render")
        return self._painters

    async def draw(self, game_id: str, shown: Sequence[Shown | None],
                   table: Picture | None = None) -> list[Picture | None]:
        """Pictures of views (None: no picture), drawn in worker threads; the last few are
        kept. ``table``: the channel's picture of the same state, whose table every seat's
        picture shares (``render.pngs``)."""
        if not self.images:
            return [None] * len(shown)
        todo: dict[Hashable, dict[str, Any]] = {}
        for each in shown:
            if each is None or each[0] in todo:
                continue
            key, view = each
            if key in self._kept:
                self._kept.move_to_end(key)
            else:
                todo[key] = view
        drawn: dict[Hashable, Picture] = {}
        if todo:  # one job for all of them
            drawn = dict(zip(todo, await asyncio.get_running_loop().run_in_executor(
                self.painter(), pictures, game_id, list(todo.values()),
                None if table is None else table.png), strict=True))
        out = [None if each is None else drawn.get(each[0]) or self._kept[each[0]]
               for each in shown]
        self._kept.update(drawn)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return out

    def close(self) -> None:
        if self._painters is not None:
            self._painters.shutdown(wait=False, cancel_futures=True)
            self._painters = None


def pictures(game_id: str, views: list[dict[str, Any]], table: bytes | None = None
             ) -> list[Picture]:
    """Each view's attachments (``render.pngs``: one, or the table and the private part)."""
    out = []
    for view in views:
        first, *more = render.pngs(game_id, view, table=table)
        out.append(Picture(first, render.summary(game_id, view), tuple(more)))
    return out
