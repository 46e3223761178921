"""Automatic per-claim quality scores on the scales of Wright et al. (2022) Table 2 (``ClaimScorer``): fluency,
de-contextualisation, atomicity and faithfulness. ROUGE: ``evaluate/rouge.py``; Krippendorff's alpha:
``evaluate/agreement.py``; human-evaluation sheets: ``evaluate/sheets.py``. See docs/claim_quality.md.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from claimforge.backends.lm import lm_fluency_stats
from claimforge.evaluate.sheets import CLAIM_CRITERIA, annotated_criteria, context_text, is_acceptable, table3_summary
from claimforge.nlp.normalize import finite_verb_form
from claimforge.nlp.normalize import noun_reading as _noun_reading
from claimforge.nlp.wellformed import VERBAL_TAGS, fluency_checks, reason
from claimforge.registry import ComponentConfig, registry

# ----------------------------------------------------------------------------------------------------------------
# Automatic per-claim scores on the Table 2 scales

# Abbreviations a biomedical reader understands without a definition, so a claim that uses them undefined is
# still interpretable on its own. A hand-made list (not taken from an authority), in the spirit of the "may be
# used without expansion" lists in biomedical journals' author instructions: (1) molecules, techniques and
# diseases whose abbreviation is their usual name (DNA, mRNA, ATP, HIV, AIDS, PCR, ELISA, CRISPR, MRI, CT, ECG,
# GWAS, SNP, COPD, ADHD); (2) statistics reported in abstracts (CI, OR, HR, RR, SD); (3) countries and agencies
# (US, UK, EU, WHO, FDA, NIH); (4) cell types, designs and drug classes that abstracts use undefined (iPSC, ESC,
# HSC, MSC, RCT, NSAID, SSRI, ACE as in "ACE inhibitor", CRP). Ambiguous short forms (MS, ALS, PD, AD, RA, OA,
# MI, ART, ...) are left out on purpose: they are the source-dependent abbreviations the paper's annotators had
# to resolve ("OA ... (MIA)" in Table 4). Extend it with ClaimScorerConfig.extra_abbreviations.
COMMON_ABBREVIATIONS: tuple[str, ...] = tuple(
    """
    DNA RNA mRNA tRNA rRNA miRNA siRNA shRNA lncRNA ncRNA snRNA cDNA mtDNA ssDNA dsDNA gDNA
    ATP ADP AMP GTP GDP cAMP cGMP NAD NADH NADP NADPH FAD
    HIV AIDS HPV HBV HCV HSV EBV CMV RSV SARS MERS COVID SARS-CoV SARS-CoV-2 TB
    PCR qPCR RT-PCR ELISA CRISPR MRI fMRI CT PET SPECT ECG EKG EEG EMG GWAS SNP SNPs RNAi RNA-seq ChIP ChIP-seq
    iPSC ESC HSC MSC RCT NSAID SSRI ACE CRP
    BMI ICU ER IQ UV HDL LDL VLDL ROS GFP YFP RFP IgA IgD IgE IgG IgM HLA MHC NK CNS PNS GI
    COPD ADHD PTSD OCD CVD CHD IVF
    CI OR HR RR SD SE
    US USA UK EU WHO FDA NIH CDC
    pH
    """.split()  # noqa: SIM905
)

_START_PRONOUNS = frozenset("it its they their them this these those that such he she his her".split())  # noqa: SIM905
_SUBJECT_PRONOUNS = frozenset("it they this these those he she".split())  # noqa: SIM905
_DEMONSTRATIVES = frozenset("this these those".split())  # noqa: SIM905
_EXPLETIVE_IT = re.compile(  # "It is known that ...", "it has recently been shown that ...": no referent needed
    r"^it\s+(?:(?:has|have|had|may|might|can|could|will|would|should|also|now|not|\w+ly)\s+){0,3}"
    r"(?:is|was|be|been|remains|remained|appears|appeared|seems|seemed)\b.*?\b(?:that|to|whether|if|how|why)\b",
    re.I,
)
_ANAPHORS = re.compile(r"\b(?:aforementioned|above-mentioned|the\s+above)\b", re.I)
_DEICTIC = re.compile(
    r"\b(?:we|our|ours|us|here|herein|hereby)\b"
    r"|\b(?:this|the\s+present|the\s+current|the\s+presented)\s+(?:study|studies|paper|work|article|review|report|"
    r"trial|analysis|investigation|experiment|experiments|manuscript|cohort|series|survey|meta-analysis)\b"
    r"|\bthe\s+authors\b"
    r"|\b(?:fig(?:ure)?s?\.?|tables?|supplementary\s+(?:fig(?:ure)?|table|material)s?)\s+[S]?\d+[A-Za-z]?\b",
    re.I,
)
_FIRST_PERSON_CASE = re.compile(r"\b(?:We|we|Our|our|Ours|ours|us)\b")  # "US" (the country) is not "us"
_CITATIONS = re.compile(
    r"\[\s*\d+(?:\s*[-–,]\s*\d+)*\s*\]"  # [12], [3, 4], [5-7]
    r"|\[\s*<\|[^\]]*\|>\s*\]"  # dataset citation tokens
    r"|\(\s*(?:[A-Z][\w'\-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'\-]+)?)?,?\s+(?:19|20)\d\d[a-z]?"
    r"(?:\s*[;,]\s*(?:[A-Z][\w'\-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'\-]+)?)?,?\s+)?(?:19|20)\d\d[a-z]?)*\s*)\)"
    r"|\bet\s+al\b\.?"
    r"|\(\s*(?:refs?\.?\s*)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\s*\)"  # (12), (1, 2), (ref. 4)
)
_ABBREV_TOKEN = re.compile(r"[^\s,;:()\[\]{}\"'“”‘’.]+")
_ROMAN = re.compile(r"^(?=[IVXLC]+$)M*(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})$")
_GREEK = re.compile(r"[\u0370-\u03ff]")
_LIST_ITEM = r"[\w\-']+(?: [\w\-']+){0,2}"
_COMMA_LIST = re.compile(rf"\b{_LIST_ITEM}(?:, {_LIST_ITEM})+,? (?:and|or) {_LIST_ITEM}")  # A, B(,) and C
_DISCOURSE = frozenset(
    """
    however though thus therefore furthermore moreover interestingly additionally which when where that who
    whereas while but also then indeed finally first second respectively including such like
    """.split()  # noqa: SIM905
)
_PREPOSITIONS = frozenset("in on at for with by from of to into after before during among between under".split())  # noqa: SIM905
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "X"})
_SUBJECTS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass", "expl"})
_OBJECTS = frozenset({"obj", "iobj", "dobj", "attr", "ROOT"})


def decontextualization_reasons(
    text: str,
    doc: Any,
    known: frozenset[str] | None,
    digit_symbols_ok: bool = True,
    max_caps: int | None = 3,
) -> list[str]:
    """Why a claim may need its source to be understood: an unresolved pronoun or demonstrative (at the start,
    as the main clause's subject, or a demonstrative determiner), first-person or deictic reference ("we", "our",
    "here", "this study", "Figure 2"), a citation marker, an abbreviation neither defined in the claim nor in
    ``known`` (``known=None``: no abbreviation check). Empty when none is found."""
    reasons: list[str] = []
    toks = [t for t in doc if not t.is_space]
    first = toks[0].lower_ if toks else ""
    deictic = [m for m in _DEICTIC.finditer(text)]
    in_deictic = {i for m in deictic for i in range(m.start(), m.end())}
    expletive = first == "it" and _EXPLETIVE_IT.match(text.strip())
    such_as = first == "such" and len(toks) > 1 and toks[1].lower_ == "as"
    if first in _START_PRONOUNS and not expletive and not such_as:
        reasons.append(reason("pronoun_start", repr(toks[0].text)))
    m = _ANAPHORS.search(text)
    if m:
        reasons.append(reason("anaphor", repr(m.group(0))))
    for t in toks[1:]:
        low = t.lower_
        if low in _SUBJECT_PRONOUNS and t.dep_ in ("nsubj", "nsubj:pass", "expl") and t.head.dep_ == "ROOT":
            if low == "it" and _EXPLETIVE_IT.match(text[t.idx :]):
                continue  # "In particular, it was shown that ..."
            if not any(p.pos_ in ("NOUN", "PROPN") for p in toks[: t.i]):  # an antecedent earlier in the claim
                reasons.append(reason("pronoun_subject", repr(t.text)))
        elif low in ("former", "latter") and t.i > 0 and doc[t.i - 1].lower_ == "the":
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if nxt is None or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):  # "the former communist countries" is not
                reasons.append(reason("anaphor", repr(f"{doc[t.i - 1].text} {t.text}")))
        elif (
            low in _DEMONSTRATIVES
            and t.i + 1 < len(doc)
            and doc[t.i + 1].is_alpha
            and t.dep_ == "det"
            and t.idx not in in_deictic  # "this study" is reported as deictic
        ):
            reasons.append(reason("demonstrative", repr(f"{t.text} {doc[t.i + 1].text}")))
    for m in deictic:
        word = m.group(0)
        if word.lower() in ("we", "our", "ours", "us") and not _FIRST_PERSON_CASE.fullmatch(word):
            continue
        reasons.append(reason("deictic", repr(word)))
    for m in _CITATIONS.finditer(text):
        reasons.append(reason("citation_marker", repr(m.group(0).strip())))
    for abbr in [] if known is None else undefined_abbreviations(text, known, digit_symbols_ok, max_caps):
        reasons.append(reason("undefined_abbreviation", repr(abbr)))
    return list(dict.fromkeys(reasons))


def undefined_abbreviations(
    text: str, known: frozenset[str], digit_symbols_ok: bool = True, max_caps: int | None = 3
) -> list[str]:
    """Short forms that are not defined in the text — by "osteoarthritis (OA)" or "OA (osteoarthritis)" — and
    not in ``known``: all-capital tokens of 2 to ``max_caps`` letters ("OA", "MIA", "ART"; plural "RCTs" →
    "RCT") and lower-case-prefixed ones ("iPSC", "mTOR", "cRCT").

    Not taken as abbreviations: Roman numerals; capital-lower-capital names ("PrP", "RalB", "BiP"); longer
    all-capital tokens when ``max_caps`` is set ("KRAS", "EGFR", "MTHFR": gene and protein symbols, which are
    names rather than short forms, dominate them in biomedical text); and, with ``digit_symbols_ok``, tokens with
    digits or Greek letters (BRCA1, IL-6, CD4+, TNF-α, CO2)."""
    out: list[str] = []
    for m in _ABBREV_TOKEN.finditer(text):
        tok = m.group(0).strip("-–/+")
        if not tok or tok in known:
            continue
        if digit_symbols_ok and (any(ch.isdigit() for ch in tok) or _GREEK.search(tok)):
            continue
        for part in re.split(r"[-/]", tok):
            part = re.sub(r"\d+[a-z]?\+?$", "", part)  # only reached without digit_symbols_ok: BRCA1 -> BRCA
            core = part[:-1] if part.endswith("s") and sum(ch.isupper() for ch in part[:-1]) >= 2 else part
            if not core.isalpha() or core in known or _ROMAN.match(core):
                continue
            caps = sum(ch.isupper() for ch in core)
            prefixed = bool(re.fullmatch(r"[a-z]{1,2}[A-Z]{2,}", core))
            if not prefixed and not (core.isupper() and caps >= 2 and (max_caps is None or caps <= max_caps)):
                continue
            if re.search(rf"\(\s*{re.escape(core)}s?\s*[),;]", text) or re.search(rf"\b{re.escape(core)}s?\s*\(", text):
                continue  # defined by a parenthetical in the claim
            if core not in out:
                out.append(core)
    return out


def atomicity_reasons(text: str, doc: Any) -> list[str]:
    """Why a claim may not be atomic: coordinated clauses (a conjunct verb with its own subject), more than one
    main predicate (coordinated verbs sharing a subject, parataxis, a semicolon, a "whereas"/"while"/"but"
    clause), a list of ≥ 3 coordinated noun phrases (in the subject or object when the parse says where), or
    "respectively". Empty when none is found."""
    reasons: list[str] = []
    toks = list(doc)
    for t in toks:
        if t.dep_ == "conj" and _predicate(t.head) and _finite(t):
            if any(c.dep_ in ("nsubj", "nsubj:pass") for c in t.children):
                reasons.append(reason("coordinated_clauses", repr(f"{t.head.text} … {t.text}")))
            else:
                reasons.append(reason("multiple_predicates", repr(f"{t.head.text} … {t.text}")))
        elif t.dep_ == "parataxis" and _finite(t) and _predicate(t.head) and t.head.dep_ == "ROOT":
            reasons.append(reason("multiple_predicates", repr(f"{t.head.text} … {t.text}")))
    # Lexical backups for parser misses: "and/or/but [adverb] VBZ-verb" with no noun reading ("and reduces").
    for i, t in enumerate(toks[:-1]):
        if t.lower_ in ("and", "or", "but"):
            j = i + 1
            if toks[j].tag_ == "RB" or toks[j].lower_ in ("also", "thereby", "then", "not"):
                j += 1
            if (
                j < len(toks)
                and finite_verb_form(toks[j].text, third_person_only=True)
                and not _noun_reading(toks[j].text)
            ):
                reasons.append(reason("multiple_predicates", repr(f"{t.text} {toks[j].text}")))

    def verb_like(u: Any) -> bool:
        return (u.tag_ in VERBAL_TAGS and u.pos_ in ("VERB", "AUX")) or (
            finite_verb_form(u.text, third_person_only=True) and not _noun_reading(u.text)
        )

    for i, t in enumerate(toks[:-2]):  # "X reduces pain, and ibuprofen lowers fever": a second clause
        if t.text == "," and toks[i + 1].lower_ in ("and", "or", "but") and any(verb_like(u) for u in toks[:i]):
            for u in toks[i + 3 : i + 7]:
                if u.is_punct:
                    break
                if verb_like(u):
                    reasons.append(reason("coordinated_clauses", repr(f", {toks[i + 1].text} … {u.text}")))
                    break
    if ";" in text:
        reasons.append(reason("multiple_predicates", "';'"))
    m = re.search(r"\bwhereas\b|,\s*(?:while|but)\b", text, re.I)
    if m:
        reasons.append(reason("coordinated_clauses", repr(m.group(0).strip(", "))))
    for t in toks:
        conjs = [c for c in t.children if c.dep_ == "conj" and c.pos_ in _NOMINAL]
        if len(conjs) >= 2 and t.pos_ in _NOMINAL:
            span = doc[t.i : conjs[-1].i]
            if not any(x.text == "," for x in span) or not any(x.dep_ == "cc" for x in conjs[-1].children):
                continue  # "A, B and C" has a comma and a conjunction; parser noise has not
            where = _np_position(t)
            reasons.append(reason("list", f"{len(conjs) + 1} coordinated items{where}: {t.text}, …, {conjs[-1].text}"))
    if not any(r.startswith("list") for r in reasons):
        for m in _COMMA_LIST.finditer(text):
            words = re.findall(r"[\w\-']+", m.group(0).lower())
            if (
                _DISCOURSE.isdisjoint(words)
                and words[0] not in _PREPOSITIONS
                and not any(finite_verb_form(w, third_person_only=True) for w in words)
            ):
                reasons.append(reason("list", f"comma-separated items: {m.group(0)!r}"))
                break
    if re.search(r"\brespectively\b", text, re.I):
        reasons.append("respectively")
    return list(dict.fromkeys(reasons))


def _finite(t: Any) -> bool:
    """A finite verb by the parse (tag and UPOS agree), or a verb with its own subject or auxiliary."""
    if t.pos_ not in ("VERB", "AUX"):
        return False
    return t.tag_ in VERBAL_TAGS or any(c.dep_ in ("nsubj", "nsubj:pass", "aux", "aux:pass") for c in t.children)


def _predicate(t: Any) -> bool:
    """A verb, or a nominal/adjectival predicate with a copula."""
    return t.pos_ in ("VERB", "AUX") or any(c.dep_ == "cop" for c in t.children)


def _np_position(t: Any) -> str:
    node = t
    for _ in range(6):
        if node.dep_ in _SUBJECTS:
            return " in the subject"
        if node.dep_ in _OBJECTS:
            return " in the object" if node.dep_ != "ROOT" else " in the predicate"
        if node.head is node:
            break
        node = node.head
    return ""


def content_overlap(claim: str, premise: str) -> float:
    """Share of the claim's content lemmas that occur in the premise (0 for a claim with no content word)."""
    from claimforge.nlp.normalize import content_lemmas

    words = set(content_lemmas(claim))
    if not words:
        return 0.0
    return len(words & set(content_lemmas(premise))) / len(words)


class ClaimScorerConfig(ComponentConfig):
    """What ``ClaimScorer`` runs and the thresholds that map model outputs onto the Table 2 scales."""

    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    lm: dict[str, Any] | None = Field(default_factory=lambda: {"name": "ngram"})  # None: parse checks only
    nli: dict[str, Any] = Field(default_factory=lambda: {"name": "embedded"})
    # Fluency from the LM (docs/claim_quality.md; defaults measured by bench/claim_quality_calibration.py on the
    # SciFact train claims with the shipped lm-ngram): "perplexity", and "ratio" = the claim's perplexity divided
    # by the geometric mean perplexity of `shuffles` random orders of its own words (rare terms cancel out).
    # Per measure ≤ good → 3, ≤ bad → 2, above → 1; "both" takes the lower level; then −1 per failed parse check.
    fluency_measure: Literal["both", "ratio", "perplexity"] = "both"
    shuffles: int = Field(default=5, ge=1)
    ratio_good: float = 0.51
    ratio_bad: float = 1.0
    ppl_good: float = 1670.0
    ppl_bad: float = 6120.0
    # Faithfulness from NLI (premise = source sentence + context, hypothesis = claim).
    # Defaults calibrated for the embedded NLI model on SciFact citances and their expert rewrites (see
    # faithfulness_score for the order in which they apply; another NLI model needs its own calibration).
    # Calibrated for the embedded judge of 2026-11-24 (bench/claim_quality_calibration.py; docs/claim_quality.md)
    entail_high: float = 0.92  # P(entailment) ≥ → 5
    entail_low: float = 0.0  # P(entailment) ≥ → 4 (this judge is bimodal: its 10th percentile of faithful is 0.002)
    contradiction: float = 0.76  # P(contradiction) ≥ → 2
    unrelated_overlap: float = 0.4  # content-word overlap with the premise < (and not entailed ≥ entail_high) → 1
    use_context: bool = True  # put the context into the NLI premise after the source sentence
    check_abbreviations: bool = True  # false: undefined abbreviations do not make a claim context-dependent
    common_abbreviations: tuple[str, ...] = COMMON_ABBREVIATIONS
    extra_abbreviations: tuple[str, ...] = ()
    abbreviation_max_caps: int | None = 3  # longer all-capital tokens are taken as gene/protein symbols
    digit_symbols_ok: bool = True


class ClaimScores(BaseModel):
    """Automatic scores of one claim on the Table 2 scales, each with the reasons behind it."""

    model_config = ConfigDict(frozen=True)

    claim: str
    fluency: int
    decontextualized: int
    atomicity: int
    faithfulness: int
    acceptable: bool
    reasons: dict[str, list[str]]
    perplexity: float | None = None
    perplexity_ratio: float | None = None  # perplexity / geometric mean perplexity of shuffled word orders
    nli: dict[str, float] | None = None
    overlap: float = 0.0


def faithfulness_score(probs: Sequence[float], overlap: float, config: ClaimScorerConfig) -> tuple[int, str]:
    """Map NLI probabilities (entailment, contradiction, neutral) of premise (source sentence + context) → claim,
    and the claim's content-word overlap with the premise, onto the 1–5 scale, in this order:

    1. overlap < unrelated_overlap and P(ent) < entail_high → 1 (nothing to do with the sentence). Not "neutral":
       the embedded NLI model rarely predicts neutral for unrelated scientific sentences (docs/claim_quality.md);
    2. P(ent) ≥ entail_high → 5 (fully supported);
    3. P(con) ≥ contradiction → 2 (explicitly incorrect information);
    4. P(ent) ≥ entail_low → 4 (supported, less certain: the model cannot tell "leaves out information");
    5. otherwise → 3 (related, not explicitly stated).
    """
    ent, con, _neu = (float(p) for p in probs)
    c = config
    if overlap < c.unrelated_overlap and ent < c.entail_high:
        return 1, reason("unrelated", f"content overlap {overlap:.2f} < {c.unrelated_overlap}, P(entailment) {ent:.2f}")
    if ent >= c.entail_high:
        return 5, reason("entailed", f"P(entailment) {ent:.2f} ≥ {c.entail_high}")
    if con >= c.contradiction:
        return 2, reason("contradicted", f"P(contradiction) {con:.2f} ≥ {c.contradiction}")
    if ent >= c.entail_low:
        return 4, reason("probably_entailed", f"P(entailment) {ent:.2f} ≥ {c.entail_low}")
    return 3, reason("related_not_stated", f"P(entailment) {ent:.2f}, content overlap {overlap:.2f}")


def fluency_score(
    perplexity: float | None,
    checks: Sequence[str],
    config: ClaimScorerConfig,
    ratio: float | None = None,
) -> tuple[int, list[str]]:
    """The LM level — 3 / 2 / 1 by the thresholds of the measure(s) in ``config.fluency_measure``, the lower level
    when both are used, 3 without an LM — minus one per failed parse/surface check, at least 1."""
    reasons: list[str] = []
    measures = []
    if config.fluency_measure in ("both", "perplexity"):
        measures.append(("perplexity", perplexity, config.ppl_good, config.ppl_bad))
    if config.fluency_measure in ("both", "ratio"):
        measures.append(("perplexity_ratio", ratio, config.ratio_good, config.ratio_bad))
    level = 3
    for name, value, good, bad in measures:
        if value is None:
            continue
        if not math.isfinite(value) or value > bad:
            level = 1
            reasons.append(reason(f"{name}_very_high", f"{value:.3g} > {bad:g}"))
        elif value > good:
            level = min(level, 2)
            reasons.append(reason(f"{name}_high", f"{value:.3g} > {good:g}"))
    reasons.extend(checks)
    return max(1, level - len(checks)), reasons


Triple = tuple[str, str, "str | Sequence[str] | None"]


class ClaimScorer:
    """Automatic scores of (claim, source sentence, context) triples on the paper's Table 2 scales.

    Components are built from the config on first use (kind "nlp", "lm", "nli" of the registry); tests and
    callers may pass ready objects instead (``nlp=``, ``lm=``, ``nli=``) with the same interfaces.
    """

    def __init__(self, config: ClaimScorerConfig | None = None, *, nlp: Any = None, lm: Any = None, nli: Any = None):
        self.config = config or ClaimScorerConfig()
        self._nlp, self._lm, self._nli = nlp, lm, nli
        self.known = frozenset(self.config.common_abbreviations) | frozenset(self.config.extra_abbreviations)

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = registry.build("nlp", self.config.nlp)
        return self._nlp

    @property
    def lm(self) -> Any:
        if self._lm is None and self.config.lm is not None:
            self._lm = registry.build("lm", self.config.lm)
        return self._lm

    @property
    def nli(self) -> Any:
        if self._nli is None:
            self._nli = registry.build("nli", self.config.nli)
        return self._nli

    def components(self) -> dict[str, str]:
        """Model ids of the components used (for the summary)."""
        out = {"nlp": str(getattr(self.nlp, "model_id", self.config.nlp.get("name")))}
        if self.lm is not None:
            out["lm"] = str(getattr(self.lm, "model_id", ""))
        out["nli"] = str(getattr(self.nli, "model_id", ""))
        return out

    def score(self, claims: Sequence[Triple], progress: Any = None) -> list[ClaimScores]:
        """Scores of each (claim, source_sentence, context) in order: one parse batch, one LM call, one NLI call."""
        from claimforge.records import Pair

        if not claims:
            return []
        texts = [c[0].strip() for c in claims]
        premises = []
        for _, source, context in claims:
            ctx = context_text(context) if self.config.use_context else ""
            premises.append((source.strip(), ctx) if ctx else (source.strip(),))
        docs = self.nlp.parse(texts)
        ppl: list[float | None] = [None] * len(texts)
        ratio: list[float | None] = [None] * len(texts)
        if self.lm is not None:
            if self.config.fluency_measure != "perplexity":
                own, rel = lm_fluency_stats(self.lm, texts, self.config.shuffles)
                ppl, ratio = [float(p) for p in own], [float(r) for r in rel]
            else:
                ppl = [float(p) for p in np.asarray(self.lm.perplexity(texts), dtype=float)]
        pairs = [Pair(id=str(i), claim=t, evidence=p) for i, (t, p) in enumerate(zip(texts, premises, strict=True))]
        probs = np.asarray(self.nli.predict_proba(pairs), dtype=float)
        out = []
        for i, (text, doc) in enumerate(zip(texts, docs, strict=True)):
            overlap = content_overlap(text, " ".join(premises[i]))
            fl, fl_reasons = fluency_score(ppl[i], fluency_checks(text, doc), self.config, ratio[i])
            dc_reasons = decontextualization_reasons(
                text,
                doc,
                self.known if self.config.check_abbreviations else None,
                self.config.digit_symbols_ok,
                self.config.abbreviation_max_caps,
            )
            at_reasons = atomicity_reasons(text, doc)
            fa, fa_reason = faithfulness_score(probs[i], overlap, self.config)
            dc, at = int(not dc_reasons), int(not at_reasons)
            out.append(
                ClaimScores(
                    claim=text,
                    fluency=fl,
                    decontextualized=dc,
                    atomicity=at,
                    faithfulness=fa,
                    acceptable=is_acceptable(fl, dc, at, fa),
                    reasons={
                        "fluency": fl_reasons,
                        "decontextualized": dc_reasons,
                        "atomicity": at_reasons,
                        "faithfulness": [fa_reason],
                    },
                    perplexity=_round(ppl[i], 3),
                    perplexity_ratio=_round(ratio[i], 4),
                    nli={
                        k: round(float(v), 4)
                        for k, v in zip(("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"), probs[i], strict=True)
                    },
                    overlap=round(overlap, 4),
                )
            )
        return out


def _round(v: float | None, nd: int) -> float | None:
    return None if v is None or not math.isfinite(v) else round(v, nd)


def summarise(scores: Sequence[ClaimScores]) -> dict[str, Any]:
    """Table 3 over automatic scores, with the paper's annotation rule applied as if the scorer were an annotator
    (De-Con. % over claims with fluency > 1; Atomic % and Faithfulness over claims also de-contextualized), plus
    the unconditional rates and how often each reason code fired."""
    records = []
    for s in scores:
        rated = annotated_criteria(s.fluency, s.decontextualized)
        rec: dict[str, Any] = {c: (getattr(s, c) if c in rated else None) for c in CLAIM_CRITERIA}
        rec["accepted"] = s.acceptable
        records.append(rec)
    out = table3_summary(records)
    n = len(scores)
    out["all_claims"] = {
        "decontextualized_pct": round(100 * sum(s.decontextualized for s in scores) / n, 2) if n else None,
        "atomicity_pct": round(100 * sum(s.atomicity for s in scores) / n, 2) if n else None,
        "faithfulness": round(sum(s.faithfulness for s in scores) / n, 4) if n else None,
        "fluency_distribution": {str(v): sum(1 for s in scores if s.fluency == v) for v in (3, 2, 1)},
        "faithfulness_distribution": {str(v): sum(1 for s in scores if s.faithfulness == v) for v in (5, 4, 3, 2, 1)},
    }
    codes: dict[str, Counter[str]] = defaultdict(Counter)
    for s in scores:
        for crit, reasons in s.reasons.items():
            for r in dict.fromkeys(r.split(":")[0] for r in reasons):
                codes[crit][r] += 1
    out["reasons"] = {c: dict(cnt.most_common()) for c, cnt in sorted(codes.items())}
    return out
