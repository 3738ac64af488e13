"""Jupyter HTML views: bilingual layout, clickable Sefaria links, hostile text escaped."""

from __future__ import annotations

from html.parser import HTMLParser

from libtext.models import (
    DocumentOutline,
    Footnote,
    OutlineSegment,
    ProcessedDocument,
    Section,
    SourceMetadata,
    TranslationData,
)

HOSTILE = '<script>alert("x")</script>'


class Collect(HTMLParser):
    """Tags, attributes and text of an HTML string, as a browser would parse them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def document() -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata=SourceMetadata(work_title=f"ספר {HOSTILE}", author_name="מחבר"),
        page_count=2,
        sections=[
            Section(
                sequence_id=1,
                chapter_title="פרק א",
                segment_title=f"פרק א {HOSTILE}",
                original_hebrew_block="ויאמר אלהים (בראשית א, ג)",
                translation_data=[
                    TranslationData(
                        hebrew_phrase="ויאמר אלהים",
                        hebrew_phrase_expanded='ויאמר אלהים" onmouseover="x',
                        english_translation=f"And God said {HOSTILE}",
                    ),
                    TranslationData(
                        hebrew_phrase="(בראשית א, ג)",
                        english_translation="(Genesis 1:3)",
                        sefaria_link="https://www.sefaria.org/Genesis.1.3",
                    ),
                    TranslationData(
                        hebrew_phrase="עוד",
                        english_translation="more",
                        sefaria_link="javascript:alert(1)",
                    ),
                ],
                footnotes=[Footnote(marker="(א)", content="בראשית א, א.", translation=HOSTILE)],
            ),
            Section(
                sequence_id=2,
                chapter_title="פרק ב",
                original_hebrew_block="טקסט שלא תורגם",
                error="provider_error: model overloaded",
            ),
        ],
    )


def test_document_view_is_bilingual_and_linked() -> None:
    html = document()._repr_html_()
    parsed = Collect(html)
    tags = [t for t, _ in parsed.tags]
    assert "script" not in tags  # hostile markup stays text
    assert HOSTILE in "".join(parsed.text)  # ... and is shown as written
    anchors = [a for t, a in parsed.tags if t == "a"]
    assert [a["href"] for a in anchors] == ["https://www.sefaria.org/Genesis.1.3"]
    assert all(a.get("rel") == "noopener noreferrer" for a in anchors)
    rtl = [a for _, a in parsed.tags if a.get("dir") == "rtl"]
    assert len(rtl) >= 4  # title, phrases, notes are laid out right-to-left
    assert not any("onmouseover" in a for _, a in parsed.tags)  # attribute not broken out of
    text = "".join(parsed.text)
    assert "(Genesis 1:3)" in text and "פרק ב" in text
    assert "model overloaded" in text and "טקסט שלא תורגם" in text  # failure shown, Hebrew kept
    assert "javascript:alert(1)" in text  # an unsafe link is shown, not made clickable


def test_outline_view_escapes() -> None:
    outline = DocumentOutline(
        source_metadata=SourceMetadata(publication_title=HOSTILE),
        outline_segments=[
            OutlineSegment(
                sequence_id=1,
                chapter_title="פרק א",
                summary=HOSTILE,
                page_ref="2",
                start_phrase_hebrew="אשרי תמימי",
                end_phrase_hebrew="דרך",
            )
        ],
    )
    parsed = Collect(outline._repr_html_())
    assert "script" not in [t for t, _ in parsed.tags]
    text = "".join(parsed.text)
    assert (
        text.count(HOSTILE) == 2 and "אשרי תמימי" in text and "1 segment#" in text
    )  # singular for one


def test_outline_summary_follows_its_own_direction() -> None:
    """A Hebrew summary (the offline provider's) is not squeezed into a left-to-right cell."""
    hebrew = "משה קבל תורה מסיני, ומסרה ליהושע."
    outline = DocumentOutline(
        source_metadata=SourceMetadata(work_title="פרקי אבות"),
        outline_segments=[
            OutlineSegment(sequence_id=1, chapter_title="פרק א", summary=hebrew, page_ref="2")
        ],
    )
    parsed = Collect(outline._repr_html_())
    cells = [a for t, a in parsed.tags if t == "td"]
    summary_cell = cells[3]  # columns: #, page, title, summary, span
    assert summary_cell.get("dir") == "auto"
    # Only the bilingual tables split their width in halves; the outline table does not.
    assert not [a for t, a in parsed.tags if t == "table" and "lt-pair" in (a.get("class") or "")]
    doc_tables = [a for t, a in Collect(document()._repr_html_()).tags if t == "table"]
    assert doc_tables and all("lt-pair" in (a.get("class") or "") for a in doc_tables)
