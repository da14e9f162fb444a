"""The compiled kernels are kept per version of the engine's sources: Numba checks a cached
function against its own file only, so an edit to a kernel another file compiles in must not
leave the old code running (`tictactoe.engine.compiled_cache`)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import tictactoe
from tictactoe.engine import compiled_cache

PACKAGE = Path(tictactoe.__file__).parent

# The policy network's priors in one position: `policy_net.move_priors` compiles in
# `value_net.active_features`, a kernel of another file.
PRIORS = """
import numpy as np, tictactoe
from tictactoe.engine import policy_net as pn, ultimate_kernel as uk, value_net as vn
from tictactoe.engine.position import ultimate_state
s = ultimate_state(tictactoe.Game.from_record("ultimate", "f1 i3 g7 c2 h4 d1 a3 a8"))
cells = np.empty(81, np.int64)
n = uk.legal_moves(s, cells)
flags = np.zeros(81, np.int64)
flags[:n] = [pn.move_bits(s, c) for c in cells[:n]]
w, out = pn.weights(), np.empty(81, np.float32)
scratch = np.empty(vn.MAX_ACTIVE, np.int64), np.empty(pn.HIDDEN, np.int32)
pn.move_priors(s, cells, flags, n, w.w1, w.b1, w.w2t, w.b2, w.wm, *scratch,
               np.empty(pn.HIDDEN, np.float32), out)
print([round(float(p), 5) for p in out[:n]])
"""


def priors_from(src: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(src)
    run = subprocess.run(
        [sys.executable, "-c", PRIORS], env=env, capture_output=True, text=True, check=True
    )
    return run.stdout


def copy_of_the_package(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(PACKAGE, src / "tictactoe", ignore=shutil.ignore_patterns("__pycache__"))
    return src


def test_the_folder_changes_with_any_source_of_the_engine_and_only_then(tmp_path: Path) -> None:
    engine = copy_of_the_package(tmp_path) / "tictactoe" / "engine"
    first = compiled_cache.folder(engine)
    assert compiled_cache.folder(engine) == first
    (engine / "__pycache__").mkdir(exist_ok=True)
    assert compiled_cache.folder(engine) == first
    playout = engine / "fast_playout.py"
    playout.write_text(playout.read_text() + "\n# an edit\n")
    assert compiled_cache.folder(engine) != first
    assert compiled_cache.folder(engine).parent == first.parent


def test_a_process_started_by_one_that_set_the_folder_uses_the_same_folder(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    chosen = compiled_cache.folder()
    assert chosen.parent == tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(chosen))
    assert compiled_cache.folder() == chosen


def test_an_edit_to_a_kernel_compiled_into_another_files_kernel_takes_effect(
    tmp_path: Path,
) -> None:
    src = copy_of_the_package(tmp_path)
    before = priors_from(src)
    assert priors_from(src) == before  # from the cache this time
    # `active_features` now sees no features: the policy's priors must change.
    value_net = src / "tictactoe" / "engine" / "value_net.py"
    text = value_net.read_text().replace("def active_features(", "def _features_before(")
    value_net.write_text(
        text + "\n\n@njit(cache=True)\ndef active_features(s, out):\n    return 0\n"
    )
    after = priors_from(src)
    assert after != before
    for cache in src.rglob("__pycache__"):
        shutil.rmtree(cache)
    assert priors_from(src) == after  # what a fresh compile gives
