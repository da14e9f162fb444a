"""The search tree a clock-bounded Ultimate search keeps for the next move of the same game.

After our move and the opponent's reply, the next search continues below the line actually
played instead of starting over. One tree per player name (`max`, `baseline`), so two players in
one process (a ladder) never continue each other's trees. A process serving several games at
once simply misses and starts a new tree; a concurrent search (threads) starts afresh and keeps
nothing. A tree searched with a draw not worth one half (contempt) counted draws for its root's
side: it is continued only for that side's next move, never for the other side's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from tictactoe.engine import ultimate_search as us
from tictactoe.engine.position import ultimate_cell_index
from tictactoe.rules import Game


class Keep:
    """What a search continues from (`tree`, None for a new one); set `tree` to what it grew."""

    def __init__(self, tree: us.Tree | None) -> None:
        self.tree = tree


class KeptTree:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._moves: tuple[str, ...] | None = None
        self._tree: us.Tree | None = None

    @contextmanager
    def holding(
        self, game: Game, state: np.ndarray, deadline: float, *, compact: bool, sided: bool = False
    ) -> Iterator[Keep]:
        """The kept tree moved down to `game`'s position, for one search to continue and leave
        its own tree to keep. With `compact`, a tree short of room for a search until
        `deadline` is replaced by a copy of just the subtree that matters, with room again.
        `sided`: the tree's values belong to its root's side (contempt), so it is continued
        only two moves later, for the same side."""
        if not self._lock.acquire(blocking=False):
            yield Keep(None)
            return
        try:
            keep = Keep(self._continue(game, state, deadline, compact, sided))
            self._moves, self._tree = None, None
            yield keep
            self._moves, self._tree = game.moves, keep.tree
        finally:
            self._lock.release()

    def search(
        self,
        game: Game,
        state: np.ndarray,
        deadline: float,
        *,
        compact: bool,
        seed: int,
        **settings: Any,
    ) -> us.SearchResult:
        """A search of `game` (kernel `state`) until `deadline` that continues the kept tree
        (`holding`) and leaves its own for the next move; `settings` are keywords of
        `ultimate_search.search`."""
        sided = settings.get("draw_score", 0.5) != 0.5
        with self.holding(game, state, deadline, compact=compact, sided=sided) as keep:
            result = us.search(state, deadline=deadline, seed=seed, tree=keep.tree, **settings)
            keep.tree = result.tree
        return result

    def _continue(
        self, game: Game, state: np.ndarray, deadline: float, compact: bool, sided: bool
    ) -> us.Tree | None:
        if self._moves is None or self._tree is None:
            return None
        moves, tree = self._moves, self._tree
        later = game.moves[len(moves) :]
        if game.moves[: len(moves)] != moves or not 1 <= len(later) <= 2:
            return None
        if sided and len(later) != 2:
            return None
        if not tree.descend([ultimate_cell_index(m) for m in later], state):
            return None
        needed = us.nodes_needed(None, deadline)
        if compact and tree.room < needed:
            tree = tree.compacted(3 * needed)
        return tree

    def forget(self) -> None:
        with self._lock:
            self._moves, self._tree = None, None
