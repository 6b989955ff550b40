"""Options for the test suite."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--stress", choices=("short", "long"),
        default=os.environ.get("BOARDROOM_STRESS", "short").lower() or "short",
        help="how long tests/test_stress.py runs (also BOARDROOM_STRESS=long)")
