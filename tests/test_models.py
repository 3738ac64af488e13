"""The models are the public contract: field names pinned against the spec."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError
from tests.conftest import SHARED

from libtext import models

SPEC_FIELDS: dict[str, list[str]] = {
    "SourceMetadata": ["publication_title", "work_title", "author_name"],
    "OutlineSegment": [
        "sequence_id",
        "chapter_number",
        "chapter_title",
        "segment_title",
        "summary",
        "page_ref",
        "start_phrase_hebrew",
        "end_phrase_hebrew",
    ],
    "DocumentOutline": ["source_metadata", "outline_segments"],
    "TranslationData": ["hebrew_phrase_expanded", "english_translation", "sefaria_link"],
    "Footnote": ["marker", "content", "translation"],
    "ProcessedDocument": [
        "source_metadata",
        "sections",
        "work_id",
        "page_count",
        "first_page_id",
        "last_page_id",
    ],
    "TextListItem": [
        "slug",
        "publication_title",
        "work_title",
        "author_name",
        "page_count",
        "created_at",
        "updated_at",
    ],
    "PaginationInfo": ["page", "pageSize", "total", "totalPages"],
    "PaginatedTextsResponse": ["texts", "pagination"],
}
SECTION_EXTRA = ["original_hebrew_block", "translation_data", "footnotes"]


def _json_keys(model: type[models.BaseModel]) -> list[str]:
    return list(model.model_json_schema(mode="serialization")["properties"])


@pytest.mark.parametrize("name", sorted(SPEC_FIELDS))
def test_spec_fields_present_with_exact_json_keys(name: str) -> None:
    keys = _json_keys(getattr(models, name))
    for field in SPEC_FIELDS[name]:
        assert field in keys, f"{name} lacks spec field {field}"


def test_section_is_outline_segment_plus_text() -> None:
    keys = _json_keys(models.Section)
    assert keys[: len(SPEC_FIELDS["OutlineSegment"])] == SPEC_FIELDS["OutlineSegment"]
    for field in SECTION_EXTRA:
        assert field in keys


def test_extensions_are_documented_and_optional() -> None:
    """Any field beyond the spec must say 'extension' and have a default."""
    for name, spec in SPEC_FIELDS.items():
        model = getattr(models, name)
        schema = model.model_json_schema(mode="serialization")
        for key, prop in schema["properties"].items():
            if key not in spec:
                assert "extension" in prop.get("description", ""), (name, key)
                assert key not in schema.get("required", []), (name, key)


def test_spec_file_names_every_schema() -> None:
    spec = SHARED / "spec" / "service.md"
    if not spec.exists():
        pytest.skip("spec not available")
    text = spec.read_text(encoding="utf-8")
    line = re.search(r"Schema names in the service: (.*)\.", text)
    assert line is not None
    for name in [n.strip() for n in line.group(1).split(",")]:
        assert hasattr(models, name), f"models lacks {name}"
    # the fields tables in the spec agree with SPEC_FIELDS
    for name, fields in SPEC_FIELDS.items():
        block = re.search(rf"### {name}[^\n]*\n(.*?)(?:\n### |\n## )", text, re.S)
        assert block is not None, name
        table = re.findall(r"^\| (\w+) \|", block.group(1), re.M)
        assert [f for f in table if f != "Field"] == fields, name


def test_pagination_uses_camel_case_and_computes_pages() -> None:
    p = models.PaginationInfo.of(page=2, page_size=20, total=41)
    assert p.model_dump() == {"page": 2, "pageSize": 20, "total": 41, "totalPages": 3}
    assert (
        models.PaginationInfo.model_validate(
            {"page": 1, "pageSize": 5, "total": 0, "totalPages": 0}
        ).page_size
        == 5
    )
    with pytest.raises(ValidationError):
        models.PaginationInfo(page=0, page_size=20, total=0, total_pages=0)


def test_timestamps_serialize_as_utc_with_milliseconds() -> None:
    local = timezone(timedelta(hours=2))
    item = models.TextListItem(
        slug="tanya",
        created_at=datetime(2026, 11, 22, 7, 33, 5, 123456, tzinfo=local),
        updated_at=datetime(2026, 11, 22, 5, 33, 5),
    )
    data = item.model_dump(mode="json")
    assert data["created_at"] == "2026-11-22T05:33:05.123Z"
    assert data["updated_at"] == "2026-11-22T05:33:05.000Z"
    again = models.TextListItem.model_validate(data)
    assert again.created_at == datetime(2026, 11, 22, 5, 33, 5, 123000, tzinfo=UTC)


def test_public_document_hides_library_ids() -> None:
    doc = models.ProcessedDocument(work_id="3400000000", first_page_id="1", last_page_id="9")
    public = doc.public()
    assert (public.work_id, public.first_page_id, public.last_page_id) == (None, None, None)
    assert doc.work_id == "3400000000"


def test_hebrew_round_trip() -> None:
    seg = models.OutlineSegment(
        sequence_id=1, chapter_title="פרק א", start_phrase_hebrew="בְּרֵאשִׁית 🙂"
    )
    assert models.OutlineSegment.model_validate_json(seg.model_dump_json()) == seg


@pytest.mark.parametrize("mode", ["serialization", "validation"])
def test_utc_datetime_schema_says_date_time(mode: str) -> None:
    """Clients generated from the schema read the timestamps as datetimes, not strings."""
    schema = models.TextListItem.model_json_schema(mode=mode)  # type: ignore[arg-type]
    for name in ("created_at", "updated_at"):
        prop = schema["properties"][name]
        assert (prop["type"], prop["format"]) == ("string", "date-time"), (name, prop)


async def test_openapi_document_gives_timestamps_a_date_time_format() -> None:
    pytest.importorskip("fastapi")
    import httpx

    from libtext.asgi import Settings, create_app

    app = create_app(settings=Settings())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get("/openapi.json")
    assert response.status_code == 200
    schemas = response.json()["components"]["schemas"]
    stamps = {
        (model, name): prop
        for model, schema in schemas.items()
        for name, prop in schema.get("properties", {}).items()
        if name in ("created_at", "updated_at", "checked_at")
    }
    assert {("TextListItem", "created_at"), ("TextListItem", "updated_at")} <= set(stamps)
    for where, prop in stamps.items():
        assert (prop.get("type"), prop.get("format")) == ("string", "date-time"), where


@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_is_not_a_number_in_request_bodies(value: bool) -> None:
    """JSON ``true``/``false`` for an integer field is refused, not read as 1/0 (schema: integer)."""
    from libtext.models import EnrichedSegment, ProcessRequest

    with pytest.raises(ValidationError):
        EnrichedSegment(sequence_id=value)
    with pytest.raises(ValidationError):
        ProcessRequest(work_id="1", max_pages=value)
    assert EnrichedSegment(sequence_id=3).sequence_id == 3


def test_a_pages_header_as_printed_keeps_its_page_number_in_reading_order() -> None:
    from libtext.models import ExtractedLine, ExtractedPage

    def line(text: str, kind: str, y: float, x0: float, x1: float) -> ExtractedLine:
        return ExtractedLine(text=text, kind=kind, size=11.0, y=y, x0=x0, x1=x1)  # type: ignore[arg-type]

    page = ExtractedPage(
        number=3,
        lines=[
            line("משנה ברכות", "header", 37.0, 45.0, 92.0),
            line("12", "page_number", 37.2, 366.0, 374.0),
            line("פרק שני", "heading", 68.0, 277.0, 374.0),
            line("היה קורא בתורה", "body", 93.0, 214.0, 374.0),
            line("נוסח אשכנז", "footer", 560.0, 180.0, 240.0),
        ],
    )
    # The lines keep the header's fields and the page number apart, by role.
    assert [ln.kind for ln in page.lines][:2] == ["header", "page_number"]
    assert page.header == "12 משנה ברכות"  # right to left, as printed
    assert page.footer == "נוסח אשכנז"
    assert "header" not in page.model_dump()  # a view of the lines, not a field
