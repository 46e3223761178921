"""Scientific minimal pairs for training the judge (the MiniCheck recipe on claimforge's own generators): a
claim taken from a sentence of scientific text is SUPPORTED by its source window; one meaning-reversing edit
(direction antonym, negation added or removed, changed number) makes it REFUTED by the same window; a swapped
entity that the window never mentions, one more such entity beside one it does mention ("... and LDL
cholesterol"), or a related passage from another document, makes it NOT_ENOUGH_INFO.

Hard negatives first: the REFUTED and swapped-entity claims differ from the SUPPORTED one by a word or two and
keep the same evidence, so a judge cannot lean on word overlap. Each pair records the edit in its id and
``source`` so the mix can be counted.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from claimforge.io.splits import text_key
from claimforge.nlp.normalize import indefinite_article
from claimforge.records import Document, Label, Pair
from claimforge.registry import ComponentConfig

# -- claims from sentences -------------------------------------------------------------------------------------

# Report frames whose verb vouches for what follows ("We found that X" entails X). Narrower on purpose than
# generate.simplify's frames, which also strip "hypothesized / proposed / believed that" for ClaimGen: for the
# judge's SUPPORTED pairs the claim must follow from the sentence it came from.
_FRAME = re.compile(
    r"^(?:(?:here|in this study|in conclusion|in summary|overall|taken together|together|collectively|thus|"
    r"therefore|however|moreover|furthermore|in addition|additionally|finally|importantly|notably|interestingly)"
    r",?\s+)?(?:(?:we|our (?:results|data|findings|study|analysis|analyses)|these (?:results|data|findings|"
    r"observations)|this study|the (?:present )?(?:results|data|findings|study))\s+(?:further\s+|also\s+|"
    r"clearly\s+|strongly\s+)?(?:show|showed|shown|demonstrate|demonstrated|demonstrates|suggest|suggests|"
    r"suggested|indicate|indicates|indicated|reveal|reveals|revealed|found|find|observed|confirm|confirms|"
    r"confirmed|report|reported|provide evidence)\s+that\s+)",
    re.IGNORECASE,
)
_CONNECTIVE = re.compile(
    r"^(?:however|moreover|furthermore|in addition|additionally|finally|importantly|notably|interestingly|"
    r"overall|thus|therefore|consequently|similarly|in contrast|by contrast|in conclusion|in summary),\s+",
    re.IGNORECASE,
)
# Openers that point outside the sentence (anaphora, the authors): such a claim is not self-contained.
_CONTEXTUAL_START = re.compile(
    r"^(?:this|these|those|that|it|its|they|their|them|such|he|she|we|our|here|both|all of these|the latter|"
    r"the former|there)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|i)\b", re.IGNORECASE)
_REJECT_TEXT = re.compile(r"\bet al\b|\b(?:fig|figs|figure|table|supplementary|eq)\b\.?\s*\w|[?:;]|\bsee\b", re.I)
_EMPTY_BRACKETS = re.compile(r"\s*[\[(][\s,;–\-]*[\])]")
_PARENS = re.compile(r"\s*\([^()]*\)")
_SPACES = re.compile(r"\s+")


def clean_sentence(text: str) -> str:
    """A sentence with empty citation brackets removed and spacing normalised."""
    text = _EMPTY_BRACKETS.sub("", text)
    text = _SPACES.sub(" ", text).strip()
    return re.sub(r"\s+([.,;])", r"\1", text)


def claim_from_sentence(sentence: str, min_words: int = 6, max_words: int = 40) -> tuple[str | None, str]:
    """(claim, reason): the sentence as a self-contained claim — report frames ("We found that …") and
    connectives dropped, parentheses removed — or None with the reason it cannot be one."""
    text = clean_sentence(_PARENS.sub("", sentence))
    text = _FRAME.sub("", text, count=1)
    text = _CONNECTIVE.sub("", text, count=1)
    if not text:
        return None, "empty"
    text = text[0].upper() + text[1:]
    if not text.endswith("."):
        return None, "not_a_statement"
    n = len(text.split())
    if n < min_words or n > max_words:
        return None, "length"
    if _CONTEXTUAL_START.match(text) or _FIRST_PERSON.search(text):
        return None, "not_self_contained"
    if _REJECT_TEXT.search(text) or not text[0].isalpha():
        return None, "reference_or_fragment"
    return text, ""


# -- edits -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edit:
    """A claim after one edit, with what changed."""

    claim: str
    kind: str
    old: str
    new: str


_DIRECTION = {
    "increase": "decrease",
    "increases": "decreases",
    "increased": "decreased",
    "increasing": "decreasing",
    "decrease": "increase",
    "decreases": "increases",
    "decreased": "increased",
    "decreasing": "increasing",
    "higher": "lower",
    "lower": "higher",
    "highest": "lowest",
    "lowest": "highest",
    "greater": "smaller",
    "smaller": "greater",
    "larger": "smaller",
    "longer": "shorter",
    "shorter": "longer",
    "faster": "slower",
    "slower": "faster",
    "stronger": "weaker",
    "weaker": "stronger",
    "elevated": "reduced",
    "reduced": "elevated",
    "reduces": "increases",
    "reduce": "increase",
    "upregulated": "downregulated",
    "downregulated": "upregulated",
    "up-regulated": "down-regulated",
    "down-regulated": "up-regulated",
    "upregulation": "downregulation",
    "downregulation": "upregulation",
    "improved": "worsened",
    "improves": "worsens",
    "worsened": "improved",
    "enhanced": "impaired",
    "impaired": "enhanced",
    "positively": "negatively",
    "negatively": "positively",
    "positive": "negative",
    "negative": "positive",
    "promotes": "suppresses",
    "promoted": "suppressed",
    "suppresses": "promotes",
    "suppressed": "promoted",
    "activates": "inhibits",
    "activated": "inhibited",
    "inhibits": "activates",
    "inhibited": "activated",
    "gain": "loss",
    "superior": "inferior",
    "inferior": "superior",
    "agonist": "antagonist",
    "antagonist": "agonist",
    "more": "less",
    "less": "more",
    "maximum": "minimum",
    "minimum": "maximum",
    "benefit": "harm",
    "lowers": "raises",
    "lowered": "raised",
    "raises": "lowers",
    "raised": "lowered",
}
# Words after which a direction word is part of a name ("lower limb", "higher order"), not a direction.
_FIXED_AFTER = {
    "limb",
    "limbs",
    "extremity",
    "extremities",
    "back",
    "respiratory",
    "urinary",
    "bound",
    "order",
    "eukaryotes",
    "organisms",
    "gastrointestinal",
    "abdomen",
    "lobe",
    "lobes",
    "than",
    "control",
    "controls",
    "mode",
    "charge",
    "charged",
    "feedback",
    "selection",
    "sense",
    "strand",
    "predictive",
    "ion",
    "ions",
    "regulator",
    "regulators",
}
_HEDGE = re.compile(r"\b(?:may|might|could|possibly|perhaps|likely|potentially|unlikely|whether|if)\b", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*")


def _match_case(new: str, old: str) -> str:
    return new[0].upper() + new[1:] if old[:1].isupper() else new


def direction_opposite(word: str) -> str | None:
    """The opposite of a direction word ("increased" -> "decreased"), in its case; None for other words."""
    opp = _DIRECTION.get(word.lower())
    return _match_case(opp, word) if opp else None


def direction_edit(claim: str, rng: random.Random) -> Edit | None:
    """Swap one direction word for its opposite ("increased" → "decreased", "higher" → "lower"). Not in a negated
    claim: "does not reduce the need" and "does not increase the need" can both be true (two of 24 negatives of a
    SciClaimHunt reading, 2026-11-27)."""
    if _HEDGE.search(claim) or _NEGATION.search(claim):
        return None
    spots = []
    for m in _WORD.finditer(claim):
        word = m.group().lower()
        if word not in _DIRECTION:
            continue
        after = claim[m.end() :].split(maxsplit=1)
        if after and after[0].strip(".,").lower() in _FIXED_AFTER and word not in ("more", "less"):
            continue
        if word in ("more", "less") and not (
            after
            and after[0].strip(".,").lower()
            in ("likely", "frequently", "frequent", "common", "often", "severe", "effective", "than")
        ):
            continue
        spots.append(m)
    if not spots:
        return None
    m = rng.choice(spots)
    new = _match_case(_DIRECTION[m.group().lower()], m.group())
    before = claim[: m.start()]
    article = re.search(r"\b(an?)(\s+)$", before, re.IGNORECASE)
    if article:  # "an increased risk" -> "a decreased risk", not "an decreased"
        a = indefinite_article(new)
        a = _match_case(a, article.group(1))
        before = before[: article.start()] + a + article.group(2)
    return Edit(before + new + claim[m.end() :], "direction", m.group(), new)


_NUMBER = re.compile(r"(?<![\w\-./])(\d+(?:\.\d+)?)(\s?%)?(?![\w\-/]|\.\d)")
# p-values, CI levels and numbers that are part of a name ("type 2 diabetes", "phase 3", "grade 4")
_NUMBER_CONTEXT_SKIP = re.compile(
    r"(?:\bp\s*[<=>≤]\s*|\bCI\b|confidence|\bn\s*=\s*|\bfold\b|\b(?:type|grade|stage|phase|class|generation|"
    r"chromosome|group|arm|cohort|wave|version|level|covid|sars-cov|cd|il)\s*)$",
    re.I,
)


def number_edit(claim: str, evidence: str, rng: random.Random) -> Edit | None:
    """Change one quantity (not a year, a p-value, a CI level or a name's digits) to a clearly different value
    the evidence does not contain."""
    spots = []
    for m in _NUMBER.finditer(claim):
        value = m.group(1)
        before = claim[max(0, m.start() - 14) : m.start()]
        if _NUMBER_CONTEXT_SKIP.search(before) or claim[m.end() : m.end() + 3].strip().startswith("% CI"):
            continue
        if len(value) == 4 and value.isdigit() and 1800 <= int(value) <= 2100:
            continue
        spots.append(m)
    if not spots:
        return None
    m = rng.choice(spots)
    value, pct = m.group(1), m.group(2) or ""
    decimals = len(value.split(".")[1]) if "." in value else 0
    x = float(value)
    for _ in range(8):
        factor = rng.choice([0.3, 0.5, 0.6, 1.5, 2.0, 3.0])
        y = x * factor if x else rng.choice([1.0, 2.0, 5.0])
        if pct and y > 100:
            y = x * 0.5
        new = f"{y:.{decimals}f}" if decimals else str(max(0, int(round(y))))
        if new != value and float(new) != x and not re.search(rf"(?<![\d.]){re.escape(new)}(?![\d])", evidence):
            return Edit(claim[: m.start(1)] + new + claim[m.end(1) :], "number", value + pct, new + pct)
    return None


_NEG_REMOVE = [
    (re.compile(r"\bno significant\b", re.I), "a significant"),
    (re.compile(r"\bno (difference|differences|effect|change|association|correlation)\b", re.I), r"a \1"),
    (re.compile(r"\b(is|are|was|were|has|have|had|can|could|will|would)\s+not\b", re.I), r"\1"),
]
# a plural noun phrase takes no article: "There were no significant differences" -> "There were significant
# differences", not "a significant differences" (9 of 60 negatives of two SciClaimHunt readings, 2026-11-27)
_PLURAL_AFTER_NO = re.compile(r"^[\w-]*(?:ences|ances|ions|ects|ges|ts|ns|ds|es|rs|ls|ys)$", re.I)
# a negation word ("cannot", "doesn't" and "doesn’t" included)
NEGATION = re.compile(
    r"\b(?:not|no|never|neither|nor|without|none|cannot|fail(?:s|ed)? to|unable to|lack(?:s|ed)?)\b|n[’']t\b", re.I
)
_NEGATION = NEGATION
_AUX = {"is", "are", "was", "were", "has", "have", "had", "can", "will", "would", "should", "must", "does", "do", "did"}


# clauses that modify a word or the main clause: a negation removed there changes a side remark, not the claim ("X
# rose, in contrast to water with magnesium only, where no effect was detected": SciClaimHunt reading, 2026-11-27)
_SUBORDINATE = {"advcl", "acl", "acl:relcl", "relcl"}


def _in_main_clause(doc: Any, at: int) -> bool:
    """Whether the word at character offset ``at`` belongs to the main clause of the parse (a clausal complement
    counts: "found that X" is stripped from claims, and "suggests that no X" states no X)."""
    token = next((t for t in doc if t.idx <= at < t.idx + len(t.text)), None)
    while token is not None and token.head.i != token.i:
        if token.dep_ in _SUBORDINATE:
            return False
        token = token.head
    return True


def negation_edit(claim: str, doc: Any | None) -> Edit | None:
    """Remove the claim's one negation ("did not improve" → "improved", "no significant" → "a significant"),
    or negate its main verb from the parse ("is associated" → "is not associated", "reduced" → "did not
    reduce")."""
    if _HEDGE.search(claim):
        return None
    negations = list(_NEGATION.finditer(claim))
    if negations:
        if len(negations) != 1 or (doc is not None and not _in_main_clause(doc, negations[0].start())):
            return None
        did = re.search(r"\b(did|does|do)\s+not\s+([a-z]+)", claim)
        if did and doc is not None:
            verb = _inflect(did.group(2), {"did": "VBD", "does": "VBZ", "do": "VBP"}[did.group(1)])
            if verb:
                return Edit(claim[: did.start()] + verb + claim[did.end() :], "negation_removed", did.group(), verb)
        for pattern, repl in _NEG_REMOVE:
            m = pattern.search(claim)
            if m:
                new = m.expand(repl)
                if new.startswith("a ") and _plural_after(claim, m.start() + 3, doc):
                    new = new[2:]
                new = _match_case(new, m.group())
                return Edit(claim[: m.start()] + new + claim[m.end() :], "negation_removed", m.group(), new)
        return None
    if doc is None:
        return None
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1:
        return None
    root = roots[0]
    if any(_reason_clause(c) for c in root.children):
        return None  # "X is not linked to Y, as mitochondria are both ...": the negation would keep its own reason
    aux = [c for c in root.children if c.dep_ in ("aux", "aux:pass", "auxpass", "cop") and c.lower_ in _AUX]
    if aux:
        a = min(aux, key=lambda t: t.i)
        if a.i + 1 < len(doc) and doc[a.i + 1].lower_ == "not":
            return None
        cut = a.idx + len(a.text)
        rest = claim[cut:]
        also = re.match(r"\s+also\b", rest)  # "was also significant" -> "was not significant", not "not also"
        if also:
            rest = rest[also.end() :]
        still = re.match(r"\s+still\b", rest)  # "was still present" -> "was no longer present"
        if still:
            word = f"{a.text} no longer"
            return Edit(claim[: a.idx] + word + rest[still.end() :], "negation_added", a.text, word)
        word = "cannot" if a.lower_ == "can" else f"{a.text} not"
        word = _match_case(word, a.text)
        return Edit(claim[: a.idx] + word + rest, "negation_added", claim[a.idx : len(claim) - len(rest)], word)
    if root.lemma_.lower() == "be" and root.tag_ in ("VBD", "VBZ", "VBP"):
        # a main-verb "be" takes the negation itself, never do-support ("There did not be a reduction"):
        # "The rate was 12%" -> "was not 12%"; existential "there" reads best with "no" ("There were no
        # significant changes", "There was no 29% reduction"; not "There were not significant changes")
        nxt = doc[root.i + 1] if root.i + 1 < len(doc) else None
        if nxt is not None and nxt.lower_ in ("not", "no"):
            return None
        end = root.idx + len(root.text)  # where the negation goes
        word = "not"
        if nxt is not None and any(c.dep_ == "expl" for c in root.children):
            if nxt.lower_ in ("a", "an"):  # "There was a reduction" -> "There was no reduction"
                end, word = nxt.idx + len(nxt.text), "no"
            elif nxt.pos_ != "DET":  # "There were significant changes" -> "There were no significant changes"
                word = "no"
        new = f"{root.text} {word}"
        return Edit(claim[: root.idx] + new + claim[end:], "negation_added", root.text, new)
    if root.tag_ in ("VBD", "VBZ", "VBP") and root.pos_ == "VERB":
        helper = {"VBD": "did", "VBZ": "does", "VBP": "do"}[root.tag_]
        new = f"{helper} not {_verb_lemma(root)}"
        # "significantly influenced" -> "did not significantly influence", not "significantly did not influence"
        at = root.i
        while at > 0 and doc[at - 1].dep_ == "advmod" and doc[at - 1].tag_ == "RB" and doc[at - 1].head.i == root.i:
            at -= 1
        adverbs = [t.lower_ for t in doc[at : root.i]]
        if (at > 0 and doc[at - 1].dep_ == "cc") or any(a in _FOCUS_ADVERBS for a in adverbs):
            return None  # "markedly and significantly reduced"; "only reduces" negated is no contradiction
        begin, end = doc[at].idx, root.idx + len(root.text)
        if "still" in adverbs:  # "still reduces" -> "no longer reduces"
            new = " ".join(t.text for t in doc[at : root.i] if t.lower_ != "still")
            new = f"no longer {new} {root.text}" if new else f"no longer {root.text}"
        else:  # "also reduces" -> "does not reduce"
            kept = " ".join(t.text for t in doc[at : root.i] if t.lower_ != "also")
            new = f"{helper} not {kept} {_verb_lemma(root)}" if kept else f"{helper} not {_verb_lemma(root)}"
        return Edit(claim[:begin] + new + claim[end:], "negation_added", claim[begin:end], new)
    return None


def _reason_clause(c: Any) -> bool:
    """An adverbial clause giving the reason for the main one ("because it inhibits", ", as mitochondria are"):
    negating the main clause alone would leave the reason contradicting it. "As" only after a comma, where it is
    causal ("Blood pressure rises as people age" is a time clause); not "since" (mostly time)."""
    if c.dep_ != "advcl" or not any(m.dep_ in ("nsubj", "nsubj:pass", "expl") for m in c.children):
        return False
    marks = [m for m in c.children if m.dep_ == "mark"]
    if any(m.lower_ == "because" for m in marks):
        return True
    doc = c.doc
    return any(m.lower_ == "as" and m.i > 0 and doc[m.i - 1].text == "," for m in marks)


# adverbs that negated give no contradiction ("does not only reduce", "does not even reduce")
_FOCUS_ADVERBS = frozenset({"only", "even", "just", "merely", "solely", "mainly", "largely"})
_PHRASE_END = re.compile(r"\s(?:in|of|between|for|on|at|among|with|to|from|after|during|across|by)\b|[,.;:]")


def _plural_after(claim: str, start: int, doc: Any | None) -> bool:
    """Whether the noun phrase that begins at ``start`` (after "no") is plural: by the parse when there is one (the
    head noun of the phrase the determiner "no" belongs to), else by the words' endings."""
    if doc is not None:
        det = next((t for t in doc if t.idx == start - 3 and t.lower_ == "no"), None)
        if det is not None and det.head.i > det.i:
            return det.head.tag_ in ("NNS", "NNPS")
    # no parse: the head noun is the last word before the phrase's first preposition or punctuation
    rest = claim[start:]
    end = _PHRASE_END.search(rest)
    words = rest[: end.start() if end else len(rest)].split()
    head = words[-1].lower() if words else ""
    return bool(_PLURAL_AFTER_NO.match(head)) and not head.endswith(("ss", "us", "is", "betes", "species", "series"))


def _verb_lemma(tok: Any) -> str:
    """The lemma of a verb token; a dictionary lemma wins over the parser's ("idealised" -> "idealise", where a
    rule lemmatiser gave "idealis" and the negation read "did not idealis")."""
    from lemminflect import getAllLemmas

    known = getAllLemmas(tok.text.lower()).get("VERB")
    lemma: str = tok.lemma_.lower()
    return lemma if not known or lemma in known else known[0]


def _inflect(lemma: str, tag: str) -> str | None:
    from lemminflect import getInflection

    forms = getInflection(lemma, tag=tag)
    return forms[0] if forms else None


def entity_swap(
    claim: str, mentions: Sequence[Any], pool: dict[str, list[str]], evidence: str, rng: random.Random
) -> Edit | None:
    """Replace one named entity with another of the same type (from other documents) that the evidence does
    not mention: the claim then says something the evidence is silent about."""
    ents = [m for m in mentions if getattr(m, "source", "ner") == "ner" and pool.get(m.label)]
    rng.shuffle(ents)
    low_evidence = evidence.lower()
    for m in ents:
        new = _unmentioned(pool[m.label], m.text, low_evidence, rng)
        if new is not None:
            new = _match_case(new, m.text) if m.start == 0 else new
            return Edit(claim[: m.start] + new + claim[m.end :], "entity_swap", m.text, new)
    return None


def _unmentioned(candidates: Sequence[str], old: str, absent_from: str, rng: random.Random) -> str | None:
    """A same-type entity to put for ``old``, drawn (seeded, ten draws at most) from ``candidates``: not ``old``,
    not overlapping it, and not in ``absent_from`` (lower-cased text the evidence holds)."""
    ol = old.lower()
    for _ in range(10):
        new = rng.choice(candidates)
        nl = new.lower()
        if nl == ol or nl in ol or ol in nl or nl in absent_from:
            continue
        return new
    return None


_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "nsubj:pass", "csubj", "expl"})
_IN_A_LIST_BEFORE = re.compile(r"(?:,|\band|\bor)\s*$")
_IN_A_LIST_AFTER = re.compile(r"^\s*(?:,|and\b|or\b)")


_HEDGE_MODALS = frozenset({"may", "might"})  # not "could": also past ability
_NEGATORS = frozenset({"not", "n't", "never"})
_NEGATION_WORDS = re.compile(r"\b(?:not|no|never|neither|nor|without|none)\b|n't\b", re.IGNORECASE)
_HEDGE_ADVERBS = frozenset({"possibly", "potentially", "probably", "perhaps", "presumably", "putatively"})


def _main_clause_verb(verb: Any) -> bool:
    """A verb of the claim's main clause (the root or a verb coordinated with it), not of a "that"/"if"/"whether"
    clause or a relative clause, whose hedge would still be hedged by what embeds it."""
    while verb.dep_ == "conj":
        verb = verb.head
    return verb.dep_ == "ROOT" and not any(c.dep_ == "mark" for c in verb.children)


def hedge_removed(claim: str, doc: Any | None) -> Edit | None:
    """The claim without its hedge ("X may reduce Y" -> "X reduces Y", "X possibly reduces Y" -> "X reduces Y"):
    a definite claim the hedged evidence does not support, the other over-claim of citances ("PINK1 directly
    phosphorylates Parkin" where the paper only proposes it). Only in the main clause of a statement; needs the
    parse; negated and coordinated verbs are left alone."""
    if doc is None or claim.rstrip().endswith("?"):
        return None
    for t in doc:
        verb = t.head
        if verb.pos_ not in ("VERB", "AUX") or not _main_clause_verb(verb):
            continue
        if any(c.dep_ == "neg" or c.lower_ in _NEGATORS for c in verb.children):
            continue
        if t.lower_ in _HEDGE_MODALS and t.tag_ == "MD" and verb.i > t.i:
            between = list(doc[t.i + 1 : verb.i + 1])
            if any(x.lower_ in _HEDGE_ADVERBS for x in between):  # "may possibly reduce": hedged twice
                continue
            nxt = next((x for x in between if x.dep_ != "advmod"), None)
            subj = next((c for c in verb.children if c.dep_ in _SUBJECT_DEPS), None)
            if nxt is None or subj is None or subj.dep_ == "expl":
                continue
            if any(c.dep_ == "conj" and c.tag_ == "VB" for c in verb.children):  # "may decline and disappear"
                continue
            plural = (
                subj.tag_ in ("NNS", "NNPS")
                or "Plur" in subj.morph.get("Number")
                or any(c.dep_ == "conj" for c in subj.children)
            )
            after = doc[nxt.i + 1] if nxt.i + 1 < len(doc) else None
            if nxt.lemma_ == "be" and nxt.tag_ == "VB":  # "may be associated" -> "is associated"
                new, last = ("are" if plural else "is"), nxt
            elif nxt.lemma_ == "have" and after is not None and after.lower_ == "been":  # "may have been" -> "was"
                new, last = ("were" if plural else "was"), after
            elif nxt.lemma_ == "have" and nxt.tag_ == "VB" and nxt.i < verb.i:  # "may have reduced" -> "reduced"
                new, last = "", nxt
            elif nxt.i == verb.i and verb.tag_ == "VB":  # "may reduce" -> "reduces"
                new, last = (verb.text if plural else (_inflect(verb.lemma_, "VBZ") or "")), nxt
                if not new:
                    continue
            else:
                continue
            words = " ".join([*(x.text for x in between if x.i < nxt.i), new]).strip()  # "may also reduce"
            start, end = t.idx, last.idx + len(last.text)
            text = claim[:start] + words + claim[end:] if words else claim[:start] + claim[end:].lstrip()
            return Edit(" ".join(text.split()), "hedge_removed", claim[start:end], words)
        hedged_twice = any(c.tag_ == "MD" for c in verb.children)  # "may possibly reduce": still "may"
        if t.lower_ in _HEDGE_ADVERBS and t.dep_ == "advmod" and t.i + 1 == verb.i and not hedged_twice:
            end = t.idx + len(t.text)
            rest = claim[end:].lstrip()
            new_claim = claim[: t.idx] + rest if t.idx else rest[:1].upper() + rest[1:]
            return Edit(new_claim, "hedge_removed", t.text, "")
    return None


_OBJECT_DEPS = frozenset({"obj", "dobj", "pobj", "obl", "attr", "oprd", "dative"})


def _heads_an_object(span: Any) -> bool:
    """The mention is a whole noun phrase in an object position, nowhere inside a subject: its last token is its
    head (not a modifier of a following noun: "obese rats", "HSC proliferation") and neither it nor anything it
    hangs from is a subject."""
    root = span.root
    if root.i != span.end - 1 or root.dep_ not in _OBJECT_DEPS or root.pos_ not in ("NOUN", "PROPN"):
        return False
    return not any(t.dep_ in _SUBJECT_DEPS for t in (root, *root.ancestors))


# A short abbreviation ("KOA", "BMDa", "CO2"): its embedding says little about what it stands for, so its
# neighbours are guesses ("KOA" / "SABA", "CO2" / "cosine")
_ABBREVIATION = re.compile(r"(?=(?:\w*[A-Z]){2})[\w-]{1,6}")


def _titled(text: str) -> bool:
    """Capitalised at the start only ("Aspirin"): a name, or a common noun seen at a sentence start."""
    return text[:1].isupper() and text[1:].islower()


class ItemNeighbours:
    """Same-type entities that could stand beside a mention, most plausible first: entities seen at least
    ``min_count`` times among all mentions (one-off NER errors such as "hedonic" as a disease drop out), ranked by
    the cosine similarity of their sentence embeddings to the mention's, kept within ``band`` (below it unrelated:
    "paracetamol" / "cholesterol" 0.15; above it a synonym or a variant: "paracetamol" / "acetaminophen" 0.68,
    "breast cancer" / "breast carcinoma" 0.90; all-MiniLM-L6-v2) and sharing no word with the mention. An
    entity is offered in its commonest spelling that is not capitalised at the start only (such a spelling is a
    name, or a common noun seen at a sentence start: its case mid-sentence is unsure), and short abbreviations are
    neither given nor offered neighbours. ``embed`` maps texts to unit vectors."""

    def __init__(
        self,
        pool: dict[str, list[str]],
        embed: Callable[[Sequence[str]], Any],
        min_count: int = 3,
        band: tuple[float, float] = (0.4, 0.65),
    ) -> None:
        import numpy as np

        self._embed = embed
        self._band = band
        self._names: dict[str, list[str]] = {}
        for label, texts in pool.items():
            forms: dict[str, Counter[str]] = {}
            for t in texts:
                forms.setdefault(t.lower(), Counter())[t] += 1
            names = []
            for key, spellings in sorted(forms.items()):
                if len(key) <= 2 or spellings.total() < min_count:
                    continue
                # the commonest spelling that is not capitalised only at the start ("Metformin" opening a
                # sentence); "LDL cholesterol" keeps its case
                usable = [f for f, _ in sorted(spellings.items(), key=lambda fc: (-fc[1], fc[0])) if not _titled(f)]
                if usable and not _ABBREVIATION.fullmatch(usable[0]):
                    names.append(usable[0])
            if names:
                self._names[label] = names
        everything = sorted({n for ns in self._names.values() for n in ns})
        vectors = np.asarray(embed(everything), dtype=np.float32) if everything else np.zeros((0, 1), np.float32)
        row = {n: i for i, n in enumerate(everything)}
        self._matrix = {label: vectors[[row[n] for n in ns]] for label, ns in self._names.items()}
        self._memo: dict[str, Any] = {}

    def __call__(self, label: str, mention: str, limit: int = 20) -> list[str]:
        """Up to ``limit`` entities of type ``label`` for beside ``mention``, closest first."""
        import numpy as np

        names = self._names.get(label)
        if not names or _ABBREVIATION.fullmatch(mention):
            return []
        if mention not in self._memo:
            self._memo[mention] = np.asarray(self._embed([mention]), dtype=np.float32)[0]
        sims = self._matrix[label] @ self._memo[mention]
        lo, hi = self._band
        words = set(re.findall(r"\w+", mention.lower()))
        out = []
        for i in np.argsort(-sims, kind="stable"):
            if sims[i] < lo:
                break
            if sims[i] > hi or words & set(re.findall(r"\w+", names[i].lower())):
                continue
            out.append(names[i])
            if len(out) == limit:
                break
        return out


def added_item(
    claim: str,
    mentions: Sequence[Any],
    doc: Any | None,
    neighbours: Callable[[str, str], Sequence[str]],
    evidence: str,
    rng: random.Random,
    choices: int = 5,
) -> Edit | None:
    """One more item beside a named entity ("lowered LDL cholesterol" -> "lowered LDL cholesterol and fasting
    glucose"): a same-type
    entity the evidence never mentions, drawn (seeded) from the ``choices`` most plausible that ``neighbours``
    (label, mention → entities, closest first; an ``ItemNeighbours``) offers. The claim then says more than the
    evidence shows, the over-claim of a citance that lists more than the cited paper found. Only for a mention
    that is not (part of) the subject, where "and" would change the verb's number, and not already in a list;
    needs the parse."""
    if doc is None or _NEGATION_WORDS.search(claim):  # "did not reduce X and Y" follows from "did not reduce X"
        return None
    ents = [m for m in mentions if getattr(m, "source", "ner") == "ner"]
    rng.shuffle(ents)
    absent_from = f"{evidence.lower()}\n{claim.lower()}"  # neither the evidence nor the claim names it
    for m in ents:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None or not _heads_an_object(span):
            continue
        if _IN_A_LIST_BEFORE.search(claim[: m.start]) or _IN_A_LIST_AFTER.search(claim[m.end :]):
            continue
        options = [n for n in neighbours(m.label, m.text) if n.lower() not in absent_from][:choices]
        if options:
            new = rng.choice(options)
            return Edit(claim[: m.end] + " and " + new + claim[m.end :], "added_item", m.text, f"{m.text} and {new}")
    return None


# -- pairs -----------------------------------------------------------------------------------------------------


class MinimalPairsConfig(ComponentConfig):
    seed: int = 2026
    min_words: int = 6
    max_words: int = 40
    window_before: int = 1  # up to this many sentences before the claim's sentence join its evidence
    window_after: int = 1
    min_related_similarity: float = 0.25  # TF-IDF cosine of a related passage from another document
    balance: bool = True  # equal counts per label (seeded downsampling)
    prefer_rare_edits: float = 0.8  # chance of picking a direction / number / negation-removal edit when one applies
    # NEI also by saying more than the evidence, these kinds of it: "added_item", one more item beside an entity
    # ("... and LDL cholesterol"; needs ``embed`` in make_pairs; a blind reading found 12 of 30 nonsense in place,
    # docs/models/nli.md), and "hedge_removed", the claim's hedge removed ("may reduce" -> "reduces"). Version 3 of
    # the judge was trained without either (training/nli/sci_pairs.py --overclaims KIND ...)
    overclaims: tuple[Literal["added_item", "hedge_removed"], ...] = ()
    item_min_count: int = 3  # an added item is an entity seen at least this often among the mentions
    item_similarity: tuple[float, float] = (0.4, 0.65)  # its cosine to the mention (ItemNeighbours)
    item_choices: int = 5  # drawn from this many of the closest


@dataclass
class Candidate:
    doc: Document
    index: int  # sentence index in the document
    claim: str

    @property
    def key(self) -> str:
        return f"{self.doc.id}:{self.index}"


def _window(
    doc: Document, i: int, rng: random.Random, before: int, after: int, exclude: set[str] | None = None
) -> tuple[str, ...]:
    """Sentence ``i`` with up to ``before`` / ``after`` neighbours (seeded); excluded (benchmark) texts left out."""
    lo = max(0, i - rng.randint(0, before))
    hi = min(len(doc.sentences), i + 1 + rng.randint(0, after))
    return tuple(clean_sentence(s) for s in doc.sentences[lo:hi] if not (exclude and text_key(s) in exclude))


def candidates(
    docs: Sequence[Document], config: MinimalPairsConfig, exclude: set[str] | None = None
) -> tuple[list[Candidate], Counter[str]]:
    """Claims from every sentence that can be one, and the reasons the others were not used."""
    out: list[Candidate] = []
    skipped: Counter[str] = Counter()
    for doc in docs:
        for i, sentence in enumerate(doc.sentences):
            if exclude and text_key(sentence) in exclude:
                skipped["benchmark_text"] += 1
                continue
            claim, reason = claim_from_sentence(sentence, config.min_words, config.max_words)
            if claim is None:
                skipped[reason] += 1
            else:
                out.append(Candidate(doc, i, claim))
    return out, skipped


def related_passages(cands: Sequence[Candidate], min_similarity: float) -> dict[int, tuple[int, str]]:
    """For each candidate, the most similar sentence of *another* document (TF-IDF cosine) that lacks the
    claim's rarest content word: (index into ``cands``, the missing word)."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    if len(cands) < 2:
        return {}
    vec = TfidfVectorizer(stop_words="english", sublinear_tf=True, min_df=2, token_pattern=r"(?u)\b[a-zA-Z]\w+\b")
    try:
        x = vec.fit_transform([c.claim for c in cands])
    except ValueError:  # no word occurs in two claims: nothing is related
        return {}
    idf = vec.idf_
    vocab = vec.vocabulary_
    analyzer = vec.build_analyzer()
    _, docs = np.unique([c.doc.id for c in cands], return_inverse=True)  # document numbers: cheap to compare
    # per claim, its two rarest content words (the ones a related passage must lack one of); ties by the word,
    # so the choice never depends on set order (string hashing differs between processes)
    rare = [sorted({w for w in analyzer(c.claim) if w in vocab}, key=lambda w: (-idf[vocab[w]], w))[:2] for c in cands]
    k = min(5, len(cands) - 1)
    out: dict[int, tuple[int, str]] = {}
    for start in range(0, len(cands), 2048):
        sims = (x[start : start + 2048] @ x.T).toarray().astype(np.float32)
        for row, i in enumerate(range(start, min(start + 2048, len(cands)))):
            s = sims[row]
            s[docs == docs[i]] = -1.0
            s[s >= 0.8] = -1.0  # near-duplicates may say the same thing
            top = np.argpartition(-s, k - 1)[:k]
            for j in top[np.argsort(-s[top])]:
                if s[j] < min_similarity:
                    break
                target = set(analyzer(cands[j].claim))
                missing = next((w for w in rare[i] if w not in target), None)
                if missing:
                    out[i] = (int(j), missing)
                    break
    return out


def _pair(c: Candidate, label: Label, claim: str, evidence: tuple[str, ...], kind: str, detail: str) -> Pair:
    """A pair of candidate ``c``: id ``sci:<doc>:<sentence><S|R|N>``, source ``sci:<doc>#<sentence> <kind> <detail>``
    (the document is the group the judge's splits keep together)."""
    base = f"sci:{c.doc.id}"
    return Pair(
        id=f"{base}:{c.index}{label.value[0]}",
        claim=claim,
        evidence=evidence,
        labels=(label,),
        source=f"{base}#{c.index} {kind} {detail}".strip(),
    )


def edit_kind(pair: Pair) -> str:
    """How a pair was made: source, direction, number, negation_added, negation_removed, entity_swap,
    added_item, hedge_removed, related_passage."""
    return pair.source.split()[1]


def _kinds(pairs: Sequence[Pair]) -> dict[str, int]:
    return dict(sorted(Counter(f"{p.labels[0].value}:{edit_kind(p)}" for p in pairs).items()))


Parse = Callable[[Sequence[str]], list[Any]]
Mentions = Callable[[Sequence[str]], list[list[Any]]]


def make_pairs(
    docs: Sequence[Document],
    config: MinimalPairsConfig,
    parse: Parse | None = None,
    mentions: Mentions | None = None,
    exclude: set[str] | None = None,
    log: Callable[[str], None] | None = None,
    embed: Callable[[Sequence[str]], Any] | None = None,
) -> tuple[list[Pair], dict[str, Any]]:
    """Minimal pairs from ``docs`` and a report of the mix; ``parse`` (texts → spaCy docs) enables negation of
    the main verb, ``mentions`` (texts → NER mentions) entity swaps, ``embed`` (texts → unit vectors) with
    ``"added_item"`` in ``config.overclaims`` the added items; sentences whose normalised text is in ``exclude``
    (benchmark texts) are never used."""
    say = log or (lambda m: None)
    rng = random.Random(config.seed)
    cands, skipped = candidates(docs, config, exclude)
    say(f"{len(cands)} claims from {sum(len(d.sentences) for d in docs)} sentences of {len(docs)} documents")
    claims = [c.claim for c in cands]
    parsed = parse(claims) if parse else [None] * len(cands)
    found = mentions(claims) if mentions else [[] for _ in cands]
    pool: dict[str, list[str]] = {}
    for ms in found:
        for m in ms:
            if getattr(m, "source", "ner") == "ner" and len(m.text) > 2:
                pool.setdefault(m.label, []).append(m.text)
    related = related_passages(cands, config.min_related_similarity)
    say(f"{len(related)} related passages")
    neighbours = None
    if "added_item" in config.overclaims:
        if embed is None or parse is None:
            raise ValueError("added items (overclaims: added_item) need the parse and the sentence embeddings")
        neighbours = ItemNeighbours(pool, embed, config.item_min_count, config.item_similarity)
    by_label: dict[Label, list[Pair]] = {lab: [] for lab in Label}
    for i, c in enumerate(cands):
        evidence = _window(c.doc, c.index, rng, config.window_before, config.window_after, exclude)
        ev_text = " ".join(evidence)

        by_label[Label.SUPPORTED].append(_pair(c, Label.SUPPORTED, c.claim, evidence, "source", ""))
        edits = [
            e
            for e in (
                direction_edit(c.claim, rng),
                negation_edit(c.claim, parsed[i]),
                number_edit(c.claim, ev_text, rng),
            )
            if e is not None and e.claim != c.claim
        ]
        if edits:
            # negating the main verb applies to almost every claim; prefer the rarer edits so that "not" alone
            # does not come to mean REFUTED
            rarer = [e for e in edits if e.kind != "negation_added"]
            e = rng.choice(rarer if rarer and rng.random() < config.prefer_rare_edits else edits)
            by_label[Label.REFUTED].append(_pair(c, Label.REFUTED, e.claim, evidence, e.kind, f"{e.old!r}->{e.new!r}"))
        swaps = [
            e
            for e in (
                entity_swap(c.claim, found[i], pool, ev_text, rng),
                added_item(c.claim, found[i], parsed[i], neighbours, ev_text, rng, config.item_choices)
                if neighbours is not None
                else None,
                hedge_removed(c.claim, parsed[i]) if "hedge_removed" in config.overclaims else None,
            )
            if e is not None
        ]
        swap = (swaps[0] if len(swaps) == 1 else rng.choice(swaps)) if swaps else None  # the seeded stream as before
        if swap is not None and (i not in related or rng.random() < 0.6):
            detail = f"{swap.old!r}->{swap.new!r}"
            by_label[Label.NOT_ENOUGH_INFO].append(
                _pair(c, Label.NOT_ENOUGH_INFO, swap.claim, evidence, swap.kind, detail)
            )
        elif i in related:
            j, missing = related[i]
            other = cands[j]
            ev = _window(other.doc, other.index, rng, config.window_before, config.window_after, exclude)
            if missing not in " ".join(ev).lower():
                detail = f"{other.key} lacks {missing!r}"
                by_label[Label.NOT_ENOUGH_INFO].append(
                    _pair(c, Label.NOT_ENOUGH_INFO, c.claim, ev, "related_passage", detail)
                )
    counts = {lab.value: len(v) for lab, v in by_label.items()}
    made = [p for v in by_label.values() for p in v]
    if config.balance:
        n = min(len(v) for v in by_label.values())
        by_label = {lab: sorted(rng.sample(v, n), key=lambda p: p.id) for lab, v in by_label.items()}
    pairs = [p for v in by_label.values() for p in v]
    rng.shuffle(pairs)
    report = {
        "documents": len(docs),
        "sentences": sum(len(d.sentences) for d in docs),
        "claims": len(cands),
        "sentences_not_used": dict(skipped),
        "made": counts,
        "kept": {lab.value: len(v) for lab, v in by_label.items()},
        "kinds_made": _kinds(made),
        "kinds_kept": _kinds(pairs),
    }
    return pairs, report
