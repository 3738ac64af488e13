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

Real text: citations found per 1,000 words of the recorded Tanya pages
(``realdata/chabadlibrary/Tanya.json`` in the shared data; skipped when absent), by family,
with how many of them resolve to a link the Translator would make (confidence at least its
``LINK_CONFIDENCE``), and mentions of works the linker recognises but leaves unlinked
(Zohar, Etz Chaim, Likkutei Torah ...: no Sefaria ref can be computed offline).

Usage: python benchmarks/citations.py [--data FILE] [--size 1000000] [--tanya FILE]
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
from libtext.sefaria._data import BLOCKERS, catalog, key
from libtext.translate import LINK_CONFIDENCE

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "data"
TANYA = SHARED / "realdata" / "chabadlibrary" / "Tanya.json"
_MARKUP = re.compile(r"<[^>]+>|\[/?[a-z]+\]")

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
    ap.add_argument("--tanya", type=Path, default=TANYA)
    args = ap.parse_args()
    rows = load(args.data)
    precision, recall, misses = accuracy(rows)
    print(f"strings: {len(rows)} ({sum(1 for r in rows if r.get('expected_ref'))} with a ref)")
    print(f"precision: {precision:.3f}  recall: {recall:.3f}")
    if args.verbose:
        print("\n".join(misses))
    tanya_counts(args.tanya)

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


def family(ref: str) -> str:
    """The family of a Sefaria ref, for the per-family counts."""
    cat = catalog()
    index = ref.rsplit(" ", 1)[0] if ref[-1:].isdigit() or ref[-1:] in "ab" else ref
    tanakh = {v["tanakh"] for v in cat.roles.values() if "tanakh" in v}
    bavli = {
        v["tractate"]["bavli"][0] for v in cat.roles.values() if v.get("tractate", {}).get("bavli")
    }
    for prefix, name in (
        ("Mishneh Torah", "Mishneh Torah"), ("Shulchan Arukh", "Shulchan Arukh"),
        ("Tanya", "Tanya"), ("Jerusalem Talmud", "Yerushalmi"),
        ("Mishnah Berurah", "Mishnah Berurah"), ("Mishnah ", "Mishnah"),
        ("Pirkei Avot", "Mishnah"),
    ):  # fmt: skip
        if ref.startswith(prefix):
            return name
    if " on " in ref:
        return "Commentary"
    if index.split(" ")[0] in {b.split(" ")[0] for b in bavli} and index in bavli:
        return "Bavli"
    if index in tanakh or ref.split(" ")[0] in tanakh or ref.rsplit(" ", 1)[0] in tanakh:
        return "Tanakh"
    return "Midrash"


def tanya_counts(path: Path) -> None:
    """Citations per 1,000 words of the recorded Tanya pages, by family."""
    if not path.is_file():
        print(f"tanya: skipped ({path} not found)")
        return
    data = json.loads(path.read_text("utf-8"))
    pages = [_MARKUP.sub("", ch.get("text", "")) for sec in data.values() for ch in sec["children"]]
    n_words = sum(len(p.split()) for p in pages)
    found: dict[str, list[int]] = {}
    blockers = re.compile(
        r"(?<![\u05d0-\u05ea\"'])[ובלמד]{0,2}("
        + "|".join(re.escape(b) for b in sorted(BLOCKERS, key=len, reverse=True))
        + r")(?![\u05d0-\u05ea])"
    )
    unlinked = 0
    for page in pages:
        for c in find_citations(page):
            counts = found.setdefault(family(c.ref), [0, 0])
            counts[0] += 1
            counts[1] += c.confidence >= LINK_CONFIDENCE
        unlinked += sum(1 for m in blockers.finditer(page) if key(m[1]) != 'ד"ה')
    total = sum(v[0] for v in found.values())
    print(
        f"tanya: {len(pages)} pages, {n_words:,} words, {total} citations "
        f"= {1000 * total / max(1, n_words):.2f} per 1,000 words "
        f"({sum(v[1] for v in found.values())} resolve to a link)"
    )
    for fam, (n, linked) in sorted(found.items(), key=lambda kv: -kv[1][0]):
        print(
            f"  {fam:15} {n:4} found, {linked:4} resolve ({1000 * n / n_words:.2f} / 1,000 words)"
        )
    print(
        f"  {'unlinked works':15} {unlinked:4} mentions of works cited by page (Zohar, Etz Chaim ...)"
    )


if __name__ == "__main__":
    main()
