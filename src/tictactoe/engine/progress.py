"""Progress of long command-line work: a rich progress bar on a terminal, plain lines otherwise.

Progress goes to stderr so that a command's result on stdout stays easy to read by programs.

>>> with Progress("counting", total=2, stream=None) as progress:
...     progress.advance()
...     progress.advance()
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import IO, Any


class Progress:
    """`with Progress(description, total) as p: ... p.advance()`; plain lines at most every
    few seconds when the stream is not a terminal, nothing when `stream` is None."""

    def __init__(self, description: str, total: int, stream: IO[str] | None = sys.stderr) -> None:
        self.description = description
        self.total = total
        self.done = 0
        self.stream = stream
        self._bar: Any = None  # rich.progress.Progress, imported only on a terminal
        self._task: Any = None
        self._last_line = 0.0

    def __enter__(self) -> Progress:
        if self.stream is not None and self.stream.isatty():
            from rich.console import Console
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(console=Console(file=self.stream), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
        return self

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done += steps
        if self._bar is not None and self._task is not None:
            description = f"{self.description} {note}".rstrip()
            self._bar.update(self._task, advance=steps, description=description)
        elif self.stream is not None:
            now = time.monotonic()
            if now - self._last_line >= 2 or self.done == self.total:
                self._last_line = now
                line = f"{self.description}: {self.done}/{self.total} {note}".rstrip()
                print(line, file=self.stream, flush=True)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
