"""Shared helpers of the morrigo Python tests."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def cli_binary():
    """The `morrigo` command the CLI tests built (MORRIGO_BIN, or the
    workspace's debug build), or None."""
    given = os.environ.get("MORRIGO_BIN")
    if given:
        return given
    for candidate in (ROOT / "target" / "debug" / "morrigo", ROOT / "target" / "release" / "morrigo"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("morrigo")


@pytest.fixture
def cli():
    path = cli_binary()
    if path is None:
        pytest.skip("the morrigo CLI is not built (cargo build -p morrigo-cli, or set MORRIGO_BIN)")
    return path


@pytest.fixture
def root():
    return ROOT
