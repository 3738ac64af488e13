"""Accuracy and speed of libtext.sefaria.find_citations.

Accuracy: every string of ``citations_dev.jsonl`` (or ``--data FILE`` with the same
fields: ``text``, ``expected_ref`` or null) is run through ``find_citations``.
precision = found refs equal to the expected ref / all refs found (a ref found in a hard
negative counts against it); recall = strings whose expected ref was found / strings with
an expected ref.

Speed: a ~1 MB text is built from the same strings embedded in Hebrew prose (fixed seed,
prose words chosen to include title look-alikes such as שם, שבת, דברים, לא); the benchmark
prints characters/s and UTF-8 MB/s, and also precision of the links found in that long text
(anything found in the prose itself is a false positive). As a baseline measured in the same
run, it also times a plain word tokenizer (``re.finditer`` over Hebrew words) on the same
text and prints the ratio, which stays comparable on a busy or slower machine.

Usage: python benchmarks/citations.py [--data FILE] [--size 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import time
from pathlib import Path

from libtext.sefaria import find_citations

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared")) / "data"

PROSE_TEXT = (
    "והנה כמו שכתוב בספרים שם הוא ענין גדול מאד ולא רק זה אלא גם זה כי אשר על כן בשבת "
    "קודש היו הדברים האלה נאמרים בבית המדרש וכל ישראל יש להם חלק לעולם הבא ויש לומר "
    'שהוא כמו שמבואר בדברי רבותינו ז"ל שמות הקדושים אינם נמחקים דברים רבים נאמרו בזה '
    "במדבר סיני היו שם ברכות רבות ושמחה גדולה תהלים ושירות ותשבחות ראה נא כי טוב הוא "
    'וזהו מה שאמרו חז"ל אין עוד מלבדו ובזה יובן שם זה לא נאמר אלא לענין התורה והמצוות '
    "נח היה איש צדיק בדורותיו ויצא יעקב מבאר שבע וילך חרנה כי בא אליו הדבר ראה לעיל "
    "ובכל זאת הוא למעלה מן הטעם ודעת פרק זה מבאר את הענין ולכן הוא דף אחד בלבד והיינו "
    "שם הוי' ושם אלקים כב ולא יותר אבות ובנים יחד משלי שלמה וקהלת ושיר השירים נאמרו "
    "ברוח הקודש ענין תמיד ושמירת הכלים והמדות ביום השבת לא יעשה מלאכה ומי שהוא חכם "
    "יבין מעצמו דבר מתוך דבר. "
)
PROSE = PROSE_TEXT.split()


def load(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def accuracy(rows: list[dict[str, object]]) -> tuple[float, float, list[str]]:
    right = wrong = hit = expected = 0
    misses: list[str] = []
    for row in rows:
        refs = [c.ref for c in find_citations(str(row["text"]))]
        exp = row.get("expected_ref")
        if exp:
            expected += 1
            hit += exp in refs
        right += sum(r == exp for r in refs)
        wrong += sum(r != exp for r in refs)
        if (exp and exp not in refs) or any(r != exp for r in refs):
            misses.append(f"  {row['text']!r}: expected {exp!r}, found {refs!r}")
    return right / max(1, right + wrong), hit / max(1, expected), misses


def long_text(rows: list[dict[str, object]], size: int) -> tuple[str, dict[int, str | None]]:
    rng = random.Random(6)
    parts: list[str] = []
    planted: dict[int, str | None] = {}
    length = 0
    while length < size:
        prose = " ".join(rng.choice(PROSE) for _ in range(rng.randint(8, 40)))
        row = rng.choice(rows)
        cite = str(row["text"])
        if not cite.startswith("(") and rng.random() < 0.5:
            cite = f"({cite})"
        chunk = prose + " " + cite + " "
        planted[length + len(prose) + 1] = row.get("expected_ref")  # type: ignore[assignment]
        parts.append(chunk)
        length += len(chunk)
    return "".join(parts), planted


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT / "citations_dev.jsonl")
    ap.add_argument("--size", type=int, default=1_000_000)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    rows = load(args.data)
    precision, recall, misses = accuracy(rows)
    print(f"strings: {len(rows)} ({sum(1 for r in rows if r.get('expected_ref'))} with a ref)")
    print(f"precision: {precision:.3f}  recall: {recall:.3f}")
    if args.verbose:
        print("\n".join(misses))

    text, planted = long_text(rows, args.size)
    find_citations(text[:10_000])  # build tables and regex outside the timing
    words = re.compile(r"[\u05d0-\u05ea\"'\u05f3\u05f4]+")
    best = base = float("inf")
    for _ in range(3):  # interleaved, so both see the same machine load
        t0 = time.perf_counter()
        found = find_citations(text)
        best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        n_words = sum(1 for _ in words.finditer(text))
        base = min(base, time.perf_counter() - t0)
    starts = sorted(planted)
    wrong = 0
    import bisect

    for c in found:
        i = bisect.bisect_right(starts, c.start) - 1
        near = starts[i] if i >= 0 else -1
        if not (near >= 0 and c.start - near <= 3 and planted[near] == c.ref):
            wrong += 1
    mb_utf8 = len(text.encode("utf-8")) / 1e6
    print(
        f"long text: {len(text):,} chars ({mb_utf8:.2f} MB UTF-8), {len(found):,} citations, "
        f"{wrong} not at a planted citation with its expected ref"
    )
    print(
        f"speed: {len(text) / best / 1e6:.2f} M chars/s = {mb_utf8 / best:.2f} MB/s (UTF-8), "
        f"best of 3: {best * 1000:.0f} ms"
    )
    print(
        f"baseline: word tokenizer ({n_words:,} words) {base * 1000:.0f} ms; "
        f"find_citations takes {best / base:.2f}x its time"
    )


if __name__ == "__main__":
    main()
