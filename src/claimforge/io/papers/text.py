"""Text helpers shared by the paper parsers: cleaning what is left of a paragraph once citation callouts,
figure/table references and formulas are taken out, splitting it into sentences, joining tokenised text, and
writing one reference-list entry as one line.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import Any

from claimforge.io.papers import PaperError
from claimforge.io.rows import normalize_text
from claimforge.nlp.sentences import split_sentences

# A bracket group holding nothing but separators once its callouts are gone: "()", "[, ]", "(; –)".
_EMPTY_GROUP = re.compile(r"\s*[(\[]\s*(?:(?:[,;:\-\u2013\u2014]|and|&)\s*)*[)\]]")
# Separators left over between removed callouts, right before closing punctuation: "shown , ." -> "shown."
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?)\]])")
_SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")
_REPEATED_COMMA = re.compile(r",(\s*,)+")
_COMMA_BEFORE_STOP = re.compile(r"[,;]\s*([.!?])")


def clean_text(text: str) -> str:
    """Whitespace collapsed, and the traces of removed callouts tidied: empty bracket groups go, as do spaces
    before punctuation and commas doubled by a removed reference ("as shown , ." -> "as shown.")."""
    text = normalize_text(text)
    if not text:
        return ""
    previous = None
    while previous != text:  # "([ ])" needs two rounds
        previous = text
        text = _EMPTY_GROUP.sub("", text)
    text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _REPEATED_COMMA.sub(",", text)
    text = _COMMA_BEFORE_STOP.sub(r"\1", text)
    return normalize_text(text)


def sentences(text: str) -> tuple[str, ...]:
    """The sentences of one paragraph (cleaned with :func:`clean_text`, split with the project's splitter)."""
    return tuple(split_sentences(clean_text(text)))


# --------------------------------------------------------------------------------------------------
# Tokenised text (SciREX)

_CLITICS = ("'s", "n't", "'re", "'ve", "'ll", "'d", "'m")
_NO_SPACE_BEFORE = {",", ".", ";", ":", "!", "?", ")", "]", "}", "%", *_CLITICS}
_NO_SPACE_BEFORE |= {c.replace("'", "’") for c in _CLITICS}  # "n’t" as well as "n't"
_NO_SPACE_AFTER = {"(", "[", "{"}
_JOINERS = {"-", "/"}


def detokenize(tokens: Sequence[str]) -> str:
    """Tokens joined back into text: no space before closing punctuation or after an opening bracket, and a
    hyphen or slash between two word tokens joined tight ("Full - Resolution" -> "Full-Resolution")."""
    out: list[str] = []
    glue = True  # no space before the next token
    for i, tok in enumerate(tokens):
        if not tok:
            continue
        if tok in _JOINERS and out and out[-1][-1:].isalnum() and i + 1 < len(tokens) and tokens[i + 1][:1].isalnum():
            out.append(tok)
            glue = True
            continue
        if out and not glue and tok not in _NO_SPACE_BEFORE:
            out.append(" ")
        out.append(tok)
        glue = tok in _NO_SPACE_AFTER
    return "".join(out)


# --------------------------------------------------------------------------------------------------
# XML


def local(tag: object) -> str:
    """An element's tag without its namespace ("{http://www.tei-c.org/ns/1.0}div" -> "div"); comments and
    processing instructions (whose tag is a function) give ""."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def parse_xml(data: bytes, where: str) -> ET.Element:
    """The root element of an XML document, or :class:`PaperError` ``not_well_formed`` naming the line.

    Python's expat parser neither fetches external DTDs nor expands external entities, and refuses entity
    expansion bombs, so untrusted files are safe to parse."""
    try:
        return ET.fromstring(data)
    except ET.ParseError as e:
        line, col = e.position
        raise PaperError("not_well_formed", f"{where}: not well-formed XML at line {line}, column {col}") from None


def strip_namespaces(root: ET.Element) -> None:
    """Drop the namespaces of every tag in place (JATS and TEI files come with and without them)."""
    for el in root.iter():
        if isinstance(el.tag, str) and "}" in el.tag:
            el.tag = local(el.tag)


def element_text(el: ET.Element, skip: frozenset[str], block: frozenset[str]) -> str:
    """Text of an element without its ``skip`` subtrees (a skipped element keeps its tail); ``block`` elements
    are set off by spaces so their words do not run together."""
    parts = [el.text or ""]
    for child in el:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag and tag not in skip:
            inner = element_text(child, skip, block)
            parts.append(f" {inner} " if tag in block else inner)
        parts.append(child.tail or "")
    return "".join(parts)


def parse_json(data: bytes, where: str) -> Any:
    """A JSON document (UTF-8, a BOM allowed), or :class:`PaperError` ``not_well_formed`` naming the line."""
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise PaperError("not_well_formed", f"{where}: not UTF-8 text ({e.reason})") from None
    except json.JSONDecodeError as e:
        raise PaperError("not_well_formed", f"{where}: not valid JSON: {e.msg} (line {e.lineno})") from None


# --------------------------------------------------------------------------------------------------
# Reference-list entries


def reference_line(
    authors: Iterable[str],
    title: str = "",
    venue: str = "",
    year: str = "",
    volume: str = "",
    pages: str = "",
    doi: str = "",
) -> str:
    """One bibliography entry as one line, "Smith J, Doe A (2010). Title. Venue 12:1-10. doi:..." from the
    fields a format gives (empty fields are left out)."""
    names = [normalize_text(a) for a in authors if normalize_text(a)]
    if len(names) > 6:
        names = [*names[:6], "et al."]
    head = ", ".join(names)
    year = normalize_text(str(year or ""))
    if year:
        head = f"{head} ({year})" if head else f"({year})"
    parts = [head] if head else []
    title = normalize_text(title).rstrip(".")
    if title:
        parts.append(title)
    where = normalize_text(venue).rstrip(".")
    volume, pages = normalize_text(str(volume or "")), normalize_text(str(pages or "")).replace("--", "-")
    if volume:
        where = f"{where} {volume}".strip()
    if pages:
        where = f"{where}:{pages}" if where else pages
    if where:
        parts.append(where)
    line = ". ".join(parts)
    if line:
        line += "."
    doi = normalize_text(doi)
    if doi:
        line = f"{line} doi:{doi}".strip()
    return line
