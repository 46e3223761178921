"""Is a generated claim a well-formed declarative sentence? Surface and parse checks shared by the emit-time claim
check (``generate/claim_check.py``: a claim that fails is a reject, never a dataset row) and the automatic fluency
score (``evaluate/claim_quality.py``). Every check returns reason codes (``code`` or ``code: detail``)."""

from __future__ import annotations

import re
from typing import Any

from claimforge.nlp.normalize import finite_verb_form


def reason(code: str, detail: str = "") -> str:
    return f"{code}: {detail}" if detail else code


_DANGLING = frozenset(
    """
    and or but nor of by for with from to into than via between among the a an whereas while that which whose
    its their including such
    """.split()  # noqa: SIM905
)
VERBAL_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
_NOT_BEFORE_VERB = frozenset({"DET", "ADP", "CCONJ", "SCONJ", "PART", "AUX"})


def fluency_checks(text: str, doc: Any) -> list[str]:
    """Surface and parse checks of fluency (each failed check lowers the LM-based level by one): a finite verb
    in the main clause (the parse, or — since the parser misses verbs in scientific text — a verb form right
    after a noun), no dangling conjunction/preposition/determiner at the end, no doubled word, balanced
    brackets."""
    reasons = []
    words = text.split()
    if len(words) < 3:
        reasons.append(reason("too_short", f"{len(words)} words"))
    if not _has_main_finite(doc):
        reasons.append("no_finite_verb")
    toks = [t for t in doc if not t.is_punct]
    if toks and toks[-1].lower_ in _DANGLING:
        reasons.append(reason("dangling_end", repr(toks[-1].text)))
    for a, b in zip(toks, toks[1:], strict=False):
        if a.lower_ == b.lower_ and a.is_alpha and a.lower_ not in ("that", "had"):
            reasons.append(reason("repeated_word", repr(f"{a.text} {b.text}")))
            break
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        reasons.append("unbalanced_brackets")
    return reasons


def _has_main_finite(doc: Any) -> bool:
    for t in doc:
        if t.dep_ == "ROOT":
            if t.tag_ in VERBAL_TAGS or t.tag_ == "VB" or "VerbForm=Fin" in str(t.morph):
                return True
            if any(c.dep_ in ("cop", "aux", "aux:pass") and c.tag_ in VERBAL_TAGS for c in t.children):
                return True
    # Fallback for the parser's misses ("The herbicide inhibits EPSPS": "inhibits" tagged NNS): a finite verb
    # tagged as such anywhere, or an inflected verb form that does not follow a determiner, preposition,
    # conjunction or auxiliary (where a noun would stand).
    toks = list(doc)
    for i, t in enumerate(toks):
        if t.tag_ in VERBAL_TAGS and t.pos_ in ("VERB", "AUX"):
            return True
        if i > 0 and finite_verb_form(t.text):
            prev = toks[i - 1]
            if prev.pos_ not in _NOT_BEFORE_VERB and prev.lower_ not in ("a", "an", "the", "to", "of"):
                return True
    return False


_WH_SUBJECT = frozenset({"what", "which", "who", "whom", "whose"})
_QUESTION_LEFT = re.compile(
    r"\b(?:which|what) of (?:the following|these|those)\b|\bof the following\b|\b(?:all|none|both) of the above\b"
    r"|\bhow (?:many|much)\b|_{2,}",
    re.I,
)


def question_left(text: str, doc: Any) -> list[str]:
    """What is left of a question in a claim: a question mark, "which of the following", "all of the above", "how
    many", a blank, or a sentence that opens with a wh-word followed by a verb ("What causes ...")."""
    reasons = []
    if "?" in text:
        reasons.append("question_mark")
    m = _QUESTION_LEFT.search(text)
    if m:
        reasons.append(reason("question_words", repr(m.group(0))))
    toks = [t for t in doc if not t.is_punct]
    if len(toks) > 1 and toks[0].lower_ in _WH_SUBJECT and (toks[1].pos_ in ("AUX", "VERB") or toks[1].tag_ == "MD"):
        reasons.append(reason("wh_question_order", repr(f"{toks[0].text} {toks[1].text}")))
    return reasons


def wellformed_reasons(text: str, doc: Any) -> list[str]:
    """Everything :func:`fluency_checks` and :func:`question_left` find (empty: the claim passes)."""
    return fluency_checks(text, doc) + question_left(text, doc)
