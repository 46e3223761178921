"""SciClaimHunt (Kumar et al., ``sciclaimhunt.txt``): full papers → claims from the results, discussion and
conclusion sections → four kinds of negative claims, with the paper itself as the evidence.

Stages (``docs/sciclaimhunt.md``):

1. pre-filter: duplicate paper ids, papers without a section of the claim types (``claim_sections``);
2. ``select sentences``: the sentences of those sections with result cues ("significantly", "increased",
   "associated with", numbers with units, p-values ...) that a sentence the judge may read (step 4) restates
   outside their section (``min_restated``), strongest cues first, ``max_sentences_per_paper``;
3. ``generate claims`` (§III-A): a ``generator`` makes claims from each sentence with its paragraph as context —
   the embedded default is ClaimGen's extractor (``entity``: the clause that holds each entity), the paper's path
   is ``paper-llm`` (k source paragraph → claim examples through an OpenAI-compatible server); every claim must
   pass the emit-time claim check, and its source paragraph must entail it (the judge's P(entailment) ≥
   ``min_faithfulness``);
4. ``evidence`` (§IV): the paper without the section the claim came from (``evidence_exclude``); the judge reads
   the ``judge_sentences`` sentences of its findings most like the claim (TF-IDF; not the introduction or methods,
   no statement of an aim: ``judge_skip_sections``, ``judge_skip_aims``), stored as ``judge_evidence``; a claim
   that asserts statistical significance those passages do not state is dropped (``require_stated_significance``);
5. ``negatives`` (§III-B), each a method: (i) ``negation`` (a negator; default minimal edits with the judge's
   gate; ``llm`` is the paper's prompt), (iii) ``numeric`` (cardinals, percentages, p-values, doses, sample
   sizes, fold changes: the SciClaimHunt_Num subset), (iv) ``entity`` (KBIN over the knowledge bases);
6. ``mismatch`` (global, §III-B (ii)): the claim with another paper — NOT_ENOUGH_INFO by default (a claim about
   another paper is unverifiable, not false), ``mismatch_label: REFUTED`` for the paper's binary scheme; of the
   ``mismatch_tries`` most similar papers, the first the judge finds neutral to the claim;
7. the label check (on ``judge_evidence``), confirmed claims, label selection.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator

from claimforge.generate.claimgen import GeneratedClaim, with_abbreviations_defined
from claimforge.nlp.coverage import coverages
from claimforge.nlp.normalize import word_count
from claimforge.nlp.wellformed import abbreviation_definitions
from claimforge.pipeline import BuildState, Chunk, LabelCheckConfig, Pipeline, Stage
from claimforge.records import Document, Example, Label, Paper, Reject, SectionType, SentenceItem, SourceRef
from claimforge.registry import registry
from claimforge.verify.label_check import judge, reject_detail, verdict

METHOD = "sciclaimhunt"
NEGATIVE_KINDS = ("negation", "numeric", "entity")
_KEY_LETTER = {"negation": "n", "numeric": "u", "entity": "e", "mismatch": "m"}

# Result cues and their weights: what makes a sentence report a finding rather than background or method.
_CUES: tuple[tuple[str, float, re.Pattern[str]], ...] = tuple(
    (name, weight, re.compile(pattern, re.IGNORECASE))
    for name, weight, pattern in (
        ("significance", 2.0, r"\b(significant(ly)?|statistically)\b"),
        ("p_value", 1.5, r"\bp\s*[<=>≤≥]\s*0?\.\d"),
        (
            "direction",
            1.5,
            r"\b(increas|decreas|reduc|elevat|improv|enhanc|inhibit|suppress|attenuat|lower|higher|greater|"
            r"fewer|more (likely|frequent)|less (likely|frequent)|exceed)\w*",
        ),
        (
            "association",
            1.5,
            r"\b(associated with|correlat\w*|predict\w*|linked to|related to|risk of|odds|hazard|effective|"
            r"efficacy|protect\w*|caus\w* by|led to|resulted in|compared (with|to))\b",
        ),
        ("finding_verb", 1.0, r"\b(we (found|show|observed|demonstrate)|(was|were) (found|observed|shown))\b"),
        ("number_unit", 1.0, r"\d(\.\d+)?\s?(%|-fold|fold|mg|µg|ug|ml|mmol|kg|years?|months?|weeks?|days?|hours?)\b"),
    )
)
# Sentences that report nothing checkable from the rest of the paper
_NOT_A_FINDING = re.compile(
    r"^(however|in (contrast|addition)|moreover|furthermore|thus|therefore|this|these|those|it|they|such|our|we)\b"
    r"|\b(future (studies|research|work)|further (studies|research) (is|are) (needed|required|warranted)|"
    r"remains? (unclear|unknown)|may|might|could|possibly|perhaps|hypothes\w+|speculat\w+|limitation)\b",
    re.IGNORECASE,
)
# about a figure or table, not a finding ("... are shown in Fig. 2", "Included are the p values ...")
_FIGURE_ONLY = re.compile(
    r"^\(?(fig(ure)?|table|supplementary|included)\b|\b(figs?|figures?|tables?)\b\.?\s*\d*"
    r"|\b(shown|presented|given|summari[sz]ed|listed|depicted|illustrated|reported) (in|below|above)\b",
    re.IGNORECASE,
)
# a claim that names its population by the study's own labels cannot stand alone ("between the two groups",
# "in group B", "G1 individuals", "both arms"): the paper's authors know which groups; a reader does not
_GROUP_LABEL = re.compile(r"\b([Gg]roups? [A-Z0-9]{1,2}\b|G\d+\b)")
_UNNAMED_GROUPS = re.compile(
    r"\b((the|both|all|two|three|four|2|3|4) (\w+ )?(groups|arms|cohorts)\b|between(-| )groups?\b"
    r"|(each|either|the other) groups?\b|study (groups?|arms?)\b|group (effects?|differences?)\b"
    r"|(all|the|both) (two|three|four|five|six|\d) \w+ (parameters|measures|outcomes|variables|conditions)\b)",
    re.IGNORECASE,
)


# A sentence that states what a study set out to do reports no finding, however much it shares with a claim
# ("To evaluate the efficiency of the Frog appliance for distalizing the maxillary molars.", "The aim of the
# present study was to assess the efficacy of progesterone ..."): the judge read such sentences as support
# (docs/sciclaimhunt.md, the reading of 2026-11-27), so it does not read them.
_AIM = re.compile(
    r"^(?:(?:objectives?|aims?|purposes?|goals?|background)\s*[:.]\s*)?(to|in order to) "
    r"(evaluate|assess|examine|investigate|determine|compare|explore|describe|test|identify|"
    r"analy[sz]e|characteri[sz]e|estimate|measure|quantify|review|understand|establish|clarify|study|report|"
    r"develop|validate|summari[sz]e)\b"
    r"|\b(aims?|objectives?|purposes?|goals?) (of|in) (this|the|our) ([\w-]+ ){0,2}"
    r"(study|trial|work|paper|review|analysis|research|investigation|survey|project)\b"
    r"|\b(this|the present|the current|our) (study|trial|work|paper|review|analysis|research) "
    r"(aim(s|ed)?|sought|seeks|(is|was) (designed|conducted|performed|undertaken) to|(will )?"
    r"(investigate[sd]?|examine[sd]?|evaluate[sd]?|assess(es|ed)?) (whether|if|the (effects?|efficacy|role)))\b"
    r"|\bwe (aim(ed)?|sought|seek|hypothesi[sz]ed|set out|intend(ed)?|plan(ned)?) (to|that)\b"
    r"|^in (this|the present|the current) (study|trial|paper|work|article),? we (describe|investigate|examine|"
    r"evaluate|assess|explore|compare)d?\b"
    r"|\b(was|were|is|are) designed to (evaluate|assess|examine|investigate|determine|compare|test)\b",
    re.IGNORECASE,
)
# ... unless it reports what was found too ("We aimed to test X and found that ...", "In this study, we compared A
# with B; A reduced mortality by 20%"), outside the question it asks ("To examine whether smoke led to asthma.")
_FOUND = re.compile(
    r"\b(we (found|find|showed?|observed|demonstrated?)|(was|were) (found|observed|shown)|showed|revealed|"
    r"found that|resulted in|led to)\b|\bp\s*[<=>≤≥]\s*0?\.\d|\d(?:\.\d+)?\s*%|;",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"\b(whether|if)\b[^,;]*", re.IGNORECASE)  # the question, to the next comma


# "clinically significant" is a judgement of size, not a test
_SIGNIFICANCE_CLAIMED = re.compile(
    r"(?<!clinically )\b(statistically|significant(ly)?|non-?significant(ly)?|insignificant(ly)?)\b", re.IGNORECASE
)
_SIGNIFICANCE_STATED = re.compile(
    r"\b(significan\w*|insignifican\w*|statistic\w*|p[\s-]*values?)\b|\bp\s*[<=>≤≥]"
    r"|\b95\s*%\s*(?:CI|confidence|credible)|\bCI\b|confidence intervals?",
    re.IGNORECASE,
)


def unstated_significance(claim: str, evidence: Sequence[str]) -> bool:
    """Whether a claim asserts statistical significance (or its absence) that none of the evidence passages
    states: no "significant", "statistically", p-value or confidence interval in any of them."""
    return bool(_SIGNIFICANCE_CLAIMED.search(claim)) and not any(_SIGNIFICANCE_STATED.search(t) for t in evidence)


def states_aim(sentence: str) -> bool:
    """Whether a sentence states what a study set out to do (an aim, objective or hypothesis), not a finding."""
    text = sentence.strip()
    m = _AIM.search(text)
    if not m:
        return False
    # what the aim asks is not a finding: look for one before the aim's words and after them, but not in the
    # question it asks
    after = text[m.end() :]
    if re.search(r"\b(that|whether|if)\s*$", m.group(0), re.IGNORECASE):  # "we hypothesized that ..."
        after = re.sub(r"^[^,;]*", "", after)
    rest = text[: m.start()] + " " + _QUESTION.sub("", after)
    return not _FOUND.search(rest)


def unnamed_groups(text: str) -> str | None:
    """The words by which a claim names its population with the study's own labels, if it does."""
    m = _GROUP_LABEL.search(text) or _UNNAMED_GROUPS.search(text)
    return m.group(0) if m else None


def result_cues(sentence: str) -> tuple[float, list[str]]:
    """How strongly a sentence reports a finding: the summed weights of its result cues, and their names."""
    names = [name for name, _, rx in _CUES if rx.search(sentence)]
    return sum(w for name, w, _ in _CUES if name in names), names


@dataclass
class _Candidate:
    """A sentence of a claim section: where it is in the paper and its cues."""

    section: int
    paragraph: int
    sentence: int
    text: str
    score: float
    cues: list[str]
    restated: float = 0.0  # TF-IDF cosine with the most similar sentence of the rest of the paper


@dataclass
class _Claim:
    """A positive claim of a paper with what the later stages add: the evidence the judge reads, negatives."""

    key: str  # "<paper id>#c<n>"
    number: int
    text: str
    section: int
    paragraph: int
    source_sentence: str
    generator: str
    details: dict[str, Any]
    faithfulness: float = 0.0
    judge_evidence: tuple[str, ...] = ()
    negatives: dict[str, Any] = field(default_factory=dict)  # kind -> (text, details)


class SciClaimHuntConfig(LabelCheckConfig):
    reader: dict[str, Any] | None = None
    # -- where claims come from (§III: results, discussion and conclusion)
    claim_sections: tuple[SectionType, ...] = ("results", "discussion", "conclusion")
    min_sentence_words: int = Field(8, ge=1)
    max_sentence_words: int = Field(45, ge=1)
    min_cue_score: float = Field(1.5, ge=0)  # 0: every sentence of the claim sections is a candidate
    # a sentence the rest of the paper does not restate (TF-IDF cosine with its most similar sentence outside the
    # claim's section below this) cannot be supported by evidence without that section: not tried (0: all tried)
    min_restated: float = Field(0.3, ge=0, le=1)
    max_sentences_per_paper: int = Field(12, ge=1)
    max_claims_per_paper: int = Field(6, ge=1)
    # -- positive claims
    generator: dict[str, Any] = {"name": "entity", "max_claims_per_sentence": 1}
    claim_check: dict[str, Any] | None = {"name": "wellformed", "self_contained": True, "atomic": True}
    min_claim_words: int = Field(6, ge=1)
    max_claim_words: int = Field(40, ge=1)
    # the judge's P(entailment) of the claim given its source paragraph (None: not checked)
    min_faithfulness: float | None = Field(0.5, ge=0, le=1)
    # -- evidence: the paper without the claim's section (the paper's setup), or the whole paper
    evidence_exclude: Literal["section", "none"] = "section"
    # the judge reads the evidence's findings: not the sections of these types (background, aims, procedures),
    # and with judge_skip_aims no sentence stating what the study set out to do ("To evaluate whether ...");
    # a claim no readable sentence restates is not tried (min_restated). The mismatch pairs read the other
    # paper whole (NOT_ENOUGH_INFO must hold against everything it says).
    judge_skip_sections: tuple[SectionType, ...] = ("introduction", "methods")
    judge_skip_aims: bool = True
    # a claim that asserts statistical significance ("significantly younger") when the passages the judge reads
    # state no test (no "significant", p-value or confidence interval) says more than its evidence: the judge
    # passes it, blind readers do not (5 of 6 such SUPPORTED examples read, 2026-11-27): the claim is dropped
    require_stated_significance: bool = True
    # The over-claim check (nlp/coverage.py) against those passages: a claim with a number, strengthener
    # ("directly"), quantifier ("several") or superlative they lack, or more than this many other content words
    # they lack, is an ``evidence_lacks_claim_content`` reject. A blind reading of 48 SUPPORTED examples by words
    # missing (docs/sciclaimhunt.md, 2026-11-28): none 10/12 read SUPPORTED, one 10/12, two or more 8/12, a risky
    # word 3/12: hence 1. None: no check.
    evidence_max_uncovered: int | None = Field(1, ge=0)
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})  # the over-claim check's parser
    judge_sentences: int = Field(5, ge=1)  # sentences of the evidence the label check reads, at most
    # ... and at most this many words (None: no limit). Evidence longer than the judge's 128-token window makes
    # it rank the sentences by embedding them first (a third of a build's time); on 200 PMC papers (docs/
    # sciclaimhunt.md) None gave 213 examples in 167 CPU s, 60 words 189 in 106 s, 80 words 228 in 135 s.
    # The same limit applies to the source paragraph of the faithfulness check.
    judge_words: int | None = Field(80, ge=1)
    # -- negatives (each None to turn it off)
    negation: dict[str, Any] | None = {
        "name": "minimal-edit",
        "edits": ["direction", "negation_removed", "negation_added"],
    }
    numeric: dict[str, Any] | None = {"name": "numeric"}
    # KBIN's entity swaps only (§III-B (iv): named entity replacement); its verb and adjective antonyms
    # duplicate the negation kind and read badly in results sentences ("significantly little")
    # and only substitutes the evidence names: a sibling it never mentions made unverifiable or nonsense claims
    # (16 of 16 in the 2026-11-27 build: "24 h" -> "24 No")
    entity: dict[str, Any] | None = {"name": "kbin", "verbs": False, "require_named": True}
    mismatch: Literal["similar", "random"] | None = "similar"
    mismatch_label: Label = Label.NOT_ENOUGH_INFO
    # other papers tried per claim (the most similar first): with the label check on, the first whose passages the
    # judge finds neither entailing nor contradicting the claim is used (one in four most-similar papers was not)
    mismatch_tries: int = Field(3, ge=1)
    require_confirmed_claim: bool = True
    balance: bool = True
    seed: int = 13
    labels: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)

    @model_validator(mode="after")
    def _labels_consistent(self) -> SciClaimHuntConfig:
        if self.mismatch_label == Label.SUPPORTED:
            raise ValueError("mismatch_label must be NOT_ENOUGH_INFO or REFUTED")
        if self.mismatch_label == Label.REFUTED and Label.NOT_ENOUGH_INFO in self.labels:
            raise ValueError("mismatch_label=REFUTED is the paper's binary scheme: set labels=[SUPPORTED,REFUTED] too")
        if self.min_sentence_words > self.max_sentence_words or self.min_claim_words > self.max_claim_words:
            raise ValueError("a min_*_words is larger than its max_*_words")
        made = {Label.SUPPORTED}
        if self.mismatch is not None:
            made.add(self.mismatch_label)
        if any(x is not None for x in (self.negation, self.numeric, self.entity)):
            made.add(Label.REFUTED)
        missing = [lab.value for lab in self.labels if lab not in made]
        if missing:  # balanced, the build would be empty; unbalanced, the label would never appear
            raise ValueError(
                f"labels {missing} are requested but nothing makes them (REFUTED: negation, numeric or entity; "
                "NOT_ENOUGH_INFO: mismatch); set labels to the ones made"
            )
        return self


class SciClaimHuntPrefilter:
    """Duplicate paper ids and papers without a section of the claim types (in input order)."""

    def __init__(self, config: SciClaimHuntConfig) -> None:
        self.config = config
        self._seen: set[str] = set()

    def check(self, item: Paper) -> tuple[int, str, str] | None:
        if item.id in self._seen:
            return 0, "duplicate_item_id", ""
        self._seen.add(item.id)
        kinds = set(self.config.claim_sections)
        if not any(s.type in kinds and s.paragraphs for s in item.sections):
            found = ", ".join(sorted({s.type for s in item.sections})) or "none"
            return 1, "no_claim_sections", f"needs one of {', '.join(sorted(kinds))}; has {found}"
        return None


def _tfidf_top(query: str, sentences: Sequence[str], k: int, max_words: int | None = None) -> list[int]:
    """Indices of the ``k`` sentences most like ``query`` by TF-IDF cosine (fitted on the sentences), in
    document order: cheap enough to run for every claim over a whole paper. With ``max_words``, fewer when the
    next best sentence would take them over that many words (the best one is always kept)."""
    if len(sentences) <= k and max_words is None:
        return list(range(len(sentences)))
    from sklearn.feature_extraction.text import TfidfVectorizer

    try:
        vec = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit([*sentences, query])
        m = vec.transform(sentences)
        sims = np.asarray((m @ vec.transform([query]).T).todense()).ravel()
    except ValueError:  # nothing but stop words
        sims = np.zeros(len(sentences))
    keep: list[int] = []
    words = 0
    for i in np.argsort(-sims, kind="stable"):
        n = len(sentences[i].split())
        if keep and max_words is not None and sims[i] <= 0:
            break  # with a word budget, no filling it with sentences that share no word with the query
        if keep and max_words is not None and words + n > max_words:
            continue
        keep.append(int(i))
        words += n
        if len(keep) == k:
            break
    return sorted(keep)


def _judge_sentences(
    paper: Paper, skip_sections: Sequence[SectionType], skip_aims: bool
) -> list[tuple[int, int, str, bool]]:
    """Every sentence of the paper in reading order (abstract first, section -1) as (section, paragraph, text,
    readable): ``readable`` is whether the judge may read it as evidence of a finding: not in a section of the
    ``skip_sections`` types (background, aims and procedures: "Adverse effects ... were recorded" is not "none
    occurred") and, with ``skip_aims``, not a statement of what the study set out to do."""
    out: list[tuple[int, int, str, bool]] = []
    for pi, para in enumerate(paper.abstract):
        out += [(-1, pi, t, not (skip_aims and states_aim(t))) for t in para]
    for si, sec in enumerate(paper.sections):
        skipped = sec.type in skip_sections
        for pi, para in enumerate(sec.paragraphs):
            out += [(si, pi, t, not skipped and not (skip_aims and states_aim(t))) for t in para]
    return out


def _judge_pool(sentences: Sequence[tuple[int, int, str, bool]], exclude: int | None) -> tuple[str, ...]:
    """The sentences the judge may read for a claim (of :func:`_judge_sentences`): readable, not in ``exclude``."""
    return tuple(t for si, _, t, ok in sentences if ok and si != exclude)


def _restated(paper: Paper, cands: Sequence[_Candidate], c: SciClaimHuntConfig) -> np.ndarray:
    """For each candidate, the TF-IDF cosine of the most similar sentence the judge may read outside its own
    section (outside its own paragraph when the evidence keeps the section): how far the rest of the paper
    restates it."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    sentences = _judge_sentences(paper, c.judge_skip_sections, c.judge_skip_aims)
    texts = [t for _, _, t, _ in sentences]
    try:
        vec = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit(texts)
    except ValueError:  # no words
        return np.zeros(len(cands))
    sims = np.asarray((vec.transform([c.text for c in cands]) @ vec.transform(texts).T).todense())
    sec_of = np.array([x[0] for x in sentences])
    para_of = np.array([x[1] for x in sentences])
    unreadable = ~np.array([x[3] for x in sentences], dtype=bool)
    out = np.zeros(len(cands))
    for n, cand in enumerate(cands):
        own = sec_of == cand.section
        if c.evidence_exclude != "section":
            own &= para_of == cand.paragraph
        row = np.where(own | unreadable, -1.0, sims[n])
        out[n] = max(0.0, float(row.max())) if row.size else 0.0  # nothing readable outside: 0
    return out


def _paragraph_text(paper: Paper, section: int, paragraph: int) -> tuple[str, ...]:
    return paper.sections[section].paragraphs[paragraph]


def _judge_paragraph(paper: Paper, cand: _Candidate, claim: str, max_words: int | None) -> tuple[str, ...]:
    """The source paragraph as the faithfulness check reads it: whole, or its sentences most like the claim
    within ``max_words`` (in paragraph order; the most similar one, usually the source sentence the claim
    restates, is always kept)."""
    para = _paragraph_text(paper, cand.section, cand.paragraph)
    if max_words is None:
        return para
    return tuple(para[i] for i in _tfidf_top(claim, para, len(para), max_words))


def _evidence_doc(paper: Paper, exclude: int | None) -> Document:
    doc = paper.document(exclude=() if exclude is None else (exclude,))
    suffix = f"-s{exclude}" if exclude is not None else ""
    return doc.model_copy(update={"id": f"{paper.id}{suffix}"})


class SciClaimHunt(Pipeline):
    """Full papers → SUPPORTED claims from their findings, REFUTED negatives (negation, numeric, entity) and
    NOT_ENOUGH_INFO (or REFUTED) mismatches, the paper as evidence (Kumar et al.)."""

    method = METHOD
    item_type = Paper
    component_kinds = {
        "generator": "generator",
        "claim_check": "claim_check",
        "negation": "negator",
        "numeric": "negator",
        "entity": "negator",
        "judge": "nli",
        "nlp": "nlp",
    }
    prefilter_fields = ("claim_sections",)
    config: SciClaimHuntConfig

    def uses(self, name: str) -> bool:
        if name == "judge":
            return super().uses(name) or self.config.min_faithfulness is not None
        if name == "nlp":
            return self.config.evidence_max_uncovered is not None
        return super().uses(name)

    def prefilter(self) -> SciClaimHuntPrefilter:
        return SciClaimHuntPrefilter(self.config)

    def stages(self) -> list[Stage]:
        return [
            Stage(
                "select sentences",
                "map",
                self._select,
                ("item",),
                ("candidates",),
                (
                    "min_sentence_words",
                    "max_sentence_words",
                    "min_cue_score",
                    "min_restated",
                    "evidence_exclude",
                    "judge_skip_sections",
                    "judge_skip_aims",
                    "max_sentences_per_paper",
                ),
                # 2: restated among the sentences the judge may read; 3: the paper readers type the sections of a body
                # without headings (S2ORC, TEI) by content
                version="3",
            ),
            Stage(
                "generate claims",
                "map",
                self._generate,
                ("item", "candidates"),
                ("claims",),
                (
                    "generator",
                    "claim_check",
                    "min_claim_words",
                    "max_claim_words",
                    "max_claims_per_paper",
                    "min_faithfulness",
                    "judge_words",
                    "judge",
                ),
                # 2: the faithfulness check reads at most judge_words of the paragraph; 3: "likely" kept; 4: the claim
                # check wellformed-v3; 5: misparsed coordination and subordinate roots rejected, appositions without a
                # comma kept, figure pointers ("As can be seen in,") and cut-off frames ("demonstrates that") removed,
                # "As mentioned," openers; abbreviations written out without a doubled word; wellformed-v4; 6: "As
                # expected" openers without a comma; 7: wellformed-v5 ("how much" opening a clause is no question); 8: a
                # capital after an inner full stop before a comma (". However,"); 9: bare reference numbers removed,
                # wellformed-v6; 10: wellformed-v7 (an acronym at the end, a singular the tagger calls plural);
                # 11: wellformed-v8; 12: wellformed-v9; 13: wellformed-v10; 14: wellformed-v11; 15: wellformed-v12;
                # 16: wellformed-v13; 17: wellformed-v14
                version="17",
            ),
            Stage(
                "evidence",
                "map",
                self._evidence,
                ("item", "claims"),
                ("claims",),
                (
                    "evidence_exclude",
                    "judge_sentences",
                    "judge_words",
                    "judge_skip_sections",
                    "judge_skip_aims",
                    "require_stated_significance",
                    "evidence_max_uncovered",
                    "nlp",
                ),
                version="4",  # 3: findings only (no introduction, methods or aims); 4: the over-claim check
            ),
            Stage(
                "confirm claims",
                "map",
                self._confirm,
                ("item", "claims"),
                ("claims",),
                ("require_confirmed_claim", "label_check", "label_thresholds", "judge"),
            ),
            Stage(
                "negatives",
                "map",
                self._negatives,
                ("item", "claims"),
                ("claims",),
                ("negation", "numeric", "entity"),
                version="22",  # 3: no numeric change of a duration or distance before its noun ("10-year risk");
                # 4: nor of a time point named by what it follows ("42 hours after surgery"); 5: nor of a cut-off;
                # 6: nor of a tolerance band ("within 50%"); 7: nor a setting or a name's number ("Roth 811");
                # 8: negatives pass the claim check wellformed-v3, entity substitutes matched by case when short;
                # 9: nor a count of methods or devices ("the four training methods"); 10: negation without "a" before a
                # plural ("There were significant differences"), "also" and "can not" handled, dictionary verb lemmas;
                # the claim check wellformed-v4; 11: a negation is removed only from the main clause; 12: wellformed-v5;
                # 13: entity negations: a capital after an inner full stop before a comma; 14: wellformed-v6;
                # 15: wellformed-v7; 16: wellformed-v8; 17: wellformed-v9, minimal-edit adds no negation beside a
                # clause of reason; 18: wellformed-v10; 19: wellformed-v11; 20: wellformed-v12; 21: wellformed-v13;
                # 22: wellformed-v14
            ),
            Stage(
                "mismatch",
                "global",
                self._mismatch,
                ("item", "claims"),
                config=(
                    "mismatch",
                    "mismatch_label",
                    "mismatch_tries",
                    "judge_sentences",
                    "judge_words",
                    "seed",
                    "label_check",
                    "label_thresholds",
                    "judge",
                ),
            ),
            self.label_check_stage(self.config.labels, evidence_of=_judge_evidence, checked_as=_checked_as),
            self.confirmed_claims_stage(),
            self.select_stage(self.config.labels),
        ]

    # -- 2. sentences with findings
    def _select(self, chunk: Chunk) -> None:
        c = self.config
        kinds = set(c.claim_sections)
        for u in chunk.live():
            paper: Paper = u.item
            cands: list[_Candidate] = []
            for si, sec in enumerate(paper.sections):
                if sec.type not in kinds:
                    continue
                for pi, para in enumerate(sec.paragraphs):
                    for ti, text in enumerate(para):
                        n = word_count(text)
                        if n < c.min_sentence_words or n > c.max_sentence_words:
                            continue
                        if _NOT_A_FINDING.search(text) or _FIGURE_ONLY.search(text) or text.rstrip().endswith("?"):
                            continue
                        score, cues = result_cues(text)
                        if score >= c.min_cue_score:
                            cands.append(_Candidate(si, pi, ti, text, score, cues))
            if not cands:
                chunk.reject(u, "select sentences", "no_finding_sentences", f"cue score ≥ {c.min_cue_score}")
                continue
            # the findings the rest of the paper restates first (the evidence must support the claim without its
            # own section), then the strongest cues, then reading order; at most one sentence per paragraph
            restated = _restated(paper, cands, c)
            for cand, sim in zip(cands, restated, strict=True):
                cand.restated = round(float(sim), 4)
            cands = [x for x in cands if x.restated >= c.min_restated]
            if not cands:
                chunk.reject(u, "select sentences", "no_restated_findings", f"restated < {c.min_restated}")
                continue
            cands.sort(key=lambda x: (-x.restated, -x.score, x.section, x.paragraph, x.sentence))
            chosen: list[_Candidate] = []
            used: set[tuple[int, int]] = set()
            for cand in cands:
                if (cand.section, cand.paragraph) not in used:
                    chosen.append(cand)
                    used.add((cand.section, cand.paragraph))
                if len(chosen) == c.max_sentences_per_paper:
                    break
            u.data["candidates"] = chosen

    # -- 3. positive claims
    def _generate(self, chunk: Chunk) -> None:
        c = self.config
        units = chunk.live()
        items: list[SentenceItem] = []
        where: dict[str, tuple[Any, _Candidate]] = {}
        for u in units:
            paper: Paper = u.item
            for n, cand in enumerate(u.data["candidates"]):
                para = _paragraph_text(paper, cand.section, cand.paragraph)
                sid = f"{paper.id}#p{n}"
                where[sid] = (u, cand)
                items.append(
                    SentenceItem(
                        id=sid,
                        sentence=cand.text,
                        context_before=para[: cand.sentence],
                        context_after=para[cand.sentence + 1 :],
                        citing=Document(id=paper.id, title=paper.title, sentences=paper.abstract_sentences),
                        ref=SourceRef(dataset=paper.ref.dataset, path=paper.ref.path, line=paper.ref.line, item_id=sid),
                        meta={"section": paper.sections[cand.section].heading},
                    )
                )
        gen = self.component("generator").generate(items) if items else None
        per_unit: dict[int, list[tuple[GeneratedClaim, _Candidate]]] = {}
        as_generated: dict[int, str] = {}  # the claim's text before short forms were written out
        if gen is not None:
            for r in gen.rejects:
                u, _ = where[r.item_id]
                chunk.add_reject(_as_example_reject(r, u.item))
            # short forms the paper defines anywhere ("blood pressure (BP)") are written out at first use
            definitions = {
                u.index: abbreviation_definitions(" ".join((u.item.title, u.item.document().text))) for u in units
            }
            generated = [g for g in gen.claims if g.item_id in where]
            claims = [with_abbreviations_defined(g, definitions[where[g.item_id][0].index]) for g in generated]
            as_generated.update({id(x): g.text for x, g in zip(claims, generated, strict=True)})
            reasons = self.claim_check_reasons([g.text for g in claims])
            seen: dict[int, set[str]] = {}
            for g, why in zip(claims, reasons, strict=True):
                u, cand = where[g.item_id]
                n = word_count(g.text)
                if not why and not c.min_claim_words <= n <= c.max_claim_words:
                    why = [f"{n} words (allowed {c.min_claim_words}-{c.max_claim_words})"]
                if not why and unnamed_groups(g.text):
                    why = [f"not self-contained: the study's groups ({unnamed_groups(g.text)!r})"]
                if why:
                    chunk.add_reject(
                        _reject(u.item, "generate claims", "not_wellformed", f"{'; '.join(why)} :: {g.text[:200]}")
                    )
                    continue
                key = g.text.lower()
                if key in seen.setdefault(u.index, set()):
                    chunk.add_reject(_reject(u.item, "generate claims", "duplicate_claim", g.text[:200]))
                    continue
                seen[u.index].add(key)
                per_unit.setdefault(u.index, []).append((g, cand))
        # faithfulness: the source paragraph must entail the claim
        flat = [(u, g, cand) for u in units for g, cand in per_unit.get(u.index, [])]
        faith = np.ones(len(flat))
        if c.min_faithfulness is not None and flat:
            probs = judge(
                self.component("judge"),
                [as_generated.get(id(g), g.text) for _, g, _ in flat],  # faithful as written by the generator
                [_judge_paragraph(u.item, cand, as_generated.get(id(g), g.text), c.judge_words) for u, g, cand in flat],
            )
            faith = probs[:, 0]
        kept: dict[int, list[_Claim]] = {}
        for (u, g, cand), p in zip(flat, faith, strict=True):
            if c.min_faithfulness is not None and p < c.min_faithfulness:
                detail = f"P(entailment | source paragraph)={p:.3f} < {c.min_faithfulness} :: {g.text[:200]}"
                chunk.add_reject(_reject(u.item, "generate claims", "claim_not_faithful", detail))
                continue
            claims_u = kept.setdefault(u.index, [])
            if len(claims_u) >= c.max_claims_per_paper:
                chunk.add_reject(_reject(u.item, "generate claims", "claims_per_paper", g.text[:200]))
                continue
            number = len(claims_u) + 1
            sec = u.item.sections[cand.section]
            details = {
                "source_sentence": cand.text,
                "section": sec.heading,
                "section_type": sec.type,
                "cues": cand.cues,
                "cue_score": cand.score,
                "restated": cand.restated,
                "generator_details": {k: v for k, v in g.details.items() if k not in ("context", "source_sentence")},
            }
            claims_u.append(
                _Claim(
                    key=f"{u.item.id}#c{number}",
                    number=number,
                    text=g.text,
                    section=cand.section,
                    paragraph=cand.paragraph,
                    source_sentence=cand.text,
                    generator=g.generator,
                    details=details,
                    faithfulness=round(float(p), 4),
                )
            )
        for u in units:
            u.data["claims"] = kept.get(u.index, [])
            if not u.data["claims"]:
                chunk.reject(u, "generate claims", "no_claims", f"{len(u.data['candidates'])} sentences tried")

    # -- 4. evidence
    def _evidence(self, chunk: Chunk) -> None:
        c = self.config
        for u in chunk.live():
            paper: Paper = u.item
            kept = []
            readable = _judge_sentences(paper, c.judge_skip_sections, c.judge_skip_aims)
            for cl in u.data["claims"]:
                pool = _judge_pool(readable, cl.section if c.evidence_exclude == "section" else None)
                cl.judge_evidence = tuple(pool[i] for i in _tfidf_top(cl.text, pool, c.judge_sentences, c.judge_words))
                if c.require_stated_significance and unstated_significance(cl.text, cl.judge_evidence):
                    detail = (
                        f"the claim asserts statistical significance; its evidence states no test :: {cl.text[:200]}"
                    )
                    chunk.add_reject(_reject(u.item, "evidence", "significance_not_in_evidence", detail))
                else:
                    kept.append(cl)
            u.data["claims"] = kept
        self._over_claims(chunk)
        for u in chunk.live():
            if not u.data["claims"]:
                chunk.reject(u, "evidence", "no_claim_its_evidence_states", "no claim's evidence states all it says")

    def _over_claims(self, chunk: Chunk) -> None:
        """The over-claim check of each claim against the passages the judge reads (``evidence_max_uncovered``)."""
        limit = self.config.evidence_max_uncovered
        nlp = self.component("nlp")
        todo = [(u, cl) for u in chunk.live() for cl in u.data["claims"]]
        if limit is None or nlp is None or not todo:
            return
        covers = iter(coverages(nlp, [(cl.text, " ".join(cl.judge_evidence)) for _, cl in todo]))
        for u in chunk.live():  # the same order as todo
            kept = []
            for cl in u.data["claims"]:
                cover = next(covers)
                if cover.passes(limit):
                    kept.append(cl)
                else:
                    detail = f"{cover.describe()} :: {cl.text[:200]}"
                    chunk.add_reject(_reject(u.item, "evidence", "evidence_lacks_claim_content", detail))
            u.data["claims"] = kept

    def _confirm(self, chunk: Chunk) -> None:
        """The label check of the SUPPORTED claims, early: a claim the judge does not find entailed by its evidence
        gets no negatives and no mismatch (they would be dropped as ``claim_not_confirmed`` anyway), so the
        negators run only on confirmed claims. The global label check later finds these scores in the judge's
        cache. Skipped with ``label_check: flag|off`` or ``require_confirmed_claim: false``."""
        c = self.config
        if c.label_check != "reject" or not c.require_confirmed_claim:
            return
        units = chunk.live()
        todo = [(u, cl) for u in units for cl in u.data["claims"]]
        if not todo:
            return
        probs = judge(self.component("judge"), [cl.text for _, cl in todo], [cl.judge_evidence for _, cl in todo])
        ok: set[str] = set()
        for (u, cl), p in zip(todo, probs, strict=True):
            v = verdict(Label.SUPPORTED, p, c.label_thresholds)  # the label check's own rule
            if v.passed:
                ok.add(cl.key)
            else:
                detail = reject_detail(Label.SUPPORTED, f"{cl.key}S", v.explain(c.label_thresholds))
                chunk.add_reject(_reject(u.item, "confirm claims", "claim_not_confirmed", detail))
        for u in units:
            u.data["claims"] = [cl for cl in u.data["claims"] if cl.key in ok]
            if not u.data["claims"]:
                chunk.reject(u, "confirm claims", "no_confirmed_claims", "the judge confirmed none of its claims")

    # -- 5. negatives and the SUPPORTED / REFUTED examples
    def _negatives(self, chunk: Chunk) -> None:
        units = chunk.live()
        todo = [(u, cl) for u in units for cl in u.data["claims"]]
        for kind in NEGATIVE_KINDS:
            negator = self.component(kind)
            if negator is None or not todo:
                continue
            negs = negator.negate([cl.text for _, cl in todo], evidence=[cl.judge_evidence for _, cl in todo])
            # negatives pass the same emit-time check as the claims ("There did not be", "significantlied")
            made = [n for n, neg in enumerate(negs) if neg.text is not None]
            reasons = dict(zip(made, self.claim_check_reasons([negs[n].text or "" for n in made]), strict=True))
            for n, ((u, cl), neg) in enumerate(zip(todo, negs, strict=True)):
                if reasons.get(n):
                    detail = f"{kind}: {'; '.join(reasons[n])} :: {(neg.text or '')[:200]}"
                    chunk.add_reject(_reject(u.item, "negatives", "negative_not_wellformed", detail))
                elif neg.text is None:
                    detail = f"{kind}: {neg.reason or 'none made'} :: {cl.text[:200]}"
                    chunk.add_reject(_reject(u.item, "negatives", f"no_{kind}", detail))
                elif neg.text.strip().lower() == cl.text.strip().lower():
                    chunk.add_reject(_reject(u.item, "negatives", f"no_{kind}", f"unchanged :: {cl.text[:200]}"))
                elif any(neg.text.strip().lower() == t.strip().lower() for t, _ in cl.negatives.values()):
                    detail = f"{kind}: the same text as another kind's negative :: {neg.text[:200]}"
                    chunk.add_reject(_reject(u.item, "negatives", "duplicate_negative", detail))
                else:
                    cl.negatives[kind] = (neg.text, neg.details)
        for u in units:
            paper: Paper = u.item
            for cl in u.data["claims"]:
                doc = _evidence_doc(paper, cl.section if self.config.evidence_exclude == "section" else None)
                chunk.examples.append(self._example(paper, cl, Label.SUPPORTED, cl.text, doc, cl.judge_evidence, None))
                for kind in NEGATIVE_KINDS:
                    if kind in cl.negatives:
                        text, details = cl.negatives[kind]
                        chunk.examples.append(
                            self._example(paper, cl, Label.REFUTED, text, doc, cl.judge_evidence, (kind, details))
                        )

    # -- 6. mismatch
    def _mismatch(self, state: BuildState) -> None:
        c = self.config
        if c.mismatch is None:
            return
        papers: list[Paper] = [u.item for u in state.units if u.item is not None and u.rejected is None]
        claims = [
            (u.item, cl)
            for u in state.units
            if u.rejected is None and u.item is not None
            for cl in u.data.get("claims", [])
        ]
        if len(papers) < 2 or not claims:
            return
        rng = random.Random(c.seed)
        index = {p.id: i for i, p in enumerate(papers)}
        if c.mismatch == "similar":
            from sklearn.feature_extraction.text import TfidfVectorizer

            profiles = [" ".join((p.title, *p.abstract_sentences)) or p.document().text[:5000] for p in papers]
            vec = TfidfVectorizer(stop_words="english", sublinear_tf=True, min_df=1).fit(profiles)
            pm = vec.transform(profiles)
            cm = vec.transform([cl.text for _, cl in claims])
            sims = np.asarray((cm @ pm.T).todense())
        # more than one paper is tried only when the label check would reject a mismatch the judge finds
        # entailing or contradicting (with it off or flagging, the first paper, as before)
        tries = min(c.mismatch_tries if c.label_check == "reject" else 1, len(papers) - 1)
        # per claim, the other papers to try in order: (paper, how it was chosen)
        options: list[list[tuple[Paper, dict[str, Any]]]] = []
        for n, (paper, _cl) in enumerate(claims):
            if c.mismatch == "similar":
                row = sims[n].copy()
                row[index[paper.id]] = -np.inf
                order = np.argsort(-row, kind="stable")[:tries]
                options.append(
                    [(papers[int(j)], {"mismatch": "similar", "similarity": round(float(row[j]), 4)}) for j in order]
                )
            else:
                picks = [rng.randrange(len(papers) - 1)] if tries == 1 else rng.sample(range(len(papers) - 1), tries)
                others = [papers[j if j < index[paper.id] else j + 1] for j in picks]
                options.append([(o, {"mismatch": "random"}) for o in others])
        docs: dict[str, Document] = {}

        def passages(n: int, k: int) -> tuple[str, ...]:
            other = options[n][k][0]
            if other.id not in docs:
                docs[other.id] = _evidence_doc(other, None)
            sents = docs[other.id].sentences
            return tuple(sents[i] for i in _tfidf_top(claims[n][1].text, sents, c.judge_sentences, c.judge_words))

        # in rounds: the k-th most similar paper is judged only for the claims no earlier one was neutral for; the
        # first neutral one is used (the label check finds its scores in the judge's cache), else the first
        chosen = [0] * len(claims)
        judged = [[passages(n, 0)] for n in range(len(claims))]
        neutral: dict[int, bool] = {}
        if tries > 1:
            todo = list(range(len(claims)))
            for k in range(tries):
                if not todo:
                    break
                if k > 0:
                    for n in todo:
                        judged[n].append(passages(n, k))
                probs = judge(self.component("judge"), [claims[n][1].text for n in todo], [judged[n][k] for n in todo])
                left = []
                for n, pr in zip(todo, probs, strict=True):
                    # the rule the label check applies to a mismatch whatever its label (_checked_as)
                    if verdict(Label.NOT_ENOUGH_INFO, pr, c.label_thresholds).passed:
                        chosen[n], neutral[n] = k, True
                    else:
                        left.append(n)
                todo = left
            for n in todo:
                neutral[n] = False
        for n, (paper, cl) in enumerate(claims):
            k = chosen[n]
            other, how = options[n][k]
            details = {**how, "other_paper": other.id, "other_title": other.title}
            if tries > 1:  # papers judged, and whether the chosen one was neutral
                details.update(tried=len(judged[n]), neutral=neutral[n])
            state.examples.append(
                self._example(paper, cl, c.mismatch_label, cl.text, docs[other.id], judged[n][k], ("mismatch", details))
            )

    def _example(
        self,
        paper: Paper,
        cl: _Claim,
        label: Label,
        text: str,
        doc: Document,
        judged: tuple[str, ...],
        negative: tuple[str, dict[str, Any]] | None,
    ) -> Example:
        kind = negative[0] if negative else None
        details: dict[str, Any] = {
            "claim_key": cl.key,
            "supported_claim": cl.text,
            **cl.details,
            "faithfulness": cl.faithfulness,
            "evidence_excludes": cl.details["section"] if doc.id == f"{paper.id}-s{cl.section}" else None,
            "judge_evidence": list(judged),
        }
        if negative:
            details["negative"] = {"kind": kind, **negative[1]}
        details["num_subset"] = bool(re.search(r"\d", cl.text))
        key = f"c{cl.number}" + (_KEY_LETTER[kind] if kind else "")
        method = f"{METHOD}-{kind}" if kind else METHOD
        return self.make_example(paper, label, text, doc.text, doc.id, details, key=key, method=method)


def _judge_evidence(e: Example) -> tuple[str, ...]:
    return tuple(e.provenance.details.get("judge_evidence") or ()) or (e.evidence,)


def _checked_as(e: Example) -> Label:
    """A mismatch is unverifiable whatever it is labelled: the paper's binary scheme calls it REFUTED ("not
    supported by this paper"), and the judge must find it neither entailed nor contradicted."""
    return Label.NOT_ENOUGH_INFO if e.method == f"{METHOD}-mismatch" else e.label


def _reject(paper: Paper, stage: str, reason: str, detail: str) -> Reject:
    return Reject(item_id=paper.id, scope="example", stage=stage, reason=reason, detail=detail, ref=paper.ref)


def _as_example_reject(r: Reject, paper: Paper) -> Reject:
    """A generator's reject of one sentence, as an example-scope reject of its paper."""
    return Reject(
        item_id=paper.id,
        scope="example",
        stage=r.stage,
        reason=r.reason,
        detail=f"{r.item_id}: {r.detail}",
        ref=paper.ref,
    )


@registry.register("pipeline", METHOD, SciClaimHuntConfig)
def build_sciclaimhunt(config: SciClaimHuntConfig) -> SciClaimHunt:
    """Full papers → claims from their findings and four kinds of negatives (SciClaimHunt, Kumar et al.)."""
    return SciClaimHunt(config)
