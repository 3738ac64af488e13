"""Translation time against block size: it must grow linearly, 10 KB to 1 MB.

Translates generated Hebrew blocks of 10 KB, 100 KB and 1 MB with the offline provider
(cutting into phrases, citation linking, chunking, the offline answer, alignment and
assembly: everything but a model's latency) and prints, best of ``--repeat``, the time,
the time per KB and the ratio of the time per KB to that of the 10 KB block measured in
the same run (1.0 = linear; quadratic handling would show 10x and 100x).

Three shapes of text: prose with punctuation and a citation every ~200 characters;
one long unpunctuated clause (every phrase cut by length); and prose with a footnote
marker every ~500 characters and its footnotes.

    python benchmarks/translate.py [--repeat 2] [--sizes 10,100,1000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from libtext import Translator
from libtext.models import EnrichedSegment, Footnote

PROSE = (
    'ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור. וכמ"ש הקב"ה, דע כי יש בכל דבר ודבר '
    "חיות אלקי; והנה ביאור הענין הוא כמו שכתוב בזהר הקדוש: "
)
PLAIN = "והנה ביאור הענין הוא שיש בכל דבר ודבר חיות אלקי המחיה אותו ומהוה אותו תמיד "


def _fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def prose(size: int) -> EnrichedSegment:
    return EnrichedSegment(sequence_id=1, original_hebrew_block=_fill(PROSE, size))


def unpunctuated(size: int) -> EnrichedSegment:
    return EnrichedSegment(sequence_id=1, original_hebrew_block=_fill(PLAIN, size))


def footnoted(size: int) -> EnrichedSegment:
    parts: list[str] = []
    notes: list[Footnote] = []
    length = k = 0
    while length < size:
        k += 1
        part = _fill(PROSE, 480) + f" ({k}) "
        parts.append(part)
        length += len(part)
        notes.append(Footnote(marker=f"({k})", content="ראה שם בארוכה."))
    return EnrichedSegment(sequence_id=1, original_hebrew_block="".join(parts), footnotes=notes)


SHAPES: dict[str, Callable[[int], EnrichedSegment]] = {
    "prose + citations": prose,
    "unpunctuated": unpunctuated,
    "footnoted": footnoted,
}


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--sizes", default="10,100,1000", help="block sizes in KB")
    args = parser.parse_args()
    sizes = [int(s) * 1024 for s in args.sizes.split(",")]
    translator = Translator(provider="offline")
    translator.translate(PROSE)  # load the citation tables once, outside the timings
    print(f"{'text':<20} {'size':>8} {'seconds':>8} {'ms/KB':>7} {'ratio':>6}")
    for name, make in SHAPES.items():
        base = None
        for size in sizes:
            seg = make(size)
            seconds = best_of(args.repeat, lambda seg=seg: translator.translate(seg))
            per_kb = seconds * 1000 / (size / 1024)
            base = base or per_kb
            print(
                f"{name:<20} {size // 1024:>6}KB {seconds:>8.2f} {per_kb:>7.2f} "
                f"{per_kb / base:>6.2f}"
            )
    print()
    print("ratio = ms/KB of this size / ms/KB of the smallest size (linear: about 1)")


if __name__ == "__main__":
    main()
