"""Section types from what paragraphs say, for a paper body without headings.

Some sources keep the body but lose its headings: S2ORC records whose every paragraph has ``section: null``, a
GROBID TEI body with one headless ``div``, PDFs whose headings the text layer does not mark. Without types the
paper gives no results, discussion or conclusion to make claims from. :func:`content_types` types each
paragraph from cue phrases of the five main parts and their order in a research paper:

1. each paragraph scores each type by the share of its sentences with that type's cues (below): an
   introduction cites prior work and states the gap and aim ("remains unclear", "we aimed to"), methods report
   what was done ("were recruited", "was measured using", "informed consent"), results report findings
   ("significantly", "p < 0.05", "(Figure 2)"), a discussion interprets them ("our findings suggest",
   "consistent with previous studies", "limitations"), a conclusion sums up ("In conclusion", "future studies");
2. the types follow the paper's order, introduction → methods → results → discussion → conclusion, each part
   possibly absent: the best-scoring such sequence over the paragraphs (dynamic programming) is the answer.

Measured on research articles whose headings are known (``bench/content_types.py``, headings hidden; the numbers
are in ``docs/papers.md``). A paper the order cannot fit (a review, an essay) still gets types; that is why the
readers use this only when a body has no heading at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claimforge.records import SectionType

__all__ = ["ORDER", "ORDERS", "content_types"]

ORDER: tuple[SectionType, ...] = ("introduction", "methods", "results", "discussion", "conclusion")
# the orders a research paper's parts come in: methods before the results, or (PLOS Biology, Nature, Cell) last
ORDERS: tuple[tuple[SectionType, ...], ...] = (
    ORDER,
    ("introduction", "results", "discussion", "conclusion", "methods"),
)

_DONE = (
    r"obtained|collected|recruited|purchased|performed|measured|analy[sz]ed|incubated|cultured|grown|centrifuged|"
    r"randomi[sz]ed|enrolled|prepared|stained|washed|calculated|assessed|excluded|determined|extracted|"
    r"sequenced|isolated|diluted|stored|recorded|administered|allocated|screened|harvested|transfected|fixed|"
    r"quantified|estimated|evaluated|defined|computed|trained|implemented|conducted|carried out"
)
_CUES: dict[SectionType, tuple[re.Pattern[str], ...]] = {
    "introduction": tuple(
        re.compile(p, re.I)
        for p in (
            r"\b(?:has|have) (?:been|long been) (?:shown|reported|suggested|proposed|described|implicated|"
            r"recogni[sz]ed|associated|identified|studied|used)\b",
            r"\bremains? (?:unclear|unknown|poorly|controversial|to be|elusive|a challenge)\b",
            r"\b(?:little|less) is known\b|\bis not (?:well |fully )?(?:known|understood)\b|\bfew studies\b",
            r"\b(?:aim|purpose|objective|goal)s? of (?:this|the present|our) (?:study|work|paper|research)\b",
            r"\bwe (?:aimed|sought|hypothesi[sz]ed|investigated whether|set out)\b",
            r"\b(?:is|are) (?:a|an|the|one of the) (?:major|leading|common|important|serious|main|most)\b",
            r"\b(?:worldwide|globally|prevalence of|is characteri[sz]ed by)\b",
        )
    ),
    "methods": tuple(
        re.compile(p, re.I)
        for p in (
            rf"\b(?:was|were|is|are) (?:\w+ly )?(?:{_DONE})\b",
            r"\b(?:according to|as described|using a|using the|by means of)\b",
            r"\b(?:software|protocol|kit|ethics committee|ethical approval|informed consent|inclusion criteria|"
            r"exclusion criteria|statistical analys[ie]s|questionnaire|reagents?|buffer|antibod(?:y|ies))\b",
            r"\b\d+(?:\.\d+)?\s?(?-i:°C|rpm|ml|mL|µ[lLgm]|μ[lLgm]|mg/kg|mM|nm|g for)\b",
            r"(?-i:\b(?:SPSS|Stata|GraphPad|Prism|R version|SAS|MATLAB)\b)",
        )
    ),
    "results": tuple(
        re.compile(p, re.I)
        for p in (
            r"\bp\s?[<=>≤]\s?0?\.\d|\bp-?values?\b",
            r"\bsignificant(?:ly)?\b",
            r"\(?(?:fig(?:ure)?s?\.?|tables?)\s?S?\d",
            r"\b(?:increased|decreased|reduced|higher|lower|greater|fewer|elevated)\b",
            r"\b(?:showed|observed|was found|were found|revealed|exhibited|displayed)\b",
            r"\b\d+(?:\.\d+)?\s?%|\b(?:mean|median)\b|(?-i:\b(?:CI|OR|HR|RR)\b)",  # the abbreviations in capitals
        )
    ),
    "discussion": tuple(
        re.compile(p, re.I)
        for p in (
            r"\b(?:our|these|the present|this) (?:results|findings|data|study|observations?)\b",
            r"\b(?:suggests?|indicates?|implies|may|might|could|possibly|likely|speculate)\b",
            r"\b(?:consistent|in line|in agreement|in accordance) with\b|\bin contrast (?:to|with)\b",
            r"\b(?:previous|prior|earlier|other) (?:studies|reports|findings|work|authors)\b",
            r"\blimitations?\b|\bstrengths?\b|\bfurther (?:research|studies|work)\b",
            r"\bit is (?:possible|likely|plausible|conceivable)\b|\bone (?:possible )?explanation\b",
        )
    ),
    "conclusion": tuple(
        re.compile(p, re.I)
        for p in (
            r"^(?:in conclusion|in summary|to conclude|to summari[sz]e|taken together|in sum|collectively)\b",
            r"\bwe conclude\b|\bin conclusion\b",
        )
    ),
}
# The share of a type's sentences that still counts for a paragraph without any cue, so that a cue-less paragraph
# stays with its neighbours rather than deciding the split.
_FLOOR = 0.05
_NO_CONCLUSION = 0.5


def _scores(paragraph: Sequence[str]) -> dict[SectionType, float]:
    n = max(1, len(paragraph))
    out: dict[SectionType, float] = {}
    for kind in ORDER:
        hits = sum(1 for s in paragraph if any(p.search(s) for p in _CUES[kind]))
        out[kind] = max(_FLOOR, hits / n)
    return out


def _best_path(scores: Sequence[dict[SectionType, float]], order: Sequence[SectionType]) -> tuple[float, list[int]]:
    """The best-scoring sequence of ``order`` positions that never goes back, with its total."""
    k_n = len(order)
    best = [[scores[0][t] for t in order]]
    back: list[list[int]] = [list(range(k_n))]
    for i in range(1, len(scores)):
        row, arg = [], []
        running, where = float("-inf"), 0
        for k in range(k_n):
            if best[i - 1][k] > running:
                running, where = best[i - 1][k], k
            row.append(running + scores[i][order[k]])
            arg.append(where)
        best.append(row)
        back.append(arg)
    k = max(range(k_n), key=lambda j: (best[-1][j], -j))  # a tie goes to the earlier part
    total = best[-1][k]
    path = [k]
    for i in range(len(scores) - 1, 0, -1):
        k = back[i][k]
        path.append(k)
    return total, path[::-1]


def content_types(paragraphs: Sequence[Sequence[str]]) -> list[SectionType]:
    """The type of each paragraph (its sentences) of a body without headings, in reading order."""
    if not paragraphs:
        return []
    scores = [_scores(p) for p in paragraphs]
    # centred within the paper: a type's cues count where a paragraph has more of them than the paper's average
    # (results words such as "showed" or "higher" run through every part of some papers)
    means = {t: sum(sc[t] for sc in scores) / len(scores) for t in ORDER}
    scores = [{t: sc[t] - means[t] for t in ORDER} for sc in scores]
    # a conclusion is only where one is announced ("In conclusion, ..."): its cue is rare, so an uncued paragraph
    # would otherwise lose little by being one
    for sc in scores:
        if sc["conclusion"] <= _FLOOR - means["conclusion"]:
            sc["conclusion"] = -_NO_CONCLUSION
    best: tuple[float, list[SectionType]] | None = None
    for order in ORDERS:
        total, path = _best_path(scores, order)
        if best is None or total > best[0]:
            best = (total, [order[k] for k in path])
    assert best is not None
    return best[1]
