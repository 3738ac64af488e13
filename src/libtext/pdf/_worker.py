"""A PDF worker process: ``python -m libtext.pdf._worker <address-space bytes>``.

Started by :class:`libtext.pdf._guard.PdfGuard`. It caps its own address space
(``RLIMIT_AS``) and lowers its CPU priority (a server's event loop, in the parent,
wins the CPU when both want it), imports pdfium, says ``ready``, then answers
requests read from stdin (pickled keyword arguments of ``libtext.pdf._extract_data``,
or of another task of :data:`TASKS`)
on the original stdout, one length-prefixed frame each. Anything else written to
stdout (pdfium's warnings) goes to stderr, so it cannot corrupt the frames.
"""

from __future__ import annotations

import os
import pickle
import sys
from typing import Any

NICENESS = 10


TASKS = {
    "extract": ("libtext.pdf", "_extract_data"),
    "extract_json": ("libtext.pdf", "_extract_json"),
    "outline": ("libtext.headings", "offline_outline"),
    "translate_plan": ("libtext.translate._plan", "plan"),
    "translate_offline": ("libtext.translate._offline", "answer"),
    "translate_assemble": ("libtext.translate._assemble", "assemble"),
}
"""The work a request may name (``request["task"]``, default ``"extract"``): CPU-bound
work on untrusted input, run here so that its caller's timeout can kill it."""


def _answer(request: dict[str, Any]) -> tuple[Any, ...]:
    import importlib

    from libtext.errors import InvalidPDFError, LibtextError

    module, name = TASKS[request.pop("task", "extract")]
    run = getattr(importlib.import_module(module), name)
    try:
        if request.pop("part", False):  # one page range of a document read in parts
            from libtext.pdf import _extract_part

            return ("ok", _extract_part(**request))
        return ("ok", run(**request))
    except LibtextError as exc:
        return ("err", type(exc), exc.message, exc.details)
    except MemoryError:
        return ("memory",)
    except RecursionError:
        return (
            "err",
            InvalidPDFError,
            "The PDF's objects are nested too deeply to read; it is damaged or hostile.",
            {"source": request.get("name", "")},
        )
    except Exception as exc:  # a reader bug on a strange file: logged here, 400 there
        import traceback

        traceback.print_exc()
        return (
            "err",
            InvalidPDFError,
            f"The PDF could not be read ({type(exc).__name__}); it is damaged or unusual.",
            {"source": request.get("name", "")},
        )


def main() -> None:
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    if hasattr(os, "nice"):
        # Parsing yields the CPU to the server's event loop when both want it.
        os.nice(NICENESS)
    if limit > 0:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import pypdfium2  # noqa: F401 - imported before "ready", so the first call is warm

    from libtext.pdf import _extract_data  # noqa: F401
    from libtext.pdf._guard import read_frame, write_frame

    write_frame(out, b"ready")
    stdin = sys.stdin.buffer.fileno()
    while True:
        try:
            request = pickle.loads(read_frame(stdin))
        except EOFError:
            return
        try:
            reply = pickle.dumps(_answer(request), protocol=pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            reply = pickle.dumps(("memory",))
        write_frame(out, reply)


if __name__ == "__main__":
    main()
