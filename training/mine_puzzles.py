"""Mine Ultimate puzzles with proven answers from engine self-play (and, optionally, stored games).

Each game opens with 2 to 8 seeded random plies, then both sides play the MCTS search with a fixed
number of iterations and a seeded generator, so a seed gives the same games, positions and puzzles
again (with the same engine, whose search plays the games). For every position of a game, the
exact search of `tictactoe.engine.forced_win` finds the least N such that the side to move wins
within N of its own moves against any defence. A position becomes a puzzle when, at every step of
the winning line, exactly one move keeps the win within the moves left (the first move and every
later one); the defender answers with a reply that holds out longest. Every other move of every
step is stored with the reply that beats it, which is the proof that it fails
(tests/server/learning/test_puzzle_proofs.py re-checks it).

    nice -n 19 uv run --frozen python training/mine_puzzles.py --seed 23 --count 1200 \\
        --out src/tictactoe/server/learning/puzzles.jsonl   # the shipped puzzles, byte for byte
    # also from stored games: --records FILE (one Ultimate record a line, e.g. "e5 e4 d6 …"),
    # or --database URL (the site's database: its finished Ultimate games, oldest first)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import tictactoe
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import ultimate_search as us
from tictactoe.engine.forced_win import WIN, after, legal_cells, mover_won, wins_within
from tictactoe.engine.position import ultimate_cell_name, ultimate_state

# A puzzle offers at least this many wrong first moves (else it is no question); a win in one
# move, `--min-wrong-win-in-1`. (`--max-win-in 5 --min-wrong-win-in-1 5` gives harder puzzles, but
# their exhaustive re-proof in the tests takes about five times as long.)
MIN_WRONG_MOVES = 2
BUDGET = 400_000


class GaveUp(Exception):
    """The search budget ran out: the position is left out rather than guessed."""


def _wins(s: np.ndarray, n: int) -> bool:
    answer = wins_within(s, n, BUDGET)
    if answer < 0:
        raise GaveUp
    return answer == WIN


def move_wins_within(s: np.ndarray, cell: int, n: int) -> bool:
    """Does playing `cell` win for the side to move within `n` own moves (this one included)?"""
    mover = int(s[uk.TURN])
    child = after(s, cell)
    if mover_won(child, mover):
        return True
    if child[uk.RESULT] != uk.PLAYING or n <= 1:
        return False
    for reply in legal_cells(child):
        grandchild = after(child, reply)
        if grandchild[uk.RESULT] != uk.PLAYING or not _wins(grandchild, n - 1):
            return False
    return True


def distance(s: np.ndarray, most: int) -> int:
    """The least n ≤ `most` with a forced win in n for the side to move, else 0."""
    for n in range(1, most + 1):
        if _wins(s, n):
            return n
    return 0


def refutation(s: np.ndarray, cell: int, n: int) -> int:
    """A reply to the wrong move `cell` after which its player no longer wins within n - 1;
    -1 when `cell` ends the game. Replies that win the game, then a small board, come first."""
    child = after(s, cell)
    if child[uk.RESULT] != uk.PLAYING:
        return -1
    defender = int(child[uk.TURN])
    found: list[tuple[int, int]] = []
    for reply in legal_cells(child):
        grandchild = after(child, reply)
        if mover_won(grandchild, defender):
            return reply
        if grandchild[uk.RESULT] == uk.PLAYING and n > 1 and _wins(grandchild, n - 1):
            continue
        boards_won = bin(int(grandchild[uk.BIG_X + defender])).count("1")
        found.append((-boards_won, reply))
    return min(found)[1]


def winning_line(s: np.ndarray, n: int) -> tuple[list[int], list[dict[int, int]]] | None:
    """The unique winning line (solver, defender, …, solver) and each step's refuted moves."""
    line: list[int] = []
    steps: list[dict[int, int]] = []
    current, left = s, n
    solver = int(s[uk.TURN])
    while True:
        cells = legal_cells(current)
        winners = [cell for cell in cells if move_wins_within(current, cell, left)]
        if len(winners) != 1:
            return None
        move = winners[0]
        steps.append({cell: refutation(current, cell, left) for cell in cells if cell != move})
        line.append(move)
        current = after(current, move)
        if mover_won(current, solver):
            return line, steps
        left -= 1
        # The longest defence: after it the solver needs all `left` moves (N is least).
        replies = [r for r in legal_cells(current) if not _wins(after(current, r), left - 1)]
        for reply in replies:
            nxt = after(current, reply)
            if sum(move_wins_within(nxt, c, left) for c in legal_cells(nxt)) == 1:
                break
        else:
            return None
        line.append(reply)
        current = nxt


def themes(s: np.ndarray, line: list[int]) -> list[str]:
    """What the line is about, read off the position and the line."""
    solver = int(s[uk.TURN])
    found = []
    if s[uk.SENT] < 0:
        found.append("free-choice")
    first = after(s, line[0])
    if bin(int(s[uk.CLOSED])).count("1") >= 5:
        found.append("endgame")
    if first[uk.BIG_X + solver] != s[uk.BIG_X + solver]:
        found.append("board-win")
    elif len(line) > 1:
        found.append("quiet-move")
    state = s
    for ply, cell in enumerate(line):
        nxt = after(state, cell)
        if ply % 2 == 0 and len(line) > ply + 1 and nxt[uk.SENT] < 0:
            found.append("sends-anywhere")
        if ply % 2 == 1 and nxt[uk.BIG_X + 1 - solver] != state[uk.BIG_X + 1 - solver]:
            found.append("sacrifice")
        state = nxt
    if len(line) > 1 and _threat_boards(first, solver) >= 2:
        found.append("fork")
    return sorted(set(found))


def _threat_boards(s: np.ndarray, solver: int) -> int:
    """Open boards whose win (the solver has two in a line there) would win the solver the game."""
    count = 0
    for board in range(9):
        if s[uk.CLOSED] >> board & 1:
            continue
        big = int(s[uk.BIG_X + solver]) | 1 << board
        own = int(s[uk.X_MASKS + solver * 9 + board])
        empty = uk.FULL & ~(own | int(s[uk.X_MASKS + (1 - solver) * 9 + board]))
        if uk.WINS[big] and uk.THREATS[own] & empty:
            count += 1
    return count


def rating(n: int, alternatives: int, found: list[str]) -> int:
    """A first difficulty rating from the proof's shape: longer lines, more moves to choose from
    and quiet or giving moves are harder."""
    value = 800 + 320 * (n - 1) + 8 * min(alternatives, 40)
    value += 150 * ("quiet-move" in found) + 120 * ("sacrifice" in found)
    value += 80 * ("sends-anywhere" in found) - 100 * ("board-win" in found and n == 1)
    return max(500, min(2600, round(value, -1)))


def selfplay(rng: random.Random, iterations: int) -> list[int]:
    """One seeded self-play game as kernel cells."""
    state = uk.new_state()
    cells: list[int] = []
    for _ in range(rng.randint(2, 8)):
        cell = rng.choice(legal_cells(state))
        uk.play(state, cell)
        cells.append(cell)
    while state[uk.RESULT] == uk.PLAYING:
        cell = us.search(state, iterations=iterations, seed=rng.getrandbits(48)).cell
        uk.play(state, cell)
        cells.append(int(cell))
    return cells


@dataclass(frozen=True)
class Limits:
    """Which positions make puzzles: wins in at most `max_win_in`, and a win in one only with at
    least `min_wrong_win_in_1` wrong first moves."""

    max_win_in: int = 4
    min_wrong_win_in_1: int = 2


def puzzles_of(
    cells: list[int], source: str, seen: set[str], limits: Limits
) -> Iterator[dict[str, object]]:
    """The puzzles along one game (at most one per win length)."""
    game = tictactoe.new_game("ultimate")
    lengths: set[int] = set()
    for ply, cell in enumerate(cells):
        if ply >= 12 and game.position() not in seen:
            s = ultimate_state(game)
            n = 0
            try:
                n = distance(s, limits.max_win_in)
                proof = winning_line(s, n) if n and n not in lengths else None
            except GaveUp:
                proof = None
            least = limits.min_wrong_win_in_1 if n == 1 else MIN_WRONG_MOVES
            if proof is not None and len(steps_of(proof)) >= least:
                line, steps = proof
                seen.add(game.position())
                lengths.add(n)
                found = themes(s, line)
                yield {
                    "position": game.position(),
                    "win_in": n,
                    "themes": found,
                    "rating": rating(n, len(steps[0]), found),
                    "line": [ultimate_cell_name(c) for c in line],
                    "refutations": [
                        {
                            ultimate_cell_name(c): (ultimate_cell_name(r) if r >= 0 else "")
                            for c, r in step.items()
                        }
                        for step in steps
                    ],
                    "source": f"{source} ply {ply}",
                }
        game = game.play(ultimate_cell_name(cell))


def steps_of(proof: tuple[list[int], list[dict[int, int]]]) -> dict[int, int]:
    """The wrong first moves of a proof, with their refutations."""
    return proof[1][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--count", type=int, default=1200, help="stop after this many puzzles")
    parser.add_argument("--iterations", type=int, default=600, help="search iterations a move")
    parser.add_argument("--records", type=Path, help="stored games, one record a line")
    parser.add_argument("--database", help="the site's database URL, for its finished games")
    parser.add_argument("--max-win-in", type=int, default=Limits.max_win_in)
    parser.add_argument("--min-wrong-win-in-1", type=int, default=Limits.min_wrong_win_in_1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    limits = Limits(args.max_win_in, args.min_wrong_win_in_1)
    rng = random.Random(args.seed)
    seen: set[str] = set()
    puzzles: list[dict[str, object]] = []
    started = time.perf_counter()
    games: list[tuple[list[int], str]] = []
    if args.records:
        for number, text in enumerate(args.records.read_text().splitlines(), start=1):
            if text.strip():
                games.append((_cells(text), f"{args.records.name} game {number}"))
    if args.database:
        for number, text in enumerate(stored_records(args.database), start=1):
            games.append((_cells(text), f"stored game {number}"))
    for cells, source in games:
        puzzles.extend(puzzles_of(cells, source, seen, limits))
    game_number = 0
    while len(puzzles) < args.count:
        game_number += 1
        puzzles.extend(
            puzzles_of(
                selfplay(rng, args.iterations), f"seed {args.seed} game {game_number}", seen, limits
            )
        )
        print(
            f"{game_number} games, {len(puzzles)} puzzles, {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        if game_number % 20 == 0:
            _write(args.out, puzzles)
    _write(args.out, puzzles[: args.count])


def stored_records(url: str) -> list[str]:
    """The records of the finished Ultimate games kept in the site's database (from the start
    position), oldest first."""
    import sqlalchemy as sa

    from tictactoe.server.storage.schema import games

    query = (
        sa.select(games.c.record)
        .where(games.c.variant == "ultimate", games.c.start_position.is_(None))
        .order_by(games.c.ended_at, games.c.table_id, games.c.game_number)
    )
    with sa.create_engine(url).connect() as connection:
        return [row.record for row in connection.execute(query) if row.record]


def _cells(record: str) -> list[int]:
    from tictactoe.engine.position import ultimate_cell_index

    return [ultimate_cell_index(move) for move in record.split()]


def _write(path: Path, puzzles: list[dict[str, object]]) -> None:
    lines = [
        json.dumps({"id": f"u{number:04d}", **p}, separators=(",", ":"))
        for number, p in enumerate(puzzles, start=1)
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
