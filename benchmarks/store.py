"""TextStore list/get latency at 1,000 and 100,000 texts (SQLite), and the ratio between them.

Fills two fresh SQLite stores with small texts (bulk inserts into the store's own
tables: 100,000 ``save()`` calls would only measure fsync), each with ``--revisions``
revisions (the older ones kept in the history table, as section edits leave them:
they must not slow ``list`` or ``get``), then measures through
the public API, median of ``--repeat`` calls each, the calls on the two stores
interleaved so that load from other processes weighs on both sizes alike:

    list(page=1)                 the first page
    list(page=last - 1)          a page near the end
    get(random slug)             a different random slug every call
    list(page=middle)            for information: the one place an offset still grows

Goal: list and get at 100,000 texts within 2x of their time at 1,000, each under
5 ms median.

Usage: python benchmarks/store.py [--small 1000] [--large 100000] [--repeat 300] [--revisions 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from libtext.models import ProcessedDocument, Section, SourceMetadata
from libtext.store import DEFAULT_PAGE_SIZE, TextStore
from libtext.store._slugs import base_slug
from libtext.store._tables import RevisionRow, metadata

CHUNK = 10_000


def small_doc(i: int) -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata=SourceMetadata(
            publication_title=f"ספר {i}", work_title="חלק א", author_name="מחבר"
        ),
        sections=[
            Section(sequence_id=1, chapter_title="פרק א", original_hebrew_block=f"שלום עולם {i}")
        ],
        page_count=1,
    )


def fill(store: TextStore, n: int, revisions: int = 1) -> list[str]:
    """Insert ``n`` small texts in bulk, as ``save()`` and edits would store them.

    Each text is at revision ``revisions``; the older ones are in the history table
    with their documents (the database's triggers count them). Returns the slugs.
    """
    store.list()  # makes the tables
    texts = metadata.tables["libtext_texts"]
    bodies = metadata.tables["libtext_text_bodies"]
    history = metadata.tables[RevisionRow.__tablename__]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    slugs: list[str] = []
    with store.engine.begin() as conn:
        for low in range(0, n, CHUNK):
            rows: list[dict[str, Any]] = []
            body_rows: list[dict[str, Any]] = []
            history_rows: list[dict[str, Any]] = []
            for i in range(low, min(low + CHUNK, n)):
                doc = small_doc(i)
                meta_i = doc.source_metadata
                slug = base_slug(meta_i.publication_title, meta_i.work_title)
                at = start + timedelta(milliseconds=i)
                rows.append(
                    {
                        "id": i + 1,
                        "slug": slug,
                        "publication_title": meta_i.publication_title,
                        "work_title": meta_i.work_title,
                        "author_name": meta_i.author_name,
                        "page_count": doc.page_count,
                        "work_id": None,
                        "first_page_id": None,
                        "last_page_id": None,
                        "created_at": at,
                        "updated_at": at,
                        "revision": revisions,
                    }
                )
                body = doc.model_dump_json()
                body_rows.append({"text_id": i + 1, "body": body})
                for number in range(1, revisions + 1):
                    history_rows.append(
                        {
                            "text_id": i + 1,
                            "number": number,
                            "created_at": at,
                            "change": "save" if number == 1 else "edit",
                            "sections": "[]" if number == 1 else "[1]",
                            "body": body if number < revisions else None,
                        }
                    )
                slugs.append(slug)
            conn.execute(texts.insert(), rows)
            conn.execute(bodies.insert(), body_rows)
            conn.execute(history.insert(), history_rows)
    assert len(set(slugs)) == n, "benchmark titles must give distinct slugs"
    return slugs


def medians_ms(calls: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """Median of each call, the calls interleaved so machine load hits all of them alike."""
    for fn in calls.values():
        for _ in range(20):
            fn()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, fn in calls.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) * 1000 for name, ts in times.items()}


def prepare(
    folder: Path, n: int, revisions: int
) -> tuple[TextStore, dict[str, tuple[Callable[[], Any], int]]]:
    """A store of ``n`` texts and the calls to time on it (with their repeat divisor)."""
    path = folder / f"texts-{n}.db"
    store = TextStore(f"sqlite:///{path}")
    t0 = time.perf_counter()
    slugs = fill(store, n, revisions)
    # The fill's hundreds of MB are still being written back to disk: let that finish
    # first, or the first calls timed pay for it (more the larger the file).
    with store.engine.begin() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    os.sync()
    size = sum(p.stat().st_size for p in folder.glob(f"texts-{n}.db*")) / 1e6
    print(
        f"filled {n:,} texts x {revisions} revisions in {time.perf_counter() - t0:.1f} s "
        f"({size:.1f} MB)"
    )
    last = -(-n // DEFAULT_PAGE_SIZE)
    near_end = max(1, last - 1)
    middle = max(1, last // 2)
    first = store.list(page=1)
    assert first.pagination.total == n and first.texts[0].slug == slugs[-1]
    tail = store.list(page=near_end).texts
    assert tail[0].slug == slugs[n - 1 - (near_end - 1) * DEFAULT_PAGE_SIZE]
    rng = random.Random(n)
    return store, {
        "list page 1": (lambda: store.list(page=1), 1),
        "list near end": (lambda: store.list(page=near_end), 1),
        "get random slug": (lambda: store.get(rng.choice(slugs)), 1),
        "list middle (info)": (lambda: store.list(page=middle), 10),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument(
        "--revisions", type=int, default=3, help="revisions per text (older ones in the history)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="libtext-bench-") as tmp:
        small_store, small_calls = prepare(Path(tmp), args.small, args.revisions)
        large_store, large_calls = prepare(Path(tmp), args.large, args.revisions)
        small: dict[str, float] = {}
        large: dict[str, float] = {}
        for name, (small_fn, divisor) in small_calls.items():
            large_fn = large_calls[name][0]
            got = medians_ms(
                {"small": small_fn, "large": large_fn}, max(20, args.repeat // divisor)
            )
            small[name], large[name] = got["small"], got["large"]
        small_store.close()
        large_store.close()
    print()
    print(
        f"{'median (ms)':<22}{args.small:>12,}{args.large:>12,}{'ratio':>9}  goal (<= 2x, < 5 ms)"
    )
    ok = True
    for name in small:
        ratio = large[name] / small[name]
        goal = ""
        if "info" not in name:
            met = ratio <= 2.0 and large[name] < 5.0 and small[name] < 5.0
            ok &= met
            goal = "met" if met else "MISSED"
        print(f"{name:<22}{small[name]:>12.3f}{large[name]:>12.3f}{ratio:>8.2f}x  {goal}")
    print()
    print("all goals met" if ok else "some goals missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
