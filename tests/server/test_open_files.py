"""`tictactoe serve` raises its soft limit on open files to cover the connection cap."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

from tictactoe.server.edge.open_files import files_wanted

# In a process of its own (the limit is the process's), from a low soft limit as on many hosts.
LOWERED_THEN_RAISED = """
import json, resource
from tictactoe.server.edge.open_files import raise_open_files
_, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
reported = raise_open_files(1000)
print(json.dumps([reported, resource.getrlimit(resource.RLIMIT_NOFILE)[0]]))
"""


def test_the_soft_limit_is_raised_to_cover_the_connection_cap() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOWERED_THEN_RAISED], capture_output=True, text=True, check=True
    )
    reported, soft = json.loads(done.stdout)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = files_wanted(1000)
    expected = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    assert reported == soft == expected > 256
