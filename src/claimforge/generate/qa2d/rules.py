"""Rule-based QA2D: (question, answer) -> a declarative claim, on the dependency parse.

Covers the stems exam datasets use: wh-questions (what/which/who/whom/whose/where/when/why/how, how many/much,
how ADJ), "Which of the following ...", "... is called ...", fill-in-the-blank, EXCEPT/NOT stems, yes/no
and alternative questions, imperative stems ("Name the ..."), and declarative stems ending in "?".
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from claimforge.backends.lm import verb_reader
from claimforge.nlp.normalize import (
    AUXILIARIES,
    STOPWORDS,
    agree_indefinite_articles,
    base_verb_only,
    finish_sentence,
    indefinite_article,
    noun_reading,
)
from claimforge.nlp.sentences import split_sentences
from claimforge.nlp.wellformed import PREPOSITIONS, SING_PLUR, agreement_repaired, base_form
from claimforge.registry import ComponentConfig, registry
from claimforge.types import QA2DRequest, QA2DResult

AUX_WORDS = AUXILIARIES
BE_FORMS = frozenset(["is", "are", "was", "were", "am", "be"])
WH_NOMINAL = frozenset({"what", "which", "who", "whom", "whose"})
WH_ADVERB = frozenset({"where", "when", "why", "how"})
IMPERATIVES = frozenset(["name", "identify", "give", "state", "list", "mention", "define", "specify"])
NAMING_VERBS = frozenset({"call", "name", "term", "consider", "label", "describe", "classify"})
PLUR_SING = {v: k for k, v in SING_PLUR.items()}
FINITE_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
NP_TAGS = frozenset({"DT", "PRP", "PRP$", "NN", "NNS", "NNP", "NNPS", "CD", "JJ", "JJR", "JJS", "EX", "WP$"})

_BLANK = re.compile(r"_{1,}(?:\s*_+)*|\(\s*\)|\[\s*\]|(?<![\w-])-{3,}(?![\w-])|\u2026[\u2026.]+|\.{4,}[\u2026.]*")
_EXCEPT = re.compile(r"\s*[,:;\-\u2013\u2014]?\s*\bexcept\b[\s:.?\-\u2013\u2014]*(\([^)]*\))?[\s:.?]*$", re.I)
_ALL_OF = re.compile(r"(^|,\s*)(all|each|any)( (?:of )?(the following|these|them))?\b(?!\s+of\b)", re.I)
# "in all cases except", "of all the impression materials except": the exception is one of those nouns
_ALL_NOUNS = re.compile(
    r"\ball\s+(?:of\s+)?(?:(?:the|these|his|her|its|their)\s+)?"
    r"(?=(?:[\w-]+\s+){0,2}(?!(?:this|his|its|has|was|does)\b)[a-z][\w-]{2,}s\b)",
    re.I,
)
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
# where and when an exam asked the question, after the stem: ":September 2005, 2010, March 2007", "(AIIMS May 2019)",
# "(Asked twice)"
_EXAM_TAG = re.compile(
    rf"(?:\s*:\s*{_MONTHS}\s*'?\d{{2,4}}(?:\s*,?\s*(?:{_MONTHS}\s*)?'?\d{{2,4}})*"
    r"|\s*[(\[]\s*(?:(?:asked\s+twice|repeated)\b[^)\]]*|(?:AIIMS|PGI|JIPMER|DNB|NEET|AIPGM?EE|UPSC|FMGE|COMEDK|MAHE)\b[^)\]]*)"
    r"[)\]]"
    # a colon and a list of exams with their years: ":KCET 12; JIPMER 12; AIIMS 13", ":AIIMS 12, 13", ":MAHE 06"
    # (the colon touches the first exam, as in all 17 of MedMCQA validation: lab values after ": " stay; the spaces
    # between two exams can be split only one way, so a long list that fails does not backtrack exponentially)
    r"|\s*:(?=\S)(?:(?-i:[A-Z][A-Za-z]{2,})\s*'?\d{2}(?:\d{2})?(?:\s*,\s*'?\d{2}(?:\d{2})?)*\s*(?:[;,]\s*)?)+)\s*$",
    re.I,
)
# "(all of) the following (N)" anywhere in a stem, not the preposition ("Following a fall, ...")
_THE_FOLLOWING = re.compile(
    r"\b(?:all\s+(?:of\s+)?)?the\s+following\b(?!\s+(?:a|an|the|his|her)\b|,)"
    r"|(?<!\bcomplication\s)(?<!\bcomplications\s)(?<!\binfection\s)(?<!\bdeath\s)(?<!\bpain\s)(?<!\binjury\s)"
    r"(?<!\bchanges\s)(?<!\bchange\s)(?<!\bbleeding\s)(?<!\bpalsy\s)(?<!\bparalysis\s)(?<!\breaction\s)"
    r"\bfollowing(?=\s+[\w-]+\s*[:\-\u2013]*\s*$)|^following(?=\s+(?:is|are)\b)",
    re.I,
)  # not the preposition: "complication following tonsillectomy", "Following thyroidectomy, ..." (a bare "following"
# after a verb with a longer phrase after it is given its article first: _BARE_FOLLOWING)
# a stem whose blank is at its end already: the answer is appended ("Drug of choice for the following condition is")
_OPEN_END = re.compile(
    r"\b(?:is|are|was|were|include|includes|due to|of|by|in|for|with|as|to)\s*[:\-\u2013]*\s*$", re.I
)
# not "WHO", the World Health Organization ("According to WHO guidelines, ...")
_ANY_WH = re.compile(r"\b(?:what|which|(?-i:(?!WHO\b))who|whom|whose|where|when|why|how)\b", re.I)
# "Which factor of the following contributes ..." (the word after "following" decides: a verb, not "patients")
_WH_NOUN_OF_THE_FOLLOWING = re.compile(
    r"\b(which|what)\s+(?!one\b|of\b)([a-z]+)\s+of\s+the\s+following\s+(?=([a-z]+)\b)", re.I
)
_OPTIONS_LEFT = re.compile(r"\ball\s+(?:of\s+)?the\s+following\b", re.I)
_EITHER_COPULA = re.compile(r"\b(?:is\s*/\s*are|are\s*/\s*is)\b", re.I)
# "following" without its article after a verb that takes it as its object ("X causes following in a patient", "...
# causes following common post treatment complication:"), with "in" or a short noun phrase that ends the stem after it
# (not "Lead cause following except"); applied to the asking sentence only (not "presented with following symptoms:
# fever, ... Diagnosis?")
_BARE_FOLLOWING = re.compile(
    r"\b(causes?|have|has|shows?|includes?|involves?|produces?)\s+following\b(?!\s+(?:a|an|the|except|is|are)\b)"
    r"(?=\s+(?:in\b|[\w-]+(?:\s+[\w-]+){0,3}\s*(?:except\b|[:?\u2013]\s*$|\s-\s*$|$)))",
    re.I,
)
# a stem that already asks "which of the following": an exception's "except" only inverts it ("Which of the
# following will lead to X, except" must not become "Which of which of the following ...")
_ASKS_FOLLOWING = re.compile(r"\b(?:which|what)\s+(?:[\w-]+\s+)?of\s+(?:the\s+following|these)\b", re.I)
# a gloss or a plural mark on the asked noun, before its verb: "Which of the following PPE (Personal Protective
# Equipment) is removed first", "Which of the following bone(s) are used"
_ASKED_NOUN_GLOSS = re.compile(
    r"(\b(?:[Ww]hich|[Ww]hat)\s+of\s+the\s+following\s+[\w-]+)(?:\(s\)|\s*\((?:[A-Z][\w-]*\s*){2,}\))"
)
_TRAILING_ALL = re.compile(r"\s+(all( of (the following|these|them))?|the following)\s*$", re.I)
_NEG_AUX = re.compile(
    r"^((?:[^?]*?,\s*)?(?:which|what)\b(?:(?!\b(?:that|which|who|whom|whose|if|when|where|because|while|although|unless)\b)[^?])*?"
    r"\b(?:is|are|was|were|does|do|did|can|could|will|would|should|may|might|has|have)"
    r")(?:\s+not\b|n't\b)",
    re.I,
)
_NEGATIONS = re.compile(r"\b(?:not|never|cannot)\b|n't\b", re.I)
# a stem that opens with its negation and a topic: "Not true about NRHM", "False regarding protective splinting:"
_FALSE_WORDS = r"false|incorrect|untrue|wrong|inaccurate"
_TOPIC_PREPOSITION = r"(?:about|regarding|for|of(?!\s+the\s+following\b)|in)"  # "true about X"; not "of the following"
# (not a note about a figure: "The B pattern belongs to (Figure was not provided in the exam)" needs its figure)
_NOTE_AFTER_PREPOSITION = re.compile(
    r"\b(in|of|at|by|with|for|to|from|on)\s*\((?![^()]*\b(?:fig|figure|image|picture|diagram|graph)\b)[^()]*\)[\s:?.\-]*$",
    re.I,
)
# an exam's "Following N" (its "the" dropped) before the stem's verb, with no comma: "Following renal disorder is
# associated with worst pregnancy outcome" (not "Following surgery, the patient ...")
_FOLLOWING_NOUN = re.compile(
    r"^following\s+(?!(?:the|a|an|is|are)\b)(?=(?:[\w-]+\s+){1,3}(?:is|are|was|were|has|have|can|causes?|leads?)\b)"
    r"(?![^,]*,)",
    re.I,
)
# "Find faulty statement regarding X", "Identify the wrong statement about X": the same stem in other words
_PICK = r"(?:(?:find|identify|choose|select|mark|pick)\s+(?:out\s+)?(?:the\s+)?)?"
_NOT_TRUE_ABOUT = re.compile(
    rf"^\s*{_PICK}(?:not\s+true|{_FALSE_WORDS}|faulty)(?:\s+statements?)?\s+({_TOPIC_PREPOSITION})\b", re.I
)
# "True about X is:", "Correct statement regarding X" (not "True open bite is caused by")
_TRUE_ABOUT = re.compile(rf"^\s*{_PICK}(?:true|correct)(?:\s+statements?)?\s+({_TOPIC_PREPOSITION})\b", re.I)
# "About gutta-percha all are true" (what is left of "..., except:"): the topic comes first
_TOPIC_ALL_TRUE = re.compile(
    r"^(?:(?:about|regarding|for|in)\s+)?(?P<t>[^,.;:]+?)[.,]?\s+all\s+(?:of\s+)?(?:(?:the\s+following|these|the)\s+)?"
    r"(?:statements?\s+)?(?:are|is)\s+(?:true|correct)$",
    re.I,
)
# "Prions true is:", "Kwashiorkor, true is": the topic first, then the truth stem
_TOPIC_THEN_TRUE = re.compile(
    r"^(?P<t>(?:[\w'-]+\s+){0,5}[\w'-]+)\s*[,\-\u2013]?\s+(?:true|correct)\s+(?:is|are)\s*$", re.I
)
_NEG_WORDS = re.compile(rf"\b({_FALSE_WORDS})\b", re.I)
_POS_FOR = {"false": "true", "incorrect": "correct", "untrue": "true", "wrong": "correct", "inaccurate": "accurate"}


@dataclass(frozen=True)
class Prepared:
    """A question after text-level normalisation: stem text, whether it asked for an exception."""

    text: str
    inverted: bool
    dropped_not: bool = False  # a "not" after an auxiliary was removed ("What organisms do [not] need blood")


_QUOTED = re.compile(  # a quoted word or two inside a wh-phrase
    r"\b((?:what|which)\b(?:\s+[\w-]+){0,3}?)\s+[\"\u201c\u2018'](\w[\w-]*(?:\s\w[\w-]*)?)[\"\u201d\u2019'](?![\w])",
    re.I,
)
_UNPUNCTUATED_WH = re.compile(r"(?<=[^\s.!?:;,])\s+(?=(?:Which|What|Who|Whom|Whose|Where|When|Why|How)\b)")


_FIGURE = re.compile(r"\b(?:Figures?|Fig\.|Image|Table)\s+[A-Z0-9]\b|\b(?:shown|seen|listed) below\b")


def without_figure_sentences(question: str) -> str:
    """The question without context sentences that point at a figure or table the reader cannot see ("A
    radiograph is shown in Figure A."); the asking sentence always stays."""
    parts = _sentences(question)
    if len(parts) < 2:
        return question
    kept = [p for p in parts[:-1] if not _FIGURE.search(p)] + parts[-1:]
    return " ".join(kept)


def _sentences(question: str) -> list[str]:
    return split_sentences(" ".join(question.split()))  # a question's line breaks are not sentence ends


def last_sentence(question: str) -> str:
    """The sentence that asks (the last one), without the context sentences before it."""
    parts = _sentences(question)
    return parts[-1] if parts else question


_CALLED_BEFORE_CLAUSE = re.compile(
    r"(\b(?:what|which)\b[^.?!]*?\b(?:is|are|was|were)\b[^.?!]*?(?<!\bit)) called "
    r"((?:(?:in|by|during|through|at|on|from|with) which|that|which|who) )([^.?!]+?)"
    r"(?<!\bto)(?<!\bin)(?<!\bon)(?<!\bat)(?<!\bof)(?<!\bfor)(?<!\bwith)(?<!\bfrom)(?<!\bby)\s*(?=\?|$)",
    re.I,
)  # a relative clause only, not one ending in its own stranded preposition ("the regions called that repressors bind
# to"): "What is it called when ..." already reads well, and "when"/"where" clauses misparse


# typos of the source: "What are are organisms that ...", "What bone is is one of a pair ..."
_DOUBLED_AUX = re.compile(r"^((?:what|which|who)(?:\s+[\w-]+){0,2}?\s+(is|are|was|were))\s+\2\b", re.I)
# the stem's auxiliary said again before a final participle: "What is first year after birth is called?", "What
# are changes in ... are known as?", "What substance are physical objects are made of?"; not when a relative clause
# has its own (:func:`_said_twice`)
_AUX_BEFORE_CALLED = re.compile(
    r"^((?:what|which)\b(?:\s+[\w-]+){0,2}?\s+(is|are|was|were)\b.+?)\s+\2\s+"
    r"((?:\w+ly\s+)?(?:called|named|termed|known as|made of|made up of|composed of|referred to as))\s*\??$",
    re.I,
)


def _verb_only(word: str) -> bool:
    """A finite verb lemminflect does not also know as a noun ("contributes", "is"; not "patients", "fibers")."""
    from lemminflect import getAllLemmas

    low = word.lower()
    if low in ("is", "are", "can", "has", "have", "does", "do", "was", "were"):
        return True
    lemmas = getAllLemmas(low)
    return "VERB" in lemmas and "NOUN" not in lemmas and low.endswith("s")


def _said_twice(q: str) -> str:
    """The stem's auxiliary said once (:data:`_AUX_BEFORE_CALLED`), unless a relative clause in between takes the
    second one as its own: "that the cell wall is made of", "that atoms are made of" (the word after the relative
    pronoun is no verb), not "that stain purple are called"."""
    from lemminflect import getAllLemmas

    m = _AUX_BEFORE_CALLED.match(q)
    if m is None:
        return q
    rel = re.search(r"\b(?:that|which|who|whom|where|when)\s+([\w-]+)", m.group(1), re.I)
    if rel is not None and "VERB" not in getAllLemmas(rel.group(1).lower()):
        return q
    return m.expand(r"\1 \3")


# "can't", "won't", "shan't" after a question word written out (the tokenizer leaves "ca", "wo" that no rule reads
# as the inverted modal: "Why can't fungi make ...")
_CONTRACTED = {"ca": "cannot", "wo": "will not", "sha": "shall not"}
_CONTRACTED_MODAL = re.compile(r"(\b(?:why|what|how|when|where|who)\s+)(ca|wo|sha)n't\b", re.I)


# a wh-question whose copula the source says again at the end (MedMCQA): "Which of the following is a common
# osseous lesion in periodontitis is", "Which of the following is rapid source of energy ... is?"
# (not after a clause of its own that ends so: "What is a measure of how hot or cold the air is?", "What is the kind of
# rock that marble is?")
_COPULA_SAID_TWICE = re.compile(
    r"^((?:which|what)\b[^.?:;]{0,300}?\s(?:is|are)\s"
    r"(?![^.?:;]*\b(?:how|what|where|whether|who|whom|whose|which|that|when|why|than|as)\b)"
    r"[^.?:;]{1,300}?)\s+(?:is|are)\s*[?:;.-]*\s*$",
    re.I,
)


# do-support before a verb the source left in its "-s" form, the verb last (MedMCQA): "What does this signifies?",
# "At what stage ... does initial tooth development begins:"; only a form that cannot be a plural noun
_DO_THEN_S_FORM = re.compile(
    r"(\b(?:what|which|how|when|where|why)\b[^?.:]{0,300}?\b(?:does|do|did)\s+((?:\S+\s+){1,6}?))([a-z]+s)"
    r"(\s+(?:for|to|in|of|on|with|from|by|about))?(\s*[?:.]?\s*)$",
    re.I,
)


_CLAUSE_OPENERS = frozenset(
    "when if while before after as because since until once unless whereas that which who whom whose where".split()  # noqa: SIM905
)


def _base_after_do(m: re.Match[str]) -> str:
    word = m.group(3)
    if noun_reading(word):
        return m.group(0)  # not a plural noun ("What do amphibians lay their eggs in?"), nor "stands"
    middle = [w.lower() for w in m.group(2).split()]
    if any(w in PREPOSITIONS or w in ("the", "a", "an") for w in middle[1:]):
        return m.group(0)  # the subject ends before it: "What form does water take on the planet mars?"
    if any(w in _CLAUSE_OPENERS or w in ("do", "does", "did") or base_verb_only(w) for w in middle):
        return m.group(0)  # the "-s" verb is another clause's: "What does the body do when it overheats?"
    base = base_form(word.lower())
    return m.group(0) if base is None else f"{m.group(1)}{base}{m.group(4) or ''}{m.group(5)}"


# an ordering question ("Arrange the following ...", "Sequential arrangement of fetal scans -", "Sequential order of
# sperm formation: ..."): its answer is an order of options, no claim (not "Sequence of three nucleotides that codes
# for an amino acid is called:", "Order of insects with two wings is:"; nor "Arrange ..., which is the deepest?")
_ORDERING = re.compile(
    r"^(?:arrange|rearrange)\b(?![^?]*\bwhich\s+(?:is|are)\b)"
    r"|^(?:the\s+)?(?:correct\s+)?sequential\s+(?:arrangement|order)\s+of\b|\bsequential arrangement question\b",
    re.I,
)


def prepare_question(question: str) -> Prepared:
    """Normalise spacing/contractions and turn negative stems (EXCEPT, NOT, false) positive."""
    q = _EXAM_TAG.sub("", " ".join(question.split()))
    # an editorial note in brackets after the word that waits for the answer goes: "Most common site for ... is
    # (MNTI):", "X is classified as (according to Melton and Seitzor)", "raises HCT by: (In exam instead of HCT, ...):"
    # (not a unit or scope, "is (in mm Hg):", nor a figure's: "The B pattern belongs to (Figure was not provided ...)")
    q = _TRAILING_NOTE.sub(lambda m: m.group(1) if _EDITORIAL_NOTE.match(m.group(2)) else m.group(0), q)
    q = re.sub(r"(?<=[a-z]{2}),(?=[a-z]{2})", ", ", q, flags=re.I)  # "In alpha-thalassemia trait,electrophoresis"
    # a sentence's period with no space after it: "... is XY.What is the probable diagnosis?", "... given.what is ..."
    q = re.sub(r"(?<=[A-Za-z]{2})\.(?=[A-Z][a-z]|(?:what|which|who|where|when|why|how)\b)", ". ", q)
    head, mark, tail = q.partition("?")
    if mark and tail.strip() and _ANY_WH.search(head):
        q = head  # "What force opposes motion? for example a car braking" -> the question only
    q = _QUOTED.sub(r"\1 \2", q)  # 'what higher-level "classification" of science' -> a plain noun phrase
    # "Troponin: < 0.01 ng/mL Which of the following ..." -> a new sentence; not after a verb that waits for its
    # object ("Initial calcification of crown represents Which Nolla's stage": in place)
    q = _UNPUNCTUATED_WH.sub(lambda m: " " if _verb_before(q[: m.start()]) else ". ", q)
    q = re.sub(r"^wich\b", "Which", q, flags=re.I)  # a typo of the source
    # "Which is larger: the human sperm or the human egg?" -> the choices after the colon are the options
    q = re.sub(r"^((?:which|what)\b[^:]*):\s+[^:]+\bor\b[^:]+$", r"\1", q, flags=re.I)
    q = re.sub(r"\b(what|which)\s+else\b", r"\1", q, flags=re.I)  # "... freshwater and what else?": no "else" left
    # "Which one of the following drugs" (not "a reaction in which one of the ions")
    q = re.sub(r"\b(what|which)\s+one\s+(?=of\s+(?:the\s+following|these|them)\b)", r"\1 ", q, flags=re.I)
    q = re.sub(r"\bthe\s+followings\b", "the following", q, flags=re.I)  # a typo of the source
    q = re.sub(r"\b(which|what|all|any)\s+of\s+(?=following\b)", r"\1 of the ", q, flags=re.I)  # "which of following"
    q = re.sub(r"\b(which)\s+if\s+(?=the\s+following\b)", r"\1 of ", q, flags=re.I)  # "which if the following"
    cut = max((m.end() for m in re.finditer(r"[.!?]\s+", q)), default=0)  # the asking sentence only
    q = q[:cut] + _BARE_FOLLOWING.sub(r"\1 the following", q[cut:])  # "causes following in ..."
    # "What to do next?", "What to be done next?" ask for the next step (an action answer then takes "to")
    q = re.sub(r"\bwhat\s+to\s+(?:be\s+done|do)\s+next\b", "what is the next step", q, flags=re.I)
    # "Which among the following" -> "Which of the following"
    q = re.sub(r"\b(which|what)\s+(?:among|amongst)\s+(?=the\s+following\b)", r"\1 of ", q, flags=re.I)
    q = _ASKED_NOUN_GLOSS.sub(r"\1", q)
    q = re.sub(r"\b(u)pto\b", r"\1p to", q, flags=re.I)  # "penetration is upto"
    q = _COPULA_SAID_TWICE.sub(r"\1", q)  # "Which of the following is a common osseous lesion in X is" -> "... in X"
    q = _DO_THEN_S_FORM.sub(_base_after_do, q)  # "What does this signifies?" -> "What does this signify?"
    q = re.sub(r"\b(is|are)\s*;\s*$", r"\1:", q)  # "Most probable diagnosis is;" as "... is:"
    # a note after the stem's last preposition: "C shaped root canals are preferably found in (Maximum incidence)"
    q = _NOTE_AFTER_PREPOSITION.sub(r"\1", q)
    q = _FOLLOWING_NOUN.sub("Which ", q)  # "Following renal disorder is associated with ..." -> "Which renal ..."
    # the source's "is/are" (MedMCQA) said once, as its first form ("Functions of X are/is"); the rules make a copula
    # agree with an answer that is its subject ("Both prolactin and growth hormone are ...")
    q = _EITHER_COPULA.sub(lambda m: m.group(0).split("/")[0].strip(), q)
    # "Which factor of the following contributes to ..." -> "Which factor contributes to ..." (before a verb)
    q = _WH_NOUN_OF_THE_FOLLOWING.sub(
        lambda m: f"{m.group(1)} {m.group(2)} " if _verb_only(m.group(3)) else m.group(0), q
    )
    # "Which is best method to assess X is:" -> "Best method to assess X is" (the stem's verb said at both ends)
    # (not when the last one belongs to a clause inside: "What is a measure of how hot or cold the air is?")
    q = re.sub(
        r"^(?:which|what)\s+(is|are)\s+((?:(?!\b(?:how|what|which|who|that|where|when|why|if)\b).)+?\s+\1)[\s:?.\-]*$",
        r"\2",
        q,
        flags=re.I,
    )
    q = q.replace("\u2019", "'")  # "What’s", "body’s": the typographic apostrophe as the rules expect it
    q = re.sub(r"\bwhat's\b", "what is", q, flags=re.I)
    q = re.sub(r"\bwho's\b", "who is", q, flags=re.I)
    q = _CONTRACTED_MODAL.sub(lambda m: m.group(1) + _match_case(_CONTRACTED[m.group(2).lower()], m.group(2)), q)
    # "What is the process called in which X?" -> "What is the process in which X called?", whose blank the "is
    # called" rule fills ("The process in which X is called absorption", not "The process called in which X is ...")
    q = _CALLED_BEFORE_CLAUSE.sub(r"\1 \2 \3 called", q)
    q = _DOUBLED_AUX.sub(r"\1", q)  # "What are are organisms that ..." (a typo of the source)
    q = _said_twice(q)  # "What are bacteria that stain purple are called?"
    inverted = dropped_not = False
    if _EXCEPT.search(q):
        q = _EXCEPT.sub("", q)
        topic_first = _TOPIC_ALL_TRUE.match(q)
        if topic_first:  # "About gutta-percha all are true" -> "Which of the following is true about gutta-percha"
            q = f"Which of the following is true about {topic_first.group('t')}"
        elif _ASKS_FOLLOWING.search(q):
            pass  # "Which of the following Glomerulonephritis has Nephrotic syndrome except": asked already
        elif _TRAILING_ALL.search(q):
            q = _TRAILING_ALL.sub("", q)  # "Treatment of X utilizes all except" -> "Treatment of X utilizes"
        elif _ALL_OF.search(q):
            q = _ALL_OF.sub(lambda m: m.group(1) + "which of the following", q, count=1)
        elif _THE_FOLLOWING.search(q):
            # "X is present in all of the following conditions except" -> "... in which of the following conditions"
            q = _THE_FOLLOWING.sub("which of the following", q, count=1)
        else:  # "Anti D is required in all cases except" -> "... in which of the following cases"
            q = _ALL_NOUNS.sub("which of the following ", q, count=1)
        inverted = True
    elif _NOT_TRUE_ABOUT.match(q):
        # "Not true about piperacilline is:", "False about enamel rods is" -> "Which of the following is true about X"
        q = _NOT_TRUE_ABOUT.sub(r"Which of the following is true \1", q, count=1)
        q = _TRAILING_COPULA.sub("", q)
        inverted = True
    elif re.search(r"(?<!of )\bthe following (is|are)\s+not\b", q, re.I):
        # "According to X, the following is not a suspect" -> "..., which of the following is a suspect"
        q = re.sub(r"(?<!of )\bthe following (is|are)\s+not\b", r"which of the following \1", q, count=1, flags=re.I)
        inverted = True
    elif _NEG_AUX.search(q) and len(_NEGATIONS.findall(q)) == 1:
        # (not with a second negation: "What organisms cannot make their own food and do not eat" is no exception
        # question, and "... cannot make their own food and do eat" would be true of no distractor)
        m = _NEG_AUX.search(q)
        assert m is not None
        # "any" was there for the "not": "doesn't have any effect" -> "has an effect", "any drugs" -> "drugs"
        rest = re.sub(
            r"\bany\s+(?!of\b)([\w-]+)(\s+[\w-]+)?",
            lambda a: ("" if re.search(r"[^s]s\b", a.group(0)[4:]) else "a ") + a.group(0)[4:],
            q[m.end() :],
            count=1,
        )
        q = m.group(1) + rest
        inverted = dropped_not = True
    elif (re.match(r"^\s*(which|what)\b", q, re.I) or re.search(r"\bstatements?\b", q, re.I)) and (
        _NEG_WORDS.search(q)
    ):
        q = _NEG_WORDS.sub(lambda m: _POS_FOR[m.group(1).lower()], q, count=1)
        inverted = True
    m = _TOPIC_THEN_TRUE.match(re.sub(r"[\s:?.\-\u2013]+$", "", q))
    if m and not _ANY_WH.search(m.group("t")) and not re.search(r"\bfollowing\b", m.group("t"), re.I):
        # "Prions true is:" -> "Which of the following is true about Prions" (not "Which of the following true is")
        q = f"Which of the following is true about {m.group('t')}"
    if _TRUE_ABOUT.match(q):  # "True about X is:" -> "Which of the following is true about X"
        q = _TRAILING_COPULA.sub("", _TRUE_ABOUT.sub(r"Which of the following is true \1", q, count=1))
    if not _ANY_WH.search(q) and not _OPEN_END.search(q):
        # "X has the following adverse result:" -> "X has which of the following adverse result" (a blank in place)
        q = _THE_FOLLOWING.sub("which of the following", q, count=1)
    q = re.sub(r"[\s?:.,\-\u2013\u2014]+$", "", q).strip()  # also a comma: "... is called,"
    return Prepared(q, inverted, dropped_not)


_TRAILING_NOTE = re.compile(
    r"(\b(?:is|are|was|were|as|by|to|of|in|at|from|with|for|into)\s*:?)\s*\(([^()]{1,120})\)[\s:.\-\u2013]*$", re.I
)
# notes that say nothing the claim needs: an abbreviation's gloss ("(MNTI)"), a source, the exam's own remark; not a
# unit, population or scope the answer holds for ("(in mm Hg)", "(in pregnancy)", "(for MRSA)"), nor a figure's
_EDITORIAL_NOTE = re.compile(
    r"\s*(?:[A-Z][A-Z0-9-]{1,9}s?|(?i:according to|as per|ref\b|in (?:the )?exam\b)[^()]*)\s*$"
)


# nouns a stem asks for that are also verbs: "Which of the following sign in Horner syndrome" asks, not says
_ASKED_NOUNS = frozenset(
    """
    sign test drug feature finding symptom structure nerve muscle bone type cause condition investigation treatment
    method change effect factor process stage step
    """.split()  # noqa: SIM905
)


def _verb_before(text: str) -> bool:
    """Whether ``text`` ends in a finite verb form that is no noun ("represents", "shows"; not "levels")."""
    words = text.split()
    word = words[-1].lower() if words else ""
    return word.isalpha() and _is_verb_form(word, ("VBZ", "VBD")) and not noun_reading(word)


def _reparse_text(doc: Any) -> tuple[str, tuple[str, str] | None] | None:
    """A stem the tagger read without any finite verb, rewritten so that it parses with one, and what to put back
    in the claim (or None): a telegraphic participle gets its "is"/"are" ("Wilson curve seen in" -> "Wilson curve is
    seen in"; the claim keeps it), and a verb read as a plural noun after "the following" ("Which of the following
    causes vasodilation", "antibiotics chelates with", "increases") is parsed after "can", where the tagger cannot
    read it as a noun, and put back in the present afterwards. None when the stem has a finite verb or neither
    applies."""
    from lemminflect import getAllLemmas, getAllLemmasOOV, getInflection

    if not len(doc):
        return None
    words = [t.text_with_ws for t in doc]
    # the asking sentence's root (not a context sentence's: "Patient treated with amoxicillin. Drug given in")
    start = max((t.i + 1 for t in doc[:-1] if t.text in (".", "!", "?")), default=0)
    root = next((t for t in doc[start:] if t.dep_ == "ROOT"), None)
    blank = any(t.lower_ in WH_NOMINAL for t in doc) or doc[-1].tag_ in ("IN", "TO")
    finite = any(t.tag_ in FINITE_TAGS for t in doc)
    participle = _telegraphic_participle(doc, root) if not finite and root is not None and blank else None
    if participle is not None:
        subject, at = participle
        low = subject.lower_  # "Glucosamines are used", "Measles is caused", "Rabies is transmitted"
        singular = low in _SINGULAR_IN_S or _singular_in_s(low)
        plural = not singular and (subject.tag_ in ("NNS", "NNPS") or _topic_plural(low))
        words[at] = ("are " if plural else "is ") + words[at]
        return "".join(words), None
    following = next((t.i for t in doc if t.lower_ == "following" and t.i > 0 and doc[t.i - 1].lower_ == "the"), None)
    # the sentence that asks (context sentences before it have verbs of their own: "Child presents with ...")
    if following is None or any(t.tag_ in FINITE_TAGS for t in doc[following].sent):
        return None
    # the word right after "the following", or after its noun ("the following antibiotics chelates")
    for t in doc[following + 1 : following + 3]:
        low = t.lower_
        if t.tag_ not in ("NNS", "NN") or t.i + 1 >= len(doc):
            continue
        lemmas = getAllLemmas(low)
        nxt = doc[t.i + 1]
        if not low.endswith("s"):
            # a base form after a plural ("All of the following decrease in", "influence the efficiency of"): a verb
            # when it can be one and a preposition other than "of" or a determiner follows ("the following test of")
            if "VERB" in lemmas and nxt.lower_ != "of" and nxt.pos_ in ("ADP", "DET") and low not in _ASKED_NOUNS:
                present = (getInflection(low, "VBZ") or (low,))[0]  # said of a singular answer
                words[t.i] = f"can {low}{t.whitespace_}"
                return "".join(words), (f"can {low}", present)
            continue
        if "VERB" not in lemmas and (lemmas or doc[t.i - 1].tag_ != "NNS"):
            continue  # a noun; a word lemminflect does not know is a verb after a plural noun ("antibiotics chelates")
        quoted = nxt.text in ("'", '"') and t.i + 2 < len(doc) and not doc[t.i + 2].is_punct  # "shows 'Blueberry lips'"
        verb_pair = (low, nxt.lower_) in _VERB_WITH_PREPOSITION  # "which of the following results in decrease in"
        if "NOUN" in lemmas and nxt.pos_ in ("ADP", "DET", "PUNCT", "CCONJ") and not quoted and not verb_pair:
            continue  # "the following drugs in pregnancy", "the following effects of morphine": a noun
        if nxt.pos_ in ("VERB", "AUX"):
            return None  # "which of the following causes is ...": a noun after all
        lemma = (lemmas.get("VERB") or getAllLemmasOOV(low, "VERB")["VERB"])[0]
        present = t.text
        before = doc[t.i - 1]
        if before.lower_ in _VERB_ADVERBS:  # "best describes" -> "can best describe"
            words[before.i] = ""
            lemma, present = f"{before.lower_} {lemma}", f"{before.text} {t.text}"
        words[t.i] = f"can {lemma}{t.whitespace_}"
        return "".join(words), (f"can {lemma}", present)
    return None


_VERB_ADVERBS = frozenset({"best", "most", "rightly", "correctly", "usually", "commonly", "mostly", "also"})
# "-s" words that are nouns too but verbs before these prepositions ("intake of which of the following results in")
_VERB_WITH_PREPOSITION = frozenset(
    {("results", "in"), ("leads", "to"), ("acts", "on"), ("acts", "as"), ("binds", "to"), ("works", "on")}
)


def _telegraphic_participle(doc: Any, root: Any) -> tuple[Any, int] | None:
    """A noun phrase and a participle with no "is"/"are" ("Wilson curve seen in", "Pegloticase used in which ...",
    "Short sharp pain of tooth transmitted to brain by", "LA deposited in"): its subject and where the copula goes
    (before an adverb on the participle: "Nasal antrostomy is usually done from"). The participle must be one no past
    tense could be ("seen", "taken"), or a past form that here can only be passive: before its agent ("caused by") or
    "as" ("known as"), or of a verb that needs an object and has a preposition instead ("used in", "derived from",
    "associated with"). Not "Birds evolved from", "Tonsils developed from": past tenses."""
    from lemminflect import getInflection

    if root.pos_ in ("NOUN", "PROPN"):
        subject = root
        p = next((c for c in root.children if c.dep_.startswith("acl") and c.tag_ == "VBN" and c.i > root.i), None)
    elif root.tag_ == "VBN" and not any(c.dep_.startswith("aux") for c in root.children):
        subject = next((c for c in root.children if c.dep_ == "nsubj" and c.i < root.i), None)
        p = root if subject is not None else None
    else:
        return None
    if subject is None or p is None or any(t.pos_ in ("VERB", "AUX") or _is_wh_word(t) for t in doc[subject.i : p.i]):
        return None
    if any(t.text in (",", ";", ":") for t in doc[subject.i : p.i]):
        return None  # "Tip of ultrasonic scaler after usage, cleaned by": the comma may close a phrase of its own
    if p.lemma_.lower() in _NO_PASSIVE:
        return None  # "Haemoglobin fallen to", "Patient gone into shock": a perfect, not a passive
    past = getInflection(p.lemma_, "VBD") or ()
    k = p.i + 1
    while k < len(doc) and doc[k].tag_ == "RB":
        k += 1  # "D1 bone found mainly in"
    after = doc[k] if k < len(doc) else None
    passive = (
        p.lower_ not in past
        or (after is not None and after.lower_ == "by")
        or (after is not None and after.lower_ == "as" and p.lemma_ in _NAMING_VERBS)
        or (after is not None and after.tag_ == "IN" and p.lemma_ in _OBJECT_VERBS)
    )
    if not passive or not past:
        return None
    # the blank is the participle's: at the end ("derived from") or a question word after the participle with at most
    # a short phrase after it ("used in which of the following conditions?"); not "Hormones produced by what gland in
    # the neck increase the rate ...", whose verb the tagger missed
    words = [t for t in doc if not t.is_punct]
    wh = next((t for t in doc[p.i + 1 :] if _is_wh_word(t)), None)
    tail = [t for t in words if wh is not None and t.i > wh.i]
    verb_in_tail = any(t.pos_ in ("VERB", "AUX") and t.lower_ != "following" for t in tail)
    if words[-1].tag_ not in ("IN", "TO") and (wh is None or len(tail) > 8 or verb_in_tail):
        return None
    if sum(t.text in ('"', "\u201c", "\u201d") for t in doc[: subject.i]) % 2:
        return None  # the subject inside a quoted title: 'Term "Clean Tooth Never Decays" given by'
    end = wh.i if wh is not None else len(doc)
    for t in doc[p.i + 1 : end - 1]:  # a verb the tagger read as a noun: "Metal detectors used for airport security
        nxt = doc[t.i + 1]  # work on which principle"
        noun_then_preposition = t.tag_ in ("NN", "NNS") and nxt.pos_ in ("ADP", "DET")
        if noun_then_preposition and doc[t.i - 1].pos_ in ("NOUN", "PROPN") and _is_verb_form(t.lower_, ("VBP", "VBZ")):
            return None
    at = p.i  # before the adverbs on the participle: "is usually done", "is not seen", "is most commonly involved"
    while at - 1 > subject.i and doc[at - 1].tag_ in ("RB", "RBR", "RBS"):
        at -= 1
    if doc[at - 1].lower_.endswith(("'is", "\u2019is")):
        return None  # "Stenopic slit'is used": the copula is there, glued to its noun
    return subject, at


# verbs with no passive, whose bare participle is a perfect without its "has" ("Haemoglobin fallen to")
_NO_PASSIVE = frozenset("fall go come rise become arrive happen occur appear die emerge remain".split())  # noqa: SIM905

# verbs that name: "X known as", "X termed as" (a past tense before "as" would be odd: "X called as")
_NAMING_VERBS = frozenset("know call term name describe designate define classify refer label".split())  # noqa: SIM905

# verbs that take an object, whose past form right before a preposition is a telegraphic passive ("Pegloticase used
# in", "Alginate fillers derived from", "X associated with"), not a past tense ("Birds evolved from")
_OBJECT_VERBS = frozenset(
    """
    use derive associate base express measure formulate deposit find give perform produce secrete supply innervate
    describe detect diagnose indicate prefer recommend administer inherit mediate characterize characterise locate
    situate involve cover line obtain prepare store excrete metabolize metabolise synthesize synthesise encode
    control regulate stimulate inhibit block activate release carry transmit create clean treat test demonstrate
    observe inject insert place apply attach mark prescribe calculate estimate determine assess evaluate record
    """.split()  # noqa: SIM905
)


def _put_back(text: str, back: tuple[str, str], adoc: Any) -> str:
    """The present-tense verb :func:`_reparse_text` parsed after "can", agreeing with the answer that is its
    subject ("Histamine causes ...", "Histamine and bradykinin cause ...")."""
    parsed, present = back
    if len(adoc) and _np_plural(adoc[:]):
        present = parsed.split(" ", 1)[1]  # "can best describe" -> "best describe"
    found = list(re.finditer(rf"\b{re.escape(parsed)}\b", text))
    if not found:
        return text
    m = found[-1]  # the question's verb, after the answer ("Drugs that can chelate" + "can chelate with calcium")
    return text[: m.start()] + present + text[m.end() :]


class RuleQA2DConfig(ComponentConfig):
    nlp: dict[str, Any] = {"name": "spacy"}
    negative_stems: Literal["invert", "reject"] = "invert"
    # The LM that chooses between "thermal energy" and "thermal" for an adjective answer (None: always keep the
    # asked noun).
    lm: dict[str, Any] | None = {"name": "ngram"}
    # Sentences before the asking sentence (clinical vignettes, "The unit is named after a physicist."):
    # keep them in the claim, or drop them for short, atomic claims.
    question_context: Literal["keep", "drop"] = "keep"
    # The knowledge base whose spellings give names in lower-cased options their capitals ("mars" -> "Mars",
    # "golgi apparatus" -> "Golgi apparatus", "dna" -> "DNA"; None: the answer keeps its case).
    names: dict[str, Any] | None = {"name": "wordnet"}


class ConversionError(Exception):
    """Raised inside the converter with a machine-readable reason."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


class RuleQA2D:
    """Rule-based question+answer → declarative sentence on a dependency parse (UD labels, PTB tags)."""

    def __init__(self, config: RuleQA2DConfig) -> None:
        self.config = config
        self._nlp = registry.build("nlp", config.nlp)
        self._lm = registry.build("lm", config.lm) if config.lm is not None else None
        self._names = registry.build("kb", config.names) if config.names is not None else None
        self._name_forms: dict[str, str | None] = {}  # _name_form's answers (words repeat across options)
        self._noun_kinds: dict[str, frozenset[str]] = {}  # _noun_types' answers
        self._ratios: dict[str, float | None] = {}  # _plural_ratio's answers (asked per candidate and per claim)
        parts = f"+{self._lm.model_id}" if self._lm is not None else ""
        parts += f"+names:{self._names.model_id}" if self._names is not None else ""
        # v3: gaps after "be" (X is used to measure ?); v4: "What do you call X?" -> "X is called ANSWER", articles
        # for multi-word singular answers, "X is an example of ANSWER", "most" opening a subject, "is called?" blanks,
        # "What is a/an X?" -> "ANSWER is a/an X"; v5: articles by the answer noun's countability (_countability),
        # names in lower-cased options cased from the KB (_cased_names); v6: a passive inside the subject is not the
        # question's verb (_own_auxiliary), a doubled auxiliary said once; v7: where / when left at the end answered in
        # place; v8: articles before answers the tagger misreads alone (_noun_head); v9: "what else", kept-noun
        # articles, no "a" before plurals, the answer's own preposition; v10: the question's names cased
        # (_cased_words); v11: "What does X do (to Y)?" (_what_does_x_do); v12: articles after "of"; v13: review fixes
        # (docs/qa2d_quality.md, session 35); v14: no article before a substance the countability test is unsure of;
        # v15: one object-folding rule for in-situ and fronted "do to" (_fold_object); v16: copular questions with a
        # stranded preposition (_open_predicate), "do" as the asked verb, openers without a comma, "not" after the
        # auxiliary, no exception reading with two negations; v17: a kept asked noun decides the verb's number; v18:
        # "Where in X", "has" before a relative clause's passive; v19: a "do" left by a removed "not", participles in
        # the asked noun; v20: "(all of) the following N" as a blank in place (MedMCQA), list answers plural;
        # v21: "a"/"an" agree with the next word by sound; v22: the answer before a relative clause on it, a
        # parenthetical participle is no main verb, "Which is larger: A or B"; v23: "Approximately how many", a
        # participle before a preposition is a verb, not a modifier; v24: instructions tagged as nouns; v25: fixes from
        # the session's review; v26: object relative clauses after the gap, "that" clauses of verbs like "show"
        # (docs/qa2d_quality.md, session 36); v27: how-many answers that are quantities keep the asked noun ("two or
        # more possible alleles", "thousands of pathogens"), "one" makes it singular and agrees ("There is one type");
        # v28: existential "there" before the rest of the question ("There are single bonds between carbon atoms");
        # v29: "What happens to X?" + a verb or a clause on "it"/"they" -> X as the subject ("Telomeres shorten");
        # v30: the same for "How does X change ...?"; "for what purpose" + an infinitive answer drops "for"; v31:
        # "What is X called when ...?" -> "X is called ANSWER when ..."; v32: fixes from the session's review (the
        # answer's own punctuation, negated contractions, "most of the cells", "change into", nouns such as
        # "damage"); v33: MedMCQA stems (session 38): exam tags and dates after the stem, "All the following N", "in
        # all cases except", "Which one of the following", a verb read as a noun after "the following"
        # (_reparse_text), telegraphic participles ("X seen in"), answers that are the predicate ("Junctional
        # epithelium" + "Is permeable"), noun-phrase stems with a relative clause or an opening phrase, the noun before
        # any preposition decides an answer's number; wh-words after an opening phrase ("In the stomach, which
        # material ...") and "of which N of N" are questions, not relative pronouns; v34: from the session's MedMCQA
        # reading: "WHO" is no question word, "any" goes with a removed "not", "used for" + "to ..." drops "for";
        # v35: articles (session 39 readings): nouns too rare for the plural test take the article the LM's text
        # puts before them ("A sphygmomanometer", "the thermosphere"), a claim opens with one for a clearly countable
        # noun, "-tion"/"-ity" heads with common plurals ("a combustion reaction"), "a" after a subject with "a";
        # v36: yes/no questions with "or" choose from the parse's coordination (_alternative: "Climate change has a
        # negative effect", "Birds and mammals are mainly endothermic"), "mathematics"/"measles" are singular;
        # v37: verbs coordinated with the agreeing one ("make and store"), "type 3" singular, "Why doesn't/can't/
        # won't X ...", a generic plural noun read as a verb ("What objects are made"), a verb read as a noun before
        # "because" ("What form because ..."); v38: from the session-39 paired reading: a process noun ("-tion",
        # "-sion") opens the claim bare ("Delayed reaction is a feature of"), "a" after an indefinite subject only in
        # the answer's sentence (not a vignette's "A 46 years old male ..."), none before "minor"/"major"; v39:
        # "What happens when/if CLAUSE?" (_what_happens_if: "If a catalyst runs out, the reaction slows"); v40: a
        # name read as the verb after "did" ("Sir Isaac newton's famous law helped", was "Sir isaaced"), review
        # fixes: an exact alternative before a longer one, no shared word after a compound alternative ("iron or
        # stainless steel"), a pronoun subject kept ("When they are heated, they expand"), "Why hasn't X ..." with no
        # verb rejected, "has/have" and a verb at the end agree in coordination ("Bacteria grow and reproduce"); v41:
        # "help"/"make"/"let" read as the subject's noun takes the tense ("Fiber helps keep", was "Fiber help keeps");
        # v42 (MedMCQA stems): a run of dashes is a blank and a filled blank keeps its spaces ("Stable angina occurs"),
        # exam lists after a colon dropped ("Diagnosis is:AIIMS 13"), an adjective waiting for its noun ("most typical
        # of mandibular" + "Canine") or "likely" at the end takes the answer after it, "This is because" + a clause, an
        # infinitive answer after a stem that ends in its object ("provides data" + "To monitor disease trends"), a
        # telegraphic last sentence after context sentences ("... as well. Likely type of seizures" + ANSWER), "Not
        # true/False about X" inverted like "Which is not true about X", a subjectless statement answer to a truth stem
        # takes its topic ("Piperacilline inhibits beta-lactamase"), "Which factor of the following contributes",
        # "Which is X is:" said once, the source's "is/are" said once; v43: "True about X is:", "About X all are true,
        # except:" and "Find faulty statement regarding X" name their topic ("Placenta accreta is seen in ...", was
        # "True about placenta accreta is seen in ..."), "Following N" asks "Which N", a note after the last
        # preposition goes ("found in (Maximum incidence)"), an ellipsis run is a blank, a complete clause takes a
        # "where"/"how" answer ("is present" + "In apical area of a tooth"), "its"/"approximately"/"above" at the end
        # wait for the answer, a clause of reason ending on its subject takes a predicate answer ("as they" + "Harden
        # in mouth"), "Are ..." answers to a truth stem take the topic, an action answer after "is" takes "to" after
        # a subject that names an action ("The function of X is to regulate setting time") and loses the copula
        # otherwise ("The steroids exacerbate the inflammatory response", was "are exacerbate"); v44: a noun-phrase
        # answer to a truth stem is a feature of its topic ("Increased prolactin is a feature of polycystic ovarian
        # disease"), of the kind its topic names ("Pneumonia is a complication of measles") or a class the topic
        # belongs to ("Vibrio cholera is a gram positive rod"); "not"/"less"/"more"/an adverb before a predicative
        # answer ("Zika virus is not transmitted ...") and an adjective alone ("X is decremental"); a verb's base form
        # agrees with the topic ("Oxygenases incorporate ..."); "X all statements are true", "Prions true is" name
        # their topic first; "X has the following function" + a predicate ("Dentin conditioner
        # removes smear layer"); a base-form verb read as a noun after "the following" ("TIBC decreases in ...") and
        # the asking sentence's own verb decides, not its context's; "Which of the following ... except" asked once
        # (was "Which of which of the following"); "which among", a gloss or "(s)" on the asked noun; a statement
        # that does not name its topic opens with it ("In unstable angina, pain lasts for 10 minutes"); a predicate
        # after adverbs or before a clause of its own takes the topic; a source or a figure's thing is no topic, and
        # a predicate with no topic is a reject; a capitalised "Which" after a verb stays in place; a class noun at the
        # end takes the answer as its name ("deficiency of factor VIII"); "it" after a final preposition is the blank;
        # context sentences whose verbs the tagger missed do not stop a telegraphic last sentence; v45: a verb that
        # disagrees with a clearly plural subject is made plural ("Topical steroids are ...", _agreeing); a copula
        # said again at the end of a wh-question goes ("Which of the following is X is"); a wh-word in a context
        # sentence is no question when the last sentence ends on an open copula (_context_wh); "This is:" and "that
        # is:" at the end take the answer after the copula; "is;" at the end is "is:"; a fronted "preposition +
        # which" before a clause in plain order takes the answer in its place ("At stage 6, the tooth starts ...");
        # do-support before an "-s" verb ("What does this signifies?"); an ordering question is a reject; v46: a
        # telegraphic participle that can only be passive gets its copula ("Pegloticase is used in ...", "... is caused
        # by", _telegraphic_participle), a noun-phrase stem keeps its relative clause ("The organism which causes
        # bacterial endocarditis is ...", _relative_on_noun), "which of following" is "which of the following", a
        # determiner "which" after "of" asks ("Thermal conductivity of silicate is ..."), an adjective answer in place
        # of "the following N" keeps N ("to assess the extrinsic pathway"), a stem's final comma goes, a plural answer
        # replaces "which N" whose N the tagger read as a verb (_with_plural_asked_noun), an adverb on the asked noun's
        # modifier is in the wh-phrase ("what extremely dense object"), a word tagged finite that is no verb form does
        # not make a stem a clause ("the fissure sealant"), a subordinator and its subject's noun phrase end a stem
        # ("because high copper dental amalgams"), a bare "following" after a verb in the asking sentence is "the
        # following" (after an event noun the preposition: "complication following tonsillectomy"), an editorial note
        # in brackets at the end goes, a period with no space after it ends a sentence ("is XY.What is"), an action
        # answer after a subject that names an action takes "to" also when the tagger reads its verb as a noun ("is
        # to retrieve follicles", _action_answer), "What to do next?" is "What is the next step?", a determiner
        # "which" after a noun on its clause's subject asks ("During mandibular nerve block which nerve also gets
        # damaged"); v47: a plural noun answer also replaces an asked noun the parse left out of the wh-phrase before
        # the clause's verb or at the end after a preposition ("at which gas molecules move", "through pores"), the
        # wh-word as the subject of a clause inside the sentence has its verb agree with the answer ("the reason
        # continents move"), an opening "To" + verb or a later relative pronoun no longer hides a question after the
        # opener's comma ("Of all the pulpal sensibility tests, which is best in a patient who ..."), "which if the
        # following" is "which of the following", a "what" that ends the question is the one it asks when the other
        # "what"s are free relatives ("... understand what happens ... and why they produce so much what?")
        self.model_id = f"rules-v47+{self._nlp.model_id}{parts}"

    def convert(self, requests: Sequence[QA2DRequest], progress: Any = None) -> list[QA2DResult]:
        drop = self.config.question_context == "drop"
        prepared = [
            prepare_question(last_sentence(r.question) if drop else without_figure_sentences(r.question))
            for r in requests
        ]
        qdocs = list(self._nlp.parse([p.text for p in prepared], progress=progress))
        # stems the tagger misread without a finite verb, parsed again as rewritten (:func:`_reparse_text`)
        repairs = {i: r for i, r in enumerate(map(_reparse_text, qdocs)) if r is not None}
        if repairs:
            for i, d in zip(repairs, self._nlp.parse([r[0] for r in repairs.values()]), strict=True):
                qdocs[i] = d
                prepared[i] = dataclasses.replace(prepared[i], text=repairs[i][0])
        adocs = self._nlp.parse([_clean_answer(r.answer) for r in requests])
        results = [self._one(*args) for args in zip(requests, prepared, qdocs, adocs, strict=True)]
        chosen = self._choose_by_lm(requests, prepared, qdocs, adocs, results)
        for i, (_, back) in repairs.items():
            if back is not None and chosen[i].text:
                chosen[i] = chosen[i].model_copy(update={"text": _put_back(chosen[i].text or "", back, adocs[i])})
        out = []
        for r, req, prep, adoc in zip(chosen, requests, prepared, adocs, strict=True):
            if r.text:
                answer = _clean_answer(req.answer)
                text = _no_article_before_plural(_single_preposition(r.text, answer, prep.text), answer)
                if self._names:
                    text = self._cased_words(self._cased_names(text, answer))
                text = agree_indefinite_articles(text)  # "called a what" + "articulation" -> "an articulation"
                text = _action_after_copula(text, answer, adoc)
                r = r.model_copy(update={"text": text})
            out.append(r)
        return self._agreeing(out)

    def _agreeing(self, results: list[QA2DResult]) -> list[QA2DResult]:
        """Claims whose verb disagrees with a clearly plural subject, most often the stem's own error ("Topical
        steroids is most effective in ..."), with the verb made plural (:func:`agreement_repaired`); the claims
        are parsed once here, and the parse cache serves the claim check the same texts."""
        texts = [(i, r.text) for i, r in enumerate(results) if r.text]
        if not texts:
            return results
        reading = verb_reader(self._lm)
        out = list(results)
        for (i, text), doc in zip(texts, self._nlp.parse([t for _, t in texts]), strict=True):
            repaired = agreement_repaired(text, doc, reading)
            if repaired is not None:
                out[i] = results[i].model_copy(update={"text": repaired})
        return out

    def _cased_names(self, text: str, answer: str) -> str:
        """The answer's words in ``text`` (every place it occurs) with the capitals the knowledge base always
        writes them with: the whole answer ("golgi apparatus" -> "Golgi apparatus", "ph" -> "pH") or, failing
        that, each word of three letters or more that is not a function word ("northern africa" -> "northern
        Africa"). Words the KB also writes in lower case ("earth", "sun", "mercury") keep theirs; a claim still
        opens with a capital ("van Gogh" -> "Van Gogh painted ...", but "pH is ...")."""
        if not answer.islower() or not answer.strip():
            return text

        def word(w: re.Match[str]) -> str:
            return self._kb_form(w.group(0)) or w.group(0)

        def span(m: re.Match[str]) -> str:
            found = m.group(0)
            whole = self._name_form(found.lower()) if found in (found.lower(), found.lower().capitalize()) else None
            cased = whole or re.sub(r"(?<![\w-])[A-Za-z][\w'-]{2,}", word, found)
            first = cased.split(" ", 1)[0]
            if m.start() == 0 and cased[:1].islower() and not any(c.isupper() or c.isdigit() for c in first[1:]):
                cased = cased[0].upper() + cased[1:]
            return cased

        return _answer_pattern(answer).sub(span, text)

    def _cased_words(self, text: str) -> str:
        """The claim's other words with the capitals the knowledge base always writes them with: exam questions are
        often lower-cased ("dna", "krebs cycle", "mendel's"), so words taken from the question are cased like the
        answer's (the same guards: not a function word, a verb, an adverb or a common noun's plural, nor a word the
        KB also writes in lower case, "newton", "earth"), and not a word lemminflect knows as a verb, adjective or
        adverb ("acts", "led", "mars") or a name particle ("de broglie")."""

        def word(w: re.Match[str]) -> str:
            form = self._kb_form(w.group(0), from_question=True)
            if form is None:
                return w.group(0)
            return form[0].upper() + form[1:] if w.start() == 0 and not form[1:2].isupper() else form

        return re.sub(r"(?<![\w'-])[A-Za-z][a-z]+(?=(?:'s\b)?(?![\w'-]))", word, text)

    def _kb_form(self, word: str, from_question: bool = False) -> str | None:
        """The KB's capitalised spelling of a word written in lower case (or only capitalised), else None. A word from
        the question also must not be a verb, adjective or adverb to lemminflect ("acts", "led", "fed", "mars"), a
        name particle, or two letters unless the spelling is like "pH", "UV" (not "ta" -> "Ta", "va" -> "VA")."""
        from lemminflect import getAllLemmas

        low = word.lower()
        if word not in (low, low.capitalize()):
            return None  # written with capitals already
        if from_question and (
            low in _NAME_PARTICLES or len(low) < 2 or getAllLemmas(low).keys() & {"VERB", "ADJ", "ADV"}
        ):
            return None
        form = self._name_form(low)
        if form is not None and from_question and len(low) < 3 and (form.istitle() or form in _US_STATES):
            return None
        return form

    def _substance(self, noun: str | None) -> bool:
        """Every noun sense the names KB has for ``noun`` is a substance (WordNet's noun.substance): "keratin",
        "lectin", "lava" (also "atom" and "protein", which the countability test calls count first)."""
        return noun is not None and self._noun_types(noun) == {"noun.substance"}

    def _noun_types(self, noun: str) -> frozenset[str]:
        """The lexicographer types of the names KB's noun senses for ``noun`` ("noun.substance", "noun.state",
        ...); empty without a KB or for a word it does not know."""
        if self._names is None:
            return frozenset()
        if noun not in self._noun_kinds:
            try:
                types = frozenset(t for c in self._names.link(noun) for t in c.types if t.startswith("noun."))
            except ValueError:
                types = frozenset()
            self._noun_kinds[noun] = types
        return self._noun_kinds[noun]

    def _proper_name(self, answer: str) -> bool:
        """A name that takes no article ("Nikola Tesla", "van Gogh", "Mars", "DNA"): the KB spells every word of it
        with a capital (or a name particle), and it names a person, or its last word is not also a common noun ("the
        Atlantic Ocean", "the Milky Way") and it does not name a period ("the Pleistocene"); not "Golgi apparatus"
        or "pH scale"."""
        from lemminflect import getAllLemmas

        form = self._name_form(answer.lower()) if self._names is not None and answer.islower() else None
        if form is None or not all(w[:1].isupper() or w in _NAME_PARTICLES for w in form.split()):
            return False
        types = {t for c in self._names.link(answer.lower()) for t in c.types} if self._names is not None else set()
        if "noun.person" in types:
            return True
        last = form.split()[-1]
        if len(form.split()) > 1 and not last.isupper() and "NOUN" in getAllLemmas(last.lower()):
            return False
        return "noun.time" not in types

    def _name_form(self, key: str) -> str | None:
        """The one spelling of ``key`` in the KB when every entry spelled like it has a capital, else None (never
        for a function word: "us", "it", "or"). A plural of a common noun is not a name, whatever taxon, place or
        person the KB spells like it ("fungi" is not the kingdom "Fungi", "wells" not H. G. "Wells"), nor is an
        adverb or a verb ("forth", the river "Forth"); "mars", which lemminflect knows only as a form of the verb
        "mar", is "Mars"."""
        if key not in self._name_forms:
            self._name_forms[key] = self._lookup_name(key)
        return self._name_forms[key]

    def _lookup_name(self, key: str) -> str | None:
        from lemminflect import getAllLemmas

        if self._names is None or key in _NEVER_NAMES:
            return None
        try:
            concepts = self._names.link(key)
        except ValueError:
            return None
        forms = {f for c in concepts for f in (c.name, *c.aliases) if f.lower() == key}
        if len(forms) != 1:
            return None
        (form,) = forms
        if form == key or not any(ch.isupper() for ch in form):
            return None
        lemmas = getAllLemmas(key)
        if any(x != key for x in lemmas.get("NOUN", ())) or any(key in lemmas.get(p, ()) for p in ("ADV", "VERB")):
            return None  # "fungi" (fungus), "fields", "wells"; "forth", "march"
        return form

    def _choose_by_lm(
        self,
        requests: Sequence[QA2DRequest],
        prepared: list[Prepared],
        qdocs: list[Any],
        adocs: list[Any],
        results: list[tuple[QA2DResult, bool, bool]],
    ) -> list[QA2DResult]:
        """Wordings the rules cannot decide, chosen by the LM: an adjective answer to "what N" keeps the noun
        ("what type of energy" + "thermal" -> "thermal energy"), but "salt", "mass" and "immune" are adjectives and
        nouns alike, so the claim without the noun is made too; an answer headed by a singular count noun
        ("polysaccharide", "excretory system") is tried with "the" and "a" (not one used as a verb, "can only
        contract"). An alternative replaces the claim when its perplexity is at least 15% lower."""
        out = [r for r, _, _ in results]
        if self._lm is None:
            return out
        variants: dict[int, tuple[list[str], list[int]]] = {}
        # an adjective answer that kept the asked noun is judged with it ("circulatory" + "system": "by the
        # circulatory system"): the answer and the word after it, parsed together
        kept = {
            i: m.group(0)
            for i, (req, r) in enumerate(zip(requests, results, strict=True))
            if r[1] and out[i].text
            for m in [re.search(rf"{_answer_pattern(_clean_answer(req.answer)).pattern}\s+[a-z]+", out[i].text or "")]
            if m
        }
        kept_docs = dict(zip(kept, self._nlp.parse(list(kept.values())), strict=True)) if kept else {}
        for i, (req, prep, qdoc, adoc) in enumerate(zip(requests, prepared, qdocs, adocs, strict=True)):
            text = out[i].text
            if not text:
                continue
            cands = [text]
            if results[i][1]:
                alt, _, _ = self._one(req, prep, qdoc, adoc, keep_noun=False)
                if alt.text and alt.text != text:
                    cands.append(alt.text)
            raw, clean = req.answer.strip(), _clean_answer(req.answer)
            # not before a verb answer, nor before a one-word option the exam capitalised when it opens the claim
            # ("Aspirin reduces fever": lowered by _clean_answer, the LM would make it "The aspirin reduces")
            opens = raw[:1].isupper() and " " not in raw and text.lower().startswith(clean.lower())
            defaults = [0]  # the candidates the claim may stay with; the others must be clearly more fluent
            if not results[i][2] and not opens and not self._proper_name(clean):
                phrase_doc = kept_docs.get(i, adoc)
                arts, head, slot = _article_variants(text, kept.get(i, clean), phrase_doc)
                if i in kept and (not arts or (head or "").endswith(_MASS_LIKE_SUFFIXES)):
                    # "liquid equations": a plural head, "moist environment": a mass-like one; the answer alone
                    phrase_doc = adoc
                    arts, head, slot = _article_variants(text, clean, adoc)
                kind = self._countability(head) if arts else None
                ratio = self._plural_ratio(head) if kind in ("count", "unique") else None
                # an article only its context shows ("the", or "a" with few plurals): not before a substance ("the
                # acetylene", "the topsoil", "The marble, made of"); "a polypeptide", "an amine" stay
                if (kind == "unique" or (ratio is not None and ratio < COUNT_PLURALS)) and self._substance(head):
                    kind = None
                tagged = any(t.lower_ == head and t.tag_ == "NN" for t in phrase_doc)  # not by lemminflect only
                if (
                    kind is None
                    and self._substance(head)
                    and not (head or "").endswith(_COUNT_SUBSTANCE_SUFFIXES)
                    and not _modifies_next_noun(text, kept.get(i, clean), qdoc)  # "the subsoil layer"
                ):
                    kind = "mass"  # unsure by frequency, a substance by the KB: "keratin", "lava", "telomerase"
                # "biochemistry", "anatomy", "respiration", "cortisone", "erosion": see "counted" below
                mass_like = head is not None and head.endswith(_MASS_LIKE_SUFFIXES)
                strong = kind == "count" and (ratio is None or ratio >= STRONG_COUNT_PLURALS)
                # opening the claim, before the verb (not "Chain reaction is formed ...": it modifies a noun)
                # nor a field of study ("Earth science includes ...")
                opening = (
                    not slot.strip()
                    and i not in kept
                    and not _nouns_after(text, clean, qdoc, ("NOUN", "PROPN"))
                    and head != "science"
                )
                # a mass-like head takes one only inside the claim, as the head of a longer answer with common
                # plurals ("through a chemical reaction", "A multicellular organism has"; not "called the
                # contraction", "by a barking", "is called an electronegativity"); a process never opens the claim
                # with one ("Delayed reaction is a feature of anaphylaxis", not "The delayed reaction": session-39
                # paired reading)
                counted = (
                    ratio is not None
                    and ratio >= STRONG_COUNT_PLURALS
                    and " " in clean.split(" of ")[0]  # "a chemical reaction", not "protrusion of mandible"
                    and not any(w.endswith("ing") for w in clean.split())  # "controlling emotion", "a barking"
                )
                if (
                    kind == "mass"
                    or (kind not in ("count", "unique") and not tagged)
                    or (mass_like and not counted)
                    or ((head or "").endswith(("tion", "sion")) and not slot.strip())  # a process opening the claim
                    or head in ("minor", "major")  # "thalassemia minor"
                ):
                    arts = []  # "is an insulin", "is the glucose", "called a pressure", "The marble": no article
                else:
                    # where a bare singular count noun is not English: after "is called", "an example of", "is",
                    # "into" ...; opening the claim when one of a kind ("The thermosphere is above"), rare and
                    # countable ("A sphygmomanometer is used"), or a modified noun with common plurals ("A
                    # confined aquifer is"; not "Science is a way of", "Effort is defined as")
                    layer = _earth_layer(head)
                    clearly = layer or (strong and (ratio is None or " " in clean))
                    # (nor a gerund with its object: "by inhibiting acetylcholinesterase"; the parse of an answer
                    # alone reads "diverging lens" so too: only before a rare noun)
                    gerund = (
                        len(phrase_doc) > 1
                        and phrase_doc[0].tag_ == "VBG"
                        and phrase_doc[0].dep_ == "ROOT"
                        and ratio is None
                    )
                    predicate = bool(_PREDICATE_SLOT.search(slot)) and not mass_like and not gerund
                    needs = predicate or (opening and clearly)
                    if kind == "unique":  # "the" only; by default for Earth's layers ("the thermosphere"), else
                        arts = arts[:1]  # when the LM clearly prefers it ("The sartorius is", "The glomerulus is")
                        defaults = [len(cands)] if needs and layer else defaults
                    elif kind == "count" and needs:
                        # "the" or "a" by default ("is called a diverging lens"), "a" after a subject with "a" in
                        # the same sentence ("A wall of rocks or concrete is called a groin"; not after a
                        # vignette's "A 46 years old male ..."); the bare wording only when clearly more fluent
                        sentence = re.split(r"(?<=[.!?])\s+", slot)[-1]
                        indefinite_subject = bool(sentence.strip()) and re.match(r"an?\s", sentence, re.I) is not None
                        defaults = [len(cands) + 1] if indefinite_subject else [len(cands), len(cands) + 1]
                cands += arts
            if len(cands) > 1:
                variants[i] = (cands, defaults)
        if not variants:
            return out
        flat = [c for i in sorted(variants) for c in variants[i][0]]
        ppl = self._lm.perplexity(flat)
        k = 0
        for i in sorted(variants):
            cands, defaults = variants[i]
            default = min(defaults, key=lambda j: (ppl[k + j], j))
            best = min(range(len(cands)), key=lambda j: (ppl[k + j], j))
            # another wording only when clearly more fluent, not noise ("is an oxygen")
            clearly = best not in defaults and ppl[k + best] < LM_MARGIN * ppl[k + default]
            chosen = best if clearly else default
            if chosen:
                out[i] = out[i].model_copy(update={"text": cands[chosen]})
            k += len(cands)
        return out

    def _countability(self, noun: str | None) -> Literal["count", "mass", "unique"] | None:
        """Whether a singular noun takes "a": "count" when its most frequent plural occurs in the LM's training
        text at least :data:`COUNT_PLURALS` times as often as the singular ("reaction" 0.83, "lens" 0.68, "system"
        0.28); "mass" when lemminflect's first plural is the word itself ("sucrose", "ammonia", "steam"; not
        "apparatus") or plurals are rarer than :data:`MASS_PLURALS` ("insulin", "blood"), unless the noun mostly
        follows "the" (its pointwise mutual information with "the" at least :data:`UNIQUE_THE`: "neck",
        "diaphragm", "retina"); "unique" for a "-sphere"; for a rare or unknown word, or one whose plurals are
        neither rare nor frequent, the article its text puts before it (:meth:`_article_affinity`); None when unsure
        (then the LM alone chooses, as for an LM without a frequency table)."""
        from lemminflect import getAllInflections, getAllLemmas

        frequency_lm = self._lm
        frequency = getattr(frequency_lm, "word_frequency", None)
        if noun is None or frequency_lm is None or frequency is None:
            return None
        if _earth_layer(noun):
            return "unique"
        singular = frequency(noun)
        ratio = self._plural_ratio(noun)
        lemmas = getAllLemmas(noun)
        if ratio is None and lemmas and "NOUN" not in lemmas:
            return None  # an adjective or a verb ("a moist environment")
        if ratio is None:
            affinity = self._article_affinity(noun, singular)
            # "the" only for a rare word ("the permafrost"), not a known one ("the electronegativity")
            return affinity if affinity == "count" or (singular or 0.0) < MIN_NOUN_FREQUENCY else None
        forms = getAllInflections(noun, upos="NOUN").get("NNS", ())
        same = bool(forms) and forms[0] == noun  # an unchanged plural: uncountable
        if ratio >= COUNT_PLURALS and not same:
            return "count"
        if noun.endswith("s"):  # "apparatus", "series", "species"
            return None
        if ratio >= MASS_PLURALS and not same:  # between: "a" before it may tell ("a groin"; not "the development")
            return "count" if self._article_affinity(noun, singular) == "count" else None
        # a noun that mostly follows "the" ("the diaphragm", "the lack of", "the ph") is left to the LM
        assert singular  # a ratio was computed
        unique = frequency_lm.next_word_logprob("the", noun) - math.log(singular) >= UNIQUE_THE
        return None if unique else "mass"

    def _plural_ratio(self, noun: str | None) -> float | None:
        """How often the noun's most frequent plural occurs in the LM's training text per occurrence of the
        singular; None for a word lemminflect does not know as a noun, one too rare to tell
        (:data:`MIN_NOUN_FREQUENCY`), or an LM without a frequency table."""
        from lemminflect import getAllInflections, getAllLemmas

        frequency = getattr(self._lm, "word_frequency", None)
        if noun is None or frequency is None or "NOUN" not in getAllLemmas(noun):
            return None
        if noun not in self._ratios:
            singular = frequency(noun)
            forms = getAllInflections(noun, upos="NOUN").get("NNS", ())
            rare = singular is None or singular < MIN_NOUN_FREQUENCY
            plural = max((frequency(p) or 0.0 for p in forms if p != noun), default=0.0)
            self._ratios[noun] = None if rare else plural / singular
        return self._ratios[noun]

    def _article_affinity(self, noun: str, singular: float | None) -> Literal["count", "unique"] | None:
        """For a noun too rare for its plurals to tell, or one lemminflect does not know ("solenoid",
        "sphygmomanometer", "asthenosphere"): the article the LM's training text puts before it. "count" when it
        follows "a"/"an" clearly more often than chance and than "the" ("a biome", "a solenoid"); "unique" when it
        follows "the" so, and not "a" ("the permafrost", "the asthenosphere"); None when the text does not tell
        ("lignin", "tetrapod", "phylogeny": the LM alone chooses, as before), and for a condition, whose "a"
        belongs to the noun it modifies ("an influenza virus")."""
        assert self._lm is not None
        if not singular or singular < MIN_RARE_FREQUENCY:
            return None
        if "noun.state" in self._noun_types(noun):
            return None  # "an influenza virus", "a thalassemia trait": the article of the noun it modifies
        pmi_a = self._lm.next_word_logprob(indefinite_article(noun), noun) - math.log(singular)
        pmi_the = self._lm.next_word_logprob("the", noun) - math.log(singular)
        if pmi_a >= RARE_ARTICLE_PMI and pmi_a >= pmi_the + RARE_ARTICLE_PMI:
            return "count"
        if pmi_the >= RARE_ARTICLE_PMI and pmi_the >= pmi_a + RARE_ARTICLE_PMI:
            return "unique"
        return None

    def _one(
        self, req: QA2DRequest, prep: Prepared, qdoc: Any, adoc: Any, keep_noun: bool = True
    ) -> tuple[QA2DResult, bool, bool]:
        """The result, whether an adjective answer kept the asked noun, and whether the answer is used as a verb."""
        if prep.inverted and self.config.negative_stems == "reject":
            return QA2DResult(text=None, reason="negative_stem"), False, False
        polarity: Literal["as_is", "inverted"] = "inverted" if prep.inverted else "as_is"
        answer = _clean_answer(req.answer)
        if not prep.text:
            return QA2DResult(text=None, reason="empty_question"), False, False
        if not answer:
            return QA2DResult(text=None, reason="empty_answer"), False, False
        try:
            asked = req.question.rstrip().endswith("?")
            flags: dict[str, Any] = {"keep_noun": keep_noun, "dropped_not": prep.dropped_not, "asked": asked}
            text = declarative(prep.text, qdoc, answer, adoc, flags)
            if _OPTIONS_LEFT.search(text):  # "..., or all the following muscles are attached to ...": two stems
                raise ConversionError("unsupported_question_form", "the options still named in the claim")
        except ConversionError as e:
            return QA2DResult(text=None, reason=e.reason), False, False
        return (
            QA2DResult(text=finish(text), polarity=polarity),
            bool(flags.get("kept_noun")),
            bool(flags.get("verb_answer")),
        )


@registry.register("qa2d", "rules", RuleQA2DConfig)
def build_rules(config: RuleQA2DConfig) -> RuleQA2D:
    """Rule-based QA2D on the embedded parser (default)."""
    return RuleQA2D(config)


# --------------------------------------------------------------------------------------------------
# Conversion


@functools.lru_cache(maxsize=65536)  # pure; convert() asks for each request's answer several times
def _clean_answer(answer: str) -> str:
    """Whitespace, trailing punctuation, and sentence-case options ("Vitamin A deficiency", "A malignant
    neoplasm", "Malaria") lower-cased so they read well mid-sentence; names ("Charles Darwin", "Castleman") and
    acronyms kept (the pipeline restores a name's capital from the explanation)."""
    a = re.sub(r"[.;:,]+$", "", " ".join(answer.split())).strip()
    words = a.split()
    if not words:
        return a
    w = words[0]
    titlecase = len(w) > 1 and w[0].isupper() and w[1:].islower() and w.isalpha()
    if titlecase and (w.lower() in _LOWER_OK or (len(words) > 1 and not all(x[:1].isupper() for x in words))):
        a = w.lower() + a[len(w) :]
    elif w == "A" and len(words) > 1 and words[1].islower():  # "A malignant neoplasm"
        a = "a" + a[1:]
    elif titlecase and len(words) == 1 and _common_word(w.lower()):  # "Malaria", "Copper"; not "Castleman"
        a = w.lower()
    return a


def _common_word(word: str) -> bool:
    """A word the dictionary knows as a common noun, adjective or verb (not a name: "darwin" is unknown)."""
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word))


_LOWER_OK = frozenset(
    [
        "a",
        "an",
        "the",
        "both",
        "all",
        "none",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "increased",
        "decreased",
        "increase",
        "decrease",
        "normal",
        "high",
        "low",
        "more",
        "less",
        "most",
        "least",
    ]
)


def declarative(q: str, qdoc: Any, answer: str, adoc: Any, flags: dict[str, Any] | None = None) -> str:
    """The declarative sentence for one (question, answer); raises ConversionError. ``flags``: in
    ``keep_noun`` (default True) whether an adjective answer keeps the asked noun; out ``kept_noun``, whether
    it did, and ``verb_answer``, whether the answer replaced "do what" as a verb (no article is tried before it)."""
    flags = {} if flags is None else flags
    blank = _BLANK.search(q)
    if blank:  # the answer in the blank's place, with a space where the blank touched a word ("____occurs")
        before, after = q[: blank.start()], q[blank.end() :]
        before = re.sub(r"\s*:\s*$", "", before)  # "Drug of choice is:______" -> "... is Atropine"
        space_before = " " if before[-1:].isalnum() or before[-1:] in ";," else ""
        return f"{before}{space_before}{answer}{' ' if after[:1].isalnum() else ''}{after}"
    if _ORDERING.search(q):
        raise ConversionError("ordering_question", "the answer is an order of options")
    toks = [t for t in qdoc if not t.is_space]
    if not toks:
        raise ConversionError("empty_question")
    first = toks[0].lower_
    if first in IMPERATIVES and toks[0].tag_ in ("VB", "NN", "NNP", "VBP") and len(toks) > 1:
        return _imperative(qdoc, answer, adoc)
    if _TRUTH_STEM.search(q):
        return _statement_answer(answer, adoc, _truth_topic(q))
    named = _naming_question(q, qdoc, answer)
    if named is not None:
        return named
    if _ENDS_NAMED.search(q):  # "The measure of how much X decreases ... is called" + ANSWER: a blank at the end
        cut = max((m.end() for m in re.finditer(r"[.!?]\s+", q)), default=0)  # context sentences stay as they are
        context, last = q[:cut], q[cut:]
        lead = re.match(r"(?:what|which)\s+(?:is|are|was|were)\s+(?=(?:the|a|an)\b)", last, re.I)
        if lead:  # "What is the process of producing eggs is called" -> "The process of producing eggs is called"
            return context + _sentence_start(context, last[lead.end() :]) + " " + answer
        if not re.match(r"\s*(?:what|which|who|whom|whose|how|where|when|why)\b", last, re.I):
            return q + " " + answer
    wh = _find_wh(qdoc)
    if wh is not None and _context_wh(qdoc, wh):
        wh = None
    if wh is None:
        if first in AUX_WORDS:
            return _yes_no(qdoc, answer)
        return _declarative_stem(qdoc, answer, adoc, asked=bool(flags.get("asked")))
    return _wh_question(qdoc, wh, answer, adoc, flags)


def _context_wh(qdoc: Any, wh: WhPhrase) -> bool:
    """Whether the wh-word belongs to a context sentence while the last sentence asks on its own with an open
    copula at its end ("... reveals an AOD 450 of 0.20 which is at the top of third zone of the liley curve. The
    most appropriate management of such a case is:"): the wh-word is then a relative pronoun the tagger missed."""
    words = [t for t in qdoc if not t.is_punct]
    if not words or words[-1].lower_ not in ("is", "are", "was", "were", "be"):
        return False
    # the last full stop inside the text (not a split the parser made: "What type of particles | can a beta ...")
    stop = max((t.i for t in qdoc[: words[-1].i] if t.text in (".", "!", "?")), default=-1)
    return wh.word.i < stop and not any(_is_wh_word(t) for t in qdoc[stop + 1 :])


# "What do you call X?" names X: "X is called ANSWER", not "You call X ANSWER" (179 of SciQ's train questions)
_NAMING = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=,\s))what\s+(do|does|did)\s+(?:you|we|they|people|one|scientists|biologists|chemists|"
    r"physicists|geologists|ecologists|astronomers|doctors)\s+call\s+"
    r"(?!(?:it|this|that|these|those|them|when|if)\b)(?P<named>.+?)[\s?]*$",
    re.I,
)


# "What is the term for X?" names X too: "X is called ANSWER" (397 SciQ train questions ask for a name or term)
_TERM_FOR = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=,\s))(?:what|which)\s+(is|are|was|were)\s+the\s+(?P<term>name|term|word)s?\s+"
    r"(?:of|for|given to|used for|used to describe)\s+(?!(?:it|this|that|these|those|them|when|where|if)\b)"
    r"(?P<named>.+?)[\s?]*$",
    re.I,
)


def _naming_question(q: str, qdoc: Any, answer: str) -> str | None:
    """'What do you call a species that has died out?' + 'extinct' -> 'A species that has died out is called
    extinct.'; 'What is the term for the force of attraction between masses?' + 'gravity' -> 'The force of
    attraction between masses is called gravity.' The named phrase's head noun (the object of "call", or of "the
    term for") decides "is" or "are"; None for other questions."""
    m = _NAMING.search(q)
    if m is not None:
        start = m.start("named")
        head = next(
            (t for t in qdoc if t.idx >= start and t.dep_ in ("obj", "dobj") and t.head.lemma_.lower() == "call"),
            None,
        )
        past = m.group(1).lower() == "did"
    else:
        m = _TERM_FOR.search(q)
        if m is None or _ENDS_NAMED.search(q):
            return None
        start = m.start("named")
        term = next((t for t in qdoc if t.idx == m.start("term")), None)
        head = next(
            (
                t
                for t in qdoc
                if t.idx >= start and term is not None and t.head.i == term.i and t.dep_ in ("nmod", "obl")
            ),
            None,
        )
        past = m.group(1).lower() in ("was", "were")
    plural = _named_plural(qdoc, start, head)
    verb = ("were" if plural else "was") if past else ("are" if plural else "is")
    named = m.group("named")
    first = next((t for t in qdoc if t.idx == start), None)
    if first is not None and first.tag_ not in ("NNP", "NNPS") and not _acronym(first.text):
        named = named[0].lower() + named[1:]
    if re.search(r",\s+(?:which|who)\b", named):
        named += ","  # "the process, which is often mandated by law, is called reclamation"
    prefix = q[: m.start()]
    return prefix + _sentence_start(prefix, f"{named} {verb} called {answer}")


_ENDS_NAMED = re.compile(r"\b(?:is|are|was|were)\s+(?:called|known as|termed|named|referred to as|defined as)$", re.I)
_SINGULAR_VERBS = frozenset({"is", "was", "has", "does"})
_PLURAL_VERBS = frozenset({"are", "were", "have", "do"})


def _named_plural(qdoc: Any, start: int, head: Any | None) -> bool:
    """Whether the phrase named by "what do you call ..." is plural. The tagger misreads these heads ("stems" as a
    verb, "species" as plural, "proteins" as singular), so its article, the verb of its relative clause and the
    word's form decide before the tag."""
    words = [t for t in qdoc if t.idx >= start]
    if words and words[0].lower_ in ("a", "an", "each", "every", "any", "one"):
        return False
    if head is None:
        return False
    if any(c.dep_ == "conj" and any(g.dep_ == "cc" and g.lower_ == "and" for g in c.children) for c in head.children):
        return True  # "X and Y" (not "X or Y", nor an "and" inside a relative clause)
    relatives = [c for c in head.children if c.dep_ in ("acl:relcl", "relcl")]
    for rel in relatives:  # "stems that run": the verb agrees with the head when the relative pronoun is its subject
        if not any(
            c.dep_ in ("nsubj", "nsubj:pass", "dep") and c.lower_ in ("that", "which", "who") for c in rel.children
        ):
            continue
        finite = [t for t in rel.subtree if t.i <= rel.i and t.tag_ in ("VBZ", "VBP", "VBD") or t.i == rel.i]
        for t in finite:
            if t.tag_ == "VBZ" or t.lower_ in _SINGULAR_VERBS:
                return False
            if t.tag_ == "VBP" or t.lower_ in _PLURAL_VERBS:
                return True
    return _plural_form(head.text) or (head.tag_ in ("NNS", "NNPS") and head.lower_ != "species")


_TRUTH_STEM = re.compile(
    r"\b(which|what)( of the following| of these)?( statements?| options?)?\s+(is|are)\s+(true|correct|accurate)\b"
    r"|\b(true|correct|accurate)\s+(statements?|options?)\b|\b(true|correct) (is|are) all\b",
    re.I,
)


# what a truth stem is about: "... true about/regarding/for X", "About X, which of the following are true"
_TOPIC = re.compile(
    rf"\b(?:true|correct|accurate)\s+{_TOPIC_PREPOSITION}\s+(?P<t>[^,?:;]+?)\s*(?:[,?:;]|$)"
    r"|^(?:about|regarding)\s+(?P<t2>[^,]+?)\s*,",
    re.I,
)
# "is:", "are", "is/are" at the end of a stem or a topic ("False about X is/are:")
_TRAILING_COPULA = re.compile(r"\s+(?:is|are)(?:\s*/\s*(?:is|are))?[\s:?.\-\u2013]*$", re.I)
# what stands before the topic itself: "true in relation to hepatitis B", "true in case of diabetes"
_TOPIC_FRAME = re.compile(
    r"^(?:(?:relation|regard|respect|reference)\s+to|(?:the\s+)?(?:case|context|respect)\s+of)\s+", re.I
)
# a topic whose head is a relation to a thing: "It" / "They" in the answer is the thing ("Use of articaine ..." + "It
# is an amide" -> "Articaine is an amide"; "The treatment of malaria" + "It is caused by Plasmodium")
_RELATIONAL_HEADS = frozenset(
    {
        "use",
        "uses",
        "treatment",
        "management",
        "administration",
        "features",
        "diagnosis",
        "role",
        "effect",
        "effects",
        "complications",
        "properties",
        "property",
        "functions",
        "function",
        "prevention",
        "types",
    }
)


def _truth_topic(q: str) -> str | None:
    """What a truth stem is about, as a subject: "... true about piperacilline is" -> "piperacilline", "... true in
    relation to hepatitis B" -> "hepatitis B"; None for "the following", pronouns and "in general"."""
    m = _TOPIC.search(q)
    topic = m and (m.group("t") or m.group("t2"))
    if not topic:
        return None
    topic = re.sub(rf"^(?:with\s+|in\s+)?{_TOPIC_PREPOSITION}\s+", "", topic.strip(), flags=re.I)  # "regarding for X"
    topic = _TOPIC_FRAME.sub("", _TRAILING_COPULA.sub("", topic))
    topic = re.sub(r"^with\s+(?:respect|regard|reference)\s+to\s+", "", topic, flags=re.I)
    if not topic or re.match(
        r"(?:the\s+following|these|them|this|it|general|the\s+same|according\s+to|as\s+per)\b", topic, re.I
    ):
        return None  # a pronoun, or a source ("According to 2010 ACLS guidelines, all of the following are true")
    figure = r"^the\s+(?:given|above|below)\b|\b(?:given|shown|above|below|depicted|mentioned)\s*$|above-mentioned"
    if re.search(figure, topic, re.I):
        return None  # a figure or another question's text: "instrument given", "the above-mentioned situation"
    return topic


def _pronoun_referent(topic: str) -> str:
    """What "It"/"They" of an answer stands for: the topic, or the thing a relational topic is about ("use of
    articaine in a child" -> "articaine", "the treatment of malaria" -> "malaria")."""
    head, of, rest = re.sub(r"^(?:the|a|an)\s+", "", topic, flags=re.I).partition(" of ")
    if of and head.split()[-1].lower() in _RELATIONAL_HEADS:
        return re.split(r"\s+(?:in|for|with|to|on|at|by|during|after|over)\s+", rest, maxsplit=1)[0]
    return topic


def _statement_answer(answer: str, adoc: Any, topic: str | None = None) -> str:
    """'Which of the following is true about X?' + a statement: the claim is the statement itself; a statement
    without its subject takes the topic X as its subject: "Inhibits beta-lactamase", "Can be done in prone
    position", "It is non-halophilic", "Active against Pseudomonas" ("X is active against Pseudomonas"),
    "Decremental" ("X is decremental"), "Belong to family flaviviridae" ("Zika virus belongs to ..."); a noun phrase
    is a feature or a class of X (:func:`_feature_claim`)."""
    if topic and len(adoc):
        first = adoc[0]
        # finite verbs of the answer's own clause: not a second predicate ("... & hence provides") nor one in a
        # relative clause ("Has choline base which has labile methyl group")
        # (nor one in a clause of its own: "Can be applied when foetal head is above ...")
        inner = next((t.i for t in adoc if t.lower_ in _INNER_CLAUSE_WORDS and t.i > 0), len(adoc))
        finite_after = [t for t in adoc[1:inner] if _real_finite(t) and not _coordinated_predicate(adoc, t.i)]
        if first.lower_ in ("it", "they") and len(adoc) > 1 and adoc[1].pos_ in ("VERB", "AUX"):
            rest = answer[len(first.text) :]
            rest = re.sub(r"^'s\b", " is", re.sub(r"^'re\b", " are", rest))  # "It's an amide" -> "X is an amide"
            return f"{_pronoun_referent(topic)}{rest}"
        said = answer[0].lower() + answer[1:]
        # the verb may follow adverbs: "Mainly affects young females"
        lead = next((t for t in adoc if t.tag_ not in ("RB", "RBS", "RBR")), first)
        verb_first = (
            lead.tag_ in ("VBZ", "MD")
            or lead.lower_ in ("is", "are", "was", "were")  # "Are helper T cells"
            or (lead.i == 0 and lead.lower_.endswith("s") and _is_verb_form(lead.lower_, ("VBZ",)))
        )
        finite_after = [t for t in finite_after if t.i > lead.i]
        if verb_first and not finite_after and len(adoc) > 1:
            # (not a subject read as a verb: "Blisters are present", "Signs ... subsides")
            return f"{topic} {said}"
        plural = _topic_plural(topic)
        if (
            len(adoc) > 1
            and base_verb_only(first.lower_)  # not "Increase in phosphate concentration"
            and first.lower_ not in _INSTRUCTIONS  # "Avoid in pregnancy" is said to the clinician
            and adoc[1].pos_ != "ADV"  # "Administer slowly intravenously"
            and not finite_after
            and _topic_acts(topic)
        ):
            # a verb's base form: it agrees with the topic ("Oxygenases incorporate 2 atoms of oxygen", "Zika virus
            # belongs to family flaviviridae")
            return f"{topic} {said if plural else _inflected_answer(said, 'VBZ')}"
        clause = next((t.i for t in adoc if t.lower_ in _SUBORDINATORS), len(adoc))  # "when platelet count is ..."
        # "Not transmitted from mother to newborn", "Less neurotoxic than cyclophosphamide", "Readily inactivated by
        # autoclave": the word after "not"/"less"/"more" or an adverb is the one that must be an adjective or participle
        opener = first.lower_ in ("not", "less", "more") or first.tag_ == "RB"
        k = 1 if opener and len(adoc) > 2 and adoc[1].tag_ in ("JJ", "VBN") else 0
        # "Used in", "Active against"; not "Decreased FEV1"
        predicative = len(adoc) > k + 1 and adoc[k + 1].tag_ in ("IN", "TO", "RB", "WRB")
        # an adjective phrase alone: "Decremental", "Mostly mediastinal", "Reversible"
        adjectival = adoc[-1].tag_ == "JJ" and all(t.tag_ in ("JJ", "RB", "CC") for t in adoc) and len(adoc) <= 3
        verbless = not any(t.tag_ in FINITE_TAGS for t in adoc[:clause])
        if (adoc[k].tag_ in ("JJ", "VBN") and predicative and verbless) or adjectival:
            return f"{topic} {'are' if plural else 'is'} {said}"
    if not any(t.tag_ in FINITE_TAGS for t in adoc):
        feature = _feature_claim(answer, adoc, topic) if topic else None
        if feature is None:
            raise ConversionError("statement_answer_without_verb")
        return feature
    if not topic and len(adoc) and (adoc[0].tag_ in ("MD", "VBZ", "VBP") or adoc[0].lower_ in BE_FORMS):
        # "All of the following are true about the given instrument except" + "Can be done in prone position": a
        # predicate whose subject is in a figure
        raise ConversionError("statement_answer_without_subject", "a predicate with no topic to be its subject")
    if topic and _OPTION_LETTERS.match(answer):
        raise ConversionError("answer_refers_to_options", "a statement about the options by their letters")
    if (
        topic
        and not _mentions_topic(answer, topic)
        and not re.match(r"(?:the\s+)?uses?\s+of\b", topic, re.I)
        and not _topic_kind(topic)
        and _topic_head(topic) not in _RELATIONAL_HEADS
        and any(t.dep_.startswith(("nsubj", "csubj")) or t.dep_ == "expl" for t in adoc)  # a clause with a subject
        # and a verb (not "Pulsus bisferiens", "Converge downwards & medially" parsed with "-s" words as verbs)
        and any(_real_finite(t) for t in adoc)
    ):
        # a statement that does not say what it is about: "Unstable angina, true is" + "Pain lasts for 10 minutes"
        # -> "In unstable angina, pain lasts for 10 minutes" (not "Pain lasts for 10 minutes")
        word = answer.split()[0]
        said = answer if _acronym(word) or len(word.strip(",")) == 1 else answer[0].lower() + answer[1:]
        return f"In {topic}, {said}"
    return answer


def _real_finite(t: Any) -> bool:
    """A token tagged as a finite verb that is one: an auxiliary or a verb form of that tense (not "downwards" or
    "bisferiens" tagged VBZ)."""
    return t.tag_ in FINITE_TAGS and (t.lower_ in AUX_WORDS or _is_verb_form(t.lower_, (t.tag_,)))


_INNER_CLAUSE_WORDS = frozenset({"which", "that", "who", "whose", "when", "if", "because", "as", "since", "while"})


def _mentions_topic(answer: str, topic: str) -> bool:
    """Whether a statement answer names its truth stem's topic (a content word of four letters or more, or an
    acronym, in any case, singular or plural: "Prostate cancer most commonly ..." names "prostate cancer",
    "Oxygenase incorporates ..." names "oxygenases"; "laryngeal" does not name "larynx")."""
    pattern = r"[A-Za-z][\w-]{3,}|[A-Z]{2,}"
    words = {w.lower().rstrip("s") for w in re.findall(pattern, topic) if w.lower() not in STOPWORDS}
    said = {w.lower().rstrip("s") for w in re.findall(pattern, answer)}
    return not words or bool(words & said)


# a statement about the options by their letters: "a is false and b, c, d are true", "a and c"
_OPTION_LETTERS = re.compile(r"^\(?[a-e]\)?(?:\s*(?:,|&|and)\s*\(?[a-e]\)?)*(?:\s+(?:is|are)\b|\s*$)", re.I)


def _topic_head(topic: str) -> str:
    """The head noun of a truth stem's topic, lower-cased: the last word before any preposition ("use of articaine"
    -> "use", "iron supplementation in anemia" -> "supplementation")."""
    return re.split(r"\s+(?:of|in|for|with|to|on|at|by|during|after)\s+", topic, maxsplit=1)[0].split()[-1].lower()


def _topic_plural(topic: str) -> bool:
    """Whether a truth stem's topic is plural, by its head noun: "use of articaine" is singular, "oxygenases" plural."""
    low = _topic_head(topic)
    return bool(_plural_form(low)) or (
        low.endswith("s") and not low.endswith(("ss", "us", "is")) and low not in _SINGULAR_IN_S
    )


def _topic_acts(topic: str) -> bool:
    """Whether a truth stem's topic can be the subject of an answer's verb: a thing ("oxygenases", "Zika virus"), not
    an action or a relation done to one ("iron supplementation in ...", "treatment of malaria", "mechanism of action"),
    whose answer in the base form is an instruction ("Administer a small diluted dose first")."""
    head = _topic_head(topic)
    return head not in _RELATIONAL_HEADS and head != "mechanism" and not head.endswith(_ACTION_SUFFIXES)


_ACTION_SUFFIXES = ("tion", "sion", "ment", "ance", "ence", "ing")
# base-form answers that instruct the reader ("Avoid in pregnancy", "Administer slowly"), not what the topic does
_INSTRUCTIONS = frozenset(
    """
    avoid give administer use monitor stop start prefer withhold apply treat perform add check measure prescribe
    advise continue discontinue repeat refer reassure observe
    """.split()  # noqa: SIM905
)


# plural heads of a truth stem's topic that name a kind of fact about a thing: "True about complications of measles"
# + "Pneumonia" -> "Pneumonia is a complication of measles"
_KIND_HEADS = frozenset(
    """
    features complications effects signs symptoms causes indications contraindications characteristics properties
    findings manifestations functions advantages disadvantages actions
    """.split()  # noqa: SIM905
)


# heads of a noun-phrase answer that name a class its topic belongs to (a feature of it otherwise)
_TOPIC_CLASSES = frozenset(
    """
    disease disorder condition syndrome infection neoplasm tumor tumour cancer carcinoma lesion malformation anomaly rod
    """.split()  # noqa: SIM905
)
# heads of an answer that names a thing of another kind than the topic (an organism, a drug, a cell, a test): neither
# a feature of it nor, without knowing the topic's kind, a class of it ("True about tuberculosis" + "Acid fast
# bacillus", "True about malaria" + "Chloroquine" give no claim)
_OTHER_THINGS = frozenset(
    """
    organism bacterium bacteria bacillus bacilli coccus cocci aerobe aerobes anaerobe virus retrovirus fungus parasite
    drug agent antibiotic vaccine enzyme hormone protein vitamin cell tissue method technique procedure test operation
    approach type form kind variety example antibody inhibitor inducer muscle nerve bone artery vein
    """.split()  # noqa: SIM905
)


def _topic_kind(topic: str) -> bool:
    """Whether a truth stem's topic names a kind of fact about a thing ("complications of measles")."""
    before, of, _ = topic.partition(" of ")
    return bool(of) and bool(before.split()) and before.split()[-1].lower() in _KIND_HEADS


# the heads and openers of a noun phrase that states a finding or property ("Increased prolactin", "Organelle
# swelling", "Person to person transmission", "Low serum copper")
_FINDING_SUFFIXES = (
    "tion",
    "sion",
    "sis",
    "ing",
    "ity",
    "ance",
    "ence",
    "ment",
    "ia",
    "itis",
    "oma",
    "age",
    "ure",
    "ness",
)
_FINDING_OPENERS = frozenset(
    """
    increased decreased raised elevated reduced low high absent absence presence loss increase decrease normal
    abnormal positive negative persistent
    """.split()  # noqa: SIM905
)


def _finding(adoc: Any) -> bool:
    """Whether a noun-phrase answer states a finding or a property (a change word first, or a head noun of a state or
    process), not a thing such as a drug or an organism ("Chloroquine", "Retrovirus")."""
    head = adoc[:].root.lower_
    return adoc[0].lower_ in _FINDING_OPENERS or head.endswith(_FINDING_SUFFIXES) or len(adoc) >= 4


def _clause_verb(t: Any) -> bool:
    """A word inside a noun-phrase answer that reads as its verb: one that can be a verb, after a word that is no
    determiner or preposition, before "as" or an article ("Capsule polysaccharide act as a virulent factor")."""
    from lemminflect import getAllLemmas

    nxt = t.nbor(1) if t.i + 1 < len(t.doc) else None
    return (
        nxt is not None
        and nxt.lower_ in ("as", "the", "a", "an")
        and t.nbor(-1).pos_ not in ("DET", "ADP")
        and "VERB" in getAllLemmas(t.lower_)
    )


def _feature_claim(answer: str, adoc: Any, topic: str) -> str | None:
    """A noun-phrase answer to a truth stem ("All are true about polycystic ovarian disease except:" + "Increased
    prolactin"): a feature of the topic ("Increased prolactin is a feature of polycystic ovarian disease"), or of the
    kind a topic such as "complications of measles" names ("Pneumonia is a complication of measles"). None for an
    answer that is no plain noun phrase (a number, a comparison, a verb or preposition first: "3-25 muscle fibres",
    "Mean < Mode", "To be used within 30 minutes") and for a topic that names an action on a thing ("treatment of
    malaria", "use of articaine"), of which the answer is no feature."""
    from lemminflect import getLemma

    first = adoc[0]
    if (
        len(topic.split()) > 8  # a sentence taken for the topic ("A male child with ... has a variant of ...")
        or re.search(r"\b(?:is|are|was|were|has|have|had)\b", topic, re.I)
        or re.fullmatch(r"[a-e]{1,4}|[a-e](?:\s*[,&]\s*[a-e])+", answer.strip(), re.I)  # options by letter: "bd"
        or adoc[:].root.pos_ not in ("NOUN", "PROPN")
        or first.tag_ in ("CD", "IN", "TO", "RB", "VB", "VBG", "VBD", "VBZ", "VBP", "MD", "WDT", "WP", "PRP")
        or first.lower_ in ("not", "no", "only", "all", "none", "both")
        or re.search(r"[<>=;\u2264\u2265]|\.\s", answer)  # a comparison, or two sentences
        or len(adoc) > 12
        or base_verb_only(first.lower_)  # an action: "Appoint ASHA"
        or any(_clause_verb(t) for t in adoc[1:])  # "Capsule polysaccharide act as ...", "Annulospiral wrap the ends"
    ):
        return None
    plural = _np_plural(adoc[:])
    head = adoc[:].root
    superlative = first.tag_ in ("JJS", "RBS") or first.lower_ in ("most", "least")
    if not superlative and (head.lemma_.lower() in _OTHER_THINGS or head.lower_ in _OTHER_THINGS):
        return None
    if (head.lemma_.lower() in _TOPIC_CLASSES or superlative) and not _topic_plural(topic) and not _topic_kind(topic):
        # a class the topic belongs to, not a feature of it: "Not true about vibrio cholera" + "Gram positive rod"
        # -> "Vibrio cholera is a gram positive rod"; "... Duncan placental separation" + "Most common method of
        # placental separation" -> "... is the most common method ..."
        if plural or _acronym(first.text) or first.tag_ in ("DT", "PRP$"):
            return None
        said = answer[0].lower() + answer[1:] if not _acronym(answer.split()[0]) else answer
        return f"{topic} is {'the' if superlative else indefinite_article(said)} {said}"
    before, of, thing = topic.partition(" of ")
    words = before.split()
    if of and words and words[-1].lower() in _KIND_HEADS:
        kinds = re.sub(r"^(?:the|a|an)\s+", "", before, flags=re.I)  # "side effects"
        if plural:
            return f"{answer} are {kinds} of {thing}"
        kind = f"{kinds.rsplit(' ', 1)[0]} " if " " in kinds else ""
        kind += getLemma(words[-1].lower(), upos="NOUN")[0]  # "side effect"
        return f"{answer} is {indefinite_article(kind)} {kind} of {thing}"
    if (words and words[-1].lower() in _RELATIONAL_HEADS) or not _topic_acts(topic):
        return None  # "treatment of malaria", "use of articaine", "iron supplementation in pregnancy"
    if not _finding(adoc):
        return None  # "Chloroquine", "Retrovirus": a thing, not a finding
    return f"{answer} {'are features' if plural else 'is a feature'} of {topic}"


# diseases and kinds named in "-s" that are singular ("Diabetes is", "Caries is")
_SINGULAR_IN_S = frozenset(
    {"diabetes", "herpes", "rabies", "caries", "scabies", "series", "species", "mumps", "measles", "rickets", "aids"}
)


def _coordinated_predicate(adoc: Any, i: int) -> bool:
    """A finite verb after "and"/"&" (and an adverb): a second predicate of the same subject ("Expands on setting
    & hence provides ...")."""
    k = i - 1
    if k > 0 and adoc[k].tag_ == "RB":
        k -= 1
    return k >= 0 and (adoc[k].tag_ == "CC" or adoc[k].text == "&")


@dataclass
class WhPhrase:
    start: int  # first token of the phrase (including a pied-piped preposition)
    end: int  # last token (inclusive)
    word: Any  # the wh token
    kind: str  # "nominal" | "det" | "how_many" | "how_adj" | "adverb"
    prep: str | None  # pied-piped preposition ("In what stage ...")
    noun_start: int | None = None  # for "det"/"how_many": where the noun part starts
    adverb: str = ""  # for kind "adverb": where/when/why/how
    partitive: bool = False  # "which of the following ..."
    approx: str = ""  # an approximator opening a how-many phrase ("Approximately how many weeks ...")


def _is_wh_word(t: Any) -> bool:
    return (t.lower_ in WH_NOMINAL or t.lower_ in WH_ADVERB) and t.text != "WHO"  # not the World Health Organization


def _find_wh(doc: Any) -> WhPhrase | None:
    cands = [t for t in doc if _is_wh_word(t) and not _is_relative(t)]
    if not cands:
        return None
    words = [t for t in doc if not t.is_punct]
    if (
        len(words) > 2
        and words[-1].lower_ == "what"
        and words[-1] in cands
        and all(_free_relative(t) for t in cands[:-1] if t.lower_ == "what")  # not "from what to what?"
    ):
        # a "what" that ends the question is the one it asks, whatever other wh-words come before it ("... helps
        # scientists understand what happens in nuclear reactions and why they produce so much what?")
        return _phrase(doc, words[-1])
    nominal = [t for t in cands if t.lower_ in WH_NOMINAL or _how_quant(t)]
    for t in nominal:
        return _phrase(doc, t)
    # A bare where/when/why/how is a question word only when an auxiliary or verb follows it at the start.
    for t in cands:
        if (
            t.i == _clause_start(doc, t)
            and t.i + 1 < len(doc)
            and (
                doc[t.i + 1].lower_ in AUX_WORDS
                or doc[t.i + 1].pos_ in ("VERB", "AUX")
                or (t.lower_ == "where" and _where_in(doc, t.i + 1) is not None)
            )
        ):
            return _phrase(doc, t)
        if _how_adj(t):
            return _phrase(doc, t)
    words = [t for t in doc if not t.is_punct]
    if len(words) > 2 and words[-1].lower_ in ("where", "when") and words[-1] in cands:
        return _phrase(doc, words[-1])  # in situ at the end: "Most geological activity takes place where?"
    return None


def _free_relative(t: Any) -> bool:
    """A "what" with its verb right after it (an adverb between): a free relative inside the sentence ("understand
    what happens", "produces what is known as"), not the question's own "what"."""
    k = t.i + 1
    while k < len(t.doc) and t.doc[k].tag_ in ("RB", "RBR", "RBS"):
        k += 1
    return k < len(t.doc) and t.doc[k].pos_ in ("VERB", "AUX") and t.doc[k].tag_ in FINITE_TAGS


def _where_in(doc: Any, i: int) -> int | None:
    """After "where", a prepositional phrase that narrows the place before the inverted auxiliary ("Where in the
    cell does ...", "Where on earth do ..."): the auxiliary's index, or None."""
    if i >= len(doc) or doc[i].pos_ != "ADP" or doc[i].lower_ not in ("in", "on", "at", "within", "inside"):
        return None
    for k in range(i + 1, min(len(doc) - 1, i + 10)):
        if doc[k].lower_ in AUX_WORDS:
            return k if _starts_np(doc, k + 1) else None
        if doc[k].is_punct or doc[k].pos_ in ("VERB", "AUX"):
            return None
    return None


def _is_relative(t: Any) -> bool:
    """A relative pronoun ("the lever, which is ...", "cells that ...") rather than a question word."""
    if t.lower_ in ("what", "how"):
        return False
    if t.doc[t.i + 1 : t.i + 3].text.lower() in ("of the", "of these"):
        return False  # "..., which of the following ..." is a question
    if _asking_determiner(t):
        return False
    if t.lower_ == "which" and all(
        x.pos_ in ("NOUN", "ADJ", "PROPN", "PUNCT", "ADP", "DET", "NUM", "CCONJ") for x in t.doc[t.i + 1 :]
    ):
        return False  # "... in which period?", "a key feature of which pattern of inheritance?": a question
    if t.i == 0:
        return False
    if t.lower_ == "which" and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ in ("do", "does", "did"):
        return False  # do-support inverts a question, never a relative clause: "..., which do humans possess?"
    prev = t.doc[t.i - 1]
    if prev.text == "," and _after_opener(t):
        return False  # "In the stomach, which material's arrival triggers ...", "In eukaryotic cells, where is ..."
    if prev.lower_ in ("of", "to", "in", "on", "by", "with", "from", "at", "for") and t.lower_ == "which":
        # "... the process by which plants make food" vs "In which organ ..." (sentence-initial).
        return t.i - 1 > 0 and t.doc[t.i - 2].pos_ in ("NOUN", "PROPN", "PRON")
    head_rel = t.head.dep_ in ("acl:relcl", "acl") or t.dep_ == "acl:relcl"
    return bool(prev.pos_ in ("NOUN", "PROPN", "PUNCT", "PRON") and (head_rel or prev.text in (",", "(")))


def _asking_determiner(t: Any) -> bool:
    """A determiner "which" that asks, not a relative pronoun: after "of", on a noun that is no subject ("Thermal
    conductivity of which material is ...", "The function of which organ is ..."; after other prepositions it is most
    often relative: "The part of the shadow in which light is ..."), or right after a noun, on the subject of its clause
    ("In chronic allergy which Ig are more persistent": a relative pronoun is not followed by its clause's subject)."""
    doc = t.doc
    if t.lower_ != "which" or t.pos_ != "DET" or t.i == 0 or t.i + 1 >= len(doc):
        return False
    nxt, prev = doc[t.i + 1], doc[t.i - 1]
    if nxt.pos_ not in ("NOUN", "PROPN"):
        return False
    if prev.pos_ in ("NOUN", "PROPN"):
        k = t.i + 2
        while k < len(doc) and doc[k].tag_ in ("RB", "RBR", "RBS"):
            k += 1  # "which nerve also gets damaged"
        # its verb right after it (not "Peg-shaped incisors which taper towards ...": "taper" is the relative's verb)
        return "subj" in nxt.dep_ and k < len(doc) and doc[k].pos_ in ("AUX", "VERB") and doc[k].tag_ in FINITE_TAGS
    return (
        prev.lower_ == "of"
        and t.head.i > t.i
        and "subj" not in t.head.dep_
        and all(x.pos_ in ("NOUN", "PROPN", "ADJ") for x in doc[t.i + 1 : t.head.i])
    )


_OPENING_WORDS = frozenset({"besides", "other", "according", "apart", "unlike", "like", "compared"})


def _after_opener(t: Any) -> bool:
    """Whether the wh-word comes right after the comma that closes an opening phrase of the question ("In
    alcoholic fermentation, which acid ...", "Besides Greenland, where are ...") and no other question word
    follows it: a question word there, not a relative pronoun on the phrase's noun."""
    doc = t.doc
    first = doc[0]
    purpose = first.lower_ == "to" and len(doc) > 1 and doc[1].tag_ == "VB"  # "To check pain response, which is ..."
    if not (first.pos_ == "ADP" or first.lower_ in _OPENING_WORDS or purpose):
        return False
    if t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "of":
        return False  # "Among the following, which of them ...": the partitive rules' question
    if any(x.text == "," for x in doc[1 : t.i - 1]) or any(x.text == "," for x in doc[t.i + 1 :]):
        return False  # not "In response to X, which can occur ..., the osmoreceptors signal ..."
    words = [x for x in doc if not x.is_punct]
    if t.lower_ in WH_ADVERB and words[-1].pos_ == "ADJ":
        return False  # "In a tropical rainforest, where are ferns common?": no place for the answer
    # a relative pronoun later on is no second question: "..., which is best in a patient who is restored with ..."
    return not any(_is_wh_word(x) and (x.lower_ in ("what", "how") or not _is_relative(x)) for x in doc[t.i + 1 :])


def _how_quant(t: Any) -> bool:
    return t.lower_ == "how" and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ in ("many", "much")


def _how_adj(t: Any) -> bool:
    return (
        t.lower_ == "how"
        and t.i + 1 < len(t.doc)
        and t.doc[t.i + 1].tag_ in ("JJ", "RB", "JJR", "RBR")
        and t.doc[t.i + 1].lower_ not in ("many", "much")
    )


def _coordinates_verb(doc: Any, i: int) -> bool:
    """A coordinator at ``i`` followed (after at most an adverb) by a finite verb: "and dies", "but instead forms"."""
    k = i + 1
    if k < len(doc) and doc[k].tag_ in ("RB", ","):
        k += 1
    return k < len(doc) and _verb_like(doc[k], ("VBZ", "VBP", "VBD"))


def _nominal_answer(adoc: Any) -> bool:
    """The answer can stand where a noun phrase stood ("Loss of sensation", "1 Fc and 2 Fab fragments", "Upper 2nd
    Premolar"; not "Resistant to caries", "Time-consuming", "Blisters are present"). The tagger reads an answer
    alone badly, so the last word counts as a noun unless lemminflect knows it only as an adjective or a verb."""
    from lemminflect import getAllLemmas

    words = [t for t in adoc if not t.is_punct]
    if not words or any(t.tag_ in FINITE_TAGS and (t.pos_ == "AUX" or "VERB" in getAllLemmas(t.lower_)) for t in words):
        return False  # a clause ("Blisters are present"; not "interossei" read as a past tense)
    if any(t.pos_ == "ADJ" and t.dep_ == "ROOT" and t.i + 1 < len(adoc) and adoc[t.i + 1].pos_ == "ADP" for t in words):
        return False  # an adjective with its complement
    lemmas = getAllLemmas(words[-1].lower_)
    if len(words) == 1:  # a word alone: a noun reading and no adjective one (not "malignant", "low")
        return not lemmas or ("NOUN" in lemmas and "ADJ" not in lemmas)
    return not lemmas or "NOUN" in lemmas or "PROPN" in lemmas


def _fronted_after_opener(doc: Any, ph: WhPhrase, cstart: int) -> bool:
    """A wh-phrase that opens an inverted question after an opening phrase with no comma before it ("In addition
    to a nucleus what do eukaryotic cells have", "When traveling through space what do ..."), not one in place
    ("... to do what", "is proportional to what property")."""
    if ph.start <= cstart + 1 or ph.prep is not None or ph.kind not in ("nominal", "det"):
        return False
    before, nxt = doc[ph.start - 1], ph.end + 1
    if before.pos_ in ("ADP", "VERB", "AUX", "SCONJ", "CCONJ", "DET") or before.tag_ in ("IN", "TO", "WDT", "WP", "DT"):
        return False
    inverting = doc[nxt].lower_ in ("do", "does", "did") or doc[nxt].lower_ in MODALS if nxt < len(doc) else False
    return inverting and _starts_np(doc, nxt + 1)


def _clause_start(doc: Any, t: Any) -> int:
    """Index where the clause holding ``t`` starts: after the last comma before it, or 0."""
    for i in range(t.i - 1, -1, -1):
        if doc[i].text in (",", ";", ":", ".", "?", "!") or _dash(doc, i):
            return i + 1
    return 0


def _dash(doc: Any, i: int) -> bool:
    """A dash between words (" - ", " – ", " — "), not a hyphen inside one."""
    return doc[i].text in ("-", "–", "—", "--") and bool(doc[i].whitespace_) and i > 0 and bool(doc[i - 1].whitespace_)


_NEVER_NOUNS = frozenset("do does did is are was were".split())  # noqa: SIM905


def _noun_run_end(doc: Any, i: int) -> int:
    """Last index of a simple noun phrase starting at i (adjectives, nouns, numbers, 'of' + NP)."""
    end = i - 1
    j = i
    while j < len(doc):
        t = doc[j]
        if (
            t.tag_ == "VBG"
            and end >= i
            and t.dep_ == "amod"
            and t.head.i == j + 1
            and doc[j + 1].tag_ in ("NN", "NNS")
            and doc[j - 1].tag_ in ("NN", "NNS", "HYPH", "JJ")
        ):
            end = j  # "light sensing organs", "bile-producing organ" (not "energy of the moving piston")
            j += 1
            continue
        if t.dep_ == "ROOT" and j > i or t.pos_ in ("VERB", "AUX") and t.tag_ != "VBN" or t.lower_ in _NEVER_NOUNS:
            break  # the clause's main verb, even when the tagger calls it a noun ("organisms break", "young do")
        if j > i and j + 1 < len(doc) and doc[j + 1].tag_ == "RP" and t.tag_ in ("NN", "NNS", "VB", "VBP"):
            break  # a verb before its particle, tagged a noun ("what zone break down")
        if t.tag_ in ("JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "CD", "HYPH", "VBN", "POS") or (
            t.pos_ in ("NOUN", "PROPN", "ADJ", "NUM")
        ):
            end = j
            j += 1
            continue
        if (
            t.lower_ in ("and", "or")
            and end >= i
            and doc[j - 1].tag_ in ("JJ", "JJR", "JJS")
            and j + 1 < len(doc)
            and doc[j + 1].tag_ in ("JJ", "JJR", "JJS", "NN", "NNS")
        ):
            j += 1  # "common and essential element"
            continue
        if (
            t.lower_ == "of"
            and end >= i
            and doc[j - 1].lemma_.lower() in ("type", "kind", "form", "sort", "class")
            and j + 1 < len(doc)
            and doc[j + 1].tag_ == "VBG"
            and (j + 2 >= len(doc) or doc[j + 2].tag_ not in ("NN", "NNS"))
        ):
            end = j + 1  # "what type of bonding": the gerund is the asked noun and ends the phrase
            break
        if t.lower_ == "of" and end >= i and j + 1 < len(doc) and doc[j + 1].tag_ in NP_TAGS:
            j += 1
            continue
        if t.tag_ == "DT" and end >= i and j > i and doc[j - 1].lower_ == "of":
            j += 1
            continue
        break
    # A trailing participle belongs to the verb group ("What type of rock is formed"), not the noun.
    while end >= i and doc[end].tag_ == "VBN":
        end -= 1
    return end


# nouns a question asks with that the answer replaces, not modifies ("What objects are made ..." + "mirrors")
_GENERIC_NOUNS = frozenset(
    "object structure instrument organ thing part substance material bone muscle organism animal device tool".split()  # noqa: SIM905
)


def _phrase(doc: Any, t: Any) -> WhPhrase:
    w = t.lower_
    start = t.i
    prep = None
    before = doc[start - 1] if start > 0 else None
    if (
        before is not None
        and (before.pos_ in ("ADP", "SCONJ") or before.tag_ == "IN")
        and before.i == _clause_start(doc, before)
    ):
        start -= 1
        prep = doc[start].text
    if _how_quant(t):
        end = _noun_run_end(doc, t.i + 2)
        approx = ""
        if (
            prep is None
            and before is not None
            and before.lower_ in _APPROX
            and before.i == _clause_start(doc, before)
            and doc[max(end, t.i + 1) + 1 : max(end, t.i + 1) + 2].text.lower() in ("do", "does", "did")
        ):
            start, approx = start - 1, before.lower_  # "Approximately how many weeks does ..." -> "... approximately"
        return WhPhrase(start, max(end, t.i + 1), t, "how_many", prep, t.i + 2, approx=approx)
    if _how_adj(t):
        return WhPhrase(start, t.i + 1, t, "how_adj", prep)
    if w in WH_ADVERB:
        return WhPhrase(start, t.i, t, "adverb", prep, adverb=w)
    if (
        prep
        and prep.lower() in ("in", "by")
        and t.i + 1 < len(doc)
        and doc[t.i + 1].lemma_.lower() in ("way", "manner", "means", "method", "process")
        and t.i + 2 < len(doc)
        and doc[t.i + 2].lower_ in AUX_WORDS
    ):
        return WhPhrase(start, t.i + 1, t, "adverb", None, adverb="how")  # "In what way do bacteria ..."
    nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
    if nxt is not None and nxt.lower_ == "of" and t.i + 2 < len(doc) and doc[t.i + 2].tag_ in ("DT", "PRP$"):
        # "which of the following (drugs)", "which of these", "which of the orthodontic brackets"
        end = t.i + 2
        if doc[t.i + 2 : t.i + 4].text.lower() == "the following":
            end = t.i + 3
        run = _noun_run_end(doc, end + 1)
        return WhPhrase(start, max(end, run), t, "nominal", prep, partitive=True)
    from lemminflect import getAllLemmas

    after_nxt = doc[nxt.i + 1] if nxt is not None and nxt.i + 1 < len(doc) else None
    # a plural noun the tagger read as a verb before the clause's own verb ("What objects are made ..."), and a verb
    # read as a noun before a subordinate clause ("What form because water erodes ...")
    noun_read_as_verb = (
        nxt is not None
        and after_nxt is not None
        and _plural_form(nxt.lower_)
        and _noun_lemma(nxt.lower_) in _GENERIC_NOUNS  # not "What waves are" + "radio": the noun the answer modifies
        and after_nxt.pos_ == "AUX"
    )
    verb_read_as_noun = (
        t.i == _clause_start(doc, t)  # the subject ("What form because ..."; not "turns what color when ...")
        and nxt is not None
        and after_nxt is not None
        and after_nxt.lower_ in ("because", "when", "if", "unless", "whenever")
        and "VERB" in getAllLemmas(nxt.lower_)
    )
    if nxt is not None and w in ("what", "which") and nxt.tag_ in ("RB", "RBR", "RBS") and nxt.i + 2 < len(doc):
        # an adverb on the asked noun's modifier: "what extremely dense object", "which closely packed cells", "what
        # commonly found liquid" (not "what more slowly than", "What weakly scatters")
        mod = doc[nxt.i + 1]
        end = _noun_run_end(doc, nxt.i + 1)
        coordinated = end + 1 < len(doc) and doc[end + 1].lower_ in ("and", "or", "to")  # "new addition to and ..."
        if mod.tag_ in ("JJ", "JJR", "VBN") and end > nxt.i + 1 and doc[end].tag_ in ("NN", "NNS") and not coordinated:
            return WhPhrase(start, end, t, "det", prep, t.i + 1)
    if (
        nxt is not None
        and w in ("what", "which", "whose")
        and (
            nxt.tag_ in NP_TAGS - {"PRP", "DT", "EX", "PRP$"}
            or nxt.pos_ in ("NOUN", "ADJ", "PROPN")
            or noun_read_as_verb
        )
        and not (
            _verb_like(nxt, ("VBZ", "VBD"))
            and doc[nxt.i + 1 : nxt.i + 2].text.lower() != "of"
            and not noun_read_as_verb
        )
        and not verb_read_as_noun
    ):
        end = max(_noun_run_end(doc, t.i + 1), nxt.i if noun_read_as_verb else -1)
        finite_after = any(x.tag_ in FINITE_TAGS or x.pos_ == "AUX" for x in doc[end + 1 :])
        if not finite_after:
            # The run swallowed the verb ("what type of rock forms when ..."): cut before a verb-like word.
            for j in range(t.i + 2, end + 1):
                if _verb_like(doc[j], ("VBZ", "VBP", "VBD")) and doc[j - 1].pos_ in ("NOUN", "PROPN"):
                    end = j - 1
                    break
        aux = doc[end + 1] if end + 1 < len(doc) else None
        after_aux = doc[end + 2] if end + 2 < len(doc) else None
        if (
            prep is not None
            and end > t.i + 1
            and aux is not None
            and after_aux is not None
            and (aux.tag_ == "MD" or aux.lower_ in AUX_WORDS)
            and aux.lower_ not in ("do", "does", "did")  # do-support has its subject after it, read as a verb or not
            and (after_aux.lower_ in ("not", "n't") or after_aux.tag_ in ("VB", "VBN"))
        ):
            # an auxiliary with no subject after it: the run took the clause's subject ("Till what age tetracycline
            # should not be given" asks "what age"; "tetracycline" is the subject, in plain order), as the parse says
            subj = next((c for c in aux.head.children if "subj" in c.dep_ and t.i + 1 < c.i <= end), None)
            if subj is not None and subj.left_edge.i > t.i + 1:
                end = subj.left_edge.i - 1
            elif end == t.i + 2:  # two nouns and no parse to tell: the second is the subject
                end = t.i + 1
        if end >= t.i + 1:
            return WhPhrase(start, end, t, "det", prep, t.i + 1)
    return WhPhrase(start, t.i, t, "nominal", prep)


def _with_plural_asked_noun(doc: Any, ph: WhPhrase, adoc: Any) -> WhPhrase:
    """A bare "what"/"which" whose plural noun the phrase left out (read as a verb: "Which factors are controlled ...",
    "at which what objects move", "through what structures?"), widened to take it when the answer ends in a plural
    noun of its own: "independent variables" replaces "which factors" ("Independent variables are controlled ...",
    not "Independent variables factors ...").
    A modifier answer keeps the noun as before ("What waves are" + "radio" -> "Radio waves are")."""
    from lemminflect import getAllLemmas

    k = ph.end + 1
    if ph.kind != "nominal" or ph.partitive or ph.word.lower_ not in ("what", "which") or k >= len(doc):
        return ph
    noun, after = doc[k], (doc[k + 1] if k + 1 < len(doc) else None)
    if after is None or after.is_punct:
        # or the noun ends the question after a preposition: "through what structures?", "covered with what objects?"
        before = doc[ph.word.i - 1] if ph.word.i > 0 else None
        if before is None or before.pos_ != "ADP" or noun.tag_ not in ("NNS", "NNPS") or k + 1 < len(doc) - 1:
            return ph
    elif not (
        after.pos_ == "AUX"
        or (
            # the wh-word opens its clause or follows a preposition or relative word ("at which what objects move"),
            # not a free relative in an object's place ("Fertilizers supply what plants need": "plants" is the subject)
            (
                ph.word.i == _clause_start(doc, ph.word)
                or doc[ph.word.i - 1].pos_ == "ADP"
                or doc[ph.word.i - 1].lower_ in _RELATIVE_WORDS
            )
            and after.tag_ in ("VB", "VBP")
            and after.pos_ == "VERB"
            and after.lower_ not in AUX_WORDS  # "What machines have scientists built"
            and "VERB" in getAllLemmas(after.lower_)  # not "What spreads sti during ..."
            and (noun.tag_ in ("NNS", "NNPS") or _noun_lemma(noun.lower_) in _GENERIC_NOUNS)  # not "What helps amplify"
        )
    ):
        return ph  # neither an auxiliary nor the clause's own verb after the noun, nor the question's end
    if not (_plural_form(noun.lower_) and len(adoc)):
        return ph
    last = adoc[-1]
    if last.tag_ != "NNS" or not _plural_form(last.lower_):
        return ph
    if last.lower_ == noun.lower_ and after is not None and after.pos_ == "AUX":
        return ph  # "What fuels are ..." + "fossil fuels": _wh_question skips the noun there; elsewhere the answer
        # takes it ("in what levels?" + "energy levels" -> "in energy levels", not "energy levels levels")
    return dataclasses.replace(ph, end=k)


def _answer_phrase(ph: WhPhrase, doc: Any, answer: str, adoc: Any, flags: dict[str, Any]) -> str:
    """What replaces the wh-phrase: the answer, keeping the noun when the answer is only a modifier."""
    noun = doc[ph.noun_start : ph.end + 1].text if ph.noun_start is not None else ""
    if ph.kind == "how_many":
        filler = _how_many_filler(answer, adoc, doc, ph, flags) if noun else answer
        return f"{ph.approx} {filler}" if ph.approx and filler.split()[0].lower() not in _APPROX else filler
    naming_head = ph.kind == "det" and noun and doc[ph.end].lemma_.lower() in ("name", "term", "word")
    if naming_head and ph.noun_start == ph.end:
        # "known by what name" -> "known by the name platelets"; "What term refers to ..." -> "The term X refers"
        return f"the {doc[ph.end].text} {answer}"
    head_tok = doc[ph.end]
    names_head = answer.split()[-1].lower() in (head_tok.lower_, head_tok.lemma_.lower())
    class_alone = head_tok.lemma_.lower() in _CLASS_NOUNS and "other" in noun.lower()  # "or which other type"
    keep = flags.get("keep_noun", True) and not names_head and not class_alone
    if ph.kind == "det" and noun and keep and _is_modifier(adoc):
        flags["kept_noun"] = True
        # "what stage" + "second" -> "the second stage"; "what type of rock" + "igneous" -> "igneous rock"
        head = doc[ph.end].text
        if adoc[-1].tag_ in ("JJS",) or adoc[-1].lower_ in _ORDINALS:
            return f"the {answer} {noun}"
        if _is_bare_number(adoc):
            return f"{answer} {noun}"
        if re.search(r"\b(type|kind|form|sort|class)s? of\b", noun.lower()):
            return f"{answer} {head}"
        return f"{answer} {_noun_core(doc, ph.noun_start or ph.end, ph.end)}"  # "what bodily system" + immune
    if ph.word.lower_ == "whose":
        return f"{answer}'s {noun}".strip() if not answer.endswith("'s") else f"{answer} {noun}"
    return answer


def _noun_core(doc: Any, start: int, end: int) -> str:
    """The nouns at the end of a noun phrase, without its adjectives: "bodily system" -> "system", "blood
    vessels" -> "blood vessels"."""
    from lemminflect import getAllLemmas

    def nominal(t: Any) -> bool:  # "bodily" tagged NN is still no noun
        readings = getAllLemmas(t.lower_)
        return t.tag_ in ("NN", "NNS", "NNP", "NNPS") and (not readings or "NOUN" in readings)

    k = end
    while k > start and nominal(doc[k - 1]):
        k -= 1
    return doc[k : end + 1].text


_MASS_SUFFIXES = ("tion", "sion", "ing", "ity", "ism", "ence", "ance", "ment", "ness", "gy", "sis")
# heads whose ending says process, field or substance unless the LM's text shows plurals (RuleQA2D._countability)
_MASS_LIKE_SUFFIXES = (*_MASS_SUFFIXES, "ry", "my", "ics", "therapy", "sterone", "isone", "geny", "nomy", "phy")


def _countable_singular(t: Any) -> bool:
    """A singular noun that wants an article as a subject ("the immune system"), not a mass or process noun
    ("interspecific competition", "thermal energy")."""
    return t.tag_ == "NN" and not t.lower_.endswith(_MASS_SUFFIXES)


_CLASS_NOUNS = frozenset(["kind", "type", "sort", "form", "class", "category"])
_ORDINALS = frozenset(
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last", "final"]
)


def _is_modifier(adoc: Any) -> bool:
    """An adjective/number/ordinal answer ("second", "buoyant", "thermal", "positive and negative") that modifies
    the asked noun. Each conjunct (split at "and"/"or") is one modifier word (:func:`_adjectival`), or several
    whose last is no noun ("very large"; not "low atomic number", "lower 1st premolar")."""
    from lemminflect import getAllLemmas

    words = [t for t in adoc if not t.is_punct]
    conjuncts: list[list[Any]] = [[]]
    for t in words:
        if t.lower_ in ("and", "or"):
            conjuncts.append([])
        else:
            conjuncts[-1].append(t)
    if not words or any(not c for c in conjuncts):
        return False
    for c in conjuncts:
        if not all(_adjectival(t) for t in c):
            return False
        last = c[-1]
        if len(c) > 1 and "NOUN" in getAllLemmas(last.lower_) and last.lower_ not in _ORDINALS:
            return False
        if last.pos_ == "ADV" and not _adjectival(last, adverb=False):
            return False
    return True


_ADJ_SUFFIXES = ("ic", "al", "ous", "ive", "ar", "ary", "ent", "ant", "ile", "ful", "less", "oid", "phobic", "philic")


def _adjectival(t: Any, adverb: bool = True) -> bool:
    """Whether an answer word can modify the asked noun: a number or ordinal; a word lemminflect knows as an
    adjective ("immune", "thermal": the tagger calls many one-word answers nouns; also "salt" and "mass", so
    the pipeline lets the LM choose, see RuleQA2D), never one it knows only as a noun or verb ("earthquake"); an
    unknown word with an adjective suffix ("interspecific"); an adverb (``adverb``) before another modifier."""
    from lemminflect import getAllLemmas

    if t.lower_ in _ORDINALS or t.like_num or t.pos_ == "NUM":
        return True
    readings = getAllLemmas(t.lower_)
    if readings:
        return "ADJ" in readings or (adverb and t.pos_ == "ADV" and "ADV" in readings)
    return t.is_alpha and t.lower_.endswith(_ADJ_SUFFIXES)


def _is_bare_number(adoc: Any) -> bool:
    toks = [t for t in adoc if not t.is_punct]
    return bool(toks) and all(t.pos_ == "NUM" or t.like_num for t in toks)


# words of a quantity answer around its numbers ("two or more", "four to six", "over a hundred", "at least 3")
_QUANTITY_WORDS = frozenset(
    ["or", "more", "less", "fewer", "to", "over", "under", "about", "around", "nearly", "approximately", "roughly"]
    + ["up", "than", "at", "least", "most", "a", "an", "only", "just", "almost", "exactly"]
)
_MULTIPLES = frozenset(["tens", "dozens", "hundreds", "thousands", "millions", "billions", "trillions"])
_ONE = re.compile(r"^(only |just |exactly )?(one|1|a single|single)$", re.I)


def _quantity(adoc: Any) -> bool:
    """An answer that is a number or a range of numbers: "two", "four to six", "over a hundred", "thousands"."""
    toks = [t for t in adoc if not t.is_punct]
    numeric = [t for t in toks if t.pos_ == "NUM" or t.like_num or t.lower_ in _MULTIPLES or t.lower_ == "single"]
    return bool(numeric) and all(t in numeric or t.lower_ in _QUANTITY_WORDS for t in toks)


def _how_many_filler(answer: str, adoc: Any, doc: Any, ph: WhPhrase, flags: dict[str, Any]) -> str:
    """A how-many phrase answered: the asked noun after a quantity ("two or more possible alleles", "thousands of
    pathogens"), its head singular after "one" ("one type of galaxies", "one lens"; ``flags["one"]`` tells the verb
    to agree); any other answer as it is."""
    if not _quantity(adoc):
        return answer
    from lemminflect import getLemma

    toks = list(doc[ph.noun_start : ph.end + 1])
    noun = "".join(t.text_with_ws for t in toks).strip()
    if _ONE.match(answer.strip()):
        head = next((t for t in toks[:-1] if doc[t.i + 1].lower_ == "of" and t.tag_ == "NNS"), toks[-1])
        lemma = (getLemma(head.lower_, upos="NOUN") or (head.lemma_,))[0]  # "lenses" -> "lens" (spaCy: "lense")
        if head.tag_ == "NNS" and lemma and lemma != head.lower_:
            noun = "".join(lemma + head.whitespace_ if t.i == head.i else t.text_with_ws for t in toks).strip()
        flags["one"] = True
        return f"{'a ' if answer.strip().lower() == 'single' else ''}{answer} {noun}"
    of = " of" if [t for t in adoc if not t.is_punct][-1].lower_ in _MULTIPLES else ""
    return f"{answer}{of} {noun}"


def _answer_plural(adoc: Any) -> bool | None:
    """True/False when the answer's number is clear, None when it is not (adjectives, clauses)."""
    toks = [t for t in adoc if not t.is_punct]
    if not toks:
        return None
    if any(t.lower_ in ("and", "both") for t in toks):
        return True
    nouns = [t for t in toks if t.pos_ in ("NOUN", "PROPN", "PRON", "NUM")]
    if nouns and any(t.text == "," and 0 < t.i < len(adoc) - 1 for t in adoc) and all(t.pos_ != "ADP" for t in toks):
        return True  # a list of names: "Phenylalanine, Tryptophan, Lysine"
    if not nouns:
        return None
    head = nouns[-1]
    if head.pos_ == "NUM" and len(nouns) > 1 and nouns[-2].i == head.i - 1 and nouns[-2].pos_ == "NOUN":
        head = nouns[-2]  # a numbered kind: "type 3", "stage 2"
    for t in toks:  # the noun before a prepositional phrase: "Blue cells in Nile Blue Test", "the rate of reactions"
        before = [n for n in nouns if n.i < t.i]
        if (t.lower_ == "of" or (t.pos_ == "ADP" and t.dep_ == "case")) and before:
            head = before[-1]
            break
    if _singular_in_s(head.lower_) or (head.text.isupper() and 1 < len(head.text) <= 5):
        return False  # "Mathematics is called the language of science", "FSGS has nephrotic syndrome"
    if "Number=Plur" in str(head.morph) or head.tag_ in ("NNS", "NNPS") or _plural_form(head.lower_):
        return True
    if head.pos_ == "NUM":
        return head.lower_ not in ("one", "1")
    return False


def _singular_in_s(word: str) -> bool:
    """A singular noun in "-ics" or "-les" that lemminflect lists as its own lemma first: a field or a condition
    ("mathematics", "genetics", "physics", "measles"; not "statistics", "antibiotics", "molecules")."""
    from lemminflect import getLemma

    return word.endswith(("ics", "les")) and getLemma(word, upos="NOUN")[:1] == (word,)


def _plural_form(word: str) -> bool:
    """A regular plural noun form by lemminflect ("proteins", "kinases"), for answers the tagger reads alone."""
    from lemminflect import getAllInflections, getLemma

    if not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return False
    lemmas = getLemma(word, upos="NOUN")
    base = lemmas[0] if lemmas else word
    return base != word and word in getAllInflections(base, upos="NOUN").get("NNS", ())


def _agree(word: str, plural: bool) -> str:
    low = word.lower()
    table = SING_PLUR if plural else PLUR_SING
    if low in table:
        return _match_case(table[low], word)
    return word


def _verb_agreeing(verb: Any, plural: bool) -> str:
    """A present-tense verb (or auxiliary) in the number of its subject: "binds" -> "bind", "is" -> "are"."""
    return _agree(verb.text, plural) if verb.lower_ in AUX_WORDS else _inflect(verb, "VBP" if plural else "VBZ")


def _inflect(verb: Any, tag: str) -> str:
    from lemminflect import getInflection

    lemma = verb.lemma_ or verb.text
    forms = getInflection(lemma.lower(), tag=tag)
    return _match_case(forms[0], verb.text) if forms else verb.text


def _match_case(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word


def _replace(doc: Any, start: int, end: int, text: str) -> str:
    before = doc[:start].text_with_ws if start > 0 else ""
    after = doc[end + 1 :].text if end + 1 < len(doc) else ""
    return f"{before}{text} {after}".strip()


# prepositions that only approximate a number ("at around one year"): the question's own stays before them
_APPROX = frozenset(["about", "around", "nearly", "approximately", "roughly"])
# substances named as members of a class ("a disaccharide", "an alkane", "a macromolecule", "the solute") are count
_COUNT_SUBSTANCE_SUFFIXES = ("ide", "ule", "lipid", "ane", "yl", "ute", "mer", "yde", "gen", "kine", "tone")
_US_STATES = frozenset(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA "  # noqa: SIM905
    "RI SC SD TN TX UT VT VA WA WV WI WY DC".split()
)
_PLACE_OBJECT_VERBS = frozenset(["enter", "leave", "reach", "exit", "cross", "visit", "inhabit", "occupy", "penetrate"])


def _place_object_verb(t: Any) -> bool:
    """A verb whose object is a place ("enters where?", "leaves where?", also when tagged as a noun)."""
    from lemminflect import getAllLemmas

    lemmas = {t.lemma_.lower(), *getAllLemmas(t.lower_).get("VERB", ())}
    return bool(lemmas & _PLACE_OBJECT_VERBS)


_PLACE_ADVERBS = frozenset(
    "underground outside inside indoors outdoors abroad overseas offshore upstairs downstairs everywhere nowhere "  # noqa: SIM905
    "here there above below nearby elsewhere internally externally upward downward".split()
)


# the asked noun of "X has which of the following N": what the answer says of X
_PROPERTY_NOUNS = frozenset(
    """
    feature features function functions property properties characteristic characteristics effect effects action
    actions advantage advantages disadvantage disadvantages drawback drawbacks quality qualities uses
    """.split()  # noqa: SIM905
)


def _property_predicate(doc: Any, ph: WhPhrase, answer: str, adoc: Any) -> str | None:
    """A stem "X has which of the following N" (N a feature, function, property, effect ...) + an answer that is a
    predicate: X is its subject ("Dentin conditioner has the following function" + "Removes smear layer" ->
    "Dentin conditioner removes smear layer"; "Sclerotic dentin has following features" + "Resistant to caries" ->
    "Sclerotic dentin is resistant to caries"). None for other stems and answers (a clause with a subject of its
    own, a noun phrase)."""
    if ph.start == 0 or any(not t.is_punct for t in doc[ph.end + 1 :]):
        return None
    verb = doc[ph.start - 1]
    if verb.lower_ not in ("has", "have", "shows", "show", "possesses", "possess", "exhibits", "exhibit"):
        return None
    if verb.i > 0 and (doc[verb.i - 1].lower_ in ("not", "n't", "never") or doc[verb.i - 1].pos_ == "AUX"):
        return None  # "Type III gold alloy does not have following features except"
    if not any(t.lower_ in _PROPERTY_NOUNS for t in doc[ph.start : ph.end + 1]) or verb.i == 0:
        return None
    subject = doc[: verb.i].text.strip(" ,")
    said = answer[0].lower() + answer[1:]
    first = adoc[0]
    verb_first = (
        first.tag_ in ("VBZ", "VBP", "MD")
        or first.lower_ in ("is", "are", "can", "may")
        or (
            first.tag_ in ("NNS", "NNP", "NN")
            and _is_verb_form(first.lower_, ("VBZ",))
            and not noun_reading(first.lower_)
            and len(adoc) > 1
        )
    )
    if verb_first:
        return f"{subject} {said}"
    k = 1 if first.lower_ in ("not", "less", "more", "very", "highly") and len(adoc) > 1 else 0
    if adoc[k].tag_ in ("JJ", "JJR", "VBN") and not any(t.tag_ in FINITE_TAGS for t in adoc):
        return f"{subject} {'is' if verb.lower_.endswith('s') else 'are'} {said}"
    return None


_FRONTED_PREPOSITIONS = frozenset(
    "in at for during under with without from on by among after before through into to within till until".split()  # noqa: SIM905
)


def _fronted_without_inversion(doc: Any, ph: WhPhrase, filler: str, adoc: Any) -> str | None:
    """A fronted "preposition + wh-phrase" before a clause in plain order (MedMCQA): "In which stage of
    neurocysticercosis, there is no edema?" + "Vesicular" -> "In vesicular stage of neurocysticercosis, there is no
    edema."; "For which of the following, you will not perform pulpectomy?". The clause needs a subject before a
    finite verb of its own and no question word; None otherwise ("In which of the following, long spaced collagen
    present?" has no verb), nor after a subordinator ("..., while what related property is ...") or with do-support
    ("Under which conditions do many bacteria ..."), nor for an answer that is a clause ("HIV cases are less")."""
    if doc[ph.start].pos_ != "ADP" or doc[ph.start].lower_ not in _FRONTED_PREPOSITIONS:
        return None
    if not filler.strip() or not len(adoc) or any(t.tag_ in FINITE_TAGS for t in adoc):
        return None
    rest = [t for t in doc[ph.end + 1 :] if not (t.is_punct and t.text in "?:.-–")]
    if any(t.lower_ in ("do", "does", "did") for t in rest[:3]):
        return None
    comma = bool(rest) and rest[0].text == ","
    rest = rest[1:] if comma else rest
    if len(rest) < 2 or rest[0].pos_ not in ("DET", "NOUN", "PROPN", "PRON", "ADJ", "NUM") or rest[0].tag_ == "WDT":
        return None
    if any(_is_wh_word(t) for t in rest):
        return None
    if not any(t.tag_ in FINITE_TAGS and t.pos_ in ("VERB", "AUX") for t in rest[1:]):
        return None
    clause = doc[rest[0].i : rest[-1].i + 1].text
    said = filler.lower().split()
    modifier = said == [w.lower_ for w in adoc] and all(t.pos_ in ("ADJ", "VERB", "PROPN", "NOUN") for t in adoc)
    if ph.kind == "det" and ph.noun_start is not None and modifier and len(said) <= 2:
        head = doc[ph.noun_start]  # "which stage of X" + "Vesicular" -> "vesicular stage of X"
        named = any(w.endswith(head.lemma_.lower()) for w in said)  # "Anaphase" for "which phase"
        if head.lemma_.lower() in (*_CLASS_NOUNS, "stage", "phase", "part", "period", "grade") and not named:
            filler = f"{filler} {doc[ph.noun_start : ph.end + 1].text}"
    first = filler.split()[0]
    common = _common_word(first.lower()) or (adoc[0].pos_ == "ADJ" and first.lower() == adoc[0].lower_)
    if common and not _acronym(first):  # an option's capital, not a name's ("In Moyer's analysis, ...")
        filler = filler[0].lower() + filler[1:]
    return f"{doc[ph.start].text} {filler}{',' if comma else ''} {clause}"


def _wh_question(doc: Any, ph: WhPhrase, answer: str, adoc: Any, flags: dict[str, Any]) -> str:
    ph = _with_plural_asked_noun(doc, ph, adoc)
    filler = _answer_phrase(ph, doc, answer, adoc, flags)
    cstart = _clause_start(doc, doc[ph.start])
    prefix = doc[:cstart].text_with_ws if cstart > 0 else ""
    if _fronted_after_opener(doc, ph, cstart):
        # "When skunks are in danger what do they give off?": an opening phrase without its comma
        cstart, prefix = ph.start, doc[: ph.start].text.rstrip() + ", "
    if ph.start > cstart and not (ph.prep and ph.start == cstart):
        # In situ: "temperature is proportional to what other property" -> replace in place.
        if ph.kind == "adverb":
            before = doc[ph.start - 1] if ph.start > 0 else None
            # "swept into where?", "before it leaves where?" (a place as the object), "is actually where?" +
            # "underground": the answer as it is, no "in" before it
            # a verb, or a word after a pronoun ("it leaves where?"; not the noun in "made in the leaves where?")
            verbal = before is not None and (
                before.pos_ in ("VERB", "AUX")
                or doc[before.i - 1 : before.i].text.lower() in ("it", "they", "he", "she", "we", "you")
            )
            bare = before is not None and (
                before.pos_ == "ADP" or (ph.adverb == "where" and verbal and _place_object_verb(before))
            )
            if before is not None and before.pos_ == "ADP" and len(adoc) and adoc[0].pos_ == "ADP":
                answer = " ".join(answer.split()[1:]) or answer  # "swept into where?" + "into the ocean"
            bare = bare or answer.lower() in _PLACE_ADVERBS
            filler = answer if bare else _adverbial(ph.adverb, answer, adoc)
        if ph.partitive and not _nominal_answer(adoc):
            said = _property_predicate(doc, ph, answer, adoc)
            if said is not None:
                return said
            head = doc[ph.end]
            if (
                head.tag_ in ("NN", "NNS")
                and doc[ph.end - 1].lower_ == "following"
                and head.lower_ not in _PROPERTY_NOUNS
                and _noun_lemma(head.lower_) not in _FEATURE_NOUNS
                and _is_modifier(adoc)
            ):
                # the asked noun keeps the modifier the answer is: "to assess which of the following pathway" +
                # "Extrinsic" -> "to assess the extrinsic pathway", "drained by ... vessels" + "Ventral"
                lowered = answer if _acronym(answer.split()[0]) else answer[0].lower() + answer[1:]
                several = any(t.lower_ in ("and", "or") for t in adoc)  # "ventral and dorsal vessels"
                noun = head.text if several or head.tag_ == "NN" else _noun_lemma(head.text)  # "by the oral route"
                return _replace(doc, ph.start, ph.end, f"{'' if several else 'the '}{lowered} {noun}")
            # "X causes which of the following" + "Resistant to caries": no noun phrase for the noun's place
            raise ConversionError("answer_not_a_noun_phrase", "an adjective answer in place of 'the following'")
        start = ph.start
        if start > 0 and doc[start - 1].lemma_.lower() == "do" and len(adoc) and _verb_answer(adoc, expected=True):
            start -= 1  # "began to do what" + "break up" -> "began to break up"; "will do what" + "rust"
            flags["verb_answer"] = True  # no article is tried before it ("can only a contract")
            if doc[start].lower_ in ("does", "did"):  # "X does what" + "rust" -> "X rusts"
                filler = _inflected_answer(answer, "VBZ" if doc[start].lower_ == "does" else "VBD")
            end = ph.end
            obj = _to_object(doc[end + 1], after_what=True) if end + 1 < len(doc) else None
            if obj is not None:
                # "does what to the current" + "increases it" (or "increases") -> "increases the current"
                folded = _fold_object(filler, obj.text, any_verb=True)
                if folded is not None:
                    return _replace(doc, start, obj.end - 1, folded)
        verb = doc[ph.end + 1] if ph.end + 1 < len(doc) else None
        if (
            verb is not None
            and ph.kind == "nominal"
            and "subj" in ph.word.dep_
            and ph.word.head.i == verb.i
            and verb.tag_ in ("VBZ", "VBP")
            and filler == answer
            # not a noun the tagger read as the verb, with a relative clause after it ("have what objects that ...")
            and doc[verb.i + 1 : verb.i + 2].text.lower() not in ("that", "which", "who")
            # a clause answer ("if what happens" + "it erupts", "their environment changes")
            and not any(t.tag_ in FINITE_TAGS for t in adoc)
            and verb.lemma_.lower() not in ("happen", "occur")
        ):
            # the subject of a clause inside the sentence, its verb agreeing with the answer: "is the reason what
            # moves" + "continents" -> "is the reason continents move"
            plural = _answer_plural(adoc)
            if plural is not None:
                return _replace(doc, start, verb.i, f"{filler} {_verb_agreeing(verb, plural)}")
        return _replace(doc, start, ph.end, filler)
    nxt = ph.end + 1
    last_answer_word = answer.split()[-1].lower() if answer.split() else ""
    if nxt + 1 < len(doc) and doc[nxt].lower_ == last_answer_word and doc[nxt].lower_ not in AUX_WORDS:
        nxt += 1  # "What fuels provide ..." + "fossil fuels": the tagger read "fuels" as the verb
    if nxt >= len(doc) and ph.start > 0 and ph.kind != "adverb":
        # the wh-phrase ends a statement after a comma: "The name of the cation comes first, ..., in what kind of
        # compound?" -> "..., in an ionic compound"
        if ph.prep is not None and not _own_preposition(ph, adoc, filler, answer):
            filler = f"{ph.prep.lower()} {filler}"
        return _replace(doc, ph.start, ph.end, filler)
    if nxt >= len(doc):
        raise ConversionError("bare_wh_word")
    j = _where_in(doc, nxt) if ph.kind == "adverb" and ph.start == cstart else None
    if j is not None:  # "Where in the atom is a neutron found?" -> "In the atom, a neutron is found in the nucleus"
        opener = doc[nxt:j].text
        prefix += opener[0].upper() + opener[1:] + ", "
        nxt = j
    aux = doc[nxt]
    inverted = aux.lower_ in AUX_WORDS and _starts_np(doc, nxt + 1)
    emphatic = ""  # the tag of a "do" left by a removed "not" when the verb after it is the one to inflect
    if aux.lower_ in ("do", "does", "did") and nxt + 1 < len(doc):
        inverted = True  # "What do fungi produce" even when the tagger reads "fungi" as an adverb
        if doc[nxt + 1].lower_ in ("not", "n't") and nxt + 2 < len(doc) and doc[nxt + 2].tag_ == "VB":
            inverted = False  # "What type of organisms do not need blood": the wh-phrase is the subject
        elif flags.get("dropped_not") and doc[nxt + 1].tag_ == "VB" and ph.kind in ("nominal", "det"):
            # "do" left by a removed "not" (an exception stem turned positive: "What organisms do need blood"): the
            # verb follows
            if any(t.tag_ == "CC" and _coordinates_verb(doc, t.i) for t in doc[nxt + 2 :]):
                # "What bacteria do [not] need oxygen and die in its presence": the removed "not" covered one verb
                # only, so the positive stem is true of no option
                raise ConversionError("negated_coordination")
            emphatic = {"does": "VBZ", "did": "VBD"}.get(aux.lower_, "VBP")  # the tense the removed "do" carried
            inverted, nxt, aux = False, nxt + 1, doc[nxt + 1]
    classifier = ph.kind == "det" and ph.noun_start is not None and doc[ph.noun_start].lemma_.lower() in _CLASS_NOUNS
    stranded = inverted and _ends_in_preposition(doc)  # "Which kingdom are mosses and trees included in?"
    if aux.lower_ in BE_FORMS and (ph.kind == "det" or ph.partitive) and not (classifier and inverted) and not stranded:
        inverted = False  # "Which of the following is a vertebrate" / "Which metal is ...": wh is the subject
    if aux.lower_ in ("has", "have", "had") and inverted and ph.kind in ("nominal", "det"):
        # "Which drug has gametocidal action": a main verb, unless a participle follows ("What has X done")
        # (a participle that modifies a noun after it, "specialized cells", is not one)
        # (nor a passive in a relative clause: "What type of organism has spores that are spread by water")
        inverted = False
        for t in doc[nxt + 1 :]:
            if t.lower_ in ("that", "which", "who") or t.lower_ in BE_FORMS:
                break
            if t.tag_ == "VBN" and not (t.dep_ == "amod" and t.head.i > t.i):
                inverted = True
                break
    if ph.prep is not None or ph.kind in ("adverb", "how_adj"):
        inverted = inverted or aux.lower_ in AUX_WORDS
    happen = nxt if aux.lemma_.lower() == "happen" else None
    if aux.tag_ == "MD" and nxt + 1 < len(doc) and doc[nxt + 1].lemma_.lower() == "happen":
        happen = nxt + 1  # "What will happen if ..."
    if ph.kind == "nominal" and ph.start == 0 and happen is not None and happen + 1 < len(doc):
        condition = doc[happen + 1 :]
        if condition[0].lower_ in _CONDITIONS:
            done = _what_happens_if(doc[nxt : happen + 1].text, condition, answer, adoc)
            if done is not None:
                return prefix + done
    if ph.kind == "nominal" and aux.lemma_.lower() == "happen":
        clause = any(t.tag_ in ("VBZ", "VBP", "VBD") for t in adoc)
        to = nxt + 1 < len(doc) and doc[nxt + 1].lower_ == "to"  # "What happens to X", not "What happens when"
        if clause or _is_state(adoc) or (to and _verb_first(adoc)):
            return prefix + _what_happens(doc, nxt, answer, adoc, clause)
        if _verb_first(adoc):  # "What happens when bonds break?" + "release heat": a verb with no subject
            raise ConversionError("unsupported_question_form", "what happens + a verb answer without a subject")
    if not inverted:
        if ph.prep is not None:
            fronted = _fronted_without_inversion(doc, ph, filler, adoc)
            if fronted is not None:
                return prefix + fronted
            raise ConversionError("unsupported_question_form", "fronted preposition without inversion")
        # The wh-phrase is the subject: put the answer in its place, fix agreement of the verb after it.
        verbal = aux.pos_ in ("VERB", "AUX") or aux.tag_.startswith("VB") or aux.tag_ == "MD"
        between = ""
        if not verbal and not _verb_like(aux, ("VBZ", "VBP", "VBD")):
            # An adverb or a prepositional phrase between the wh-phrase and its verb ("What factor largely
            # determines ...", "What planet in our solar system has ..."): it stays after the answer.
            j = _verb_after_modifiers(doc, nxt)
            if j is None:
                raise ConversionError("no_finite_verb", f"{aux.text!r} after the wh-phrase is not a verb")
            between = doc[nxt:j].text
            nxt, aux = j, doc[j]
        plural = _answer_plural(adoc) if ph.kind in ("nominal", "det") else None
        if ph.kind == "how_many" and flags.get("one"):
            plural = False  # "How many stars are in our solar system?" + "one" -> "One star is ..."
        if filler != answer and ph.kind == "det" and ph.noun_start is not None:
            # the asked noun was kept ("the second stage", "the term mutations", "Aristotle's laws of motion"): its
            # head decides the number
            head = next(
                (
                    t
                    for t in doc[ph.noun_start : ph.end]
                    if doc[t.i + 1].lower_ == "of" and t.lemma_.lower() not in _CLASS_NOUNS and t.pos_ == "NOUN"
                ),
                doc[ph.end],
            )
            plural = head.tag_ in ("NNS", "NNPS")
        verb_text = aux.text if _acronym(aux.text) else aux.text.lower()
        if plural is not None and (aux.lower_ in SING_PLUR or aux.lower_ in PLUR_SING):
            verb_text = _agree(verb_text, plural)
        elif plural is not None and aux.tag_ in ("VBZ", "VBP") and aux.lower_ not in AUX_WORDS:
            verb_text = _inflect(aux, "VBZ" if not plural else "VBP")
        if emphatic:  # "Which scientist did [not] study pea plants" -> "Darwin studied ..."
            tag = "VBD" if emphatic == "VBD" else emphatic if plural is None else "VBP" if plural else "VBZ"
            verb_text = _inflect(aux, tag)
        noun_text = doc[ph.noun_start : ph.end + 1].text if ph.noun_start is not None else ""
        if filler == answer and _imperative_answer(adoc) and _ACTION_WORDS.search(doc.text):
            # "Check serum TSH" as the subject of "is the most appropriate next step" -> "Checking serum TSH is"
            filler, plural = _gerund(answer, adoc), False
            if verb_text.lower() in PLUR_SING:
                verb_text = _agree(verb_text, False)
        elif filler != answer and ph.kind == "det":
            classifier_phrase = re.search(r"\b(type|kind|form|sort|class)s? of\b", noun_text.lower())
            if (
                not filler.lower().startswith("the ")
                and ph.start == cstart
                and not classifier_phrase
                and _countable_singular(doc[ph.end])
            ):
                filler = f"the {filler}"  # "What bodily system is ..." + "immune" -> "The immune system is ..."
        rest = _coordinated_agreement(doc, aux, plural) if nxt + 1 < len(doc) else ""
        body = f"{filler} {between} {verb_text} {rest}".strip()
        body = _fix_predicate_number(body, plural)
        return prefix + _sentence_start(prefix, body)
    return prefix + _sentence_start(prefix, _invert(doc, ph, nxt, filler, answer, adoc, flags))


_VERB_FOLLOWERS = frozenset(
    {"DT", "PRP", "PRP$", "CD", "JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "IN", "RP", "RB"}
)


def _coordinated_agreement(doc: Any, verb: Any, plural: bool | None) -> str:
    """The text after the verb whose number the answer changed, with the verbs coordinated with it changed too
    ("Chromoplasts make and store pigments", "Sound waves hit the eardrum and cause it to vibrate"; also "stores"
    the tagger read as a plural noun)."""
    from lemminflect import getAllLemmas

    words = [t.text_with_ws for t in doc[verb.i + 1 :]]
    if (
        plural is None
        or verb.tag_ not in ("VBZ", "VBP")
        or (verb.lower_ in AUX_WORDS and verb.lower_ not in ("has", "have"))
    ):
        return "".join(words).strip()
    for t in doc[verb.i + 1 :]:
        # ("makes and stores": right after "and" after the verb; not "remains and wastes", "..., and shoes slip")
        read_as_noun = t.tag_ == "NNS" and "VERB" in getAllLemmas(t.lower_) and t.i == verb.i + 2
        read_as_noun = read_as_noun and doc[t.i - 1].lower_ == "and"
        # a verb goes on to its object or complement (not "remains and wastes to get", "bears leaves and", "shoes
        # slip": plural nouns tagged as verbs)
        nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
        goes_on = nxt is None or nxt.is_punct or nxt.tag_ in _VERB_FOLLOWERS
        if t.dep_ == "conj" and t.head.i == verb.i and (t.tag_ == verb.tag_ or read_as_noun) and goes_on:
            words[t.i - verb.i - 1] = _inflect(t, "VBP" if plural else "VBZ") + t.whitespace_
    return "".join(words).strip()


_ACTION_WORDS = re.compile(
    r"\b(step|management|manage|treatment|done|intervention|approach|action|investigation|measure|plan|next|confirm|test"
    r"|method|strategy)\b",
    re.I,
)


def _verb_after_modifiers(doc: Any, i: int, limit: int = 12) -> int | None:
    """Index of the finite verb after adverbs, or after a prepositional phrase or commas, starting at ``i``; None
    when the words there are not such modifiers (a coordinated noun: "What color and shape are ...")."""
    first = doc[i]
    if not (first.tag_ in ("RB", "RBR", "RBS", "IN", ",") or first.pos_ in ("ADV", "ADP")):
        return None
    for k in range(i + 1, min(len(doc), i + limit)):
        t = doc[k]
        if t.text in ("?", ";") or t.lower_ in ("which", "that", "who", "what"):
            return None
        prev = doc[k - 1]
        finite = t.tag_ in FINITE_TAGS or (t.pos_ in ("VERB", "AUX") and t.tag_ not in ("VBG", "VBN"))
        if finite or (_verb_like(t, ("VBZ", "VBP", "VBD")) and prev.pos_ not in ("DET", "ADP")):
            return k
    return None


@functools.lru_cache(maxsize=65536)
def _answer_pattern(answer: str) -> re.Pattern[str]:
    """Where ``answer`` stands in a claim: the whole words, any case (compiled once per answer)."""
    return re.compile(rf"(?<![\w-]){re.escape(answer)}(?![\w-])", re.I)


def _no_article_before_plural(text: str, answer: str) -> str:
    """No "a"/"an" before a plural answer ("is called a what?" + "vesicles" -> "is called vesicles")."""
    from lemminflect import getAllLemmas

    head_words = re.split(r"\s+of\s+", answer, maxsplit=1)[0].split()  # "a rainbow of colors": "rainbow" decides
    last = head_words[-1].lower() if head_words else ""
    if not _plural_form(last) or "ADJ" in getAllLemmas(last):
        return text
    m = re.search(rf"\b(an?) (?={_answer_pattern(answer).pattern})", text, re.I)
    if m is None:
        return text
    out = text[: m.start()] + text[m.end() :]
    return out[0].upper() + out[1:] if m.start() == 0 and out else out


def _single_preposition(text: str, answer: str, question: str) -> str:
    """The preposition before the answer said once: the question's fronted and stranded copies ("In what unit is
    frequency measured in?" -> "... measured in hertz", not "in in hertz"), or the question's own and the
    answer's ("Where do germline mutations occur in?" + "in gametes" -> "... occur in gametes") when the question
    fronts or strands it; never in a fixed phrase ("used in in situ hybridization", "created in in vitro ...")."""
    ans = re.escape(answer)
    text = re.sub(rf"\b({_GAP_PREPOSITIONS})\s+\1\s+(?={ans}(?![\w-]))", r"\1 ", text, count=1, flags=re.I)
    words = answer.lower().split()
    q = question.lower().split()
    stranded = bool(q) and q[-1] == words[0] or bool(q) and q[0] == words[0]
    if len(words) > 1 and re.fullmatch(_GAP_PREPOSITIONS, words[0]) and stranded and words[1] not in _FIXED_AFTER:
        text = re.sub(rf"\b{words[0]}\s+(?={ans}(?![\w-]))", "", text, count=1, flags=re.I)
    return text


_NAME_PARTICLES = frozenset({"van", "von", "der", "de", "da", "di", "du", "la", "le"})
_FIXED_AFTER = frozenset({"vitro", "vivo", "situ", "utero", "silico", "toto", "vacuo", "extremis", "absentia"})
_GAP_PREPOSITIONS = "|".join(sorted(PREPOSITIONS | {"through", "within", "across", "inside", "via", "onto", "toward"}))


# never cased from the KB, though it spells some of them as names ("OR", "IN", "AND", "May", "Will")
_NEVER_NAMES = STOPWORDS | {"also", "than", "then", "onto", "us", "it", "we", "me", "him", "her", "you", "or", "and"}
LM_MARGIN = 0.85  # an alternative wording replaces the claim only with a perplexity at least 15% lower
# countability from the LM's word frequencies (plural / singular; RuleQA2D._countability)
COUNT_PLURALS = 0.2
MASS_PLURALS = 0.01
UNIQUE_THE = 0.5  # nats: log p(noun | "the") - log p(noun)
MIN_NOUN_FREQUENCY = 1e-6  # rarer singulars: too few plurals seen to tell
# rarer nouns: the article before them (RuleQA2D._article_affinity); at 1e-7 a word occurs a few times in the text
MIN_RARE_FREQUENCY = 1e-7
STRONG_COUNT_PLURALS = 0.5  # plurals this common: an article even claim-initially ("A confined aquifer is")
RARE_ARTICLE_PMI = 1.3  # nats; "sphygmomanometer" 1.4 after "a", "thermosphere" 1.4 after "the"; "lignin" 1.07
# where a singular count noun needs an article (the claim's text just before the answer): a predicate noun or the
# object of "into", "by", "with", "as"; elsewhere ("the whole plant", "solid, liquid, or gas", claim-initial
# "Amplitude is ...") the LM may keep it bare
_PREDICATE_SLOT = re.compile(
    r"\b(?:is|are|was|were|be|been|called|named|known as|referred to as|refered to as|considered|example of|"
    r"part of|into|by|with|as)\s+$",
    re.I,
)


_NP_MODIFIER_TAGS = frozenset({"JJ", "NN", "VBN", "VBG"})
_CHEMICAL = re.compile(
    r"(?:fluor|chlor|brom|iod|ox|sulf|sulph|nitr|hydr|carbon|phosph|cyan|silic|acet)(?:ide|ate|ite)$"
)
# heads of answers that are mass nouns or names of conditions and substances: no article is tried ("the blood
# pressure", "a breast cancer", "is called a hydrogen" read as wrong); the n-gram LM alone chose them in a SciQ train
# comparison. Words that are count nouns as often ("gas": "is in a gas") are left to the LM.
_MASS_HEADS = frozenset(
    (  # noqa: SIM905
        "pressure change water acid decay tissue transport temperature light therapy drift fluid "
        "potential speed time torque matter efficiency air fog momentum work rain behavior mass cancer blood "
        "voltage heat sugar salt oil soil ice carbon oxygen nitrogen hydrogen iron lead copper zinc tin disease "
        "diabetes block rock sand dust smoke food waste damage growth flow power current charge stress strain "
    ).split()
)


# words after which "of" takes a bare noun: classifiers, measures, verbs of composition (not partitives: "most of the
# brain", "out of the heart")
_CLASSIFIERS_BEFORE_OF = "|".join(
    "types? kinds? forms? sorts? class(?:es)? units? variet(?:y|ies) groups? numbers? amounts? pieces? made composed "  # noqa: SIM905
    "consists? consisting lots? because instead terms rates? speeds? degrees? levels? states? process(?:es)? study "
    "science measures? symbols? names? categor(?:y|ies) species famil(?:y|ies)".split()
)


def _nouns_after(text: str, answer: str, qdoc: Any, tags: tuple[str, ...] = ("NOUN",)) -> list[Any]:
    """The question's tokens (of the parts of speech ``tags``) that are the word after the answer in the claim."""
    m = _answer_pattern(answer).search(text)
    nxt = re.match(r"\s+([a-z]+)", text[m.end() :]) if m else None
    return [t for t in qdoc if t.lower_ == nxt.group(1) and t.pos_ in tags] if nxt is not None else []


def _modifies_next_noun(text: str, answer: str, qdoc: Any) -> bool:
    """The answer is followed by the noun the question asked about, which it modifies ("in what layer" +
    "subsoil": "the subsoil layer"; not the verb of "What fills ..." + "keratin")."""

    def asked(t: Any) -> bool:  # the head of "what (soil) layer"
        for k in range(t.i - 1, max(t.i - 4, -1), -1):
            if qdoc[k].lower_ in ("what", "which"):
                return True
            if qdoc[k].pos_ not in ("NOUN", "ADJ", "PROPN"):
                return False
        return False

    return any(asked(t) for t in _nouns_after(text, answer, qdoc))


def _noun_head(toks: list[Any]) -> bool:
    """The answer's last word is a singular common noun: tagged NN, or, since the tagger reads a word alone badly
    ("atom", "ocean" tagged JJ), a word lemminflect knows only as a noun (or as a noun and an adjective after a
    modifier: "dependent variable")."""
    from lemminflect import getAllLemmas

    last = toks[-1]
    if last.tag_ == "NN":
        return True
    if last.tag_ in ("NNS", "NNP", "NNPS") or not last.is_alpha:
        return False
    lemmas = getAllLemmas(last.lower_)
    if not lemmas:  # a term lemminflect does not know, tagged anything alone ("thermosphere" EX): not an adjective
        return (
            len(last.text) > 4
            and last.text.islower()
            and not last.lower_.endswith(_ADJECTIVE_SUFFIXES)
            and all(t.tag_ in ("JJ", "NN") and not t.lower_.endswith("ing") for t in toks[:-1])  # "inhibiting X"
        )
    return lemmas.get("NOUN") == (last.lower_,) and ("ADJ" not in lemmas or len(toks) > 1)


_ADJECTIVE_SUFFIXES = ("ic", "al", "ous", "ive", "ar", "ary", "ant", "ent", "ed", "ing", "ly", "ible", "able", "s")


def _article_variants(text: str, answer: str, adoc: Any) -> tuple[list[str], str | None, str]:
    """For an answer whose head is a singular count noun ("polysaccharide", "excretory system", "study of extinct
    plants"), the claim with "the" and with "a"/"an" before it ("... is known as a polysaccharide", "The excretory
    system gets rid of ..."), for the LM to choose from, the head noun and the claim's text before the answer; none
    for mass and substance heads."""
    toks = [t for t in adoc if not t.is_punct]
    of = next((k for k, t in enumerate(toks) if t.lower_ == "of"), None)
    if of:  # "study of extinct plants": the noun before "of" decides
        toks = toks[:of]
    # one singular noun, or one after up to two modifiers ("excretory system", "boiling point"; 2026-11-27 reading:
    # missing articles were the most common wording fault of a SciQ build)
    if not 1 <= len(toks) <= 3 or not _noun_head(toks) or any(t.tag_ not in _NP_MODIFIER_TAGS for t in toks[:-1]):
        return [], None, ""
    if not answer.islower() or not answer.replace(" ", "").isalpha():  # not "iron-def", "oxygen-poor blood"
        return [], None, ""
    if (
        toks[-1].lower_ in _MASS_HEADS
        or _CHEMICAL.search(toks[-1].lower_)  # "calcium fluoride", "sodium hydroxide"
        or toks[-1].lower_.endswith(("emia", "itis", "osis"))  # "sickle cell anemia"
        or _plural_form(toks[-1].lower_)  # "food webs" tagged as a singular
    ):
        return [], None, ""  # "breast cancer", "carbon dioxide gas", "gene therapy"
    m = _answer_pattern(answer).search(text)
    if m is None:
        return [], None, ""
    before = text[: m.start()]
    # not after a determiner, nor after "of" that follows a classifier or a measure ("a type of cell", "the unit of
    # force", "made of"), but "an example of an inclined plane", "part of the adrenal system", "a tumor of the
    # pituitary gland", "a layer of the dermis" (2026-11-27 readings); nor after "the term" ("The term organelle ...")
    if re.search(r"\b(the|a|an|this|that|its|their|his|her|no|term|word|do)\s+$", before, re.I) or re.search(
        rf"\b(?:{_CLASSIFIERS_BEFORE_OF})\s+of\s+$", before, re.I
    ):
        return [], None, ""
    found = text[m.start() : m.end()]
    indef = indefinite_article(answer)
    out = []
    for art in ("the", indef):
        word = art.capitalize() if m.start() == 0 else art
        out.append(f"{before}{word} {found[0].lower() + found[1:] if m.start() == 0 else found}{text[m.end() :]}")
    return out, toks[-1].lower_, before


def _sentence_start(prefix: str, body: str) -> str:
    """A claim sentence after context sentences starts with a capital ("... in Figure A. Rectal suction ...")."""
    if prefix.strip() and prefix.rstrip()[-1:] in ".!?" and body[:1].islower():
        return body[0].upper() + body[1:]
    return body


def _ends_in_preposition(doc: Any) -> bool:
    toks = [t for t in doc if not t.is_punct]
    return bool(toks) and (toks[-1].pos_ == "ADP" or toks[-1].tag_ in ("IN", "RP")) and toks[-1].lower_ in _PARTICLES


def _imperative_answer(adoc: Any) -> bool:
    """An option that is an instruction ("Perform a root cause analysis", "Check serum TSH and free T4")."""
    from lemminflect import getAllLemmas

    toks = [t for t in adoc if not t.is_punct]
    if len(toks) < 2 or toks[0].i != 0:
        return False
    lemmas = getAllLemmas(toks[0].lower_)
    if toks[0].lower_ not in lemmas.get("VERB", ()):
        return False
    if toks[0].tag_ in ("VB", "VBP"):
        return True
    # the tagger reads a verb opening an option as a noun: trusted for a word that is only a verb ("administer/NN
    # intravenous hydration"), or one before its object's determiner ("add/NN an alert"); not "stem cell therapy",
    # "biopsy of the lesion"
    return toks[0].tag_ in ("NN", "NNP") and ("NOUN" not in lemmas or toks[1].tag_ in ("DT", "PRP$", "CD"))


def _gerund(answer: str, adoc: Any) -> str:
    """ "Check serum TSH" -> "checking serum TSH"; "wait and watch" -> "waiting and watching"."""
    from lemminflect import getInflection

    words = []
    for k, t in enumerate(adoc):
        coordinated = k > 1 and adoc[k - 1].lower_ in ("and", "or") and t.tag_ == "VB"
        forms = getInflection(t.lower_, tag="VBG") if k == 0 or coordinated else ()
        words.append((forms[0] if forms else t.text) + t.whitespace_)
    return "".join(words).strip()


def _is_state(adoc: Any) -> bool:
    toks = [t for t in adoc if not t.is_punct]
    return bool(toks) and toks[0].tag_ in ("VBN", "JJ", "VBD") and all(t.pos_ != "NOUN" for t in toks[:1])


def _verb_first(adoc: Any) -> bool:
    """An answer that is a verb phrase without a subject: "shorten", "get larger", "decreases", "remains constant"."""
    from lemminflect import getAllLemmas, getInflection

    toks = [t for t in adoc if not t.is_punct]
    if not toks:
        return False
    if len(toks) == 1:  # "shorten", "doubles"; not a participle ("destroyed") or a noun ("damage", "heat")
        word = toks[0].lower_
        verbs = getAllLemmas(word).get("VERB", ())
        if not verbs or toks[0].tag_ in ("VBD", "VBN"):
            return False
        return (
            toks[0].tag_ in ("VB", "VBP", "VBZ")
            or "NOUN" not in getAllLemmas(word)
            or word in getInflection(verbs[0], tag="VBZ")  # a third-person form: "doubles", "decreases"
        )
    return toks[0].tag_ in ("VB", "VBP", "VBZ")


def _answer_predicate(answer: str, adoc: Any, plural: bool, past: bool = False) -> str | None:
    """The answer as the predicate of the asked noun phrase, agreeing with it: a clause on "it"/"they" without its
    pronoun ("it increases" -> "increases"; "they are lower" -> "are lower"; its own tense and modal kept), or a verb
    phrase ("shorten", "remains constant"; in the past for a past question); None for any other answer."""
    toks = [t for t in adoc if not t.is_punct]

    def agreeing(verb: str, tag: str) -> str:  # "are" / "is" by the subject; other verbs inflected ("grow" -> "grows")
        first, _, rest = verb.partition(" ")
        low = first.lower()
        negated = low.endswith("n't") and low[:-3] in {**SING_PLUR, **PLUR_SING}  # "doesn't" -> "don't"
        if negated:
            return f"{_agree(low[:-3], plural)}n't {rest}".strip()
        if low in SING_PLUR or low in PLUR_SING or low == "be":
            return f"{_agree(first, plural) if low != 'be' else ('are' if plural else 'is')} {rest}".strip()
        return _inflected_answer(verb, tag)

    present = "VBP" if plural else "VBZ"
    if len(toks) > 1 and toks[0].lower_ in ("it", "they") and (toks[1].tag_.startswith("VB") or toks[1].tag_ == "MD"):
        verb = adoc[toks[1].i :].text.strip()  # the answer's own spacing ("increases, then decreases")
        if toks[1].lower_ in ("'s", "’s"):  # "it's unchanged"
            verb = "is " + adoc[toks[2].i :].text.strip() if len(toks) > 2 else ""
        if not verb:
            return None
        return verb if toks[1].tag_ in ("MD", "VBD") else agreeing(verb, present)
    if _verb_first(adoc):
        return agreeing(answer, "VBD" if past else present)
    return None


_QUANTIFIERS = frozenset(["most", "some", "all", "many", "few", "several", "both", "half", "none", "each", "any"])


def _np_plural(span: Any) -> bool:
    """Whether a noun phrase is plural, by its head: "the rate of chemical reactions" (no), "an animal's telomeres",
    "temperature and pressure" (coordinated), "most of the cells" (the noun after a quantifier's "of")."""
    root = span.root
    if root.lower_ in _QUANTIFIERS:
        noun = next(  # "of" as the noun's case marker (UD) or as the quantifier's preposition (Stanford)
            (
                t
                for t in span
                if (t.head == root and any(c.lower_ == "of" and c.dep_ == "case" for c in t.children))
                or (t.head.lower_ == "of" and t.head.head == root)
            ),
            None,
        )
        if noun is not None:
            root = noun
    return root.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" and c.i < span.end for c in root.children)


# asked nouns an adjective answer does not make a noun phrase with: "X causes which of the following features?" +
# "Malignant" is not "the malignant feature" (the answer is the feature; also _PROPERTY_NOUNS)
_FEATURE_NOUNS = frozenset(
    "statement option fact change finding sign symptom reason factor result outcome complication".split()  # noqa: SIM905
)


def _noun_lemma(word: str) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(word, upos="NOUN")
    return lemmas[0] if lemmas else word


def _earth_layer(noun: str | None) -> bool:
    """One of the Earth's (or a star's) layers, which take "the": "thermosphere", "biosphere" (not "atmosphere")."""
    return noun is not None and noun.endswith("osphere") and noun != "atmosphere"


def _knows_verb(word: str) -> bool:
    from lemminflect import getAllLemmas

    return "VERB" in getAllLemmas(word)


_CONDITIONS = frozenset({"when", "if", "after", "whenever", "once"})


def _what_happens_if(happens: str, condition: Any, answer: str, adoc: Any) -> str | None:
    """'What happens if a catalyst runs out?' + 'reaction slows' -> 'If a catalyst runs out, the reaction slows'; a
    verb phrase gets the condition's subject as a pronoun ('What happens when a sodium atom loses an electron?' +
    'becomes sodium ion' -> 'When a sodium atom loses an electron, it becomes sodium ion'; + 'excreted as urine' ->
    '..., it is excreted as urine'); a noun phrase is what happens ('Thermal pollution happens when heated water is
    released into a body of water'). None when the condition has no subject to refer to."""
    from claimforge.nlp.normalize import finite_verb_form

    if len([t for t in condition if not t.is_punct]) < 3:
        return None
    cond = condition.text.strip().rstrip("?").strip()
    opening = cond[0].upper() + cond[1:]  # "When a sodium atom loses an electron"
    toks = [t for t in adoc if not t.is_punct]
    if not toks:
        return None
    clause = len(toks) > 1 and (
        any(t.tag_ in ("VBZ", "VBP", "VBD", "MD") for t in toks[1:])
        or (finite_verb_form(toks[1].text) and not noun_reading(toks[1].text))  # "deflates"; not "disorders"
    )
    state = toks[0].tag_ == "VBN" and (
        len(toks) == 1 or toks[1].pos_ not in ("NOUN", "PROPN")
    )  # not "acquired immunity"
    if _verb_first(adoc) or state:
        subj = [t for t in condition if t.dep_ in ("nsubj", "nsubj:pass")]
        if not subj:
            return None
        if subj[0].tag_ == "PRP":  # "When they are heated, they expand"; "When you touch ..., you get burned"
            pronoun = subj[0].lower_ if subj[0].lower_ in ("it", "they", "we", "you", "he", "she") else None
            if pronoun is None:
                return None
            plural = pronoun in ("they", "we", "you")
        else:
            plural = _np_plural(condition.doc[subj[0].left_edge.i : subj[0].i + 1])
            pronoun = "they" if plural else "it"
        if state:  # "excreted as urine"
            predicate = f"{'are' if plural else 'is'} {answer}"
        else:
            predicate = _answer_predicate(answer, adoc, plural) or _inflected_answer(answer, "VBP" if plural else "VBZ")
        return f"{opening}, {pronoun} {predicate}"
    if clause and toks[0].pos_ in ("NOUN", "PROPN", "PRON", "DET"):  # (not "fast heart beat")
        # a clause: its bare singular subject gets "the" ("balloon deflates" -> "the balloon deflates")
        bare = toks[0].tag_ == "NN" and toks[0].pos_ == "NOUN" and not toks[0].text[:1].isupper()
        body = f"the {answer}" if bare else (answer if _keeps_capital(toks[0]) else answer[0].lower() + answer[1:])
        return f"{opening}, {body}"
    if toks[-1].pos_ in ("NOUN", "PROPN"):  # a noun phrase: "Thermal pollution happens when ..."
        verb = "happen" if happens.lower() == "happens" and _answer_plural(adoc) else happens
        return f"{answer} {verb.lower()} {cond}"
    return None


def _what_happens(doc: Any, verb_i: int, answer: str, adoc: Any, clause: bool = False) -> str:
    """'What happens to old crust at boundaries?' + 'destroyed' -> 'Old crust is destroyed at boundaries.'; a verb
    or a clause on "it"/"they" gets the noun phrase as its subject: + 'shorten' -> 'An animal's telomeres shorten as
    it ages', + 'it increases' -> 'The temperature of matter increases as light is absorbed'."""
    if verb_i + 1 >= len(doc) or doc[verb_i + 1].lower_ != "to":
        raise ConversionError("unsupported_question_form", "what happens without 'to'")
    s = verb_i + 2
    if s >= len(doc):
        raise ConversionError("unsupported_question_form", "what happens to: no noun phrase")
    e = _noun_run_end(doc, s) if doc[s].tag_ not in ("DT", "PRP$") else _noun_run_end(doc, s + 1)
    if e < s:
        raise ConversionError("unsupported_question_form", "what happens to: no noun phrase")
    if doc[e].tag_ == "HYPH" or (e + 1 < len(doc) and not doc[e].whitespace_ and doc[e + 1].tag_ == "HYPH"):
        raise ConversionError("unsupported_question_form", "what happens to: the noun phrase ends inside a word")
    while e + 2 < len(doc) and doc[e + 1].lower_ in ("and", "or") and _noun_run_end(doc, e + 2) > e + 1:
        e = _noun_run_end(doc, e + 2)  # "growth of plants and bacteria"
    plural = _np_plural(doc[s : e + 1])
    be = {"VBD": "were" if plural else "was"}.get(doc[verb_i].tag_, "are" if plural else "is")
    subject = doc[s : e + 1].text
    tail = doc[e + 1 :].text if e + 1 < len(doc) else ""
    predicate = _answer_predicate(answer, adoc, plural, past=doc[verb_i].tag_ == "VBD")
    if predicate is not None:
        return f"{subject} {predicate} {tail}"
    if clause and not _is_state(adoc):
        return f"{answer} {tail}"  # "What happens to the volume when T rises?" + "volume increases"
    return f"{subject} {be} {answer} {tail}"  # a state: + "destroyed", "created" (tagged a past tense)


def _starts_np(doc: Any, i: int) -> bool:
    if i >= len(doc):
        return False
    t = doc[i]
    if t.tag_ in ("DT", "PRP", "PRP$", "NN", "NNS", "NNP", "NNPS", "CD", "EX") or t.pos_ in ("PROPN", "PRON"):
        return True
    if t.tag_ == "PDT":  # "all the cells"
        return True
    if t.lower_ in ("most", "some", "all", "many", "much", "half", "part") and doc[i + 1 : i + 2].text == "of":
        return True  # "What is most of earth's surface covered with"
    if t.tag_ == "VBN" and i + 1 < len(doc) and doc[i + 1].tag_ in ("VBG", "IN", "TO"):
        return False  # a verb, not a modifier: "What is measured using units ...", "What is found in ..."
    if t.tag_ in ("JJ", "JJR", "JJS", "RB", "RBS", "VBG", "VBN"):  # "most fresh fruits"
        j = i
        while j < len(doc) and doc[j].tag_ in ("JJ", "JJR", "JJS", "RB", "RBS", "HYPH", "VBG", "VBN", "CC", ","):
            j += 1
        return j < len(doc) and doc[j].tag_ in ("NN", "NNS", "NNP", "NNPS")
    return False


MODALS = frozenset(["can", "could", "will", "would", "shall", "should", "may", "might", "must"])
_TRAILING_OK = frozenset({"IN", "RP", "TO", "RB", "RBR"})


def _verb_like(tok: Any, tags: tuple[str, ...]) -> bool:
    """Whether a token is, or could be, a verb form with one of ``tags`` — the EWT-trained tagger often
    reads question verbs as nouns ("What type of rock forms", "does the star end")."""
    if tok.tag_ in tags:
        return True
    if tok.pos_ not in ("NOUN", "ADJ", "VERB", "ADP") or not tok.is_alpha:
        return False
    return _is_verb_form(tok.lower_, tags)


@functools.lru_cache(maxsize=50_000)
def _is_verb_form(word: str, tags: tuple[str, ...]) -> bool:
    from lemminflect import getAllInflections, getAllLemmas

    for lemma in getAllLemmas(word).get("VERB", ()):
        forms = getAllInflections(lemma, upos="VERB")
        if any(word in forms.get(t, ()) for t in tags):
            return True
    return False


def _main_verb(rest: list[Any], aux: Any, adverbial: bool = False) -> int | None:
    """Index in ``rest`` (the tokens after an inverted auxiliary) of the main verb, None if copular.

    ``adverbial``: the question word is where/when/why/how or a fronted PP, so after "be" a participle
    is the passive main verb ("How is energy transferred in ..."), not a reduced relative clause
    ("What is the material found in lava").
    """
    a = aux.lower_
    if a in ("do", "does", "did") or a in MODALS:
        # a verb the tagger read as a noun before a relative clause, whose own verb is not the main one: "What does
        # every star emit/NN that humans cannot see?"
        rel = next((k for k, t in enumerate(rest) if k > 1 and t.lower_ in ("that", "which", "who")), None)
        if rel is not None and not any(t.tag_ in ("VB", "VBP") for t in rest[1:rel]):
            before_rel = [
                k
                for k in range(1, rel)
                if _verb_like(rest[k], ("VB",)) and rest[k - 1].pos_ in ("NOUN", "PROPN", "PRON")
            ]
            if before_rel and any(t.tag_ in ("VB", "VBP", "VBZ", "MD") for t in rest[rel + 1 :]):
                return before_rel[-1]
        for k, t in enumerate(rest):
            base = t.tag_ == "VB" or (t.pos_ == "VERB" and t.tag_ not in ("VBN", "VBG", "VBD", "VBZ"))
            if base and k > 0 and rest[k - 1].lower_ != "to":
                return k
        found = next((k for k, t in enumerate(rest) if k > 0 and t.tag_ in ("VB", "VBP")), None)
        if found is not None:
            return found
        # The tagger missed the verb: a base form after a noun ("does the fusion inside a star end").
        cands = [k for k, t in enumerate(rest) if k > 0 and _verb_like(t, ("VB",)) and rest[k - 1].lower_ != "to"]
        after_noun = [k for k in cands if rest[k - 1].pos_ in ("NOUN", "PROPN", "PRON")]
        return after_noun[-1] if after_noun else (cands[-1] if cands else None)
    if a in ("has", "have", "had"):
        return next((k for k, t in enumerate(rest) if t.tag_ == "VBN"), None)
    # A form of "be": passive or progressive main verb, or none (copular).
    for k, t in enumerate(rest):
        participle = (
            k > 0
            and t.tag_ in ("VBN", "VBG", "VBD")
            and rest[k - 1].lower_ not in ("that", "which", "who")
            and rest[k - 1].tag_ not in ("DT", "PDT", "PRP$")  # "any given surface": an adjective
            # not one that opens a parenthesis ("bile acids, needed to emulsify lipids, stored in ...")
            and not (rest[k - 1].text == "," and any(x.text == "," for x in rest[k + 1 :]))
        )
        # a raising participle before "to" is the fronted auxiliary's verb ("What is the disease known to be spread
        # by?" -> "The disease is known to be spread by ..."), whatever the parser made the root
        raising = (
            t.tag_ == "VBN"
            and t.lower_ in _RAISING
            and rest[k + 1 : k + 2]
            and rest[k + 1].lower_ == "to"
            and (rest[-1].tag_ in ("IN", "RP", "TO") or rest[-1].lower_ == "be")  # the gap after it, not "thought
            # to play a role in the process" (a reduced relative)
        )
        main = t.dep_ == "ROOT" or (adverbial and t.tag_ != "VBG") or bool(raising)
        if participle and main and not _own_auxiliary(rest, k, adverbial):
            return k
    k = len(rest) - 1
    while k > 0 and rest[k].tag_ in _TRAILING_OK:
        k -= 1
    if k > 0 and rest[k].tag_ in ("VBN", "VBG", "VBD") and rest[k - 1].tag_ not in ("IN", "TO"):
        # not a gerund object ("involved in the process of breathing"), nor the passive of a clause inside the
        # subject ("What is the base unit that frequency is typically measured in?": "measured" has its own "is")
        return None if _own_auxiliary(rest, k, adverbial) else k
    if k > 2 and rest[k].tag_ == "VB" and rest[k - 1].tag_ == "TO" and rest[k - 2].tag_ == "VBN":
        return k - 2  # the infinitive lacks its object, the wh-word: "What is X used to measure" (passive "used")
    return None


_RAISING = frozenset(
    "known thought believed said estimated expected supposed considered found shown likely unlikely certain "  # noqa: SIM905
    "able unable reported assumed presumed".split()
)


def _own_auxiliary(rest: list[Any], k: int, adverbial: bool) -> bool:
    """The participle ``rest[k]`` has an auxiliary of its own before it (adverbs between): it is the verb of a
    clause inside the subject ("the structures where proteins are made", "the first amino acid to be isolated",
    "the environment to which it has adapted"), not the main verb of the fronted auxiliary. Not "have" before a
    naming verb ("the feet that protists have called": "have" is the clause's own verb), nor "to be" after
    where / why / how ("Where are meerkats most likely to be found?": the participle is the question's verb)."""
    j = k - 1
    while j > 0 and _true_adverb(rest[j]):
        j -= 1
    if j <= 0:
        return False
    aux = rest[j].lower_
    if aux in ("has", "have", "had"):
        return rest[k].lower_ not in ("called", "named", "termed", "known")
    if aux == "be":
        return not adverbial
    return aux in BE_FORMS | {"been", "being"}


def _changes_intransitively(rest: list[Any], verb_i: int) -> bool:
    """The question's main verb is "change" with no object ("How does air pressure change as ..."; not "How do some
    animals change their depth")."""
    nxt = rest[verb_i + 1].lower_ if verb_i + 1 < len(rest) else ""
    return (
        rest[verb_i].lemma_.lower() == "change"
        and not _starts_np_tokens(rest, verb_i + 1)
        and nxt not in ("into", "to", "from")  # "How does ice change into water?": not "Ice absorbs heat into water"
    )


def _called_before_clause(aux: Any, rest: list[Any]) -> int | None:
    """Where "called" stands in "is NP called when/after ..." (a be-question whose naming verb is followed by a
    clause or phrase of time or condition), else None."""
    if aux.lower_ not in BE_FORMS:
        return None
    for k, t in enumerate(rest[:-1]):
        if t.lower_ == "called" and k > 0 and rest[k + 1].lower_ in ("when", "if", "after", "before", "while"):
            return k
    return None


def _own_preposition(ph: WhPhrase, adoc: Any, filler: str, answer: str) -> bool:
    """The answer brings its own preposition for the wh-phrase's ("At what time" + "in middle adulthood"), or is a
    purpose infinitive for "for what purpose" (+ "to synthesize glycogen", not "for to synthesize")."""
    if ph.prep is None or not len(adoc) or filler != answer:
        return False
    if adoc[0].tag_ == "TO" and ph.prep.lower() == "for":
        return True
    return bool(adoc[0].pos_ == "ADP" and adoc[0].lower_ not in _APPROX)


def _existential(aux: Any, rest: list[Any]) -> bool:
    """An existential "there" + be after the wh-phrase, with no verb or noun clause after it ("are there in the
    universe", "are there between carbon atoms"; not "is there that ...", "is there found")."""
    return (
        aux.lower_ in BE_FORMS
        and rest[0].lower_ == "there"
        and not (len(rest) > 1 and (rest[1].tag_ in ("VBN", "VBG") or rest[1].lower_ in ("that", "which")))
        and not any(t.tag_ in FINITE_TAGS for t in rest)
    )


def _invert(doc: Any, ph: WhPhrase, aux_i: int, filler: str, answer: str, adoc: Any, flags: dict[str, Any]) -> str:
    """WH AUX SUBJ REST -> SUBJ [AUX] REST with the answer in the wh-phrase's canonical position."""
    aux = doc[aux_i]
    rest_all = list(doc[aux_i + 1 :])
    if not rest_all:
        raise ConversionError("no_subject")
    if _existential(aux, rest_all) and (ph.prep is None or ph.prep.lower() in _APPROX):
        # "About how many thunderstorms are there each year worldwide?" -> "There are about 14 million thunderstorms
        # each year worldwide" (not "There each year worldwide are ...")
        tail = "".join(t.text_with_ws for t in rest_all[1:]).strip()
        if ph.kind == "adverb":  # "Why is there little evaporation in X?" -> "There is little ... because ..."
            return f"there {aux.lower_} {tail} {_adverbial(ph.word.lower_, answer, adoc)}".strip()
        if ph.prep and filler.split()[0].lower() not in _APPROX:
            filler = f"{ph.prep.lower()} {filler}"  # "About how many ..." keeps its "about"
        verb = _agree(aux.lower_, False) if flags.get("one") else aux.lower_  # "There is one type of galaxies"
        return f"there {verb} {filler} {tail}".strip()
    called = _called_before_clause(aux, rest_all)
    if called is not None and ph.prep is None and ph.kind in ("nominal", "det"):
        # "What is the fracture called when rocks on both sides move?" -> "The fracture is called a fault when ..."
        named = "".join(t.text_with_ws for t in rest_all[:called]).strip()
        clause = "".join(t.text_with_ws for t in rest_all[called + 1 :]).strip()
        return f"{named} {aux.lower_} called {filler} {clause}"
    verb_i = _main_verb(rest_all, aux, adverbial=ph.prep is not None or ph.kind != "nominal")
    # ("cannot", and "will not", "shall not" written out by prepare_question)
    contracted = rest_all[0].lower_ == "n't" or (
        rest_all[0].lower_ == "not" and (not aux.whitespace_ or aux.lower_ in ("will", "shall"))
    )
    if len(rest_all) > 2 and contracted and aux.tag_ in ("VBZ", "VBP", "VBD", "MD"):
        # "Why doesn't the moon have ...": the negation goes before the verb, after the subject ("The moon does not
        # have ..."), where the rules below read it
        k = _main_verb(rest_all[1:], aux, adverbial=ph.prep is not None or ph.kind != "nominal")
        if not k:  # "Why hasn't the volcano erupted?": no verb found to put it before
            raise ConversionError("unsupported_question_form", "a contracted negation without a main verb")
        rest_all = [*rest_all[1 : k + 1], rest_all[0], *rest_all[k + 1 :]]
        verb_i = k + 1
    is_do = aux.lower_ in ("do", "does", "did")
    if is_do and verb_i is not None:
        # the verb inflected twice in the source ("does gas exchange ... takes place"): the inflected root is the verb
        k = next((k for k, t in enumerate(rest_all) if t.dep_ == "ROOT"), None)
        if (
            k is not None
            and k > verb_i
            and rest_all[k].tag_ == {"does": "VBZ", "did": "VBD"}.get(aux.lower_)
            and not any(t.lower_ in _SUBORDINATORS or t.lower_ in ("as", "that", "which") for t in rest_all[verb_i:k])
        ):
            verb_i = k
    if is_do and verb_i is not None and not _knows_verb(rest_all[verb_i].lower_):
        # a name the tagger read as the verb ("What did sir isaac newton's famous law help ...": not "isaaced"): the
        # next word the lexicon knows as a verb
        verb_i = next(
            (k for k in range(verb_i + 1, len(rest_all)) if rest_all[k].is_alpha and _knows_verb(rest_all[k].lower_)),
            None,
        )
    if is_do and verb_i is None:
        raise ConversionError("no_main_verb")
    if ph.kind == "adverb" and ph.adverb == "how" and is_do and verb_i and _changes_intransitively(rest_all, verb_i):
        # "How does air pressure change as altitude increases?" + "it decreases" -> "Air pressure decreases as ..."
        subject = rest_all[:verb_i]
        span = doc[subject[0].i : subject[-1].i + 1]
        # the auxiliary tells the number ("How do temperature and pressure change"); "did" does not
        plural = aux.lower_ == "do" if aux.lower_ in ("do", "does") else _np_plural(span)
        predicate = _answer_predicate(answer, adoc, plural, past=aux.lower_ == "did")
        if predicate is not None and span.root.pos_ in ("NOUN", "PROPN"):
            tail = "".join(t.text_with_ws for t in rest_all[verb_i + 1 :]).strip()
            return f"{''.join(t.text_with_ws for t in subject).strip()} {predicate} {tail}".strip()
    n_subj = verb_i if verb_i is not None else len(rest_all)
    if n_subj == 0:
        raise ConversionError("no_subject")
    negated = (
        verb_i is not None
        and n_subj > 1
        and rest_all[n_subj - 1].lower_ in ("not", "n't")
        and rest_all[n_subj - 2].tag_ != "MD"  # the subject's own ("that humans cannot see")
        and rest_all[n_subj - 2].lower_ not in AUX_WORDS
    )
    if negated:  # "What can sodium ions not pass through" -> "Sodium ions can not pass through ANSWER"
        rest_all, n_subj = rest_all[: n_subj - 1] + rest_all[n_subj:], n_subj - 1
        verb_i = n_subj
    adverbs = ""
    if aux.lower_ not in ("do", "does", "did") and verb_i is not None:
        k = n_subj
        # (not an adverb of a participle in the subject: "two identical atoms bonded together called")
        while k > 1 and _true_adverb(rest_all[k - 1]) and rest_all[k - 2].tag_ not in ("VBN", "VBG"):
            k -= 1
        adverbs = "".join(t.text_with_ws for t in rest_all[k:n_subj]).strip()
        rest_all, n_subj = rest_all[:k] + rest_all[n_subj:], k
        if verb_i is not None:
            verb_i = k
    predicate = ""
    if verb_i is None and aux.lower_ in BE_FORMS and ph.kind == "adverb":
        k = _adjective_predicate(rest_all[:n_subj])  # "Why is the drift velocity negligible?"
        predicate = "".join(t.text_with_ws for t in rest_all[k:n_subj]).strip()
        rest_all, n_subj = rest_all[:k] + rest_all[n_subj:], k
    try_open_predicate = (
        verb_i is None
        and aux.lower_ in BE_FORMS
        and ph.prep is None
        and (ph.kind in ("nominal", "det") or ph.adverb == "where")
        and not (ph.kind == "nominal" and _adjective_with_open_preposition(rest_all[:n_subj]) is not None)
    )
    j = _open_predicate(rest_all[:n_subj]) if try_open_predicate else None
    if j is not None:
        # "What is the tail bone an example of" -> "The tail bone is an example of ANSWER"; "Which planet is the
        # kuiper belt closest to" -> "The Kuiper belt is closest to ANSWER"; "What class are centipedes in"
        head = "".join(t.text_with_ws for t in rest_all[:j]).strip()
        if head[:1].isupper() and not _keeps_capital(rest_all[0]):
            head = head[0].lower() + head[1:]
        predicate = "".join(t.text_with_ws for t in rest_all[j:n_subj]).strip()
        if ph.kind == "adverb" and len(adoc) and adoc[0].pos_ == "ADP":
            filler = " ".join(answer.split()[1:]) or answer  # "the highest at" + "at the source"
        return f"{head} {aux.lower_} {predicate} {filler}"
    if verb_i is None and aux.lower_ in BE_FORMS and ph.kind == "nominal" and ph.prep is None:
        j = _adjective_with_open_preposition(rest_all[:n_subj])
        if j is not None:  # "What is the number of electrons equal to in every atom" -> "... is equal to ANSWER in"
            head = "".join(t.text_with_ws for t in rest_all[:j]).strip()
            if head[:1].isupper() and not _keeps_capital(rest_all[0]):
                head = head[0].lower() + head[1:]
            tail = "".join(t.text_with_ws for t in rest_all[j + 2 :]).strip()
            return f"{head} {aux.lower_} {rest_all[j].text} {rest_all[j + 1].text} {filler} {tail}"
        superlative = (
            len(rest_all) > 2
            and rest_all[0].lower_ == "the"
            and (rest_all[1].tag_ in ("JJS", "RBS") or rest_all[1].lower_ == "most")
            and (_answer_plural(adoc) == (aux.lower_ in ("are", "were")))  # "Gamma rays are", "Neon is"
            # a long description ("…, which can be used to treat cancer"): "The largest planet is Jupiter" stays
            and any(t.text == "," or t.dep_ in ("acl", "acl:relcl", "relcl") for t in rest_all)
        )
        if (
            (rest_all[0].lower_ in ("a", "an") or superlative)
            and filler == answer
            and rest_all[-1].pos_ != "ADP"
            # a description, not a bare term ("What is an atom?" keeps "An atom is ANSWER")
            and (
                len(rest_all) >= 4
                or any(t.dep_ in ("acl", "acl:relcl", "relcl", "nmod") or t.pos_ == "ADP" for t in rest_all[2:])
            )
            and not (_answer_plural(adoc) and aux.lower_ in ("is", "was"))  # not "Prokaryotes is a ..."
            and _definable(adoc)
        ):
            # "What is a symbiotic relationship in which both species benefit?" + "mutualism" -> "Mutualism is a
            # symbiotic relationship in which ..." (a definition reads term first; 2026-11-27 readings), and so does
            # a superlative description ("Gamma rays are the most energetic of all electromagnetic waves"). The LM then
            # chooses "the"/"a" or none before the term (_article_variants): "Bronze is", "The diaphragm is"
            defined = "".join(t.text_with_ws for t in rest_all).strip()
            return f"{answer} {aux.lower_} {defined[0].lower() + defined[1:]}"
    # "What does fiber help keep ...": the tagger reads "help" as the subject's noun; it takes the tense ("Fiber helps
    # keep ..."), the verb after it stays bare
    catenative = (
        rest_all[n_subj - 1]
        if is_do
        and not negated
        and n_subj > 1
        and rest_all[n_subj - 1].lower_ in ("help", "make", "let")
        and rest_all[n_subj].tag_ == "VB"
        else None
    )
    subj = "".join(t.text_with_ws for t in rest_all[: n_subj - 1 if catenative is not None else n_subj]).strip()
    first = rest_all[0]
    if subj[:1].isupper() and not _keeps_capital(first):
        subj = subj[0].lower() + subj[1:]
    rest = rest_all[n_subj:]
    if is_do and not negated and ph.kind == "nominal" and ph.prep is None and rest and rest[0].lemma_.lower() == "do":
        done = _what_does_x_do(rest, aux, answer, adoc)
        if done is not None:  # "What does erosion do to pieces of broken rock?" + "moves them"
            return f"{subj} {done}"
    words = [t.text_with_ws for t in rest]
    if is_do and not negated:
        tag = {"does": "VBZ", "did": "VBD", "do": "VBP"}[aux.lower_]
        for k in _coordinated_verbs(rest):
            words[k] = _inflect(rest[k], tag) + rest[k].whitespace_
        if catenative is not None:
            words[0] = f"{_inflect(catenative, tag)} {rest[0].text_with_ws}"
        aux_text = ""
    else:
        aux_text = (aux.lower_ if not _acronym(aux.text) else aux.text) + (" not" if negated else "")

    if _own_preposition(ph, adoc, filler, answer):
        ins = filler  # "At what time of life ..." + "in middle adulthood": the answer's own preposition
    elif ph.prep is not None:
        ins = f"{ph.prep.lower()} {filler}"
    elif ph.kind == "adverb" and ph.adverb == "where" and rest and rest[-1].pos_ == "ADP":
        ins = answer  # "Where do ecosystems get their energy from?" -> "... from the sun"
    elif ph.kind == "adverb":
        ins = _adverbial(ph.adverb, answer, adoc)
    elif ph.kind == "how_adj":
        adj = doc[ph.word.i + 1].text
        ins = f"{answer} {adj}" if verb_i is None else answer
    else:
        ins = filler
    do_i = _do_without_object(rest) if ph.kind == "nominal" and ph.prep is None else None
    if do_i is not None and _verb_answer(adoc, expected=True):
        # "What must two nuclei do for fusion to occur" + "collide" -> "Two nuclei must collide for fusion ...";
        # "What do you need to do to water ..." + "heat it" -> "You need to heat water ..."
        # the main verb after "does" takes its tense ("What does the vacuole do" + "store water" -> "stores water")
        base = _inflected_answer(
            answer,
            {"does": "VBZ", "did": "VBD"}.get(aux.lower_, "VBP") if is_do and not negated and do_i == 0 else "VB",
        )
        flags["verb_answer"] = True  # no article is tried before it ("to an increase")
        end = do_i
        obj = _to_object(rest[do_i + 1]) if do_i + 1 < len(rest) else None
        if obj is not None:
            folded = _fold_object(base, obj.text, any_verb=True)
            if folded is not None:
                base, end = folded, do_i + 1 + len(obj)
        words[do_i : end + 1] = [f"{base}{rest[end].whitespace_}"]
        return f"{subj} {aux_text} {adverbs} {predicate} {''.join(words)}"
    slot = _answer_slot(ph, rest, verb_i is not None, aux)
    if slot is None:
        words.append(f" {ins} ")
    else:
        relative = slot + 1 < len(rest) and rest[slot].lower_ in ("that", "which", "who")
        plural = _answer_plural(adoc) if relative else None
        if plural is not None and (rest[slot + 1].tag_ in ("VBZ", "VBP") or rest[slot + 1].lower_ in ("was", "were")):
            # the relative clause's verb agrees with the answer ("exoskeletons that build up", "lungs that are")
            verb = rest[slot + 1]
            words[slot + 1] = _verb_agreeing(verb, plural) + verb.whitespace_
        words.insert(slot, f" {ins} ")
    return f"{subj} {aux_text} {adverbs} {predicate} {''.join(words)}"


def _what_does_x_do(rest: list[Any], aux: Any, answer: str, adoc: Any) -> str | None:
    """The predicate for "What does X do [to Y] ...?" and a verb-phrase answer, "do" replaced by the answer's verb:
    "+ increases" -> "increases a substance's kinetic energy"; "+ lowers it" -> "lowers the freezing temperature of
    ..." (Y in the place of the answer's "it" / "them"); "+ forms droplets" -> "forms droplets when mixed with water".
    None when the answer is no verb phrase (the general rules then apply); a ConversionError when Y has no place in
    the answer ("+ dissolves" with "to water": "Sugar dissolves water" would be wrong)."""
    if not _verb_answer(adoc):
        return None
    tag = {"does": "VBZ", "did": "VBD", "do": "VBP"}[aux.lower_]
    verb_phrase = _inflected_answer(answer, tag)
    after = rest[1:]
    tail = "".join(t.text_with_ws for t in after).strip()
    if after and after[0].lower_ == "to":
        noun = after[0].head
        if noun.pos_ in ("VERB", "AUX"):  # "to prevent water loss": a purpose, not what "do to" names
            return f"{verb_phrase} {tail}".strip()
        if not (noun.i > after[0].i and noun.left_edge.i == after[0].i):
            raise ConversionError("unsupported_question_form", "'do to' without its object")
        obj = after[0].doc[after[0].i + 1 : noun.right_edge.i + 1].text
        tail = after[0].doc[noun.right_edge.i + 1 : after[-1].i + 1].text
        folded = _fold_object(verb_phrase, obj, any_verb=False)
        if folded is None:
            raise ConversionError("unsupported_question_form", f"no place for {obj!r} in the answer {answer!r}")
        verb_phrase = folded
    return f"{verb_phrase} {tail}".strip()


def _to_object(to: Any, after_what: bool = False) -> Any | None:
    """The noun phrase after a "to" that names what "do" acts on ("do to water", "does what to the current") as a
    span; None for anything else. After "do" alone the "to" may open a purpose infinitive ("do to maintain
    homeostasis"); after "do what" it cannot, whatever the tagger says ("to excess/VB stomach acid")."""
    head = to.head
    if to.lower_ != "to" or head.i <= to.i or head.left_edge.i != to.i or (head.tag_ == "VB" and not after_what):
        return None
    return to.doc[to.i + 1 : head.right_edge.i + 1]


def _fold_object(verb_phrase: str, obj: str, any_verb: bool) -> str | None:
    """What "do to" names (``obj``) put into a verb-phrase answer: in the place of its "it" / "them" ("lowers it" ->
    "lowers the freezing point"), or after a one-word answer ("increases" -> "increases the current"; with
    ``any_verb`` False only after an effect verb, :data:`_EFFECT_VERBS`: not "Sugar dissolves water"); None when it
    has no place."""
    words = verb_phrase.split()
    pronoun = next((k for k, w in enumerate(words) if k > 0 and w.lower() in ("it", "them")), None)
    if pronoun is not None:
        return " ".join([*words[:pronoun], obj, *words[pronoun + 1 :]])
    if len(words) == 1 and (any_verb or _lemma_of(words[0]) in _EFFECT_VERBS):
        return f"{verb_phrase} {obj}"
    return None


# verbs that take what "do to" names as their object ("What does heat do to ice?" + "melts" -> "melts ice")
_EFFECT_VERBS = frozenset(
    "increase decrease raise lower reduce damage destroy harm protect heat cool warm change affect kill break "  # noqa: SIM905
    "attract repel strengthen weaken melt freeze dilute neutralize oxidize erode stimulate inhibit "
    "block activate slow speed accelerate".split()
)


def _lemma_of(word: str) -> str:
    from lemminflect import getLemma

    lemmas = getLemma(word.lower(), upos="VERB")
    return lemmas[0] if lemmas else word.lower()


def _adjective_with_open_preposition(toks: list[Any]) -> int | None:
    """Where "ADJ PREP" with no object for the preposition starts in the words after "What is" ("the number of
    electrons equal to in every atom", "the force proportional to"): the adjective's index, or None."""
    for j in range(1, len(toks) - 1):
        if toks[j].tag_ in ("JJ", "JJR") and toks[j + 1].tag_ == "IN" and toks[j - 1].tag_ in ("NN", "NNS", "NNP"):
            after = toks[j + 2] if j + 2 < len(toks) else None
            if after is None or after.tag_ == "IN" or after.is_punct:
                return j
    return None


# nouns that name a relation to the answer ("an example of", "physical properties of", "a part of")
_RELATIONAL_NOUNS = frozenset(
    (  # noqa: SIM905
        "example part type kind form member source unit measure component product cause sign symptom property "
        "function feature characteristic result consequence step stage subset branch category group"
    ).split()
)


# the last word of a copular question's subject and predicate that has no object ("closest to", "a part of", "in")
_STRANDED = frozenset("of in to for from with on at by into about as than like between".split())  # noqa: SIM905


def _plural_noun_read_as_verb(toks: list[Any], k: int) -> bool:
    """A plural noun coordinated with another that the tagger reads as a verb ("centipedes and millipedes/VBZ")."""
    return toks[k].tag_ == "VBZ" and k >= 2 and toks[k - 1].tag_ == "CC" and toks[k - 2].tag_ in ("NNS", "NNPS")


def _open_predicate(toks: list[Any]) -> int | None:
    """Where the predicate starts in the words after a copular question's "is" that end in a stranded preposition
    and hold no verb: "the tail bone | an example of", "the kuiper belt | closest to", "the brain | the control
    center of", "biofilms | resistant to many common forms of", "the lungs | part of", "centipedes and millipedes |
    in" (the preposition alone). None when a verb is among the words (a relative clause: "the most bonds a nitrogen
    atom can participate in", "the galaxy we live in") or no noun ends the subject before the predicate."""
    if len(toks) < 2 or toks[-1].lower_ not in _STRANDED or toks[-1].tag_ not in ("IN", "RP", "RB", "TO"):
        return None
    if toks[0].tag_ not in ("DT", "PRP$", "JJ", "JJS", "CD", "NN", "NNS", "NNP", "NNPS") or toks[0].lower_ in (
        "this",
        "that",
        "these",
        "those",
    ):
        return None
    for k, t in enumerate(toks):
        attributive = t.tag_ in ("VBN", "VBD") and k + 1 < len(toks) and toks[k + 1].tag_ in ("NN", "NNS")
        if t.tag_ in ("VBZ", "VBP", "VBD", "VBN", "MD") and not attributive and not _plural_noun_read_as_verb(toks, k):
            return None  # a verb ("we live in"), not a participle before its noun ("integrated circuits")
    last = len(toks) - 1
    for k in range(1, len(toks)):
        prev, t = toks[k - 1], toks[k]
        if not (prev.tag_ in ("NN", "NNS", "NNP", "NNPS") or _plural_noun_read_as_verb(toks, k - 1)):
            continue
        if (
            # the preposition alone after plural or coordinated nouns ("centipedes and millipedes | in"); not after
            # a relational noun ("pivot examples | of") nor a singular one ("blood close | to", "choice | in")
            (
                k == last
                and prev.lemma_.lower() not in _RELATIONAL_NOUNS
                and (prev.tag_ in ("NNS", "NNPS") or _plural_noun_read_as_verb(toks, k - 1))
            )
            or (t.tag_ == "DT" and t.lower_ in ("a", "an", "the"))
            or t.tag_ in ("JJ", "JJR", "JJS", "RBS")
            or t.lower_ == "most"
            or (
                k == last - 1
                and t.lemma_.lower() in _RELATIONAL_NOUNS
                # after a plural ("the lungs | part of") or a one-word noun ("and archaea | examples of"); not
                # inside a compound ("mmhg measurement units for")
                and (
                    prev.tag_ in ("NNS", "NNPS")
                    or (prev.dep_ != "compound" and (k < 2 or toks[k - 2].tag_ not in ("NN", "NNS", "NNP", "NNPS")))
                )
            )
        ):
            return k
    if len(toks) > 2 and toks[-2].lemma_.lower() in _RELATIONAL_NOUNS and toks[-3].tag_ in ("NN", "NNS", "NNP", "NNPS"):
        return len(toks) - 2  # "kpa, atm, and mmhg measurement | units for": better than no "is" in its place
    return None


def _verb_answer(adoc: Any, expected: bool = False) -> bool:
    """An answer that is a verb phrase, or one word that can be a verb though the tagger reads it alone as a noun
    ("rust", "melt"); where the question asks for a verb (``expected``: "must X do"), any answer whose first word
    can be a verb's base form ("break up", "bend without breaking", "heat it")."""
    from lemminflect import getAllLemmas

    toks = [t for t in adoc if not t.is_punct]
    if toks and toks[0].pos_ == "VERB":
        return True
    if not toks or toks[0].lower_.endswith("ly") or "VERB" not in getAllLemmas(toks[0].lower_):
        return False
    # where a verb is asked for, not an adjective that is also a verb ("fine motor movements")
    return len(toks) == 1 or (expected and toks[0].pos_ not in ("ADJ", "DET", "NUM", "ADV", "PRON"))


def _do_without_object(rest: list[Any]) -> int | None:
    """The index of a "do" in a question's clause whose object is the asked "what" ("What must two nuclei do for
    ...", "What do skeletal muscles enable the body to do", "What should you let liquid waste do before ..."): a
    base-form "do" not followed by its own object or "not"; None when there is none."""
    dos = [k for k, t in enumerate(rest) if t.lower_ == "do" and t.tag_ in ("VB", "VBP")]
    if len(dos) != 1:  # none, or "What can autotrophs do that heterotrophs cannot do"
        return None
    k = dos[0]
    if any(t.lower_ in ("that", "than", "as", "which", "who") for t in rest[:k]):
        return None  # a pro-verb in a clause of its own ("What do monkeys have that no apes or humans do")
    if k + 1 < len(rest) and (rest[k + 1].lower_ == "not" or _starts_np_tokens(rest, k + 1)):
        return None
    return k


def _inflected_answer(answer: str, tag: str) -> str:
    """The answer's verbs inflected for ``tag``: its first word and base-form verbs coordinated with it ("rust" ->
    "rusts" / "rusted"; "expand and contract" -> "expands and contracts"; "increases" stays)."""
    from lemminflect import getAllLemmas, getInflection, getLemma

    def inflect(word: str) -> str:
        core = word.rstrip(",;:.")  # "increases," -> "increases" + ","
        base = getLemma(core, upos="VERB")  # "increases" is inflected already: its lemma is
        forms = getInflection(base[0] if base else core, tag=tag)
        return (forms[0] if forms else core) + word[len(core) :]

    words = answer.split()
    out = [inflect(words[0])]
    for k in range(1, len(words)):  # "expand and contract" -> "expands and contracts"; not "goes up and downs"
        verb = getAllLemmas(words[k]).get("VERB", ())[:1] == (words[k],)  # a base form (not "forth", "sperm")
        coordinated = words[k - 1].lower() in ("and", "or") and verb and words[k - 2].lower() not in _PARTICLES
        out.append(inflect(words[k]) if coordinated else words[k])
    return " ".join(out)


def _definable(adoc: Any) -> bool:
    """An answer that can open a definition: a short noun phrase, not a clause, an infinitive or a bare modifier."""
    toks = [t for t in adoc if not t.is_punct]
    return (
        0 < len(toks) <= 5
        and toks[0].pos_ != "ADP"  # not "by color"
        and not any(t.tag_ in ("VBZ", "VBP", "VBD", "MD", "TO") for t in toks)
        and toks[-1].pos_ in ("NOUN", "PROPN")
        and not _is_modifier(adoc)
    )


def _true_adverb(t: Any) -> bool:
    """An adverb the tagger and lemminflect agree on ("commonly"; not "sporangia" tagged RB, not "not")."""
    from lemminflect import getAllLemmas

    if t.tag_ not in ("RB", "RBR", "RBS") or t.lower_ in ("not", "n't"):
        return False
    readings = getAllLemmas(t.lower_)
    return "ADV" in readings and "NOUN" not in readings


def _adjective_predicate(toks: list[Any]) -> int:
    """Where a trailing adjective predicate starts in "the drift velocity negligible", "the potential energy of a
    river the highest" (so that "is" goes before it); ``len(toks)`` when there is none."""
    k = len(toks)
    while k > 1 and (toks[k - 1].tag_ in ("JJ", "JJR", "JJS") or _true_adverb(toks[k - 1])):
        k -= 1
    if k < len(toks) and k > 1 and toks[k - 1].lower_ in ("the", "most", "least", "more", "less"):
        k -= 1
    if k == len(toks) or k < 2 or toks[k - 1].tag_ not in ("NN", "NNS", "NNP", "NNPS"):
        return len(toks)
    return k


def _coordinated_verbs(rest: list[Any]) -> list[int]:
    """The main verb (index 0) and base-form verbs coordinated with it ("pick up X and carry it")."""
    out = [0]
    for k in range(1, len(rest)):
        t = rest[k]
        if t.tag_ in ("VB", "VBP") and any(rest[j].lower_ in ("and", "or") for j in range(max(1, k - 2), k)):
            out.append(k)
    return out


def _answer_slot(ph: WhPhrase, rest: list[Any], has_verb: bool, aux: Any) -> int | None:
    """Index in ``rest`` (main verb first) before which the answer goes; None = end of the clause."""
    if ph.prep is not None or ph.kind == "adverb":
        return None
    if rest and rest[-1].pos_ == "ADP" and rest[-1].tag_ != "RP":
        return None  # stranded preposition: "What are cells made of"
    if has_verb and len(rest) > 2 and rest[1].lower_ in _PARTICLES:
        nxt = rest[2]
        if nxt.pos_ in ("ADP", "SCONJ") or nxt.is_punct or nxt.lower_ in _SUBORDINATORS:
            return 2  # a preposition without its object: "orbit around in the solar system", "listen to if ..."
    for k in range(2, len(rest) - 1) if has_verb else ():
        # later in the clause: "What do stored fats provide our body with for later use" -> "... with ANSWER for"
        if rest[k].tag_ == "IN" and rest[k].lower_ in _PARTICLES and rest[k + 1].lower_ != "of":
            nxt = rest[k + 1]
            if nxt.tag_ == "IN" or nxt.lower_ in _SUBORDINATORS:
                return k + 1
    if not has_verb:
        return 0  # copular: "What is X" -> "X is ANSWER"
    verb = rest[0]
    k = 1
    while k < len(rest) and (rest[k].tag_ == "RP" or rest[k].dep_ == "compound:prt"):
        k += 1
    passive = verb.tag_ == "VBN" and aux.lower_ in BE_FORMS
    infinitive = k + 1 < len(rest) and rest[k].tag_ == "TO" and rest[k + 1].tag_ == "VB"
    if passive and infinitive and not _starts_np_tokens(rest, k + 2):
        # the gap is the infinitive's object (not in "need X to survive", an active verb's object)
        return k + 2  # "What is X used to measure" -> "X is used to measure ANSWER"
    lemma = (verb.lemma_ or verb.text).lower()
    finite_next = k + 1 < len(rest) and rest[k + 1].tag_ in FINITE_TAGS
    if k + 1 < len(rest) and rest[k].lower_ == "that" and lemma in _CLAUSE_VERBS and not finite_next:
        return None  # the answer ends the "that" clause: "The evidence shows that cells need oxygen"
    if k + 1 < len(rest) and rest[k].lower_ in ("that", "which", "who") and _relative_clause(rest, k):
        return k  # a relative clause on the answer: "What do some plants produce that protects dormant seeds"
    object_follows = _starts_np_tokens(rest, k)
    if lemma in NAMING_VERBS and object_follows:
        return None  # "What did Darwin call the concept" -> "... call the concept ANSWER"
    if object_follows and ph.kind != "how_adj":
        return None  # "What do plants use sunlight to make" -> "... to make ANSWER"
    return k


_PARTICLES = frozenset(
    [
        "in",
        "on",
        "at",
        "by",
        "to",
        "from",
        "with",
        "through",
        "into",
        "onto",
        "for",
        "of",
        "about",
        "around",
        "up",
        "down",
        "out",
        "off",
        "over",
        "under",
        "across",
        "along",
    ]
)
_SUBORDINATORS = frozenset(["if", "when", "because", "while", "although", "unless", "until", "before", "after", "so"])


# verbs that take a "that" clause ("What does the evidence show that cells need?": the answer ends that clause)
_CLAUSE_VERBS = frozenset(
    "show suggest indicate say find know think believe demonstrate mean state predict explain reveal prove "  # noqa: SIM905
    "conclude assume expect hope claim report argue".split()
)


def _relative_clause(rest: list[Any], k: int) -> bool:
    """``rest[k]`` ("that", "which", "who") opens a relative clause: a finite verb follows at once ("that protects
    dormant seeds"), or after a short subject ("that humans cannot see"); not "that" as a determiner ("that cell")."""
    finite = FINITE_TAGS
    if rest[k + 1].tag_ in finite:
        return True
    if rest[k + 1].tag_ not in ("NNS", "NN", "PRP", "DT", "JJ"):
        return False
    return any(t.tag_ in finite for t in rest[k + 2 : k + 5]) and not (
        rest[k].lower_ == "that" and rest[k + 1].tag_ in ("NN", "NNS") and rest[k + 2].tag_ in ("NN", "NNS")
    )


def _starts_np_tokens(toks: list[Any], k: int) -> bool:
    if k >= len(toks):
        return False
    return _starts_np(toks[k].doc, toks[k].i) and toks[k].i <= toks[-1].i


def _adverbial(wh: str, answer: str, adoc: Any) -> str:
    first = adoc[0] if len(adoc) else None
    if first is None:
        return answer
    starts_prep = first.pos_ in ("ADP", "SCONJ") or first.lower_ in ("because", "due", "to", "by", "when", "while")
    has_verb = any(t.pos_ in ("VERB", "AUX") for t in adoc)
    if starts_prep:
        return answer
    if wh == "where":
        return f"in {answer}"
    if wh == "when":
        if _is_bare_number(adoc):
            return f"in {answer}"
        return f"when {answer}" if has_verb else f"during {answer}"
    if wh == "why":
        return f"because {answer}" if has_verb else f"because of {answer}"
    if wh == "how":
        if (
            first.tag_ == "VBG"
            or not has_verb
            and first.pos_ in ("NOUN", "PROPN", "DET", "ADJ")
            and not (first.pos_ == "ADJ" and len(adoc) == 1)
        ):
            return f"by {answer}"
        return answer
    return answer


def _acronym(word: str) -> bool:
    return sum(c.isupper() for c in word) >= 2


def _keeps_capital(t: Any) -> bool:
    """A subject's first word that keeps its capital when the subject moves: a name, an acronym, a single capital
    letter ("T cells", "B vitamins"; not the article "A")."""
    return t.tag_ in ("NNP", "NNPS") or _acronym(t.text) or (len(t.text) == 1 and t.text.isupper() and t.text != "A")


def _fix_predicate_number(body: str, plural: bool | None) -> str:
    """'X is causes of Y' -> 'X is a cause of Y' when the answer is singular and the predicate plural."""
    if plural is not False:
        return body
    from lemminflect import getAllInflections, getLemma

    def fix(m: re.Match[str]) -> str:
        adj, noun = m.group(2) or "", m.group(3)
        lem = getLemma(noun, upos="NOUN")
        single = lem[0] if lem else noun
        if single == noun or noun not in getAllInflections(single, upos="NOUN").get("NNS", ()):
            return m.group(0)  # not a plural noun ("is famous")
        phrase = f"{adj}{single}"
        art = indefinite_article(phrase)
        return f"{m.group(1)} {art} {phrase}"

    pattern = r"\b(is|was)\s+(?:the\s+)?([a-z]+\s+)?([a-z]+s)\b(?=\s+(?:of|for|in|that|to|with|from)\b|\s*$)"
    return re.sub(pattern, fix, body, count=1)


def _imperative(doc: Any, answer: str, adoc: Any) -> str:
    rest = doc[1:].text
    rest = re.sub(r"^(the|a|an)\b", lambda m: m.group(1), rest)
    nouns = [t for t in doc[1:] if t.pos_ in ("NOUN", "PROPN")]
    plural = bool(nouns) and nouns[0].tag_ in ("NNS", "NNPS")
    return f"{rest} {'are' if plural else 'is'} {answer}"


def _yes_no(doc: Any, answer: str) -> str:
    aux = doc[0]
    after = list(doc[1:])
    verb_i = _main_verb(after, aux)
    if aux.lower_ in BE_FORMS:
        # "Is a wall made of cellulose found in ...": the passive main verb is the root, else the last one.
        parts = [
            k
            for k, t in enumerate(after)
            if k > 0 and t.tag_ in ("VBN", "VBD") and after[k - 1].lower_ not in ("that", "which", "who")
        ]
        roots = [k for k in parts if after[k].dep_ == "ROOT"]
        verb_i = roots[0] if roots else (parts[-1] if parts else verb_i)
    n_subj = verb_i if verb_i is not None else len(after)
    low = answer.lower()
    polar = low in ("yes", "true", "no", "false")
    alt = None if polar else _alternative(after, answer)
    modifies_verb = verb_i is not None and alt is not None and after[alt[0]].head.pos_ in ("VERB", "ADV")
    if aux.lower_ in BE_FORMS and alt is not None and alt[3] and alt[0] > 0 and not modifies_verb:
        # an adjective or adverb alternative not before a noun is the predicate, the subject all before it ("Are
        # birds and mammals mainly exothermic or endothermic?" -> "Birds and mammals are mainly endothermic"; "Are the
        # joints ... contained in your backbone fully movable, ...?"; not "found in warm or cold water")
        n_subj = alt[0]
        while n_subj > 1 and after[n_subj - 1].tag_ in ("RB", "RBR"):
            n_subj -= 1  # the adverb stays after the verb
        verb_i = None
    elif verb_i is None and aux.lower_ in BE_FORMS:
        # Copular "Is a tomato a fruit": the subject is the first noun phrase.
        s = 2 if after and after[0].tag_ in ("DT", "PRP$", "CD") else 1
        n_subj = max(1, _noun_run_end(doc, s))
    if n_subj == 0:
        raise ConversionError("no_subject")
    subj = "".join(t.text_with_ws for t in after[:n_subj]).strip()
    rest_toks = after[n_subj:]
    verb_i = 0 if rest_toks and verb_i is not None else None
    is_do = aux.lower_ in ("do", "does", "did")
    negate = low in ("no", "false")
    words = [t.text_with_ws for t in rest_toks]
    tag = {"does": "VBZ", "did": "VBD"}.get(aux.lower_, "VBP")
    inflected = is_do and verb_i is not None and not negate  # the verb takes the tense of the removed "do"
    if inflected:
        words[0] = _inflect(rest_toks[0], tag) + rest_toks[0].whitespace_
        aux_text = ""
    else:
        aux_text = aux.lower_ + (" not" if negate else "")
    if alt is not None and alt[0] >= n_subj:  # the alternatives the parse coordinates, in the predicate
        start, end = alt[0] - n_subj, alt[1] - n_subj
        # "Does air temperature increase or decrease ...?" + "decrease" -> "Air temperature decreases ..."
        filler = _inflected_answer(alt[2], tag) if inflected and start == 0 else alt[2]
        words[start:end] = [f"{filler}{rest_toks[end - 1].whitespace_}"] + [""] * (end - start - 1)
        rest = "".join(words).strip()
    else:
        rest = "".join(words).strip()
        if not polar:
            rest = _choose_alternative(rest, answer)
            if inflected and rest.startswith(answer):  # the verb was an alternative
                rest = _inflected_answer(answer, tag) + rest[len(answer) :]
    return f"{subj} {aux_text} {rest}".replace("  ", " ").strip()


# dependents before a predicate that are not part of it as an alternative ("[vesicles] larger or smaller")
_NOT_IN_CONJUNCT = frozenset({"nsubj", "nsubj:pass", "csubj", "obl:unmarked", "cop", "aux", "aux:pass", "expl"})


def _word_class(t: Any) -> str:
    """Nominal, adjectival or verbal: conjuncts of one class are alternatives ("warm or cold", "apes or hippos")."""
    if t.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
        return "N"
    if t.pos_ in ("ADJ", "ADV") or t.tag_.startswith(("JJ", "RB")) or t.dep_ == "amod":  # "living or dead"
        return "A"
    return "V" if t.pos_ in ("VERB", "AUX") else t.pos_


def _alternative(toks: list[Any], answer: str) -> tuple[int, int, str, bool] | None:
    """The coordination with "or" that a yes/no question's answer chooses from, by the parse: the span of ``toks``
    it covers (start, end), what replaces it, and whether the alternatives are adjectives or adverbs. "warm or cold
    water" + "warm" -> "warm" (the shared noun stays), "more or less strongly" + "less strongly" -> the span and the
    shared word, "in punctuated equilibrium or gradualism" + "gradualism" (the preposition stays), "X, Y, or both" +
    "both" -> "both X and Y". None when the answer is none of them (a distractor such as "neither") or the parse
    coordinates nothing sensible."""
    target = _norm_words(answer)
    if not target:
        return None
    pos = {t.i: k for k, t in enumerate(toks)}
    for t in reversed(toks):
        right = t.head
        if t.lower_ != "or" or t.dep_ != "cc" or right.dep_ != "conj" or right.i < t.i or right.head.i > t.i:
            continue
        first = right.head
        conjuncts = [first, *sorted((c for c in first.children if c.dep_ == "conj"), key=lambda c: c.i)]
        if len({_word_class(c) for c in conjuncts}) > 1:
            return None  # "gain electrons or lose electrons" parsed as "gain ... or electrons": a misparse
        last = conjuncts[-1]
        if last.i + 1 < len(last.doc) and last.doc[last.i + 1].dep_ == "compound" and last.tag_.startswith("JJ"):
            return None  # "ocean or fresh water habitats": is the alternative "fresh" or "fresh water"?
        spans = []
        for k, c in enumerate(conjuncts):
            skip = {x.i for d in c.children if d.dep_ == "conj" for x in d.subtree}
            idx = sorted(x.i for x in c.subtree if x.i not in skip and x.dep_ not in ("cc", "punct"))
            while idx and c.doc[idx[0]].dep_ == "case" and idx[0] != c.i:
                idx = idx[1:]  # "in punctuated equilibrium": the preposition is shared
            # an adverb before the first only is shared too ("mainly exothermic or endothermic"; not "fully movable,
            # partially movable")
            while k == 0 and idx and c.doc[idx[0]].dep_ == "advmod" and idx[0] != c.i:
                if any(x.dep_ == "advmod" and x.i < d.i for d in conjuncts[1:] for x in d.children):
                    break
                idx = idx[1:]
            if k == 0:  # the first conjunct ends before the first "," or "or", and its subject is not in it
                subject = {x.i for d in c.children if d.i < c.i and d.dep_ in _NOT_IN_CONJUNCT for x in d.subtree}
                idx = [i for i in idx if i < t.i and i < conjuncts[1].i and i not in subject]
            elif k == len(conjuncts) - 1:  # what follows the last one is shared ("larger or smaller than vacuoles")
                idx = [i for i in idx if i <= c.i]
            if _word_class(c) == "N" and any(c.doc[i].tag_ in ("VB", "VBP", "VBZ", "VBD") for i in idx):
                return None  # "gain electrons or lose electrons" parsed as "electrons or lose electrons"
            if not idx or any(i not in pos for i in idx) or idx[-1] - idx[0] + 1 != len(idx) or len(idx) > 5:
                break
            spans.append((idx[0], idx[-1] + 1))
        else:
            start, end = pos[spans[0][0]], pos[spans[-1][1] - 1] + 1
            texts = [first.doc[a:b].text for a, b in spans]  # "double-stranded" as written
            norms = [_norm_words(x) for x in texts]
            after = toks[end] if end < len(toks) else None  # an adjective before its noun is no predicate
            adjectival = all(c.tag_.startswith(("JJ", "RB")) for c in conjuncts) and not (
                after is not None and after.pos_ in ("NOUN", "PROPN")
            )
            if target == ["both"] and norms[-1] == ["both"] and len(texts) > 2:
                return start, end, "both " + " and ".join(texts[:-1]), adjectival
            if target in norms:  # an exact match before a longer one ("carbon" of "carbon dioxide or carbon")
                return start, end, texts[norms.index(target)], adjectival
            for text, norm in zip(texts, norms, strict=True):
                if len(norm) > len(target) and norm[: len(target)] == target:
                    return start, end, text, adjectival  # "close" -> "close to each other"
                shared = _norm_words(" ".join(x.text for x in toks[end : end + len(target) - len(norm)]))
                if len(target) > len(norm) and target == norm + shared:  # "less" + the shared "strongly"
                    return start, end + len(shared), " ".join(target[: len(norm)] + shared), adjectival
        return None
    return None


_PREPS = frozenset(
    ["in", "on", "at", "by", "to", "from", "with", "through", "into", "for", "of", "during", "under", "over"]
)


def _norm_words(text: str) -> list[str]:
    return [w.strip(".,;:!?").lower() for w in text.split() if w.strip(".,;:!?")]


def _choose_alternative(rest: str, answer: str) -> str:
    """'... in plant or animal cells' + 'plant cells' -> '... in plant cells';
    '... faster through air or through steel' + 'steel' -> '... faster through steel'."""
    words = rest.split()
    target = _norm_words(answer)
    if target in (["both"], ["neither"]):
        raise ConversionError("yes_no_without_polar_answer")  # "X, Y, or both": the parse did not tell X and Y
    ors = [k for k, w in enumerate(words) if w.lower() == "or"]
    for k in reversed(ors):
        before, after = words[:k], words[k + 1 :]
        for n_right in range(min(4, len(after)), 0, -1):
            # a left alternative as long as the right one first ("gain electrons or lose electrons"), then the
            # shortest ("has a positive or negative effect")
            lefts = range(1, min(4, len(before)) + 1)
            for n_left in sorted(lefts, key=lambda n: (n != n_right, n)):
                left, right = _norm_words(" ".join(before[-n_left:])), _norm_words(" ".join(after[:n_right]))
                prep = left[0] if left and left[0] in _PREPS else ""
                lcore = left[1:] if prep else left
                rcore = right[1:] if right and right[0] == prep and prep else right
                if not lcore or not rcore:
                    continue
                options = [lcore, rcore, lcore + rcore[1:]]  # the last: a shared head noun
                if target in options or (target and target[0] == prep and target[1:] in options):
                    filler = answer if not prep or target[0] == prep else f"{prep} {answer}"
                    tail = rcore[len(lcore) :] if target == lcore else []
                    if tail and tail[0] in ("than", "as"):
                        # a comparison after the right alternative is shared: "larger or smaller than vacuoles" +
                        # "larger" -> "larger than vacuoles" (not "iron or stainless steel" + "iron" -> "iron steel")
                        filler = " ".join([filler, *after[n_right - len(tail) : n_right]])
                    return " ".join([*before[:-n_left], filler, *after[n_right:]])
    raise ConversionError("yes_no_without_polar_answer")


def _declarative_stem(doc: Any, answer: str, adoc: Any, asked: bool = False) -> str:
    """A stem without a question word: fill a trailing 'this'/'these', complete a clause that ends in a
    verb or preposition, or (telegraphic stems: "Drug of choice for X") state 'NP is ANSWER'."""
    toks = [t for t in doc if not t.is_punct or t.text in (",",)]
    if not toks:
        raise ConversionError("empty_question")
    last = toks[-1]
    for t in reversed(list(doc)):
        last_words = t.i >= len(doc) - 3 and not any(x.pos_ in ("NOUN", "PROPN") for x in doc[t.i + 1 :])
        # not the subject of "This is because" (the answer is the reason, after "because")
        if (
            t.lower_ in ("this", "these", "that")
            and t.pos_ in ("PRON", "DET")
            and last_words
            and last.lower_ != "because"
            # not the subject of a copula at the end: "No agglutination is seen. This is:" waits for the answer
            and not (last.i == t.i + 1 and last.lower_ in ("is", "are", "was", "were"))
        ):
            return _replace(doc, t.i, t.i, answer)
    # finite verbs of the stem's own clause, not of a relative clause on its noun ("Teeth that erupt in 30 days")
    # (a verb form lemminflect knows: not "The penetration of the fissure sealant into the fissure", "sealant" VBP)
    finite = [t for t in doc if _real_finite(t) and not _in_relative_clause(t)]
    answer_clause = any(t.tag_ in FINITE_TAGS for t in adoc)
    lowered = answer if not answer or _acronym(answer.split()[0]) else answer[0].lower() + answer[1:]
    one_phrase = (  # the stem is one phrase: "During cryosurgery", "In primary trauma from occlusion"
        doc[0].dep_ == "case"
        and doc[0].head.dep_ == "ROOT"
        and "," not in doc.text
        and not any(t.pos_ in ("VERB", "AUX") or _is_wh_word(t) for t in doc)
    )
    if (doc[0].pos_ == "SCONJ" or (one_phrase and len(adoc) > 1)) and answer_clause:
        # "When a person lies down:" + "There is an increase ..." -> "When a person lies down, there is ..."; "During
        # cryosurgery" + "Cell death occurs when ..." -> "During cryosurgery, cell death occurs when ..."
        return f"{doc.text.strip(' -:;,')}, {lowered}"
    predicate = (  # an answer that opens with a finite verb and says more: "Is permeable", "Has no side-effects"
        len(adoc) > 1
        and (
            adoc[0].tag_ in ("VBZ", "VBP", "MD")
            or adoc[0].lower_ in ("was", "were", "had", "did")
            # a verb the tagger read as a noun or participle: "Harden in mouth" (not "Increase in heart rate")
            or (
                adoc[0].tag_ in ("NNP", "NN", "VBN")
                and _is_verb_form(adoc[0].lower_, ("VBP",))
                and not noun_reading(adoc[0].lower_)
            )
        )
        and doc[0].lower_ not in ("true", "false", "correct", "incorrect", "not", "all", "features", "effect")
    )
    # the subject of a clause of reason or condition ends the stem: "... for long as they", "... because lidocaine"
    subordinator = next(
        (k for k in range(len(toks) - 2, max(len(toks) - 7, -1), -1) if toks[k].lower_ in _SUBJECT_SUBORDINATORS), None
    )
    clause_subject = (
        last.lower_ in ("it", "they")
        or (
            last.pos_ in ("NOUN", "PROPN")
            and subordinator is not None
            # "because lidocaine", "because high copper dental amalgams": a noun phrase after the subordinator
            and all(t.pos_ in ("DET", "ADJ", "NOUN", "PROPN", "NUM") for t in toks[subordinator + 1 :])
        )
    )
    # after an opening phrase and its comma, a noun phrase that waits for its verb: "In resorption of roots of the
    # primary teeth, the dental pulp" + "Plays a passive role", "..., the teeth usually" + "Remain in function"
    commas = [t.i for t in toks if t.text == ","]
    tail = [t for t in doc[commas[-1] + 1 :] if not t.is_punct] if commas else []
    subject_tail = (
        not finite
        and doc[0].pos_ == "ADP"
        and bool(tail)
        and tail[0].tag_ in ("DT", "PRP$", "NN", "NNS", "NNP", "JJ")
        and any(t.pos_ in ("NOUN", "PROPN") for t in tail)
        and all(t.pos_ in ("DET", "ADJ", "NOUN", "PROPN", "ADV", "NUM") for t in tail)
    )
    plural_tail = subject_tail and any(t.tag_ in ("NNS", "NNPS") for t in tail)
    if subject_tail and plural_tail and len(adoc) > 1 and adoc[0].tag_ == "VB":
        predicate = True  # "the teeth usually" + "Remain in function and are vital"
    if predicate and (clause_subject or (not finite and (doc[0].pos_ != "ADP" or subject_tail))):
        # the answer is the predicate: "Junctional epithelium" + "Is permeable", "... differs in that it" + "Has a
        # foramen transversarium"
        return f"{doc.text.strip(' -:;,')} {lowered}"
    if (
        not finite
        and last.tag_ == "VB"
        and len(toks) > 2
        and toks[-2].lower_ == "to"
        and any(t.tag_ in ("JJS", "RBS") or t.lower_ in ("first", "last") for t in doc[: toks[-2].i])
    ):
        # "In myocardial infarction the first enzyme to rise", not "... fuse to form"
        return _np_stem(doc, answer, asked)
    if (
        last.pos_ in ("VERB", "AUX", "ADP", "DET", "SCONJ", "CCONJ")
        or last.tag_ in ("VBN", "IN", "TO", "VBZ", "VBP", "VBD")
        or (last.lower_ in ("more", "less") and len(toks) > 1 and toks[-2].tag_ in FINITE_TAGS)
        or (finite and last.lower_ in ("likely", "probably"))
        # an adverb after "be" or a modal: "is primarily", "must also", "are all" (not "comes first")
        or (finite and last.tag_ == "RB" and len(toks) > 1 and toks[-2].tag_ in FINITE_TAGS and toks[-2].pos_ == "AUX")
        or (
            finite and bool(answer) and answer[0] in "<>\u2264\u2265"
        )  # "is defined as a serum Na+ level" + "< 135 mmol/L"
        or (finite and _waits_for_noun(last, toks[-2] if len(toks) > 1 else None) and not answer_clause)
        # "... is its" + "Brittleness"; "takes place in approximately" + "30 days"; "should not be above" + "70 N"
        or last.tag_ == "PRP$"
        or (finite and last.lower_ in _BEFORE_A_QUANTITY)
        # a class noun waiting for its name: "It is due to deficiency of factor" + "VIII", "... is due to bacterial
        # enzyme" + "Hyaluronidase", "... is punishable under section" + "IPC 201"
        # (with the asking sentence's own verb: "He is a farmer. Identify organism:" has none)
        or (
            any(t.tag_ in FINITE_TAGS for t in last.sent)
            and last.lower_ in _NAMED_CLASSES
            and len(toks) > 1
            and toks[-2].pos_ in ("ADP", "ADJ", "NOUN", "DET")
            and len(adoc) <= 3
            and adoc[0].tag_ not in ("DT", "PRP$")
            and (answer[:1].isupper() or answer[:1].isdigit())  # a name, not "22 of these and 1 sex chromosome" +
            and not any(t.lower_ in ("this", "these") for t in last.sent)  # "autosomes", whose blank is "these"
            and not answer_clause
        )
    ):  # "Pulp proper resembles", "Stimulated saliva ... has more", "X is most likely", "most typical of mandibular"
        if last.lower_ == "for" and answer.lower().startswith("to "):
            return f"{doc[: last.i].text} {answer}"  # "X is used for:" + "To determine normality" drops "for"
        return f"{doc.text} {answer}"
    if finite and last.lower_ == "it" and len(toks) > 1 and toks[-2].pos_ == "ADP" and not answer_clause:
        # "it" after a preposition at the end is the blank: "The usefulness of a screening test depends upon it" +
        # "Sensitivity" -> "... depends upon sensitivity"
        return f"{doc[: last.i].text} {lowered}"
    adverbial = (len(adoc) > 1 and adoc[0].pos_ == "ADP") or (len(adoc) == 1 and adoc[0].lower_.endswith("ly"))
    no_wh = not any(_is_wh_word(t) for t in doc)
    if finite and (last.pos_ in ("ADJ", "ADV") or last.tag_ == "VBN") and adverbial and not answer_clause and no_wh:
        # a complete clause, then where or how: "Hammock ligament is present" + "In apical area of a tooth", "...
        # tray should be seated first" + "Anteriorly"
        return f"{doc.text.strip(' -:;,')} {lowered}"
    if (
        finite
        and last.pos_ in ("NOUN", "PROPN", "ADJ")
        and len(adoc) > 1
        and adoc[0].lower_ == "to"
        and adoc[1].tag_ == "VB"
    ):
        # "HIV sentinel surveillance provides data" + "To monitor ...", "... is essential" + "To establish ..."
        return f"{doc.text.strip(' -:;,')} {lowered}"
    sents = list(doc.sents)
    multi = len(sents) > 1 and doc[sents[-1].start - 1].text in (".", "!", "?")
    if not finite and not multi:
        return _np_stem(doc, answer, asked)
    # (a vignette whose verbs the tagger missed, "A patient notices ... which has been there ...", then a telegraphic
    # stem, "The most probable diagnosis:", is tried as one too, before the whole is read as one noun phrase)
    if multi:
        # context sentences, then a telegraphic stem: "A sick neonate is having ... as well. Likely type of seizures"
        stem = sents[-1]
        if (
            not any(t.tag_ in FINITE_TAGS or t.tag_ == "VB" for t in adoc)  # a noun phrase answer
            and not any(t.tag_ in FINITE_TAGS and not _in_relative_clause(t) for t in stem)
            and not any(t.like_num or t.text == "=" for t in stem)  # a list of values ("Na -145, chloride-100")
            # an imperative ("Stage the necrotizing enterocolitis", "Identify organism")
            and not (stem[0].tag_ == "VB" or stem[0].lower_ in IMPERATIVES or (len(stem) > 1 and stem[1].tag_ == "DT"))
        ):
            context = doc[: stem.start].text
            return f"{context} {_sentence_start(context, _np_stem(stem.as_doc(), answer, asked))}"
    if not finite:
        return _np_stem(doc, answer, asked)
    raise ConversionError("no_question_form")


_SUBJECT_SUBORDINATORS = frozenset({"because", "as", "since", "if", "when", "that", "unless"})


# class nouns that end a stem waiting for the name the answer gives: "deficiency of factor" + "VIII"
_NAMED_CLASSES = frozenset(
    """
    factor enzyme nerve muscle artery vein section stage grade class type group gene chromosome vitamin lobe segment
    layer zone phase serotype genotype antibody hormone receptor toxin organism drug virus bacterium
    """.split()  # noqa: SIM905
)


# words after which a stem waits for a number or amount: "takes place in approximately" + "30 days", "torque should
# not be above" + "70 N"
_BEFORE_A_QUANTITY = frozenset(
    "approximately around nearly almost roughly about exactly only above below over under beyond within".split()  # noqa: SIM905
)


# subjects that name an action, which "is to" + a verb completes: "The function of X is to regulate setting time"
_ACTION_NOUNS = frozenset(
    """
    function purpose aim goal objective role task job duty use advice treatment management step action choice option
    plan approach way method procedure mechanism line intervention strategy advantage benefit solution recommendation
    """.split()  # noqa: SIM905
)


def _action_after_copula(text: str, answer: str, adoc: Any) -> str:
    """An answer that opens with a verb's base form (an action: "Regulate setting time") right after "is"/"are":
    "is to regulate" when the subject names an action ("The function of X", "Your advice", "the next step in
    management"); otherwise the copula goes and the verb agrees with it ("The steroids are exacerbate the
    inflammatory response" -> "The steroids exacerbate ..."). Other claims are returned as they are."""
    from lemminflect import getInflection

    if not len(adoc) or not answer.split():
        return text
    verb = answer.split()[0]
    m = re.search(rf"\b(is|are|was|were)\s+({re.escape(verb)})\b", text, re.I)
    if m is None:
        return text
    subject = re.split(r"[.,;:]\s", text[: m.start()])[-1].lower().split()
    if _ACTION_NOUNS & set(subject) and _action_answer(adoc):
        return f"{text[: m.end(1)]} to {text[m.start(2) :]}"
    if adoc[0].tag_ not in ("VB", "VBP") or not base_verb_only(adoc[0].lower_):
        return text
    tag = {"is": "VBZ", "was": "VBD", "were": "VBD"}.get(m.group(1).lower(), "VBP")
    form = (getInflection(verb.lower(), tag) or (verb.lower(),))[0]
    return f"{text[: m.start(1)]}{form}{text[m.end(2) :]}"


def _action_answer(adoc: Any) -> bool:
    """An answer that is an action, a verb's base form first: as the tagger reads it ("Give cabergoline"), or a word
    lemminflect knows only as a verb that the tagger calls a noun ("Retrieve follicles"), or one of two coordinated
    actions ("Wait and watch"); not a noun ("Shoulder with bevel", "Pain"), a noun list ("Block of sodium channels",
    "Surgery and radiotherapy") or an adjective ("Complete debridement")."""
    from lemminflect import getAllLemmas

    first = adoc[0]
    if tuple(getAllLemmas(first.lower_).get("VERB", ()))[:1] != (first.lower_,):
        return False
    if first.tag_ in ("NNS", "NNPS", "VBZ", "VBD", "VBN", "VBG"):
        return False
    verbal = (first.tag_ in ("VB", "VBP") and first.dep_ == "ROOT") or (
        first.tag_ == "NN" and base_verb_only(first.lower_)
    )
    second = tuple(getAllLemmas(adoc[2].lower_).get("VERB", ()))[:1] if len(adoc) > 2 else ()
    if len(adoc) > 2 and adoc[1].lower_ in ("and", "&") and second == (adoc[2].lower_,):
        return verbal or (first.tag_ in ("NN", "NNP", "VB") and "NOUN" not in getAllLemmas(first.lower_))
    if len(adoc) > 1 and adoc[1].lower_ in ("of", "in", "and", "&", ","):
        return False
    return verbal


def _waits_for_noun(last: Any, before: Any | None) -> bool:
    """An adjective at the end after a preposition or determiner, which lemminflect knows only as an adjective:
    its noun is the answer ("... is most typical of mandibular" + "Canine"; not "... into enamel", "in female")."""
    from lemminflect import getAllLemmas

    return (
        last.tag_ == "JJ"
        and before is not None
        and before.tag_ in ("IN", "DT")
        and "NOUN" not in getAllLemmas(last.lower_)
    )


def _in_relative_clause(t: Any) -> bool:
    """Whether a verb is inside a relative clause opened by a relative word ("Teeth that erupt in 30 days")."""
    return any(
        a.dep_ in ("acl:relcl", "acl") and any(c.lower_ in _RELATIVE_WORDS and c.i < a.i for c in a.children)
        for a in (t, *t.ancestors)
    )


_RELATIVE_WORDS = (WH_NOMINAL - {"what"}) | {"that", "where", "when"}


def _relative_on_noun(t: Any, asked: bool = False) -> bool:
    """A relative word right after the stem's own noun, or after that noun's preposition: "Organism which causes
    bacterial endocarditis", "Only tooth in which buccal surface is made of 2 lobes": the noun phrase stem keeps its
    relative clause ("The organism which causes ... is Streptococcus viridans"). Not a determiner "which", nor (in a
    question with its "?") "which" + a noun after a preposition other than "in"/"by" ("People with which skin type
    run a greater risk ...?" asks)."""
    doc = t.doc
    if t.lower_ not in ("which", "that", "who", "whom", "whose", "where", "when") or t.i == 0:
        return False
    prev = doc[t.i - 1]
    if prev.pos_ == "ADP" and t.i > 1:
        prev = doc[t.i - 2]
    if prev.dep_ != "ROOT" and prev.head.dep_ != "ROOT":
        return False  # the stem's own noun, not one deep inside a clause ("... covered with membrane which can be ...")
    if t.dep_ == "det" or not any(x.pos_ in ("VERB", "AUX") for x in doc[t.i + 1 :]):
        return False  # "The corona surrounds which major object?": it asks
    if (
        asked
        and doc[t.i - 1].lower_ not in ("in", "by")
        and t.i + 1 < len(doc)
        and doc[t.i + 1].pos_ in ("NOUN", "PROPN", "ADJ")
    ):
        return False  # in a question (with its "?"): "People with which skin type run a greater risk of ...?" (not
        # the stem "Only tooth in which buccal surface is made of 2 lobes")
    return prev.pos_ in ("NOUN", "PROPN") and _is_relative(t)


def _np_stem(doc: Any, answer: str, asked: bool = False) -> str:
    """'Most useful test in vesicovaginal fistula' + 'cystoscopy' -> 'The most useful test in ... is cystoscopy'; a
    phrase before the noun stays in front: 'In myocardial infarction the first enzyme to rise' + 'CPK' -> 'In
    myocardial infarction, the first enzyme to rise is CPK'."""
    if any(_is_wh_word(t) and not _relative_on_noun(t, asked) for t in doc):
        raise ConversionError("no_question_form", "a question word the rules could not place")
    span = doc[:]
    opener = ""
    root = span.root
    noun = root if root.pos_ in ("NOUN", "PROPN") else next((c for c in root.children if "subj" in c.dep_), None)
    first = doc[0]
    if first.dep_ == "case" and noun is not None:
        pp = first.head
        end = pp.right_edge.i + 1 if pp.head in (root, noun) and pp.i < noun.i else pp.i + 1
        # the noun phrase after the phrase: where the parse says, or (misparsed as one phrase) at a determiner or comma
        if end < len(doc) and (end < noun.i or doc[end].tag_ in ("DT", ",")):
            rest = doc[end:] if doc[end].text != "," else doc[end + 1 :]
            if len(rest):  # not a stem that is only the opening phrase ("In myocardial infarction,")
                opener = doc[:end].text.strip(" ,") + ", "
                span = rest
                first = span[0]
    text = span.text.strip(" -\u2013:;,")
    head = next((t for t in span if t.pos_ in ("NOUN", "PROPN")), None)
    plural = head is not None and head.tag_ in ("NNS", "NNPS")
    modifier = (  # "Etching time", "Increased calories", not "Located medial to ..."
        first.dep_ in ("amod", "compound") and first.head.i > first.i and len(span) > 1 and span[1].pos_ == "NOUN"
    )
    if (first.pos_ in ("ADP", "VERB", "SCONJ") or first.tag_ in ("VBG", "IN")) and not modifier:
        raise ConversionError("no_question_form", "stem starts with a clause, not a noun phrase")
    if first.tag_ not in ("DT", "PRP$", "CD", "NNP", "NNPS") and not _acronym(first.text):
        text = "the " + text[0].lower() + text[1:]
    return f"{opener}{text} {'are' if plural else 'is'} {answer}"


def finish(text: str) -> str:
    """Spacing, capitalisation and final punctuation of a converted claim."""
    return finish_sentence(text) or ""
