"""A replay of the online library built from pages recorded from the live site.

``../shared/realdata/chabadlibrary/`` holds what a public scraper kept of
``GET /books/api/main?path=/<id>`` for two works: each page's ``content.data``
(``text``, ``haoros``) and each node's id and heading. :class:`ReplayLibrary`
rebuilds the envelope around it (``{"content": {"type": "children"|"page",
"data": ...}}``) and answers as the site does, over ``httpx.MockTransport`` or from a
real loopback server. Search and statistics are answered from the same pages in
the shape public clients read (``count``, ``results[].mafteach_id``, ``tree`` as
breadcrumb HTML, ``text`` as the page's HTML; ``[{section_id, count}]``).

Tests and scripts import it; the data is read from ``../shared`` (or
``$LIBTEXT_SHARED``) and never copied.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LIBTEXT_SHARED", ROOT.parent / "shared"))
REALDATA = SHARED / "realdata" / "chabadlibrary"

# Root ids as the data's README gives them (file -> root node id).
WORKS: dict[str, str] = {"Tanya.json": "3400000000", "book-2800000000.json": "2800000000"}
TITLES: dict[str, str] = {"3400000000": "תניא"}
TANYA, BOOK_2800 = WORKS["Tanya.json"], WORKS["book-2800000000.json"]
HITS_PER_PAGE = 25  # the site's page of search hits

_HEBREW_WORD = re.compile(r"[\u05d0-\u05ea]+")
_MARKUP = re.compile(r"<[^>]*>|\[/?[A-Za-z][^\[\]]*\]")


def hebrew_words(text: str) -> list[str]:
    """Hebrew letter runs: the words compared between recorded and parsed text."""
    return _HEBREW_WORD.findall(text)


@dataclass
class RecordedPage:
    id: str
    heading: str
    text: str
    haoros: str
    path: list[str]  # headings from the work down to the page


@dataclass
class RecordedWork:
    root_id: str
    title: str
    sections: list[tuple[str, str, list[RecordedPage]]]  # (id, heading, pages)

    @property
    def pages(self) -> list[RecordedPage]:
        return [p for _, _, pages in self.sections for p in pages]


def available() -> bool:
    return all((REALDATA / name).is_file() for name in WORKS)


def load_work(name: str) -> RecordedWork:
    raw: dict[str, Any] = json.loads((REALDATA / name).read_text(encoding="utf-8"))
    root = WORKS[name]
    sections = []
    for key, sec in raw.items():
        heading = str(sec.get("heading") or key)
        pages = [
            RecordedPage(
                id=str(child["id"]),
                heading=str(child.get("heading") or ""),
                text=str(child.get("text") or ""),
                haoros=str(child.get("notes") or ""),
                path=[heading, str(child.get("heading") or "")],
            )
            for child in sec.get("children", [])
        ]
        sections.append((str(sec["id"]), heading, pages))
    return RecordedWork(root_id=root, title=TITLES.get(root, ""), sections=sections)


def _plain(html: str) -> str:
    return " ".join(_MARKUP.sub(" ", html).split())


@dataclass
class ReplayLibrary:
    """The recorded works behind the library's three endpoints.

    ``brotli``: compress every answer (``"header"`` with ``Content-Encoding: br``,
    ``"bare"`` without it, as the site sometimes does).
    """

    works: list[RecordedWork] = field(default_factory=list)
    brotli: str | None = None
    requests: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    _map: dict[str, dict[str, Any]] | None = field(default=None, repr=False)

    @classmethod
    def load(cls) -> ReplayLibrary:
        return cls(works=[load_work(name) for name in WORKS])

    def work(self, root_id: str) -> RecordedWork:
        return next(w for w in self.works if w.root_id == root_id)

    def _nodes(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for work in self.works:
            yield (
                work.root_id,
                {
                    "type": "children",
                    "data": [{"id": int(sid), "heading": h} for sid, h, _ in work.sections],
                },
            )
            for sid, _, pages in work.sections:
                yield (
                    sid,
                    {
                        "type": "children",
                        "data": [{"id": int(p.id), "heading": p.heading} for p in pages],
                    },
                )
                for p in pages:
                    yield p.id, {"type": "page", "data": {"text": p.text, "haoros": p.haoros}}

    def answer(self, path: str, params: dict[str, str]) -> tuple[int, Any]:
        """(status, JSON body) for a GET of ``path`` (``.../api/<name>``)."""
        self.requests.append(path)
        if path.endswith("/api/main"):
            node = params.get("path", "")
            self.paths.append(node)
            if self._map is None:
                self._map = dict(self._nodes())
            content = self._map.get(node.removeprefix("/"))
            return 200, {"content": content}
        if path.endswith("/api/search"):
            return 200, self.search(
                params.get("phrase", ""), params.get("section_id", "0"), params.get("offset", "0")
            )
        if path.endswith("/api/statistics"):
            return 200, self.statistics(params.get("phrase", ""))
        return 404, {"error": "not found"}

    def _hits(self, phrase: str) -> list[tuple[RecordedWork, str, RecordedPage]]:
        hits = []
        for work in self.works:
            for sid, _, pages in work.sections:
                for p in pages:
                    if phrase and phrase in _plain(p.text):
                        hits.append((work, sid, p))
        return hits

    def search(self, phrase: str, section_id: str, offset: str) -> dict[str, Any]:
        hits = [
            h for h in self._hits(phrase) if section_id in ("0", "", h[0].root_id, h[1], h[2].id)
        ]
        start = int(offset) * HITS_PER_PAGE
        results = [
            {
                "mafteach_id": int(p.id),
                "tree": " &gt; ".join(
                    f'<a href="/books/{i}">{h}</a>'
                    for i, h in (
                        (w.root_id, w.title or w.root_id),
                        (sid, p.path[0]),
                        (p.id, p.heading),
                    )
                ),
                "text": p.text,
            }
            for w, sid, p in hits[start : start + HITS_PER_PAGE]
        ]
        return {"count": len(hits), "results": results}

    def statistics(self, phrase: str) -> list[dict[str, Any]]:
        counts: dict[str, int] = {}
        for work, _, _ in self._hits(phrase):
            counts[work.root_id] = counts.get(work.root_id, 0) + 1
        return [{"section_id": int(k), "count": v} for k, v in counts.items()]

    def response(self, status: int, body: Any) -> tuple[bytes, dict[str, str]]:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json; charset=utf-8"}
        if self.brotli:
            import brotli

            data = brotli.compress(data)
            if self.brotli == "header":
                headers["Content-Encoding"] = "br"
        return data, headers

    def handle(self, request: httpx.Request) -> httpx.Response:
        status, body = self.answer(request.url.path, dict(request.url.params))
        data, headers = self.response(status, body)
        return httpx.Response(status, content=data, headers=headers)

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)
