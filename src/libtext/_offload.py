"""Where CPU-bound work on untrusted input runs: worker processes a timeout can kill.

A rule that meets an input it handles badly (a line as long as a chapter) must cost
one worker process, never the server's event loop: a thread cannot be stopped and
holds the GIL while a regular expression runs, a process can be killed. The HTTP
adapter and the job runner set their PDF guard here (:func:`offloading`) around the
work they do for a request; rule-based code then runs its heavy step through
:func:`run_guarded`, in the guard's workers (``libtext.pdf._worker.TASKS`` names
what they may run). Elsewhere (a script, a notebook) the step runs in a thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread

if TYPE_CHECKING:  # pragma: no cover
    from libtext.pdf._guard import PdfGuard

__all__ = ["guard_set", "offloading", "run_guarded"]

T = TypeVar("T")

_GUARD: ContextVar[PdfGuard | None] = ContextVar("libtext_offload_guard", default=None)


@contextmanager
def offloading(guard: PdfGuard | None) -> Iterator[None]:
    """Run :func:`run_guarded` steps in ``guard``'s workers inside this block."""
    token = _GUARD.set(guard)
    try:
        yield
    finally:
        _GUARD.reset(token)


def guard_set() -> bool:
    """Whether :func:`run_guarded` steps run in worker processes here."""
    return _GUARD.get() is not None


async def run_guarded(task: str, run: Callable[..., T], /, **kwargs: Any) -> T:
    """``run(**kwargs)`` as worker task ``task`` when a guard is set, else in a thread."""
    guard = _GUARD.get()
    if guard is None:
        return await anyio.to_thread.run_sync(partial(run, **kwargs))
    return await guard.arun(task, run, **kwargs)
