"""Where Numba keeps the engine's compiled kernels: a folder named by the engine's sources.

Numba checks a cached function against its own file only, not against the kernels it compiled in
from other files: after an edit to `fast_playout.py` alone, `mcts`'s cached search loop still runs
the old playout (and a constant changed in `ultimate_kernel.py` stays baked into every caller).
So the cache lives in a folder named by a digest of every source file of the engine: any edit, or
an upgrade, starts from a fresh folder, and processes of the same version share one.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ENGINE = Path(__file__).parent
PREFIX = "tictactoe-engine-"


def folder(engine: Path = ENGINE) -> Path:
    """The cache folder for the engine sources in `engine`: under `NUMBA_CACHE_DIR` when it is
    set, else in the engine's own `__pycache__`."""
    digest = hashlib.sha256()
    for source in sorted(engine.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or engine / "__pycache__")
    if base.name.startswith(PREFIX):  # set by `use_folder` in the process that started this one
        base = base.parent
    return base / f"{PREFIX}{digest.hexdigest()[:16]}"


def use_folder() -> None:
    """Point Numba's cache at `folder()`, before the first kernel is defined (the engine's
    `__init__` calls it). Numba reads its setting when it is imported, so it is set there too if
    Numba is already loaded; a folder that cannot be written falls back to Numba's own places."""
    path = str(folder())
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = path  # type: ignore[attr-defined]
    else:
        os.environ["NUMBA_CACHE_DIR"] = path
