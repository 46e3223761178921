"""Section headings → the normalised section types of :data:`claimforge.records.SECTION_TYPES`.

Rules over the heading's words (numbering such as "3.2" or "IV." stripped), checked in order, so "Results and
Discussion" is a results section and "Conclusions and future work" a conclusion; JATS ``sec-type`` attributes
("intro", "materials|methods", "results", "discussion", "conclusions") are hints used when the heading says
nothing. A subsection whose heading says nothing takes its parent's type.
"""

from __future__ import annotations

import re

from claimforge.records import SectionType

# (type, heading pattern): the first that matches wins
_RULES: tuple[tuple[SectionType, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        # not part of the paper's argument: checked first ("Supporting information", "Acknowledgements")
        (
            "other",
            r"^(acknowledge?ments?|funding|references|bibliography|appendi(x|ces)|supplementa(ry|l)|supporting"
            r"|author(s'?)? contributions?|competing interests?|conflicts? of interests?|declarations?|abbreviations"
            r"|ethics|data availability|availability|related work|previous work|prior work|literature review"
            r"|notes?$|footnotes?|author summary|editors'? summary|limitations?$)",
        ),
        ("conclusion", r"^(conclu|concluding|summary and conclusions?|closing remarks|final remarks|outlook|summary$)"),
        ("results", r"^(results?|findings|experiments?( and results?)?|experimental (results?|evaluation|setup)"
                    r"|evaluations?|empirical|main results|performance|ablations?|analysis of results)"),
        ("discussion", r"^(discussions?|general discussion|interpretation|implications)"),
        ("methods", r"^(methods?|methodology|materials?|patients|participants|subjects|study (design|population)"
                    r"|experimental (procedures?|design|methods?|section)|statistical (analysis|methods?)"
                    r"|data( collection| and methods?)?$|datasets?$|model$|models$|our (approach|method|model)"
                    r"|(the )?proposed (approach|method|model)|approach$|framework$|setup$|experimental setting"
                    r"|implementation( details)?|training( details)?)"),
        ("introduction", r"^(introduction|background|motivation|overview$|preliminar(y|ies))"),
        # second chance, anywhere in the heading: "Cell growth results", "Comparison with prior methods"
        ("conclusion", r"\bconclusions?\b"),
        ("results", r"\bresults?\b"),
        ("discussion", r"\bdiscussion\b"),
        ("methods", r"\b(methods?|materials|procedures?)\b"),
        ("introduction", r"\bintroduction\b"),
    )
)

_HINTS: dict[str, SectionType] = {
    "intro": "introduction",
    "introduction": "introduction",
    "background": "introduction",
    "methods": "methods",
    "materials": "methods",
    "materials|methods": "methods",
    "methods|materials": "methods",
    "subjects": "methods",
    "cases": "methods",
    "results": "results",
    "results|discussion": "results",
    "discussion": "discussion",
    "conclusions": "conclusion",
    "conclusion": "conclusion",
    "supplementary-material": "other",
}

_NUMBERING = re.compile(r"^\s*((\d+|[ivxlcdm]+|[a-z])([.)]\d*)*[.):]?|§)\s+", re.IGNORECASE)


def normalise_heading(heading: str) -> str:
    """Lower case, numbering ("2.1", "IV.", "A.") and trailing punctuation removed, spaces collapsed."""
    h = " ".join(heading.split())
    h = _NUMBERING.sub("", h)
    return h.strip(" .:;").lower()


def section_type(heading: str, hint: str | None = None, parent: SectionType | None = None) -> SectionType:
    """The type of a section from its heading; ``hint`` is a format's own label (JATS ``sec-type``), ``parent``
    the enclosing section's type (a subsection whose heading says nothing takes it)."""
    h = normalise_heading(heading)
    if h:
        for kind, pattern in _RULES:
            if pattern.search(h):
                return kind
    if hint:
        key = hint.strip().lower()
        if key in _HINTS:
            return _HINTS[key]
        for part in key.split("|"):
            if part in _HINTS:
                return _HINTS[part]
    return parent if parent is not None else "other"
