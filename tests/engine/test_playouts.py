"""The playouts of the searches: `max`'s fast playout plays the same games as the informed
playout it replaces (and its other styles end in results the marks bear out), and the frozen
baseline plays exactly as before."""

from __future__ import annotations

import numpy as np
import pytest

from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine.baseline_search import baseline_playout
from tictactoe.engine.fast_playout import (
    ALWAYS_WIN_BOARD,
    BLOCK_BOARD,
    NO_FREE_CHOICE,
    fast_playout,
)


def start_after(cells: list[int]) -> np.ndarray:
    s = uk.new_state()
    for cell in cells:
        uk.play(s, cell)
    return s


STARTS = [[], [40, 39], [0, 1, 9, 2, 18, 3]]


@pytest.mark.parametrize("opening", STARTS)
def test_the_fast_playout_plays_the_same_games_as_the_informed_playout(opening: list[int]) -> None:
    for seed in range(400):
        rngs = [np.array([seed * 2 + 1], dtype=np.uint64) for _ in range(3)]
        states = [start_after(opening) for _ in range(3)]
        results = [
            uk.informed_playout(states[0], rngs[0], 0),
            fast_playout(states[1], rngs[1], 0),
            baseline_playout(states[2], rngs[2]),
        ]
        assert results[0] == results[1] == results[2]
        marks = [s[: uk.O_MASKS + 9].tolist() for s in states]
        assert marks[0] == marks[1] == marks[2]
        assert rngs[0][0] == rngs[1][0] == rngs[2][0]


@pytest.mark.parametrize(
    "style", [ALWAYS_WIN_BOARD, BLOCK_BOARD, NO_FREE_CHOICE, ALWAYS_WIN_BOARD | BLOCK_BOARD]
)
def test_every_style_ends_in_a_result_its_marks_bear_out(style: int) -> None:
    for seed in range(300):
        s = start_after(STARTS[seed % len(STARTS)])
        result = fast_playout(s, np.array([seed * 2 + 1], dtype=np.uint64), style)
        x, o = s[uk.X_MASKS : uk.X_MASKS + 9], s[uk.O_MASKS : uk.O_MASKS + 9]
        assert not any(int(a) & int(b) for a, b in zip(x, o, strict=True))
        won_x = sum(1 << b for b in range(9) if uk.WINS[int(x[b])])
        won_o = sum(1 << b for b in range(9) if uk.WINS[int(o[b])])
        assert not won_x & won_o
        assert bool(uk.WINS[won_x]) == (result == uk.X_WON)
        assert bool(uk.WINS[won_o]) == (result == uk.O_WON)
        if result == uk.DRAW:
            full = sum(1 << b for b in range(9) if int(x[b]) | int(o[b]) == uk.FULL)
            closed = won_x | won_o | full
            assert not uk.LINE_POSSIBLE[closed & ~won_x] and not uk.LINE_POSSIBLE[closed & ~won_o]
