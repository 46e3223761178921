"""Section headings → the normalised section types of :data:`claimforge.records.SECTION_TYPES`, and flat
heading lists → a section tree.

Typing (:func:`section_type`) uses rules over the heading's words (numbering such as "3.2", "IV." or "A."
stripped), checked in order, so "Results and Discussion" is a results section and "Conclusions and future work"
a conclusion:

1. rules anchored at the heading's start ("Materials and methods", "Experimental results", "Acknowledgements");
   the few words whose meaning depends on where they stand ("Overview", "Summary", "Background",
   "Analysis", "Evaluation") give their type only outside a typed parent ("Methods / Overview" stays methods);
2. the format's own label, if it has one (JATS ``sec-type``: "intro", "materials|methods", "results",
   "discussion", "conclusions");
3. the parent's type, for a subsection whose heading says nothing ("Results / Cell growth");
4. rules that find the key word anywhere ("Cell growth results", "Effect of the method");
5. (:func:`build_sections`, for top-level sections whose heading says nothing) their place: between the
   introduction and the first results section they are ``methods``, after a methods, results or discussion
   section they go on with it;
6. else ``other``.

A body with no heading at all (S2ORC paragraphs with ``section: null``, a headless TEI ``div``) is typed by what
its paragraphs say instead (:mod:`claimforge.io.papers.content_types`; ``build_sections(by_content=True)``, which
the S2ORC and TEI readers ask for).

Headings that are not part of the paper's argument (acknowledgements, funding, supplementary material,
appendices, author contributions, abbreviations, related work, ...) are ``other``, and so is everything under
them. A few Spanish/Portuguese/French/Italian/German main headings are known too ("Introducción",
"Resultados", "Métodos", "Discusión", "Conclusiones").

Structure (:func:`build_sections`): formats that nest sections (JATS ``sec``, SciREX levels) give each
heading its depth; flat heading lists (GROBID TEI, S2ORC) are nested by their numbering ("3.1" is under "3",
IEEE "A." under "IV.", "1)" under "A."), and unnumbered flat lists by two signals: a heading with no text of its
own followed by more headings opens a group ("Results" then "Cell growth"), and so does an all-capitals heading
among mixed-case ones ("RESULTS AND DISCUSSION" then "Cell viability assay"); levels that are all equal (SciREX
marks some papers' every heading ``section``) are inferred the same way. Letter-numbered sections after an
arabic-numbered paper or after its conclusion ("A. Proofs") are appendices: ``other``. docs/papers.md lists the
rules and measures them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from claimforge.io.papers.content_types import content_types
from claimforge.records import Section, SectionType

__all__ = ["RawSection", "build_sections", "heading_type", "normalise_heading", "section_type", "split_numbering"]

_OTHER = (
    r"^(acknowledge?ments?|funding|financial (support|disclosures?)|sources? of funding|references|bibliography"
    r"|appendi(x|ces)|supplementa(ry|l)|supporting|additional (files?|information)|electronic supplementary"
    r"|author(s'?|s’)? contributions?|contributions? of|contributors?$|competing (interests?|financial)"
    r"|conflicts? of interests?|declarations?|disclosures?|abbreviations|list of abbreviations|glossary"
    r"|nomenclature|data (availability|accessibility|sharing)|availability|code availability|related ?works?"
    r"|related (approaches|research|literature|studies|methods|models)|previous work|prior work"
    r"|literature (review|survey)|state of the art$|notes?$|footnotes?|author summary"
    r"|editors'? summary|plain language summary|key (points|messages)|(article |research )?highlights$|core tip"
    r"|comments$|pre-?publication history|peer[- ]review|keywords|key words|index terms"
    r"|graphical abstract|abstract$|figures?( and tables?)?$|tables?$|proofs?( of)?|theorems?$|lemmas?$"
    r"|broader impact|reproducibility checklist|apéndice|agradecimientos|referencias|bibliografía)"
)
# (type, heading pattern, weak): the first that matches wins; a weak rule yields to a typed parent
_ANCHORED_SPECS: tuple[tuple[SectionType, str, bool], ...] = (
    # not part of the paper's argument: checked first ("Supporting information", "Acknowledgements")
    ("other", _OTHER, False),
    # statements that belong to the methods when they stand there ("Methods / Ethics statement")
    ("other", r"^(ethic|ethical (approval|statement|considerations)|consent|(trial|study) registration)", True),
    (
        "conclusion",
        r"^(conclu|concluding|summary and (conclusions?|outlook)|closing remarks|final (remarks|thoughts|comments)"
        r"|outlook|future (work|directions|research|perspectives)|perspectives?$|take-?home)",
        False,
    ),
    ("conclusion", r"^(summary|summary of (findings|results))$", True),
    (
        "results",
        r"^(results?|resultados?|résultats?|risultati|ergebnisse|findings|main findings|experiments?( and results?)?\b"
        r"|experimental (results?|evaluation|study|studies|analysis)"
        r"|evaluations? (of|on|and|results?)|empirical|main results|ablations?"
        r"|analysis of (results|the results)|numerical (results?|experiments?|examples?|simulations?|study)"
        r"|simulations?( results| studies| study| experiments)?$|case stud(y|ies)|(quantitative|qualitative) (results?"
        r"|comparisons?)|comparisons? (with|to|against)"
        r"|benchmarks?$|error analysis|observations?$|baseline characteristics"
        r"|systematics?( paleontology| palaeontology| account)?$|taxonomy$|taxonomic (account|treatment))",
        False,
    ),
    # a species account of a taxonomic paper ("Systematics / Material examined / Diagnosis / Etymology")
    ("results", r"^(material examined|type material|holotype|paratypes?|diagnosis|etymology|type locality)", True),
    # words whose section depends on where they stand: "Methods / Outcomes" describes what was measured
    (
        "results",
        r"^(analysis|analyses|evaluations?|outcomes?|performance)$|^performance"
        r"|^(quantitative|qualitative) (analysis|analyses|evaluations?)",
        True,
    ),
    (
        "discussion",
        r"^(discussions?|discusión|discussão|discussione|diskussion|general discussion|interpretation|implications"
        r"|limitations?|strengths and (limitations|weaknesses))",
        False,
    ),
    (
        "methods",
        r"^(methods?|methodology|methodologies|m[ée]todos?|méthodes?|metodolog[íi]a|metodi|methoden|materiais"
        r"|materials?|patients and methods|study (design|area|site|setting|procedures?)"
        r"|experimental (procedures?|design|methods?|section|protocols?|setup|settings?|details|configurations?)"
        r"|experiments? (setup|settings?|details|design)|evaluation (setup|settings?|protocols?|framework|metrics?"
        r"|measures|criteria|methodology|procedure)|training (setup|settings?)"
        r"|statistical (analys[ie]s|methods?)|statistics$|data( collection| sources?| analysis| and methods?"
        r"| preparation| sets?)?$|datasets?( and [\w ]+)?$|corpus$|corpora$|models?$|model (architecture|details"
        r"|description)|network architectures?|architectures?$|our (approach|method|model|framework)"
        r"|(the )?proposed (approach|method|model|framework|system|architecture)|approach$|framework$|setup$"
        r"|implementation( details)?|training( details| procedure| and [\w ]+)?$|hyper-?parameters?"
        r"|problem (formulation|definition|statement|setting|setup)|formulation$|algorithms?$|procedures?$"
        r"|protocols?$|interventions?$|outcome measures|measures$|measurements?$|instruments?$|sampling"
        r"|sample size|design$|notation$|baselines?$|animals$|(evaluation )?metrics?$|competitors$"
        r"|compared (methods|models|systems)|comparison (methods|models|systems)$|ethics and)",
        False,
    ),
    # what the data were: "Biography dataset", "Data and baseline system"
    (
        "methods",
        r"^((?!(across|on|of|for|with|in|between|from|to)\b)[\w\-]+ ){0,3}(datasets?|data ?sets|corpus|corpora)$"
        r"|^data and ",
        False,
    ),
    # who or what was studied: methods at the top, but "Results / Subjects and MRI" reports who took part
    ("methods", r"^(patients|participants|subjects|study (population|sample|participants)|samples?$|setting$)", True),
    (
        "introduction",
        r"^(introduc|motivation|preliminar(y|ies)|rationale|aims?( of| and)|objectives?$|purpose$)",
        False,
    ),
    ("introduction", r"^(background|overview)$|^background", True),
)
_ANCHORED: tuple[tuple[SectionType, re.Pattern[str], bool], ...] = tuple(
    (kind, re.compile(pattern), weak) for kind, pattern, weak in _ANCHORED_SPECS
)
# second chance, anywhere in the heading: "Cell growth results", "Comparison with prior methods"
_ANYWHERE_SPECS: tuple[tuple[SectionType, str], ...] = (
    ("methods", r"\b(evaluation|experimental) (framework|setup|protocol|settings?|design)\b"),
    ("conclusion", r"\bconclu(sions?|ding)\b"),
    ("results", r"\b(results?|experiments?|evaluation)\b"),
    ("discussion", r"\bdiscussion\b"),
    ("methods", r"\b(methods?|methodology|materials|procedures?)\b"),
    ("introduction", r"\bintroduction\b"),
)
_ANYWHERE: tuple[tuple[SectionType, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern)) for kind, pattern in _ANYWHERE_SPECS
)

_HINTS: dict[str, SectionType] = {
    "intro": "introduction",
    "introduction": "introduction",
    "background": "introduction",
    "methods": "methods",
    "method": "methods",
    "materials": "methods",
    "materials and methods": "methods",
    "materialandmethods": "methods",
    "materialsandmethods": "methods",
    "subjects": "methods",
    "patients": "methods",
    "cases": "methods",
    "results": "results",
    "discussion": "discussion",
    "conclusions": "conclusion",
    "conclusion": "conclusion",
    "supplementary-material": "other",
    "display-objects": "other",
    "coi-statement": "other",
}

# "3.2", "3.2.", "IV.", "A.", "1)", "a)", "§": a numbering prefix followed by the heading's words
_NUMBERING = re.compile(r"^\s*((\d+|[ivxlcdm]+|[a-z])([.)]\d+)*[.):]?|§)\s+", re.IGNORECASE)
_PREFIX = re.compile(
    r"^\s*(?P<num>(?:\d{1,2}(?:\.\d{1,2})*|[IVXLC]+|[A-Z](?:\.\d{1,2})*|[a-z]))(?P<delim>[.):]?)\s+(?=\S)"
)
_ROMAN = re.compile(r"^(?=[IVXLC])(C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")


def normalise_heading(heading: str) -> str:
    """Lower case, numbering ("2.1", "IV.", "A.") and trailing punctuation removed, spaces collapsed."""
    h = split_numbering(heading)[1]
    h = _NUMBERING.sub("", h)
    return h.strip(" .:;").lower()


def _hint_type(hint: str | None) -> SectionType | None:
    if not hint:
        return None
    key = " ".join(hint.strip().lower().split())
    if key in _HINTS:
        return _HINTS[key]
    for part in key.split("|"):
        if part.strip() in _HINTS:
            return _HINTS[part.strip()]
    return None


def _anchored(h: str) -> tuple[SectionType, bool] | None:
    for kind, pattern, weak in _ANCHORED:
        if pattern.search(h):
            return kind, weak
    return None


def heading_type(heading: str) -> SectionType | None:
    """The type a heading's words give at the top level of a paper (rules 1 and 4), or None when they say
    nothing."""
    h = normalise_heading(heading)
    if not h:
        return None
    found = _anchored(h)
    if found is not None:
        return found[0]
    for kind, pattern in _ANYWHERE:
        if pattern.search(h):
            return kind
    return None


def section_type(heading: str, hint: str | None = None, parent: SectionType | None = None) -> SectionType:
    """The type of a section from its heading; ``hint`` is a format's own label (JATS ``sec-type``), ``parent``
    the enclosing section's type (a subsection whose heading says nothing takes it)."""
    h = normalise_heading(heading)
    typed_parent = parent is not None and parent != "other"
    found = _anchored(h) if h else None
    if found is not None and not (found[1] and typed_parent):
        return found[0]
    hinted = _hint_type(hint)
    if hinted is not None:
        return hinted
    if typed_parent:
        assert parent is not None
        return parent
    if found is not None:
        return found[0]
    for kind, pattern in _ANYWHERE:
        if h and pattern.search(h):
            return kind
    return parent if parent is not None else "other"


def _is_other_heading(heading: str) -> bool:
    h = normalise_heading(heading)
    found = _anchored(h) if h else None
    return found is not None and found[0] == "other"


# --------------------------------------------------------------------------------------------------
# Structure


@dataclass
class RawSection:
    """One heading of a paper and the paragraphs under it (up to the next heading), before its place in the
    section tree and its type are known. ``level`` is the depth when the format nests sections (1 = top);
    ``number`` the format's own numbering ("3.1"; else it is read off the heading); ``hint`` a format's own
    section label (JATS ``sec-type``); ``forced`` a type the format decides (an appendix: ``other``)."""

    heading: str = ""
    paragraphs: list[tuple[str, ...]] = field(default_factory=list)
    level: int | None = None
    number: str | None = None
    hint: str | None = None
    forced: SectionType | None = None

    @property
    def has_text(self) -> bool:
        return any(self.paragraphs)


def split_numbering(heading: str) -> tuple[str, str]:
    """("3.1", "Results") from "3.1 Results", ("IV", "SIMULATION") from "IV. SIMULATION", ("A", "Proofs")
    from "A. Proofs", ("1)", "Setup") from "1) Setup"; ("", heading) when there is no numbering. A bare
    capital word ("A new model") is not numbering: a letter needs a "." or ")" after it."""
    h = " ".join(heading.split())
    m = _PREFIX.match(h)
    if not m:
        return "", h
    num, delim = m.group("num"), m.group("delim")
    is_letter = len(num) == 1 and num.isalpha()
    if (is_letter or _ROMAN.match(num)) and not delim:
        return "", h  # "A new model", "I think": words, not numbering
    if num.isalpha() and num.islower() and delim != ")":
        return "", h
    return (num + ")" if delim == ")" else num), h[m.end() :]


@dataclass
class _Num:
    kind: str  # "arabic", "roman", "upper", "paren", "lower"
    parts: int  # components of a dotted number ("3.1" -> 2)


def _classify(number: str, romans: bool) -> _Num | None:
    n = number.strip().rstrip(".:")
    if not n:
        return None
    if n.endswith(")"):
        core = n[:-1]
        return _Num("lower" if core.isalpha() else "paren", 1)
    parts = n.split(".")
    if all(p.isdigit() for p in parts):
        return _Num("arabic", len(parts))
    if parts[0].isalpha() and parts[0].isupper() and all(p.isdigit() for p in parts[1:]):
        # "II", "IV": roman; a lone "I", "V" or "X" only in a paper numbered in roman ("C." is a letter there)
        if len(parts) == 1 and _ROMAN.match(parts[0]) and (len(parts[0]) > 1 or (romans and parts[0] in "IVX")):
            return _Num("roman", 1)
        return _Num("upper", len(parts))
    if n.isalpha() and n.islower():
        return _Num("lower", 1)
    return None


def _numbered_levels(numbers: list[_Num | None], raws: Sequence[RawSection]) -> tuple[list[int], list[bool]]:
    """Depths from numbering, and which sections are appendices (letter-numbered after arabic numbering or after
    a conclusion). Unnumbered headings that name a main part ("Conclusion", "Acknowledgements") are top level;
    other unnumbered headings hang under the numbered section before them."""
    ieee = any(n is not None and n.kind == "roman" for n in numbers)
    levels: list[int] = []
    appendix: list[bool] = []
    seen_arabic = seen_conclusion = in_appendix = False
    prev_level, prev_kind = 0, ""  # prev_kind: the numbering kind of the previous heading ("" if unnumbered)
    for num, raw in zip(numbers, raws, strict=True):
        if num is None:
            if raw.heading and _names_main_part(raw.heading):
                level = 1
                in_appendix = in_appendix and heading_type(raw.heading) == "other"
            elif prev_level == 0:
                level = 1
            else:  # under the numbered section before it, beside an unnumbered one
                level = prev_level + 1 if prev_kind else prev_level
            kind = ""
        else:
            kind = num.kind
            if kind == "arabic":
                level = num.parts
                seen_arabic = True
            elif kind == "roman":
                level = 1
            elif kind == "upper":
                level = 2 if ieee and num.parts == 1 else num.parts
                if not ieee and level == 1 and (seen_arabic or seen_conclusion):
                    in_appendix = True
            elif ieee:  # IEEE: I. / A. / 1) / a)
                level = 3 if kind == "paren" else 4
            else:  # "1)" or "a)" under whatever came before, beside its own kind
                level = prev_level if prev_kind == kind else max(prev_level, 1) + 1
            if kind in ("arabic", "roman") and level == 1:
                in_appendix = False
        levels.append(level)
        appendix.append(in_appendix)
        prev_level, prev_kind = level, kind
        seen_conclusion = seen_conclusion or heading_type(raw.heading) == "conclusion"
    return levels, appendix


def _is_caps(heading: str) -> bool:
    letters = [c for c in heading if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


_MAIN_METHODS = re.compile(
    r"^(materials? and methods?|methods? and materials?|materials?$|methods?$|methodology$|methods? (and|&) [\w ]+$"
    r"|(patients|subjects|participants) and methods|experimental (procedures?|section))"
)


def _names_main_part(heading: str) -> bool:
    """An unnumbered heading in a numbered paper that stands at the top level: one that names a main part
    ("Conclusion", "Materials and methods", "Acknowledgements"), not a methods detail ("Implementation notes",
    which hangs under the numbered section before it)."""
    h = normalise_heading(heading)
    found = _anchored(h) if h else None
    if found is None or (found[1] and found[0] != "other"):
        return False
    return found[0] != "methods" or bool(_MAIN_METHODS.match(h))


def _caps_main(heading: str) -> bool:
    """A capitals heading that reads as a main heading: a known one ("RESULTS AND DISCUSSION") or two or more
    words ("CASE REPORT"), not a lone label or formula name ("PGED-CD")."""
    words = [w for w in heading.split() if len(w) >= 3 and w.isalpha()]
    return _anchored_main(heading) or len(words) >= 2


def _anchored_main(heading: str) -> bool:
    """The heading names a main part of a paper by its first words (a strong rule: "Methods", "Results and
    discussion", "Acknowledgements"; not "Overview" or "Cell growth results")."""
    h = normalise_heading(heading)
    found = _anchored(h) if h else None
    return found is not None and (not found[1] or found[0] == "other")


def _flat_levels(raws: Sequence[RawSection]) -> list[int]:
    """Depths of an unnumbered flat heading list: everything top level, unless the paper shows its nesting by
    all-capitals main headings among mixed-case ones (the mixed-case ones are under the capitals before them), or
    by a heading without text of its own followed by more headings (those up to the next main or textless heading
    are under it)."""
    n = len(raws)
    heading_only = [
        bool(r.heading) and not r.has_text and i + 1 < n and bool(raws[i + 1].heading) for i, r in enumerate(raws)
    ]
    caps = [_is_caps(r.heading) for r in raws]
    caps_signal = (
        sum(caps) >= 2
        and any(c and heading_type(r.heading) is not None for c, r in zip(caps, raws, strict=True))
        and any(r.heading and not c for c, r in zip(caps, raws, strict=True))
    )
    if not any(heading_only) and not caps_signal:
        return [1] * n
    levels: list[int] = []
    if not caps_signal:  # a heading without text opens a group that runs to the next main or textless heading
        group = False
        for i, raw in enumerate(raws):
            if heading_only[i] or _names_main_part(raw.heading):
                group = heading_only[i]
                levels.append(1)
            else:
                levels.append(2 if group else 1)
        return levels
    have_top = False  # a titled top-level section is open
    for i, raw in enumerate(raws):  # capitals decide; before the first of them, a main heading is top level too
        top = (caps[i] and _caps_main(raw.heading)) or (not have_top and _names_main_part(raw.heading))
        if top or not have_top:
            levels.append(1)
            have_top = have_top or bool(raw.heading)
        else:
            levels.append(2)
    return levels


_MERGED = re.compile(r"^(?P<parent>.+?)\s+(?P<num>\d+(?:\.\d+)+)\.?\s+(?P<child>\S.*)$")


_CAPS_MERGED = re.compile(r"^(?P<parent>[A-Z][A-Z&\-]+(?:\s+[A-Z][A-Z&\-]+)*)\s+(?P<child>[A-Z]?[a-z].*)$")


def _unmerge(raws: Sequence[RawSection]) -> list[RawSection]:
    """GROBID sometimes joins a section's heading with its first subsection's: "Model 2.1 Overview" numbered
    "2", or "EXPERIMENTAL PROCEDURE Materials" (a capitals main heading, then a mixed-case one). Split them into
    the section (no text of its own) and the subsection (the text)."""
    out: list[RawSection] = []
    for raw in raws:
        number = raw.number or split_numbering(raw.heading)[0]
        rest = split_numbering(raw.heading)[1]
        m = _MERGED.match(rest) if number and number[0].isdigit() else None
        if m and m.group("num").startswith(number.rstrip(".") + "."):
            child_level = raw.level + 1 if raw.level is not None else None
            out.append(RawSection(heading=m.group("parent"), level=raw.level, number=number, hint=raw.hint))
            out.append(RawSection(m.group("child"), raw.paragraphs, child_level, m.group("num"), raw.hint, raw.forced))
            continue
        caps = _CAPS_MERGED.match(rest) if raw.level is None and not number else None
        if caps and _is_caps(caps.group("parent")) and _anchored_main(caps.group("parent")):
            out.append(RawSection(heading=caps.group("parent"), hint=raw.hint))
            out.append(RawSection(caps.group("child"), raw.paragraphs, None, None, raw.hint, raw.forced))
            continue
        out.append(raw)
    return out


def build_sections(raws: Sequence[RawSection], by_content: bool = False) -> tuple[Section, ...]:
    """The sections of a paper from its headings in reading order: each gets its heading path ("Results /
    Cell growth", numbering taken off) and its type (:func:`section_type`, with the parent's type; an appendix
    and everything under an ``other`` heading such as "Supplementary material" is ``other``). Sections
    without any sentence are left out (their heading lives on in their subsections' paths).

    ``by_content``: a body without any heading and with at least :data:`MIN_CONTENT_PARAGRAPHS` paragraphs is typed
    by what its paragraphs say (:func:`_typed_by_content`), for formats that lose headings in extraction (S2ORC,
    GROBID TEI); not JATS, where a body without headings is a letter, editorial or review, not a research paper."""
    n_paragraphs = sum(1 for r in raws for p in r.paragraphs if p)
    if (
        by_content
        and n_paragraphs >= MIN_CONTENT_PARAGRAPHS
        and not any(normalise_heading(r.heading) or r.hint or r.forced for r in raws)
    ):
        return _typed_by_content(raws)
    raws = _unmerge(raws)
    numbers_text = [raw.number if raw.number else split_numbering(raw.heading)[0] for raw in raws]
    headings = [split_numbering(raw.heading)[1] if not raw.number else _strip_number(raw) for raw in raws]
    romans = any(len(t) > 1 and _ROMAN.match(t.rstrip(".")) for t in numbers_text if t)
    numbers = [_classify(t, romans) if t else None for t in numbers_text]
    appendix = [False] * len(raws)
    stripped = [
        RawSection(h, r.paragraphs, r.level, r.number, r.hint, r.forced) for h, r in zip(headings, raws, strict=True)
    ]
    if raws and all(r.level is not None for r in raws):
        levels = [r.level or 1 for r in raws]
        flat = len(set(levels)) == 1  # a format's levels that say nothing: infer them as for a flat list
        if flat and any(n is not None and n.parts > 1 for n in numbers):
            levels, appendix = _numbered_levels(numbers, stripped)
        else:
            if any(n is not None for n in numbers):
                _, appendix = _numbered_levels(numbers, stripped)
            if flat:
                levels = [levels[0] - 1 + lv for lv in _flat_levels(stripped)]
    elif sum(n is not None for n in numbers) >= 2:
        levels, appendix = _numbered_levels(numbers, stripped)
    else:
        levels = _flat_levels(stripped)

    parents: list[int | None] = []  # the index of each section's parent
    open_: list[int] = []
    for i, level in enumerate(levels):
        while open_ and levels[open_[-1]] >= level:
            open_.pop()
        parents.append(open_[-1] if open_ else None)
        open_.append(i)
    contextual = _contextual_types(stripped, parents, appendix)

    out: list[Section] = []
    kinds: list[SectionType] = []
    closed: list[bool] = []  # everything under this section is "other" (an appendix, "Supplementary material")
    for i, raw in enumerate(stripped):
        parent = parents[i]
        if raw.forced is not None:
            kind = raw.forced
        elif appendix[i] or (parent is not None and closed[parent]):
            kind = "other"
        elif i in contextual:
            kind = contextual[i]
        else:
            kind = section_type(raw.heading, raw.hint, kinds[parent] if parent is not None else None)
        kinds.append(kind)
        closed.append(
            kind == "other"
            and (
                raw.forced == "other"
                or appendix[i]
                or _is_other_heading(raw.heading)
                or (parent is not None and closed[parent])
            )
        )
        paragraphs = tuple(p for p in raw.paragraphs if p)
        if paragraphs:
            chain: list[int] = []
            j: int | None = i
            while j is not None:
                chain.append(j)
                j = parents[j]
            path = " / ".join(stripped[j].heading for j in reversed(chain) if stripped[j].heading)
            if out and out[-1].heading == path and out[-1].type == kind:  # a section continued after a subsection
                paragraphs = out.pop().paragraphs + paragraphs
            out.append(Section(heading=path, type=kind, paragraphs=paragraphs))
    return tuple(out)


MIN_CONTENT_PARAGRAPHS = 4  # fewer paragraphs than a research paper's parts: left "other"


def _typed_by_content(raws: Sequence[RawSection]) -> tuple[Section, ...]:
    """A body without any heading: its paragraphs typed by what they say and where they stand
    (:func:`~claimforge.io.papers.content_types.content_types`), one section per run of a type, with no heading."""
    paragraphs = [p for raw in raws for p in raw.paragraphs if p]
    out: list[Section] = []
    for para, kind in zip(paragraphs, content_types(paragraphs), strict=True):
        if out and out[-1].type == kind:
            out[-1] = Section(heading="", type=kind, paragraphs=out[-1].paragraphs + (para,))
        else:
            out.append(Section(heading="", type=kind, paragraphs=(para,)))
    return tuple(out)


def _contextual_types(
    raws: Sequence[RawSection], parents: Sequence[int | None], appendix: Sequence[bool]
) -> dict[int, SectionType]:
    """Types from a top-level section's place, for those whose heading says nothing (no rule, no hint):

    - after the introduction and before the first results section, it describes the method, in the
      introduction-methods-results order of a research paper ("Introduction, Literature Graph, Entity Linking,
      Experiments"); nothing is inferred for a paper without a top-level results section (essays, reviews);
    - after a methods, results or discussion section, it goes on with it: a flat heading list ("Results, The
      more the better, Attention mechanism, Conclusions") keeps a section's subsections beside it.

    A heading that names a main part ("Related work", "Methods") starts over."""
    roots = [i for i, p in enumerate(parents) if p is None]
    untyped = {
        i
        for i in roots
        if raws[i].forced is None
        and not appendix[i]
        and normalise_heading(raws[i].heading)
        and heading_type(raws[i].heading) is None
        and _hint_type(raws[i].hint) is None
    }
    kinds = {
        i: raws[i].forced or ("other" if appendix[i] else section_type(raws[i].heading, raws[i].hint)) for i in roots
    }
    out: dict[int, SectionType] = {}
    first_results = next((i for i in roots if kinds[i] == "results"), None)
    if first_results is not None:
        intro = next((i for i in roots if kinds[i] == "introduction"), roots[0])
        out.update({i: "methods" for i in untyped if intro < i < first_results})
    carry: SectionType | None = None
    for i in roots:
        if i in untyped:
            if carry is not None and i not in out:
                out[i] = carry
        elif _names_main_part(raws[i].heading) or kinds[i] == "other" and normalise_heading(raws[i].heading):
            carry = kinds[i] if kinds[i] in ("methods", "results", "discussion") else None
    return out


def _strip_number(raw: RawSection) -> str:
    """The heading without the format's numbering when the heading repeats it ("3.1 Results" with n="3.1")."""
    num, rest = split_numbering(raw.heading)
    if num and raw.number and num.rstrip(".)") == raw.number.strip().rstrip(".)"):
        return rest
    return " ".join(raw.heading.split())
