"""Enough file descriptors for the connection cap: with the common soft limit of 1 024 open files,
a server capped at 4 096 connections would fail to accept (EMFILE) long before its cap, and then
not even the balancer's `/healthz` gets through. `tictactoe serve` raises the soft limit toward
the hard one at start-up, and says so when even the hard limit is too low."""

from __future__ import annotations

import logging
import resource

log = logging.getLogger(__name__)

# Beyond the connections: the database, the computer's workers, logs, the listening socket.
SPARE = 256


def files_wanted(connections: int) -> int:
    return connections + SPARE


def raise_open_files(connections: int) -> int:
    """Raises this process's soft limit on open files to cover `connections` (as far as the hard
    limit allows); returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = files_wanted(connections)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if target > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    if soft != resource.RLIM_INFINITY and soft < wanted:
        log.warning(
            "only %d open files are allowed (ulimit -n): fewer than the %d connections of "
            "TICTACTOE_MAX_CONNECTIONS need; lower it or raise the limit",
            soft,
            connections,
        )
    return soft
