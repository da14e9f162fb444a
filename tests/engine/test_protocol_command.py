"""`tictactoe engine` speaks the CodinGame protocol: a scripted referee plays whole games."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import tictactoe
from tictactoe.engine.protocol_command import cell_from_row_col, row_col_from_cell


def referee_plays(engine_first: bool, seed: int) -> tictactoe.Game:
    """A scripted opponent making random moves, talking to the engine over pipes like an arena."""
    rng = random.Random(seed)
    engine = subprocess.Popen(
        [sys.executable, "-m", "tictactoe.cli", "engine", "--think-ms", "10"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert engine.stdin is not None and engine.stdout is not None
    game = tictactoe.new_game("ultimate")
    last = (-1, -1)
    if not engine_first:
        move = rng.choice(game.legal_moves())
        game = game.play(move)
        last = row_col_from_cell(move)
    try:
        while not game.is_over:
            valid = [row_col_from_cell(m) for m in game.legal_moves()]
            lines = [f"{last[0]} {last[1]}", str(len(valid))] + [f"{r} {c}" for r, c in valid]
            engine.stdin.write("\n".join(lines) + "\n")
            engine.stdin.flush()
            row, col = (int(v) for v in engine.stdout.readline().split())
            assert (row, col) in valid
            game = game.play(cell_from_row_col(row, col))
            if game.is_over:
                break
            move = rng.choice(game.legal_moves())
            game = game.play(move)
            last = row_col_from_cell(move)
    finally:
        engine.stdin.close()
        assert engine.wait(timeout=10) == 0
    return game


@pytest.mark.parametrize("engine_first", [True, False])
def test_the_engine_plays_a_whole_game_over_the_protocol(engine_first: bool) -> None:
    game = referee_plays(engine_first, seed=3)
    # Against random moves the engine wins (it is the one that plays sensibly).
    assert game.result == ("x" if engine_first else "o")


def test_rows_and_columns_count_from_the_top_left() -> None:
    assert cell_from_row_col(0, 8) == "i9"
    assert cell_from_row_col(8, 0) == "a1"
    assert all(
        row_col_from_cell(cell_from_row_col(r, c)) == (r, c) for r in range(9) for c in range(9)
    )


@pytest.mark.parametrize(("seeded", "calibrated"), [(False, False), (True, True)])
def test_the_warm_up_measures_the_machine_only_for_a_seeded_max(
    seeded: bool, calibrated: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first turn's 1 000 ms include the start (issue 13): an unseeded `max` has no use for
    `calibrate`'s ~40 ms of search, and the collector is on again afterwards."""
    import gc

    from tictactoe.engine import player
    from tictactoe.engine.protocol_command import warm_up

    monkeypatch.setattr(player, "_speed", [])
    try:
        warm_up("max", seeded=seeded)
        assert bool(player._speed) is calibrated
        assert gc.isenabled()
    finally:
        gc.unfreeze()
