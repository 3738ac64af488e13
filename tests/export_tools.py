"""The real programs people open exported files with, found on this machine or skipped.

Debian ships them as ``libreoffice-writer-nogui`` (soffice), ``epubcheck``, ``jing`` and
``chromium``; ``.ci/run`` installs them. Each helper runs one and returns what it says.
"""

from __future__ import annotations

import gzip
import re
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TEI_SCHEMA = DATA / "tei" / "tei_all.rng.gz"
# Chromium without a window, a first-run page or any request of its own.
HEADLESS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
)
_COUNTS = re.compile(r"(\d+) fatals? / (\d+) errors? / (\d+) warnings?")


def need(program: str, package: str) -> str:
    found = shutil.which(program)
    if found is None:
        pytest.skip(f"{program} not installed (Debian package {package})")
    return found


def epubcheck(path: Path) -> tuple[int, int, int, str]:
    """(fatals, errors, warnings, output) of epubcheck on ``path``."""
    jar = Path("/usr/share/java/epubcheck.jar")
    if jar.is_file() and shutil.which("java"):
        cmd = ["java", "-jar", str(jar)]  # Debian's /usr/bin/epubcheck is the jar itself
    else:
        cmd = [need("epubcheck", "epubcheck")]
    done = subprocess.run([*cmd, str(path)], capture_output=True, text=True, timeout=300)
    out = done.stdout + done.stderr
    m = _COUNTS.search(out)
    assert m is not None, out[-2000:]
    fatals, errors, warnings = (int(g) for g in m.groups())
    return fatals, errors, warnings, out


def jing(xml: Path, tmp: Path) -> tuple[int, str]:
    """jing's exit code and messages (its launcher's classpath warnings left out),
    validating ``xml`` against TEI P5 (tei_all)."""
    program = need("jing", "jing")
    schema = tmp / "tei_all.rng"
    if not schema.is_file():
        schema.write_bytes(gzip.decompress(TEI_SCHEMA.read_bytes()))
    done = subprocess.run(
        [program, str(schema), str(xml)], capture_output=True, text=True, timeout=300
    )
    return done.returncode, done.stdout


def to_pdf(docx: Path, outdir: Path) -> Path:
    """The DOCX converted to PDF by LibreOffice, headless, with a profile of its own."""
    program = need("soffice", "libreoffice-writer-nogui")
    profile = outdir / "lo-profile"
    done = subprocess.run(
        [
            program,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(outdir),
            str(docx),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    pdf = outdir / (docx.stem + ".pdf")
    assert done.returncode == 0 and pdf.is_file(), done.stdout + done.stderr
    return pdf


class RequestTrap:
    """A 'proxy' on 127.0.0.1 that records every connection and answers nothing useful.

    A browser pointed at it sends it every request it would have sent anywhere: the
    page's own (which carry the page as ``Referer``) and the browser's background ones.
    """

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.requests: list[bytes] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    self.requests.append(conn.recv(4096))
                    conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()

    def from_page(self, origin: str) -> list[bytes]:
        """The requests a page of ``origin`` made (``Referer``: the origin, or a URL in it,
        as the browser's referrer policy gives it)."""
        needle = f"referer: {origin}".lower().encode()
        return [r for r in self.requests if needle in r.lower()]


class PageServer:
    """Serve a folder on 127.0.0.1 (so the page's requests carry a ``Referer``)."""

    def __init__(self, folder: Path) -> None:
        import functools
        from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

        paths = self.paths = []

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                paths.append(self.path)

        handler = functools.partial(Handler, directory=str(folder))
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def chromium(url: str, *, width: int, height: int, out: Path, trap: RequestTrap) -> str:
    """Render ``url`` headless at ``width`` x ``height``: screenshot to ``out``, DOM back."""
    program = shutil.which("chromium") or shutil.which("chromium-browser")
    if program is None:
        pytest.skip("chromium not installed (Debian package chromium)")
    common = [
        program,
        *HEADLESS,
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        f"--proxy-server=http://127.0.0.1:{trap.port}",
        f"--window-size={width},{height}",
        f"--user-data-dir={out.parent / 'chromium-profile'}",
    ]
    shot = subprocess.run(
        [*common, f"--screenshot={out}", url], capture_output=True, text=True, timeout=120
    )
    assert out.is_file(), shot.stderr[-2000:]
    dom = subprocess.run([*common, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    return dom.stdout


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
