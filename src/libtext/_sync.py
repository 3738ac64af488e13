"""Run libtext's async core from sync code, in scripts and in Jupyter alike.

One anyio blocking portal runs on a daemon thread for the whole process. Sync twins
hand their coroutine to it, so they work where an event loop is already running
(Jupyter) and so async clients kept on an object (an ``httpx.AsyncClient``) always
live on the same loop. ``asyncio.run`` would fail in a notebook and would give each
call a new loop.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

import anyio
import anyio.to_thread
from anyio.from_thread import BlockingPortal
from anyio.lowlevel import RunVar

from libtext.errors import LibtextError

__all__ = ["complete_twin_docs", "run_cpu", "run_sync", "with_twin_docs"]

P = ParamSpec("P")
T = TypeVar("T")

_lock = threading.Lock()
_portal: BlockingPortal | None = None


def _start_portal() -> BlockingPortal:
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def main() -> None:
        async with BlockingPortal() as portal:
            holder["portal"] = portal
            ready.set()
            await portal.sleep_until_stopped()

    def target() -> None:
        try:
            anyio.run(main)
        except BaseException as exc:  # pragma: no cover - only on a broken interpreter
            holder["error"] = exc
            ready.set()

    thread = threading.Thread(target=target, name="libtext-portal", daemon=True)
    thread.start()
    ready.wait()
    if "error" in holder:  # pragma: no cover
        raise RuntimeError("libtext could not start its event-loop thread") from holder["error"]
    portal: BlockingPortal = holder["portal"]
    return portal


def _get_portal() -> BlockingPortal:
    global _portal
    with _lock:
        if _portal is None:
            _portal = _start_portal()
        return _portal


def run_sync(fn: Callable[P, Awaitable[T]], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Call the async ``fn(*args, **kwargs)`` on libtext's loop thread and wait for it."""
    portal = _get_portal()

    async def call() -> T:
        return await fn(*args, **kwargs)

    try:
        return portal.call(call)
    except LibtextError as exc:
        # An expected error (bad input, missing key...): its traceback would run through
        # the portal's and the event loop's frames (some 40 lines) before the one line
        # that says what to do. Raised from here, it shows the caller's call instead.
        raise exc.with_traceback(None) from exc.__cause__ if exc.__cause__ else None


_CPU_THREADS: RunVar[anyio.CapacityLimiter] = RunVar("libtext_cpu_threads")
"""One worker thread per event loop for pure CPU work: the GIL runs one at a time anyway,
and each extra thread started would block the loop until it first gets the GIL."""


async def run_cpu(fn: Callable[..., T], /, *args: Any, inline: bool) -> T:
    """``fn(*args)`` on the event loop when ``inline`` (small work), else in a worker thread.

    For pure CPU work (cutting, aligning, grounding), not I/O: a small job costs less
    than the hop to a thread and back, a large one must not stall the loop.
    """
    if inline:
        return fn(*args)
    try:
        limiter = _CPU_THREADS.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(1)
        _CPU_THREADS.set(limiter)
    return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)


_TWIN = "Sync twin of"


def complete_twin_docs(*owners: Any) -> None:
    """Give each sync twin on ``owners`` (classes or modules) its async twin's full docstring.

    A twin's own docstring is the one line ``Sync twin of :meth:`aname`...``; without
    this ``Outliner.outline?`` in Jupyter would show no arguments. The one line stays
    first, then the async docstring's arguments, returns and raises.
    """
    for owner in owners:
        for name, fn in list(vars(owner).items()):
            doc = getattr(fn, "__doc__", None) or ""
            twin = getattr(owner, "a" + name, None)
            if not doc.startswith(_TWIN) or twin is None or not twin.__doc__:
                continue
            head, _, body = inspect.cleandoc(twin.__doc__).partition("\n")
            fn.__doc__ = f"{doc.strip()}\n\n{head}\n{body}".rstrip()


C = TypeVar("C", bound=type)


def with_twin_docs(cls: C) -> C:
    """Class decorator: :func:`complete_twin_docs` on the class."""
    complete_twin_docs(cls)
    return cls
