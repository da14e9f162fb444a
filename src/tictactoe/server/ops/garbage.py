"""The garbage collector of `tictactoe serve`: young collections as usual, full ones only when
sockets have gone (the only thing that leaves cyclic garbage among long-lived objects).

A full collection walks every object the process holds: at 10 000 tables with two sockets each,
~1.5 million, a stall of the event loop of a second or more on a busy box (measured with
bench/server.py and bench/loop_monitor.py). Python starts one whenever a quarter more objects
have reached the oldest generation since the last, and under steady play a move's record and
game, which live until the next move, get there: so every few minutes a move paid for it. Here
nothing counted in allocations starts a full collection. What a full collection is for is
cycles among objects that lived long and then died together, and in this server that is what a
closed socket leaves (its protocol, transport, tasks and frames: ~25 objects a socket, counted
with gc), and a table dropped from memory (it and its side jobs refer to each other):
`CycleSweeper` runs one once a quarter as many sockets as were open at the last one have closed
(or tables gone) since, so memory stays bounded by the same rule Python uses, counted in what
actually makes garbage. Cycles that die young (a refused move's exception and traceback) are
still found by the young collections, which stay on, and stay short (`YOUNG_OBJECTS`).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# gc's third threshold counts second-generation collections: at this many, never in practice.
NO_AUTOMATIC_FULL_COLLECTION = 2**30


# A young collection walks the first generation; once `MIDDLE_EVERY` of them have run, the next
# walks the second generation too, which holds their survivors: at most about
# YOUNG_OBJECTS * (MIDDLE_EVERY + 2) objects, a few ms. With 10 000 and 10 (before issue 26's second
# round) the second generation's walks were the loop's longest stalls: 26-31 ms at 1 000 tables on a
# quiet box (bench/server.py), where a move's own work is under 1 ms.
YOUNG_OBJECTS = 5_000
MIDDLE_EVERY = 2


def tune_garbage_collector() -> None:
    """Freezes what start-up made (modules, routes, schemas: never garbage) out of every
    collection; young collections run every `YOUNG_OBJECTS` allocations, and survivors of
    `MIDDLE_EVERY` of them move on to the oldest generation, where nothing but `CycleSweeper`
    collects them. With 1 000 tables and Python's thresholds, full collections every few seconds
    stopped the loop 100-400 ms."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, MIDDLE_EVERY, NO_AUTOMATIC_FULL_COLLECTION)


# Young collections by time too (`collect_young_by_time`), this often.
YOUNG_EVERY_SECONDS = 0.1


def collect_young() -> int:
    """One young collection of both young generations at once: what survives goes straight to
    the oldest, so each object is walked once (collecting the first alone, then the second,
    walked each survivor twice: +10% of processor time a move at 9 980 tables). Returns what
    it found unreachable."""
    return gc.collect(1)


async def collect_young_by_time(every: float = YOUNG_EVERY_SECONDS) -> None:
    """Collects the young generations every `every` seconds while the collector is tuned.

    Python counts a young collection due when allocations exceed deallocations by the threshold,
    but every deallocation counts, an old object's too. Under steady play a move frees the
    table's previous record and game (old) as it makes new ones (young): the count stands still
    while the first generation grows, so the collection that finally comes walks everything made
    since the last (139-314 ms at 9 980 tables on a quiet box, bench/server.py). By time, each
    walks what a tenth of a second made. Runs until cancelled."""
    while True:
        await asyncio.sleep(every)
        if full_collections_are_ours():
            collect_young()


def full_collections_are_ours() -> bool:
    """Whether Python's own full collections are off (`tune_garbage_collector` ran)."""
    return gc.get_threshold()[2] >= NO_AUTOMATIC_FULL_COLLECTION


class CycleSweeper:
    """Runs a full collection once `share` of the sockets open at the last one (and at least
    `minimum`) have closed since. `open_sockets` and `closed_sockets` (a running count) come
    from whoever holds the sockets."""

    def __init__(
        self,
        open_sockets: Callable[[], int],
        closed_sockets: Callable[[], int],
        *,
        share: float = 0.25,
        minimum: int = 1000,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._open_sockets = open_sockets
        self._closed_sockets = closed_sockets
        self._share = share
        self._minimum = minimum
        self._clock = clock
        self._open_at_last = 0
        self._closed_at_last = 0

    def due(self) -> bool:
        closed = self._closed_sockets() - self._closed_at_last
        return closed >= max(self._minimum, self._share * self._open_at_last)

    def sweep(self) -> int:
        """A full collection now; the number of unreachable objects it found."""
        started = self._clock()
        found = gc.collect()
        self._open_at_last = self._open_sockets()
        self._closed_at_last = self._closed_sockets()
        log.info(
            "full garbage collection: %d unreachable objects, %.0f ms, %d sockets open",
            found,
            1000 * (self._clock() - started),
            self._open_at_last,
        )
        return found

    async def run(self, every: float = 10.0) -> None:
        """Sweeps when due, looking every `every` seconds, while Python's own full collections
        are off. Runs until cancelled."""
        while True:
            await asyncio.sleep(every)
            if full_collections_are_ours() and self.due():
                self.sweep()
