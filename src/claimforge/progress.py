"""Progress reporting that pipelines call without knowing who listens (a rich bar in the CLI, nothing in tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

Tick = Callable[[int, int], None]


class Progress(Protocol):
    def stage(self, name: str) -> AbstractContextManager[Tick]:
        """A context manager for one named step; the tick reports (done, total)."""
        ...


class SilentProgress:
    @contextmanager
    def stage(self, name: str) -> Iterator[Tick]:
        yield lambda done, total: None


class RichProgress:
    """One rich progress bar per stage, with elapsed time."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.progress import (
            Progress as _Progress,
        )

        self._progress = _Progress(
            TextColumn("{task.description:<24}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),  # stdout stays for results (evaluate's JSON)
        )

    def __enter__(self) -> RichProgress:
        self._progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._progress.__exit__(*exc)

    @contextmanager
    def stage(self, name: str) -> Iterator[Tick]:
        task = self._progress.add_task(name, total=None)

        def tick(done: int, total: int) -> None:
            if total > 0:
                self._progress.update(task, completed=done, total=total)
            else:  # the total is not known yet (a streamed input): the count, and "?"
                self._progress.update(task, completed=done)

        try:
            yield tick
        finally:  # a finished step shows as complete (a lazy check, say, stops before its upper bound)
            t = self._progress.tasks[task]
            if t.total is None:
                self._progress.update(task, total=1, completed=1)
            else:
                self._progress.update(task, completed=t.total)


PHASE_SCALE = 1000


def phase(tick: Tick | None, lo: float, hi: float) -> Tick | None:
    """A step's progress callback for one phase of it: the phase's (done, total) lands on the share [lo, hi] of
    the step's bar (``tick`` receives thousandths of the step). None passes through (nobody listens)."""
    if tick is None:
        return None
    span = hi - lo
    return lambda done, total: tick(
        round(PHASE_SCALE * (lo + span * min(done / total, 1.0) if total else hi)), PHASE_SCALE
    )
