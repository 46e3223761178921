"""JATS / NXML articles (PLOS, PubMed Central) as sentence documents: the abstract and the body paragraphs,
with citation callouts, figures, tables and formulas left out. The first member of the paper-reader family;
a full document model with typed sections is issue 14's work.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from claimforge.io.rows import InputError
from claimforge.io.sentences import split_text
from claimforge.records import Document

_SKIP = {
    "xref",
    "table-wrap",
    "fig",
    "disp-formula",
    "inline-formula",
    "table",
    "supplementary-material",
    "ext-link",
    "fn",
    "label",
}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _text(el: ET.Element) -> str:
    """Text of an element without the subtrees that are not prose (citation callouts keep their tail)."""
    parts = [el.text or ""]
    for child in el:
        if _local(child.tag) not in _SKIP:
            parts.append(_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def jats_document(
    data: bytes, doc_id: str, where: str, parts: tuple[str, ...] = ("abstract", "body")
) -> Document:
    """A document of the abstract's and the body's paragraph sentences (``parts``: which of the two); ``where``
    names the file in errors."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise InputError(Path(where), f"line {e.position[0]}", f"not well-formed XML ({e})") from None
    title_el = root.find(".//article-meta/title-group/article-title")
    sentences: list[str] = []
    for part in parts:
        for section in root.iter():
            if _local(section.tag) != part:
                continue
            if part == "abstract" and section.get("abstract-type") not in (None, "structured"):
                continue  # author summaries and graphical abstracts repeat the abstract
            for p in section.iter():
                if _local(p.tag) == "p":
                    sentences.extend(split_text(_text(p)))
    return Document(
        id=doc_id, title=_text(title_el).strip() if title_el is not None else "", sentences=tuple(sentences)
    )
