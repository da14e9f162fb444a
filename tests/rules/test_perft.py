"""Perft counts read from data files: the move generator against known numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tictactoe import new_game
from tictactoe.perft_command import add_arguments, run
from tictactoe.rules.perft import complete_games, perft

HERE = Path(__file__).parent


def rows(name: str) -> list[list[str]]:
    lines = (HERE / name).read_text().splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def settings(size: str, line: str) -> dict[str, int | None]:
    return {"size": None if size == "-" else int(size), "line": None if line == "-" else int(line)}


@pytest.mark.parametrize(("variant", "size", "line", "depth", "count"), rows("perft.txt"))
def test_perft_matches_the_known_count(
    variant: str, size: str, line: str, depth: str, count: str
) -> None:
    assert perft(new_game(variant, **settings(size, line)), int(depth)) == int(count)


@pytest.mark.parametrize(("variant", "size", "line", "count"), rows("complete_games.txt"))
def test_complete_games_match_the_known_count(
    variant: str, size: str, line: str, count: str
) -> None:
    assert complete_games(new_game(variant, **settings(size, line))) == int(count)


def test_the_perft_command_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    run(parser.parse_args(["standard", "2", "--size", "4", "--line", "3"]))
    assert capsys.readouterr().out.strip() == "240"
