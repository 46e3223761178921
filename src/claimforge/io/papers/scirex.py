"""SciREX JSON (tokenised CS/ML papers with entity annotations) → :class:`~claimforge.records.Paper`.

A SciREX document is ``{doc_id, words, sections: [[start, end]], sentences: [[start, end]], ner, coref,
...}``: the paper as one token list, cut into section and sentence spans. The first sentence of each section
is its heading, written as ``"<level> : <heading>"`` with level ``document`` (the title), ``section``,
``subsection``, ``subsubsection``, ``paragraph`` (a run-in heading such as "Results ."), ``appendix`` or
``bibliography``; ``theorem`` and ``proof`` sentences are not headings but text of the section they stand in.

What is taken:

- ``title``: the first section's first sentence (with or without its ``document :`` prefix);
- ``abstract``: the rest of the first section, or the section headed "Abstract" (a first section of more
  than :data:`MAX_ABSTRACT_SENTENCES` sentences is body text under no heading instead);
- ``sections``: the other sections, nested by their level (``appendix`` sections and what follows under them
  are ``other``; ``bibliography`` sections are left out: SciREX keeps no reference text), each section's text
  one paragraph (SciREX has no paragraph breaks), detokenised ("Full - Resolution" -> "Full-Resolution") with
  the ``[ reference ]`` citation placeholders removed, and split into sentences with the project's splitter;
- ``meta``: ``doc_id`` and the number of entity mentions and relations.

No captions or references (SciREX has none). JSON that is not a SciREX document is
:class:`~claimforge.io.papers.PaperError` ``not_scirex``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from claimforge.io.papers import PaperError
from claimforge.io.papers.sections import RawSection, build_sections
from claimforge.io.papers.text import clean_text, detokenize, parse_json, sentences
from claimforge.records import Paper, SectionType, SourceRef

__all__ = ["FORMAT", "SCIREX_KEYS", "from_json", "is_scirex", "parse"]

FORMAT = "scirex"
SCIREX_KEYS = ("words", "sections", "sentences")
MAX_ABSTRACT_SENTENCES = 25

_LEVELS = {"document": 0, "section": 1, "appendix": 1, "bibliography": 1, "subsection": 2, "subsubsection": 3}
_LEVELS["paragraph"] = 4
_NOT_HEADINGS = ("theorem", "proof")
_REFERENCE = re.compile(r"\[\s*reference\s*\]", re.IGNORECASE)


def is_scirex(obj: Any) -> bool:
    """A decoded JSON value is a SciREX document."""
    return isinstance(obj, dict) and all(k in obj for k in SCIREX_KEYS)


def _spans(value: Any, n_words: int, field: str, where: str) -> list[tuple[int, int]]:
    ok = isinstance(value, list) and all(
        isinstance(s, list) and len(s) == 2 and all(isinstance(x, int) for x in s) and 0 <= s[0] <= s[1] <= n_words
        for s in value
    )
    if not ok:
        raise PaperError("not_scirex", f"{where}: {field} is not a list of [start, end] word spans")
    return [(s[0], s[1]) for s in value]


def _text(words: Sequence[str]) -> str:
    return _REFERENCE.sub(" ", detokenize(words))


def _heading(tokens: Sequence[str]) -> tuple[str, str] | None:
    """(level word, heading) of a section's first sentence ("section", ":", "Related", "Work"), or None when it
    carries no level prefix."""
    if len(tokens) < 2 or tokens[1] != ":" or not tokens[0].isalpha() or not tokens[0].islower():
        return None
    return tokens[0], clean_text(_text(tokens[2:])).rstrip(" .")


def from_json(obj: Any, paper_id: str, where: str) -> Paper:
    """A SciREX document (decoded JSON) as a Paper; ``where`` names the file in errors and in ``ref``."""
    if not is_scirex(obj):
        raise PaperError("not_scirex", f"{where}: not a SciREX document (needs {', '.join(SCIREX_KEYS)})")
    words = obj["words"]
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise PaperError("not_scirex", f"{where}: words is not a list of strings")
    section_spans = _spans(obj["sections"], len(words), "sections", where)
    sentence_spans = sorted(_spans(obj["sentences"], len(words), "sentences", where))

    title = ""
    abstract: list[tuple[str, ...]] = []
    raws: list[RawSection] = []
    for n, (start, end) in enumerate(section_spans):
        spans = [(a, b) for a, b in sentence_spans if start <= a and b <= end and a < b]
        if not spans:
            continue
        head = _heading(words[spans[0][0] : spans[0][1]])
        sents = [_text(words[a:b]) for a, b in spans]
        if n == 0:
            title = clean_text(head[1] if head else sents[0])
            rest = sents[1:]
            if len(rest) > MAX_ABSTRACT_SENTENCES:
                raws.append(RawSection(heading="", paragraphs=[sentences(" ".join(rest))], level=1))
            elif rest:
                abstract.append(sentences(" ".join(rest)))
            continue
        if head is None or head[0] in _NOT_HEADINGS or head[0] not in _LEVELS:
            # not a heading: text of the section it stands in
            text = " ".join(([head[1]] if head else [sents[0]]) + sents[1:])
            if raws:
                raws[-1].paragraphs.append(sentences(text))
            else:
                raws.append(RawSection(heading="", paragraphs=[sentences(text)], level=1))
            continue
        kind, heading = head
        body = " ".join(sents[1:])
        if kind == "bibliography":
            continue
        if kind == "section" and heading.lower() == "abstract" and not raws:
            abstract.append(sentences(body))
            continue
        level = _LEVELS[kind]
        forced: SectionType | None = "other" if kind == "appendix" else None  # and all under it (closed)
        raws.append(RawSection(heading=heading, paragraphs=[sentences(body)], level=level, forced=forced))
    ner = obj.get("ner")
    relations = obj.get("n_ary_relations")
    meta: dict[str, Any] = {"doc_id": str(obj.get("doc_id", paper_id))}
    if isinstance(ner, list):
        meta["entity_mentions"] = len(ner)
    if isinstance(relations, list):
        meta["relations"] = len(relations)
    return Paper(
        id=paper_id,
        title=title,
        abstract=tuple(p for p in abstract if p),
        sections=build_sections(raws),
        format=FORMAT,
        ref=SourceRef(dataset=FORMAT, path=where, line=None, item_id=paper_id),
        meta=meta,
    )


def parse(data: bytes, paper_id: str, where: str) -> Paper:
    """A SciREX JSON file (bytes) as a Paper; ``where`` names the file in errors and in ``ref``."""
    return from_json(parse_json(data, where), paper_id, where)
