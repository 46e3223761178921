"""The 5W aspects of a claim (FACTIFY-5WQA §4) from its dependency parse, and a question for each.

FACTIFY maps PropBank roles from a semantic role labeller to who / what / when / where / why (ARG0 → who, ARG1
and the predicate → what, ARGM-TMP → when, ARGM-LOC → where, ARGM-CAU / ARGM-PRP → why). No role labeller can be
installed here, so the same mapping is done on the UD dependency parse of the project's parser, per predicate
(the root, verbs conjoined with it, and the content clause of a reporting verb: "studies show that X"):

- who: the active subject (``nsubj``) and the passive agent (``obl:agent``, "by the FDA");
- what: the predicate itself, the object (``obj``, ``iobj``), the passive subject (``nsubj:pass``), the subject
  of a copular or adjectival predicate, and the predicate's complement ("is effective");
- when: obliques, modifiers and clauses with a temporal head or marker (dates, years, "after 12 weeks",
  "during", "when …", "recently");
- where: obliques and modifiers with a place preposition ("in", "at", "among", "across") that are not temporal:
  places and settings, populations included ("in mice", "in older adults": PropBank's ARGM-LOC);
- why: cause and purpose ("because …", "due to …", "to prevent …", "so that …").

Each aspect is a span of the claim (character offsets), with a wh-question built from the clause ("What reduced
the risk of stroke?", "When did aspirin reduce the risk of stroke?"). Pure functions of a spaCy ``Doc``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

KINDS = ("who", "what", "when", "where", "why")

_MONTHS = "january february march april may june july august september october november december"
_TIME_NOUNS = frozenset(
    (
        _MONTHS + " jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
        "saturday sunday second seconds minute minutes hour hours day days week weeks month months year years "
        "decade decades century centuries period periods time times date dates season seasons winter summer "
        "spring autumn fall morning evening night nights weekend weekends follow-up followup baseline onset "
        "pandemic outbreak era childhood adulthood infancy adolescence pregnancy trimester birth today yesterday "
        "tomorrow"
    ).split()
)
_TIME_CASES = frozenset(["after", "before", "during", "since", "until", "till", "within", "throughout", "by"])
_TIME_MARKS = frozenset(["when", "whenever", "while", "after", "before", "until", "till", "since", "once", "as"])
_TIME_ADVERBS = frozenset(
    [
        "now",
        "then",
        "recently",
        "currently",
        "previously",
        "formerly",
        "today",
        "yesterday",
        "tomorrow",
        "already",
        "still",
        "soon",
        "later",
        "earlier",
        "early",
        "late",
        "annually",
        "daily",
        "weekly",
        "monthly",
        "yearly",
        "nightly",
        "never",
        "always",
        "often",
        "sometimes",
        "again",
        "initially",
        "eventually",
        "subsequently",
        "historically",
        "nowadays",
    ]
)
_PLACE_CASES = frozenset(
    ["in", "at", "among", "across", "near", "throughout", "within", "inside", "outside", "around", "from", "into", "on"]
)
_PLACE_ADVERBS = frozenset(
    ["worldwide", "globally", "locally", "nationally", "internationally", "here", "there", "abroad"]
)
_CAUSE_MARKS = frozenset(["because", "since", "as", "so", "for"])
_CAUSE_CASES = frozenset(("because", "due", "owing", "thanks"))
_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d)s?$")


@dataclass(frozen=True)
class Aspect:
    kind: str  # who / what / when / where / why
    role: str  # agent, patient, predicate, attribute, temporal, location, cause, purpose
    text: str
    start: int  # character offsets in the claim
    end: int
    predicate: str  # the verb (or copular predicate) the aspect belongs to
    question: str
    # the claim without this aspect: characters [cut_start, cut_end) replaced by ``placeholder`` (optional
    # modifiers are deleted with their preposition; a subject, object or verb becomes "something" / "affected")
    cut_start: int
    cut_end: int
    placeholder: str

    def without(self, claim: str) -> str:
        """``claim`` with this aspect taken out (what ``check`` scores to see whether the aspect decides)."""
        return without_all(claim, [self])


def without_all(claim: str, aspects: list[Aspect]) -> str:
    """``claim`` with several aspects taken out: the cuts are spliced into the original text from right to left
    (so each one's offsets still hold; overlapping cuts after the first are skipped), then tidied once."""
    text, left = claim, len(claim) + 1
    for a in sorted(aspects, key=lambda x: -x.cut_start):
        if a.cut_end > left:
            continue
        text = text[: a.cut_start] + a.placeholder + text[a.cut_end :]
        left = a.cut_start
    text = re.sub(r"\s+([,.;:?!])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()
    text = re.sub(r"^[,;:]\s*", "", text)
    return text[:1].upper() + text[1:] if claim[:1].isupper() else text


def _span(tok: Any, drop_case: bool = False) -> tuple[int, int]:
    """Token indices [i, j) of ``tok``'s subtree (contiguous in a projective parse); ``drop_case``: without
    leading prepositions and markers ("in 2019" → "2019" for the answer; questions keep the whole)."""
    i, j = tok.left_edge.i, tok.right_edge.i + 1
    if drop_case:
        while i < tok.i and tok.doc[i].dep_ in ("case", "mark", "fixed", "advmod") and tok.doc[i].head == tok:
            i += 1
    while j - 1 > i and _end_punct(tok.doc[j - 1]):
        j -= 1
    return i, j


def _end_punct(t: Any) -> bool:
    """Sentence or clause punctuation a span may end with; never "%" or a closing bracket."""
    return t.text in (".", ",", ";", ":", "!", "?", "...", "…")


def _is_temporal(tok: Any) -> bool:
    words = {t.lower_ for t in tok.subtree}
    if tok.lower_ in _TIME_NOUNS or _YEAR.match(tok.text):
        return True
    cases = {c.lower_ for c in tok.children if c.dep_ in ("case", "mark")}
    if cases & _TIME_CASES and (tok.like_num or tok.lower_ in _TIME_NOUNS or words & _TIME_NOUNS):
        return True
    if cases & {"during", "since", "until", "till", "throughout", "after", "before"}:  # "after treatment"
        return True
    return bool(tok.ent_type_ in ("DATE", "TIME"))


def _is_cause(tok: Any) -> bool:
    marks = {c.lower_ for c in tok.children if c.dep_ in ("case", "mark", "fixed")}
    if tok.dep_ == "advcl":
        if marks & _CAUSE_MARKS - {"as", "since", "for"}:
            return True
        if "to" in marks or "order" in marks:  # "to prevent", "in order to"
            return True
        return bool(marks & {"as", "since"}) and not _is_temporal(tok)
    return bool(marks & _CAUSE_CASES)


def _is_predicate(t: Any) -> bool:
    """A verb, an adjective, or a word with a copula: a noun root ("Aspirin.") or a misparse is not."""
    return t.pos_ in ("VERB", "AUX", "ADJ") or any(c.dep_ == "cop" for c in t.children)


def _predicates(doc: Any) -> list[Any]:
    """Root predicates, predicates conjoined with them, and content clauses of reporting predicates."""
    out: list[Any] = []
    todo = [t for t in doc if t.dep_ == "ROOT" and _is_predicate(t)]
    while todo:
        p = todo.pop(0)
        if p in out:
            continue
        out.append(p)
        todo.extend(c for c in p.children if c.dep_ in ("conj", "ccomp", "parataxis") and _is_predicate(c))
    return out


def _subject(pred: Any) -> Any | None:
    for c in pred.children:
        if c.dep_ in ("nsubj", "nsubj:pass", "csubj", "csubj:pass"):
            return c
    if pred.dep_ == "conj":  # "X rose and then fell": the first verb's subject
        return _subject(pred.head)
    return None


def _role(tok: Any, pred: Any) -> tuple[str, str] | None:
    dep = tok.dep_
    copular = any(c.dep_ == "cop" for c in pred.children) or pred.pos_ == "ADJ"
    if dep in ("nsubj", "csubj"):
        existential = any(c.dep_ == "expl" for c in pred.children)  # "There is no association …"
        # PropBank's ARG0 is the doer; the subject of a verb of change or state is what changes or holds
        # ("Mortality fell", "fat depots undergo browning": ARG1), and so is the subject of a verb with no
        # complement at all, as the annotation of 100 benchmark claims showed (docs/check.md); "Smoking leads to
        # cancer" keeps its agent
        lemma = _lemma(pred)
        has_object = any(c.dep_ in ("obj", "iobj", "ccomp", "xcomp") for c in pred.children)
        complement = has_object or any(c.dep_ == "obl" for c in pred.children)
        agentive = complement and lemma not in _NON_AGENTIVE and (has_object or lemma not in _UNACCUSATIVE)
        return ("what", "patient") if copular or existential or not agentive else ("who", "agent")
    quantity = tok.like_num or tok.lower_ in _QUANTITIES or any(c.dep_ == "nummod" for c in tok.children)
    if dep == "obl:agent" or (
        dep == "obl"
        and not quantity  # "reduced by 30%", "by half": a quantity, not an agent
        and any(c.lower_ == "by" for c in tok.children if c.dep_ == "case")
        and any(c.dep_ == "aux:pass" for c in pred.children)
    ):
        return "who", "agent"
    if dep in ("obj", "iobj", "nsubj:pass", "csubj:pass", "xcomp"):
        return "what", "patient"
    if dep in ("obl", "nmod", "obl:tmod", "obl:npmod", "nmod:tmod", "advcl", "advmod", "npadvmod"):
        if _is_cause(tok):
            marks = {c.lower_ for c in tok.children if c.dep_ in ("mark", "case")}
            return "why", "purpose" if ("to" in marks or "order" in marks) else "cause"
        if dep.endswith(":tmod") or _is_temporal(tok):
            return "when", "temporal"
        if dep == "advcl":
            marks = {c.lower_ for c in tok.children if c.dep_ == "mark"}
            return ("when", "temporal") if marks & _TIME_MARKS else None
        if dep == "advmod":
            if tok.lower_ in _TIME_ADVERBS:
                return "when", "temporal"
            return ("where", "location") if tok.lower_ in _PLACE_ADVERBS else None
        cases = {c.lower_ for c in tok.children if c.dep_ == "case"}
        if cases & _PLACE_CASES:
            return "where", "location"
        if dep == "obl":  # "led to a reduction", "compared with placebo": PropBank's numbered arguments
            return "what", "oblique"
    return None


def _verb_form(pred: Any, aux: list[Any], subj: Any | None) -> tuple[str, str]:
    """(auxiliary for the question, the predicate as it follows it): "reduced" → ("did", "reduce")."""
    if aux:
        return aux[0].text.lower(), " ".join([*(a.text for a in aux[1:]), pred.text])
    lemma = _lemma(pred)
    if pred.tag_ in ("VBD", "VBN") or "Past" in pred.morph.get("Tense"):
        return "did", lemma
    plural = subj is not None and (subj.tag_ in ("NNS", "NNPS") or "Plur" in subj.morph.get("Number"))
    if pred.tag_ == "VBZ" or (pred.tag_ != "VBP" and not plural and "3" in pred.morph.get("Person")):
        return "does", lemma
    return ("do" if plural or pred.tag_ == "VBP" else "does"), lemma


def _clause(pred: Any, predicates: list[Any]) -> list[Any]:
    """The tokens of ``pred``'s own clause: its subtree without the clauses of other predicates under it (a
    reporting verb's content clause, a conjoined verb), without the final punctuation."""
    nested = {  # a conjoined or paratactic predicate's own words; a content clause is the reporting verb's object
        t.i
        for p in predicates
        if p != pred and p.dep_ in ("conj", "parataxis") and p in pred.subtree
        for t in p.subtree
    }
    toks = [t for t in pred.subtree if t.i not in nested or t == pred]
    while toks and _end_punct(toks[-1]):
        toks.pop()
    while toks and toks[0].dep_ in ("cc", "mark") and toks[0].head == pred:  # "and", "that"
        toks.pop(0)
    return toks


def _text(tokens: list[Any]) -> str:
    text = "".join(t.text_with_ws for t in tokens).strip()
    return re.sub(r"\s+([,;:])", r"\1", text).strip(" ,")


def _lower_first(tokens: list[Any]) -> str:
    text = _text(tokens)
    if tokens and tokens[0].pos_ != "PROPN" and text[:1].isupper() and text[1:2].islower():
        return text[0].lower() + text[1:]
    return text


def _question(kind: str, tok: Any, pred: Any, predicates: list[Any]) -> str:
    """A wh-question about the aspect headed by ``tok``: its span taken out of the predicate's clause."""
    doc = pred.doc
    clause = _clause(pred, predicates)
    skip = set(range(*_span(tok))) if tok != pred else set()
    subj = _subject(pred)  # a conjoined verb's subject is the first verb's
    subj_idx = set(range(*_span(subj))) if subj is not None else set()
    own_subject = subj is not None and subj.head == pred
    # modifiers before the subject ("In mice, …") go to the end of the question
    first = min(subj_idx) if own_subject else pred.i
    fronted = [
        t for t in clause if t.i < first and t.i not in skip and not t.is_punct and t.dep_ != "expl" and t != pred
    ]
    body = [t for t in clause if t.i >= first]
    tail = _lower_first(fronted)
    negation = [c.text for c in pred.children if c.lower_ in _NEGATIONS and c.i < pred.i]
    existential = any(c.dep_ == "expl" for c in pred.children)
    if tok == subj and own_subject:
        if existential:  # "There is no association between X and Y" -> "What is there between X and Y?"
            rest = [t for t in body if t.i not in skip and t.i > max(subj_idx)]
            return " ".join(x for x in ("What", pred.text, "there", _text(rest), tail) if x) + "?"
        # a subject question: the subject replaced, no inversion ("What reduced the risk of stroke?")
        rest = [t for t in body if t.i not in skip]
        words = _text(rest)
        if pred.tag_ == "VBP" and rest and rest[0] == pred:  # "What increases", not "What increase"
            third = _inflect(pred, "VBZ")
            if third:
                words = third + words[len(pred.text) :]
        wh = "Who" if kind == "who" and _personal(tok) else "What"
        return " ".join(x for x in (wh, words, tail) if x) + "?"
    aux = sorted(
        (c for c in pred.children if (c.dep_ in ("aux", "aux:pass") and c.i < pred.i) or c.dep_ == "cop"),
        key=lambda t: t.i,
    )
    copular = any(c.dep_ == "cop" for c in pred.children)
    subj_text = _lower_first([doc[i] for i in sorted(subj_idx)])
    if tok == pred:
        if not subj_text:
            return "What happened?"
        if copular:
            return f"What {aux[0].text.lower()} {subj_text}?"
        if any(c.dep_ == "aux:pass" for c in pred.children):
            return f"What happened to {subj_text}?"
        helper, _ = _verb_form(pred, aux, subj)
        do = {"has": "done", "have": "done", "had": "done", "is": "doing", "are": "doing", "was": "doing"}
        return f"What {helper} {subj_text} {do.get(helper, 'doing' if helper == 'were' else 'do')}?"
    helper, verb = _verb_form(pred, aux, subj)
    gone = skip | subj_idx | {t.i for t in aux} | {pred.i}
    after = [t for t in body if t.i > pred.i and t.i not in gone]
    if copular:  # "Why is vitamin D (not) effective?": the copula moves, the predicate's phrase stays
        a, _ = _predicate_span(pred)
        phrase = [t for t in doc[a : pred.i + 1] if t.i not in gone | skip and t.lower_ not in _NEGATIONS]
        helper, verb = aux[0].text.lower(), _text([*phrase, pred] if pred not in phrase else phrase)
    wh = {"who": "Who", "what": "What", "when": "When", "where": "Where", "why": "Why"}[kind]
    if kind == "who" and tok.dep_ != "nsubj":
        wh = "By whom"
    parts = (wh, helper, "there" if existential else subj_text, " ".join(negation), verb, _text(after), tail)
    return " ".join(x for x in parts if x) + "?"


def _inflect(tok: Any, tag: str) -> str | None:
    from lemminflect import getInflection

    forms = getInflection(_lemma(tok), tag)
    return forms[0] if forms else None


def _lemma(tok: Any) -> str:
    """The verb's lemma by lemminflect (the parser's lemmatiser makes "lowere" of "lowers"), else the parser's."""
    from lemminflect import getLemma

    lemmas = getLemma(tok.text, upos="VERB") if tok.pos_ in ("VERB", "AUX") else ()
    return (lemmas[0] if lemmas else tok.lemma_ or tok.text).lower() if tok.text[:1].islower() else tok.lemma_


def _personal(tok: Any) -> bool:
    """Whether a subject is a who (people, organisations) rather than a what; the parser has no named entities."""
    return tok.ent_type_ in ("PERSON", "ORG", "NORP") or tok.lower_ in _PEOPLE


_PEOPLE = frozenset(
    [
        "researchers",
        "scientists",
        "doctors",
        "physicians",
        "nurses",
        "clinicians",
        "authors",
        "investigators",
        "we",
        "they",
        "he",
        "she",
        "people",
        "patients",
        "participants",
        "subjects",
        "volunteers",
        "women",
        "men",
        "children",
        "adults",
        "infants",
        "experts",
        "officials",
        "students",
        "study",
        "team",
        "group",
        "workers",
    ]
)


_LIGHT_VERBS = frozenset(
    [
        "be",
        "have",
        "do",
        "get",
        "make",
        "take",
        "give",
        "find",
        "show",
        "report",
        "suggest",
        "demonstrate",
        "reveal",
        "indicate",
        "observe",
        "note",
        "conclude",
        "confirm",
        "claim",
        "say",
        "state",
        "lead",
        "result",
    ]
)
_INTRANSITIVE = {"affected": "changed", "affects": "changes", "affect": "change", "affecting": "changing"}
_NEUTRAL_VERB = {
    "VBD": "affected",
    "VBN": "affected",
    "VBZ": "affects",
    "VBP": "affect",
    "VB": "affect",
    "VBG": "affecting",
}


_NEGATIONS = frozenset(("not", "n't", "never", "no"))
# verbs whose subject undergoes or holds rather than does (PropBank ARG1 or a non-agent ARG0)
_NON_AGENTIVE = frozenset(
    "have undergo receive experience suffer lack contain include comprise depend need require reach".split()  # noqa: SIM905
)
# verbs of change or being that, without an object, say what happens to their subject ("Mortality fell to 12%");
# with one they are causative ("Aspirin increases the risk"): the subject is then the agent
_UNACCUSATIVE = frozenset(
    (  # noqa: SIM905
        "fall rise increase decrease decline drop grow occur happen change vary remain exist die persist differ "
        "emerge appear worsen improve range"
    ).split()
)
_QUANTITIES = frozenset(("%", "percent", "half", "third", "quarter", "fold", "times", "twice", "mg", "ml"))
_COMPARATIVES = frozenset(
    ("higher", "lower", "greater", "smaller", "larger", "more", "less", "fewer", "better", "worse")
)


_CLAUSE_DEPS = frozenset(
    ("advcl", "obl", "obl:tmod", "obl:npmod", "obl:agent", "conj", "cc", "punct", "parataxis", "ccomp", "csubj")
    + ("nsubj", "nsubj:pass", "xcomp", "mark", "dep", "discourse", "vocative")
)


def _predicate_span(pred: Any) -> tuple[int, int]:
    """The predicate with its auxiliaries, copula and negation ("does not play", "was approved"); a copular
    predicate with its phrase ("is not the treatment of choice", "were significantly higher")."""
    doc = pred.doc
    if any(c.dep_ == "cop" for c in pred.children):
        own = [
            c
            for c in pred.children
            if c.dep_ not in _CLAUSE_DEPS
            and c.dep_ != "cop"
            and c.lower_ not in _NEGATIONS
            and (_role(c, pred) or ("",))[0] not in ("when", "where", "why")
        ]
        i = min([pred.i, *(c.left_edge.i for c in own if c.i < pred.i)])
        j = max([pred.i, *(c.right_edge.i for c in own if c.i > pred.i)]) + 1
    else:
        i, j = pred.i, pred.i + 1
    while i > 0:
        t = doc[i - 1]
        if t.head == pred and (t.dep_ in ("aux", "aux:pass", "cop", "advmod") or t.lower_ in _NEGATIONS):
            i -= 1
        else:
            break
    while j - 1 > i and _end_punct(doc[j - 1]):
        j -= 1
    return i, j


def _placeholder(tok: Any, pred: Any, role: str, cut: Any) -> str:
    """What replaces an aspect in the claim without it: nothing for a modifier, a neutral word for a core part
    (a predicate loses its negation too: "does not play" → "does affect")."""
    if role in ("temporal", "location", "cause", "purpose", "oblique") or (role == "agent" and tok.dep_ != "nsubj"):
        return ""
    if tok == pred:
        kept = [t.text for t in cut if t.dep_ in ("aux", "aux:pass", "cop") and t.head == pred]
        if (pred.lemma_ or pred.lower_).lower() in _LIGHT_VERBS:
            kept = [t.text for t in cut if t != pred and t.lower_ not in _NEGATIONS]
            head = pred.text  # "had", "found": only their negation is an aspect of the claim
        elif pred.tag_ in ("JJR", "RBR") or pred.lower_ in _COMPARATIVES:
            head = "different"  # "significantly higher" -> "different": what the evidence says either way
        elif role == "attribute":
            head = "relevant" if pred.pos_ == "ADJ" else "something"
        elif kept:
            head = "affected" if pred.tag_ in ("VBN", "VBD") else "affect"  # after "does", "was", "has"
            if not any(c.dep_ in ("obj", "ccomp", "xcomp") for c in pred.children) and "aux:pass" not in {
                c.dep_ for c in pred.children
            }:
                head = _INTRANSITIVE[head]
        else:
            head = _NEUTRAL_VERB.get(pred.tag_, "affects" if "3" in pred.morph.get("Person") else "affected")
            if not any(c.dep_ in ("obj", "ccomp", "xcomp") for c in pred.children):  # "Mortality fell" -> changed
                head = _INTRANSITIVE[head]
        return " ".join([*kept, head])
    plural = tok.dep_.startswith("nsubj") and (tok.tag_ in ("NNS", "NNPS") or "Plur" in tok.morph.get("Number"))
    word = ("some people" if plural else "someone") if _personal(tok) else ("some things" if plural else "something")
    return word.capitalize() if cut.start == 0 else word


def aspects(doc: Any) -> list[Aspect]:
    """The 5W aspects of a parsed claim, by predicate, in claim order within each."""
    out: list[Aspect] = []
    seen: set[tuple[int, int]] = set()
    predicates = _predicates(doc)
    for pred in predicates:
        items: list[tuple[Any, str, str]] = []
        copular = any(c.dep_ == "cop" for c in pred.children) or pred.pos_ == "ADJ"
        items.append((pred, "what", "attribute" if copular else "predicate"))
        for c in pred.children:
            found = _role(c, pred)
            if found is not None:
                items.append((c, *found))
        # temporal / place / cause modifiers attached to the object or subject noun ("the risk of X in adults")
        for c in pred.children:
            if c.dep_ in ("obj", "nsubj", "nsubj:pass"):
                for m in c.children:
                    if m.dep_ == "nmod":
                        found = _role(m, pred)
                        if found is not None and found[0] in ("when", "where", "why"):
                            items.append((m, *found))
        for tok, kind, role in sorted(items, key=lambda x: x[0].i):
            if tok == pred:
                a, b = _predicate_span(pred)
            else:
                a, b = _span(tok, drop_case=kind in ("when", "where", "why"))
            if (a, b) in seen or a >= b:
                continue
            seen.add((a, b))
            span = doc[a:b]
            cut = doc[slice(*_span(tok))] if tok != pred else span
            placeholder = _placeholder(tok, pred, role, cut)
            if placeholder == cut.text:
                continue  # a light or reporting verb: not an aspect of its own
            out.append(
                Aspect(
                    kind=kind,
                    role=role,
                    text=span.text,
                    start=span.start_char,
                    end=span.end_char,
                    predicate=pred.text,
                    question=_question(kind, tok, pred, predicates),
                    cut_start=cut.start_char,
                    cut_end=cut.end_char,
                    placeholder=placeholder,
                )
            )
    return out
