"""Paraphrased claims (FACTIFY-5WQA §3) behind the ``paraphraser`` registry, and the paper's filters.

Backends:
- ``embedded`` (the default; offline): rules and words on the claim's parse. WordNet synonyms of content words in
  context (the two most frequent senses, inflected like the word they replace, chosen by the n-gram LM), voice
  change (active ↔ passive with an agent) and clause reordering (a leading modifier moved to the end, a final
  place or time modifier moved to the front); the combinations are ranked by the LM's perplexity.
- ``hf``: any Hugging Face seq2seq paraphraser by name or path, ``n`` top-k samples per claim.
- ``llm``: an OpenAI-compatible chat model with the paper's prompt ("Generate five different paraphrases ... in one
  list of python format"), its list parsed leniently.

Filters (used by the ``factify`` pipeline): word-level minimum edit distance to the claim above
``min_edit_distance`` (the paper: > 2), entailment both ways by the judge, and diversity by inverse BLEU: for each
kept paraphrase, the mean of 1 / BLEU against the claim and the other kept paraphrases (higher = more diverse).
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from claimforge.backends.llm import OpenAIChatConfig, OpenAIChatLLM, without_thinking
from claimforge.cache import fingerprint
from claimforge.registry import ComponentConfig, registry

_WORD = re.compile(r"\w+(?:[-']\w+)*|[^\w\s]")


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def edit_distance(a: str, b: str) -> int:
    """Minimum edit distance in words (Wagner–Fischer; case-insensitive; punctuation marks count as words)."""
    x, y = words(a), words(b)
    prev = list(range(len(y) + 1))
    for i, wx in enumerate(x, 1):
        cur = [i]
        for j, wy in enumerate(y, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (wx != wy)))
        prev = cur
    return prev[-1]


def bleu(hypothesis: str, reference: str, max_n: int = 4) -> float:
    """Sentence BLEU (one reference, geometric mean of 1..4-gram precisions with +1 smoothing above unigrams,
    brevity penalty), 0..1."""
    h, r = words(hypothesis), words(reference)
    if not h or not r:
        return 0.0
    logs = []
    for n in range(1, max_n + 1):
        hn = Counter(tuple(h[i : i + n]) for i in range(len(h) - n + 1))
        rn = Counter(tuple(r[i : i + n]) for i in range(len(r) - n + 1))
        match, total = sum((hn & rn).values()), max(sum(hn.values()), 0)
        if n > 1:
            match, total = match + 1, total + 1
        if match == 0 or total == 0:
            return 0.0
        logs.append(math.log(match / total))
    bp = 1.0 if len(h) > len(r) else math.exp(1 - len(r) / len(h))
    return bp * math.exp(sum(logs) / len(logs))


def inverse_bleu(paraphrase: str, others: Sequence[str], floor: float = 0.01) -> float:
    """The paper's diversity of one paraphrase: the mean of 1 / BLEU against the claim and the other paraphrases
    (BLEU floored at ``floor``, so a paraphrase sharing no 4-gram scores 1 / floor, not infinity)."""
    if not others:
        return 0.0
    return sum(1.0 / max(bleu(paraphrase, o), floor) for o in others) / len(others)


@dataclass(frozen=True)
class Paraphrase:
    text: str
    operations: tuple[str, ...] = ()  # what the embedded backend did ("synonym:reduced>lowered", "passive", ...)


# -- the embedded rule/lexical paraphraser --------------------------------------------------------------------

_CONTENT = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
_NO_SWAP = frozenset(
    "be have do get make take give show find use result effect study data level cell cells patient patients "  # noqa: SIM905
    "group increase decrease".split()
)
_BE = {("VBD", False): "was", ("VBD", True): "were", ("PRES", False): "is", ("PRES", True): "are"}
_PRONOUN_OBJ = {"i": "me", "we": "us", "they": "them", "he": "him", "she": "her", "it": "it", "you": "you"}
_PRONOUN_SUBJ = {v: k for k, v in _PRONOUN_OBJ.items()}
# stative and light verbs whose passive is not English ("Three chambers are had by ...", "A role is played by")
_NO_PASSIVE = frozenset(
    "have be lack resemble cost weigh equal fit suit mean become seem contain comprise include involve possess play "  # noqa: SIM905
    "hold".split()
)
# phrase rewrites that keep the meaning in scientific prose (both directions are tried, except in ONE_WAY); each
# side is matched as whole words, case-insensitively
PHRASES: tuple[tuple[str, str], ...] = (
    ("is composed of", "consists of"),
    ("are composed of", "consist of"),
    ("is made up of", "consists of"),
    ("are made up of", "consist of"),
    ("is called", "is known as"),
    ("are called", "are known as"),
    ("is referred to as", "is called"),
    ("are referred to as", "are called"),
    ("because of", "owing to"),
    ("due to", "because of"),
    ("in order to", "so as to"),
    ("a large number of", "many"),
    ("a lot of", "many"),
    ("is able to", "can"),
    ("are able to", "can"),
    ("is responsible for", "accounts for"),
    ("are responsible for", "account for"),
    ("is associated with", "is linked to"),
    ("are associated with", "are linked to"),
    ("was associated with", "was linked to"),
    ("were associated with", "were linked to"),
    ("leads to", "results in"),
    ("lead to", "result in"),
    ("led to", "resulted in"),
    ("such as", "including"),
    ("in addition to", "besides"),
    ("the majority of", "most"),
    ("most of", "the majority of"),
    ("compared with", "compared to"),
    ("prior to", "before"),
    ("is similar to", "resembles"),
    ("are similar to", "resemble"),
    ("plays a role in", "is involved in"),
    ("play a role in", "are involved in"),
)
_AFTER_AUX = frozenset("not does do did can could may might will would should must to".split())  # noqa: SIM905
# rewrites whose reverse is wrong in some contexts ("most" is also "most important"; "many" is also "how many")
ONE_WAY = frozenset(
    {
        ("is able to", "can"),
        ("are able to", "can"),
        ("the majority of", "most"),
        ("most of", "the majority of"),
        ("a large number of", "many"),
        ("a lot of", "many"),
        ("such as", "including"),
        ("due to", "because of"),
    }
)
# prepositions of place and time modifiers that read well at the front ("In mice, ...", "After 12 weeks, ...")
_COMPARISON = frozenset(
    "than compared versus vs superior inferior similar relative comparable equivalent unlike".split()  # noqa: SIM905
)
# fixed adverbials that look like place phrases ("in particular cancer" is not a place)
_FIXED = (
    "in particular",
    "in general",
    "in fact",
    "in addition",
    "in contrast",
    "in part",
    "in turn",
    "at least",
    "at most",
    "at best",
    "in total",
    "in summary",
    "in conclusion",
)
_FRONTABLE = frozenset("in at during after before among across since until within throughout".split())  # noqa: SIM905


class EmbeddedParaphraserConfig(ComponentConfig):
    nlp: dict[str, Any] | str = {"name": "spacy"}
    kb: dict[str, Any] | str = {"name": "wordnet"}
    lm: dict[str, Any] | str = {"name": "ngram"}
    n: int = Field(default=5, ge=1, le=20)  # paraphrases per claim, best by the LM first
    senses: int = Field(default=2, ge=1)  # WordNet senses whose synonyms are tried
    # synonym substitutions combined in one paraphrase. Off by default: a blind reading of 60 kept paraphrases found
    # 7 of 23 with WordNet synonyms meaning-preserving and clear against 26 of 30 without (docs/factify.md)
    max_swaps: int = Field(default=0, ge=0)
    # a synonym is tried only if the claim with it alone has at most this many times the claim's perplexity (rare
    # or odd words, "vaccinum", "cheeseflower", fail); a combination at most ``max_perplexity_ratio`` times
    max_swap_ratio: float = Field(default=1.5, gt=0)
    max_perplexity_ratio: float = Field(default=3.0, gt=0)
    max_synonym_words: int = Field(default=2, ge=1)
    min_edit_distance: int = Field(default=2, ge=0)  # candidates with more word edits than this are ranked first


def _plural(tok: Any) -> bool:
    return (
        tok.tag_ in ("NNS", "NNPS") or "Plur" in tok.morph.get("Number") or any(c.dep_ == "conj" for c in tok.children)
    )


def _subtree_text(tok: Any, skip: set[int] = frozenset()) -> str:  # type: ignore[assignment]
    return "".join(t.text_with_ws for t in tok.subtree if t.i not in skip).strip()


def _inflect(lemma: str, tag: str) -> str | None:
    from lemminflect import getInflection

    head, *rest = lemma.split()
    forms = getInflection(head, tag)
    return " ".join([forms[0], *rest]) if forms else None


def _finish(text: str, original: str) -> str:
    text = re.sub(r"\s+([,.;:!?%)])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()
    text = text.lstrip(" -–—,;:")  # a dash or comma left at the start by a moved phrase
    text = re.sub(r"\s*[,;:]+\s*([.!?])$", r"\1", text)  # "…,." at the end
    text = re.sub(r"\(\s+", "(", text)
    text = text[:1].upper() + text[1:]
    end = original.rstrip()[-1:] if original.rstrip()[-1:] in ".!?" else ""
    return text.rstrip(" ,;:") + end if end and not text.endswith(end) else text


def _cap_first(tok: Any, text: str) -> str:
    """A span moved away from the sentence start loses its capital, unless its first word is a name (tagged so
    and not a common word: "Aspirin" at the start is tagged a name but is a common noun) or an acronym."""
    if tok.i != 0 or not text[:1].isupper():
        return text
    if not (text[1:2].islower() or text[:2] in ("A ", "I ")):  # an acronym ("FDA"), or a name like "T"
        return text
    if tok.pos_ == "PROPN" and tok.ent_type_:
        return text
    return text[0].lower() + text[1:]


def to_passive(doc: Any) -> str | None:
    """ "Aspirin reduced the risk." → "The risk was reduced by aspirin." (root verb with a subject and an object,
    no clausal object; modal and perfect auxiliaries and negation kept)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ != "VERB":
        return None
    subj = [c for c in root.children if c.dep_ == "nsubj"]
    obj = [c for c in root.children if c.dep_ == "obj"]
    if len(subj) != 1 or len(obj) != 1 or any(c.dep_ in ("aux:pass", "ccomp", "xcomp", "expl") for c in root.children):
        return None
    if root.lemma_.lower() in _NO_PASSIVE or root.lower_ in ("has", "have", "had"):
        return None
    if any(c.dep_ in ("compound:prt", "prt") for c in root.children):  # "make up": no "is made ... up"
        return None
    s, o = subj[0], obj[0]
    if s.i > root.i or o.i < root.i or any(t.dep_ == "conj" and t.head == root for t in doc):
        return None
    # what follows the object stays after the agent: only place or time phrases, which still read as the clause's
    # ("compared with placebo" or a "to"-phrase would attach to the agent); "its"/"their" in the object would lose
    # the subject they refer to
    after_obj = [c for c in root.children if c.i > o.i and not c.is_punct]
    if any(not _place_or_time(c) for c in after_obj):
        return None
    if any(t.lower_ in ("its", "their", "his", "her") for t in o.subtree):
        return None
    # a comparison or a clause inside the object would attach to the agent or dangle ("pancreatitis compared to
    # 23 patients", "a food to be activated"); a long subject makes a heavy, error-prone agent
    if any(
        t.lower_ in ("than", "compared", "versus", "vs") or t.dep_ in ("acl", "acl:relcl", "advcl") for t in o.subtree
    ):
        return None
    if any(t.dep_ in ("advcl", "xcomp", "ccomp") for t in root.children) or len(list(s.subtree)) > 12:
        return None
    if o.like_num or any(c.dep_ == "nummod" for c in o.children):  # "declined 23.9 cm2": a quantity, not a patient
        return None
    vbn = _inflect(root.lemma_.lower(), "VBN")
    if not vbn:
        return None
    aux = [c for c in root.children if c.dep_ == "aux" and c.i < root.i]
    neg = [c for c in root.children if c.dep_ == "advmod" and c.lower_ in ("not", "n't", "never")]
    plural = _plural(o)
    if aux and aux[0].lower_ in ("do", "does", "did"):
        tense = "VBD" if aux[0].lower_ == "did" else "PRES"
        verb = [_BE[(tense, plural)]]
    elif aux and aux[0].lower_ in ("has", "have"):
        verb = ["have" if plural else "has", "been"]
    elif aux:  # a modal: "can reduce" -> "can be reduced"
        verb = [a.text for a in aux] + ["be"]
    else:
        tense = "VBD" if root.tag_ in ("VBD", "VBN") else "PRES"
        verb = [_BE[(tense, plural)]]
    if neg:
        verb.insert(1 if len(verb) > 0 else 0, "not")
    obj_text = _subtree_text(o)
    obj_text = _PRONOUN_SUBJ.get(obj_text.lower(), obj_text)
    subj_text = _cap_first(s.left_edge, _subtree_text(s))
    subj_text = _PRONOUN_OBJ.get(subj_text.lower(), subj_text)
    used = {t.i for t in s.subtree} | {t.i for t in o.subtree} | {root.i} | {t.i for t in aux} | {t.i for t in neg}
    before = "".join(t.text_with_ws for t in doc if t.i < s.left_edge.i).strip()
    after = "".join(t.text_with_ws for t in doc if t.i > root.i and t.i not in used).strip()
    mid = "".join(t.text_with_ws for t in doc if s.right_edge.i < t.i < root.i and t.i not in used).strip(" ,;")
    parts = [before, obj_text, *verb[:1], mid, *verb[1:], vbn, "by", subj_text, after]
    return _finish(" ".join(p for p in parts if p), doc.text)


def to_active(doc: Any) -> str | None:
    """ "The risk was reduced by aspirin." → "Aspirin reduced the risk." (a passive root with a "by" agent)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ != "VERB":
        return None
    subj = [c for c in root.children if c.dep_ == "nsubj:pass"]
    auxpass = [c for c in root.children if c.dep_ == "aux:pass"]
    agents = [
        c
        for c in root.children
        if c.dep_ in ("obl:agent", "obl") and any(k.lower_ == "by" for k in c.children if k.dep_ == "case")
    ]
    if len(subj) != 1 or len(auxpass) != 1 or len(agents) != 1 or subj[0].i > root.i:
        return None
    s, agent = subj[0], agents[0]
    if agent.like_num or any(c.dep_ == "nummod" for c in agent.children) or agent.lower_ in ("%", "percent"):
        return None  # "reduced by 30%": a quantity, not an agent
    aux = [c for c in root.children if c.dep_ == "aux" and c.i < root.i]
    neg = [c for c in root.children if c.dep_ == "advmod" and c.lower_ in ("not", "n't", "never")]
    be = auxpass[0].lower_
    plural = _plural(agent)
    if aux:  # "can be reduced" -> "can reduce"; "has been reduced" -> "has reduced"
        head = aux[0].lower_
        if head in ("has", "have"):
            head = "have" if plural else "has"
        verb = [
            head,
            *(["not"] if neg else []),
            _inflect(root.lemma_.lower(), "VBN" if head in ("has", "have") else "VB"),
        ]
    elif be in ("was", "were"):
        verb = ["did", "not", root.lemma_.lower()] if neg else [_inflect(root.lemma_.lower(), "VBD")]
    else:
        do = "do" if plural else "does"
        verb = [do, "not", root.lemma_.lower()] if neg else [_inflect(root.lemma_.lower(), "VBP" if plural else "VBZ")]
    if any(v is None for v in verb):
        return None
    agent_skip = {k.i for k in agent.children if k.dep_ == "case" and k.lower_ == "by"}
    agent_text = _subtree_text(agent, agent_skip)
    agent_text = _PRONOUN_SUBJ.get(agent_text.lower(), agent_text)
    subj_text = _cap_first(s.left_edge, _subtree_text(s))
    subj_text = _PRONOUN_OBJ.get(subj_text.lower(), subj_text)
    used = {t.i for t in s.subtree} | {t.i for t in agent.subtree} | {root.i, auxpass[0].i}
    used |= {t.i for t in aux} | {t.i for t in neg}
    before = "".join(t.text_with_ws for t in doc if t.i < s.left_edge.i).strip()
    after = "".join(t.text_with_ws for t in doc if t.i > root.i and t.i not in used).strip()
    mid = "".join(t.text_with_ws for t in doc if s.right_edge.i < t.i < root.i and t.i not in used).strip(" ,;")
    agent_text = agent_text[:1].upper() + agent_text[1:] if not before else agent_text
    parts = [before, agent_text, mid, *verb, subj_text, after]  # type: ignore[list-item]
    return _finish(" ".join(p for p in parts if p), doc.text)


def _place_or_time(m: Any) -> bool:
    """A place or time phrase: a time noun phrase, or a noun phrase after a place/time preposition ("in mice",
    "after 12 weeks"); not a hedge or a source ("according to ...", "under some circumstances"), not a fixed
    adverbial ("in particular", "at least")."""
    if m.dep_ == "obl:tmod":
        return True
    words = " ".join(t.lower_ for t in m.subtree)
    if any(words == f or words.startswith(f + " ") for f in _FIXED):
        return False
    cases = [k for k in m.children if k.dep_ in ("case", "fixed")]
    return (
        m.dep_ == "obl"
        and m.pos_ in ("NOUN", "PROPN", "NUM")
        and len(cases) == 1
        and cases[0].lower_ in _FRONTABLE
        and cases[0].i == m.left_edge.i
    )


def _simple_clause(doc: Any, root: Any) -> bool:
    """One main clause without negation: a modifier moved to the other end can attach to no other verb ("... and
    sustained ..."), nor leave or enter the scope of a "not" ("In a p53-dependent manner, X did not ...")."""
    if any(t.lower_ in ("not", "n't", "no", "never", "neither", "nor", "without") for t in doc):
        return False
    if doc[0].text in ("(", "[") or any(t.text in ("(", ")") and t.i < 3 for t in doc):
        return False  # "(A) ...": a label, not a phrase
    if any(t.tag_ in ("JJR", "RBR") or t.lower_ in _COMPARISON for t in doc):
        return False  # "superior in group A to that in group B": the groups are the comparison, not settings
    return not any(
        t.dep_ in ("conj", "ccomp", "parataxis", "acl:relcl", "advcl", "xcomp") and t.pos_ in ("VERB", "AUX", "ADJ")
        for t in doc
        if t != root
    )


def reorder(doc: Any) -> str | None:
    """Move a leading place or time phrase ("In mice, X ...") to the end, or a final one of the root ("X ... in
    mice.") to the front with a comma; only in a sentence with one clause, where the phrase cannot land on
    another verb, and never a hedge or a source, whose scope would change ("According to early reports, ...")."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or not _simple_clause(doc, root):
        return None
    first = next((t for t in doc if not t.is_punct), None)
    lead = [c for c in root.children if c.left_edge.i == 0 and _place_or_time(c)]
    if lead and first is not None:
        m = lead[0]
        a, b = m.left_edge.i, m.right_edge.i + 1
        if b < len(doc) and doc[b].text == ",":
            b += 1
        moved = _cap_first(first, doc[a : m.right_edge.i + 1].text)
        rest = doc[b:].text.rstrip(" .!?")
        if not rest:
            return None
        return _finish(f"{rest[:1].upper()}{rest[1:]} {moved}", doc.text)
    tail = [c for c in root.children if c.i > root.i and c.right_edge.i >= len(doc) - 2 and _place_or_time(c)]
    if not tail:
        return None
    m = tail[-1]
    a, b = m.left_edge.i, m.right_edge.i + 1
    if a <= root.i + 1:
        return None
    moved = doc[a:b].text
    rest = doc[:a].text.rstrip(" ,") + doc[b:].text
    if first is not None:
        rest = _cap_first(first, rest)
    return _finish(f"{moved[:1].upper()}{moved[1:]}, {rest}", doc.text)


def invert_copula(doc: Any) -> str | None:
    """An identity statement turned round: "The simplest alkanes are methane and ethane." → "Methane and ethane
    are the simplest alkanes." (a definite subject, a nominal predicate, present or past "be", no negation)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("NOUN", "PROPN"):
        return None
    cop = [c for c in root.children if c.dep_ == "cop"]
    subj = [c for c in root.children if c.dep_ == "nsubj"]
    if len(cop) != 1 or len(subj) != 1 or cop[0].lower_ not in ("is", "are", "was", "were"):
        return None
    s = subj[0]
    if s.left_edge.lower_ != "the" or any(c.lower_ in ("not", "n't", "never") for c in root.children):
        return None
    if s.right_edge.i + 1 != cop[0].i or any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in root.children):
        return None  # "X is a Y" classifies, it does not identify
    end = root.right_edge.i + 1
    while end > root.i and doc[end - 1].is_punct:
        end -= 1
    pred = doc[cop[0].i + 1 : end].text
    if not pred or any(t.is_punct and t.text not in ("-", "%") for t in doc[cop[0].i + 1 : end]):
        return None
    plural = _plural(root) or " and " in pred
    past = cop[0].lower_ in ("was", "were")
    be = ("were" if plural else "was") if past else ("are" if plural else "is")
    subject = _cap_first(s.left_edge, doc[s.left_edge.i : s.right_edge.i + 1].text)
    rest = doc[end:].text
    return _finish(f"{pred[:1].upper()}{pred[1:]} {be} {subject}{rest}", doc.text)


def _keep_case(word: str) -> Callable[[re.Match[str]], str]:
    """A replacement for ``re.sub`` that capitalises ``word`` where the matched text was capitalised."""

    def replace(m: re.Match[str]) -> str:
        return word[:1].upper() + word[1:] if m.group()[:1].isupper() else word

    return replace


def rephrase(text: str) -> list[tuple[str, str]]:
    """Each phrase-table rewrite that applies (one at a time): (operation, new text). Not after an auxiliary,
    "not" or "to": "does not consist of" must not become "does not is made up of"."""
    out = []
    for a, b in PHRASES:
        for x, y in ((a, b),) if (a, b) in ONE_WAY else ((a, b), (b, a)):
            m = re.search(rf"(?<!\w){re.escape(x)}(?!\w)", text, flags=re.IGNORECASE)
            before = re.findall(r"\w+", text[: m.start()]) if m else []
            if m and not (before and before[-1].lower() in _AFTER_AUX):
                new = text[: m.start()] + _keep_case(y)(m) + text[m.end() :]
                out.append((f"phrase:{x}>{y}", new))
    return out


class EmbeddedParaphraser:
    """Synonyms, voice and clause order on the parse, ranked by the n-gram LM (no learned paraphrase model)."""

    def __init__(self, config: EmbeddedParaphraserConfig) -> None:
        self.config = config
        self.nlp = registry.build("nlp", config.nlp)
        self.kb = registry.build("kb", config.kb)
        self.lm = registry.build("lm", config.lm)
        self.model_id = f"embedded:{self.kb.model_id}|{self.lm.model_id}|{fingerprint(config.model_dump())[:8]}"

    def __repr__(self) -> str:
        return f"EmbeddedParaphraser(n={self.config.n})"

    def _synonyms(self, tok: Any) -> list[str]:
        """Inflected single- or multi-word synonyms of a content word from its most frequent senses."""
        pos = _CONTENT.get(tok.pos_)
        lemma = tok.lemma_.lower()
        if (
            pos is None
            or not tok.is_alpha
            or len(tok.text) < 3
            or tok.is_stop
            or tok.ent_type_
            or lemma in _NO_SWAP
            or (tok.text[:1].isupper() and tok.i > 0)
            or tok.dep_ in ("compound", "flat")
        ):
            return []
        out: list[str] = []
        for c in self.kb.link(lemma, pos)[: self.config.senses]:
            for name in c.names:
                name = name.replace("_", " ")
                if name.lower() == lemma or lemma in name.lower().split() or not re.fullmatch(r"[a-z][a-z -]*", name):
                    continue
                if len(name.split()) > self.config.max_synonym_words:
                    continue
                form = name if tok.tag_ in ("NN", "JJ", "RB", "VB") else _inflect(name, tok.tag_)
                if form and form.lower() != tok.lower_ and form not in out:
                    out.append(form)
        return out[:4]

    def paraphrase(self, claims: Sequence[str], progress: Any = None) -> list[list[Paraphrase]]:
        docs = self.nlp.parse(list(claims))
        cands_per: list[list[Paraphrase]] = []
        for claim, doc in zip(claims, docs, strict=True):
            cands: dict[str, Paraphrase] = {}
            # best synonym per word: each candidate alone in the claim, scored by the LM
            slots: list[tuple[Any, list[str]]] = (
                [(t, s) for t in doc if (s := self._synonyms(t))] if self.config.max_swaps else []
            )
            cands_per.append([])
            swaps: list[tuple[Any, str]] = []
            if slots:
                texts = [_replace(doc, [(t, s)]) for t, options in slots for s in options]
                ppl = self.lm.perplexity([claim, *texts])
                limit = self.config.max_swap_ratio * float(ppl[0])
                k = 1
                for t, options in slots:
                    scores = ppl[k : k + len(options)]
                    best = min(range(len(options)), key=lambda j: scores[j])
                    if scores[best] <= limit:
                        swaps.append((t, options[best]))
                    k += len(options)
            structural = [("", claim)]
            for name, fn in (
                ("passive", to_passive),
                ("active", to_active),
                ("reorder", reorder),
                ("invert", invert_copula),
            ):
                text = fn(doc)
                if text and text != claim:
                    structural.append((name, text))
            for name, text in list(structural):  # a phrase rewrite alone or on a restructured claim
                structural.extend((f"{name}+{op}" if name else op, new) for op, new in rephrase(text))
            # combinations: a structural change (or none) with up to max_swaps synonyms of the claim's words
            for r in range(0, min(self.config.max_swaps, len(swaps)) + 1):
                for chosen in itertools.combinations(swaps, r):
                    lexical = _replace(doc, list(chosen)) if chosen else claim
                    ops = tuple(f"synonym:{t.text}>{s}" for t, s in chosen)
                    for name, text in structural:
                        if not name and not chosen:
                            continue
                        if name:  # apply the synonyms to the restructured / rephrased text, word for word
                            text = _swap_words(text, chosen)
                            if text is None:
                                continue
                        else:
                            text = lexical
                        if text != claim and text not in cands:
                            cands[text] = Paraphrase(text, (*(name.split("+") if name else ()), *ops))
            cands_per[-1] = list(cands.values())
        flat = [p.text for ps in cands_per for p in ps]
        ppl_all = self.lm.perplexity([*claims, *flat]) if flat else []
        base, k = list(ppl_all[: len(claims)]), len(claims)
        out: list[list[Paraphrase]] = []
        for i, ps in enumerate(cands_per):
            scored = [(float(ppl_all[k + j]), j, p) for j, p in enumerate(ps)]
            k += len(ps)
            limit = self.config.max_perplexity_ratio * float(base[i]) if len(base) else math.inf
            kept = sorted((s, j, p) for s, j, p in scored if s <= limit)
            # prefer paraphrases that change enough words for the edit-distance filter, then the fewest WordNet
            # substitutions (structure and phrase rewrites keep the meaning; a synonym may be the wrong sense),
            # then the LM's score
            kept.sort(
                key=lambda x: (
                    edit_distance(x[2].text, claims[i]) <= self.config.min_edit_distance,
                    sum(op.startswith("synonym:") for op in x[2].operations),
                    x[0],
                    x[1],
                )
            )
            out.append([p for _, _, p in kept[: self.config.n]])
            if progress is not None:
                progress(i + 1, len(claims))
        return out


def _replace(doc: Any, swaps: Sequence[tuple[Any, str]]) -> str:
    """The parsed text with some tokens replaced (the token's trailing space kept)."""
    by_i = {t.i: s for t, s in swaps}
    text = "".join((by_i[t.i] + t.whitespace_) if t.i in by_i else t.text_with_ws for t in doc)
    return text[:1].upper() + text[1:] if doc.text[:1].isupper() else text


def _swap_words(text: str, swaps: Sequence[tuple[Any, str]]) -> str | None:
    """The same substitutions on a restructured text, each word once (None if a word is no longer there once)."""
    for t, s in swaps:
        pattern = rf"(?<!\w){re.escape(t.text)}(?!\w)"
        if len(re.findall(pattern, text, flags=re.IGNORECASE)) != 1:
            return None
        text = re.sub(pattern, _keep_case(s), text, flags=re.IGNORECASE)
    return text


@registry.register("paraphraser", "embedded", EmbeddedParaphraserConfig)
def build_embedded(config: EmbeddedParaphraserConfig) -> EmbeddedParaphraser:
    """WordNet synonyms in context, voice change and clause reordering on the parse, ranked by the n-gram LM."""
    return EmbeddedParaphraser(config)


# -- a Hugging Face seq2seq paraphraser -------------------------------------------------------------------


class HFParaphraserConfig(ComponentConfig):
    seq2seq: dict[str, Any]  # an ``hf`` seq2seq spec: {"name": "hf", "model": PATH_OR_NAME, ...}
    prefix: str = "paraphrase: "  # what the model expects before the claim (T5/PEGASUS paraphrasers)
    n: int = Field(default=5, ge=1, le=20)
    top_k: int = Field(default=50, ge=1)
    seed: int = 13


class HFParaphraser:
    """Sampled paraphrases from any seq2seq model trained for it (duplicates and the claim itself dropped)."""

    def __init__(self, config: HFParaphraserConfig) -> None:
        self.config = config
        self.model = registry.build("seq2seq", config.seq2seq)
        self.model_id = f"hf:{self.model.model_id}#{fingerprint(config.prefix, config.top_k, config.seed)[:8]}"

    def paraphrase(self, claims: Sequence[str], progress: Any = None) -> list[list[Paraphrase]]:
        c = self.config
        outs = self.model.sample(
            [c.prefix + x for x in claims], [c.n] * len(claims), top_k=c.top_k, seed=c.seed, progress=progress
        )
        return [_unique(claim, texts) for claim, texts in zip(claims, outs, strict=True)]


def _unique(claim: str, texts: Sequence[str]) -> list[Paraphrase]:
    seen = {" ".join(words(claim))}
    out = []
    for t in texts:
        t = " ".join(t.split())
        key = " ".join(words(t))
        if t and key not in seen:
            seen.add(key)
            out.append(Paraphrase(t))
    return out


@registry.register("paraphraser", "hf", HFParaphraserConfig)
def build_hf(config: HFParaphraserConfig) -> HFParaphraser:
    """Any Hugging Face seq2seq paraphraser (T5, PEGASUS, BART) by name or local path, top-k sampling."""
    return HFParaphraser(config)


# -- an LLM paraphraser (the paper's prompt) ---------------------------------------------------------------

FACTIFY_PROMPT = (
    "Generate five different paraphrases of the following text and then place all these five paraphrases in one "
    "list of python format. Do not write anything other than just the list"
)


class LLMParaphraserConfig(OpenAIChatConfig):
    prompt: str = FACTIFY_PROMPT
    max_tokens: int = Field(default=512, ge=1)


def parse_list(reply: str) -> list[str]:
    """The paraphrases of a reply: a Python/JSON list of strings, else a numbered or bulleted list, else lines."""
    text = without_thinking(reply).strip()
    m = re.search(r"\[.*\]", text, flags=re.S)
    if m:
        try:
            value = ast.literal_eval(m.group())
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return [v.strip() for v in value if v.strip()]
        except (ValueError, SyntaxError):
            pass
    lines = [re.sub(r"^\s*(?:\d+[.)]|[-*•])\s*", "", ln).strip().strip('"') for ln in text.splitlines()]
    return [ln for ln in lines if len(ln.split()) >= 3]


class LLMParaphraser:
    def __init__(self, config: LLMParaphraserConfig) -> None:
        self.config = config
        self.llm = OpenAIChatLLM.of(config)
        self.model_id = f"llm:{self.llm.model_id}#{fingerprint(config.prompt)[:10]}"

    def paraphrase(self, claims: Sequence[str], progress: Any = None) -> list[list[Paraphrase]]:
        replies = self.llm.complete([[{"role": "user", "content": f"{self.config.prompt}\n\n{c}"}] for c in claims])
        if progress is not None:
            progress(len(claims), len(claims))
        return [_unique(c, parse_list(r)) for c, r in zip(claims, replies, strict=True)]


@registry.register("paraphraser", "llm", LLMParaphraserConfig)
def build_llm(config: LLMParaphraserConfig) -> LLMParaphraser:
    """An OpenAI-compatible chat model with FACTIFY's prompt (five paraphrases as a Python list)."""
    return LLMParaphraser(config)
