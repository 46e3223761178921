"""Turning a scientific sentence into atomic, stand-alone claims: cleanup and parse-based simplification.

Text level (:func:`clean_sentence`, no model): citation markers ("[12]", "[3-5, 8]", "(Smith et al., 2010)",
"(Fig. 2A)"), parentheticals (an abbreviation's definition "(OA)" stays when the abbreviation is used
again in the sentence), discourse openers ("However,", "For example,", "Interestingly,"), reporting frames
("Several studies have shown that X", "Liu et al. found that X", "It has been suggested that X" -> X) and
hedging adverbs ("possibly", "potentially", "putatively"). Every removal is recorded as an edit.

Parse level (:func:`clauses`, with a UD-style dependency parse such as the shipped en_claimforge_sci):
coordinated clauses are split ("X inhibits A, and Y promotes B" -> two clauses; "X inhibits A and promotes B"
-> "X inhibits A" + "X promotes B"), non-restrictive relative clauses (", which ...") are removed, and
modal hedges become assertions ("X may exert Y" -> "X exerts Y"). :func:`claim_for_span` renders the
clause holding a given entity with the entity's coordination list reduced to that entity ("... include A, B
and C" -> "... include B").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from claimforge.nlp.normalize import finish_sentence, finite_verb_form
from claimforge.nlp.wellformed import SUBJECT_DEPS

# ---------------------------------------------------------------------------------------------------
# Text-level cleanup

_NUM_CITE = re.compile(r"\s*\[\s*\d+[a-z]?(?:\s*[-–—,;]\s*\d+[a-z]?)*\s*\]")
# Reference numbers left bare by a lost superscript, between commas: "..., 65, all the antibodies", "... risk, 3."
# (a lower-case word after it, or the sentence's end; not "at 2, 3 and 4 weeks", not a year)
_BARE_CITE = re.compile(
    r"(?:(?<=,)|^)\s*\d{1,3}(?:[,–-]\d{1,3})*,\s+(?=[a-z])|(?<=[a-z)]),\s*\d{1,3}(?:[,–-]\d{1,3})*\s*(?=\.$)"
)
# Superscript reference numbers that lost their formatting: "risk to autism17", "in the purified cells27,28".
_GLUED_CITE = re.compile(r"\b([a-z]{4,})(\d{1,3}(?:[,–-]\d{1,3})*)(?=[\s.,;:)]|$)")
_YEAR = r"(?:19|20)\d{2}[a-z]?"
# "(Smith et al., 2010)", "(Smith and Jones 2010; Lee, 2011a)", "(see ref. 12)", "(reviewed in 4)"
_AUTHOR_YEAR = re.compile(
    r"\s*\((?:see |e\.g\.,? |reviewed in |cf\.? )?[^()]{0,200}?(?:et al\.?|\b" + _YEAR + r"\b)[^()]{0,200}?\)"
)
_REF_PAREN = re.compile(r"\s*\((?:see |e\.g\.,? )?(?:refs?\.|references?|reviewed in)\s*[^()]*\)", re.I)
_FIG_PAREN = re.compile(r"\s*\((?:see )?(?:fig(?:ure)?s?\.?|tables?|supplementary|suppl\.?)\s*[^()]*\)", re.I)
# A pointer to a figure or table that is all that is left once the reader dropped the cross-reference ("As can
# be seen in, X", "X, as shown in.") or that names it ("As shown in Figure 2, X"): the clause goes, X stays.
_SHOWN = r"(?:seen|shown|illustrated|depicted|presented|summari[sz]ed|displayed|listed|given|plotted)"
# a figure or table label, panels listed with commas or dashes: "2", "S3", "2A, B", "1, 2 and 3", "3a–c"
_ONE_LABEL = r"(?:S?\d+[A-Za-z]?|[A-Za-z])"
_LABEL = rf"{_ONE_LABEL}(?:\s*(?:,|–|-|and)\s*{_ONE_LABEL}(?![\w-]))*"
_POINTER_OPENER = re.compile(
    rf"^as\s+(?:(?:can|could|may)\s+be\s+|is\s+|are\s+|was\s+|were\s+)?{_SHOWN}\s+in"
    r"(?:\s+(?:the\s+)?(?:supplementary\s+)?(?:fig(?:ure)?s?\.?|tables?)\s*" + _LABEL + r")?\s*,\s*",
    re.I,
)
# the same pointer between commas inside the sentence, both commas with it: "X rose, as shown in Figure 2, after
# surgery" -> "X rose after surgery"
_POINTER_MID = re.compile(
    rf",\s*as\s+(?:(?:can|could|may)\s+be\s+|is\s+|are\s+|was\s+|were\s+)?{_SHOWN}\s+in\s+(?:the\s+)?"
    rf"(?:supplementary\s+)?(?:fig(?:ure)?s?\.?|tables?)\s*{_LABEL}\s*,",
    re.I,
)
_POINTER_STRANDED = re.compile(
    rf",?\s*\bas\s+(?:(?:can|could|may)\s+be\s+|is\s+|are\s+|was\s+|were\s+)?{_SHOWN}\s+in\s*(?=[,.;:]|$)", re.I
)
_NARRATIVE_CITE = re.compile(r"\s*\[\s*[A-Z][^\[\]]{0,80}?" + _YEAR + r"\s*\]")
_BRACKETS = re.compile(r"\s*\[[^\[\]]*\]")
_PAREN = re.compile(r"\s*\(([^()]*)\)")
_ABBREV = re.compile(r"^[A-Za-z0-9α-ωΑ-Ω][A-Za-z0-9α-ωΑ-Ω\-/]{0,11}s?$")

_OPENERS = (
    "however|moreover|furthermore|in addition|additionally|for example|for instance|e\\.g\\.|thus|therefore|hence|"
    "consequently|accordingly|interestingly|notably|importantly|indeed|in contrast|by contrast|similarly|likewise|"
    "nevertheless|nonetheless|in summary|in conclusion|taken together|collectively|overall|recently|in particular|"
    "particularly|specifically|conversely|surprisingly|to date|as expected|in this regard|as a result|"
    "on the other hand|of note|finally|first|second|third|firstly|secondly|lastly|also|further|besides|"
    "in fact|in general|generally|typically|alternatively|in turn|in this context|in this study|here|"
    "in the present study|in this work|at present|currently|previously|subsequently|then|so|yet|but|and|"
    "in support|in keeping with this|in line with this|consistent with this|to this end|as such|of interest|"
    "as mentioned(?: above| earlier| before| previously)?|as previously (?:mentioned|reported|described|shown)|"
    "as (?:described|noted|shown|observed) (?:above|earlier|before|previously)|as noted|"
    "as previously observed|as observed"
)
_OPENER = re.compile(
    rf"^(?:(?:{_OPENERS})\s*,\s*|(?:and|but|yet|so|thus|also|however)\s+"
    r"|as expected(?!\s+(?:by|from|for|in|of|to|with|under|if|when|because)\b)\s+"  # "As expected there was ..."
    r"|(?:in contrast to|contrary to|similar(?:ly)? to|consistent with|in line with|in agreement with|unlike|"
    r"as in|in accordance with|as with|as reported in|in this setting|in this regard|in this context|"
    r"with regard to|regarding)\b[^,]{0,80},\s*)",
    re.I,
)
_MID_CONNECTIVE = re.compile(r",\s*(?:however|moreover|therefore|thus|furthermore|indeed|in turn|in fact)\s*,", re.I)

_REPORTERS = (
    r"(?:stud(?:y|ies)|evidence|data|results?|findings?|reports?|work|experiments?|analys[ie]s|authors?|"
    r"investigators|researchers|groups?|observations?|literature|reviews?|trials?|papers?|data\s?sets?|we|they|it|"
    r"et al\.?|others|[A-Z][a-z]+(?: and [A-Z][a-z]+)?|analysis|investigations?|models?|meta-analys[ie]s)"
)
_REPORT_VERBS = (
    r"(?:show(?:s|ed|n)?|demonstrat(?:e|es|ed)|f(?:ou|i)nds?|found|report(?:s|ed)?|suggest(?:s|ed)?|"
    r"indicat(?:e|es|ed)|reveal(?:s|ed)?|confirm(?:s|ed)?|establish(?:es|ed)?|observ(?:e|es|ed)|"
    r"propos(?:e|es|ed)|hypothesi[sz](?:e|es|ed)|known|believed|thought|argued?|not(?:e|es|ed)|"
    r"conclud(?:e|es|ed)|document(?:s|ed)?|highlight(?:s|ed)?|support(?:s|ed)?|imply|implies|implied|"
    r"recogni[sz]ed|accepted|described|determined|identified|discovered|verified|predicted|speculated)"
)
# A reporting frame at the start: up to 12 words ending in a reporter noun/pronoun, then auxiliaries and
# adverbs, the reporting verb, "that". "It is well known that", "Several studies have also shown that".
_FRAME = re.compile(
    rf"^(?:[^,;:]{{0,90}}?\b)?{_REPORTERS}\s+(?:(?:has|have|had|is|are|was|were|been|being|also|further|"
    rf"previously|recently|clearly|consistently|repeatedly|now|well|widely|generally|commonly|already|"
    rf"convincingly|strongly|first|further)\s+){{0,4}}{_REPORT_VERBS}\s+(?:that|how)\s+",
    re.I,
)
# "There is (growing) evidence/speculation that X", "It is (well) known that X", "X et al. suggested X".
_THERE_FRAME = re.compile(
    r"^(?:there is|there are|there has been)\s+(?:\w+\s+){0,3}?(?:evidence|speculation|consensus|agreement|"
    r"concern|data|reason to believe|indication|suggestion)\s+(?:that|for)\s+",
    re.I,
)
# A sentence the reader cut after its subject ("demonstrates that X", lower case: "Our study [12] demonstrates that
# X" split at the reference): the frame's verb is all that is left of it.
_VERB_FRAME = re.compile(rf"^(?:also\s+|further\s+|clearly\s+)?{_REPORT_VERBS}\s+that\s+")
_ETAL_FRAME = re.compile(
    rf"^[^,;:]{{0,80}}?\bet al\.?\s+(?:also\s+|further\s+|recently\s+)?{_REPORT_VERBS}\s+(?:that\s+)?", re.I
)
# "likely" is not dropped: "likely to" is a comparison or a predicate ("were less likely to report", "are likely
# to develop"), and dropping it broke the sentence ("were less to report": 18 of 1,050 examples of a SciClaimHunt
# build, 2026-11-27)
_HEDGE_ADVERBS = re.compile(
    r"\b(?:possibly|potentially|probably|presumably|putatively|perhaps|apparently|conceivably"
    r"|seemingly|reportedly|arguably)\s+",
    re.I,
)


@dataclass
class Cleaned:
    """A cleaned sentence and what was removed from it, in order."""

    text: str
    edits: list[str] = field(default_factory=list)


def _glued_citations(text: str, edits: list[str]) -> str:
    """Drop reference numbers glued to an English word ("autism17" -> "autism"); gene and protein names with
    digits ("brca1", "smad4") are not English words and stay."""
    from lemminflect import getAllLemmas

    def fix(m: re.Match[str]) -> str:
        return m.group(1) if getAllLemmas(m.group(1)) else m.group(0)

    out = _GLUED_CITE.sub(fix, text)
    if out != text:
        edits.append("citation")
    return out


def _sub(pattern: re.Pattern[str], repl: str, text: str, what: str, edits: list[str]) -> str:
    out, n = pattern.subn(repl, text)
    if n:
        edits.append(f"{what}×{n}")
    return out


def _parentheticals(text: str, edits: list[str]) -> str:
    """Drop parentheses, except an abbreviation's definition whose abbreviation occurs again outside it."""

    def repl(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        rest = text[: m.start()] + text[m.end() :]
        used_again = re.search(rf"(?<![\w-]){re.escape(inner.rstrip('s'))}s?(?![\w-])", rest)
        if _ABBREV.match(inner) and any(c.isupper() for c in inner) and used_again:
            return m.group(0)
        edits.append("parenthetical")
        return ""

    prev = None
    while prev != text:  # nested parentheses, innermost first
        prev = text
        text = _PAREN.sub(repl, text)
    return text


def clean_sentence(text: str) -> Cleaned:
    """Text-level cleanup of one sentence (see the module docstring); the result ends with a period."""
    edits: list[str] = []
    t = " ".join(text.split())
    t = re.sub(r"\)\.\s*,(?=\s)", "),", t)  # "RFS (P = 0.706)., nor OS": a full stop typed before the comma
    t = _sub(_NUM_CITE, "", t, "citation", edits)
    t = _sub(_BARE_CITE, " ", t, "citation", edits)
    t = _glued_citations(t, edits)
    t = _sub(_NARRATIVE_CITE, "", t, "citation", edits)
    t = _sub(_REF_PAREN, "", t, "citation", edits)
    t = _sub(_AUTHOR_YEAR, "", t, "citation", edits)
    t = _sub(_FIG_PAREN, "", t, "figure_reference", edits)
    t = _sub(_POINTER_OPENER, "", t, "figure_reference", edits)
    t = _sub(_POINTER_MID, "", t, "figure_reference", edits)
    t = _sub(_POINTER_STRANDED, "", t, "figure_reference", edits)
    t = _sub(_BRACKETS, "", t, "bracket", edits)
    t = _parentheticals(t, edits)
    t = _sub(_MID_CONNECTIVE, "", t, "connective", edits)
    for _ in range(3):  # "However, for example, ...", "However, as shown in Figure 2, ..."
        stripped = _POINTER_OPENER.sub("", _OPENER.sub("", t, count=1), count=1)
        if stripped == t:
            break
        edits.append("opener")
        t = stripped
    for _ in range(2):  # "We show that previous studies found that X"
        m = _FRAME.match(t) or _THERE_FRAME.match(t) or _ETAL_FRAME.match(t) or _VERB_FRAME.match(t)
        if not m or len(t) - m.end() < 15:
            break
        edits.append(f"frame:{m.group(0).strip()}")
        t = t[m.end() :]
    t = _sub(_HEDGE_ADVERBS, "", t, "hedge", edits)
    t = re.sub(r"\s+([,.;:])", r"\1", t)
    t = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", t)
    t = re.sub(r"\s{2,}", " ", t).strip(" ,;:")
    return Cleaned(finish_sentence(t) or "", edits)


# ---------------------------------------------------------------------------------------------------
# Parse level (UD labels; spaCy Doc/Token objects)

_NOMINAL_TAGS = ("NN", "NNS", "NNP", "NNPS", "PRP", "CD", "FW")
_FINITE = ("VBZ", "VBP", "VBD", "MD")
_DEICTIC_DET = {"this", "these", "those", "such", "our", "their", "its", "his", "her", "my", "your", "said"}
_SUBJECT_OR_COP = SUBJECT_DEPS | {"cop"}
_CLAUSE_CORE = SUBJECT_DEPS | {"obj", "cop"}  # a conjunct with one of these is a clause of its own
# (a reflexive subject is a misparse: "Ubiquitin itself can be ..." with the name read as a root of its own)
_PRONOUN_SUBJ = {
    *("it", "they", "this", "these", "those", "he", "she", "we", "such", "that", "its", "their", "which"),
    *("itself", "themselves"),
}


@dataclass(frozen=True)
class Clause:
    """One clause of a parsed sentence: the token indices it keeps, its predicate head and subject head."""

    tokens: frozenset[int]
    head: int
    subject: int | None
    borrowed_subject: bool = False  # the subject comes from the clause it is coordinated with


def _subtree(tok: Any) -> set[int]:
    return {t.i for t in tok.subtree}


def _subject_of(tok: Any) -> Any | None:
    for c in tok.children:
        if c.dep_ in SUBJECT_DEPS:
            return c
    return None


def _is_predicate(tok: Any) -> bool:
    """A verb, a nominal/adjectival predicate with a copula, or anything with a subject of its own."""
    if tok.tag_.startswith("VB") or tok.tag_ == "MD":
        return True
    return any(c.dep_ in _SUBJECT_OR_COP for c in tok.children)


def _conj_predicates(tok: Any) -> list[Any]:
    return [c for c in tok.children if c.dep_ == "conj" and _is_predicate(c)]


def _drop_coordinator(tokens: set[int], conj: Any) -> None:
    """Remove the conjunction ('and', ',') that introduced ``conj`` from ``tokens``."""
    for c in conj.children:
        if c.dep_ in ("cc", "punct") and c.i < conj.i:
            tokens.discard(c.i)
    # the comma before the conjunct may hang on the first conjunct
    doc = conj.doc
    j = min(_subtree(conj)) - 1
    while j >= 0 and doc[j].dep_ in ("cc", "punct") and doc[j].text in (",", ";", "and", "or", "but", "whereas"):
        tokens.discard(j)
        j -= 1


_COMPLEMENTS = ("obj", "iobj", "ccomp", "xcomp", "obl", "obl:agent", "nsubj", "nsubj:pass", "advmod")


def _shares_object(pred: Any, conj: Any) -> bool:
    """Verbs coordinated around one object ("synthesize and secrete X"): the first has no complement of its own
    after it and nothing but the coordinator (or words of the second verb) between them; the second has the
    object. "synthesize X and secrete Y" still splits."""
    if not pred.tag_.startswith("VB") or any(g.dep_ in ("nsubj", "nsubj:pass") for g in conj.children):
        return False
    between = range(pred.i + 1, conj.i)
    if any(pred.doc[k].dep_ not in ("cc", "punct") and pred.doc[k].head.i != conj.i for k in between):
        return False
    own_after = [c for c in pred.children if c.i > pred.i and c.dep_ in _COMPLEMENTS]
    return not own_after and any(g.dep_ == "obj" and g.i > conj.i for g in conj.children)


def clauses(doc: Any) -> list[Clause]:
    """Independent clauses of a parsed sentence, coordinated predicates split, non-restrictive relative
    clauses removed. Predicates without a subject of their own borrow the first conjunct's subject."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    out: list[Clause] = []
    for root in roots:
        queue = [(root, None)]
        while queue:
            pred, inherited = queue.pop(0)
            toks = _subtree(pred)
            if pred.dep_ == "conj":  # its own coordinator: "[, and] the drug inhibits X"
                toks -= {c.i for c in pred.children if c.dep_ in ("cc", "punct") and c.i < pred.i}
            for conj in _conj_predicates(pred):
                if _shares_object(pred, conj):
                    continue  # "can synthesize and secrete mucins": one clause, or "can synthesize." is left
                toks -= _subtree(conj)
                _drop_coordinator(toks, conj)
                queue.append((conj, _subject_of(pred) or inherited))
            for c in list(pred.subtree):
                if c.dep_ in ("acl:relcl", "parataxis", "appos") and c.i in toks:
                    sub = _subtree(c)
                    first = min(sub)
                    commas = [k for k in (first - 1, first) if k >= 0 and doc[k].text in (",", ";", "–", "—")]
                    # restrictive relative clauses stay, and so does an apposition the parse made without a comma
                    # ("Test Time × Task": "Task" an apposition of "Time"; "Roth 811 induced fast discoloration and
                    # exceeded ...": the object read as an apposition of the subject); removing them cut the claim
                    if c.dep_ == "parataxis" or commas:
                        toks -= sub
                        toks -= set(commas)
                        after = max(sub) + 1  # the comma that closes it ("X, a free procedure, improves Y")
                        if commas and after < len(doc) and doc[after].text == "," and c.head.i < after:
                            toks.discard(after)
            subj = _subject_of(pred)
            borrowed = False
            if subj is None and inherited is not None:
                subj, borrowed = inherited, True
                toks |= _subtree(inherited)
                # the borrowed subject's own conjuncts and relative clauses are not part of this clause
                for c in inherited.subtree:
                    if c.dep_ in ("acl:relcl",) and c.i in toks:
                        toks -= _subtree(c)
            # auxiliaries shared with the first conjunct ("can inhibit A and promote B")
            if borrowed and not any(c.dep_ in ("aux", "aux:pass", "cop") for c in pred.children):
                head = pred.head
                while head.dep_ == "conj":
                    head = head.head
                toks |= {c.i for c in head.children if c.dep_ in ("aux", "aux:pass") and c.i < head.i}
            out.append(Clause(frozenset(toks), pred.i, subj.i if subj is not None else None, borrowed))
    return out


_NOMINAL_DEPS = ("nsubj", "nsubj:pass", "obj", "iobj", "obl", "nmod", "appos", "compound", "nmod:poss", "conj")


def _nominal(tok: Any) -> bool:
    """A noun, or a word the (general-domain) tagger mislabels but the parse attaches as a nominal."""
    return tok.tag_ in _NOMINAL_TAGS or (tok.dep_ in _NOMINAL_DEPS and not tok.tag_.startswith(("VB", "MD", "RB")))


def _nominal_conjuncts(first: Any) -> list[Any]:
    """Conjuncts of ``first`` that are noun phrases (not clauses: no subject or object of their own)."""
    return [c for c in first.children if c.dep_ == "conj" and not any(g.dep_ in _CLAUSE_CORE for g in c.children)]


def _coordination(doc: Any, i: int) -> tuple[Any, list[Any]] | None:
    """The nominal coordination containing token i: (first conjunct, all conjuncts), or None."""
    tok = doc[i]
    while True:
        if tok.dep_ == "conj" and _is_predicate(tok.head):
            # a conjunct of the predicate itself: "mitochondria are generators of and targets for X", or a list the
            # parse hung on the root ("risk factors are long duration, poor control and hypertension"): not a list
            # one member of which can stand alone
            return None
        if tok.dep_ == "conj" and _nominal(tok.head) and tok.i in {c.i for c in _nominal_conjuncts(tok.head)}:
            first = tok.head
            break
        if _nominal(tok) and _nominal_conjuncts(tok) and not _is_predicate(tok):
            first = tok
            break
        if tok.head.i == tok.i or tok.dep_ in ("nsubj", "nsubj:pass", "obj", "obl", "ROOT") or _is_predicate(tok):
            return None
        tok = tok.head
    if first.dep_ == "conj" and _is_predicate(first.head):
        return None  # the first member is itself a conjunct of the predicate: the rest of a list hung on it (above)
    members = [first, *_nominal_conjuncts(first)]
    return (first, members) if len(members) >= 2 else None


def _keep_one_conjunct(doc: Any, tokens: set[int], span_tokens: set[int]) -> set[int]:
    """Reduce the coordination holding the span to the conjunct holding it (plus the first conjunct's
    own determiners when the kept one has none)."""
    anchor = min(span_tokens)
    coord = _coordination(doc, anchor)
    if coord is None:
        return tokens
    first, members = coord
    keep = next((m for m in members if span_tokens & _member_tokens(m, members)), None)
    if keep is None or _not_reducible(doc, first, members, keep) is not None:
        return tokens
    out = set(tokens)
    for m in members:
        if m.i == keep.i:
            continue
        out -= _member_tokens(m, members)
        if m.i == first.i:  # "in the intestine [of] ferrets, hamsters": the preposition serves the kept one,
            # with its fixed parts and a "such" before "as" ("such as A, B" -> "such as B", not "such B" / "as B")
            for c in first.children:
                if c.i < first.i and (
                    c.dep_ == "case" or (c.lower_ == "such" and doc[c.i + 1].lower_ == "as") or _due_to(c)
                ):
                    out |= _subtree(c)
    for m in members:
        for c in m.children:
            if c.dep_ in ("cc",) or (c.dep_ == "punct" and c.text in (",", ";")):
                out.discard(c.i)
        for c in first.children:
            if c.dep_ in ("cc", "punct") and c.text in (",", ";", "and", "or"):
                out.discard(c.i)
    # a preconjunct ("both", "either") makes no sense alone
    out -= {c.i for m in members for c in m.children if c.dep_ == "cc:preconj"}
    return out


# what a conjunct may have before its head word: a longer left part ("as an important health problem causing
# morbidity and mortality": "problem" parsed as a dependent of "morbidity") is a misparse
_PREMODIFIER_DEPS = frozenset(
    {"det", "det:predet", "amod", "compound", "nummod", "case", "nmod:poss", "punct", "cc", "cc:preconj", "advmod"}
)
_PREMODIFIER_WORDS = frozenset({"due", "such", "both", "either"})  # "due to A and B" parses "due" as dep
_PLURAL_FINITE = frozenset({"are", "were", "have", "do"})


def _not_reducible(doc: Any, first: Any, members: Sequence[Any], keep: Any) -> str | None:
    """Why a coordination may not be reduced to ``keep`` (None: reduce it); the reason is for reading and tests.

    Lists that need all their members: "between doctors and patients"; "the association of FGF21 and NAFLD"
    (relational nouns); a subject ("MS2 and Qβ are" -> "Qβ are"). Parses too doubtful to cut: a quantity
    coordinated with a noun ("ranges from 11 to 15% and its 12-month prevalence is …"); "as well as" joining
    something else to a list; a conjunct with "than" (a comparison: "due to their robust immune system, than older
    adults"); the first conjunct's attachment unlabelled ("dep": "…, African American race and history"); a first
    conjunct with a left part no noun phrase has ("as an important health problem causing morbidity and
    mortality", "problem" under "morbidity"); a list the parse ended early (", and sugary drinks" after the last
    conjunct); "as well as" before the kept conjunct ("situations of as well diabetes"); "risk of A and B" kept to
    B, which may coordinate with A ("with a higher risk of organ dysfunction and mortality" -> "with mortality"),
    or "loss of A, …, and acquisition of C" kept to the conjunct with its own "of"; a conjunct that, by the verb's
    number, belongs to the singular subject the first conjunct depends on ("Local side effect in the injection site
    and systemic side effects were higher")."""
    if any(c.lower_ in ("between", "among", "amongst") for c in first.children if c.dep_ == "case"):
        return "between"
    if _has_case(first, "of") and first.dep_ == "nmod" and first.head.lemma_.lower() in _RELATIONAL_NOUNS:
        return "relational noun"
    if first.dep_ in ("nsubj", "nsubj:pass"):
        return "subject"
    if len({_is_quantity(m) for m in members}) > 1:
        return "quantity and noun"
    if any(c.dep_ == "cc" and any(g.dep_ == "fixed" for g in c.children) for m in members for c in m.children):
        return "joined by a fixed 'as well as'"  # "such as vitamins and minerals, as well as a commitment to X"
    later = [m for m in members if m.i != first.i]
    if any(c.lower_ == "than" for m in later for c in m.children):
        return "comparison"
    if first.dep_ == "dep":
        return "unlabelled attachment"
    for c in first.children:
        if c.i > first.i or c.lower_ in _PREMODIFIER_WORDS or _due_to(c):
            continue
        if c.dep_ not in _PREMODIFIER_DEPS or (c.dep_ == "compound" and c.tag_.startswith("VB")):
            return f"left part {c.dep_}"
    if _list_goes_on(doc, first, max(m.right_edge.i for m in members)):
        return "list goes on"
    if any(_as_well_as(doc, t.i) for t in doc[first.left_edge.i : keep.i]):
        return "as well as"  # "as" and "well" parsed as adverbs: dropping what precedes strands "as well"
    if keep.i != first.i:
        own_of = [c for c in keep.children if c.dep_ == "nmod" and _has_case(c, "of")]
        if own_of and _has_case(first, "of"):
            return "of-phrase"  # "loss of A, …, and acquisition of C": "acquisition" joins "loss", not A
        second = min(later, key=lambda m: m.i)
        bare = not any(
            c.dep_ in ("det", "nmod:poss", "nummod") or (c.dep_ == "nmod" and _has_case(c, "of"))
            for c in second.children
        )
        if bare and any(c.dep_ == "nmod" and first.i < c.i < second.i and _has_case(c, "of") for c in first.children):
            return "of-phrase"  # "risk of A and B": B may join A
    head = first.head
    if (
        first.dep_ == "nmod"
        and head.dep_ in ("nsubj", "nsubj:pass")
        and head.tag_ == "NN"
        and head.lemma_.lower() not in _QUANTITY_NOUNS
        and not any(c.dep_ == "conj" for c in head.children)
        and _plural_finite(head.head, head)
    ):
        return "number"
    return None


def _plural_finite(pred: Any, subject: Any) -> bool:
    """Whether the first finite word after ``subject`` of the predicate is plural ("were", "have", "are", a VBP);
    "might have been" is not (the modal is the finite word)."""
    finite = sorted((pred, *(c for c in pred.children if c.dep_ in ("aux", "aux:pass", "cop"))), key=lambda v: v.i)
    first = next((v for v in finite if v.i > subject.i), None)
    return first is not None and (first.lower_ in _PLURAL_FINITE or first.tag_ == "VBP")


def _due_to(tok: Any) -> bool:
    """The "to" of "due to", which the parser may label anything."""
    return tok.lower_ == "to" and tok.i > 0 and tok.doc[tok.i - 1].lower_ == "due"


def _as_well_as(doc: Any, i: int) -> bool:
    return [t.lower_ for t in doc[i : i + 3]] == ["as", "well", "as"]


def _has_case(tok: Any, word: str) -> bool:
    return any(c.dep_ == "case" and c.lower_ == word for c in tok.children)


def _predicate_above(tok: Any) -> Any:
    """The predicate a word depends on: the first verb, or noun or adjective with a copula or subject of its own,
    at or above it (the root when none is found)."""
    while not _is_predicate(tok) and tok.head.i != tok.i:
        tok = tok.head
    return tok


def _list_goes_on(doc: Any, first: Any, hi: int) -> bool:
    """ ", and/or" + a phrase with a noun right after the last conjunct, where the parse ended the list early ("the
    intakes of potato chips, red meat, and sugary drinks increased", with "drinks" read as the verb's subject); not
    a new clause (", and was responsible", ", and that …", ", and the extent … is correlated" after a list in the
    object, ", and insomnia is common")."""
    after = doc[hi + 1 : hi + 4]
    if len(after) < 3 or after[0].text != "," or after[1].lower_ not in ("and", "or"):
        return False
    nxt = after[2]
    if nxt.tag_.startswith(("VB", "MD")) or nxt.pos_ == "ADV" or nxt.lower_ in _CLAUSE_OPENERS:
        return False
    noun = next((t for t in doc[nxt.i : nxt.i + 5] if t.pos_ in ("NOUN", "PROPN")), None)
    if noun is None:
        return False
    while noun.dep_ in ("compound", "amod", "flat") and noun.head.i != noun.i:
        noun = noun.head  # "TRIM5 knockdown": the phrase's head
    if noun.dep_ in SUBJECT_DEPS:
        return _predicate_above(noun).i == _predicate_above(first).i
    return True


_CLAUSE_OPENERS = frozenset({"that", "which", "it", "they", "this", "these", "there", "we", "its", "their"})
# a singular head that takes a plural verb of its own ("a number of A and B have")
_QUANTITY_NOUNS = frozenset(
    "number majority variety range series total group set lot couple proportion percentage half rest".split()  # noqa: SIM905
)


# nouns whose "of A and B" relates the two: reduced to one they say nothing ("the association of FGF21")
_RELATIONAL_NOUNS = frozenset(
    "association relationship relation interaction correlation link connection difference comparison ratio "  # noqa: SIM905
    "combination balance crosstalk interplay similarity overlap coexistence co-occurrence".split()
)


def _is_quantity(tok: Any) -> bool:
    return tok.text == "%" or tok.pos_ == "NUM"


def _member_tokens(m: Any, members: Sequence[Any]) -> set[int]:
    """A conjunct's own tokens: its subtree without the other conjuncts' subtrees (the first conjunct's
    subtree contains all of them)."""
    toks = _subtree(m)
    for other in members:
        if other.i != m.i and other.head.i == m.i:
            toks -= _subtree(other)
    return toks


_MODALS = {"may", "might", "could", "can"}


def _assert_modal(doc: Any, tokens: set[int], head: int) -> dict[int, str]:
    """Replacement texts turning "may/might/could + verb" into the asserted verb, inflected for the
    subject ("X may exert" -> "X exerts"; "they might be" -> "they are")."""
    from lemminflect import getInflection

    pred = doc[head]
    aux = [c for c in pred.children if c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _MODALS - {"can"}]
    if not aux or aux[0].i not in tokens:
        return {}
    others = [c for c in pred.children if c.dep_ in ("aux", "aux:pass", "cop") and c.i != aux[0].i and c.i in tokens]
    subj = _subject_of(pred)
    plural = subj is not None and (subj.tag_ in ("NNS", "NNPS") or subj.lower_ in ("they", "we", "these", "those"))
    plural = plural or (subj is not None and any(c.dep_ == "conj" for c in subj.children))
    tag = "VBP" if plural else "VBZ"
    target = others[0] if others else pred  # "may be inhibited" -> "is inhibited"; "may exert" -> "exerts"
    if target.lower_ == "be":
        form = "are" if plural else "is"
    elif target.lower_ == "have" and others:
        form = "have" if plural else "has"
    else:
        inflected = getInflection(target.lemma_ or target.text, tag=tag)
        form = inflected[0] if inflected else target.text
    if target.tag_ != "VB":  # only bare infinitives after the modal are rewritten
        return {}
    return {aux[0].i: "", target.i: form}


def render(doc: Any, tokens: Iterable[int], replace: dict[int, str] | None = None) -> str | None:
    """The text of ``tokens`` (document order, original spacing), with optional per-token replacements,
    tidied into a sentence; None when nothing is left."""
    replace = replace or {}
    keep = sorted(set(tokens))
    parts: list[str] = []
    for n, i in enumerate(keep):
        tok = doc[i]
        text = replace.get(i, tok.text)
        if not text:
            continue
        gap = tok.whitespace_ if n + 1 < len(keep) and keep[n + 1] == i + 1 else " "
        parts.append(text + gap)
    text = "".join(parts).strip()
    text = re.sub(r"^(?:[,;:.\-–—\s]|(?:and|or|but|whereas|while)\b)+", "", text, flags=re.I)
    text = re.sub(r"\s*[,;:]\s*$", "", text)
    text = re.sub(r"([,;:])\s*(?=[,;:.])", "", text)
    text = re.sub(r"\(\s*\)", "", text)
    return finish_sentence(text)


_AUXILIARY_FORMS = frozenset(
    ["is", "are", "was", "were", "has", "have", "had", "can", "may", "might", "must", "will", "does", "do"]
)


def can_be_finite(word: str) -> bool:
    """Whether a word can be a finite verb form ("inhibits", "induced", "is"): the tagger of a general-domain
    parser often tags unknown biomedical verbs as nouns."""
    return word in _AUXILIARY_FORMS or finite_verb_form(word)


@functools.lru_cache(maxsize=50_000)
def verb_like(word: str) -> str | None:
    """The tag (VBZ/VBD) of a word that can only be a finite verb ("inhibits", "induced"; not "increases",
    which is also a plural noun), else None. Used where the general-domain tagger calls such verbs nouns."""
    from lemminflect import getAllLemmas, getInflection

    w = word.lower()
    lemmas = getAllLemmas(w)
    if "VERB" not in lemmas or "NOUN" in lemmas or "ADJ" in lemmas:
        return None
    for tag in ("VBZ", "VBD"):
        if w in getInflection(lemmas["VERB"][0], tag=tag):
            return tag
    return None


@dataclass(frozen=True)
class ClauseClaim:
    """A claim rendered from one clause, with why it may be unusable (``problem``)."""

    text: str | None
    clause: Clause
    problem: str | None = None


def _subordinate(pred: Any, tokens: set[int]) -> bool:
    """The clause is introduced by a subordinator ("though", "because", "whether", "if"): it does not state its
    content, whatever the parse made its root. A predicate coordinated with it is as subordinate ("though A did not
    meet X and thus were considered non-responders")."""
    if any(c.dep_ == "mark" and c.i < pred.i and c.i in tokens and c.lower_ != "to" for c in pred.children):
        return True
    while pred.dep_ == "conj":
        pred = pred.head
        if any(c.dep_ == "mark" and c.i < pred.i and c.lower_ != "to" for c in pred.children):
            return True
    return False


def _broken_coordination(pred: Any, tokens: set[int]) -> bool:
    """A misparse of coordination that would leave the claim without a predicate for its second half: a
    coordinator before a predicate that has no first conjunct ("Roth 811 and exceeded the threshold"), predicates
    coordinated with no "and" or comma between them, or a noun phrase coordinated with the verb itself ("...
    differed greatly, and therefore drop-outs and violations")."""
    first = min(tokens)
    if any(c.dep_ == "cc" and first < c.i < pred.i and c.i in tokens for c in pred.children) and pred.dep_ != "conj":
        return True
    # predicates coordinated with nothing between them: "Rats fed diets in combination had lower weight gain" (a
    # reduced relative clause read as the root, the real verb as its conjunct)
    conjuncts = [c for c in pred.children if c.dep_ == "conj" and _is_predicate(c)]
    if pred.dep_ == "conj" and _is_predicate(pred):
        conjuncts.append(pred)
    if any(not any(g.dep_ in ("cc", "punct") and g.i < c.i for g in c.children) for c in conjuncts):
        return True
    while True:  # a predicate that borrows its subject is as broken as the one it borrows from
        verbal = pred.tag_.startswith("VB")
        if verbal and any(c.dep_ == "conj" and c.tag_ in _NOUN_TAGS and not _is_predicate(c) for c in pred.children):
            return True
        if pred.dep_ != "conj" or _subject_of(pred) is not None:
            return False
        pred = pred.head


_NOUN_TAGS = ("NN", "NNS", "NNP", "NNPS")


def claim_from_clause(doc: Any, clause: Clause, span_tokens: set[int] | None = None) -> ClauseClaim:
    """Render a clause as a claim; with ``span_tokens`` (an entity), its coordination list is reduced to it.
    Problems: no subject, pronoun subject (unresolvable without context), no finite verb, too short."""
    tokens = set(clause.tokens)
    if span_tokens:
        tokens = _keep_one_conjunct(doc, tokens, span_tokens)
    # drop trailing punctuation tokens that are not the period, and the sentence-final punct is re-added
    tokens = {i for i in tokens if not (doc[i].dep_ == "punct" and doc[i].text in (".", "!", "?"))}
    replace = _assert_modal(doc, tokens, clause.head)
    text = render(doc, tokens, replace)
    problem = None
    if clause.subject is None:
        problem = "no_subject"
    elif doc[clause.subject].lower_ in _PRONOUN_SUBJ and not clause.borrowed_subject:
        problem = "pronoun_subject"
    elif any(c.lower_ in _DEICTIC_DET for c in doc[clause.subject].children if c.i < clause.subject):
        problem = "context_dependent_subject"  # "These animals", "Our results", "Their titres"
    elif not any(doc[i].tag_ in _FINITE or replace.get(i) or can_be_finite(doc[i].lower_) for i in tokens):
        problem = "no_finite_verb"
    elif _subordinate(doc[clause.head], tokens):
        problem = "subordinate_clause"  # "Though a proportion did not meet MCICs." (a misparsed root)
    elif _broken_coordination(doc[clause.head], set(clause.tokens)):
        problem = "broken_coordination"
    elif text is None or len(text.split()) < 4:
        problem = "too_short"
    return ClauseClaim(text, clause, problem)
