"""Walking a work's tree in reading order, a batch of children at a time.

A work is a tree: sections list their children, pages carry text (a section may be a
page too). :class:`Walk` holds one walk's state: where to resume, how many pages
``max_pages`` still allows, the nodes already read (a tree with a cycle or a repeated
entry is read once), and, per level, whether siblings are left, which is what
``truncated`` reports when ``max_pages`` stops the walk.

Two ways to resume: ``resume_ids`` (a page's ``path_ids``) goes straight down that
path without fetching what came before; ``resume_target`` (a page id alone) walks from
the start, reading but not yielding pages until it passes that page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from libtext.library._api import RawChild, RawNode
from libtext.models import LibraryPage

MAX_DEPTH = 16
"""Deepest level walked below the work: a bound on a malformed (or hostile) tree."""

Fetch = Callable[[Sequence[str]], Awaitable[list[RawNode]]]
"""Nodes by id, in order (the client's bounded, cached fetch)."""

ToPage = Callable[[RawNode, Sequence[str], Sequence[str]], LibraryPage]
"""A page node, its heading path and its path of ids -> the page's text."""


@dataclass(slots=True)
class Walk:
    """One walk over a work's tree, and where it stands."""

    fetch: Fetch
    to_page: ToPage
    concurrency: int
    max_pages: int | None
    resume_ids: list[str] | None = None
    resume_target: str | None = None
    count: int = 0
    done: bool = False
    truncated: bool = False
    seen: set[str] = field(default_factory=set)
    more: list[bool] = field(default_factory=list)  # per level: siblings left after this one

    async def pages(self, root: RawNode) -> AsyncIterator[LibraryPage]:
        """The pages of the work at ``root``, itself first when it is a page."""
        if root.kind == "page":
            page = self.to_page(root, (), [root.id])
            if self.resume_target == root.id or self.resume_ids:
                self.resume_target, self.resume_ids = None, None
            else:
                self.count += 1
                yield page
                if self._full():
                    self.done, self.truncated = True, bool(root.children)
                    return
        async for page in self._under(root, [], [], 0):
            yield page

    async def _under(
        self, node: RawNode, heading_path: list[str], path_ids: list[str], depth: int
    ) -> AsyncIterator[LibraryPage]:
        """Pages under ``node`` in reading order."""
        children = node.children
        i, descend_into = self._resume_point(children, depth)
        while i < len(children) and not self.done:
            if descend_into is not None and children[i].id == descend_into:
                size = 1  # only the child on the resume path
            else:
                size = self._batch_size()
            batch = children[i : i + size]
            descend_into = None
            nodes = await self.fetch([c.id for c in batch])
            for j, (child, sub) in enumerate(zip(batch, nodes, strict=True)):
                if child.id in self.seen:
                    continue  # a cycle or a repeated entry: read each node once
                self.seen.add(child.id)
                siblings_left = i + j + 1 < len(children)
                heading = child.heading or sub.title
                headings = [*heading_path, heading] if heading else list(heading_path)
                ids = [*path_ids, child.id]
                if sub.kind == "page":
                    page = self.to_page(sub, headings, ids)
                    if not self._passing(child.id):
                        self.count += 1
                        yield page
                        if self._full():
                            self.done = True
                            self.truncated = siblings_left or bool(sub.children) or any(self.more)
                            return
                if sub.children and depth < MAX_DEPTH:
                    self.more.append(siblings_left)
                    async for page in self._under(sub, headings, ids, depth + 1):
                        yield page
                    self.more.pop()
                    if self.done:
                        return
            i += len(batch)

    def _resume_point(self, children: Sequence[RawChild], depth: int) -> tuple[int, str | None]:
        """Where to start among ``children``, and which child to descend into first.

        Following ``resume_ids``: at its last level, just after the page read last; above
        it, at the child on the path. A path the tree no longer has falls back to
        finding the last page by id.
        """
        if self.resume_ids is None or depth >= len(self.resume_ids):
            return 0, None
        want = self.resume_ids[depth]
        index = next((k for k, c in enumerate(children) if c.id == want), None)
        if index is None:  # the tree changed: find the page by id instead
            self.resume_target, self.resume_ids = self.resume_ids[-1], None
            return 0, None
        if depth == len(self.resume_ids) - 1:
            self.resume_ids = None
            return index + 1, None  # the last page read: skip it
        return index, want

    def _batch_size(self) -> int:
        """Children fetched at once: ``concurrency``, but no more than pages still wanted."""
        if self.max_pages is not None and self.resume_target is None:
            return min(self.concurrency, self.max_pages - self.count)
        return self.concurrency

    def _passing(self, page_id: str) -> bool:
        """Whether this page comes before ``resume_target`` (or is it) and is not yielded."""
        if self.resume_target is None:
            return False
        if page_id == self.resume_target:
            self.resume_target = None
        return True

    def _full(self) -> bool:
        """Whether ``max_pages`` pages have been yielded."""
        return self.max_pages is not None and self.count >= self.max_pages
