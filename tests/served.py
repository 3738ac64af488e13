"""``libtext serve`` in a real process on 127.0.0.1, for the tests that need one.

One place starts the server, waits for ``/api/health`` and stops it, so that the
end-to-end, hostile-input and docs tests differ only in their flags and environment.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO

import httpx
import pytest

__all__ = ["free_port", "serve", "serving", "silent_port", "stop"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never sends a byte (a hung
    database); the connections are held open until the block ends."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@functools.cache
def _data_home() -> str:
    folder = tempfile.mkdtemp(prefix="libtext-served-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def serve(
    args: list[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdout: int | IO[bytes] = subprocess.PIPE,
    stderr: int | IO[bytes] = subprocess.STDOUT,
    output: Callable[[], str] | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``libtext serve --port N *args`` and wait until its health answers 200.

    The environment is this one without ``LIBTEXT_*`` variables, plus ``env``.
    ``output`` says what the server printed when it exits early (by default its
    piped stdout or stderr).
    """
    port = free_port()
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LIBTEXT_")}
    # The default store lives in the user's data folder: a test server's goes elsewhere.
    full_env["XDG_DATA_HOME"] = _data_home()
    full_env.update(env or {})
    cmd = [sys.executable, "-c", "from libtext.cli import main; main()", "serve"]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port), *args], env=full_env, cwd=cwd, stdout=stdout, stderr=stderr
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(proc, base, output)
    except BaseException:
        stop(proc)
        raise
    return proc, base


def _wait_healthy(
    proc: subprocess.Popen[bytes], base: str, output: Callable[[], str] | None
) -> None:
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            pipe = proc.stdout or proc.stderr
            printed = output() if output else (pipe.read().decode() if pipe else "")
            pytest.fail(f"libtext serve exited with {proc.returncode}:\n{printed}")
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            pytest.fail("libtext serve did not answer within 30 s")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def serving(
    args: list[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdout: int | IO[bytes] = subprocess.PIPE,
    stderr: int | IO[bytes] = subprocess.STDOUT,
    output: Callable[[], str] | None = None,
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """:func:`serve` for a ``with`` block: (process, base URL), stopped at the end."""
    proc, base = serve(args, env=env, cwd=cwd, stdout=stdout, stderr=stderr, output=output)
    try:
        yield proc, base
    finally:
        stop(proc)
