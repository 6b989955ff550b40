"""A throwaway PostgreSQL server for the tests: started once per session, stopped at its end.

A fresh data directory in a temporary folder, listening on 127.0.0.1 at a free port only
(no Unix socket outside that folder), trust authentication, fsync off: a scratch server
that nothing else can reach and whose data nobody keeps. Where no server binaries exist
(``/usr/lib/postgresql/*/bin``), Debian's ``postgresql`` package is installed first, when
this machine can (root and apt-get). ``initdb``, ``pg_ctl`` and ``postgres`` refuse to run
as root, so as root they run as the ``postgres`` user (``runuser``), which the package
creates (created here if missing), from a folder that user can read.

``Server.start()`` raises ``Unavailable`` with the reason when no server can be had; the
fixture in ``conftest.py`` skips the PostgreSQL tests with it, or fails the run under CI.
Each test gets a fresh schema on it (``create_schema``; a whole new database where a test
needs one), and a ``Database`` that opens stores on either engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import Store, is_postgres
from bot.store.postgres import numbered

USER = "postgres"  # the operating-system user the server runs as (when we are root)
START_TIMEOUT = 60  # seconds pg_ctl waits for the server to accept connections


class Unavailable(Exception):
    """No PostgreSQL server can be had on this machine; ``str()`` says why."""


def binaries() -> Path | None:
    """The newest installed server's bin folder (holding initdb, pg_ctl, postgres)."""
    found = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")
             if all(os.access(Path(p) / tool, os.X_OK) for tool in ("initdb", "pg_ctl",
                                                                   "postgres"))]
    found.sort(key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    return found[-1] if found else None


def install() -> Path:
    """Debian's server package, installed non-interactively where none is (root only)."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise Unavailable("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin, and "
                          "this machine cannot install them (needs root and apt-get): "
                          "apt-get install postgresql")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "-qq", "postgresql"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:  # perhaps no package lists yet
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True,
                       timeout=900)
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    found = binaries()
    if found is None:
        raise Unavailable("installing Debian's postgresql package failed: "
                          + (done.stderr.strip()[-300:] or "no server binaries after it"))
    return found


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One scratch server; ``url(database)`` reaches a database on it as its superuser."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.port = 0
        self.seconds = 0.0  # how long the start took (install, initdb, server up)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        """A server tool, as the postgres user when we are root."""
        if os.geteuid() == 0:
            command = ("runuser", "-u", USER, "--", *command)
        assert self.folder is not None
        return subprocess.run(command, cwd=self.folder, capture_output=True, text=True,
                              timeout=START_TIMEOUT + 30)

    def start(self) -> None:
        began = time.perf_counter()
        bin_folder = binaries() or install()
        if os.geteuid() == 0:
            _ensure_user()
        self.folder = Path(tempfile.mkdtemp(prefix="boardroom-pg-"))
        if os.geteuid() == 0:
            owner = pwd.getpwnam(USER)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        data = self.folder / "data"
        done = self._run(str(bin_folder / "initdb"), "-D", str(data), "-U", USER,
                         "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
        if done.returncode != 0:
            raise Unavailable(f"initdb failed: {done.stderr.strip()[-300:]}")
        for _attempt in range(3):  # a port taken between probing and listening: another
            self.port = free_port()
            options = (f"-h 127.0.0.1 -p {self.port} -k {self.folder} -F "
                       "-c full_page_writes=off -c synchronous_commit=off "
                       "-c max_connections=200")
            done = self._run(str(bin_folder / "pg_ctl"), "start", "-D", str(data), "-w",
                             "-t", str(START_TIMEOUT), "-l", str(self.folder / "log"),
                             "-o", options)
            if done.returncode == 0:
                self.seconds = time.perf_counter() - began
                return
        log = (self.folder / "log").read_text(errors="replace")[-500:]
        raise Unavailable(f"the PostgreSQL server did not start: {log.strip()}")

    def stop(self) -> None:
        if self.folder is None:
            return
        bin_folder = binaries()
        if bin_folder is not None and (self.folder / "data" / "postmaster.pid").exists():
            self._run(str(bin_folder / "pg_ctl"), "stop", "-D", str(self.folder / "data"),
                      "-m", "immediate", "-w")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


def _ensure_user() -> None:
    """The postgres system user (Debian's package makes it; a bare image may lack it)."""
    with contextlib.suppress(KeyError):
        pwd.getpwnam(USER)
        return
    done = subprocess.run(["useradd", "--system", "--no-create-home", USER],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise Unavailable(f"could not create the {USER} user: {done.stderr.strip()}")


# -- a test's database, on either engine

AnyStore = Store  # what a test may hold: either engine, with its test-only parts


@dataclass
class Database:
    """Where one test's tables live: a SQLite file, or a fresh database on the scratch
    server. ``open`` opens a store on it (as often as a test likes: two stores are two
    bot processes); ``sql`` runs a statement of the test's own, with ``?`` marks."""

    engine: str  # 'sqlite' or 'postgresql'
    url: str  # the file's path, or the database's URL

    async def open(self) -> AnyStore:
        return await Store.open(self.url)

    async def sql(self, store: Store, statement: str, *parameters: Any
                  ) -> list[tuple[Any, ...]]:
        return await sql(store, statement, *parameters)

    async def in_transaction(self, store: Store) -> bool:
        """Whether a transaction is left open on the store's connections. On PostgreSQL:
        a connection that does not go back to the pool. A cancelled caller's goes back in
        the background (asyncpg shields its release, which rolls back what it left), so it
        is waited for, up to 5 s: under load the release may not be done when the caller's
        cancellation is."""
        if not is_postgres(store.path):
            return bool(store.db.in_transaction)
        deadline = time.monotonic() + 5
        while store.pool.get_idle_size() < store.pool.get_size():
            if time.monotonic() > deadline:
                return True
            await asyncio.sleep(0.01)
        return False


async def sql(store: Store, statement: str, *parameters: Any) -> list[tuple[Any, ...]]:
    """A statement of a test's own (``?`` marks its parameters) on either engine's store,
    outside the store's own jobs; the rows it gives, as tuples."""
    if is_postgres(store.path):
        async with store.pool.acquire() as db:
            return [tuple(row) for row in await db.fetch(numbered(statement), *parameters)]
    return [tuple(row) for row in await store.db.execute_fetchall(statement, parameters)]


async def create_schema(server: Server, name: str) -> str:
    """A fresh, empty schema in the server's database: a test's own tables at a fraction
    of a new database's cost (CREATE DATABASE copies a template and checkpoints). Its URL
    sets ``search_path``, which asyncpg passes on as a server setting."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await admin.close()
    return f"{server.url()}?search_path={name}"


async def drop_schema(server: Server, name: str) -> None:
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await admin.close()


async def create_database(server: Server, name: str) -> str:
    """A fresh, empty database on the server (from template1); its URL."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return server.url(name)


async def drop_database(server: Server, name: str) -> None:
    """Drop a test's database, closing whatever connections it left."""
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
