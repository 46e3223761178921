"""GROBID TEI XML (``*.tei.xml``, what GROBID makes of a PDF) → :class:`~claimforge.records.Paper`.

What is taken from the document:

- ``title``: ``teiHeader/fileDesc/titleStmt/title`` (the main title);
- ``abstract``: the paragraphs of ``teiHeader/profileDesc/abstract``;
- ``sections``: the ``div``s of ``text/body`` in reading order, each with its ``head`` (and the head's ``n``
  numbering). GROBID usually writes every heading as a flat ``div``: a div numbered "3.1" is a subsection of
  "3", an unnumbered one after a numbered section is under it, and a heading GROBID glued to its first
  subheading ("Model 2.1 Overview", numbered "2") is split in two
  (:func:`~claimforge.io.papers.sections.build_sections`). Paragraphs outside any div, and a div without a head,
  are sections with heading "" (type ``other``, or the parent's);
- paragraph text leaves out citation, figure, table and formula callouts (``ref``), formulas and footnote
  markers; ``back`` (acknowledgements, appendices) is not body text;
- ``captions``: every ``figure``'s (and table's) ``figDesc``, prefixed with its head when the description does
  not start with it ("Table 1: ...");
- ``references``: one line per ``listBibl/biblStruct``: GROBID's ``note type="raw_reference"`` when it kept
  one, else the entry formatted from its fields;
- ``meta``: ``doi`` (from the header's ``idno``), ``grobid_version`` and ``language`` when given.

Not well-formed XML is :class:`~claimforge.io.papers.PaperError` ``not_well_formed``; XML whose root is not
``TEI`` is ``not_tei``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from claimforge.io.papers import PaperError
from claimforge.io.papers.sections import RawSection, build_sections
from claimforge.io.papers.text import (
    clean_text,
    element_text,
    parse_xml,
    reference_line,
    sentences,
    strip_namespaces,
)
from claimforge.records import Paper, SourceRef

__all__ = ["FORMAT", "parse"]

FORMAT = "tei"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# Not running prose: callouts (citations, figures, tables, formulas, footnotes) and display formulas.
_SKIP = frozenset({"ref", "formula", "figure", "table", "note", "label", "graphic"})
_BLOCK = frozenset({"p", "item", "head", "list", "lb", "row", "cell"})


def _text(el: ET.Element) -> str:
    """Text of an element without the subtrees that are not prose (a skipped element keeps its tail)."""
    return element_text(el, _SKIP, _BLOCK)


def _plain(el: ET.Element | None) -> str:
    return clean_text("".join(el.itertext())) if el is not None else ""


def _paragraphs(el: ET.Element) -> list[tuple[str, ...]]:
    """Paragraphs of one block of a div: a ``p``, or each item of a ``list``."""
    if el.tag == "p":
        return [sentences(_text(el))]
    if el.tag == "list":
        return [sentences(_text(item)) for item in el.findall("item")]
    return []


def _div_sections(div: ET.Element, depth: int, out: list[RawSection]) -> None:
    head = div.find("head")
    heading = clean_text(_text(head)) if head is not None else ""
    number = (head.get("n") or "").strip() if head is not None else ""
    current = RawSection(heading=heading, level=depth, number=number or None)
    out.append(current)
    for child in div:
        if child.tag == "div":
            _div_sections(child, depth + 1, out)
            current = RawSection(heading=heading, level=depth, number=number or None)
            out.append(current)
        else:
            current.paragraphs.extend(_paragraphs(child))


def _body_sections(body: ET.Element) -> list[RawSection]:
    out: list[RawSection] = []
    loose: RawSection | None = None
    for child in body:
        if child.tag == "div":
            _div_sections(child, 1, out)
            loose = None
        elif child.tag in ("p", "list"):
            if loose is None:
                loose = RawSection(heading="", level=1)
                out.append(loose)
            loose.paragraphs.extend(_paragraphs(child))
    if all(r.level == 1 for r in out):  # GROBID's flat divs: let the numbering and headings nest them
        for r in out:
            r.level = None
    return out


def _caption(figure: ET.Element) -> str:
    desc_el = figure.find("figDesc")
    desc = clean_text(_text(desc_el)).lstrip(".:;, ") if desc_el is not None else ""
    if not desc:
        return ""
    head = _plain(figure.find("head")).rstrip(" .:")
    if head and not _squeeze(desc).startswith(_squeeze(head)):
        return f"{head}: {desc}"
    return desc


def _squeeze(text: str) -> str:
    """Lower case without spaces and punctuation: "FIG. 2 ." and "FIG. 2." compare equal."""
    return re.sub(r"[\W_]+", "", text).lower()


def _person(el: ET.Element) -> str:
    pers = el.find("persName")
    if pers is None:
        return _plain(el)
    surname = _plain(pers.find("surname"))
    initials = "".join(_plain(f)[:1] for f in pers.findall("forename") if _plain(f))
    return f"{surname} {initials}".strip()


def _reference(bibl: ET.Element) -> str:
    raw = next((n for n in bibl.findall("note") if n.get("type") == "raw_reference"), None)
    if raw is not None and _plain(raw):
        return _plain(raw)
    analytic, monogr = bibl.find("analytic"), bibl.find("monogr")
    authors = [_person(a) for part in (analytic, monogr) if part is not None for a in part.findall("author")]
    title = _plain(analytic.find("title")) if analytic is not None else ""
    venue = _plain(monogr.find("title")) if monogr is not None else ""
    if not title:
        title, venue = venue, ""
    year = volume = pages = ""
    imprint = monogr.find("imprint") if monogr is not None else None
    if imprint is not None:
        date = imprint.find("date")
        year = ((date.get("when") or _plain(date)) if date is not None else "")[:4]
        for scope in imprint.findall("biblScope"):
            unit = scope.get("unit")
            if unit == "volume":
                volume = _plain(scope) or scope.get("from", "")
            elif unit == "page":
                first, last = scope.get("from", ""), scope.get("to", "")
                pages = f"{first}-{last}" if first and last else first or _plain(scope)
    doi = next((_plain(i) for i in bibl.iter("idno") if (i.get("type") or "").lower() == "doi"), "")
    return reference_line([a for a in authors if a], title, venue, year, volume, pages, doi)


def _meta(root: ET.Element) -> dict[str, Any]:
    out: dict[str, Any] = {}
    header = root.find("teiHeader")
    if header is not None:
        source = header.find("fileDesc/sourceDesc/biblStruct")
        if source is not None:
            for idno in source.findall("idno"):
                kind = (idno.get("type") or "").lower()
                if kind in ("doi", "arxiv", "pmid", "pmcid") and _plain(idno):
                    out[kind] = _plain(idno)
        app = header.find("encodingDesc/appInfo/application")
        if app is not None and app.get("version"):
            out["grobid_version"] = app.get("version")
        if header.get(_XML_LANG):
            out["language"] = header.get(_XML_LANG)
    return out


def parse(data: bytes, paper_id: str, where: str) -> Paper:
    """A GROBID TEI document (bytes of the XML file) as a Paper; ``where`` names the file in errors and ``ref``."""
    root = parse_xml(data, where)
    strip_namespaces(root)
    if root.tag != "TEI":
        raise PaperError("not_tei", f"{where}: the root element is <{root.tag}>, not <TEI>")
    title_el = next(
        (t for t in root.findall("teiHeader/fileDesc/titleStmt/title") if t.get("type") in (None, "main")), None
    )
    abstract: list[tuple[str, ...]] = []
    for ab in root.findall("teiHeader/profileDesc/abstract"):
        for block in ab.iter():
            if block.tag in ("p", "list"):
                abstract.extend(_paragraphs(block))
    body = root.find("text/body")
    raws = _body_sections(body) if body is not None else []
    text = root.find("text")
    captions = [c for c in (_caption(f) for f in text.iter("figure")) if c] if text is not None else []
    bibls = [b for lb in root.iter("listBibl") for b in lb.findall("biblStruct")]
    refs = [r for r in (_reference(b) for b in bibls) if r]
    return Paper(
        id=paper_id,
        title=_plain(title_el),
        abstract=tuple(p for p in abstract if p),
        sections=build_sections(raws, by_content=True),
        captions=tuple(captions),
        references=tuple(refs),
        format=FORMAT,
        ref=SourceRef(dataset=FORMAT, path=where, line=None, item_id=paper_id),
        meta=_meta(root),
    )
