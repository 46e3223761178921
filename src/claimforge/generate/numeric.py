"""Numeric counter-claims (SciClaimHunt_Num, §III-B (iii)): a supported claim becomes a refuted one by changing
ONE of its quantities so that it is definitely false against evidence that states the original value, while the
claim stays fluent, plausible and self-consistent.

Offline, deterministic and regex-based (no parser: the decisions are about the characters around a number, and a
tokenizer would split "12.5%", "1,234", "10–20" and "3.2 × 10−4" in ways that lose them). Two public functions:

* :func:`numeric_mentions` — the quantities of a claim that may be changed, with their kind and offsets;
* :func:`numeric_edits` — up to ``max_edits`` changed claims, one per quantity, most checkable kinds first.

Rules (``docs/numeric_negation.md`` explains the reasons):

* **Never changed** (:func:`protected_spans` lists them with a reason): years and decades, author–year and
  bracket citations, glued superscript-like citations, figure/table/section/equation/supplement references,
  identifiers with digits (IL-6, CD4+, COVID-19, H1N1, SARS-CoV-2, p53, M184V, 3TC, S1, "2b"), labels after a
  noun ("Phase 3", "type 2 diabetes", "chromosome 21", "day 337", "character 37.1"), ordinals, versions,
  integer-only parentheses such as "(3)" or "(12, 13)", the level of a confidence interval ("95% CI"), degrees
  of freedom, SD/SE values, denominators ("per 1,000"), dates and times, powers of ten without a mantissa, zero,
  hyphenated compounds ("two-tailed", "5-point"), numbered enumerations ("2)"), dimensions ("512×512"),
  model parameters ("k = 7"), test statistics next to a p-value, and numbers in formulas.
* **Bounds are skipped**: "more than 50%", "at least 3", "≥12 months", "up to 20 mg", "3 or more". Moving a
  bound up makes a stronger claim that the evidence may not decide; moving it down makes a weaker one that the
  evidence still entails. Neither is definitely false.
* **p-values**: an exact value ("p = 0.003") changes 2–10× (0.003 → 0.03 or 0.0003) but stays on its
  side of 0.05, so the claim's own significance wording ("significantly", "did not differ") still matches it; a
  bound "p < t" with t ≤ 0.01 becomes an exact value between 2t and 0.05 ("p < 0.001" → "p = 0.02": still
  significant, excluded by the evidence); "p > t" with t ≥ 0.1 becomes an exact value between 0.05 and t/2.
  "p < 0.05" and "p > 0.05" are never changed (any new threshold is entailed or undecidable).
* **Fold changes and ratios** keep their side of 1 ("HR 0.62" → "HR 0.41", never 1.4): a flip would contradict
  the claim's direction words ("reduced"). |log ratio| changes by a factor of 0.35–2.5; 0.95–1.05 ("no
  effect") is never produced. An estimate
  with its confidence interval changes as one quantity: all three by the same factor (a shift on the log
  scale), each bound staying on its side of 1, so a CI that excluded 1 still does.
* **Percentages** stay in (0, 100) when they were ≤ 100 (a value near 100 can only move down) and keep their
  decimals. Changes of more than 100% ("a 250% increase") have no upper bound.
* **Everything else** (doses and measurements with units, statistics such as r or AUC, counts, bare numbers)
  changes by one factor from a fixed list: ≥ 20% relative change (≥ 30% after "about/approximately"), same
  sign, same precision (decimals, and two or more trailing zeros of integers: "32,000" → "42,000"), new/old in
  [0.4, 2.5] when ``magnitude="same"``, same thousands separator / decimal mark / unicode minus / leading-zero
  style, the unit kept; decimals in (0, 1) stay in (0, 1); temperatures move by at most 30%.
* **Consistency inside the claim**: a range ("20–35%", "from 20% to 35%", "between 10 and 20 mg") is one
  quantity, both ends scaled by one factor so their order is kept; "x of y" and "x/y" change x, keep the total
  (x < y) and recompute an attached percentage ("12/15 (80%)" → "9/15 (60%)"); "count (P%)" recomputes P from
  the total they imply; "mean ± SD" changes the mean and keeps the SD; a median with its range/IQR
  stays inside it; a number that adds up with others, repeats one, is another count's total or is a count of
  a listed enumeration is left alone ("24 genes, 14 up and 10 down"; "Among 55, … 34 (61.8%)"). A new
  value never equals another number of the claim, and keeps its order relative to the other quantities of the
  same unit (so "fell from 57% to 46%", "the highest (50%)" and "16,250 … 13,968" stay true to their words).
* **Number words**: "two"–"nineteen" and "twenty"–"ninety" change within their group; "twice"/"thrice",
  "doubled"/"tripled"/"quadrupled" and "twofold" change among themselves; "half", "a third", "two thirds",
  "a quarter", "three quarters", "a fifth" change among themselves. "one", ordinals and hyphenated
  compounds ("one-way", "two-tailed") are never changed; vague pairs ("two or three") are skipped.

Every candidate list is built in a fixed order and one element is drawn with the caller's ``random.Random``, so
a seed gives the same edits.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import unicodedata
import zlib
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from pydantic import Field

from claimforge.generate.kbin import Negation
from claimforge.nlp.wellformed import PREPOSITIONS
from claimforge.registry import ComponentConfig, registry
from claimforge.verify.label_check import judge

__all__ = [
    "KINDS",
    "Mention",
    "NumericNegator",
    "NumericNegatorConfig",
    "Number",
    "NumericEdit",
    "numeric_edits",
    "numeric_mentions",
    "design_number",
    "protected_spans",
    "stated_in",
]

# Most checkable first: the order of numeric_edits' output.
KINDS: tuple[str, ...] = (
    "percent",
    "p_value",
    "fold_change",
    "ratio",
    "statistic",
    "dose",
    "measurement",
    "range",
    "sample_size",
    "cardinal",
    "decimal",
    "count_word",
    "multiplier_word",
    "fraction_word",
)
_RANK = {k: i for i, k in enumerate(KINDS)}

# --------------------------------------------------------------------------------------------------------------
# Public records


@dataclass(frozen=True)
class Number:
    """One number as written in the claim: its span, value and the format needed to write another value the
    same way."""

    start: int
    end: int
    text: str
    value: float
    decimals: int = 0  # digits after the decimal mark (of the mantissa, in scientific notation)
    separator: str = ""  # thousands separator as written ("," in "1,234")
    decimal_mark: str = "."
    leading_zero: bool = True  # False for ".05"
    sign: str = ""  # "-", "−" or "–" as written, for negative numbers
    exponent: int | None = None  # scientific notation: value = mantissa × 10**exponent
    sci_middle: str = ""  # " × 10" or "e"
    exp_sign: str = ""  # "−", "-", "⁻" or ""
    exp_superscript: bool = False
    word: bool = False  # written as a word ("three", "twofold")
    affix: str = ""  # the word's glued suffix ("fold" in "twofold")

    @property
    def is_integer(self) -> bool:
        return self.decimals == 0 and self.exponent is None


@dataclass(frozen=True)
class Part:
    """A number's role in a mention: ``value`` (the quantity), ``low``/``high`` (range ends), ``ci_low``/``ci_high``
    (its confidence interval, changed with it), ``bound_low``/``bound_high`` (its range or IQR, kept), ``sd``
    (kept), ``total`` (the y of "x of y", kept), ``derived`` (a percentage recomputed from the value)."""

    number: Number
    role: str


@dataclass(frozen=True)
class Mention:
    """A changeable quantity: its kind, span in the claim (``text == claim[start:end]``), values in order and unit.

    ``qualifier`` is the comparator of a p-value ("=", "<", ...), "approx" after "about"/"approximately", or ""."""

    kind: str
    start: int
    end: int
    text: str
    values: tuple[float, ...]
    unit: str = ""
    qualifier: str = ""
    parts: tuple[Part, ...] = field(default=(), repr=False)
    dim: str = field(default="", repr=False)  # quantities of one dim keep their order relative to each other
    comparator_span: tuple[int, int] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class NumericEdit:
    """A changed claim: ``text == claim[:start] + replacement + claim[end:]`` and ``original == claim[start:end]``."""

    text: str
    kind: str
    original: str
    replacement: str
    start: int
    end: int


# --------------------------------------------------------------------------------------------------------------
# Vocabulary

_DASHES = "-‐‑‒–—−"
_RANGE_DASH = r"[‒–—−\-‐]"
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _words(text: str) -> list[str]:
    return text.split()


_COUNT_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        _words(
            "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
            "seventeen eighteen nineteen"
        ),
        start=2,
    )
}
_COUNT_WORDS.update(
    {w: 10 * i for i, w in enumerate(_words("twenty thirty forty fifty sixty seventy eighty ninety"), 2)}
)
_WORD_OF = {v: k for k, v in _COUNT_WORDS.items()}
_WORD_ALT = "|".join(sorted(_COUNT_WORDS, key=len, reverse=True))
_FOLD_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

_DOSE_UNITS = _words(
    "mg µg μg ug mcg ng pg fg g mL ml µL μL µl μl uL ul dL dl L IU mIU kIU U mU mmol µmol μmol umol nmol "
    "pmol mol mM µM μM uM nM pM fM mEq mOsm units"
)
_MEASURE_UNITS = _words(
    "kg km cm mm µm μm um nm m Å s sec secs ms µs μs ns min mins h hr hrs d wk wks mo y yr yrs °C ℃ °F ° "
    "Hz kHz MHz GHz Da kDa MDa bp kb kbp Mb Mbp nt mV µV μV V mA µA μA mW kW W kJ MJ J kcal cal kPa MPa "
    "hPa Pa mmHg cmH2O dB lux rpm ppm ppb bpm cGy mGy Gy mSv µSv Sv kBq MBq GBq Bq Ma ka kyr Myr CFU cfu "
    "PFU pfu"
) + ["mm Hg"]
_TIME_WORDS = {
    "second": "seconds",
    "minute": "minutes",
    "hour": "hours",
    "day": "days",
    "week": "weeks",
    "month": "months",
    "year": "years",
}
_COUNT_PER = "cells?|copies|colonies|events|counts|beats|breaths|particles|spots|SFC|SCF|CFU|PFU"
_DENOMS = (
    "1\\.73\\s?m[2²]|kg|g|mg|m2|m²|m|day|d|min|h|hr|L|dL|dl|mL|ml|µL|μL|µl|μl|uL|s|week|wk|year|yr|cells?|wells?|mm3|"
    "mm³|10\\^?6"
)


def _alt(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


_BASE_UNIT = _alt(_DOSE_UNITS + _MEASURE_UNITS + list(_TIME_WORDS) + list(_TIME_WORDS.values()))
_UNIT = re.compile(
    rf"(?P<pre>\s?|[-‐])(?P<unit>(?:(?:{_COUNT_PER})\s?/\s?(?:{_DENOMS})|(?:{_BASE_UNIT})(?:\s?/\s?(?:{_DENOMS}))*)"
    r"(?:[2²3³])?)(?![A-Za-z0-9µμ])"
)
_HYPHEN_UNITS = set(_TIME_WORDS) | {"h", "min", "mg", "g", "kg", "cm", "mm", "m", "km", "s", "d", "ms", "kDa", "bp"}

_SUBJECT_NOUNS = _words(
    "patients participants subjects individuals people persons women men girls boys children adults "
    "adolescents infants newborns neonates mothers pregnancies students volunteers respondents cases "
    "controls mice rats animals dogs cats pigs rabbits monkeys primates fish birds plants households "
    "families twins pairs donors recipients users workers employees nurses physicians doctors clinicians "
    "residents veterans smokers athletes eyes teeth samples specimens biopsies isolates studies trials "
    "articles papers reports hospitals centres centers clinics schools villages countries sites "
    "whistleblowers manufacturers companies"
)
_STOP = "than|in|of|the|and|or|to|for|with|were|was|are|is|had|have|from|at|by|on|as|who|which|that|these|those"
_SUBJECT = re.compile(rf"\s+(?:(?!(?:{_STOP})\b)[a-z][\w\-]*\s+){{0,2}}?(?:{'|'.join(_SUBJECT_NOUNS)})\b")
_SUBJECT_NEXT = re.compile(rf"\s+(?:{'|'.join(_SUBJECT_NOUNS)})\b")

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?"
    r"|Nov(?:ember)?|Dec(?:ember)?)"
)
_REF_ITEM = r"S?[0-9]+[A-Za-z]?(?:\.[0-9]+)*[A-Za-z]?"
_REF_LIST = rf"{_REF_ITEM}(?:\s*(?:,\s*and|,\s*or|,|and|&|or|to|{_RANGE_DASH})\s*{_REF_ITEM})*"
_REF_WORDS = (
    r"Fig(?:ure)?s?|FIG(?:URE)?S?|Tab(?:le)?s?|TABLES?|Sect?(?:ion)?s?|Eqs?|Equations?|Appendix|Appendices|"
    r"Chapters?|Ch|Panels?|Box(?:es)?|Files?|Movies?|Videos?|Datasets?|Schemes?|Protocols?|Notes?|Refs?|"
    r"References?|Algorithms?|Lemmas?|Theorems?|Propositions?|Suppl(?:ementary|emental)?\s+(?:Fig(?:ure)?s?|Tables?|Data|"
    r"Materials?|Text|Files?|Movies?|Videos?|Notes?|Methods|Information)|§"
)
_LABEL_WORDS = (
    r"day|days|week|weeks|month|months|year|years|visit|visits|cycle|cycles|wave|waves|round|grade|grades|stage|"
    r"stages|phase|phases|type|types|class|group|groups|arm|cohort|experiment|study|trial|patient|subject|"
    r"participant|mouse|lane|lanes|exon|exons|intron|codon|codons|residue|residues|position|positions|chromosome|"
    r"chromosomes|chr|generation|passage|clone|isolate|strain|lineage|clade|site|domain|loop|helix|step|steps|"
    r"task|condition|session|block|run|batch|item|items|question|questions|hypothesis|aim|criterion|character|"
    r"characters|scenario|case|node|layer|level|levels|tier|category|zone|plot|region|part|model|version|release|"
    r"No\.|number|#|ID|dimension|dimensions|degree|serotype|subtype|genotype|haplotype|allele|variant|locus|example|problem|condition"
)
_NOT_NAMES = {
    "OR", "ORS", "AOR", "HR", "HRS", "AHR", "RR", "ARR", "RRS", "IRR", "PR", "SHR", "CI", "SD", "SE", "SEM", "IQR",
    "AUC", "ICC", "NNT", "MD", "SMD", "WMD", "RD", "BMI", "ES",
}  # fmt: skip

_REGION_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("citation", re.compile(rf"\[\s*[0-9]+(?:\s*(?:[,;]|{_RANGE_DASH})\s*[0-9]+)*\s*\]")),
    (
        "citation",
        re.compile(
            r"\b[A-Z][A-Za-z'’\-]+(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][A-Za-z'’\-]+)?,?\s+\(?(?:1[5-9]|20)[0-9]{2}"
            r"[a-z]?\b"
        ),
    ),
    ("reference", re.compile(rf"(?<![A-Za-z])(?:{_REF_WORDS})\.?\s*{_REF_LIST}", re.IGNORECASE)),
    ("label", re.compile(rf"\b(?:{_LABEL_WORDS})\s+{_REF_LIST}", re.IGNORECASE)),
    ("reference", re.compile(rf"\(\s*[0-9]{{1,3}}[a-z]?(?:\s*(?:,|{_RANGE_DASH})\s*[0-9]{{1,3}}[a-z]?)*\s*\)")),
    (
        "ci_level",
        re.compile(
            r"(?<![0-9.])[0-9]{2}(?:\.[0-9])?\s?%(?=\s?(?:CIs?|CrIs?|UIs?|PIs?|HPDs?|HDIs?|confidence|credib|uncertainty|"
            r"prediction|Bayesian|highest)\b)",
            re.I,
        ),
    ),
    (
        "df",
        re.compile(r"(?<![A-Za-z])(?:t|F|χ2|χ²|X2|chi2|H|Z|z|U|W)\s?\(\s?[0-9]+(?:\.[0-9]+)?(?:\s?,\s?[0-9]+)?\s?\)"),
    ),
    ("df", re.compile(r"(?<![A-Za-z])(?:df|d\.f\.|DF)\s?[=:]?\s?[0-9]+")),
    (
        "version",
        re.compile(
            r"\b(?:version|ver\.|release|build|SPSS|Stata|STATA|SAS|Python|MATLAB|Matlab|Prism|GraphPad|Excel|ImageJ|"
            r"Fiji|Windows|macOS|Ubuntu|Java|Perl|PAUP\*?|MrBayes|BEAST|RAxML|PhyML|MEGA|TNT|Mplus|JMP|Minitab|EpiInfo|"
            r"RevMan|Bioconductor|HiSeq|MiSeq|NovaSeq)\s?(?:version\s)?v?\.?\s?[0-9]+(?:\.[0-9]+)*"
        ),
    ),
    ("version", re.compile(r"\bR\s(?:version\s)?[0-9]+\.[0-9]+(?:\.[0-9]+)?")),
    ("date", re.compile(rf"\b{_MONTHS}\.?\s+[0-9]{{1,2}}(?:st|nd|rd|th)?\b(?!\s?[%:])")),
    ("date", re.compile(rf"\b[0-9]{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS}\b")),
    ("date", re.compile(r"\b[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?\s?(?:am|pm|a\.m\.|p\.m\.|h)?\b(?<!ratio)")),
    ("denominator", re.compile(r"\bper\s+(?:[0-9]{1,3}(?:[,\s\u2009\u202f][0-9]{3})+|[0-9]+)\b")),
    ("name", re.compile(r"(?<![\w-])(?P<name>[A-Z][A-Z0-9-]{1,7})\s[0-9]+(?:\.[0-9]+)?(?=\s+[a-z])")),
    ("math", re.compile(r"[+*^∫∑√∂∞]\s?[0-9]+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?\s?(?:\*|\^|\+(?![/\-−]))")),
]

_P_CTX = re.compile(
    r"(?<![A-Za-z])(?:[pPqQ]|FDR)(?:[-‐ ]?values?)?(?:\s?\([^()]{0,15}\))?(?:_?(?:adj|FDR|corr|trend|interaction))?"
    r"\s*(?P<cmp><=|>=|=<|=>|[=<>≤≥⩽⩾]|of|was|were|:)\s*(?:=\s*)?$"
)
_RATIO_CTX = re.compile(
    r"(?:(?<![A-Za-z])(?P<abbr>a?ORs?|a?HRs?|a?RRs?|a?IRRs?|sHR|SHR|csHR)|(?P<word>(?:adjusted\s+)?(?:odds|hazards?|risk|rate|"
    r"incidence\s+rate|prevalence|subdistribution\s+hazard)\s+ratios?|relative\s+risks?))"
    r"(?:\s?\([^()]{0,25}\))?\s*(?:=|:|of|was|were|,|≈)?\s*$",
    re.IGNORECASE,
)
_N_CTX = re.compile(r"(?<![A-Za-z])[nN]\s?[=:]\s?$")
_DISPERSION_CTX = re.compile(
    r"(?<![A-Za-z])(?:SDs?|SEs?|SEMs?|s\.d\.|s\.e\.(?:m\.)?|standard\s+(?:deviation|error)s?)"
    r"\s*(?:=|:|of|was|,|±)?\s*$"
)
_CI_LABEL_CTX = re.compile(
    r"%\s?(?:CIs?|CrIs?|UIs?|PIs?|confidence\s+intervals?|credible\s+intervals?)\s?[:,=]?\s?(?:from\s)?$", re.I
)
_STAT_CTX = re.compile(
    r"(?<![A-Za-z0-9])(?P<sym>[A-Za-zα-ωΑ-Ω][A-Za-z0-9α-ωΑ-Ω²³'’]{0,6})(?:\s?\([^()]{0,12}\))?\s*(?:=|≈|∼|~)\s*$"
)
_BOUND_BEFORE = re.compile(
    r"(?:\b(?:(?:more|less|fewer|greater|higher|lower|larger|smaller|longer|shorter|older|younger|bigger|faster|"
    r"slower)\s+than|at\s+(?:least|most)|up\s+to|over|under|above|below|beyond|exceed(?:s|ed|ing)?|in\s+excess\s+of|"
    r"as\s+(?:many|much|few|little|high|low)\s+as|a\s+(?:maximum|minimum)\s+of|maximum|minimum|within|"
    r"no\s+(?:more|less|fewer)\s+than)|[≥≤><⩾⩽≳≲≫≪])\s*(?:approximately|about|around|roughly|nearly|almost|~|∼|≈)?"
    r"\s*[(\[]?\s*$",
    re.IGNORECASE,
)
_BOUND_AFTER = re.compile(
    r"\s*(?:or\s+(?:more|less|fewer|greater|higher|lower|above|below|older|younger|longer|over|under)|\+(?![\w/])|"
    r"and\s+(?:above|over|older|more))\b|\s*[<>≤≥]\s*[A-Za-zα-ω]",
    re.IGNORECASE,
)
_APPROX_BEFORE = re.compile(
    r"(?:\b(?:approximately|approx\.|about|around|roughly|nearly|almost|circa|ca\.|some|close\s+to|an\s+estimated)|[~∼≈])\s*$",
    re.IGNORECASE,
)
_SCI = re.compile(r"(?P<mid>\s?[×xX✕·⋅]\s?10)\^?(?P<es>[-−–⁻+]?)(?P<ed>[0-9⁰¹²³⁴⁵⁶⁷⁸⁹]+)(?![0-9A-Za-z])")
_SCI_E = re.compile(r"(?P<mid>[eE])(?P<es>[-−+]?)(?P<ed>[0-9]+)(?![0-9A-Za-z])")
_POWER10 = re.compile(r"[-−⁻][0-9⁰¹²³⁴⁵⁶⁷⁸⁹](?![0-9⁰¹²³⁴⁵⁶⁷⁸⁹])")  # "10−4"; "10-20" is a range
_RAW = re.compile(r"[0-9]+(?:[.,][0-9]+)*|(?<=[\s=<>(≤≥~∼≈:\[])\.[0-9]+")
_DOT_DECIMAL = re.compile(r"[0-9]\.[0-9]")

_PERCENT = re.compile(r"\s?%|\s(?:percent|per\s+cent)\b")
_FOLD = re.compile(
    r"\s?[-‐]?\s?fold\b|\s?[×x](?=\s+(?:higher|lower|more|less|greater|larger|smaller|faster|slower|increase|decrease|"
    r"reduction|elevat|enrich|the|as)\w*)|\s+times(?=\s+(?:higher|lower|more|less|greater|larger|smaller|faster|slower|"
    r"as|the|that|increase|decrease|elevat|enrich|reduc)\w*)",
    re.IGNORECASE,
)
_SCALE = re.compile(r"\s(?P<unit>million|billion|thousand)\b")
_PLUS_MINUS = re.compile(r"\s?(?:±|\+/-|\+/−|\+-)\s?")
_DASH_CONN = re.compile(rf"\s?{_RANGE_DASH}\s?")
_TO_CONN = re.compile(r"\s+to\s+")
_AND_CONN = re.compile(r"\s+and\s+")
_OF_CONN = re.compile(r"\s+(?:of|out\s+of)\s+(?:the\s+|all\s+|these\s+|those\s+)?")
_SLASH_CONN = re.compile(r"\s?/\s?")
_CI_AFTER = re.compile(
    r"\s?[(\[,;]?\s?(?:95|90|99|80)(?:\.[0-9])?\s?%\s?(?:CIs?|CrIs?|UIs?|PIs?|confidence\s+intervals?|credible\s+intervals?|"
    r"uncertainty\s+intervals?)\s?[:,=]?\s?(?:from\s)?",
    re.I,
)
_BARE_INTERVAL = re.compile(r"\s?[(\[]\s?")
_CI_CONN = re.compile(rf"\s?{_RANGE_DASH}\s?|\s+to\s+|\s?,\s?")
_SPREAD_AFTER = re.compile(
    r"\s?[(\[,;]\s?(?:IQR|interquartile\s+range(?:\s?\(IQR\))?|range|min[-–]max)\s?[:=,]?\s?", re.I
)
_SD_AFTER = re.compile(r"\s?[(\[,;]\s?(?:SD|s\.d\.|SE|SEM|s\.e\.m?\.?)\s?[:=,±]?\s?")
_PCT_COMPANION = re.compile(r"(?:\s+[A-Za-z][\w\-]*){0,2}\s?[(,;]\s?")

# --------------------------------------------------------------------------------------------------------------
# Tokens


@dataclass
class _Tok:
    num: Number
    reason: str | None = None  # why it is never changed (None: changeable)


def _trailing_zeros(n: Number) -> int:
    if not n.is_integer or n.word or n.value == 0:
        return 0
    digits = str(int(abs(n.value)))
    return len(digits) - len(digits.rstrip("0"))


def _step(n: Number, percent: bool = False) -> int:
    """The rounding of an integer: 32,000 and 11000 are rounded to thousands, 300 to hundreds; one trailing
    zero (10 patients, 120 mg, 50%) is taken as exact."""
    z = _trailing_zeros(n)
    return 1 if z < 2 or percent else 10**z


def _digit_token(claim: str, s: int, e: int, raw: str, has_dot_decimals: bool) -> _Tok:
    reason: str | None = None
    separator, mark, lead = "", ".", not raw.startswith(".")
    clean = raw
    if raw.count(".") > 1:
        reason, clean = "version", raw.split(".")[0]
    elif re.fullmatch(r"[0-9]{1,3}\.000", raw):
        reason = "ambiguous_separator"  # "750.000 copies/ml": 750 thousand, written the European way
    elif "," in raw:
        if re.fullmatch(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?", raw):
            separator, clean = ",", raw.replace(",", "")
        elif re.fullmatch(r"[0-9]+,[0-9]{1,2}", raw) and not has_dot_decimals:
            mark, clean = ",", raw.replace(",", ".")
        else:
            reason, clean = "list", raw.split(",")[0]
    decimals = len(clean.split(".")[1]) if "." in clean else 0
    value = float(clean) if clean.strip(".") else 0.0
    sign = ""
    left = claim[s - 1] if s > 0 else ""
    if left.isalnum() or left == "_" or (left and unicodedata.category(left).startswith("M")):
        reason = reason or "identifier"
    elif left == "/" and s > 1 and not claim[s - 2].isdigit() and not claim[s - 2].isspace():
        reason = reason or "math"  # "Pr/2", "c2/r"
    elif left and left in _DASHES:
        left2 = claim[s - 2] if s > 1 else " "
        before = claim[: s - 1].rstrip()
        if left2.isalpha() or left2 in ")]'′’+":
            reason = reason or "identifier"
        elif left2.isdigit() or left2 in "%°" or (left2 == " " and before[-1:].isdigit()):
            pass  # a range dash
        elif left != "‐":
            sign, s = left, s - 1
    # scientific notation and what is glued on the right
    exponent: int | None = None
    mid = exp_sign = ""
    sup = False
    sci = _SCI.match(claim, e) or (_SCI_E.match(claim, e) if not reason else None)
    if sci and not reason:
        mid, exp_sign, ed = sci.group("mid"), sci.group("es"), sci.group("ed")
        sup = any(c in "⁰¹²³⁴⁵⁶⁷⁸⁹" for c in ed)
        exponent = int(ed.translate(_SUPERSCRIPT)) * (-1 if exp_sign and exp_sign != "+" else 1)
        value *= 10.0**exponent
        e = sci.end()
    elif raw == "10" and (power := _POWER10.match(claim, e)) and not reason:
        reason, e = "power_of_ten", power.end()
    rest = claim[e:]
    right = rest[:1]
    if reason is None and exponent is None:
        if right.isalpha():
            if re.match(r"(?:st|nd|rd|th)\b", rest):
                reason = "ordinal"
            elif re.match(r"s\b", rest) and len(raw) == 4 and 1500 <= value <= 2100:
                reason = "year"  # "1990s"
            else:
                glued = _UNIT.match(claim, e)
                if not (glued and glued.group("pre") == "") and not re.match(r"[x×](?=\s)", rest):
                    reason = "identifier"  # "3TC", "2b", "3D", "4T1"
        elif right in "′'’" and (rest[1:2].isalpha() or rest[1:2] in _DASHES):
            reason = "identifier"  # "5′-UTR"
        elif right in "′":
            reason = "identifier"
        elif right and right in "-‐" and rest[1:2].isalpha():
            word = re.match(r"[-‐]([A-Za-z]+)", rest)
            w = word.group(1) if word else ""
            if w.lower() != "fold" and w not in _HYPHEN_UNITS and w.lower() not in _HYPHEN_UNITS:
                reason = "compound"  # "two-tailed", "5-point", "2-t"
        elif right == "/" and re.match(r"/[0-9]{1,2}/[0-9]", rest):
            reason = "date"
    four_digits = separator == "" and exponent is None and decimals == 0 and len(clean) == 4 and not sign
    year_like = four_digits and 1500 <= value <= 2100
    if reason is None and year_like and not _is_quantity_after(claim, e) and not _N_CTX.search(claim[:s]):
        reason = "year"  # unless "2000 patients", "1500 mg", "n = 1980"
    if reason is None and value == 0:
        reason = "zero"
    num = Number(
        start=s,
        end=e,
        text=claim[s:e],
        value=-value if sign else value,
        decimals=decimals,
        separator=separator,
        decimal_mark=mark,
        leading_zero=lead,
        sign=sign,
        exponent=exponent,
        sci_middle=mid,
        exp_sign=exp_sign,
        exp_superscript=sup,
    )
    return _Tok(num, reason)


def _is_quantity_after(claim: str, e: int) -> bool:
    """A percent sign, a unit or a subject noun right after ``e``: "2000 patients" is a count, not a year."""
    return bool(_PERCENT.match(claim, e) or _UNIT.match(claim, e) or _SUBJECT_NEXT.match(claim, e))


_UNIT_WORDS = "one|two|three|four|five|six|seven|eight|nine"
_WORD_TOKEN = re.compile(
    rf"\b(?P<w>{_WORD_ALT})(?:(?P<hy>[-‐])(?P<u>{_UNIT_WORDS})\b)?(?P<fold>fold)?\b", re.IGNORECASE
)


def _word_tokens(claim: str) -> list[_Tok]:
    out = []
    for m in _WORD_TOKEN.finditer(claim):
        w = m.group("w").lower()
        if m.group("fold") and w not in _FOLD_WORDS:
            continue
        s, e = m.span()
        reason = None
        if m.group("u"):
            if _COUNT_WORDS[w] % 10 or _COUNT_WORDS[w] < 20:
                continue  # "two-one"? not a number
            value = float(_COUNT_WORDS[w] + _UNIT_WORDS.split("|").index(m.group("u").lower()) + 1)
            out.append(_Tok(Number(s, e, claim[s:e], value, word=True), "compound"))  # "Forty-two": kept, counted
            continue
        if claim[e : e + 1] in _DASHES and claim[e : e + 1] and not re.match(r"[-‐]fold\b", claim[e:], re.I):
            reason = "compound"  # "two-tailed", "twenty-one"
        elif s > 0 and claim[s - 1] in _DASHES:
            reason = "compound"
        elif re.match(rf"\s+(?:or|to)\s+(?:one|{_WORD_ALT})\b", claim[e:], re.I) or re.search(
            rf"\b(?:one|{_WORD_ALT})\s+(?:or|to)\s+$", claim[:s], re.I
        ):
            reason = "vague"  # "two or three"
        elif re.match(rf"\s+(?:{_WORD_ALT}|one|hundred|thousand|million|billion)\b", claim[e:], re.I) or re.search(
            rf"\b(?:{_WORD_ALT})\s+$", claim[:s], re.I
        ):
            reason = "compound"  # "twenty four", "two hundred"
        elif m.group("w")[0].isupper() and s > 0 and not re.search(r"(?:^|[.!?:;(\[\"“]\s*)$", claim[:s]):
            reason = "name"  # a capitalised number word inside a sentence: part of a name
        value = float(_COUNT_WORDS[w])
        out.append(_Tok(Number(s, e, claim[s:e], value, word=True, affix=claim[s:e][len(m.group("w")) :]), reason))
    return out


def _tokens(claim: str) -> list[_Tok]:
    toks: list[_Tok] = []
    has_dot = bool(_DOT_DECIMAL.search(claim))
    until = -1
    for m in _RAW.finditer(claim):
        if m.start() < until:
            continue
        tok = _digit_token(claim, m.start(), m.end(), m.group(), has_dot)
        until = tok.num.end
        toks.append(tok)
    toks.extend(_word_tokens(claim))
    toks.sort(key=lambda t: t.num.start)
    regions = _regions(claim)
    for t in toks:
        if t.reason is None:
            for s, e, why in regions:
                if s < t.num.end and t.num.start < e:
                    t.reason = why
                    break
    # a number joined to a never-changed one by a dash, slash or colon is not changed either ("1990–2009")
    for a, b in zip(toks, toks[1:], strict=False):
        gap = claim[a.num.end : b.num.start]
        if re.fullmatch(rf"\s?(?:{_RANGE_DASH}|/|:)\s?", gap) and (a.reason is None) != (b.reason is None):
            if (a.reason or b.reason) != "zero":  # "0–10 dB": the 10 may change
                (a if a.reason is None else b).reason = "partner"
        elif (
            a.reason is None
            and b.reason is None
            and not (a.num.word or b.num.word)
            and re.fullmatch(_RANGE_DASH, gap)
            and a.num.value > b.num.value
        ):
            a.reason = b.reason = "descending_pair"  # "2−1" (a power), "125.0−112.0 Ma": not a range to scale
        if not (a.num.word or b.num.word) and re.fullmatch(r"\s?[×x]\s?", gap):
            a.reason = a.reason or "dimensions"  # "1200×512×512 voxels", "a 3 x 3 matrix"
            b.reason = b.reason or "dimensions"
    for t in toks:
        if t.reason is None and not t.num.word and _in_formula(claim, t.num):
            t.reason = "math"
    if sum(t.reason == "math" for t in toks) >= 3:  # a formula, not a finding
        for t in toks:
            t.reason = t.reason or "formula"
    labels: dict[str, list[_Tok]] = {}
    for t in toks:
        if t.reason is not None or t.num.word:
            continue
        s, e = t.num.start, t.num.end
        if (
            claim[e : e + 1] == ")"
            and claim[:s].count("(") <= claim[:s].count(")")
            and claim[s - 1 : s] in ("", " ", ";")
        ):
            t.reason = "enumeration"  # "2) exclusion of ..."
            continue
        w = re.search(r"([A-Za-z][a-z]{2,})\s$", claim[:s])
        if w and t.num.is_integer and w.group(1).lower() not in _NOT_LABELS and _suffix(claim, t.num).kind == "":
            labels.setdefault(w.group(1).lower(), []).append(t)
    for group in labels.values():
        if len(group) > 1:  # "keratin 27, keratin 34", "day 29 ... day 113": names, not quantities
            for t in group:
                t.reason = "label"
    return toks


_MATH_NEIGHBOUR = re.compile(r"[A-Za-zα-ωΑ-Ω0-9+−\-×/=^*∫∑√]")
_NOT_LABELS = set(_STOP.split("|")) | {
    "only", "about", "approximately", "nearly", "almost", "around", "total", "all", "both", "each", "every",
    "among", "between", "after", "before", "during", "over", "under", "into", "within", "without", "per", "then",
    "also", "when", "where", "while", "whereas", "respectively", "mean", "median", "were", "than", "some",
    "least", "most", "more", "less", "fewer", "further", "another", "remaining", "other", "just", "its",
    "their", "our", "this", "those", "these", "found", "showed", "included", "identified", "reported", "yielded",
    "range", "ranged", "ranging", "value", "values", "rate", "rates", "ratio", "score", "scores", "level", "levels",
}  # fmt: skip


def _in_formula(claim: str, n: Number) -> bool:
    """Single-character neighbours on both sides, one of them not a Latin letter: "= 1 4 θ", "r ± 1 2 (". A
    unit after the number is not a neighbour ("t = 2 s")."""
    if _UNIT.match(claim, n.end):
        return False
    before = claim[: n.start].split()
    after = claim[n.end :].split()
    if not before or not after or not claim[n.end : n.end + 1].isspace():
        return False
    prev, nxt = before[-1], after[0]
    if len(prev) != 1 or len(nxt) != 1 or not (_MATH_NEIGHBOUR.match(prev) and _MATH_NEIGHBOUR.match(nxt)):
        return False
    return not (prev.isascii() and prev.isalpha() and nxt.isascii() and nxt.isalpha())


def _regions(claim: str) -> list[tuple[int, int, str]]:
    out = []
    for why, rx in _REGION_RULES:
        for m in rx.finditer(claim):
            if why == "name":
                if m.group("name").upper() in _NOT_NAMES:
                    continue
                out.append((m.start(), m.end(), why))
            elif why == "date" and ":" in m.group() and "ratio" in claim[max(0, m.start() - 30) : m.start()].lower():
                continue
            elif why in ("label", "reference"):
                # a list stops before a quantity: "Table 2, 40% of", "in this study 120 patients"
                items = list(re.finditer(r"S?[0-9]+[A-Za-z]?(?:\.[0-9]+)*", m.group()))
                end = m.end()
                for it in items:
                    if _is_quantity_after(claim, m.start() + it.end()):
                        end = m.start() + it.start()
                        break
                if items and end > m.start() + items[0].start():
                    out.append((m.start(), end, why))
            elif why == "citation" and _is_quantity_after(claim, m.end()):
                continue  # "Of 1500 patients"
            else:
                out.append((m.start(), m.end(), why))
    return out


# --------------------------------------------------------------------------------------------------------------
# Mentions


@dataclass
class _Analysis:
    claim: str
    tokens: list[_Tok]
    mentions: list[Mention]
    skipped: list[tuple[int, int, str]]  # changeable-looking numbers left alone, with a reason ("bound", ...)


@dataclass
class _Suffix:
    kind: str  # "", "percent", "fold", "unit", "scale"
    unit: str
    end: int


def _suffix(claim: str, n: Number) -> _Suffix:
    e = n.end
    if n.affix:
        return _Suffix("fold", "fold", e)
    if m := _PERCENT.match(claim, e):
        return _Suffix("percent", "%", m.end())
    if m := _FOLD.match(claim, e):
        return _Suffix("fold", "fold", m.end())
    if (m := _UNIT.match(claim, e)) and not (n.word and m.group("pre") == ""):
        unit = m.group("unit")
        if m.group("pre") in ("-", "‐") and unit not in _HYPHEN_UNITS:
            return _Suffix("", "", e)
        return _Suffix("unit", unit, m.end())
    if m := _SCALE.match(claim, e):
        return _Suffix("scale", m.group("unit"), m.end())
    return _Suffix("", "", e)


def _unit_dim(unit: str) -> str:
    u = unit.strip().lower()
    u = {"y": "year", "yr": "year", "yrs": "year", "h": "hour", "hr": "hour", "hrs": "hour", "d": "day"}.get(u, u)
    u = {"wk": "week", "wks": "week", "mo": "month", "s": "second", "sec": "second", "min": "minute"}.get(u, u)
    return u[:-1] if u.endswith("s") and u[:-1] in _TIME_WORDS else u


def _next(toks: list[_Tok], i: int) -> _Tok | None:
    return toks[i + 1] if i + 1 < len(toks) else None


def _at(claim: str, rx: re.Pattern[str], pos: int, tok: _Tok | None) -> bool:
    """``rx`` matches exactly the text between ``pos`` and the start of ``tok``."""
    return tok is not None and rx.fullmatch(claim, pos, tok.num.start) is not None


def _mention(
    claim: str,
    kind: str,
    parts: list[Part],
    end: int,
    unit: str,
    dim: str,
    qualifier: str = "",
    start: int | None = None,
    comparator_span: tuple[int, int] | None = None,
) -> Mention:
    start = min(p.number.start for p in parts) if start is None else start
    return Mention(
        kind=kind,
        start=start,
        end=end,
        text=claim[start:end],
        values=tuple(p.number.value for p in sorted(parts, key=lambda p: p.number.start)),
        unit=unit,
        qualifier=qualifier,
        parts=tuple(sorted(parts, key=lambda p: p.number.start)),
        dim=dim,
        comparator_span=comparator_span,
    )


def _analyse(claim: str) -> _Analysis:
    toks = _tokens(claim)
    mentions: list[Mention] = []
    skipped: list[tuple[int, int, str]] = []
    used: set[int] = set()
    idx = {id(t): k for k, t in enumerate(toks)}
    for i, t in enumerate(toks):
        if i in used or t.reason is not None:
            continue
        m = _classify(claim, toks, i, used, idx, skipped)
        if m is not None:
            mentions.append(m)
    mentions.extend(_phrase_mentions(claim, mentions, toks))
    for m in _arithmetic(claim, mentions, toks):
        mentions.remove(m)
        skipped.append((m.start, m.end, "arithmetic"))
        for t in toks:
            if t.num.start == m.parts[0].number.start and t.reason is None:
                t.reason = "arithmetic"
    if any(m.kind == "p_value" for m in mentions):
        # a test statistic goes with the p-value next to it: "t(50) = 0.85, p = 0.04" would not add up
        for m in [m for m in mentions if m.kind == "statistic" and m.unit in _TEST_STATS]:
            mentions.remove(m)
            for t in toks:
                if t.num.start == m.parts[0].number.start:
                    t.reason = "test_statistic"
    mentions.sort(key=lambda m: m.start)
    return _Analysis(claim, toks, mentions, skipped)


def _sum_relation(v: float, others: list[float], targets: tuple[float, ...] = (), tol: float = 1e-9) -> bool:
    """``v`` is a sum of 2–4 of ``others``, or ``v`` plus 1–3 of them is another one or a target (100%)."""
    others = others[:14]
    for k in (2, 3, 4):
        for combo in itertools.combinations(others, k):
            if abs(sum(combo) - v) <= tol * k:
                return True
    for k in (1, 2, 3):
        for idx in itertools.combinations(range(len(others)), k):
            total = v + sum(others[j] for j in idx)
            rest = [w for j, w in enumerate(others) if j not in idx]
            if any(abs(total - w) <= tol * (k + 1) for w in [*rest, *targets]):
                return True
    return False


_COUNT_PCT = re.compile(
    rf"(?<![\w.])(?P<x>[0-9]+|one|{_WORD_ALT})\b(?:\s+[A-Za-z][\w\-]*){{0,3}}\s?\(\s?(?P<p>[0-9]+(?:\.[0-9]+)?)\s?%\s?\)",
    re.IGNORECASE,
)


def _enumerated(claim: str, end: int) -> int:
    """The number of items of a list in parentheses or after a colon that starts within 60 characters after
    ``end`` ("(A, B, and C)", ": A; B; C"), or 0."""
    m = re.compile(r"[^.;:()]{0,60}?(?P<open>[(:])").match(claim, end)
    if m is None:
        return 0
    rest = claim[m.end() :]
    if m.group("open") == "(":
        depth, stop = 1, len(rest)
        for k, c in enumerate(rest):
            depth += (c == "(") - (c == ")")
            if depth == 0:
                stop = k
                break
        body = rest[:stop]
    else:
        body = re.split(r"\.(?:\s|$)", rest, maxsplit=1)[0]
    body = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", body)  # nested parentheticals are not items
    sep = r";" if ";" in body else r",|\band\b|\bor\b"
    items = [x for x in re.split(sep, body) if x.strip(" ,")]
    return len(items) if len(items) >= 2 else 0


def _arithmetic(claim: str, mentions: list[Mention], toks: list[_Tok]) -> list[Mention]:
    """Mentions whose value adds up with other numbers of the claim or repeats one ("24 genes, 14 up-regulated
    and 10 down", "16.7%, 33.3% and 50.0%", "(n = 11) or (n = 6) or both (n = 3)" of "Twenty"), is the total another
    count's percentage was computed from ("Among 55 patients, ... 34 (61.8%)"), is the length of a span of
    years in the claim ("over the 20 y from 1990 to 2009"), or is a percentage written
    with a count that cannot change ("only one case (6%)"): changing it alone would leave the claim's own
    arithmetic wrong."""
    counts: list[tuple[int, float]] = []
    pcts: list[tuple[int, float]] = []
    totals: list[float] = []
    for m in mentions:
        for p in m.parts:
            if m.dim == "count" and p.role in ("value", "total") and p.number.is_integer:
                counts.append((p.number.start, p.number.value))
            if (m.dim == "%" and p.role in _HEADLINE) or p.role == "derived":
                pcts.append((p.number.start, p.number.value))
            if p.role == "total":
                totals.append(p.number.value)
    counts += [(t.num.start, t.num.value) for t in toks if t.reason == "compound" and t.num.value >= 20]
    paired: set[int] = set()  # percentages written with their count: "one case (6%)", "34 (61.8%)"
    for pm in _COUNT_PCT.finditer(claim):
        word = pm.group("x").lower()
        x = 1.0 if word == "one" else float(_COUNT_WORDS.get(word) or pm.group("x"))
        pct = float(pm.group("p"))
        decimals = len(pm.group("p").partition(".")[2])
        paired.add(pm.start("p"))
        if pct > 0:
            y = round(100 * x / pct)
            if y >= x and y > 0 and abs(100 * x / y - pct) <= 0.5 * 10.0**-decimals + 1e-9:
                totals.append(float(y))
    years = sorted(t.num.value for t in toks if t.reason == "year")
    spans = {b - a for a, b in itertools.combinations(years, 2)}
    out = []
    for m in mentions:
        primary = next((p.number for p in m.parts if p.role in ("value", "low")), None)
        if primary is None or m.kind == "range":
            continue
        if m.dim == "unit:year" and any(abs(primary.value - d) <= 1 for d in spans):
            out.append(m)  # "over the 20 y from 1990 to 2009"
            continue
        if m.dim == "count" and len(m.parts) == 1 and _enumerated(claim, m.end) == primary.value:
            out.append(m)  # "five synapomorphies (characters 16.1, 19.1, 28.1, 31.2, and 72.3)"
            continue
        if m.dim == "count":
            others = [w for s, w in counts if s != primary.start]
            if (
                _sum_relation(primary.value, others)
                or (len(m.parts) == 1 and primary.value in totals)
                or primary.value in others  # one count written twice: "240 participants (n = 240)"
            ):
                out.append(m)
        elif m.dim == "%":
            others = [w for s, w in pcts if s != primary.start]
            if (len(m.parts) == 1 and primary.start in paired) or (
                others and _sum_relation(primary.value, others, (100.0,), tol=0.11)
            ):
                out.append(m)
    return out


def _classify(
    claim: str,
    toks: list[_Tok],
    i: int,
    used: set[int],
    idx: dict[int, int],
    skipped: list[tuple[int, int, str]],
) -> Mention | None:
    t = toks[i]
    n = t.num
    before = claim[max(0, n.start - 80) : n.start]

    def skip(why: str, *others: _Tok | None) -> None:
        t.reason = why
        for o in others:
            if o is not None:
                o.reason = o.reason or why
        skipped.append((n.start, n.end, why))

    # -- p-values
    if (pm := _P_CTX.search(before)) and not n.word:
        used.add(i)
        pmen = _p_mention(claim, n, pm, n.start - len(before))
        if pmen is None:
            skip("p_threshold")
        return pmen
    if _DISPERSION_CTX.search(before):
        skip("dispersion")
        return None
    if _CI_LABEL_CTX.search(before):  # the bounds of a CI whose estimate is not right before it
        nxt = _next(toks, i)
        skip("ci_bounds", nxt if _at(claim, _CI_CONN, _suffix(claim, n).end, nxt) else None)
        return None
    approx = bool(_APPROX_BEFORE.search(before))
    suf = _suffix(claim, n)
    nxt = _next(toks, i)
    if _BOUND_BEFORE.search(before) or _BOUND_AFTER.match(claim, suf.end):
        # a bounded range end ("above 10–20 mg") is as undecidable as a bound
        skip("bound", nxt if _at(claim, _DASH_CONN, suf.end, nxt) else None)
        return None
    ratio_ctx = _RATIO_CTX.search(before)
    stat_ctx = _STAT_CTX.search(before)
    qual = "approx" if approx else ""

    # -- ratio "2:1"
    if nxt is not None and claim[n.end : nxt.num.start] == ":" and not n.word and nxt.reason is None:
        if "ratio" in claim[max(0, n.start - 40) : n.start].lower():
            used.update({i, i + 1})
            primary, fixed = (nxt.num, n) if n.value == 1 else (n, nxt.num)
            parts = [Part(primary, "value"), Part(fixed, "total_ratio")]
            return _mention(claim, "ratio", parts, nxt.num.end, ":", "ratio:colon", qual)
        skip("time", nxt)
        return None

    # -- ranges: "20–35%", "from 20% to 35%", "between 10 and 20 mg", "0.5 to 2 h"
    if nxt is not None and nxt.reason is None and not n.word and not nxt.num.word:
        dash = _at(claim, _DASH_CONN, suf.end, nxt)
        to = _at(claim, _TO_CONN, suf.end, nxt)
        between = _at(claim, _AND_CONN, suf.end, nxt) and re.search(r"\bbetween\s+$", before, re.I)
        if dash or to or between:
            suf2 = _suffix(claim, nxt.num)
            compatible = suf.kind == "" or (suf.kind == suf2.kind and _unit_dim(suf.unit) == _unit_dim(suf2.unit))
            ordered = n.value < nxt.num.value or not dash
            if compatible and ordered and suf2.kind != "fold" and not _BOUND_AFTER.match(claim, suf2.end):
                used.update({i, i + 1})
                unit = suf2.unit if suf2.kind else suf.unit
                kind2 = suf2.kind or suf.kind
                dim = "%" if kind2 == "percent" else (f"unit:{_unit_dim(unit)}" if kind2 == "unit" else "number")
                if ratio_ctx:
                    dim = "ratio"
                parts = [Part(n, "low"), Part(nxt.num, "high")]
                return _mention(claim, "range", parts, suf2.end, unit, dim, qual)
    if nxt is not None and nxt.reason is None and nxt.num.word != n.word and _at(claim, _DASH_CONN, suf.end, nxt):
        skip("vague", nxt)
        return None

    # -- "x of y", "x/y", with an optional percentage: "12 of 15 (80%)", "39/55, 71%", "Eighteen out of 55"
    if nxt is not None and nxt.reason is None and suf.kind == "" and n.is_integer and nxt.num.is_integer:
        of = _at(claim, _OF_CONN, n.end, nxt)
        slash = not n.word and not nxt.num.word and _at(claim, _SLASH_CONN, n.end, nxt)
        if (of or slash) and n.value <= nxt.num.value and _suffix(claim, nxt.num).kind in ("", "scale"):
            if re.search(r"(?:%|percent|per\s+cent)\s?[(\[]\s?$", claim[: n.start]):
                skip("percent_companion", nxt)  # "fifty-two percent (12 of 23)": the percentage is not changeable
                return None
            used.update({i, i + 1})
            parts = [Part(n, "value"), Part(nxt.num, "total")]
            end = nxt.num.end
            k = i + 2
            pct = toks[k] if k < len(toks) else None
            if pct is not None and pct.reason is None and _at(claim, _PCT_COMPANION, end, pct):
                ps = _suffix(claim, pct.num)
                if ps.kind == "percent" and not pct.num.word:
                    used.add(k)
                    parts.append(Part(pct.num, "derived"))
                    end = ps.end
            return _mention(claim, "sample_size", parts, end, "", "count", qual)

    # -- "P% (x/y)": the count changes, the percentage follows
    if suf.kind == "percent" and nxt is not None and i + 2 < len(toks):
        x, y = nxt, toks[i + 2]
        if (
            _at(claim, re.compile(r"\s?\(\s?"), suf.end, x)
            and x.reason is None
            and y.reason is None
            and x.num.is_integer
            and y.num.is_integer
            and (_at(claim, _SLASH_CONN, x.num.end, y) or _at(claim, _OF_CONN, x.num.end, y))
            and x.num.value <= y.num.value
        ):
            used.update({i, i + 1, i + 2})
            parts = [Part(n, "derived"), Part(x.num, "value"), Part(y.num, "total")]
            return _mention(claim, "percent", parts, y.num.end, "%", "%", qual)

    # -- "count (P%)": "12 (66.7%) patients", "34 (61.8%) were females", "Twenty individuals (47.6%)"
    if (
        suf.kind == ""
        and n.is_integer
        and nxt is not None
        and nxt.reason is None
        and not nxt.num.word
        and _at(claim, _PCT_COMPANION, n.end, nxt)
        and not re.search(r"\bper\b", claim[n.end : nxt.num.start])
    ):
        ps = _suffix(claim, nxt.num)
        if ps.kind == "percent" and re.match(r"\s?\)", claim[ps.end :]) and "(" in claim[n.end : nxt.num.start]:
            used.update({i, i + 1})
            parts = [Part(n, "value"), Part(nxt.num, "derived")]
            return _mention(claim, "sample_size", parts, ps.end, "", "count", qual)

    # -- the quantity's kind; a bare number in a list takes the list's unit ("7.9 and 8.3 h", "40,1 vs. 38,7 months")
    if suf.kind == "" and not n.word and not ratio_ctx:
        inherited = _list_suffix(claim, toks, i)
        if inherited is not None:
            suf = _Suffix(inherited.kind, inherited.unit, suf.end)
    if ratio_ctx and suf.kind in ("", "fold") and not n.word:
        kind, unit, dim = "ratio", (ratio_ctx.group("abbr") or ratio_ctx.group("word") or "").strip(), "ratio"
    elif suf.kind == "percent":
        kind, unit, dim = "percent", "%", "%"
    elif suf.kind == "fold":
        kind, unit, dim = "fold_change", "fold", "fold"
    elif suf.kind == "unit" and n.word:
        kind, unit, dim = "count_word", suf.unit, f"unit:{_unit_dim(suf.unit)}"
    elif suf.kind == "unit":
        kind, unit, dim = _unit_kind(suf.unit), suf.unit, f"unit:{_unit_dim(suf.unit)}"
    elif _N_CTX.search(before) and not n.word:
        kind, unit, dim = "sample_size", "n", "count"
    elif stat_ctx and not n.word:
        sym = stat_ctx.group("sym")
        if len(sym) == 1 and sym.isascii() and sym.islower() and sym not in "rtzdb":
            skip("parameter")  # "k = 7", "m = 2": a model's setting, not a finding
            return None
        kind, unit, dim = "statistic", sym, f"stat:{sym.lower()}"
    elif n.word:
        kind, unit, dim = "count_word", "", "count"
    elif suf.kind == "scale":
        kind, unit, dim = "cardinal", suf.unit, f"count:{suf.unit}"
    elif n.is_integer and _SUBJECT.match(claim, n.end):
        kind, unit, dim = "sample_size", "", "count"
    elif n.is_integer:
        kind, unit, dim = "cardinal", "", "count"
    else:
        kind, unit, dim = "decimal", "", "number"
    used.add(i)
    parts = [Part(n, "value")]
    end = suf.end

    # -- companions after the value, in any order: CI (changed with it), range/IQR (kept; the value stays
    # inside), SD (kept): "16.6 y (95% CI: 14.4–19.2)", "75.0 (SD = 22.9; range = 14.0–100.0)", "12.3 ± 1.2 mg"
    k = i + 1
    seen: set[str] = set()
    while not n.word and k < len(toks):
        while k < len(toks) and toks[k].num.start < end:
            k += 1
        if k >= len(toks):
            break
        bare_roles = ("ci_low", "ci_high") if kind == "ratio" else ("bound_low", "bound_high")
        found = None
        for rx, roles in (
            (_CI_AFTER, ("ci_low", "ci_high")),
            (_SPREAD_AFTER, ("bound_low", "bound_high")),
            (_BARE_INTERVAL, bare_roles),  # "199 (167–278)", "OR 1.8 (1.2–2.4)"
        ):
            cm = rx.match(claim, end)
            if not cm or "ci_low" in seen or "bound_low" in seen:
                continue
            j = k
            while j < len(toks) and toks[j].num.start < cm.end():
                j += 1
            lo = toks[j] if j < len(toks) else None
            hi = toks[j + 1] if j + 1 < len(toks) else None
            if lo is None or hi is None or lo.num.start != cm.end() or lo.num.word or hi.num.word:
                continue
            if not _at(claim, _CI_CONN, _suffix(claim, lo.num).end, hi):
                continue
            hi_end = _suffix(claim, hi.num).end
            if rx is _BARE_INTERVAL and not (
                re.match(r"\s?[)\]]", claim[hi_end:]) and lo.num.value <= n.value <= hi.num.value
            ):
                continue
            found = (j, lo, hi, roles, hi_end)
            break
        if found is not None:
            j, lo, hi, roles, hi_end = found
            if lo.reason or hi.reason or not (lo.num.value <= n.value <= hi.num.value):
                skip("inconsistent_interval", lo, hi)
                return None
            used.update({j, j + 1})
            parts += [Part(lo.num, roles[0]), Part(hi.num, roles[1])]
            end = hi_end
            seen.add(roles[0])
            k = j + 2
            continue
        sd = _SD_AFTER.match(claim, end) or _PLUS_MINUS.match(claim, end)
        if "sd" in seen or not sd or toks[k].num.start != sd.end() or toks[k].num.word:
            break
        used.add(k)
        toks[k].reason = toks[k].reason or "dispersion"
        parts.append(Part(toks[k].num, "sd"))
        s2 = _suffix(claim, toks[k].num)
        end = s2.end
        if suf.kind == "" and s2.kind == "unit":  # "12.3 ± 1.2 mg"
            kind, unit, dim = _unit_kind(s2.unit), s2.unit, f"unit:{_unit_dim(s2.unit)}"
        seen.add("sd")
        k += 1

    if kind in ("ratio", "fold_change") and n.value == 1:
        skip("no_direction")
        return None
    if kind in ("sample_size", "cardinal") and len(parts) == 1 and n.value == 1:
        skip("singular")  # "1 patient was" cannot become "3 patient was"
        return None
    if kind == "percent" and n.value == 100 and _ALL.search(claim):
        skip("absolute")  # "All of them (100%)": 40% would contradict "all"
        return None
    return _mention(claim, kind, parts, end, unit, dim, qual)


_LIST_CONN = re.compile(r"\s?,\s?(?:and\s+|or\s+)?|\s+(?:and|or|vs\.?|versus)\s+")
_ALL = re.compile(r"\b(?:all|every|each|entire|whole|complete(?:ly)?|none|no)\b", re.IGNORECASE)


def _list_suffix(claim: str, toks: list[_Tok], i: int) -> _Suffix | None:
    """The unit or percent sign that ends a list of bare numbers starting at ``toks[i]``, if any."""
    k = i
    while k + 1 < len(toks) and k - i < 8:
        a, b = toks[k], toks[k + 1]
        if b.reason is not None or b.num.word or not _at(claim, _LIST_CONN, a.num.end, b):
            return None
        suf = _suffix(claim, b.num)
        if suf.kind in ("unit", "percent"):
            return suf
        if suf.kind:
            return None
        k += 1
    return None


def _unit_kind(unit: str) -> str:
    return "dose" if re.split(r"\s?/", unit)[0] in _DOSE_UNITS else "measurement"


def _p_mention(claim: str, n: Number, pm: re.Match[str], offset: int) -> Mention | None:
    cmp = pm.group("cmp")
    cmp_span = (offset + pm.start("cmp"), offset + pm.end("cmp"))
    norm = {"<=": "≤", "=<": "≤", "⩽": "≤", ">=": "≥", "=>": "≥", "⩾": "≥"}.get(cmp, cmp)
    if norm in ("of", "was", "were", ":"):
        norm = "="
    start = offset + pm.start()
    parts = [Part(n, "value")]
    v = n.value
    if v <= 0 or v >= 1 or v == 0.05:
        return None
    if norm in ("<", "≤") and (n.exponent is not None or 2 * v >= 0.05):
        return None
    if norm in (">", "≥") and (n.exponent is not None or v < 0.1):
        return None
    return _mention(claim, "p_value", parts, n.end, "p", "p", norm, start=start, comparator_span=cmp_span)


# -- number words that are not counts: multipliers and fractions

_MULTIPLIERS = {
    "twice": 2,
    "thrice": 3,
    "doubled": 2,
    "tripled": 3,
    "quadrupled": 4,
    "doubling": 2,
    "tripling": 3,
    "quadrupling": 4,
}
_MULT_FORMS = {
    "twice": {2: "twice", 3: "three times", 4: "four times"},
    "thrice": {2: "twice", 3: "thrice", 4: "four times"},
    "doubled": {2: "doubled", 3: "tripled", 4: "quadrupled"},
    "tripled": {2: "doubled", 3: "tripled", 4: "quadrupled"},
    "quadrupled": {2: "doubled", 3: "tripled", 4: "quadrupled"},
    "doubling": {2: "doubling", 3: "tripling", 4: "quadrupling"},
    "tripling": {2: "doubling", 3: "tripling", 4: "quadrupling"},
    "quadrupling": {2: "doubling", 3: "tripling", 4: "quadrupling"},
}
_MULT_RE = re.compile(rf"\b(?P<w>{_alt(_MULTIPLIERS)})\b(?![-‐])", re.IGNORECASE)
_FRACTIONS = {"half": 1 / 2, "third": 1 / 3, "quarter": 1 / 4, "fifth": 1 / 5, "thirds": 2 / 3, "quarters": 3 / 4}
_FRACTION_RE = re.compile(
    r"(?<![\w-])(?:(?P<art>a|one|One|A)(?P<sep>[\s-]))?(?P<den>half|third|quarter|fifth)(?=\s+(?:of|the|as)\b)"
    r"|(?<![\w-])(?P<num>two|three|Two|Three)(?P<sep2>[\s-])(?P<den2>thirds|quarters)(?=\s+(?:of|the)\b)"
)


def _phrase_mentions(claim: str, mentions: list[Mention], toks: list[_Tok]) -> list[Mention]:
    taken = [(m.start, m.end) for m in mentions] + [(t.num.start, t.num.end) for t in toks if t.reason]
    out: list[Mention] = []

    def free(s: int, e: int) -> bool:
        return all(e <= a or b <= s for a, b in taken)

    for m in _MULT_RE.finditer(claim):
        before = claim[: m.start()]
        if free(*m.span()) and not _BOUND_BEFORE.search(before):
            n = Number(m.start(), m.end(), m.group(), float(_MULTIPLIERS[m.group("w").lower()]), word=True)
            out.append(_mention(claim, "multiplier_word", [Part(n, "value")], m.end(), "", "multiplier"))
    for m in _FRACTION_RE.finditer(claim):
        den = m.group("den") or m.group("den2")
        if not free(*m.span()) or _BOUND_BEFORE.search(claim[: m.start()]):
            continue
        if (
            den == "half"
            and m.group("art") is None
            and re.search(r"\b(?:first|second|the|latter|former)\s+$", claim[: m.start()], re.I)
        ):
            continue
        if den != "half" and m.group("art") is None and m.group("num") is None:
            continue  # "the third" is an ordinal
        value = _FRACTIONS[den] if m.group("num") is None else (2 / 3 if den == "thirds" else 3 / 4)
        n = Number(m.start(), m.end(), m.group(), value, word=True)
        out.append(_mention(claim, "fraction_word", [Part(n, "value")], m.end(), "", "fraction"))
    return out


# --------------------------------------------------------------------------------------------------------------
# Values and formats


def _round(x: float, decimals: int) -> float:
    q = Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(x)).quantize(q, rounding=ROUND_HALF_UP))


def _quantize(n: Number, x: float, percent: bool = False) -> float:
    """``x`` at the precision ``n`` is written with."""
    if n.word:
        return float(round(x))
    if n.exponent is not None:
        return _round(x / 10.0**n.exponent, n.decimals) * 10.0**n.exponent
    if n.decimals:
        return _round(x, n.decimals)
    step = _step(n, percent)
    return float(math.floor(abs(x) / step + 0.5) * step) * (1 if x >= 0 else -1)


def _format(n: Number, x: float, exponent: int | None = None, decimals: int | None = None) -> str:
    """``x`` written the way ``n`` is."""
    if n.word:
        word = _WORD_OF.get(int(round(x)), "")
        if n.affix:
            word = word + n.affix
        return word[:1].upper() + word[1:] if n.text[:1].isupper() else word
    d = n.decimals if decimals is None else decimals
    if n.exponent is not None:
        e = n.exponent if exponent is None else exponent
        mant = _format_plain(abs(x) / 10.0**e, d, "", n.decimal_mark, True)
        exp = str(abs(e))
        if n.exp_superscript:
            exp = exp.translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
        es = n.exp_sign if e < 0 else ("+" if n.exp_sign == "+" else "")
        if e < 0 and not es:
            es = "−"
        return f"{n.sign if x < 0 else ''}{mant}{n.sci_middle}{es}{exp}"
    body = _format_plain(abs(x), d, n.separator, n.decimal_mark, n.leading_zero)
    return f"{(n.sign or '-') if x < 0 else ''}{body}"


def _format_plain(x: float, decimals: int, separator: str, mark: str, leading_zero: bool) -> str:
    text = f"{_round(x, decimals):.{decimals}f}"
    whole, _, frac = text.partition(".")
    if separator and len(whole) > 3:
        whole = f"{int(whole):,}".replace(",", separator)
    if not leading_zero and whole == "0" and frac:
        whole = ""
    return whole + (mark + frac if frac else "")


def _order(x: float) -> int:
    return math.floor(math.log10(abs(x))) if x else 0


_SAME_MAGNITUDE = math.log10(2.5) + 1e-9  # |log10(new / old)|: new/old within [0.4, 2.5]
_FACTORS_SAME = (0.25, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 1.25, 1.3, 1.4, 1.5, 1.6, 1.75, 2.0, 2.5, 3.0, 4.0)
_FACTORS_ANY = (0.1, 0.15, 0.2) + _FACTORS_SAME + (5.0, 6.0, 8.0, 10.0)
_CHANGED = ("value", "low", "high", "ci_low", "ci_high")
_HEADLINE = ("value", "low", "high")
_REAL_SKIPS = set(_words("bound arithmetic singular vague percent_companion absolute compound test_statistic"))
_TEMPERATURES = {"°C", "℃", "°F"}
_TEST_STATS = {"t", "T", "F", "z", "Z", "χ2", "χ²", "X2", "U", "W", "H", "test", "chi2", "D"}
_STAT_PM1 = {"r", "ρ", "rho", "τ", "tau", "R", "rs", "rp", "φ", "phi"}
_STAT_01 = set(_words("r2 r² R2 R² κ kappa icc ICC auc AUC auroc AUROC α CI RI RC h2 h² c"))


@dataclass
class _Context:
    claim: str
    all_values: list[tuple[int, float]]  # (start, value) of every number in the claim
    others: dict[str, list[tuple[int, float]]]  # dim -> headline numbers of the mentions
    magnitude: str


def _context(an: _Analysis, magnitude: str) -> _Context:
    others: dict[str, list[tuple[int, float]]] = {}
    for m in an.mentions:
        for p in m.parts:
            if p.role in _HEADLINE:
                others.setdefault(m.dim, []).append((p.number.start, p.number.value))
    for t in an.tokens:  # quantities left alone still fix the order ("had two, ... three or more")
        if t.reason in _REAL_SKIPS and not (t.reason == "compound" and t.num.value < 20):
            suf = _suffix(an.claim, t.num)
            if suf.kind == "percent":
                dim = "%"
            elif suf.kind == "unit":
                dim = f"unit:{_unit_dim(suf.unit)}"
            else:
                dim = "count" if t.num.is_integer else "number"
            others.setdefault(dim, []).append((t.num.start, t.num.value))
    values = [(t.num.start, t.num.value) for t in an.tokens]
    for m in an.mentions:
        if m.kind in ("multiplier_word", "fraction_word"):
            values.append((m.start, m.values[0]))
    return _Context(an.claim, values, others, magnitude)


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _fits_claim(ctx: _Context, m: Mention, n: Number, new: float, old: float) -> bool:
    """Not equal to a number of the claim outside this quantity; same order as the other quantities of its dim
    ("1–2 y" may become "2–4 y": inside one range the order rule applies instead)."""
    for s, w in ctx.all_values:
        if not m.start <= s < m.end and _same(new, w):
            return False
    for s, w in ctx.others.get(m.dim, []):
        if m.start <= s < m.end:
            continue
        if (old < w) != (new < w) or (old > w) != (new > w):
            return False
    return True


def _side(x: float) -> int:
    return (x > 1) - (x < 1)


def _valid(m: Mention, new: dict[int, float], ctx: _Context) -> bool:
    """The rules every changed quantity follows (module docstring)."""
    min_rel = 0.3 if m.qualifier == "approx" else 0.2
    by_start = {p.number.start: p for p in m.parts}
    for s, x in new.items():
        p = by_start[s]
        n, old = p.number, p.number.value
        if p.role in _CHANGED:
            if old == 0:
                if x != 0:
                    return False
                continue
            if x == 0 or (x > 0) != (old > 0) or _same(x, old):
                return False
            rel = abs(x - old) / abs(old)
            if rel < (min_rel if p.role in _HEADLINE else 0.1):
                return False
            if n.exponent is not None and not 1 <= abs(x) / 10.0**n.exponent < 10:
                return False  # the mantissa stays a mantissa: "3.2 × 10−4" -> "5.6 × 10−4"
            if ctx.magnitude == "same" and abs(math.log10(x / old)) > _SAME_MAGNITUDE:
                return False
            if m.dim in ("ratio", "fold") and _side(x) != _side(old):
                return False
            if m.dim in ("ratio", "fold") and p.role == "value":
                effect = abs(math.log(x)) / abs(math.log(old))
                if not 0.35 <= effect <= 2.5 or 0.95 <= x <= 1.05:
                    return False
            if m.kind in ("decimal", "statistic") and 0 < abs(old) < 1 and not 0 < abs(x) < 1:
                return False  # proportions, probabilities, correlations, indices stay below 1
            if m.unit in _TEMPERATURES and not 0.7 <= x / old <= 1.3:
                return False  # 37 °C -> 48 °C, not 111 °C
            if m.kind == "statistic":
                if m.unit in _STAT_PM1 and abs(x) > 1:
                    return False
                if m.unit in _STAT_01 and abs(old) <= 1 and not 0 < x < 1:
                    return False
            if (
                n.is_integer
                and x == 1
                and (m.kind in ("sample_size", "cardinal", "count_word") or m.unit in _TIME_WORDS.values())
            ):
                return False
            if not _fits_claim(ctx, m, n, x, old):
                return False
        elif p.role == "derived":
            if _same(x, old) or x <= 0 or (old <= 100 and x >= 100):
                return False
            if not _fits_claim(ctx, m, n, x, old):
                return False
        if (m.dim == "%" or p.role == "derived") and old <= 100 and not 0 < x < 100:
            return False
    # order inside the mention: range ends, estimate within its CI / range, x < total
    vals = {p.number.start: new.get(p.number.start, p.number.value) for p in m.parts}
    roles = {p.role: p.number.start for p in m.parts}
    for a, b in (
        ("low", "high"),
        ("ci_low", "value"),
        ("value", "ci_high"),
        ("bound_low", "value"),
        ("value", "bound_high"),
    ):
        if a in roles and b in roles:
            old_a = by_start[roles[a]].number.value
            old_b = by_start[roles[b]].number.value
            if old_a < old_b and not vals[roles[a]] < vals[roles[b]]:
                return False
            if old_a <= old_b and not vals[roles[a]] <= vals[roles[b]]:
                return False
    return not ("total" in roles and "value" in roles and vals[roles["value"]] >= vals[roles["total"]])


def _render(claim: str, m: Mention, new: dict[int, float], texts: dict[int, str] | None = None) -> str:
    """The mention's text with the new values (and ``texts``: literal replacements by start offset)."""
    pieces: list[tuple[int, int, str]] = []
    for p in m.parts:
        n = p.number
        if texts and n.start in texts:
            pieces.append((n.start, n.end, texts[n.start]))
        elif n.start in new:
            x = new[n.start]
            pieces.append((n.start, n.end, _format(n, x)))
    # "1 week" -> "3 weeks"
    value = next((p.number for p in m.parts if p.role == "value"), None)
    if value is not None and value.value == 1 and value.start in new and m.unit in _TIME_WORDS:
        um = re.compile(rf"\b{m.unit}\b").search(claim, value.end, m.end)
        if um and claim[value.end : um.start()].strip() == "":
            pieces.append((um.start(), um.end(), _TIME_WORDS[m.unit]))
    out = []
    pos = m.start
    for s, e, text in sorted(pieces):
        out.append(claim[pos:s])
        out.append(text)
        pos = e
    out.append(claim[pos : m.end])
    return "".join(out)


def _factor_options(m: Mention, ctx: _Context) -> list[str]:
    changed = [p for p in m.parts if p.role in _CHANGED]
    derived = [p for p in m.parts if p.role == "derived"]
    total = next((p.number for p in m.parts if p.role == "total"), None)
    primary = next(p.number for p in m.parts if p.role in ("value", "low"))
    factors = _FACTORS_ANY if ctx.magnitude == "any" else _FACTORS_SAME
    targets: list[dict[int, float]] = []
    for f in factors:
        targets.append({p.number.start: _quantize(p.number, p.number.value * f, m.dim == "%") for p in changed})
    if len(changed) == 1 and primary.is_integer and (primary.word or abs(primary.value) <= 20):
        pool: Iterable[int]
        if primary.word and primary.affix:
            pool = range(2, 11)  # "twofold" … "tenfold"
        elif primary.word:
            pool = [v for v in _WORD_OF if (v < 20) == (primary.value < 20)]
        else:
            step = _step(primary)
            pool = range(step, int(abs(primary.value)) * 2 + 6, step)
        sign = -1 if primary.value < 0 else 1
        targets += [{primary.start: float(sign * v)} for v in pool]
    seen: set[str] = set()
    out: list[str] = []
    for new in targets:
        if primary.word and (
            _WORD_OF.get(int(new[primary.start])) is None or (new[primary.start] < 20) != (primary.value < 20)
        ):
            continue
        ok = True
        for p in derived:
            pct = _derived_percent(p.number, primary, total, new[primary.start])
            if pct is None:
                ok = False
                break
            new = {**new, p.number.start: _quantize(p.number, pct)}
        if not ok or not _valid(m, new, ctx):
            continue
        text = _render(ctx.claim, m, new)
        if text not in seen and text != m.text:
            seen.add(text)
            out.append(text)
    return out


def _derived_percent(pct: Number, x: Number, total: Number | None, x_new: float) -> float | None:
    """The percentage that goes with the new count: 100·x'/y with the stated total y, or with the total the
    count and percentage imply ("12 (66.7%)": y = 18); the old percentage scaled by x'/x when neither fits."""
    tol = 0.5 * 10.0**-pct.decimals + 1e-9
    if total is not None and total.value > 0:
        if abs(100 * x.value / total.value - pct.value) <= 1.0:  # authors round loosely ("12/15 (81%)")
            return 100 * x_new / total.value
        return pct.value * x_new / x.value
    if pct.value > 0:
        y = round(100 * x.value / pct.value)
        if y >= x.value and abs(100 * x.value / y - pct.value) <= tol:
            return 100 * x_new / y if x_new < y else None
    return pct.value * x_new / x.value


_P_NICE_LOW = (0.002, 0.003, 0.004, 0.006, 0.008, 0.01, 0.012, 0.015, 0.02, 0.023, 0.03, 0.034, 0.04)
_P_NICE_HIGH = (0.06, 0.07, 0.08, 0.09, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4)
_P_MULT = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 2.0, 2.5, 3.0, 4.0, 5.0, 10.0)


def _sig_digits(n: Number) -> int:
    digits = n.text
    if n.exponent is not None:
        digits = digits[: len(digits) - len(n.sci_middle) - len(n.exp_sign) - len(str(abs(n.exponent)))]
    digits = re.sub(r"[^0-9]", "", digits).lstrip("0")
    return max(1, len(digits))


def _p_options(m: Mention, ctx: _Context) -> list[str]:
    n = m.parts[0].number
    v = n.value
    candidates: list[tuple[float, str]] = []
    if m.qualifier in ("=",):
        if n.exponent is not None:
            for k in (-3, -2, -1, 1, 2, 3):
                x = v * 10.0**k
                candidates.append((x, _format(n, x, exponent=n.exponent + k)))
        else:
            sig = _sig_digits(n)
            for f in _P_MULT:
                x = v * f
                d = max(1, sig - 1 - _order(x))
                x = _round(x, d)
                while d > 1 and _same(_round(x, d - 1), x):  # "0.0630" -> "0.063"
                    d -= 1
                if d > max(4, n.decimals) or x <= 0:
                    continue
                candidates.append((x, _format(n, x, decimals=d)))
    elif m.qualifier in ("<", "≤"):
        for x in _P_NICE_LOW:
            if 2 * v <= x < 0.05:
                candidates.append((x, _format(n, x, decimals=len(f"{x}".split(".")[1]))))
    else:
        for x in _P_NICE_HIGH:
            if 0.05 < x <= v / 2:
                candidates.append((x, _format(n, x, decimals=len(f"{x}".split(".")[1]))))
    out: list[str] = []
    for x, text in candidates:
        if m.qualifier == "=":
            if (x < 0.05) != (v < 0.05) or x >= 1 or _same(x, 0.05):
                continue
            if abs(math.log10(x / v)) < math.log10(2) - 1e-9:
                continue
        if not _fits_claim(ctx, m, n, x, v):
            continue
        rep = ctx.claim[m.start : n.start] + text
        if m.qualifier != "=" and m.comparator_span is not None:
            cs, ce = m.comparator_span
            rep = ctx.claim[m.start : cs] + "=" + ctx.claim[ce : n.start] + text
        if rep != m.text and rep not in out:
            out.append(rep)
    return out


def _phrase_options(m: Mention, ctx: _Context) -> list[str]:
    text = m.text
    if m.kind == "multiplier_word":
        forms = _MULT_FORMS[text.lower()]
        options = [w for v, w in sorted(forms.items()) if v != m.values[0]]
    else:
        fr = _FRACTION_RE.match(ctx.claim, m.start)
        assert fr is not None
        sep = fr.group("sep") or fr.group("sep2") or " "
        art = fr.group("art") or "a"
        art = art if art.lower() != "a" or fr.group("art") else "a"
        forms_f = {
            1 / 2: "half",
            1 / 3: f"{art}{sep}third",
            2 / 3: f"two{sep}thirds",
            1 / 4: f"{art}{sep}quarter",
            3 / 4: f"three{sep}quarters",
        }
        options = [
            w for v, w in forms_f.items() if abs(v - m.values[0]) / m.values[0] >= 0.2 and _fits_value(ctx, m, v)
        ]
    out = []
    for w in options:
        if text[:1].isupper():
            w = w[:1].upper() + w[1:]
        out.append(w)
    return out


def _fits_value(ctx: _Context, m: Mention, v: float) -> bool:
    return all(not (_same(v, w) and s != m.start) for s, w in ctx.all_values)


def _options(m: Mention, ctx: _Context) -> list[str]:
    if m.kind == "p_value":
        return _p_options(m, ctx)
    if m.kind in ("multiplier_word", "fraction_word"):
        return _phrase_options(m, ctx)
    return _factor_options(m, ctx)


# --------------------------------------------------------------------------------------------------------------
# Public API


def numeric_mentions(claim: str) -> list[Mention]:
    """The quantities of ``claim`` that :func:`numeric_edits` may change, in text order, each with its kind,
    span, values and unit. Protected numbers (:func:`protected_spans`) and bounds are not mentions; a mention
    may still yield no edit when no value satisfies every rule."""
    return list(_analyse(claim).mentions)


def protected_spans(claim: str) -> list[tuple[int, int, str]]:
    """Numbers of ``claim`` that are never changed, as ``(start, end, reason)``: year, citation, reference,
    identifier, label, ordinal, version, ci_level, df, dispersion, denominator, date, time, name, math, zero,
    compound, list, power_of_ten, partner, bound, vague, ci_bounds, inconsistent_interval, no_direction."""
    an = _analyse(claim)
    in_mentions = {p.number.start for m in an.mentions for p in m.parts if p.role in _CHANGED}
    out = {(t.num.start, t.num.end, t.reason) for t in an.tokens if t.reason and t.num.start not in in_mentions}
    return sorted((s, e, r) for s, e, r in out if r is not None)


def numeric_edits(
    claim: str,
    rng: random.Random,
    max_edits: int = 3,
    magnitude: Literal["same", "any"] = "same",
    kinds: Collection[str] | None = None,
    keep: Callable[[NumericEdit], bool] | None = None,
) -> list[NumericEdit]:
    """Up to ``max_edits`` false versions of ``claim``, each changing one quantity (module docstring), most
    checkable kinds first (:data:`KINDS` order, then text order). ``magnitude="same"`` keeps each changed
    number's order of magnitude; ``"any"`` also allows factors of 0.1–0.2 and 5–10. ``kinds`` restricts the
    kinds changed; ``keep`` skips the edits it refuses before they count against ``max_edits``. Deterministic
    for a given ``rng`` state."""
    if magnitude not in ("same", "any"):
        raise ValueError(f"magnitude must be 'same' or 'any', not {magnitude!r}")
    if kinds is not None:
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown kinds {sorted(unknown)}; known: {', '.join(KINDS)}")
    if max_edits <= 0:
        return []
    an = _analyse(claim)
    ctx = _context(an, magnitude)
    out: list[NumericEdit] = []
    texts = {claim}
    for m in sorted(an.mentions, key=lambda m: (_RANK[m.kind], m.start)):
        if len(out) >= max_edits:
            break
        if kinds is not None and m.kind not in kinds:
            continue
        options = [o for o in _options(m, ctx) if claim[: m.start] + o + claim[m.end :] not in texts]
        if not options:
            continue
        rep = rng.choice(options)
        text = claim[: m.start] + rep + claim[m.end :]
        edit = NumericEdit(text, m.kind, m.text, rep, m.start, m.end)
        if keep is not None and not keep(edit):
            continue
        texts.add(text)
        out.append(edit)
    return out


# --------------------------------------------------------------------------------------------------------------
# The ``numeric`` negator (component kind ``negator``): the edits above, checked against the evidence


class NumericNegatorConfig(ComponentConfig):
    max_edits: int = Field(3, ge=1)  # candidates per claim, most checkable kinds first
    magnitude: Literal["same", "any"] = "same"
    kinds: tuple[str, ...] | None = None
    # the changed number must be stated in the evidence (else the claim is unverifiable, not false)
    require_in_evidence: bool = True
    nli: dict[str, Any] | None = {"name": "embedded", "runtime": "onnx"}  # None: no judge gate
    min_contradiction: float = Field(0.65, ge=0, le=1)  # the judge's REFUTED gate (docs/models/nli.md)
    seed: int = 13


@registry.register("negator", "numeric", NumericNegatorConfig)
class NumericNegator:
    """A claim with one quantity changed (:func:`numeric_edits`): the first candidate (most checkable kind first)
    whose original value the evidence states and that the judge says the evidence contradicts."""

    name = "numeric"

    def __init__(self, config: NumericNegatorConfig) -> None:
        self.config = config
        self.nli = registry.build("nli", config.nli) if config.nli is not None else None
        gate = f";nli={self.nli.model_id}" if self.nli is not None else ""
        # the rule version: cached negations of an older rule are not reused (2: durations and distances before
        # the noun they measure are design numbers; 3: so is a time point named by what it follows; 4: and a
        # cut-off or threshold; 5: or a tolerance band, "within 50%"; 6: a setting, a name's number, "in the
        # initial 6 months"); 7: a count of methods, devices, regimens ("the four training methods")
        self.model_id = f"numeric/7(magnitude={config.magnitude}{gate})"

    def negate(
        self, claims: Sequence[str], progress: Any = None, evidence: Sequence[tuple[str, ...]] | None = None
    ) -> list[Negation]:
        c = self.config
        premises = list(evidence) if evidence is not None else [(x,) for x in claims]
        per_claim: list[list[NumericEdit]] = []
        for claim, ev in zip(claims, premises, strict=True):
            rng = random.Random(c.seed * 1_000_003 + zlib.crc32(claim.encode()))
            text = " ".join(ev) if c.require_in_evidence and evidence is not None else None

            def usable(e: NumericEdit, claim: str = claim, text: str | None = text) -> bool:
                # a design number (follow-up time, number of groups) or a value the evidence never states makes
                # the claim unverifiable, not false: filtered before the max_edits cap, not after it
                return not design_number(claim, e) and (text is None or stated_in(e.original, text))

            per_claim.append(numeric_edits(claim, rng, c.max_edits, c.magnitude, c.kinds, keep=usable))
        flat = [(n, e) for n, edits in enumerate(per_claim) for e in edits]
        probs = (
            judge(self.nli, [e.text for _, e in flat], [premises[n] for n, _ in flat])
            if self.nli is not None and flat
            else None
        )
        out: list[Negation] = []
        i = 0
        for n, edits in enumerate(per_claim):
            base: dict[str, Any] = {"method": "numeric", "original_claim": claims[n]}
            if not edits:
                why = "no_stated_quantity" if numeric_mentions(claims[n]) else "no_numeric_quantity"
                out.append(Negation(None, why, base))
                continue
            scores = [float(probs[i + k, 1]) if probs is not None else 1.0 for k in range(len(edits))]
            i += len(edits)
            passing = [k for k, sc in enumerate(scores) if sc >= c.min_contradiction]
            k = passing[0] if passing else max(range(len(scores)), key=lambda j: scores[j])
            e = edits[k]
            details = {
                **base,
                "kind": e.kind,
                "replaced": e.original,
                "replacement": e.replacement,
                "span": [e.start, e.end],
                "candidates": len(edits),
            }
            if probs is not None:
                details["contradiction"] = round(scores[k], 4)
            if passing:
                out.append(Negation(e.text, None, details))
            else:
                out.append(Negation(None, "contradiction_below_threshold", details))
        if progress is not None:
            progress(len(claims), len(claims))
        return out


_TIME_UNIT = re.compile(r"^[\s-]*(h|hr|hours?|days?|d|weeks?|wk|months?|mo|years?|yr)s?\b['’]?", re.IGNORECASE)
_BEFORE_TIME = re.compile(
    r"\b(at|after|for|during|over|within|by|until|through|up to|from|in the (?:first|initial|final|last))\s*$",
    re.IGNORECASE,
)
# ... or a time point named by what it follows: "42 hours after surgery", "105 minutes post-dose", "2 weeks later"
_TIME_AFTER = re.compile(
    r"^\s*(?:after|post|postoperative(?:ly)?|postoperation|following|later|since)\b", re.IGNORECASE
)
_TIME_SPAN = re.compile(
    r"(?:^|\s)(?:h|hrs?|hours?|mins?|minutes?|days?|weeks?|wks?|months?|years?|yrs?)$", re.IGNORECASE
)
_DESIGN_NOUN = re.compile(
    r"^[\s-]*(\w+[\s-]+)?(groups?|arms?|sessions?|visits?|parameters?|stimuli|conditions?|treatments?|time[\s-]points?"
    r"|cycles?|phases?|periods?|cohorts?|sites?|centres?|centers?|rounds?|waves?"
    r"|cut-?offs?|cut[\s-]?points?|thresholds?|methods|techniques|devices|regimens|protocols|strategies)\b",
    re.IGNORECASE,
)


# A duration or a distance that names what was measured when it stands before a noun: "the 10-year risk", "an 800 m
# swim", "the 6-minute walk test", "5-year-old children"
_DESIGN_UNIT = re.compile(
    r"\d[\d.,]*(?:\s*[–-]\s*\d[\d.,]*)?(\s*-\s*|\s+)(h|hrs?|hours?|mins?|minutes?|days?|weeks?|wks?|months?|years?|yrs?"
    r"|m|km|metres?|meters?|miles?)$",
    re.IGNORECASE,
)
# ... where the noun is what the duration or distance delimits. Written with a hyphen ("10-year"), the number is
# attributive unless a result noun follows within three words ("a 3-month survival gain"); written with a space
# ("800 m swim"), only before one of these nouns, and never after "by" or "of" ("by 5 years", "of 400 m")
_RESULT_NOUNS = frozenset(
    re.findall(
        r"\S+",
        "increase increases decrease decreases reduction reductions rise fall drop gain gains loss losses improvement "
        "improvements change changes difference differences delay extension prolongation benefit advantage",
    )
)
_DELIMITED_NOUNS = frozenset(
    re.findall(
        r"\S+",
        "risk risks survival mortality incidence recurrence outcome outcomes follow-up followup visit visits walk swim "
        "run race test trial study course program programme intervention treatment period window interval horizon "
        "cohort exercise training",
    )
)
# a setting the analysis is run at ("For nH = 1, the period decreased"), and a number that is part of a name: after
# a capitalised word ("Roth 811 induced discoloration", "in March 2020") that is not an ordinary opening word
_SETTING = re.compile(r"\b(?:for|with|at|when)\s+[\w.-]+\s*=\s*$", re.IGNORECASE)
_NAME_BEFORE = re.compile(r"(?:^|\S\s+)([A-Z][A-Za-z-]+)\s+$")
_OPENING_WORDS = PREPOSITIONS | frozenset(
    re.findall(
        r"\S+",
        "within over overall only all about approximately nearly almost up the a an some each every both just around "
        "roughly than and or but while although since until following including excluding total totally",
    )
)
# a tolerance band: "accuracy within 15%, 30% and 50%" (of the observed value)
_WITHIN_BAND = re.compile(r"\bwithin\s+(?:[±]?\d[\d.,]*\s*%\s*(?:,\s*|\s+and\s+|\s+or\s+)?)*$", re.IGNORECASE)
_NEXT_WORDS = re.compile(r"^(-old\b)?((?:[\s-]+[A-Za-z][\w-]*){1,3})")
_AMOUNT_BEFORE = re.compile(r"\b(by|of)\s*$", re.IGNORECASE)


def design_number(claim: str, edit: NumericEdit) -> bool:
    """A number that describes the study's design, not its result: a follow-up time ("At 12 months", "after 6
    months' intervention"), a count of groups, arms, sessions, parameters ("between the two groups"), or a
    duration or distance before the noun it measures ("the 10-year risk", "an 800 m swim"), an analysis's
    cut-off, threshold or tolerance band ("for the 30% cut-off", "accuracy within 50%"), a setting ("for nH = 1")
    or a number in a name ("Roth 811", "March 2020"). Changing it makes the
    claim unverifiable (the study has no 26-month data, no four groups, no 1300 m swim, no 48% cut-off), not
    false."""
    before, after = claim[: edit.start], claim[edit.end :]
    unit_in_span = _TIME_UNIT.search(re.sub(rf"^(?:[\d.,\s–-]+|(?:{_WORD_ALT})\s+)", "", edit.original, flags=re.I))
    if (_TIME_UNIT.match(after) or unit_in_span) and _BEFORE_TIME.search(before):
        return True
    if _TIME_SPAN.search(edit.original.strip()) and _TIME_AFTER.match(after):
        return True
    if edit.original.strip().endswith("%") and _WITHIN_BAND.search(before):
        return True
    if _SETTING.search(before):
        return True
    name = _NAME_BEFORE.search(before) if re.fullmatch(r"\d+", edit.original.strip()) else None
    if name and name.group(1).lower() not in _OPENING_WORDS:
        return True
    unit = _DESIGN_UNIT.fullmatch(edit.original.strip())
    following = _NEXT_WORDS.match(after) if unit else None
    if unit and following:
        if following.group(1):  # "5-year-old"
            return True
        words = [w.lower() for w in re.findall(r"[A-Za-z][\w-]*", following.group(2))]
        if unit.group(1).strip() == "-":
            return not _RESULT_NOUNS.intersection(words)
        if words[0] in _DELIMITED_NOUNS and not _AMOUNT_BEFORE.search(before):
            return True
    return bool(_DESIGN_NOUN.match(after))


def stated_in(original: str, evidence: str) -> bool:
    """Whether ``evidence`` states the replaced value: every number of ``original`` appears in it as a number
    (a number word, "twice", must appear as a word)."""
    numbers = re.findall(r"\d+(?:[.,]\d+)*", original)
    if not numbers:
        return re.search(rf"\b{re.escape(original.lower())}\b", evidence.lower()) is not None
    return all(re.search(rf"(?<![\d.,]){re.escape(x)}(?!\d|[.,]\d)", evidence) for x in numbers)
