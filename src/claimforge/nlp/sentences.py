"""The project's one sentence splitter, for prose of every kind it reads: abstracts, papers, explanations, exam
questions, evidence passages and claims.

A rule splitter, not a model: it runs on every evidence passage of every build, so it has to be fast, and it
has to give the same sentences to the readers, the exports, the judge and the language model. A passage is cut
at line breaks and after ``.``, ``!`` or ``?`` (and any closing quotes or brackets) followed by space and an
upper-case letter, a digit, or an opening quote or bracket before one. Then a piece that ends in an
abbreviation (``Fig.``, ``e.g.``, ``i.e.``, ``ref.``, ``vs.``, ``No.``, ``Dr.``, ``Rs.`` (rupees) ...) is joined
with the next piece, and a piece that ends in ``et al.`` is joined with a next piece that starts with a digit
or a bracket ("Smith et al. (2010) showed", "(Jain et al. 2013)"), not with a capitalised word, which starts a
new sentence. Units and "etc." are not abbreviations here: in scientific text "for 30 min." and "and so on,
etc." end sentences far more often than they sit inside one. A single capital before the period ("vitamin D.",
"Figure 2A.") ends a sentence too.
"""

from __future__ import annotations

import re

from claimforge.io.rows import normalize_text

__all__ = ["SPLITTER_VERSION", "split_sentences"]

# Part of the cache keys of whatever caches results per sentence of a text: raise it when a change here moves
# sentence boundaries.
SPLITTER_VERSION = 2

_BOUNDARY = re.compile(r"(?<=[.!?])[\"'’”)\]]*\s+(?=[\"'‘“(\[]?[A-Z0-9])")
_ABBREV_END = re.compile(
    r"(?:\b(?:[Ff]igs?|[Rr]efs?|[Ee]qs?|vs|cf|approx|ca|No|Nos|[Ss]uppl|[Vv]ol|pp|Dr|Prof|Mr|Mrs|Ms|Jr|Sr|St|Rs|resp)"
    r"|(?<![\w.])(?:e\.g|i\.e))\.$"
)
_ET_AL_END = re.compile(r"\bet[\s\u00a0\u2009]*al\.$")


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with its whitespace collapsed and control characters removed (see the
    module's docstring)."""
    out: list[str] = []
    for line in text.splitlines():
        start = 0
        pieces = []
        for m in _BOUNDARY.finditer(line):
            pieces.append(line[start : m.start()] + line[m.start() : m.end()].rstrip())
            start = m.end()
        pieces.append(line[start:])
        for raw in pieces:
            piece = normalize_text(raw)
            if not piece:
                continue
            if out and joined_to_previous(out[-1], piece):
                out[-1] = f"{out[-1]} {piece}"
            else:
                out.append(piece)
    return out


def joined_to_previous(previous: str, piece: str) -> bool:
    """Whether ``piece`` continues ``previous`` rather than starting a sentence: ``previous`` ends in an
    abbreviation, or in "et al." and ``piece`` does not start with a capital."""
    return bool(_ABBREV_END.search(previous) or (_ET_AL_END.search(previous) and not piece[0].isupper()))
