"""A small reader of OBO 1.2/1.4 flat files (``hp.obo``, ``go-basic.obo``): the ``[Term]`` stanzas' id, name,
namespace, def, synonyms (text, scope, type), is_a, relationship, alt_id and is_obsolete. Other tags and
stanzas (``[Typedef]``, ``[Instance]``) are skipped. A malformed line raises an InputError naming the file
and the line. Plain or gzip-compressed files; Windows line endings are fine."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from claimforge.kb.base import input_error, open_text

__all__ = ["OboTerm", "read_obo", "SYNONYM_SCOPES"]

SYNONYM_SCOPES = ("EXACT", "RELATED", "BROAD", "NARROW")
_QUOTED = r'"((?:[^"\\]|\\.)*)"'
_SYNONYM = re.compile(
    _QUOTED + r"\s+(EXACT|RELATED|BROAD|NARROW)(?:\s+([^\s\[\]{}]+))?\s*(?:\[.*\])?\s*(?:\{.*\})?\s*$"
)
_DEF = re.compile(_QUOTED + r"\s*(?:\[.*\])?\s*(?:\{.*\})?\s*$")
_ESCAPE = re.compile(r"\\(.)")


@dataclass
class OboTerm:
    id: str
    line: int  # where the stanza starts
    name: str = ""
    namespace: str = ""
    definition: str = ""
    synonyms: list[tuple[str, str, str]] = field(default_factory=list)  # (text, scope, synonym type or "")
    is_a: list[str] = field(default_factory=list)
    relationships: list[tuple[str, str]] = field(default_factory=list)  # (relation, target id)
    alt_ids: list[str] = field(default_factory=list)
    is_obsolete: bool = False


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _strip_comment(value: str) -> str:
    """``HP:0012638 ! Abnormal nervous system physiology`` -> ``HP:0012638`` (also drops ``{...}`` modifiers)."""
    value = value.split(" !", 1)[0]
    value = re.sub(r"\s*\{.*\}\s*$", "", value)
    return value.strip()


def read_obo(path: Path) -> tuple[dict[str, str], list[OboTerm]]:
    """(header tags, the [Term] stanzas in file order)."""
    path = Path(path)
    header: dict[str, str] = {}
    terms: list[OboTerm] = []
    term: OboTerm | None = None
    section = ""  # "" = the header, else the stanza's [Type]
    start = 0
    with open_text(path) as f:
        for lineno, raw in enumerate(f, start=1):
            line = raw.strip()
            if not line or line.startswith("!"):
                continue
            if line.startswith("["):
                if term is not None:
                    terms.append(term)
                term = None
                section, start = line, lineno
                continue
            if section and section != "[Term]":
                continue
            tag, sep, value = line.partition(":")
            if not sep:
                raise input_error(path, f"line {lineno}", f"expected 'tag: value', got {line[:80]!r}")
            tag, value = tag.strip(), value.strip()
            if not section:
                header.setdefault(tag, value)
                continue
            if tag == "id":
                if term is not None:
                    raise input_error(path, f"line {lineno}", "a second 'id' in one [Term] stanza")
                term = OboTerm(id=_strip_comment(value), line=start)
                continue
            if term is None:
                raise input_error(path, f"line {lineno}", f"'{tag}' before the stanza's 'id'")
            _set_tag(path, lineno, term, tag, value)
    if term is not None:
        terms.append(term)
    return header, terms


def _set_tag(path: Path, lineno: int, term: OboTerm, tag: str, value: str) -> None:
    if tag == "name":
        term.name = value
    elif tag == "namespace":
        term.namespace = value
    elif tag == "def":
        m = _DEF.match(value)
        if not m:
            raise input_error(path, f"line {lineno}", f"malformed def (expected a quoted text): {value[:80]!r}")
        term.definition = _unescape(m.group(1))
    elif tag == "synonym":
        m = _SYNONYM.match(value)
        if not m:
            raise input_error(
                path, f"line {lineno}", f"malformed synonym (expected '\"text\" SCOPE [xrefs]'): {value[:80]!r}"
            )
        term.synonyms.append((_unescape(m.group(1)), m.group(2), m.group(3) or ""))
    elif tag == "is_a":
        term.is_a.append(_strip_comment(value).split()[0])
    elif tag == "relationship":
        parts = _strip_comment(value).split()
        if len(parts) < 2:
            raise input_error(path, f"line {lineno}", f"malformed relationship: {value[:80]!r}")
        term.relationships.append((parts[0], parts[1]))
    elif tag == "alt_id":
        term.alt_ids.append(_strip_comment(value))
    elif tag == "is_obsolete":
        term.is_obsolete = value.lower() == "true"
