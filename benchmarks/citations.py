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

Precision counts a coarse link (``Citation.exact`` false: the smallest ref that contains the
place cited, e.g. the amud of a Tosafot comment cited by its opening words) as right when it
contains the expected ref; a coarse link on a string that expects no link (a Zohar page,
which the set leaves unlinked and the linker links to its parasha) cannot be checked against
the set and is listed apart ("coarse, unchecked").

Running text: the links the Translator would make (confidence at least its
``LINK_CONFIDENCE``) in the recorded library pages (``realdata/chabadlibrary/*.json``: page
text and notes, markup removed) and in the processed sections of the open PDFs
(``realdata/pdfs/*.pdf`` through ``process_document``, offline: section text and
footnotes), per 1,000 words, and for each family how many are exact and how many coarse.
``--dump FILE`` writes every link with its context (tab-separated) for review by hand.

Usage: python benchmarks/citations.py [--data FILE] [--size 1000000] [--no-pdfs] [--dump FILE]
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
from libtext.sefaria._data import catalog
from libtext.translate import LINK_CONFIDENCE

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared"))
DEFAULT = SHARED / "data"
LIBRARY = SHARED / "realdata" / "chabadlibrary"
PDFS = SHARED / "realdata" / "pdfs"
# tags and the library's bracketed markup ([ftn_1_2], [dibur_maschil], [oldpage_לח] ...)
_MARKUP = re.compile(r"<[^>]+>|\[/?[a-z]+(?:_[^\]\s]*)?\]")

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


def contains(coarse: str, ref: str) -> bool:
    """True when ``ref`` lies inside the coarse ref (the amud, the parasha, the chapter)."""
    return ref == coarse or ref.startswith((coarse + ":", coarse + " "))


def accuracy(rows: list[dict[str, object]]) -> tuple[float, float, list[str], int]:
    right = wrong = hit = expected = unchecked = 0
    misses: list[str] = []
    for row in rows:
        found = find_citations(str(row["text"]))
        exp = row.get("expected_ref")
        good = [c for c in found if c.ref == exp or (exp and not c.exact and contains(c.ref, exp))]
        if exp:
            expected += 1
            hit += bool(good)
        right += len(good)
        bad = [c for c in found if c not in good]
        unchecked += sum(not c.exact and not exp for c in bad)
        wrong += sum(c.exact or bool(exp) for c in bad)
        refs = [c.ref + ("" if c.exact else " (coarse)") for c in found]
        if (exp and not good) or bad:
            misses.append(f"  {row['text']!r}: expected {exp!r}, found {refs!r}")
    return right / max(1, right + wrong), hit / max(1, expected), misses, unchecked


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
    ap.add_argument("--library", type=Path, default=LIBRARY)
    ap.add_argument("--pdfs", type=Path, default=PDFS)
    ap.add_argument("--no-pdfs", action="store_true", help="skip processing the open PDFs")
    ap.add_argument("--dump", type=Path, help="write every running-text link with context")
    args = ap.parse_args()
    rows = load(args.data)
    precision, recall, misses, unchecked = accuracy(rows)
    print(f"strings: {len(rows)} ({sum(1 for r in rows if r.get('expected_ref'))} with a ref)")
    print(
        f"precision: {precision:.3f}  recall: {recall:.3f}  "
        f"(coarse links on strings that expect none, unchecked: {unchecked})"
    )
    if args.verbose:
        print("\n".join(misses))
    texts = library_texts(args.library)
    if not args.no_pdfs:
        texts += pdf_texts(args.pdfs)
    running_text(texts, args.dump)

    text, planted = long_text(rows, args.size)
    find_citations(text[:10_000])  # build tables and regex outside the timing
    words = re.compile(r"[\u05d0-\u05ea\"'\u05f3\u05f4]+")
    best = base = float("inf")
    for _ in range(3):  # interleaved, so both see the same machine load
        t0 = time.process_time()  # CPU time: the machine is shared
        found = find_citations(text)
        best = min(best, time.process_time() - t0)
        t0 = time.process_time()
        n_words = sum(1 for _ in words.finditer(text))
        base = min(base, time.process_time() - t0)
    starts = sorted(planted)
    wrong = unchecked = 0
    import bisect

    for c in found:
        i = bisect.bisect_right(starts, c.start) - 1
        near = starts[i] if i >= 0 else -1
        expected = planted[near] if near >= 0 and c.start - near <= 3 else None
        if c.ref == expected or (expected and not c.exact and contains(c.ref, expected)):
            continue
        if not c.exact and near >= 0 and c.start - near <= 3 and expected is None:
            unchecked += 1  # a coarse link on a planted string that expects none (Zohar)
            continue
        wrong += 1
    mb_utf8 = len(text.encode("utf-8")) / 1e6
    print(
        f"long text: {len(text):,} chars ({mb_utf8:.2f} MB UTF-8), {len(found):,} citations, "
        f"{wrong} not at a planted citation with its expected ref "
        f"({unchecked} coarse links on planted strings that expect none)"
    )
    print(
        f"speed: {len(text) / best / 1e6:.2f} M chars/s = {mb_utf8 / best:.2f} MB/s (UTF-8), "
        f"best of 3: {best * 1000:.0f} ms CPU"
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
        ("Pirkei Avot", "Mishnah"), ("Zohar", "Zohar"), ("Rabbeinu Bahya", "Commentary"),
        ("Tosefta", "Tosefta"),
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


def library_texts(folder: Path) -> list[tuple[str, str]]:
    """``(where, text)`` of every recorded library page and its notes, markup removed."""
    out: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        data = json.loads(path.read_text("utf-8"))
        for sec in data.values():
            for ch in sec["children"]:
                for part in ("text", "notes"):
                    if ch.get(part):
                        out.append((f"{path.stem}/{ch['id']}/{part}", _MARKUP.sub("", ch[part])))
    if not out:
        print(f"library: skipped ({folder} not found)")
    return out


def pdf_texts(folder: Path) -> list[tuple[str, str]]:
    """``(where, text)`` of every section and footnote of the open PDFs, processed offline."""
    from libtext import process_document

    out: list[tuple[str, str]] = []
    for pdf in sorted(folder.glob("*.pdf")) if folder.is_dir() else []:
        doc = process_document(pdf)
        for k, section in enumerate(doc.sections):
            out.append((f"{pdf.stem}/{k}", section.original_hebrew_block))
            out += [(f"{pdf.stem}/{k}/{fn.marker}", fn.content) for fn in section.footnotes]
    if not out:
        print(f"pdfs: skipped ({folder} not found)")
    return out


def running_text(texts: list[tuple[str, str]], dump: Path | None) -> None:
    """Links per 1,000 words of running text, by family, exact and coarse."""
    if not texts:
        return
    n_words = sum(len(t.split()) for _, t in texts)
    counts: dict[str, list[int]] = {}
    lines: list[str] = []
    for where, text in texts:
        for c in find_citations(text):
            if c.confidence < LINK_CONFIDENCE:
                continue
            counts.setdefault(family(c.ref), [0, 0])[0 if c.exact else 1] += 1
            context = text[max(0, c.start - 60) : c.end + 30].replace("\n", " / ")
            lines.append(f"{where}\t{c.ref}\t{'exact' if c.exact else 'coarse'}\t{context}")
    total = sum(a + b for a, b in counts.values())
    sources = len({w.split("/")[0] for w, _ in texts})
    print(
        f"running text: {len(texts)} texts from {sources} sources, {n_words:,} words, "
        f"{total} links = {1000 * total / max(1, n_words):.2f} per 1,000 words"
    )
    for fam, (exact, coarse) in sorted(counts.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {fam:15} {exact:5} exact {coarse:5} coarse")
    if dump is not None:
        dump.write_text("\n".join(lines) + "\n", "utf-8")
        print(f"  links written to {dump}")


if __name__ == "__main__":
    main()
