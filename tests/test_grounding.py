"""Grounding: phrases end up verbatim in the text; near misses repaired, inventions dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from libtext.grounding import GroundingIndex, first_page, ground_outline
from libtext.hebrew import strip_nikud
from libtext.models import (
    DocumentOutline,
    ExtractedDocument,
    ExtractedLine,
    ExtractedPage,
    OutlineSegment,
)
from libtext.pdf import extract_pdf


def page(number: int, *lines: str, heading: int | None = 0) -> ExtractedPage:
    """A page whose line ``heading`` (index) is a heading and the rest body."""
    return ExtractedPage(
        number=number,
        lines=[
            ExtractedLine(text=t, kind="heading" if i == heading else "body")
            for i, t in enumerate(lines)
        ],
    )


DOC = ExtractedDocument(
    pages=[
        page(1, "ספר הדוגמה", heading=None),
        page(
            2,
            "פרק א",
            "אָמַר רַבִּי שִׁמְעוֹן: כָּל־הָעוֹלָם כֻּלּוֹ",
            'נִבְרָא בִּשְׁבִיל הַתּוֹרָה, כמו שאמרו חז"ל',
            "בגמרא במסכת שבת פרק שני.",
        ),
        page(
            3,
            "פרק ב",
            "ועוד אמרו: אל תהי כעבדים המשמשין את הרב",
            "על מנת לקבל פרס, אלא הוו כעבדים",
            "המשמשין את הרב שלא על מנת לקבל פרס.",
        ),
        page(
            4,
            "פרק ג",
            "הוא היה אומר: אם אין אני לי מי לי",
            "וכשאני לעצמי מה אני, ואם לא עכשיו אימתי.",
        ),
    ]
)
TEXT = DOC.text


def seg(start: str, end: str, page_ref: str = "", title: str = "", seq: int = 1) -> OutlineSegment:
    return OutlineSegment(
        sequence_id=seq,
        chapter_title=title,
        page_ref=page_ref,
        start_phrase_hebrew=start,
        end_phrase_hebrew=end,
    )


def ground(*segments: OutlineSegment) -> tuple[list[OutlineSegment], object]:
    outline, report = ground_outline(DocumentOutline(outline_segments=list(segments)), DOC)
    return outline.outline_segments, report


def test_exact_phrases_are_kept() -> None:
    segs, report = ground(
        seg("ועוד אמרו: אל תהי כעבדים", "שלא על מנת לקבל פרס.", "3", "פרק ב"),
    )
    assert segs[0].start_phrase_hebrew == "ועוד אמרו: אל תהי כעבדים"
    assert segs[0].end_phrase_hebrew == "שלא על מנת לקבל פרס."
    assert (report.exact, report.repaired, report.dropped, report.page_mismatches) == (2, 0, 0, 0)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        # nikud dropped by the model
        ("אמר רבי שמעון: כל־העולם כלו", "אָמַר רַבִּי שִׁמְעוֹן: כָּל־הָעוֹלָם כֻּלּוֹ"),
        # maqaf written as a hyphen, and as a space
        ("אָמַר רַבִּי שִׁמְעוֹן: כָּל-הָעוֹלָם", "אָמַר רַבִּי שִׁמְעוֹן: כָּל־הָעוֹלָם"),
        ("אמר רבי שמעון: כל העולם", "אָמַר רַבִּי שִׁמְעוֹן: כָּל־הָעוֹלָם"),
    ],
)
def test_nikud_and_maqaf_variants_are_repaired(given: str, expected: str) -> None:
    segs, report = ground(seg(given, "בגמרא במסכת שבת פרק שני.", "2"))
    assert segs[0].start_phrase_hebrew == expected
    assert expected in TEXT
    assert report.repaired == 1 and report.exact == 1


def test_quote_whitespace_and_final_letter_variants_are_repaired() -> None:
    # gershayim for ASCII '"', a line break joined with a double space, a final letter
    # written as a regular one (שמעונ for שמעון is not Hebrew, but models do it).
    segs, report = ground(
        seg("כמו שאמרו חז״ל  בגמרא במסכת", "מי לי וכשאני לעצמי", "2"),
    )
    assert segs[0].start_phrase_hebrew == 'כמו שאמרו חז"ל\nבגמרא במסכת'
    assert segs[0].end_phrase_hebrew == "מי לי\nוכשאני לעצמי"
    assert report.repaired == 2
    segs, _ = ground(seg("אמר רבי שמעונ: כל", "בגמרא במסכת שבת", "2"))
    assert segs[0].start_phrase_hebrew == "אָמַר רַבִּי שִׁמְעוֹן: כָּל"


def test_repaired_span_is_verbatim_with_its_nikud_and_punctuation() -> None:
    segs, _ = ground(seg("נברא בשביל התורה כמו", "בגמרא במסכת שבת", "2"))
    span = segs[0].start_phrase_hebrew
    assert span in TEXT
    assert strip_nikud(span) == "נברא בשביל התורה, כמו"


def test_invented_phrase_drops_the_segment_and_counts_it() -> None:
    segs, report = ground(
        seg("אמר רבי שמעון: כל", "פרק שני.", "2", "פרק א", 1),
        seg("זה משפט שאינו מופיע בטקסט כלל ועיקר", "שום דבר", "3", "פרק ב", 2),
        seg("הוא היה אומר: אם אין אני לי", "ואם לא עכשיו אימתי.", "4", "פרק ג", 3),
    )
    assert [s.chapter_title for s in segs] == ["פרק א", "פרק ג"]
    assert [s.sequence_id for s in segs] == [1, 2]
    assert report.dropped == 1 and report.segments == 3


def test_page_ref_is_corrected_to_where_the_start_is() -> None:
    segs, report = ground(seg("הוא היה אומר: אם אין", "אימתי.", "2", "פרק ג"))
    assert segs[0].page_ref == "4"
    assert report.page_mismatches == 1


def test_unfindable_end_is_repaired_to_words_before_the_next_start() -> None:
    segs, report = ground(
        seg("ועוד אמרו: אל תהי", "סוף מומצא שאינו בטקסט בכלל", "3", "פרק ב", 1),
        seg("הוא היה אומר: אם", "אימתי.", "4", "פרק ג", 2),
    )
    end = segs[0].end_phrase_hebrew
    assert end in TEXT
    assert TEXT.index(end) < TEXT.index("הוא היה אומר")
    assert end.endswith("שלא על מנת לקבל פרס.")  # the heading "פרק ג" is skipped
    assert "פרק ג" not in end
    assert report.repaired == 1 and report.exact == 3


def test_end_phrase_beyond_the_next_segment_is_not_accepted() -> None:
    segs, _ = ground(
        seg("ועוד אמרו: אל תהי", "ואם לא עכשיו אימתי.", "3", "פרק ב", 1),
        seg("הוא היה אומר: אם", "אימתי.", "4", "פרק ג", 2),
    )
    assert TEXT.index(segs[0].end_phrase_hebrew) < TEXT.index("הוא היה אומר")


def test_segments_are_sorted_and_window_duplicates_merged() -> None:
    # Two windows overlapping on page 3 both report chapter 2; the first window's copy
    # has no end (it ran past the window).
    segs, report = ground(
        seg("אמר רבי שמעון: כל", "פרק שני.", "2", "פרק א", 1),
        seg("ועוד אמרו: אל תהי", "", "3", "פרק ב", 2),
        seg("ועוד אמרו: אל תהי", "שלא על מנת לקבל פרס.", "3", "פרק ב", 1),
        seg("הוא היה אומר: אם", "אימתי.", "4", "פרק ג", 2),
    )
    assert [s.chapter_title for s in segs] == ["פרק א", "פרק ב", "פרק ג"]
    assert [s.sequence_id for s in segs] == [1, 2, 3]
    assert segs[1].end_phrase_hebrew == "שלא על מנת לקבל פרס."
    assert report.segments == 3 and report.dropped == 0
    # out of order input comes out in text order
    segs, _ = ground(
        seg("הוא היה אומר: אם", "אימתי.", "4", "פרק ג", 1),
        seg("אמר רבי שמעון: כל", "פרק שני.", "2", "פרק א", 2),
    )
    assert [s.chapter_title for s in segs] == ["פרק א", "פרק ג"]


def test_repeated_phrase_is_placed_near_the_claimed_page() -> None:
    # "המשמשין את הרב" occurs twice on page 3; "על מנת לקבל פרס" twice too.
    index = GroundingIndex.of(DOC)
    hits = [m.start for m in index.occurrences("על מנת לקבל פרס")]
    assert len(hits) == 2
    assert index.page_at(hits[0]) == index.page_at(hits[1]) == 3
    assert index.locate("ספר הדוגמה", page=1) is not None
    assert index.locate("פרק א", page=4) is not None


def test_page_markers_and_short_fuzzy_phrases() -> None:
    index = GroundingIndex.of(DOC)
    found = index.locate("[page 4] הוא היה אומר: אם")
    assert found is not None and found.text == "הוא היה אומר: אם"
    assert index.locate("לי") is not None  # exact, however short
    assert index.locate("לִי") is None  # too short to repair safely
    assert index.locate("") is None


def test_first_page() -> None:
    assert first_page("12") == 12
    assert first_page("12-14") == 12
    assert first_page("עמוד 7") == 7
    assert first_page("") is None


def test_real_pdf_phrases_without_nikud_are_repaired(fixtures_dir: Path) -> None:
    doc = extract_pdf(fixtures_dir / "small.pdf")
    vocalized = next(p for p in doc.pages if "רָאִיתִי" in p.text)
    first_line = next(ln.text for ln in vocalized.lines if "רָאִיתִי" in ln.text)
    plain = strip_nikud(first_line).replace('"', "״")
    outline, report = ground_outline(
        DocumentOutline(outline_segments=[seg(plain, "", "1", "פרק ג")]), doc
    )
    (only,) = outline.outline_segments
    assert only.start_phrase_hebrew in doc.text
    assert only.start_phrase_hebrew == first_line.strip()
    assert only.page_ref == str(vocalized.number)
    assert only.end_phrase_hebrew in doc.text
    assert report.page_mismatches == 1
