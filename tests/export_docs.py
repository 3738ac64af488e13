"""Documents to export, processed offline from real sources, with English from a fake model.

The offline provider cuts and links but leaves the English empty; a function provider
gives every phrase and footnote an English gloss made from its Hebrew (so it is
different for each phrase, and any reordering shows). One document is processed from
the first pages of a real PDF of ``../shared/realdata/pdfs``, the other from the
recorded chabadlibrary.org pages (``tests/library_replay.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from tests.library_replay import BOOK_2800, SHARED, ReplayLibrary, available

from libtext import RetryPolicy, process_document
from libtext.library import LibraryClient
from libtext.models import ProcessedDocument
from libtext.providers.base import ProviderRequest
from libtext.providers.function import FunctionProvider
from libtext.translate import Translator
from libtext.translate._schema import TranslatePayload

PDFS = SHARED / "realdata" / "pdfs"
PDF = PDFS / "kasimer_siddur_shabbat_xelatex.pdf"  # pointed, cantillated, links, notes
PDF_PAGES = 40

_LETTERS = "bcdfghjklmnprstv"
HEBREW_WORD = re.compile(r"[\u05d0-\u05ea]+")
MARKS = re.compile(r"[\u0591-\u05c7]")


def gloss(hebrew: str, kind: str = "gloss") -> str:
    """A made-up English word pair for a Hebrew phrase: ``gloss tkbr``."""
    digest = hashlib.sha1(hebrew.encode()).digest()[:4]
    word = "".join(_LETTERS[b % 16] + "aeiou"[b % 5] for b in digest)
    return f"{kind} {word}"


def _answer(request: ProviderRequest) -> dict[str, object]:
    payload = request.payload
    assert isinstance(payload, TranslatePayload)
    phrases = [p for p in payload.phrases if p.strip()]
    return {
        "phrases": [
            {"hebrew_phrase": p, "hebrew_phrase_expanded": p, "english_translation": gloss(p)}
            for p in phrases
        ],
        "footnotes": [
            {"marker": f.marker, "translation": gloss(f.content, "note")} for f in payload.footnotes
        ],
    }


def translator() -> Translator:
    return Translator(provider=FunctionProvider(_answer, name="gloss"))


def pdf_available() -> bool:
    return PDF.is_file()


def pdf_document() -> ProcessedDocument:
    """The first pages of a real siddur PDF, outlined offline, glossed."""
    from libtext import extract_pdf

    extracted = extract_pdf(PDF, pages=range(PDF_PAGES))
    return process_document(extracted, translator=translator(), cache=False)


def library_available() -> bool:
    return available()


def library_document() -> ProcessedDocument:
    """A recorded chabadlibrary.org work with footnotes, through the real client."""
    replay = ReplayLibrary.load()
    with LibraryClient(
        base_url="https://replay.test/books",
        rate_limit=None,
        retry=RetryPolicy(max_attempts=1),
        transport=replay.transport(),
    ) as client:
        work = client.get_work(BOOK_2800, max_pages=12)
    return process_document(work, translator=translator(), cache=False)


def hebrew_letters(text: str) -> list[str]:
    """Hebrew words with points and cantillation removed (as compared after a round trip)."""
    return HEBREW_WORD.findall(MARKS.sub("", text))


def dump(document: ProcessedDocument, path: Path) -> None:
    path.write_text(json.dumps(document.model_dump(mode="json"), ensure_ascii=False), "utf-8")
