"""TextStore list/get latency at 1,000 and 100,000 texts (SQLite), and the ratio between them.

Fills two fresh SQLite stores with small texts (bulk inserts into the store's own
tables: 100,000 ``save()`` calls would only measure fsync), then measures through
the public API, median of ``--repeat`` calls each:

    list(page=1)                 the first page
    list(page=last - 1)          a page near the end
    get(random slug)             a different random slug every call
    list(page=middle)            for information: the one place an offset still grows

Goal: list and get at 100,000 texts within 2x of their time at 1,000, each under
5 ms median.

Usage: python benchmarks/store.py [--small 1000] [--large 100000] [--repeat 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from libtext._store_slugs import base_slug
from libtext._store_tables import META_TEXT_COUNT, metadata
from libtext.models import ProcessedDocument, Section, SourceMetadata
from libtext.store import DEFAULT_PAGE_SIZE, TextStore

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


def fill(store: TextStore, n: int) -> list[str]:
    """Insert ``n`` small texts in bulk, as ``save()`` would store them; return their slugs."""
    store.list()  # makes the tables
    texts = metadata.tables["libtext_texts"]
    bodies = metadata.tables["libtext_text_bodies"]
    meta = metadata.tables["libtext_meta"]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    slugs: list[str] = []
    with store.engine.begin() as conn:
        for low in range(0, n, CHUNK):
            rows: list[dict[str, Any]] = []
            body_rows: list[dict[str, Any]] = []
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
                    }
                )
                body_rows.append({"text_id": i + 1, "body": doc.model_dump_json()})
                slugs.append(slug)
            conn.execute(texts.insert(), rows)
            conn.execute(bodies.insert(), body_rows)
        conn.execute(meta.update().where(meta.c.key == META_TEXT_COUNT).values(value=n))
        conn.exec_driver_sql("ANALYZE")
    assert len(set(slugs)) == n, "benchmark titles must give distinct slugs"
    return slugs


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    for _ in range(min(20, repeat)):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def measure(folder: Path, n: int, repeat: int) -> dict[str, float]:
    path = folder / f"texts-{n}.db"
    with TextStore(f"sqlite:///{path}") as store:
        t0 = time.perf_counter()
        slugs = fill(store, n)
        print(
            f"filled {n:,} texts in {time.perf_counter() - t0:.1f} s ({path.stat().st_size / 1e6:.1f} MB)"
        )
        last = -(-n // DEFAULT_PAGE_SIZE)
        near_end = max(1, last - 1)
        middle = max(1, last // 2)
        first = store.list(page=1)
        assert first.pagination.total == n and first.texts[0].slug == slugs[-1]
        tail = store.list(page=near_end).texts
        assert (
            tail
            and tail[-1].slug == slugs[n - (near_end - 1) * DEFAULT_PAGE_SIZE - DEFAULT_PAGE_SIZE]
        )
        rng = random.Random(n)
        return {
            "list page 1": median_ms(lambda: store.list(page=1), repeat),
            "list near end": median_ms(lambda: store.list(page=near_end), repeat),
            "get random slug": median_ms(lambda: store.get(rng.choice(slugs)), repeat),
            "list middle (info)": median_ms(lambda: store.list(page=middle), max(20, repeat // 10)),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="libtext-bench-") as tmp:
        small = measure(Path(tmp), args.small, args.repeat)
        large = measure(Path(tmp), args.large, args.repeat)
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
