"""A big PDF read in page ranges by idle guard workers comes out as a whole read does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import libtext.pdf
from libtext.pdf import SPLIT_PAGES, PdfGuard, extract_pdf

FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"
BIG = FIXTURES / "big.pdf"
SMALL = FIXTURES / "small.pdf"


@pytest.fixture
def merges(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of parts of each document put together from parts."""
    seen: list[int] = []
    merge = libtext.pdf._SPLIT.merge

    def spy(request: dict[str, Any], replies: list[Any]) -> Any:
        seen.append(len(replies))
        return merge(request, replies)

    monkeypatch.setattr(libtext.pdf._SPLIT, "merge", spy)
    return seen


@pytest.fixture
def guard() -> Any:
    g = PdfGuard(concurrency=2)
    yield g
    g.close()


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path.name} not found (../shared/fixtures missing)")


def test_big_pdf_in_parts_is_byte_identical(guard: PdfGuard, merges: list[int]) -> None:
    _need(BIG)
    whole = extract_pdf(BIG, guard=False).model_dump_json()
    assert extract_pdf(BIG, guard=guard).model_dump_json() == whole
    assert merges == [2]


def test_a_page_range_in_parts_is_byte_identical(guard: PdfGuard, merges: list[int]) -> None:
    _need(BIG)
    pages = range(7, 7 + 2 * SPLIT_PAGES + 3)
    whole = extract_pdf(BIG, guard=False, pages=pages).model_dump_json()
    assert extract_pdf(BIG, guard=guard, pages=pages).model_dump_json() == whole
    assert merges == [2]


def test_small_pdf_and_busy_pool_read_whole(guard: PdfGuard, merges: list[int]) -> None:
    _need(BIG)
    _need(SMALL)
    extract_pdf(SMALL, guard=guard)
    extract_pdf(BIG, guard=guard, pages=range(SPLIT_PAGES))
    assert merges == []
    # One worker busy (its slot taken): the other reads the big PDF whole.
    assert guard._slots.acquire(blocking=False)
    try:
        whole = extract_pdf(BIG, guard=False).model_dump_json()
        assert extract_pdf(BIG, guard=guard).model_dump_json() == whole
    finally:
        guard._slots.release()
    assert merges == []


def test_a_part_error_is_the_whole_reads_error(guard: PdfGuard) -> None:
    """The character limit counts over all the parts, as over a whole read."""
    _need(BIG)
    from libtext.errors import InputTooLargeError
    from libtext.pdf import PdfLimits

    whole = extract_pdf(BIG, guard=False)
    chars = sum(len(ln.text) for p in whole.pages[: SPLIT_PAGES + 10] for ln in p.lines)
    limited = PdfGuard(concurrency=2, limits=PdfLimits(max_chars=chars))
    try:
        with pytest.raises(InputTooLargeError) as caught:
            extract_pdf(BIG, guard=limited)
        with pytest.raises(InputTooLargeError) as alone:
            _inline(limited.limits)
        assert caught.value.message == alone.value.message
    finally:
        limited.close()


def _inline(limits: Any) -> None:
    data = BIG.read_bytes()
    libtext.pdf._extract_data(
        data=data,
        name=BIG.name,
        password=None,
        max_pages=None,
        mode="fast",
        pages=None,
        limits=limits,
    )
