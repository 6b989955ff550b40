"""The codebase keeps the shape ``docs/architecture.md`` describes: the import contracts hold
(``lint-imports``: layers in order, no circle between the modules of a package), no module
imports another's private names, no module in ``bot/`` is over 500 lines, and ``bot/``
names no particular game."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "render", "rules")


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    """Every import statement of a module, wherever it stands (functions included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def test_the_import_contracts_hold() -> None:
    """import-linter's contracts in pyproject.toml: the layers, and no import circle. (In
    a process of its own: import-linter sets up logging as a command does.)"""
    done = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports; "
         "raise SystemExit(lint_imports(no_cache=True, no_logo=True))"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
    assert "2 kept, 0 broken" in done.stdout


def test_no_private_name_is_imported_from_another_module() -> None:
    found = [f"{path.relative_to(ROOT)}: {node.module}.{alias.name}"
             for package in PACKAGES for path in modules(package)
             for node in imports(path) if isinstance(node, ast.ImportFrom)
             for alias in node.names
             if alias.name.startswith("_") and alias.name != "__future__"
             and node.module not in (None, "__future__")]
    assert not found, found


def test_no_module_in_bot_re_exports_another_modules_names() -> None:
    """No ``__all__`` in bot/: with ruff's check for unused imports (F401), a module
    imports only names it uses itself, so each name comes from where it is defined."""
    for path in modules("bot"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [node for node in tree.body if isinstance(node, ast.Assign)
                    and any(getattr(t, "id", "") == "__all__" for t in node.targets)], path


def test_no_module_in_bot_is_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in modules("bot")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


def test_bot_names_no_particular_game() -> None:
    """What differs between games comes from rules/ and render/: bot/ imports no game's
    module and compares nothing with a game's id."""
    games = {module.split(".")[-1] for module in
             (type(game).__module__ for game in rules.GAMES.values())}
    ids = set(rules.GAMES)
    for path in modules("bot"):
        for node in imports(path):
            named = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                alias.name for alias in node.names]
            names = [alias.name for alias in node.names]
            for module in named:
                parts = module.split(".")
                assert not (parts[0] in ("rules", "render") and set(parts[1:]) & games), (
                    path, module)
                assert not (parts == ["render"] or parts == ["rules"]) or not (
                    set(names) & games), (path, names)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        compared = [node.value for node in ast.walk(tree) if isinstance(node, ast.Compare)
                    for node in [node.left, *node.comparators]
                    if isinstance(node, ast.Constant) and node.value in ids]
        keys = [key.value for node in ast.walk(tree) if isinstance(node, ast.Dict)
                for key in node.keys if isinstance(key, ast.Constant) and key.value in ids]
        assert not compared and not keys, (path, compared, keys)
