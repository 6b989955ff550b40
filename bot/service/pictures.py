"""Pictures of views, drawn in worker threads so the event loop stays free while Pillow
draws, and the last ones kept: a view that did not change is not drawn again.

A picture is kept under what names its view (``Table.shown_to``: the table, the audience,
a digest of the view), so a picture kept for one seat is never another seat's or the
channel's; a picture is a function of its view alone, so equal views share one drawing.
The pictures kept are bounded by their bytes (``KEPT_BYTES``), not by the tables open."""

from __future__ import annotations

import asyncio
import os
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import render
from bot.service.table import Shown

KEPT_BYTES = 8 * 2**20  # pictures kept (their PNG bytes), keyed by their view (``Shown``)


@dataclass(frozen=True)
class Picture:
    """An image and the one line that says what it shows (screen readers, notifications);
    ``more`` holds a second image where one would be too tall (a seat's private part under
    the table), attached with it."""

    png: bytes
    summary: str
    more: tuple[bytes, ...] = ()
    # What names the view it shows (``Shown``): equal keys, the same picture (None: unnamed).
    key: Hashable = field(default=None, compare=False)

    @property
    def size(self) -> int:
        return len(self.png) + sum(len(part) for part in self.more)


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
        self._bytes = 0  # of the pictures kept
        self._drawing: dict[Hashable, asyncio.Future[Picture]] = {}  # being drawn now
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
        kept: dict[Hashable, Picture] = {}  # (held here: another draw may let them go)
        pending: dict[Hashable, asyncio.Future[Picture]] = {}  # another reply draws them
        for each in shown:
            if each is None or each[0] in todo or each[0] in kept or each[0] in pending:
                continue
            key, view = each
            if key in self._kept:
                self._kept.move_to_end(key)
                kept[key] = self._kept[key]
            elif key in self._drawing:
                pending[key] = self._drawing[key]
            else:
                todo[key] = view
        loop = asyncio.get_running_loop()
        mine = {key: loop.create_future() for key in todo}
        self._drawing.update(mine)
        try:
            drawn: dict[Hashable, Picture] = {}
            if todo:  # one job for all of them
                drawn = {key: replace(picture, key=key) for key, picture in zip(
                    todo, await loop.run_in_executor(
                        self.painter(), pictures, game_id, list(todo.values()),
                        None if table is None else table.png), strict=True)}
            for key, picture in drawn.items():
                mine[key].set_result(picture)
                self._keep(key, picture)
        except BaseException as error:
            for future in mine.values():
                if not future.done():
                    future.set_exception(error)
                    future.exception()  # (retrieved: nobody else may be waiting for it)
            raise
        finally:
            for key in mine:
                self._drawing.pop(key, None)
        for key, future in pending.items():
            kept[key] = await future
        return [None if each is None else drawn.get(each[0]) or kept[each[0]]
                for each in shown]

    def _keep(self, key: Hashable, picture: Picture) -> None:
        """Keep a picture drawn, letting the oldest go beyond ``KEPT_BYTES``."""
        if key in self._kept:
            return
        self._kept[key] = picture
        self._bytes += picture.size
        while self._bytes > KEPT_BYTES and len(self._kept) > 1:
            self._bytes -= self._kept.popitem(last=False)[1].size

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
