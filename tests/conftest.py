"""Options for the test suite, and the databases tests run on (SQLite and PostgreSQL)."""

from __future__ import annotations

import inspect
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import words
from bot.discord.words import DISCORD
from bot.service import TableService
from bot.store import Store
from tests import pg

# Sentences in Discord's markup unless a test (or the terminal) says otherwise, whichever
# tests a worker ran before (create_bot makes it the default in the bot's own process).
words.by_default(DISCORD)

NEW_YEAR = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


class Clock:
    """The service's clock (``now``), moved by hand: ``clock.t += HOUR``."""

    def __init__(self, t: float = NEW_YEAR) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(database: pg.Database) -> AsyncIterator[Store]:
    """A store of the test's own, on a SQLite file, or once per engine in a test that runs
    on both (``pytest_generate_tests``); ``database.open()`` opens a second process's
    store on the same tables."""
    opened = await database.open()
    yield opened
    await opened.close()


@pytest.fixture
def service(store: Store, clock: Clock) -> TableService:
    """The table service on ``store`` and ``clock``, without pictures. Its tables take the
    normal computer level when none is chosen: the product's default (hard) thinks for up to
    a second a move, and these tests do not look at how well the stand-ins play."""
    return TableService(store, images=False, now=clock, level="normal")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "engines: the module's tests of ``store`` run on "
                                       "SQLite and on PostgreSQL")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker more than the cores. Many tests wait part of their time (on a
    child process, the PostgreSQL server, pictures drawn in threads), and a third worker
    on two cores fills those waits: the suite in 3 min 21 s, against 4 min 1 s with two
    workers and 3 min 38 s with four."""
    return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1) + 1


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stress", choices=("short", "long"),
        default=os.environ.get("BOARDROOM_STRESS", "short").lower() or "short",
        help="how long tests/test_stress.py runs (also BOARDROOM_STRESS=long)")


# -- databases: a SQLite file, or a fresh database on a throwaway PostgreSQL server

ENGINES = ("sqlite", "postgresql")
_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pg.Server]:
    """One scratch PostgreSQL server for the session (tests/pg.py). Without one, the
    PostgreSQL tests are skipped with the reason; under CI (CI=true) they fail instead."""
    server = pg.Server()
    try:
        server.start()
    except pg.Unavailable as error:
        missing = str(error)
    else:
        yield server
        server.stop()
        return
    server.stop()
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI needs a PostgreSQL server, and {missing}", pytrace=False)
    pytest.skip(f"PostgreSQL not available: {missing}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that takes ``database`` itself, and one that takes ``store`` in a module
    marked ``pytestmark = pytest.mark.engines``, runs once per engine: its ``engine`` is
    each."""
    marked = metafunc.definition.get_closest_marker("engines") is not None
    if "database" in inspect.signature(metafunc.function).parameters or (
            marked and "store" in metafunc.fixturenames):
        metafunc.parametrize("engine", ENGINES)


@pytest.fixture
def engine() -> str:
    """The engine a test's tables are on: SQLite, unless it runs on both (above)."""
    return "sqlite"


@pytest.fixture
async def database(engine: str, request: pytest.FixtureRequest, tmp_path: Path
                   ) -> AsyncIterator[pg.Database]:
    """Where the test's tables live, once per engine: a new SQLite file, or a new schema
    on the session's PostgreSQL server (dropped after the test)."""
    if engine == "sqlite":
        yield pg.Database("sqlite", str(tmp_path / "tables.db"))
        return
    server: pg.Server = request.getfixturevalue("pg_server")
    name = f"test_{next(_names)}"
    yield pg.Database("postgresql", await pg.create_schema(server, name))
    await pg.drop_schema(server, name)


@pytest.fixture
async def pg_database(pg_server: pg.Server) -> AsyncIterator[pg.Database]:
    """A new schema on the session's PostgreSQL server, for PostgreSQL's own tests."""
    name = f"test_{next(_names)}"
    yield pg.Database("postgresql", await pg.create_schema(pg_server, name))
    await pg.drop_schema(pg_server, name)
