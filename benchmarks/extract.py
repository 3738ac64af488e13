"""Extraction speed on real books: libtext next to pdfium's own text, CPU pages/s.

One run, contenders taken in turns (file by file, round by round), so a busy machine
slows all alike. Every figure is CPU time (``time.process_time``; for a child process
its own user + system time), as wall time on a shared machine says more about the
other work than about the reader. Per contender and file the best and the median of
``--repeat`` rounds are kept; a total is all pages over the sum of the per-file times.

First table, the real open set (``../shared/realdata/pdfs``, 22 files):

* ``libtext``: ``extract_pdf(guard=False)`` in this process;
* ``guarded``: ``extract_pdf`` through a :class:`~libtext.pdf.PdfGuard` (``--workers``
  worker processes): the CPU time of its workers (read from ``/proc``; the worker
  starts in a session of its own, and on a loaded machine the scheduler gives that
  session its own CPU share, so its *wall* time looks faster than the same work here);
* ``pdfium raw``: pypdfium2's ``get_text_range()`` per page (open, every page, close):
  the floor for any reader built on pdfium; ``libtext / pdfium`` is libtext's share of it;
* ``pdftotext`` (poppler, a child's CPU time) and ``PyMuPDF`` (``get_text()`` per page),
  each skipped with a note when absent.

Second table, ``../shared/fixtures/big.pdf`` (generated, 398 pages): libtext, pdfium raw
and plain pdfplumber (``extract_text()``, timed on ``--sample`` pages spread over the
book), with libtext's ratio to pdfplumber and its share of pdfium.

``--wall-workers`` adds a third table: wall pages/s of the guard with 1 and 2 worker
processes on the largest file (a big PDF is split into page ranges read in parallel
by idle workers); only meaningful on idle cores, so the load average is printed.

    python benchmarks/extract.py [--repeat 3] [--only indesign] [--wall-workers]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pypdfium2

from libtext import extract_pdf
from libtext.pdf import PdfGuard

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
_TICK = os.sysconf("SC_CLK_TCK")

Timer = Callable[[Path], float]
"""Reads one PDF; returns the CPU seconds it took."""


def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def _children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def libtext_in_process(path: Path) -> float:
    cpu = time.process_time()
    extract_pdf(path, guard=False, max_pages=None, max_bytes=None)
    return time.process_time() - cpu


def guarded(guard: PdfGuard) -> Timer:
    def run(path: Path) -> float:
        pids = [w.proc.pid for w in guard._idle]
        before = sum(_proc_cpu(pid) for pid in pids)
        extract_pdf(path, guard=guard, max_pages=None, max_bytes=None)
        after = [w.proc.pid for w in guard._idle]
        if sorted(after) != sorted(pids):
            raise RuntimeError("a worker was replaced during the run: its CPU time is lost")
        return sum(_proc_cpu(pid) for pid in pids) - before

    return run


def pdfium_raw(path: Path) -> float:
    cpu = time.process_time()
    doc = pypdfium2.PdfDocument(path)
    try:
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
    finally:
        doc.close()
    return time.process_time() - cpu


def pdftotext(path: Path) -> float:
    cpu = _children_cpu()
    subprocess.run(["pdftotext", "-q", str(path), "-"], check=False, capture_output=True)
    return _children_cpu() - cpu


def mupdf_text(path: Path) -> float:
    import pymupdf as fitz

    cpu = time.process_time()
    with fitz.open(path) as doc:
        for page in doc:
            page.get_text()
    return time.process_time() - cpu


def pdfplumber_sample(sample: int) -> Callable[[Path], tuple[float, int]]:
    def run(path: Path) -> tuple[float, int]:
        import pdfplumber

        with pdfplumber.open(path) as pdf:
            total = len(pdf.pages)
            step = max(1, total // sample)
            indices = list(range(0, total, step))[:sample]
            cpu = time.process_time()
            for i in indices:
                pdf.pages[i].extract_text()
            return time.process_time() - cpu, len(indices)

    return run


def page_count(path: Path) -> int:
    doc = pypdfium2.PdfDocument(path)
    try:
        return len(doc)
    finally:
        doc.close()


def contenders(guard: PdfGuard) -> tuple[dict[str, Timer], list[str]]:
    found: dict[str, Timer] = {
        "libtext": libtext_in_process,
        "guarded": guarded(guard),
        "pdfium raw": pdfium_raw,
    }
    missing = []
    if shutil.which("pdftotext"):
        found["pdftotext"] = pdftotext
    else:
        missing.append("pdftotext (apt-get install poppler-utils)")
    try:
        import pymupdf  # noqa: F401

        found["PyMuPDF"] = mupdf_text
    except ImportError:
        missing.append("PyMuPDF (pip install pymupdf)")
    return found, missing


def measure(
    files: list[Path], timers: dict[str, Timer], repeat: int
) -> dict[str, dict[Path, list[float]]]:
    """CPU seconds per contender and file, one list entry per round, in turns."""
    times: dict[str, dict[Path, list[float]]] = {name: {f: [] for f in files} for name in timers}
    for _ in range(repeat):
        for f in files:
            for name, timer in timers.items():
                times[name][f].append(timer(f))
    return times


def table(
    title: str, files: list[Path], pages: dict[Path, int], times: dict[str, dict[Path, list[float]]]
) -> None:
    names = list(times)
    print(f"\n{title} (CPU pages/s, best / median of {len(next(iter(times['libtext'].values())))})")
    head = (
        f"{'file':<44}{'pages':>6}" + "".join(f"{n:>20}" for n in names) + f"{'libtext/pdfium':>16}"
    )
    print(head)
    print("-" * len(head))

    def rate(n: int, secs: float) -> str:
        # A child's CPU time comes in clock ticks (10 ms): a tiny file may take none.
        return f"{n / secs:.0f}" if secs > 0 else "<tick"

    def row(label: str, n: int, per: dict[str, list[float]]) -> None:
        cells = ""
        for name in names:
            best, med = rate(n, min(per[name])), rate(n, statistics.median(per[name]))
            cells += f"{best:>11} / {med:<6}"
        share = min(per["pdfium raw"]) / max(min(per["libtext"]), 1e-9)
        print(f"{label:<44}{n:>6}{cells}{share:>15.2f}")

    for f in files:
        row(f.stem[:43], pages[f], {name: times[name][f] for name in names})
    total = sum(pages[f] for f in files)
    # The total's rounds: each round's sum over the files.
    rounds = len(next(iter(times["libtext"].values())))
    per_round = {
        name: [sum(times[name][f][r] for f in files) for r in range(rounds)] for name in names
    }
    best_sum = {name: [sum(min(times[name][f]) for f in files)] for name in names}
    print("-" * len(head))
    row("total (sum of per-file best)", total, best_sum)
    row("total (per round)", total, per_round)


def wall_workers(path: Path, repeat: int) -> None:
    """Wall pages/s of the guard with one and with two workers on ``path``, and the CPU
    time each way (the workers' and this process's, which puts the parts together)."""
    n = page_count(path)
    print(f"\n{path.name}, {n} pages: guarded, 1 vs 2 workers, best of {repeat}")
    print(f"load average before: {os.getloadavg()[0]:.2f} (wall is meaningful below 1)")
    guards = {k: PdfGuard(concurrency=k) for k in (1, 2)}
    for guard in guards.values():
        guard.warm()
        extract_pdf(path, guard=guard, max_pages=None, max_bytes=None)
    best = {k: float("inf") for k in guards}
    best_cpu = {k: float("inf") for k in guards}
    for _ in range(repeat):
        for k, guard in guards.items():
            pids = [w.proc.pid for w in guard._idle]
            cpu = time.process_time() + sum(_proc_cpu(pid) for pid in pids)
            wall = time.perf_counter()
            extract_pdf(path, guard=guard, max_pages=None, max_bytes=None)
            best[k] = min(best[k], time.perf_counter() - wall)
            used = time.process_time() + sum(_proc_cpu(pid) for pid in pids) - cpu
            best_cpu[k] = min(best_cpu[k], used)
    for k in guards:
        print(
            f"  {k} worker(s): {n / best[k]:8.1f} pages/s wall ({best[k]:.2f} s), "
            f"{n / best_cpu[k]:8.1f} pages/s CPU ({best_cpu[k]:.2f} s, all processes)"
        )
    print(f"  2 workers / 1 worker, wall: {best[1] / best[2]:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for guard in guards.values():
        guard.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED / "realdata" / "pdfs")
    parser.add_argument("--fixtures", type=Path, default=SHARED / "fixtures")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--sample", type=int, default=40, help="big.pdf pages timed with pdfplumber"
    )
    parser.add_argument("--workers", type=int, default=1, help="the guarded contender's workers")
    parser.add_argument(
        "--only", default="", help="only the open set's files whose name holds this"
    )
    parser.add_argument("--no-big", action="store_true", help="skip the big.pdf table")
    parser.add_argument("--wall-workers", action="store_true", help="1 vs 2 workers, wall time")
    args = parser.parse_args()

    try:
        from libtext.pdf._compiled import describe
    except ImportError:  # before the compiled twin

        def describe() -> str:
            return "pure Python"

    print(f"libtext's per-character path: {describe()}")
    print(f"load average: {os.getloadavg()[0]:.2f} (2 cores shared: CPU time is the figure)")
    guard = PdfGuard(concurrency=args.workers)
    guard.warm()
    timers, missing = contenders(guard)
    for note in missing:
        print(f"skipped: {note}")
    files = sorted(p for p in args.data.glob("*.pdf") if args.only in p.name)
    pages = {f: page_count(f) for f in files}
    for f in files[:1]:  # warm: imports, the worker's first call
        for timer in timers.values():
            timer(f)
    times = measure(files, timers, args.repeat)
    table(f"Open set: {args.data}", files, pages, times)

    if not args.no_big:
        big = args.fixtures / "big.pdf"
        big_timers = {name: timers[name] for name in ("libtext", "guarded", "pdfium raw")}
        big_times = measure([big], big_timers, args.repeat)
        table("big.pdf (generated)", [big], {big: page_count(big)}, big_times)
        plumber = pdfplumber_sample(args.sample)
        secs, sampled = min(plumber(big) for _ in range(max(1, args.repeat - 1)))
        plumber_pps = sampled / secs
        libtext_pps = page_count(big) / min(big_times["libtext"][big])
        print(
            f"pdfplumber extract_text() on {sampled} sampled pages: {plumber_pps:.1f} CPU pages/s"
        )
        print(f"libtext / pdfplumber: {libtext_pps / plumber_pps:.1f}x")
    guard.close()

    if args.wall_workers:
        largest = max(files, key=lambda f: pages[f])
        wall_workers(largest, args.repeat)


if __name__ == "__main__":
    main()
