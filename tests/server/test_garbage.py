"""Full garbage collections in `tictactoe serve`: none started by allocations, one by the sweeper
once enough sockets have closed to have left garbage behind."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import pytest

from tictactoe.server.ops.garbage import (
    MIDDLE_EVERY,
    YOUNG_OBJECTS,
    CycleSweeper,
    collect_young,
    full_collections_are_ours,
    tune_garbage_collector,
)


@pytest.fixture
def tuned_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    tune_garbage_collector()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


class Sockets:
    def __init__(self) -> None:
        self.open = 0
        self.closed = 0


def test_after_tuning_no_allocation_starts_a_full_collection(tuned_collector: None) -> None:
    assert full_collections_are_ours()
    full: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(note)
    try:
        # Long-lived objects promoted past the young generations, as a move's record is.
        kept = [[index] for index in range(300_000)]
        churn = [[index] for index in range(300_000)]
        del churn
    finally:
        gc.callbacks.remove(note)
    assert kept[-1] == [299_999]
    assert full == []
    assert gc.get_freeze_count() > 0  # what start-up made is out of every collection


def test_after_tuning_a_young_collection_walks_few_objects(tuned_collector: None) -> None:
    """The loop's longest stalls were the second generation's walks (~100 000 objects, 26-31 ms):
    now no young collection walks more than a few young generations' worth, however many
    long-lived objects pile up."""
    walked: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] < 2:
            young = range(info["generation"] + 1)
            walked.append(sum(len(gc.get_objects(generation)) for generation in young))

    gc.callbacks.append(note)
    try:
        kept = [[index] for index in range(200_000)]
    finally:
        gc.callbacks.remove(note)
    assert kept[-1] == [199_999]
    assert len(walked) >= 200_000 // YOUNG_OBJECTS // 2  # young collections did run
    assert max(walked) <= YOUNG_OBJECTS * (MIDDLE_EVERY + 3)


def replace_old_objects(
    objects: list[list[int]], rounds: int, after_each: Callable[[], object] | None = None
) -> int:
    """Replaces each old object by a new one, `rounds` times over in chunks of 1 000 (what moves
    do to tables' records), calling `after_each()` after each chunk; returns the largest first
    generation seen."""
    largest = 0
    for _ in range(rounds):
        for start in range(0, len(objects), 1000):
            for index in range(start, start + 1000):
                objects[index] = [index]
            largest = max(largest, len(gc.get_objects(0)))
            if after_each is not None:
                after_each()
    return largest


def test_replacing_old_objects_starts_no_young_collection_but_collect_young_does(
    tuned_collector: None,
) -> None:
    """Each old object freed counts against a young one made, so under steady replacement
    Python's own count never calls a young collection and the first generation grows without
    bound; `collect_young` (run every tenth of a second by the server) keeps it small."""
    objects = [[index] for index in range(40_000)]
    gc.collect()  # all of them old now
    assert replace_old_objects(objects, 1) > 30_000  # Python's count let the young pile up
    gc.collect()
    assert replace_old_objects(objects, 2, collect_young) <= 1_000 + 100
    assert gc.get_count()[1] <= MIDDLE_EVERY  # the second generation is walked in turn too


def test_python_collects_as_usual_until_tuned() -> None:
    assert not full_collections_are_ours()


def test_the_sweeper_waits_for_a_quarter_of_the_sockets_to_have_closed() -> None:
    sockets = Sockets()
    sweeper = CycleSweeper(lambda: sockets.open, lambda: sockets.closed, minimum=10)
    sockets.open = 400
    assert not sweeper.due()
    sockets.closed = 10  # the minimum, before any sweep
    assert sweeper.due()
    sweeper.sweep()  # 400 open now: due again after 100 more have closed
    assert not sweeper.due()
    sockets.closed = 109
    assert not sweeper.due()
    sockets.closed = 110
    assert sweeper.due()


def test_a_sweep_finds_the_cycles_closed_sockets_left() -> None:
    class Node:
        def __init__(self) -> None:
            self.other: Node | None = None

    sockets = Sockets()
    sweeper = CycleSweeper(lambda: sockets.open, lambda: sockets.closed, minimum=1)
    gc.collect()
    for _ in range(50):
        first, second = Node(), Node()
        first.other, second.other = second, first
    del first, second
    assert sweeper.sweep() >= 100
