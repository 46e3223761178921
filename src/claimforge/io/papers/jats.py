"""JATS / NXML articles (PLOS, PubMed Central) → :class:`~claimforge.records.Paper`.

What is taken from the article:

- ``title``: ``front/article-meta/title-group/article-title``;
- ``abstract``: the paragraphs of every ``abstract`` of the article's metadata except secondary ones (author and
  editors' summaries, graphical, table-of-contents and teaser abstracts: their ``abstract-type`` is in
  :data:`SECONDARY_ABSTRACTS`); a structured abstract gives its paragraphs (its section titles are dropped);
- ``sections``: the ``body``'s ``sec`` tree in reading order, with heading paths and types
  (:func:`~claimforge.io.papers.sections.build_sections`, ``sec-type`` as the hint, the ``label`` as the
  numbering); text directly under ``body`` (some PMC articles have ``p`` there) is a section with heading ""
  and type ``other``; lists, quotes and boxed text are paragraphs of the section they stand in;
- paragraph text leaves out citation callouts and other cross-references (``xref``), figures, tables,
  formulas (display and inline), footnotes and links; the empty brackets callouts leave are removed;
- ``captions``: every figure's and table's label and caption ("Fig 2. Growth curves. ...");
- ``references``: one line per ``ref`` of the reference list (a ``mixed-citation`` as written, an
  ``element-citation`` formatted from its fields);
- ``meta``: ``pmid``, ``pmcid``, ``doi``, ``journal``, ``article_type`` and ``year`` when given.

A document that is not well-formed XML is :class:`~claimforge.io.papers.PaperError` ``not_well_formed``; one
without an ``article`` element is ``not_jats``. :func:`jats_document` gives the article as a sentence
document (the abstract's and the body's sentences), as the corpus readers want it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
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
from claimforge.io.rows import InputError
from claimforge.records import Document, Paper, SourceRef

__all__ = ["FORMAT", "SECONDARY_ABSTRACTS", "jats_document", "parse"]

FORMAT = "jats"

SECONDARY_ABSTRACTS = frozenset(
    {
        "summary",
        "author-summary",
        "editor",
        "editors-summary",
        "executive-summary",
        "patient",
        "synopsis",
        "author-highlights",
        "highlights",
        "web-summary",
        "teaser",
        "toc",
        "graphical",
        "precis",
        "key-points",
        "plain-language-summary",
        "lay-summary",
        "short",
    }
)

# Elements whose text is not running prose: callouts, floats, formulas, footnotes, links, labels.
_SKIP = frozenset(
    {
        "xref",
        "table-wrap",
        "table-wrap-group",
        "fig",
        "fig-group",
        "disp-formula",
        "disp-formula-group",
        "inline-formula",
        "math",
        "tex-math",
        "alternatives",
        "table",
        "supplementary-material",
        "ext-link",
        "fn",
        "label",
        "inline-graphic",
        "graphic",
        "media",
        "object-id",
    }
)
# Elements that end a run of words: their text is set apart by spaces ("<list-item><p>a</p>..." -> "a b").
_BLOCK = frozenset(
    {
        "p",
        "list",
        "list-item",
        "title",
        "caption",
        "def-list",
        "def-item",
        "term",
        "def",
        "disp-quote",
        "boxed-text",
        "sec",
        "break",
        "attrib",
        "statement",
        "verse-line",
    }
)
# Body content that is not a paragraph of the section it stands in (captions are collected separately).
_NOT_BODY_TEXT = _SKIP | {"sec-meta", "title", "ref-list", "ack", "app-group", "glossary", "notes"}
_PARAGRAPHS = frozenset({"p", "list-item", "def-item", "verse-group", "speech", "attrib"})
_CITATIONS = ("mixed-citation", "element-citation", "citation", "nlm-citation")


def _text(el: ET.Element) -> str:
    """Text of an element without the subtrees that are not prose (a skipped element keeps its tail)."""
    return element_text(el, _SKIP, _BLOCK)


# --------------------------------------------------------------------------------------------------
# Body


def _block_paragraphs(el: ET.Element) -> list[tuple[str, ...]]:
    """The paragraphs of one block of body content (a ``p``, a list, boxed text, a quote, ...)."""
    tag = el.tag if isinstance(el.tag, str) else ""
    if not tag or tag in _NOT_BODY_TEXT:
        return []
    if tag == "p":
        return [sentences(_text(el))]
    if tag in ("list", "def-list"):
        items = [c for c in el if c.tag in ("list-item", "def-item")]
        return [sentences(_text(c)) for c in items]
    out: list[tuple[str, ...]] = []
    if el.text and el.text.strip() and tag in _PARAGRAPHS:
        return [sentences(_text(el))]
    for child in el:  # a wrapper (boxed-text, disp-quote, statement, sec inside a box): its blocks in order
        out.extend(_block_paragraphs(child))
    return out


def _walk(
    container: ET.Element, level: int, out: list[RawSection], heading: str, number: str | None, hint: str | None
) -> None:
    """Append the sections of a ``sec`` at ``level`` in reading order: its own paragraphs, then each subsection;
    paragraphs after a subsection continue the section (a second raw section with the same heading)."""
    current = RawSection(heading=heading, level=level, number=number, hint=hint)
    out.append(current)
    for child in container:
        if child.tag == "sec":
            _walk_sec(child, level + 1, out)
            current = RawSection(heading=heading, level=level, number=number, hint=hint)
            out.append(current)
        else:
            current.paragraphs.extend(_block_paragraphs(child))


def _walk_sec(sec: ET.Element, level: int, out: list[RawSection]) -> None:
    title = sec.find("title")
    label = sec.find("label")
    heading = clean_text(_text(title)) if title is not None else ""
    number = clean_text("".join(label.itertext())) if label is not None else None
    _walk(sec, level, out, heading, number or None, sec.get("sec-type"))


def _body_sections(body: ET.Element) -> list[RawSection]:
    """The body as raw sections: text directly under ``body`` is a headless top-level section (one per run)."""
    out: list[RawSection] = []
    current: RawSection | None = None
    for child in body:
        if child.tag == "sec":
            _walk_sec(child, 1, out)
            current = None
            continue
        paragraphs = _block_paragraphs(child)
        if paragraphs:
            if current is None:
                current = RawSection(heading="", level=1)
                out.append(current)
            current.paragraphs.extend(paragraphs)
    return out


# --------------------------------------------------------------------------------------------------
# Front and back matter


def _abstract(meta: ET.Element) -> tuple[tuple[str, ...], ...]:
    paragraphs: list[tuple[str, ...]] = []
    for ab in meta.findall("abstract"):
        if (ab.get("abstract-type") or "").strip().lower() in SECONDARY_ABSTRACTS:
            continue
        ps = [p for p in ab.iter("p")]
        if not ps and _text(ab).strip():
            ps = [ab]
        paragraphs.extend(sentences(_text(p)) for p in ps)
    return tuple(p for p in paragraphs if p)


def _caption(el: ET.Element) -> str:
    label = el.find("label")
    caption = el.find("caption")
    if caption is None:
        return ""
    text = clean_text(_text(caption))
    if not text:
        return ""
    lab = clean_text("".join(label.itertext())) if label is not None else ""
    return f"{lab.rstrip('.:')}. {text}" if lab else text


def _name(el: ET.Element) -> str:
    if el.tag == "name":
        surname = clean_text("".join(el.findtext("surname") or ""))
        given = clean_text("".join(el.findtext("given-names") or ""))
        return " ".join(x for x in (surname, given) if x)
    return clean_text("".join(el.itertext()))


def _mixed_text(el: ET.Element) -> str:
    """A citation as written (its punctuation is in the text), names as "Surname Given"."""
    parts = [el.text or ""]
    for child in el:
        if child.tag in ("name", "string-name"):
            parts.append(_name(child) if child.tag == "name" else _mixed_text(child))
        elif child.tag in ("surname",):
            parts.append(f"{''.join(child.itertext())} ")
        elif child.tag not in ("label", "x") or (child.tag == "x" and child.text):
            parts.append(_mixed_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _field(el: ET.Element, tag: str) -> str:
    child = el.find(tag)
    return clean_text("".join(child.itertext())) if child is not None else ""


def _structured(cit: ET.Element) -> str:
    authors: list[str] = []
    for group in cit.findall("person-group"):
        if group.get("person-group-type", "author") != "author":
            continue
        for child in group:
            if child.tag in ("name", "string-name", "collab"):
                authors.append(_name(child))
            elif child.tag == "etal":
                authors.append("et al.")
    for child in cit:
        if child.tag in ("name", "collab"):
            authors.append(_name(child))
    title = _field(cit, "article-title") or _field(cit, "chapter-title")
    venue = _field(cit, "source")
    if not title and venue:
        title, venue = venue, ""
    fpage, lpage = cit.findtext("fpage") or "", cit.findtext("lpage") or ""
    pages = f"{fpage}-{lpage}" if fpage and lpage else fpage or cit.findtext("elocation-id") or ""
    doi = next((p.text or "" for p in cit.findall("pub-id") if p.get("pub-id-type") == "doi"), "")
    return reference_line(authors, title, venue, cit.findtext("year") or "", cit.findtext("volume") or "", pages, doi)


def _reference(ref: ET.Element) -> str:
    cit = next((c for name in _CITATIONS for c in ref.iter(name)), None)
    if cit is None:
        return clean_text(_mixed_text(ref))
    mixed = cit.tag == "mixed-citation" or any((c.tail or "").strip(" \n\t") for c in cit)
    return clean_text(_mixed_text(cit)) if mixed else _structured(cit)


def _meta(article: ET.Element, meta: ET.Element | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if meta is not None:
        for aid in meta.findall("article-id"):
            kind, value = (aid.get("pub-id-type") or "").lower(), clean_text(aid.text or "")
            if not value:
                continue
            if kind in ("pmc", "pmcid"):
                out["pmcid"] = value if value.upper().startswith("PMC") else f"PMC{value}"
            elif kind in ("pmid", "doi"):
                out[kind] = value
        for date in meta.findall("pub-date"):
            year = (date.findtext("year") or "").strip()
            if year:
                out["year"] = year
                break
    journal = article.find("front/journal-meta/journal-title-group/journal-title")
    if journal is None:
        journal = article.find("front/journal-meta/journal-title")
    if journal is not None and clean_text("".join(journal.itertext())):
        out["journal"] = clean_text("".join(journal.itertext()))
    if article.get("article-type"):
        out["article_type"] = article.get("article-type")
    return out


def parse(data: bytes, paper_id: str, where: str) -> Paper:
    """A JATS article (bytes of the XML file) as a Paper; ``where`` names the file in errors and in ``ref``."""
    root = parse_xml(data, where)
    strip_namespaces(root)
    articles = [root] if root.tag == "article" else root.findall(".//article")
    if not articles:
        raise PaperError("not_jats", f"{where}: no JATS <article> element (the root is <{root.tag}>)")
    if len(articles) > 1:  # a pmc-articleset from efetch: one paper a file here, never the first one silently
        raise PaperError(
            "multiple_articles", f"{where}: {len(articles)} <article> elements in one file; split it into one file each"
        )
    article = articles[0]
    meta = article.find("front/article-meta")
    title_el = meta.find("title-group/article-title") if meta is not None else None
    body = article.find("body")
    raws = _body_sections(body) if body is not None else []
    floats = [el for part in ("body", "back", "floats-group") for p in article.findall(part) for el in p.iter()]
    captions = [c for c in (_caption(el) for el in floats if el.tag in ("fig", "table-wrap")) if c]
    back = article.find("back")
    refs = [r for r in (_reference(ref) for ref in back.iter("ref")) if r] if back is not None else []
    return Paper(
        id=paper_id,
        title=clean_text(_text(title_el)) if title_el is not None else "",
        abstract=_abstract(meta) if meta is not None else (),
        sections=build_sections(raws),
        captions=tuple(captions),
        references=tuple(refs),
        format=FORMAT,
        ref=SourceRef(dataset=FORMAT, path=where, line=None, item_id=paper_id),
        meta=_meta(article, meta),
    )


def jats_document(data: bytes, doc_id: str, where: str, parts: tuple[str, ...] = ("abstract", "body")) -> Document:
    """A document of the abstract's and the body sections' sentences (``parts``: which of the two), titled with
    the article's title; ``where`` names the file in errors. A file that cannot be read as a JATS article raises
    :class:`~claimforge.io.rows.InputError`."""
    try:
        paper = parse(data, doc_id, where)
    except PaperError as e:
        raise InputError(Path(where), None, e.detail.removeprefix(f"{where}: ")) from None
    sentences_: list[str] = []
    if "abstract" in parts:
        sentences_.extend(paper.abstract_sentences)
    if "body" in parts:
        sentences_.extend(s for sec in paper.sections for s in sec.sentences)
    return Document(id=doc_id, title=paper.title, sentences=tuple(sentences_))
