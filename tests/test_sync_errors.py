"""A sync twin's error reads like a plain call's: no portal or event-loop frames."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_sync_call_error_has_a_short_traceback(tmp_path: Path) -> None:
    code = "from libtext import Outliner\nOutliner().outline('nope.pdf')\n"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert (
        lines[-1] == "libtext.errors.InvalidInputError: No such file: 'nope.pdf'; check the path."
    )
    assert len(lines) <= 12, done.stderr
    assert "anyio" not in done.stderr and "concurrent" not in done.stderr
    assert "During handling" not in done.stderr  # one error, not a chain


def test_a_bug_keeps_its_whole_traceback() -> None:
    """Only libtext's own errors are shortened: an unexpected one shows where it came from."""
    from libtext._sync import run_sync

    async def broken() -> None:
        raise ZeroDivisionError("bug")

    try:
        run_sync(broken)
    except ZeroDivisionError as exc:
        frames = []
        tb = exc.__traceback__
        while tb is not None:
            frames.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
        assert "broken" in frames
    else:  # pragma: no cover
        raise AssertionError("no error")
