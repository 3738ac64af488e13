"""The compiled twin of the per-character PDF path and its pure-Python reference.

Every PDF of the open set, the fixtures and the test layouts must come out
byte-identical (``extract_pdf(...).model_dump_json()``) from the compiled modules and
from their ``.py`` sources; ``LIBTEXT_PURE_PYTHON=1`` must run the sources even where
the twin is built (the fallback of an install without a compiler). Without a built
twin the comparison skips, unless ``LIBTEXT_REQUIRE_COMPILED=1`` (CI) makes that a
failure.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from libtext.errors import LibtextError
from libtext.pdf import extract_pdf
from libtext.pdf._compiled import CYTHON, MODULES, compiled_modules, pure_python

ROOT = Path(__file__).resolve().parents[1]
SETS = [
    ROOT.parent / "shared" / "realdata" / "pdfs",
    ROOT.parent / "shared" / "fixtures",
    ROOT / "tests" / "layouts",
]

# Run in a child process: hashes of every PDF of the sets, as JSON on stdout.
_HASHES = """
import hashlib, json, sys
from pathlib import Path
from libtext.errors import LibtextError
from libtext.pdf import extract_pdf
from libtext.pdf._compiled import compiled_modules
out = {"compiled": compiled_modules(), "hashes": {}}
for name in sys.argv[1:]:
    try:
        doc = extract_pdf(Path(name), guard=False, max_pages=None)
        out["hashes"][name] = hashlib.sha256(doc.model_dump_json().encode()).hexdigest()
    except LibtextError as exc:
        out["hashes"][name] = "error: " + type(exc).__name__
print(json.dumps(out))
"""


def _pdfs() -> list[str]:
    found = [str(p) for folder in SETS for p in sorted(folder.rglob("*.pdf"))]
    if not found:
        pytest.skip("none of the PDF sets found (../shared missing)")
    return found


def _child(env: dict[str, str], names: list[str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _HASHES, *names],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _require_twin() -> None:
    if pure_python():
        pytest.skip("LIBTEXT_PURE_PYTHON=1: this run checks the pure-Python reference")
    if not compiled_modules():
        if os.environ.get("LIBTEXT_REQUIRE_COMPILED") == "1":
            pytest.fail("LIBTEXT_REQUIRE_COMPILED=1 but no compiled twin is loaded")
        pytest.skip("no compiled twin built (python scripts/build_compiled.py builds it)")


def test_pure_python_switch_runs_the_sources() -> None:
    """LIBTEXT_PURE_PYTHON=1 loads every per-character module from its .py file."""
    small = ROOT.parent / "shared" / "fixtures" / "small.pdf"
    names = [str(small)] if small.exists() else []
    out = _child({"LIBTEXT_PURE_PYTHON": "1"}, names)
    assert out["compiled"] == []
    if names:
        assert not str(out["hashes"][names[0]]).startswith("error")  # type: ignore[index]


def test_twin_is_whole() -> None:
    """A twin is all of the modules or none: a half-built one is a broken build."""
    _require_twin()
    assert compiled_modules() == [*MODULES, *CYTHON]


def test_compiled_twin_is_byte_identical_to_the_reference() -> None:
    _require_twin()
    names = _pdfs()
    here: dict[str, str] = {}
    for name in names:
        try:
            doc = extract_pdf(Path(name), guard=False, max_pages=None)
            here[name] = hashlib.sha256(doc.model_dump_json().encode()).hexdigest()
        except LibtextError as exc:
            here[name] = "error: " + type(exc).__name__
    reference = _child({"LIBTEXT_PURE_PYTHON": "1"}, names)
    assert reference["compiled"] == []
    differ = [n for n in names if here[n] != reference["hashes"][n]]  # type: ignore[index]
    assert not differ, f"compiled and pure-Python output differ on {differ}"


def test_c_char_calls_match_the_python_class() -> None:
    """The C twin of ``_pdfium.CharCalls`` answers every call as the class does, on
    every character of a few pages (and past the last one, where pdfium fails and
    both keep their buffers)."""
    _require_twin()
    import pypdfium2
    import pypdfium2.raw as raw

    from libtext.pdf._pdfium import CharCalls, char_calls_twin

    twin = char_calls_twin()
    assert twin is not None
    # The first real PDFs, and Word's pointed letters in /ActualText sequences.
    real = [p for p in _pdfs() if "realdata" in p]
    pdfs = real[:6] + [p for p in real if "haggadah_word365" in p] or _pdfs()[:6]
    checked = spans = fills = 0
    for name in pdfs:
        doc = pypdfium2.PdfDocument(name)
        try:
            for k in range(min(4 if "word365" in name else 2, len(doc))):
                page = doc[k]
                textpage = page.get_textpage()
                m_py, m_c = raw.FS_MATRIX(), raw.FS_MATRIX()
                py = CharCalls(raw, textpage.raw, m_py, page.raw)
                c = twin(raw, textpage.raw, m_c, page.raw)
                n = c.count_chars()
                assert n == py.count_chars() == int(raw.FPDFText_CountChars(textpage.raw))
                every = list(range(n + 2))
                assert c.glyph_boxes(0, n + 1) == py.glyph_boxes(0, n + 1)
                assert c.looses(every) == py.looses(every)
                assert c.boxes(every) == py.boxes(every)
                text = textpage.get_text_range()
                for a in (0, 1, len(text) // 2):
                    assert c.pair_gaps(text[a:], a) == py.pair_gaps(text[a:], a)
                    assert c.pair_gaps(text[a:] + "xy", a) == py.pair_gaps(text[a:] + "xy", a)
                for i in [*every, -1]:
                    assert c.box(i) == py.box(i)
                    assert c.box_middle(i) == py.box_middle(i)
                    assert c.origin(i) == py.origin(i)
                    assert c.font_size(i) == py.font_size(i)
                    assert c.is_generated(i) == py.is_generated(i)
                    assert c.matrix(i) == py.matrix(i)
                    assert bytes(m_c) == bytes(m_py)
                    assert c.size(i) == py.size(i)
                    assert bytes(m_c) == bytes(m_py)
                    obj = c.text_object(i)
                    assert obj == py.text_object(i)
                    if obj:
                        assert c.font(obj) == py.font(obj)
                        assert c.render_mode(obj) == py.render_mode(obj)
                        assert c.fill(obj) == py.fill(obj)
                        fills += c.fill(obj) is not None
                        assert c.span_union(obj) == py.span_union(obj)
                        spans += c.span_union(obj) is not None
                    if i < n:
                        assert c.unicode(i) == py.unicode(i)
                    checked += 1
                textpage.close()
                page.close()
        finally:
            doc.close()
    assert checked > 100
    assert fills > 0
    if any("haggadah_word365" in p for p in pdfs):
        assert spans > 0


def test_c_line_size_matches_the_python_class() -> None:
    """The C twin's one-call median of a line's letter sizes (an OCR layer's line size)
    is the class's, bit for bit, on every line of a few pages of the OCR-layer files
    (a size per word, scaled by the matrix) and of other files, and on strings without
    letters, past the page's last character and with spaces and marks."""
    _require_twin()
    import pypdfium2
    import pypdfium2.raw as raw

    from libtext.pdf._pdfium import CharCalls, char_calls_twin

    twin = char_calls_twin()
    assert twin is not None
    real = [p for p in _pdfs() if "realdata" in p]
    pdfs = [p for p in real if "ocrlayer" in p][:3] + real[:2]
    if not pdfs:
        pytest.skip("the open set is missing")
    lines = sized = 0
    for name in pdfs:
        doc = pypdfium2.PdfDocument(name)
        try:
            for k in range(min(3, len(doc))):
                page = doc[k]
                textpage = page.get_textpage()
                m_py, m_c = raw.FS_MATRIX(), raw.FS_MATRIX()
                py = CharCalls(raw, textpage.raw, m_py, page.raw)
                c = twin(raw, textpage.raw, m_c, page.raw)
                text = textpage.get_text_range()
                a = 0
                for line in [*text.split("\n"), "", " 12 ", "\u05d0\u05b7 x", text]:
                    got = c.line_size(line, a)
                    assert got == py.line_size(line, a)
                    lines += 1
                    sized += got > 0
                    a = min(a + len(line) + 1, len(text))
                assert c.line_size("ab", len(text) + 5) == py.line_size("ab", len(text) + 5)
                textpage.close()
                page.close()
        finally:
            doc.close()
    assert lines > 50 and sized > 20


def test_c_script_letters_match_the_counts() -> None:
    """The C twin's one-pass count of Hebrew and Latin letters gives
    ``_letters.letters_in_bytes``'s (the pure-Python reference) on every page text of a
    few PDFs and on strings at the ranges' edges (U+05CF, U+05EB, ``@[`{``, finals,
    accented Latin, astral characters)."""
    _require_twin()
    import pypdfium2

    from libtext.pdf._compiled import cython_module
    from libtext.pdf._letters import letters_in_bytes as _script_letters

    module = cython_module("_charcalls")
    assert module is not None
    edges = ["", "\u05cf\u05d0\u05ea\u05eb", "@AZ[`az{", "\u05da\u05dd\u05ea é ß", "𝔸ab\U0001f600א"]
    for text in edges:
        assert module.script_letters(text) == _script_letters(text)
    real = [p for p in _pdfs() if "realdata" in p]
    counted = 0
    for name in real[:8]:
        doc = pypdfium2.PdfDocument(name)
        try:
            for k in range(min(2, len(doc))):
                textpage = doc[k].get_textpage()
                text = textpage.get_text_range()
                assert module.script_letters(text) == _script_letters(text)
                counted += sum(_script_letters(text))
                textpage.close()
        finally:
            doc.close()
    assert counted > 1000


def test_pair_gaps_are_the_pattern_and_the_advance_boxes() -> None:
    """``CharCalls.pair_gaps`` finds the pairs of ``(?<=\\S)[^\\s.,:;!?]`` (a letter after
    a letter, no space, not punctuation) and their gaps from the advance boxes, as
    the OCR reader once computed them with a regex and a batch of ``looses``; an OCR
    layer's pages (Hebrew, no spaces after some words) and a LaTeX book's."""
    import re

    import pypdfium2
    import pypdfium2.raw as raw

    from libtext.pdf._pdfium import CharCalls

    pattern = re.compile(r"(?<=\S)[^\s.,:;!?]")
    real = [p for p in _pdfs() if "realdata" in p]
    pdfs = [p for p in real if "ocrlayer" in p][:2] + [p for p in real if "latex" in p][:1]
    if not pdfs:
        pytest.skip("no OCR layer PDF found")
    pairs_seen = 0
    for name in pdfs:
        doc = pypdfium2.PdfDocument(name)
        try:
            page = doc[min(3, len(doc) - 1)]
            textpage = page.get_textpage()
            calls = CharCalls(raw, textpage.raw, raw.FS_MATRIX(), page.raw)
            text = textpage.get_text_range()
            for line_start in range(0, len(text), 97):
                line = text[line_start : line_start + 60] + " a.b,c d\u05d0"
                pairs, gaps = calls.pair_gaps(line, line_start)
                assert pairs == [m.start() for m in pattern.finditer(line)]
                want = []
                for k in pairs:
                    lp, rp, lq, rq = calls.looses([line_start + k - 1, line_start + k])
                    want.append(max(lp, lq) - min(rp, rq))
                assert gaps == want
                pairs_seen += len(pairs)
            textpage.close()
            page.close()
        finally:
            doc.close()
    assert pairs_seen > 100


def test_c_heading_walk_matches_the_python_walk() -> None:
    """The C walk of a page's structure tree (``_charcalls.heading_elements``) finds
    the heading elements the Python walk of ``_outline`` finds, in the same order, on
    every page of the tagged PDFs (Word's), and visits no more elements than asked."""
    _require_twin()
    import pypdfium2
    import pypdfium2.raw as raw

    from libtext.pdf import _outline
    from libtext.pdf._compiled import cython_module

    twin = cython_module("_charcalls")
    assert twin is not None
    tagged = [p for p in _pdfs() if "word" in Path(p).name.lower()]
    if not tagged:
        pytest.skip("no tagged PDF among the sets")
    types, walk = _outline._HEADING_TYPES, _outline._WALK
    found = 0
    for name in tagged:
        doc = pypdfium2.PdfDocument(name)
        try:
            for k in range(len(doc)):
                page = doc[k]
                tree = raw.FPDF_StructTree_GetForPage(page.raw)
                if not tree:
                    page.close()
                    continue
                try:
                    _outline._TWIN[:] = [None]  # the Python walk
                    py = _outline._heading_elements(raw, tree)
                    c = twin.heading_elements(raw, tree, types, walk)
                    assert c == _addresses(py), (name, k)
                    # A walk cut short stops at the same element.
                    _outline._WALK = 5
                    short = _outline._heading_elements(raw, tree)
                    _outline._WALK = walk
                    assert twin.heading_elements(raw, tree, types, 5) == _addresses(short)
                    found += len(c)
                finally:
                    _outline._TWIN.clear()
                    _outline._WALK = walk
                    raw.FPDF_StructTree_Close(tree)
                    page.close()
        finally:
            doc.close()
    assert found > 0


def _addresses(elements: list[tuple[int, object]]) -> list[tuple[int, int]]:
    return [(level, ctypes.cast(el, ctypes.c_void_p).value or 0) for level, el in elements]
