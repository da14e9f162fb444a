"""The course at `/learn`: short steps, each a position and a task the page checks (the cells that
are right), from "where am I sent?" to forks, tempo and forced draws in Ultimate, then a corner for
the standard game (why 3×3 is a draw, why 4×4 with three in a row is a win for the first player).

The words of each step are in the template `_lesson_texts.html` (to be translated); here are the
positions and the answers. `kind` names what makes an answer right, and
tests/server/learning/test_lessons.py recomputes every step's answers from it with the rules
library, so a position and its answers cannot drift apart.

>>> [step.id for step in LESSONS][:3]
['where-sent', 'send', 'win-board']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def grid(text: str, turn: str, last: str = "") -> str:
    """A position code from a drawing of the board: one line a row, top row first (spaces only
    for the eye)."""
    rows = [row.replace(" ", "") for row in text.strip().splitlines()]
    return "/".join(rows) + f" {turn}" + (f" {last}" if last else "")


@dataclass(frozen=True, slots=True)
class LessonStep:
    """`answers` are the right cells; with `any_cell` every empty cell may be pressed (the task is
    to find where one may play), else only the legal moves."""

    id: str
    kind: str
    variant: str
    position: str
    answers: tuple[str, ...]
    any_cell: bool = False
    line: int | None = None

    def json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "variant": self.variant,
            "position": self.position,
            "line": self.line,
            "answers": list(self.answers),
            "any_cell": self.any_cell,
        }


LESSONS: tuple[LessonStep, ...] = (
    LessonStep(
        "where-sent",
        "sent-board",
        "ultimate",
        grid(
            """
            ... ... ...
            ... ... ...
            ... ... ...
            ... ..o ...
            ... .x. ...
            ... .o. ...
            ... ... ...
            ... .x. ...
            ... ... ...
            """,
            "x",
            "f6",
        ),
        ("g7", "g8", "g9", "h7", "h8", "h9", "i7", "i8", "i9"),
        any_cell=True,
    ),
    LessonStep(
        "send",
        "sends-to-bottom-right",
        "ultimate",
        grid(
            """
            ... ... ...
            ... ... .x.
            ... ... ...
            ... ..o ...
            ... ox. ...
            ... .o. ...
            ... ... ...
            ... .x. ...
            ... ... ...
            """,
            "x",
            "d5",
        ),
        ("c4",),
    ),
    LessonStep(
        "win-board",
        "wins-small-board",
        "ultimate",
        grid(
            """
            xx. o.. ...
            o.. ... ...
            o.. ... ...
            ... ... ...
            ... .x. ...
            ... ... ...
            ... ... ...
            ... ... ...
            ... ... ...
            """,
            "x",
            "d9",
        ),
        ("c9",),
    ),
    LessonStep(
        "block",
        "blocks-small-board",
        "ultimate",
        grid(
            """
            ... ... ...
            .o. ... ...
            ... ... ...
            ... oo. ...
            x.. .x. ...
            ... ... ...
            ... ... ...
            ... ... .x.
            ... ... ...
            """,
            "x",
            "b8",
        ),
        ("f6",),
    ),
    LessonStep(
        "free-choice",
        "wins-small-board",
        "ultimate",
        grid(
            """
            ooo ... ...
            x.. ... ...
            .x. ... ...
            ... ... ...
            ... ... ...
            ... ... ...
            ... ... o..
            ... ... ...
            ... ... xx.
            """,
            "x",
            "g3",
        ),
        ("i1",),
    ),
    LessonStep(
        "dont-send",
        "gives-no-small-board",
        "ultimate",
        grid(
            """
            oo. ... xxx
            ... ... ...
            ... ... ...
            ... ... ...
            .o. .x. ...
            x.. ... ...
            ... ... ...
            ... ... ...
            ... ... oo.
            """,
            "x",
            "b5",
        ),
        ("d4", "d5", "e4", "e6", "f5"),
    ),
    LessonStep(
        "fork",
        "wins-in-2",
        "ultimate",
        "o....x.oo/o.ooxx.xo/.x.o..x.o/..xx..xox/..xxo.xoo/.oxoooo.o/.x.xoooxx/oxx.xx.ox/"
        ".x...x.o. x g3",
        ("c7",),
    ),
    LessonStep(
        "tempo",
        "wins-in-2",
        "ultimate",
        ".o.xx.o.x/.o...oo../.xxoooo../xxx....../......o../...xxx.x./..xoo..xo/ox..o...x/"
        "xxooxoo.. x f7",
        ("i1",),
    ),
    LessonStep(
        "forced-draw",
        "leaves-no-big-line",
        "ultimate",
        grid(
            """
            ooo x.. x.o
            x.. ooo xo.
            .x. ..x ...
            x.o o.x o..
            xo. .o. xxx
            x.. x.o ..o
            o.x xox oxo
            .x. xoo oxx
            x.o oxx xoo
            """,
            "x",
            "i9",
        ),
        ("g7",),
    ),
    LessonStep("three-block", "blocks-line", "standard", "x../.o./x.. o", ("a2",)),
    LessonStep("three-fork", "wins-in-2", "standard", "x.o/o../x.. x", ("c1",)),
    LessonStep(
        "four-open-two", "wins-in-2", "standard", "...o/..../.x../.... x", ("b3", "c2"), line=3
    ),
)


def lessons_json() -> list[dict[str, Any]]:
    return [step.json() for step in LESSONS]
