"""`tictactoe play`: the terminal game draws the board, says where you are sent, refuses bad
moves with the reason, and plays to the end."""

from __future__ import annotations

import io
import subprocess
import sys

import tictactoe
from tictactoe.engine.play_command import draw, play_session, where_sent


def test_a_whole_standard_game_ends_with_its_result() -> None:
    # The "human" tries every cell in order each turn; occupied ones are refused and retried.
    cells = [f"{f}{r}" for r in "123" for f in "abc"]
    stdin = io.StringIO("\n".join(cells * 9) + "\n")
    out = io.StringIO()
    game = tictactoe.new_game("standard")
    result = play_session(game, "x", level="easy", think_ms=10, stdin=stdin, out=out)
    text = out.getvalue()
    verdict = {"x": "you win!", "o": "the computer wins.", "draw": "a draw."}
    assert result in verdict
    assert text.rstrip().endswith(f"Game over: {verdict[result]}")


def test_a_refused_move_says_why_and_quitting_stops() -> None:
    stdin = io.StringIO("e5\nz9\nq\n")
    out = io.StringIO()
    result = play_session(
        tictactoe.new_game("ultimate"), "x", level="easy", think_ms=10, stdin=stdin, out=out
    )
    text = out.getvalue()
    assert result is None
    assert "The computer plays" in text
    assert "Not possible:" in text
    assert text.rstrip().endswith("Bye.")


def test_the_drawing_marks_the_playable_cells_and_the_board_you_are_sent_to() -> None:
    game = tictactoe.Game.from_record("ultimate", "e5 e6")
    lines = draw(game, set(game.legal_moves()))
    assert where_sent(game) == "You are sent to the top board (e8)."
    # Row 9 holds the top boards: only the top-centre board's cells are playable.
    assert lines[1].startswith(" 9        │ · · · │      ")
    assert " O " in lines[5] and " X " in lines[6]  # lines[4] is the line between boards


def test_the_command_runs_in_a_pipe() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tictactoe.cli", "play", "standard", "--level", "max"],
        input="b2\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "The computer plays" in done.stdout
