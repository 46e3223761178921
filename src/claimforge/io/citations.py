"""Citation text cleanup: the citation markers of the Citation-Integrity data (``<|cit|>`` for the citation under
study, ``<|multi_cit|>``, ``<|other_cit|>``) and the author-year, numeric and figure callouts around them, taken
out of a citing sentence without breaking it; and a citance split from the passage that holds it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from claimforge.io.rows import normalize_text
from claimforge.nlp.sentences import split_sentences

__all__ = ["TARGET_MARKERS", "marker_counts", "split_citance", "strip_citation_markers"]


_MARKER = re.compile(r"<\|\s*([A-Za-z_]+)\s*\|>")
TARGET_MARKERS = frozenset({"cit", "multi_cit"})  # the citation under study; other_cit: any other citation
# Placeholders for markers while text is processed (Unicode private use area, never in the data).
_T, _O = "\ue000", "\ue001"  # a target / other citation
_PH = _T + _O
# Brackets of a group that holds a marker but also real text: protected from further matching.
_PROTECT = {"(": "\ue010", ")": "\ue011", "[": "\ue012", "]": "\ue013"}
_UNPROTECT = {v: k for k, v in _PROTECT.items()}
# innermost bracket groups; mismatched pairs too ("(Table <|other_cit|>,18,<|other_cit|>]" is in the data)
_GROUP = re.compile(r"[\[(][^\[\]()]*[\])]")
_OPENERS = "([{\ue010\ue012"
_CLOSERS = ")]}\ue011\ue013"

_LEAD = (
    r"(?:(?:see(?:\s+also)?|but\s+see|e\.\s?g\.|eg\.|i\.\s?e\.|cf\.|for\s+(?:a\s+)?review,?\s+see|"
    r"reviewed\s+(?:in|by)|refs?\.?|references?|from\s+refs?\.?|and|also|as\s+in)[\s,:]*)*"
)
_NUMERIC = re.compile(
    rf"^{_LEAD}[\s{_PH}\d,.:–\-−—&•▪#*†‡]*"
    rf"(?:(?:and|to|or|but\s+see|see(?:\s+also)?|cf\.|refs?\.?)[\s{_PH}\d,.:–\-−—&•▪#*†‡]*)*$"
)
_NAMEWORD = r"(?:[A-Z][\w'’\-]*\.?|de|van|den|der|von|di|da|du|la|le|el|dos|das|ten|ter)"
_NAME = rf"{_NAMEWORD}(?:[\s\u00a0\u2009]+{_NAMEWORD})*"
_YEAR = rf"(?:\d{{4}}[a-z]?[\s{_PH}]*|[{_PH}])"
_AUTHOR_YEAR = re.compile(
    rf"^{_LEAD}{_NAME}(?:\s*(?:and|&)\s*{_NAME})?(?:[\s\u00a0\u2009]+et[\s\u00a0\u2009]*al\.?)?\s*,?\s*"
    rf"{_YEAR}(?:\s*,\s*{_YEAR})*$"
)
_FIGURE = r"(?:(?:Supplementary|Supplemental|SI)\s+)?(?:[Ff]ig(?:ure)?s?\.?|[Tt]ables?)[\s\u00a0]*"
_FIGURE_REF = re.compile(rf"^(?:{_FIGURE})?[{_PH}](?:\s*(?:,|and)\s*(?:{_FIGURE})?[{_PH}])*$")


_NEXT_CITATION = re.compile(rf",\s*(?={_FIGURE}[{_PH}]|[A-Z][\w'’\-]+(?:\s|,))")


def _is_citation(segment: str) -> bool:
    """A ``;``-separated part of a bracket group that only cites: numbers and markers ("4, M–7"),
    author-year ("Smith et al., 2010", "Jones and Li, M") or a figure/table reference whose number the
    dataset replaced by a marker ("Fig. M")."""
    s = segment.strip()
    if not s:
        return True
    # single letters (figure panels "MA,B") count as numbers
    numeric = re.sub(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z.])", "", s)
    if _NUMERIC.match(numeric) or _AUTHOR_YEAR.match(s) or _FIGURE_REF.match(s):
        return True
    # comma-separated citations: "Figure M, Albin et al., M"
    parts = _NEXT_CITATION.split(s)
    return len(parts) > 1 and all(_is_citation(p) for p in parts)


def _group(match: re.Match[str]) -> str:
    group = match.group(0)
    inner = group[1:-1]
    if not any(c in inner for c in _PH):
        return group
    kind = _T if _T in inner else _O
    segments = inner.split(";")
    if all(_is_citation(s) for s in segments):
        return kind  # the whole group is a citation: it goes, marker and all
    # real text with a citation inside, e.g. "(EMH; M)": drop the citation parts, keep the rest
    kept = [s for s in segments if not (any(c in s for c in _PH) and _is_citation(s))]
    dropped = kind if len(kept) < len(segments) else ""
    body = ";".join(kept).strip()
    return f"{_PROTECT[group[0]]}{body}{_PROTECT[group[-1]]}{dropped}"


_GLUED = re.compile(rf"[{_PH}](?:[,–\-](?:\d+[a-z]?|[{_PH}]))+")


def _mark(text: str) -> str:
    """Markers and citation bracket groups replaced by placeholders (target or other citation)."""
    text = _MARKER.sub(lambda m: _T if m.group(1).lower() in TARGET_MARKERS else _O, text)
    # "<|multi_cit|>,17" / "<|multi_cit|>–33": numbers glued to a token cite too
    text = _GLUED.sub(lambda m: _T if _T in m.group(0) else _O, text)
    while True:
        new = _GROUP.sub(_group, text)
        if new == text:
            return text
        text = new


_RUN = re.compile(rf"\s*[{_PH}](?:\s*[{_PH}])*")
_EMPTY_GROUP = re.compile(r"\(\s*\)|\[\s*\]")


def _unmark(text: str) -> str:
    """Remove placeholders, keeping punctuation and spacing tidy ("growth M." -> "growth.", "X, [M], and" ->
    "X, and", "(M, such as" -> "(such as"), restore protected brackets and collapse whitespace."""
    out = ""
    rest = text
    while True:
        m = _RUN.search(rest)
        if m is None:
            out += rest
            break
        prev = (out + rest[: m.start()]).rstrip()
        after = rest[m.end() :].lstrip()
        if prev[-1:] and prev[-1] in _OPENERS and after[:1] and after[0] in ",;:":
            after = after[1:].lstrip()
        nxt = after[:1]
        if prev[-1:] and prev[-1] in ",;:" and (not nxt or nxt in ",;:.!?" + _CLOSERS):
            prev = prev[:-1].rstrip()
        glue = not prev or prev[-1] in _OPENERS or not nxt or nxt in ",;:.!?" + _CLOSERS
        out = prev if glue else prev + " "
        rest = after
    for k, v in _UNPROTECT.items():
        out = out.replace(k, v)
    return normalize_text(_EMPTY_GROUP.sub("", out))


def strip_citation_markers(text: str) -> str:
    """``text`` without the citation-integrity dataset's tokens (``<|cit|>``, ``<|multi_cit|>``,
    ``<|other_cit|>``) and without the bracket groups that hold them when those only cite ("[<|cit|>]",
    "[<|multi_cit|>,7]", "(<|cit|>; Smith et al., 2010)", "(Fig. <|other_cit|>)"); in a group with real
    text only the citation parts go ("(EMH; <|multi_cit|>)" -> "(EMH)"). Ordinary citations without a
    token ("[12]", "(Smith, 2010)") stay."""
    return _unmark(_mark(text))


# a token followed by a capitalised word, with no end punctuation before it ("shown in <|cit|> It must
# be noted"): a sentence boundary where the data lost the full stop (7 times in the real data)
_AFTER_TOKEN = re.compile(rf"([^\s.!?{_PH}]\s*[{_PH}]+)\s+(?=[A-Z][a-z])")
_ATTACHED = re.compile(rf"([.!?][\"'’”)\]]*)\s*([{_PH}]+)(?=\s+[\"'“(\[]?[A-Z0-9])")


def split_citance(text: str) -> tuple[tuple[str, ...], str, tuple[str, ...], dict[str, Any]]:
    """``(context_before, sentence, context_after, info)`` of a citation-integrity citance.

    The text is split into sentences (a token right after a sentence's end punctuation, "growth.<|cit|>
    Next", belongs to that sentence). The sentence is the one holding the target citation (``<|cit|>`` or
    ``<|multi_cit|>``; else any citation token; else the whole text); when several sentences hold it, the
    span from the first to the last. Other sentences are the context. All are stripped of markers.
    ``info``: ``n_sentences`` (of the text), ``anchor`` ("target", "other" or "none") and ``span``
    (0-based first and last sentence index of the sentence).
    """
    marked = _ATTACHED.sub(r"\2\1", _mark(normalize_text(text)))
    marked = _AFTER_TOKEN.sub("\\1\n", marked)  # split_sentences breaks at line breaks
    pieces = split_sentences(marked) or [marked]
    targets = [i for i, p in enumerate(pieces) if _T in p]
    anchor = "target"
    if not targets:
        targets = [i for i, p in enumerate(pieces) if _O in p]
        anchor = "other"
    if not targets:
        targets = list(range(len(pieces)))
        anchor = "none"
    first, last = targets[0], targets[-1]

    def clean(ps: Iterable[str]) -> tuple[str, ...]:
        return tuple(c for c in (_unmark(p) for p in ps) if c)

    sentence = _unmark(" ".join(pieces[first : last + 1]))
    before, after = clean(pieces[:first]), clean(pieces[last + 1 :])
    # the data sometimes repeats the sentence with its reference number: "X.<|cit|> X.6"
    key = _repeat_key(sentence)
    kept_before = tuple(s for s in before if _repeat_key(s) != key)
    kept_after = tuple(s for s in after if _repeat_key(s) != key)
    info = {"n_sentences": len(pieces), "anchor": anchor, "span": [first, last]}
    repeats = len(before) + len(after) - len(kept_before) - len(kept_after)
    if repeats:
        info["repeats_dropped"] = repeats
    return kept_before, sentence, kept_after, info


def _repeat_key(sentence: str) -> str:
    return re.sub(r"[\d,–\-\s]+$", "", sentence)


def marker_counts(text: str) -> dict[str, int]:
    """How many of each ``<|...|>`` token the text holds."""
    counts: dict[str, int] = {}
    for m in _MARKER.finditer(text):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return counts
