"""What a claim says that its evidence does not: the claim's content words that no word of the evidence matches.

An NLI judge scores whether the evidence entails the claim, but it passes claims that add a detail to what the
evidence states — a count ("Eighteen studies reported …" beside one study), a population or strain the evidence
does not name ("in rhesus macaque models"), an extra item ("… and short-chain fatty acids"), a strengthened or
unhedged verb ("PINK1 *directly* phosphorylates Parkin") — the over-claims of citances that the blind readings of
ClaimGen builds found in about half of the SUPPORTED examples (docs/claimgen.md). This module finds them by words:

- a claim's **content words** are its nouns, proper nouns, adjectives and numbers (not the light nouns below:
  "in the case of", "the ability to"), and the strengtheners and quantifiers below (whatever their part of
  speech); function words and verbs are left to the judge (verbs are paraphrased too often to be matched by form);
- a word is **covered** when the evidence has it: the same form or lemma, a part of a hyphenated or slashed
  compound, the same number (digits or words: "ten" = "10"), a Greek letter spelt out ("α" = "alpha"), or a word
  sharing a stem with it (a common prefix of at least 5 letters and 60% of the shorter word: "autophagy" /
  "autophagic", "inhibit" / "inhibitors");
- **risky** uncovered words are numbers, strengtheners, quantifiers and superlatives: one of them is an
  over-claim by itself.

The check is lexical, so a synonym the evidence uses instead ("men" / "male") counts as uncovered; a pipeline sets how
many such words it allows (ClaimGen's ``evidence_max_uncovered``, 0 by default) and rejects on any risky one. A
"long form (SF)" the claim defines is covered when the evidence has either form. Known limits: compound number words
("twenty-one", "two hundred") are not read as numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from claimforge.nlp.wellformed import abbreviation_definitions

__all__ = ["Coverage", "coverage", "coverages", "evidence_vocabulary", "parse_text"]

_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"[-+]?\d[\d,]*(\.\d+)?%?")
# Adverbs and adjectives that make a claim stronger than a hedged or partial finding.
STRENGTHENERS = frozenset(
    "directly definitively definitely significantly markedly dramatically substantially strongly highly very "  # noqa: SIM905
    "completely entirely exclusively solely only always never mostly largely predominantly primarily mainly "
    "particularly especially consistently clearly conclusively invariably universally greatly major main key "
    "first".split()  # "the first demonstration", "major contributors"
)
# Words that say how many or how much (spaCy counts most of them as stop words).
QUANTIFIERS = frozenset(
    "all every each most many several numerous various multiple few majority minority number total".split()  # noqa: SIM905
)
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "  # noqa: SIM905
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": "30", "forty": "40", "fifty": "50", "hundred": "100", "thousand": "1000", "dozen": "12"}
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "κ": "kappa", "λ": "lambda",
    "μ": "mu", "σ": "sigma", "τ": "tau", "ω": "omega",
}  # fmt: skip
_CONTENT_POS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})
# Nouns that carry no content of their own ("in the case of", "the ability to", "instances of"): not counted.
LIGHT_NOUNS = frozenset(
    "case instance ability role level presence effect type form way kind part aspect fact manner extent degree "  # noqa: SIM905
    "variety range series".split()
)
_STEM = 5  # letters a shared prefix needs to count as the same word
_STEM_SHARE = 0.75  # ... and the share of the shorter word it must cover ("autophagy" / "autophagic", not
# "protein" / "protection" or "cardiomyopathy" / "cardiac")


def _normalise(text: str) -> str:
    return _DASHES.sub("-", text)


def _forms(word: str) -> set[str]:
    """A word's lower-case forms for matching: itself, its number in digits, a Greek letter spelt out, and a
    number without thousands separators."""
    w = word.lower()
    out = {w, _NUMBER_WORDS.get(w, w), _GREEK.get(w, w)}
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", w):
        out.add(w.replace(",", ""))
    return out


def evidence_vocabulary(text: str, doc: Any = None) -> frozenset[str]:
    """Every form of the evidence's words a claim word may match: the words of the text and their parts (split
    at hyphens, slashes and any other non-word character), and, with a parse, each token's lemma."""
    text = _normalise(text)
    out: set[str] = set()
    for w in (*_WORD.findall(text), *re.findall(r"\d[\d,.]*\d", text)):
        out |= _forms(w)
    if doc is not None:
        for t in doc:
            out |= _forms(t.lemma_)
    return frozenset(out)


def _shares_stem(word: str, vocabulary: Iterable[str]) -> bool:
    if len(word) < _STEM or word.isdigit():
        return False
    head = word[:_STEM]
    for e in vocabulary:
        if not e.startswith(head):
            continue
        n = _STEM
        for a, b in zip(word[_STEM:], e[_STEM:], strict=False):
            if a != b:
                break
            n += 1
        if n >= _STEM_SHARE * min(len(word), len(e)):
            return True
    return False


def _covered(part: str, lemma: str, vocabulary: frozenset[str], exact: bool) -> bool:
    """``exact``: only the same form or number ("eighteen" is not "eight", "largest" not "large")."""
    forms = _forms(part) | ({lemma} if lemma and not exact else set())
    return bool(forms & vocabulary) or (not exact and _shares_stem(part.lower(), vocabulary))


@dataclass(frozen=True)
class Coverage:
    """The claim's content words the evidence lacks (``uncovered``, in claim order) and, of those, the ones that
    are over-claims by themselves (``risky``: numbers, strengtheners, quantifiers, superlatives)."""

    uncovered: tuple[str, ...]
    risky: tuple[str, ...]

    def passes(self, max_uncovered: int) -> bool:
        return not self.risky and len(self.uncovered) <= max_uncovered

    def describe(self) -> str:
        plain = [w for w in self.uncovered if w not in self.risky]
        parts = []
        if self.risky:
            parts.append("over-claiming: " + ", ".join(self.risky))
        if plain:
            parts.append("not in the evidence: " + ", ".join(plain))
        return "; ".join(parts)


def _is_number(t: Any) -> bool:
    return bool(_NUMBER.fullmatch(t.lower_))  # "18", "4.49", "21,774", "38%" (not a name with a digit: "HIV-1")


def _risky(t: Any) -> bool:
    low = t.lower_
    doc = t.doc
    if low in ("least", "most") and t.i > 0 and doc[t.i - 1].lower_ == "at":
        return False  # "at least 38%": a bound, not a superlative
    if low == "first" and t.i + 1 < len(doc) and doc[t.i + 1].text == "-":
        return False  # "first-line"
    return (
        (low in _NUMBER_WORDS and not (t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "of"))  # not "One of the"
        or low in STRENGTHENERS
        or low in QUANTIFIERS
        or t.tag_ in ("JJS", "RBS")
        or _is_number(t)
    )


def _defined_abbreviations(claim_doc: Any, vocabulary: frozenset[str]) -> set[int]:
    """The tokens of each "long form (SF)" the claim defines whose long form or short form the evidence has
    (either is enough: claimforge writes out abbreviations the evidence may use in either form)."""
    defs = abbreviation_definitions(claim_doc.text)
    out: set[int] = set()
    for t in claim_doc:
        i = t.i
        if (
            t.text != "("
            or i + 2 >= len(claim_doc)
            or claim_doc[i + 2].text != ")"
            or claim_doc[i + 1].text not in defs
        ):
            continue
        short = claim_doc[i + 1].text
        long_words = _WORD.findall(defs[short].lower())
        group, seen, j = {i + 1}, 0, i - 1
        while j >= 0 and seen < len(long_words):
            seen += len(_WORD.findall(claim_doc[j].text))
            group.add(j)
            j -= 1
        if short.lower() in vocabulary or all(_covered(w, "", vocabulary, False) for w in long_words):
            out |= group
    return out


def coverage(claim_doc: Any, vocabulary: frozenset[str]) -> Coverage:
    """The content words of a parsed claim (``claim_doc``, a spaCy ``Doc`` of the claim's text with dashes
    normalised, see :func:`parse_text`) that the evidence (its :func:`evidence_vocabulary`) does not have, each
    once."""
    uncovered: list[str] = []
    risky: list[str] = []
    defined = _defined_abbreviations(claim_doc, vocabulary)
    for t in claim_doc:
        if not any(ch.isalnum() for ch in t.text) or t.i in defined:
            continue
        is_risky = _risky(t)
        if not is_risky and (t.pos_ not in _CONTENT_POS or t.is_stop or t.lemma_.lower() in LIGHT_NOUNS):
            continue
        if _is_number(t):  # a number matches whole ("4.49" is not "4" and "49")
            parts, exact = [t.lower_.rstrip("%")], True
        else:
            parts = _WORD.findall(_normalise(t.text)) or [t.text]
            exact = t.tag_ in ("JJS", "RBS") or t.lower_ in _NUMBER_WORDS
        lemma = t.lemma_.lower() if len(parts) == 1 else ""
        if all(_covered(p, lemma, vocabulary, exact) for p in parts):
            continue
        if t.lower_ in {w.lower() for w in uncovered}:
            continue  # "macaque and macaque models": one word the evidence lacks
        uncovered.append(t.text)
        if is_risky:
            risky.append(t.text)
    return Coverage(tuple(uncovered), tuple(risky))


def parse_text(text: str) -> str:
    """The text to parse for :func:`coverage`: dashes of every kind written as "-" (so "COVID‐19" and "COVID-19"
    are one word)."""
    return _normalise(text)


def coverages(nlp: Any, pairs: Sequence[tuple[str, str]]) -> list[Coverage]:
    """:func:`coverage` of each (claim, evidence) pair, every distinct text parsed once with ``nlp`` (a claimforge
    ``nlp`` component)."""
    if not pairs:
        return []
    texts = sorted({t for pair in pairs for t in pair})
    parsed = dict(zip(texts, nlp.parse([parse_text(t) for t in texts]), strict=True))
    vocab = {e: evidence_vocabulary(e, parsed[e]) for e in {e for _, e in pairs}}
    return [coverage(parsed[claim], vocab[e]) for claim, e in pairs]
