"""The project's one sentence splitter, for prose of every kind it reads: abstracts, papers, explanations, exam
questions, evidence passages and claims.

A rule splitter, not a model: it runs on every evidence passage of every build, so it has to be fast (linear in
the text), and it has to give the same sentences to the readers, the exports, the judge and the language model.

- A passage is cut at line breaks (``\\n``, ``\\r\\n``, ``\\r``, U+2028, U+2029). A form feed, vertical tab,
  NEL or separator character is a space; other control characters are dropped.
- Within a line it is cut after ``.``, ``!`` or ``?`` (and any closing quotes or brackets) followed by space and
  an upper-case letter, a digit, or an opening quote or bracket.
- A piece that ends in an abbreviation (``Fig.``, ``e.g.``, ``i.e.``, ``ref.``, ``vs.``, ``Dr.``, ``St.``,
  ``Rs.`` (rupees) ...) is joined with the next piece on its line. One that ends in ``et al.``, ``No.``,
  ``Nos.`` or ``resp.`` is joined only when the next piece starts with a bracket or does not start with a
  capitalised word ("Smith et al. (Nature 2010) showed", "(Jain et al. 2013)", "No. 5"), since these also end
  sentences.
- Units and "etc." are not abbreviations here: in scientific text "for 30 min." and "and so on, etc." end
  sentences far more often than they sit inside one. A single capital before the period ("vitamin D.",
  "Figure 2A.") ends a sentence too.
"""

from __future__ import annotations

import re

from claimforge.io.rows import normalize_text

__all__ = ["SPLITTER_VERSION", "split_sentences"]

# Part of the cache keys of whatever caches results per sentence of a text, and of a build's input fingerprint:
# raise it when a change here moves sentence boundaries.
SPLITTER_VERSION = 3

_LINES = re.compile(r"\r\n?|[\n\u2028\u2029]")
# A form feed (a PDF page break), a vertical tab, NEL or a file/group/record separator between two words is a space.
_PAGE_BREAKS = str.maketrans(dict.fromkeys("\x0b\x0c\x85\x1c\x1d\x1e", " "))
_BOUNDARY = re.compile(r"(?<=[.!?])[\"'’”)\]]*\s+(?=[\"'‘“(\[]?[A-Z0-9])")
# Abbreviations that never end a sentence here, and those that may (joined only before a lower-case word, a
# digit or a bracket).
_ABBREV_END = re.compile(
    r"(?:\b(?:[Ff]igs?|[Rr]efs?|[Ee]qs?|vs|cf|approx|ca|[Ss]uppl|[Vv]ol|pp|Dr|Prof|Mr|Mrs|Ms|Jr|Sr|St|Rs)"
    r"|(?<![\w.])(?:e\.g|i\.e))\.$"
)
_OPEN_END = re.compile(r"(?:\bet[\s\u00a0\u2009]*al|\bNos?|\bresp)\.$")
_FIRST_WORD_CHAR = re.compile(r"\w")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with its whitespace collapsed and control characters removed (see the
    module's docstring)."""
    sentences: list[list[str]] = []  # the pieces of each sentence, joined once at the end (linear time)
    for line in _LINES.split(text.translate(_PAGE_BREAKS)):
        current: list[str] | None = None
        start = 0
        for m in _BOUNDARY.finditer(line):
            current = _add(sentences, current, normalize_text(line[start : m.start()] + line[m.start() : m.end()]))
            start = m.end()
        _add(sentences, current, normalize_text(line[start:]))
    return [" ".join(parts) for parts in sentences]


def _add(sentences: list[list[str]], current: list[str] | None, piece: str) -> list[str] | None:
    """Add ``piece`` to the sentence being built on this line, or start a new sentence with it."""
    if not piece:
        return current
    if current is not None and _joins(current[-1], piece):
        current.append(piece)
        return current
    sentences.append([piece])
    return sentences[-1]


def _joins(previous: str, piece: str) -> bool:
    """Whether ``piece`` continues the sentence whose last piece is ``previous``. Only the end of ``previous`` is
    searched: it is longer than any abbreviation, so word boundaries before one are still seen."""
    end = previous[-16:]
    if _ABBREV_END.search(end):
        return True
    if _OPEN_END.search(end):
        if piece[0] in "([":  # "Smith et al. (Nature 2010) showed"
            return True
        first = _FIRST_WORD_CHAR.search(piece)
        return not (first and first.group(0).isupper())
    return False
