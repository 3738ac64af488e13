"""Replay figures of LibraryClient over the recorded chabadlibrary.org pages.

Walks both recorded works (``../shared/realdata/chabadlibrary/``) through the real
``LibraryClient`` over a replay transport and prints, per work: pages walked (and
whether in recorded order), ``[…]`` markup tokens left in text or notes, notes
recorded vs parsed, notes whose printed label is not found as a marker in the text,
Hebrew words lost (recorded minus parsed, as a multiset per page), ``[hagoho]``
blocks not on a line of their own, and sections with a chapter number.

    .venv/bin/python scripts/library_replay.py
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from library_replay import WORKS, ReplayLibrary, available, hebrew_words
from libtext import LibraryClient, process_document
from libtext.errors import LibtextError

_TOKEN = re.compile(r"\[/?[A-Za-z][^\[\]]*\]")
_HAGOHO = re.compile(r"\[hagoho\](.*?)\[/hagoho\]", re.S)
_TAGS = re.compile(r"<[^>]*>")


def main() -> int:
    if not available():
        print("recorded pages not found (set LIBTEXT_SHARED); nothing to measure")
        return 0
    replay = ReplayLibrary.load()
    client = LibraryClient(
        base_url="https://replay.test/books", rate_limit=None, transport=replay.transport()
    )
    print(
        f"{'work':>12} {'pages':>7} {'order':>6} {'tokens':>7} {'notes':>11} "
        f"{'unlabeled':>9} {'lost':>6} {'hagoho':>7} {'chapters':>9}"
    )
    with client:
        for root in WORKS.values():
            recorded = replay.work(root)
            work = client.get_work(root)
            by_id = {p.id: p for p in recorded.pages}
            order_ok = [p.id for p in work.pages] == [p.id for p in recorded.pages]
            tokens = notes = unlabeled = lost = hagoho_bad = 0
            rec_notes = sum(p.haoros.count("[ftn_") for p in recorded.pages)
            for page in work.pages:
                rec = by_id[page.id]
                out = page.text + "\n" + "\n".join(f.content for f in page.footnotes)
                tokens += len(_TOKEN.findall(out))
                notes += len(page.footnotes)
                unlabeled += sum(f"[{f.marker}]" not in page.text for f in page.footnotes)
                want = Counter(hebrew_words(rec.text + "\n" + rec.haoros))
                lost += sum((want - Counter(hebrew_words(out))).values())
                lines = {" ".join(line.split()) for line in page.text.split("\n")}
                for block in _HAGOHO.findall(rec.text):
                    words = " ".join(_TAGS.sub(" ", block).split())
                    hagoho_bad += words not in lines and not any(
                        " ".join(line.strip('"()').split()) == words.strip('"()') for line in lines
                    )
            doc = client.to_document(work)
            chapters = sum(bool(s.chapter_number) for s in doc.sections)
            processed = process_document(work)
            text = "\n".join(
                s.original_hebrew_block + "\n" + "\n".join(f.content for f in s.footnotes)
                for s in processed.sections
            )
            want = Counter(
                w for p in recorded.pages for w in hebrew_words(p.text + "\n" + p.haoros)
            )
            process_lost = sum((want - Counter(hebrew_words(text))).values())
            process_tokens = len(_TOKEN.findall(text))
            print(
                f"{root:>12} {len(work.pages):>7} {'yes' if order_ok else 'NO':>6} "
                f"{tokens:>7} {notes:>5}/{rec_notes:<5} {unlabeled:>9} {lost:>6} "
                f"{hagoho_bad:>7} {chapters:>4}/{len(doc.sections):<4}"
                f"   process: {len(processed.sections)} sections, {process_tokens} tokens, "
                f"{process_lost} words lost"
            )
        phrase = "משביעים אותו"
        try:
            found = client.search(phrase)
            print(
                f"search {phrase!r}: {found.pagination.total} hits, first "
                f"{found.results[0].id if found.results else None} "
                f"heading {found.results[0].heading if found.results else ''!r}"
            )
        except LibtextError as exc:
            print(f"search {phrase!r}: {type(exc).__name__}: {exc}")
        counts = getattr(client, "search_counts", None)
        print(f"statistics: {counts(phrase) if counts else 'no search_counts()'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
