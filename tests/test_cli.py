"""The `tictactoe` command itself, as installed by the set-up."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import tictactoe

# The command the set-up installed, beside this interpreter in the project's environment.
COMMAND = str(Path(sys.executable).parent / "tictactoe")


def test_help_lists_the_subcommands() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "tictactoe.cli", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "perft" in shown


def test_perft_runs_from_the_installed_command() -> None:
    shown = subprocess.run(
        [COMMAND, "perft", "ultimate", "3"], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "6336"


def test_a_bad_setting_is_a_clear_error_not_a_traceback() -> None:
    shown = subprocess.run(
        [COMMAND, "perft", "standard", "2", "--size", "7"], capture_output=True, text=True
    )
    assert shown.returncode != 0
    assert "size is 3, 4 or 5" in shown.stderr
    assert "Traceback" not in shown.stderr


def test_the_package_version_is_the_installed_version() -> None:
    assert tictactoe.__version__ == importlib.metadata.version("tictactoe")
