"""Heading lines of whole books, to judge by eye (an OCR layer's above all).

Prints, per PDF, its heading lines per page and every heading line (page, size, box,
text); with ``--draw PAGE``, draws that page's lines at their places and sizes into
``PAGE.png`` beside the listing (headings red, headers blue, page numbers green): an
OCR layer of a book without page images renders blank with ``pdftoppm``, so its
words are drawn from the extraction itself.

Usage::

    python scripts/ocr_headings.py OUT.txt A.pdf [B.pdf ...] [--draw 34 --draw 77]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from libtext.models import ExtractedPage
from libtext.pdf import extract_pdf

_COLOURS = {
    "heading": (220, 0, 0),
    "header": (0, 0, 220),
    "page_number": (0, 150, 0),
    "footnote": (150, 0, 150),
    "footer": (0, 150, 150),
    "margin": (200, 120, 0),
}
_FONT = "/usr/share/fonts/truetype/culmus/FrankRuehlCLM-Medium.ttf"
_SCALE = 1.4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("pdfs", nargs="+", type=Path)
    parser.add_argument("--draw", type=int, action="append", default=[])
    args = parser.parse_args()
    report = []
    for pdf in args.pdfs:
        doc = extract_pdf(pdf, guard=False)
        heads = [(pg.number, ln) for pg in doc.pages for ln in pg.lines if ln.kind == "heading"]
        per = Counter(n for n, _ in heads)
        summary = (
            f"{pdf.name}: pages {len(doc.pages)} headings {len(heads)} "
            f"per page {len(heads) / max(1, len(doc.pages)):.2f} "
            f"pages with one {len(per)} most on a page {max(per.values(), default=0)}"
        )
        print(summary)
        report.append(summary)
        report.extend(
            f"  p{n} s{ln.size:.1f} x{ln.x0:.0f}-{ln.x1:.0f} y{ln.y:.0f} | {ln.text}"
            for n, ln in heads
        )
        for number in args.draw:
            _draw(doc.pages[number - 1], args.out.parent / f"{pdf.stem}-{number}.png")
    args.out.write_text("\n".join(report) + "\n", encoding="utf-8")


def _draw(page: ExtractedPage, out: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont  # only for drawing

    image = Image.new("RGB", (int(page.width * _SCALE), int(page.height * _SCALE)), "white")
    draw = ImageDraw.Draw(image)
    for ln in page.lines:
        font = ImageFont.truetype(_FONT, max(6, int(ln.size * _SCALE)))
        colour = _COLOURS.get(ln.kind, (0, 0, 0))
        xy = (ln.x1 * _SCALE, ln.y * _SCALE)
        draw.text(xy, ln.text, font=font, fill=colour, anchor="rs", direction="rtl")
    image.save(out)


if __name__ == "__main__":
    main()
