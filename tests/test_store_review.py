# ruff: noqa: F811  (the store fixtures are imported from test_store.py)
"""Reviewing stored texts: revisions, section edits, conflicts, reverts, checked writes.

Runs on SQLite always and on PostgreSQL when LIBTEXT_TEST_POSTGRES_URL is set (the
``store_url`` fixture of test_store.py, each run in a schema of its own).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("sqlmodel")

from click.testing import CliRunner
from pydantic import ValidationError
from tests.test_store import make_doc, store, store_url  # noqa: F401

from libtext import errors
from libtext.cli import cli
from libtext.models import (
    Footnote,
    ProcessedDocument,
    Section,
    SectionEdit,
    SourceMetadata,
    TranslationData,
)
from libtext.store import TextStore
from libtext.store._tables import SCHEMA_VERSION

GENESIS = 'כמ"ש (בראשית כא, לג) ויטע שם אשל'
GENESIS_URL = "https://www.sefaria.org/Genesis.21.33"


def review_doc() -> ProcessedDocument:
    """Two sections; the first has a phrase that cites Genesis 21:33."""
    return ProcessedDocument(
        source_metadata=SourceMetadata(publication_title="ספר העיון", work_title="חלק א"),
        sections=[
            Section(
                sequence_id=1,
                chapter_title="פרק א",
                original_hebrew_block=GENESIS,
                translation_data=[TranslationData(hebrew_phrase=GENESIS, english_translation="as")],
                footnotes=[Footnote(marker="א", content="הערה")],
            ),
            Section(sequence_id=2, chapter_title="פרק ב", original_hebrew_block="שלום"),
        ],
        page_count=2,
    )


def snapshot(st: TextStore) -> tuple[Any, ...]:
    """Everything a reader can see of the store, to show a refused write changed nothing."""
    listed = st.list(page=1, page_size=100)
    docs = tuple(st.get(t.slug, include_source_ids=True) for t in listed.texts)
    history = tuple(st.revisions(t.slug) for t in listed.texts)
    etags = tuple(st._tagged(t.slug)[1] for t in listed.texts)
    return listed, docs, history, etags


# --- revisions and reverts -------------------------------------------------------------


def test_edits_make_revisions_and_revert_round_trips(store: TextStore) -> None:
    original = review_doc()
    item = store.save(original, author="translator")
    first = store.edit_section(item.slug, 1, chapter_title="פרק ראשון", expected_revision=1)
    assert first.revision.number == 2 and first.section.chapter_title == "פרק ראשון"
    second = store.edit_section(
        item.slug, 2, footnotes=[Footnote(marker="1", content="חדש")], author="editor"
    )
    assert second.revision.number == 3
    after_edits = store.get(item.slug, include_source_ids=True)
    assert after_edits.sections[0].chapter_title == "פרק ראשון"
    assert after_edits.sections[1].footnotes == [Footnote(marker="1", content="חדש")]

    # every old revision reads back as it was
    assert store.get(item.slug, revision=1, include_source_ids=True) == original
    assert store.get(item.slug, revision=2).sections[1].footnotes == []
    assert store.get(item.slug, revision=3, include_source_ids=True) == after_edits

    reverted = store.revert(item.slug, 1, author="reviewer")
    assert (reverted.number, reverted.change, reverted.reverted_to) == (4, "revert", 1)
    assert set(reverted.sections) == {1, 2}
    assert store.get(item.slug, include_source_ids=True) == original
    store.revert(item.slug, 3)
    assert store.get(item.slug, include_source_ids=True) == after_edits

    history = store.revisions(item.slug)
    assert history.revision == 5
    assert [(r.number, r.change, r.author, r.sections) for r in history.revisions] == [
        (1, "save", "translator", []),
        (2, "edit", None, [1]),
        (3, "edit", "editor", [2]),
        (4, "revert", "reviewer", [1, 2]),
        (5, "revert", None, [1, 2]),
    ]
    times = [r.created_at for r in history.revisions]
    assert times == sorted(times)
    listed = store.list().texts[0]
    assert listed.created_at == item.created_at and listed.updated_at == times[-1]


def test_update_keeps_the_replaced_document_as_a_revision(store: TextStore) -> None:
    slug = store.save(make_doc(marker="א", sections=2)).slug
    store.update(slug, make_doc(marker="ב", sections=3), author="editor")
    assert store.get(slug, revision=1, include_source_ids=True) == make_doc(marker="א", sections=2)
    last = store.revisions(slug).revisions[-1]
    assert (last.change, last.author, last.sections) == ("update", "editor", [1, 2, 3])


def test_list_order_stays_by_creation_after_edits(store: TextStore) -> None:
    older = store.save(make_doc(title="ספר ראשון")).slug
    newer = store.save(make_doc(title="ספר שני")).slug
    store.edit_section(older, 1, chapter_title="חדש")
    assert [t.slug for t in store.list().texts] == [newer, older]


def test_unknown_revisions_and_sections_are_not_found(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    for number in (2, 99):
        with pytest.raises(errors.NotFoundError, match="revisions are 1 to 1"):
            store.get(slug, revision=number)
        with pytest.raises(errors.NotFoundError):
            store.revert(slug, number)
    with pytest.raises(errors.InvalidInputError):
        store.get(slug, revision=0)
    with pytest.raises(errors.NotFoundError, match="sequence_id 7"):
        store.edit_section(slug, 7, chapter_title="x")
    with pytest.raises(errors.NotFoundError):
        store.revisions("no-such-text")
    assert store.revisions(slug).revision == 1


def test_delete_removes_the_history(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    store.edit_section(slug, 1, chapter_title="x")
    store.delete(slug)
    with pytest.raises(errors.NotFoundError):
        store.revisions(slug)
    again = store.save(review_doc()).slug
    assert again == slug and store.revisions(slug).revision == 1


# --- optimistic concurrency ------------------------------------------------------------


def test_stale_expected_revision_is_a_conflict_naming_who_and_when(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    store.edit_section(slug, 1, chapter_title="ראשון", expected_revision=1, author="alice")
    before = snapshot(store)
    with pytest.raises(errors.ConflictError) as caught:
        store.edit_section(slug, 1, chapter_title="שני", expected_revision=1, author="bob")
    assert "alice" in caught.value.message and "revision 2" in caught.value.message
    details = caught.value.details
    assert details["current_revision"] == 2 and details["changed_by"] == "alice"
    assert details["changed_at"] == store.revisions(slug).revisions[-1].created_at.isoformat(
        timespec="milliseconds"
    ).replace("+00:00", "Z")
    with pytest.raises(errors.ConflictError):
        store.update(slug, review_doc(), expected_revision=1)
    with pytest.raises(errors.ConflictError):
        store.revert(slug, 1, expected_revision=1)
    assert snapshot(store) == before


def test_etag_changes_per_revision_and_never_matches_a_resaved_slug(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    document, first = store._tagged(slug)  # what the HTTP adapter sends as the ETag
    assert document == store.get(slug)
    edited = store.edit_section(slug, 1, chapter_title="x", expected_etag=first)
    assert edited.etag == store._tagged(slug)[1] != first
    with pytest.raises(errors.ConflictError):
        store.edit_section(slug, 1, chapter_title="y", expected_etag=first)
    # The same slug given again after a delete starts at revision 1 too: the old
    # text's ETag for revision 1 must not match the new text.
    store.delete(slug)
    time.sleep(0.002)
    assert store.save(review_doc()).slug == slug
    with pytest.raises(errors.ConflictError, match="deleted and saved again"):
        store.edit_section(slug, 1, chapter_title="y", expected_etag=first)
    assert store.get(slug).sections[0].chapter_title == "פרק א"


def _race(store: TextStore, slug: str, editors: int) -> list[Any]:
    """``editors`` threads edit section 1 from revision 1 at the same moment."""
    barrier = threading.Barrier(editors)

    def edit(i: int) -> Any:
        barrier.wait()
        try:
            return store.edit_section(
                slug, 1, chapter_title=f"כותרת {i}", expected_revision=1, author=f"editor-{i}"
            )
        except errors.ConflictError as exc:
            return exc

    with ThreadPoolExecutor(editors) as pool:
        return list(pool.map(edit, range(editors)))


def test_concurrent_editors_in_threads_exactly_one_wins(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    outcomes = _race(store, slug, 6)
    wins = [o for o in outcomes if not isinstance(o, errors.ConflictError)]
    conflicts = [o for o in outcomes if isinstance(o, errors.ConflictError)]
    assert len(wins) == 1 and len(conflicts) == 5
    winner = wins[0].revision.author
    assert all(c.details["changed_by"] == winner for c in conflicts)
    history = store.revisions(slug)
    assert [(r.number, r.author) for r in history.revisions] == [(1, None), (2, winner)]
    assert store.get(slug).sections[0].chapter_title == f"כותרת {winner.split('-')[1]}"


def test_concurrent_edits_without_expected_revision_lose_nothing(store: TextStore) -> None:
    doc = make_doc(sections=8)
    slug = store.save(doc).slug
    barrier = threading.Barrier(8)

    def edit(i: int) -> None:
        barrier.wait()
        store.edit_section(slug, i + 1, chapter_title=f"נערך {i}", author=f"e{i}")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(edit, range(8)))
    titles = [s.chapter_title for s in store.get(slug).sections]
    assert titles == [f"נערך {i}" for i in range(8)]
    history = store.revisions(slug).revisions
    assert [r.number for r in history] == list(range(1, 10))
    assert sorted(r.sections[0] for r in history[1:]) == list(range(1, 9))
    # each revision differs from the one before in exactly the section it names
    for rev in history[1:]:
        before = store.get(slug, revision=rev.number - 1)
        after = store.get(slug, revision=rev.number)
        changed = [
            a.sequence_id for a, b in zip(before.sections, after.sections, strict=True) if a != b
        ]
        assert changed == rev.sections


_EDITOR = """
import sys, time, pathlib
from libtext import errors
from libtext.store import TextStore
url, slug, name, go = sys.argv[1:5]
with TextStore(url) as store:
    store.get(slug)
    print("ready", flush=True)
    while not pathlib.Path(go).exists():
        time.sleep(0.001)
    try:
        store.edit_section(slug, 1, chapter_title=name, expected_revision=1, author=name)
    except errors.ConflictError as exc:
        print("conflict", exc.details["changed_by"], flush=True)
    else:
        print("won", flush=True)
"""


def test_concurrent_editors_in_two_processes_exactly_one_wins(
    store: TextStore, store_url: str, tmp_path: Path
) -> None:
    slug = store.save(review_doc()).slug
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _EDITOR, store_url, slug, name, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("alice", "bob")
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready", proc.stderr
        go.touch()
        results = {}
        for name, proc in zip(("alice", "bob"), procs, strict=True):
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            results[name] = out.strip()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    assert sorted(r.split()[0] for r in results.values()) == ["conflict", "won"]
    winner = next(n for n, r in results.items() if r == "won")
    loser = next(n for n in results if n != winner)
    assert results[loser] == f"conflict {winner}"
    history = store.revisions(slug).revisions
    assert [(r.number, r.author) for r in history] == [(1, None), (2, winner)]
    assert store.get(slug).sections[0].chapter_title == winner


# --- nothing stored that cannot be read back ---------------------------------------------


def _assigned_wrong_type(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections[0].sequence_id = "x"  # type: ignore[assignment]
    return doc


def _constructed_without_required(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections.append(Section.model_construct(chapter_title="no sequence id"))
    return doc


def _constructed_footnote_without_marker(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections[1].footnotes = [Footnote.model_construct(content="x")]
    return doc


def _dict_instead_of_section(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections.append({"sequence_id": 3})  # type: ignore[arg-type]
    return doc


def _string_instead_of_phrase(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections[0].translation_data = ["text"]  # type: ignore[list-item]
    return doc


def _list_instead_of_metadata(doc: ProcessedDocument) -> ProcessedDocument:
    doc.source_metadata = []  # type: ignore[assignment]
    return doc


def _lone_surrogate_in_title(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections[1].chapter_title = "פרק \ud800"
    return doc


def _lone_surrogate_in_phrase(doc: ProcessedDocument) -> ProcessedDocument:
    doc.sections[0].translation_data[0].english_translation = "a\udfffb"
    return doc


def _validated_lone_surrogate(doc: ProcessedDocument) -> ProcessedDocument:
    # The models refuse a lone surrogate when validating; one built without validation
    # must still be refused by the write.
    with pytest.raises(ValidationError):
        Footnote.model_validate({"marker": "\udc00", "content": ""})
    note = Footnote.model_construct(marker="\udc00", content="")
    return doc.model_copy(
        update={"sections": [doc.sections[0].model_copy(update={"footnotes": [note]})]}
    )


BREAKERS: list[tuple[Callable[[ProcessedDocument], ProcessedDocument], str]] = [
    (_assigned_wrong_type, "sections.0.sequence_id"),
    (_constructed_without_required, "sections.2.sequence_id"),
    (_constructed_footnote_without_marker, "sections.1.footnotes.0.marker"),
    (_dict_instead_of_section, "sections.2"),
    (_string_instead_of_phrase, "sections.0.translation_data.0"),
    (_list_instead_of_metadata, "source_metadata"),
    (_lone_surrogate_in_title, "sections.1.chapter_title"),
    (_lone_surrogate_in_phrase, "sections.0.translation_data.0.english_translation"),
    (_validated_lone_surrogate, "sections.0.footnotes.0.marker"),
]


@pytest.mark.parametrize(("breaker", "field"), BREAKERS, ids=[b.__name__ for b, _ in BREAKERS])
def test_invalid_documents_are_refused_and_the_store_unchanged(
    store: TextStore, breaker: Callable[[ProcessedDocument], ProcessedDocument], field: str
) -> None:
    slug = store.save(review_doc()).slug
    store.edit_section(slug, 2, chapter_title="נבדק")
    before = snapshot(store)
    bad = breaker(review_doc())
    with pytest.raises(errors.InvalidInputError) as on_save:
        store.save(bad)
    assert on_save.value.details["field"] == field and field in on_save.value.message
    with pytest.raises(errors.InvalidInputError) as on_update:
        store.update(slug, bad)
    assert on_update.value.details["field"] == field
    assert snapshot(store) == before


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"chapter_title": 5}, "chapter_title"),
        ({"chapter_title": "a\ud800"}, "chapter_title"),  # refused by the model itself
        ({"footnotes": [{"content": "no marker"}]}, "footnotes.0.marker"),
        ({"translation_data": ["text"]}, "translation_data.0"),
        ({"translation_data": [{"sefaria_link": "https://example.com/x"}]}, "sefaria_link"),
        ({"translation_data": [{"sefaria_link": "javascript:alert(1)"}]}, "sefaria_link"),
        ({"translation_data": [{"sefaria_link": "no citation here"}]}, "sefaria_link"),
    ],
)
def test_invalid_section_edits_are_refused_naming_the_field(
    store: TextStore, edit: dict[str, Any], field: str
) -> None:
    slug = store.save(review_doc()).slug
    before = snapshot(store)
    with pytest.raises(errors.InvalidInputError) as caught:
        store.edit_section(slug, 1, **edit)
    assert field in caught.value.details["field"]
    assert snapshot(store) == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"expected_revision": 0},
        {"expected_revision": "1"},
        {"expected_revision": True},
        {"expected_etag": 1},
        {"author": ""},
        {"author": "x" * 201},
    ],
)
def test_bad_revision_arguments_are_invalid_input(store: TextStore, kwargs: dict[str, Any]) -> None:
    slug = store.save(review_doc()).slug
    with pytest.raises(errors.InvalidInputError):
        store.edit_section(slug, 1, chapter_title="x", **kwargs)
    with pytest.raises(errors.InvalidInputError):
        store.edit_section(slug, "1", chapter_title="x")  # type: ignore[arg-type]
    assert store.revisions(slug).revision == 1


def test_unknown_edit_fields_are_refused() -> None:
    with pytest.raises(ValueError, match="extra"):
        SectionEdit.model_validate({"original_hebrew_block": "rewritten"})


# --- Sefaria links ------------------------------------------------------------------------


def test_sefaria_links_only_from_the_linker(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    phrase = {"hebrew_phrase": GENESIS, "english_translation": "as it is written"}
    # the link of the citation in the phrase's own Hebrew
    linked = store.edit_section(slug, 1, translation_data=[{**phrase, "sefaria_link": GENESIS_URL}])
    assert linked.section.translation_data[0].sefaria_link == GENESIS_URL
    # Hebrew citation text the linker resolves is stored as its link
    other = store.edit_section(
        slug, 2, translation_data=[{"hebrew_phrase": "שלום", "sefaria_link": "שמות ג, ד"}]
    )
    assert other.section.translation_data[0].sefaria_link == "https://www.sefaria.org/Exodus.3.4"
    # a link the section already had may stay; removing one is always allowed
    kept = store.edit_section(
        slug,
        2,
        translation_data=[
            {"english_translation": "peace", "sefaria_link": "https://www.sefaria.org/Exodus.3.4"}
        ],
    )
    assert kept.section.translation_data[0].english_translation == "peace"
    removed = store.edit_section(slug, 1, translation_data=[{**phrase, "sefaria_link": ""}])
    assert removed.section.translation_data[0].sefaria_link == ""
    # a link of another citation, not in this phrase, is refused
    with pytest.raises(errors.InvalidInputError):
        store.edit_section(
            slug,
            1,
            translation_data=[{**phrase, "sefaria_link": "https://www.sefaria.org/Genesis.1.1"}],
        )


def test_merge_patch_null_resets_and_absent_keeps(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    result = store.edit_section(
        slug, 1, SectionEdit.model_validate({"footnotes": None, "segment_title": "קטע"})
    )
    assert result.section.footnotes == [] and result.section.segment_title == "קטע"
    assert result.section.chapter_title == "פרק א"
    assert result.section.translation_data == review_doc().sections[0].translation_data


# --- views, migration, CLI, async ------------------------------------------------------


def test_notebook_view_shows_the_revision_and_what_differs(store: TextStore) -> None:
    slug = store.save(review_doc()).slug
    store.edit_section(slug, 2, chapter_title="פרק שני", author="editor")
    current = store.get(slug)._repr_html_()
    assert "revision 2 (current)" in current
    old = store.get(slug, revision=1)._repr_html_()
    assert "revision 1 of 2" in old and "section 2: chapter_title" in old
    assert "section 1" not in old.split("differs")[1].split("</ul>")[0]
    assert "revision" not in review_doc()._repr_html_()


def test_schema_2_database_is_migrated_with_a_history(store_url: str) -> None:
    with TextStore(store_url) as st:
        slugs = [st.save(make_doc(title=f"ספר {i}")).slug for i in range(3)]
        with st.engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE libtext_text_revisions")
            conn.exec_driver_sql("ALTER TABLE libtext_texts DROP COLUMN revision")
            conn.exec_driver_sql("UPDATE libtext_meta SET value = 2 WHERE key = 'schema_version'")
    with TextStore(store_url) as st:
        for slug in slugs:
            history = st.revisions(slug)
            assert history.revision == 1 and [r.change for r in history.revisions] == ["save"]
        st.edit_section(slugs[0], 1, chapter_title="אחרי", expected_revision=1)
        assert st.get(slugs[0], revision=1) == make_doc(title="ספר 0").public()
        with st.engine.connect() as conn:
            version = conn.exec_driver_sql(
                "SELECT value FROM libtext_meta WHERE key = 'schema_version'"
            ).scalar_one()
        assert version == SCHEMA_VERSION


def test_cli_history_show_revision_revert(store_url: str) -> None:
    with TextStore(store_url) as st:
        slug = st.save(review_doc()).slug
        st.edit_section(slug, 1, chapter_title="חדש", author="editor")
    runner = CliRunner()
    history = runner.invoke(cli, ["texts", "history", slug, "--store", store_url])
    assert history.exit_code == 0, history.output
    lines = history.stdout.splitlines()
    assert lines[0].startswith("1\t") and "save" in lines[0]
    assert lines[1].startswith("2 *\t") and "editor" in lines[1] and "sections 1" in lines[1]
    as_json = runner.invoke(
        cli, ["texts", "history", slug, "--store", store_url, "--format", "json"]
    )
    assert json.loads(as_json.stdout)["revision"] == 2
    old = runner.invoke(cli, ["texts", "show", slug, "--revision", "1", "--store", store_url])
    assert ProcessedDocument.model_validate_json(old.stdout) == review_doc().public()
    reverted = runner.invoke(cli, ["texts", "revert", slug, "1", "--store", store_url])
    assert reverted.exit_code == 0 and "revision 3 restores revision 1" in reverted.stdout
    with TextStore(store_url) as st:
        assert st.get(slug) == review_doc().public()
    missing = runner.invoke(cli, ["texts", "revert", slug, "9", "--store", store_url])
    assert (
        missing.exit_code == 2 and "error:" in missing.stderr and "Traceback" not in missing.output
    )


async def test_async_twins_of_the_review_methods(store: TextStore) -> None:
    slug = (await store.asave(review_doc(), author="a")).slug
    edited = await store.aedit_section(slug, 1, chapter_title="x", expected_revision=1)
    assert edited.revision.number == 2
    assert (await store.arevisions(slug)) == store.revisions(slug)
    assert await store.aget(slug, revision=1) == store.get(slug, revision=1)
    assert (await store.arevert(slug, 1)).number == 3
    with pytest.raises(errors.ConflictError):
        await store.aupdate(slug, review_doc(), expected_revision=2)


def test_every_review_method_has_an_async_twin() -> None:
    for name in ("edit_section", "revert", "revisions"):
        assert callable(getattr(TextStore, f"a{name}")), name


# --- an edit keeps the section consistent ----------------------------------------------


def split_doc(words: int = 80) -> ProcessedDocument:
    """One section of ``words`` phrases, one word each, none translated (as offline)."""
    hebrew = [f"מלה{chr(0x05D0 + i % 22)}" for i in range(words)]
    return ProcessedDocument(
        sections=[
            Section(
                sequence_id=1,
                original_hebrew_block=" ".join(hebrew),
                translation_data=[TranslationData(hebrew_phrase=w) for w in hebrew],
                complete=False,
                notes=[f"{words} of {words} phrases have no English."],
            )
        ]
    )


def test_a_phrase_list_that_drops_hebrew_is_refused(store: TextStore) -> None:
    """Before, one phrase for an 80-phrase section was stored (79 gone) and the note
    still said 80 of 80 phrases had no English."""
    slug = store.save(split_doc()).slug
    before = snapshot(store)
    first = store.get(slug).sections[0].translation_data[0].hebrew_phrase
    with pytest.raises(errors.InvalidInputError, match="covers only the start") as caught:
        store.edit_section(
            slug, 1, translation_data=[{"hebrew_phrase": first, "english_translation": "a word"}]
        )
    assert caught.value.details["field"] == "translation_data"
    assert snapshot(store) == before


def test_phrases_out_of_order_are_refused_naming_the_phrase(store: TextStore) -> None:
    slug = store.save(split_doc(3)).slug
    phrases = [p.model_dump() for p in store.get(slug).sections[0].translation_data]
    with pytest.raises(errors.InvalidInputError) as caught:
        store.edit_section(slug, 1, translation_data=[phrases[1], phrases[0], phrases[2]])
    assert caught.value.details["field"] == "translation_data.0.hebrew_phrase"


def test_notes_are_recomputed_on_every_edit(store: TextStore) -> None:
    slug = store.save(split_doc(3)).slug
    # The English of every phrase, the Hebrew kept from the phrase at the same place.
    english = [{"english_translation": f"word {i}"} for i in range(3)]
    done = store.edit_section(slug, 1, translation_data=english)
    assert done.section.complete is True and done.section.notes == []
    assert [p.hebrew_phrase for p in done.section.translation_data] == [
        p.hebrew_phrase for p in split_doc(3).sections[0].translation_data
    ]
    # A new split of the same Hebrew, one phrase without English: the note says so.
    whole = split_doc(3).sections[0].original_hebrew_block
    parts = whole.split(" ")
    resplit = [
        {"hebrew_phrase": " ".join(parts[:2]), "english_translation": "two words"},
        {"hebrew_phrase": parts[2]},
    ]
    edited = store.edit_section(slug, 1, translation_data=resplit)
    assert edited.section.notes == ["1 of 2 phrases have no English."]
    assert edited.section.complete is False
    # A title edit alone recomputes them too (here from a stale stored note).
    titled = store.edit_section(slug, 1, chapter_title="פרק")
    assert titled.section.notes == ["1 of 2 phrases have no English."]
    removed = store.edit_section(slug, 1, SectionEdit.model_validate({"translation_data": None}))
    assert removed.section.translation_data == [] and removed.section.complete is False
    assert "no phrases" in removed.section.notes[0]


def test_a_title_edit_keeps_notes_that_still_hold(store: TextStore) -> None:
    """The Translator's fuller note survives an edit that changes nothing it counts."""
    doc = split_doc(3)
    doc.sections[0].notes = [
        "3 of 3 phrases have no English: the offline provider translates only citations."
    ]
    slug = store.save(doc).slug
    titled = store.edit_section(slug, 1, chapter_title="פרק")
    assert titled.section.notes == doc.sections[0].notes
    assert store.diff(slug, from_revision=1).sections[0].fields == ["chapter_title"]


def _long_doc(chars: int) -> ProcessedDocument:
    """One section of ``chars`` characters of Hebrew words (seeded: the same each run)."""
    import random

    rng = random.Random(27)
    letters = "אבגדהוזחטיכלמנסעפצקרשת"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 7))) for _ in range(800)]
    text = " ".join(rng.choice(words) for _ in range(chars // 5))[:chars]
    return ProcessedDocument(
        source_metadata=SourceMetadata(publication_title="ספר ארוך"),
        sections=[Section(sequence_id=1, chapter_title="פרק א", original_hebrew_block=text)],
        page_count=1,
    )


def test_revisions_are_kept_compressed_and_read_back(store: TextStore) -> None:
    """Ten edits of a long section keep ten old documents: compressed, not ten whole
    copies (issue 27: 107 MB for a 10 MB book), and each reads back as it was."""
    doc = _long_doc(200_000)
    item = store.save(doc)
    seen = [store.get(item.slug)]
    for k in range(10):
        store.edit_section(item.slug, 1, chapter_title=f"פרק {k}", expected_revision=k + 1)
        seen.append(store.get(item.slug))
    size = (
        "LENGTH(CAST({} AS BLOB))" if store.engine.dialect.name == "sqlite" else "OCTET_LENGTH({})"
    )
    with store.engine.begin() as conn:
        kept, plain = conn.exec_driver_sql(
            f"SELECT SUM({size.format('r.body')}), SUM({size.format('b.body')}) "
            "FROM libtext_text_revisions r JOIN libtext_text_bodies b ON b.text_id = r.text_id "
            "WHERE r.body IS NOT NULL"
        ).one()
    assert kept < plain / 2, f"{kept:,} bytes kept for {plain:,} of whole copies"
    for number, expected in enumerate(seen, start=1):
        assert store.get(item.slug, revision=number).sections == expected.sections
    reverted = store.revert(item.slug, 3, expected_revision=11)
    assert store.get(item.slug).sections == seen[2].sections and reverted.number == 12


def test_revisions_written_before_compression_still_read(store: TextStore) -> None:
    """A history row as an older libtext wrote it (the document's JSON as is) reads and
    reverts as before: no migration."""
    item = store.save(review_doc())
    store.edit_section(item.slug, 1, chapter_title="פרק ראשון", expected_revision=1)
    first = review_doc().model_dump_json()
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "UPDATE libtext_text_revisions SET body = ? WHERE number = 1"
            if store.engine.dialect.name == "sqlite"
            else "UPDATE libtext_text_revisions SET body = %s WHERE number = 1",
            (first,),
        )
    assert store.get(item.slug, revision=1).sections[0].chapter_title == "פרק א"
    store.revert(item.slug, 1, expected_revision=2)
    assert store.get(item.slug).sections[0].chapter_title == "פרק א"
