"""Make the pictures of docs/export.md: each format opened by the program people use.

The DOCX is converted to PDF by LibreOffice (headless) and its first pages of text drawn
with pypdfium2; the EPUB's first chapter and the reader page are drawn by headless
Chromium (the page at phone and at desktop width). The documents are the tests' own
(``tests/export_docs.py``): the first pages of a real siddur PDF and a recorded
chabadlibrary.org work, processed offline with a made-up English gloss per phrase.

Usage: python scripts/export_pictures.py  (needs soffice and chromium; writes docs/img/)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import export_docs  # noqa: E402
from tests.export_tools import HEADLESS, to_pdf  # noqa: E402

from libtext.export import export  # noqa: E402

OUT = ROOT / "docs" / "img"
WHEN = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)
CHROMIUM = [
    "chromium",
    *HEADLESS,
    "--proxy-server=http://127.0.0.1:9",
]


def save_small(image: object, path: Path, width: int) -> None:
    """A palette PNG at ``width`` pixels: small enough to keep in the repository."""
    from PIL import Image

    assert isinstance(image, Image.Image)
    if image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    image.convert("RGB").quantize(colors=64).save(path, optimize=True)
    print(path.relative_to(ROOT), path.stat().st_size // 1024, "KB")


def shot(url: str, width: int, height: int, tmp: Path, name: str) -> None:
    from PIL import Image

    raw = tmp / f"{name}.png"
    subprocess.run(
        [
            *CHROMIUM,
            f"--user-data-dir={tmp / 'profile'}",
            f"--window-size={width},{height}",
            f"--screenshot={raw}",
            url,
        ],
        capture_output=True,
        check=True,
        timeout=120,
    )
    save_small(Image.open(raw), OUT / f"{name}.png", min(width, 800))


def main() -> None:
    import pypdfium2 as pdfium

    OUT.mkdir(parents=True, exist_ok=True)
    siddur = export_docs.pdf_document()
    library = export_docs.library_document()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        docx = tmp / "siddur.docx"
        export(siddur, "docx", docx, exported_at=WHEN)
        pdf = pdfium.PdfDocument(to_pdf(docx, tmp))  # LibreOffice, headless
        page = pdf[min(8, len(pdf) - 1)]  # a page of pointed, cantillated prayer text
        save_small(page.render(scale=1.4).to_pil(), OUT / "export-docx.png", 700)

        epub = tmp / "library.epub"
        export(library, "epub", epub, exported_at=WHEN)
        book = tmp / "book"
        zipfile.ZipFile(epub).extractall(book)
        shot((book / "OEBPS" / "s1.xhtml").as_uri(), 800, 1000, tmp, "export-epub")

        page_file = tmp / "reader.html"
        export(library, "html", page_file, exported_at=WHEN)
        shot(page_file.as_uri(), 390, 844, tmp, "export-html-phone")
        export(siddur, "html", page_file, exported_at=WHEN)
        shot(page_file.as_uri(), 1280, 900, tmp, "export-html-desktop")


if __name__ == "__main__":
    main()
