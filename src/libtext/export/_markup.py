"""The HTML of one section, shared by the reader page and the EPUB's chapter files.

Well-formed XHTML as well as HTML (every element closed, every attribute quoted), so
one renderer serves both. Hebrew carries ``dir="rtl" lang="he"``, English
``dir="ltr" lang="en"``; the layout (side by side or interleaved) is the stylesheet's
choice, the markup is the same.
"""

from __future__ import annotations

from html import escape

from libtext.export._view import Meta, Note, Phrase, SectionView, all_notes, link_label

__all__ = ["STYLE", "meta_html", "section_html"]

STYLE = """
body{margin:0 auto;max-width:72em;padding:0 1em 3em;font-family:Georgia,"DejaVu Serif",serif;
line-height:1.5;
color:#222;background:#fff}
nav.toc ol{columns:16em;padding-inline-start:1.5em}
nav.toc a{text-decoration:none}
h1,h2{font-weight:600;line-height:1.25}
h2{margin-top:2em;border-bottom:1px solid #ccc;padding-bottom:.2em}
.meta{color:#555;font-size:.95em}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1em .8em}
.meta dt{font-weight:600}
.meta dd{margin:0;text-align:left}
[lang="he"]{font-family:"Ezra SIL","SBL Hebrew","Taamey Frank CLM","Frank Ruehl CLM",
"David CLM","Noto Serif Hebrew","DejaVu Serif",serif;font-size:1.2em}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 1.5em;border-top:1px solid #eee;
padding:.3em 0}
.pair p{margin:.1em 0}
.pair .he{grid-column:2;grid-row:1}.pair .en{grid-column:1;grid-row:1}
.interleaved .pair{display:block}
.block{white-space:pre-wrap}
.src{font-size:.85em;white-space:nowrap}
.src.coarse::after{content:" ≈";color:#a60}
.untranslated{color:#888;font-style:italic}
.error{color:#a00}
.notes{font-size:.9em;border-top:1px solid #ccc;margin-top:1em}
.notes li{margin:.3em 0}
sup a{text-decoration:none}
@media (max-width:40em){body{padding:0 .6em 2em}
.pair{display:block}.pair .he{margin-bottom:.2em}
h1{font-size:1.4em}h2{font-size:1.2em}}
"""
"""The page's stylesheet: two columns (Hebrew at the right), one column on a phone."""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _refs(notes: tuple[Note, ...] | list[Note], *, epub: bool) -> str:
    kind = ' epub:type="noteref"' if epub else ""
    return "".join(
        f'<sup><a id="r{n.number}" href="#n{n.number}"{kind} role="doc-noteref">'
        f"{n.number}</a></sup>"
        for n in notes
    )


def _source(p: Phrase, *, epub: bool) -> str:
    if not p.link:
        return ""
    coarse = " coarse" if p.coarse else ""
    title = (
        "Sefaria: a passage that contains the citation (coarse link)"
        if p.coarse
        else "Sefaria: the passage cited"
    )
    target = "" if epub else ' target="_blank" rel="noopener noreferrer"'
    label = link_label(p.link) + (" (coarse)" if p.coarse else "")
    return f' <a class="src{coarse}" href="{_e(p.link)}" title="{title}"{target}>{_e(label)}</a>'


def _pair(p: Phrase, *, epub: bool) -> str:
    english = _e(p.english) if p.english else '<span class="untranslated">(not translated)</span>'
    return (
        '<div class="pair">'
        f'<p class="he" dir="rtl" lang="he" xml:lang="he">{_e(p.hebrew)}'
        f"{_refs(p.notes, epub=epub)}</p>"
        f'<p class="en" dir="ltr" lang="en" xml:lang="en">{english}{_source(p, epub=epub)}</p>'
        "</div>"
    )


def _notes(notes: list[Note], *, epub: bool) -> str:
    if not notes:
        return ""
    section = ' epub:type="endnotes" role="doc-endnotes"' if epub else ' role="doc-endnotes"'
    item = ' epub:type="endnote" role="doc-endnote"' if epub else ' role="doc-endnote"'
    rows = "".join(
        f'<li id="n{n.number}" value="{n.number}"{item}>'
        f'<p dir="rtl" lang="he" xml:lang="he">{_e(n.hebrew)}</p>'
        + (f'<p dir="ltr" lang="en" xml:lang="en">{_e(n.english)}</p>' if n.english else "")
        + f'<p><a href="#r{n.number}" role="doc-backlink">↩ back</a></p></li>'
        for n in notes
    )
    return f'<section class="notes"{section}><h3>Notes</h3><ol>{rows}</ol></section>'


def section_html(view: SectionView, *, epub: bool = False) -> str:
    """One section: its heading, its phrases (Hebrew with English), its notes."""
    page = f' <span class="meta">p. {_e(view.page_ref)}</span>' if view.page_ref else ""
    number = f' data-chapter="{_e(view.chapter_number)}"' if view.chapter_number else ""
    parts = [
        f'<section id="{view.anchor}" class="section"{number}>'
        f'<h2 dir="auto">{_e(view.heading)}{page}</h2>'
    ]
    if view.error:
        parts.append(f'<p class="error">Translation failed: {_e(view.error)}</p>')
    if view.phrases:
        parts += [_pair(p, epub=epub) for p in view.phrases]
        if view.notes:
            parts.append(f'<p class="he" dir="rtl" lang="he" xml:lang="he">'
                         f"{_refs(view.notes, epub=epub)}</p>")  # fmt: skip
    else:
        parts.append(
            f'<p class="he block" dir="rtl" lang="he" xml:lang="he">{_e(view.hebrew)}'
            f"{_refs(view.notes, epub=epub)}</p>"
        )
    parts.append(_notes(all_notes(view), epub=epub))
    parts.append("</section>")
    return "".join(parts)


def meta_html(m: Meta) -> str:
    """The title and the facts a reader checks first: author, pages, revision, date."""
    facts = [
        ("Author", m.author, "he"),
        ("Publication", m.title, "he"),
        ("Work", m.work, "he"),
        ("Pages", m.pages, ""),
        ("Sections", str(m.sections), ""),
        ("Revision", m.revision_text, ""),
    ]
    rows = "".join(
        f"<dt>{name}</dt><dd"
        + (' dir="rtl" lang="he" xml:lang="he"' if lang else "")
        + f">{_e(value)}</dd>"
        for name, value, lang in facts
        if value
    )
    return f'<h1 dir="auto">{_e(m.heading)}</h1><dl class="meta">{rows}</dl>'
