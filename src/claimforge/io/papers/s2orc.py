"""S2ORC JSON (Semantic Scholar's open research corpus, and ``s2orc-doc2json`` output) → :class:`Paper`.

Four layouts are read, told apart by their keys (the version goes into ``meta["s2orc_schema"]``):

``2019-09-28``
    ``{paper_id, metadata: {title, abstract, doi, pmc_id, pubmed_id, ...}, grobid_parse: {abstract, body_text,
    ref_entries, bib_entries}, latex_parse}``; the LaTeX parse is used when it has body text (its sections come
    from the source, not from a PDF), else the GROBID parse;
``2020-07-05``
    the ``pdf_parses`` records: ``{paper_id, _pdf_hash, abstract, body_text, bib_entries, ref_entries}`` (no
    title: the release keeps metadata in other files);
``2021-01-01``
    ``{paper_id, metadata: {title, authors, year}, abstract, body_text, bib_entries, ref_entries, back_matter}``;
``doc2json``
    ``{paper_id, title, authors, year, abstract: str, pdf_parse: {abstract, body_text, back_matter,
    bib_entries, ref_entries}}``, whose paragraphs also carry ``sec_num``.

In all of them the body is a list of paragraphs ``{text, section, sec_num?, cite_spans, ref_spans, eq_spans}``:
consecutive paragraphs of the same section make one section, ``sec_num`` (or numbering in the heading, "II.
PRELIMINARIES") nests them, and without numbering a heading whose only paragraph is empty ("Results" with
text "") opens a group (:func:`~claimforge.io.papers.sections.build_sections`). A paragraph's citation,
figure/table and equation spans are cut out of its text by their offsets. ``ref_entries`` give the captions,
``bib_entries`` the references (their ``raw_text`` when kept, else formatted from the fields);
``back_matter`` (acknowledgements, appendices) is left out.

A file that is not JSON is :class:`~claimforge.io.papers.PaperError` ``not_well_formed``; JSON without the
S2ORC keys is ``not_s2orc``. :func:`from_json` reads an already decoded record (a line of an S2ORC JSONL file).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from claimforge.io.papers import PaperError
from claimforge.io.papers.sections import RawSection, build_sections
from claimforge.io.papers.text import clean_text, parse_json, reference_line, sentences
from claimforge.records import Paper, SourceRef

__all__ = ["FORMAT", "S2ORC_KEYS", "from_json", "is_s2orc", "parse"]

FORMAT = "s2orc"
S2ORC_KEYS = ("body_text", "pdf_parse", "grobid_parse", "latex_parse")
_SPANS = ("cite_spans", "ref_spans", "eq_spans")


def is_s2orc(obj: Any) -> bool:
    """A decoded JSON value is an S2ORC record (an object with body text or a parse)."""
    return isinstance(obj, dict) and any(k in obj for k in S2ORC_KEYS)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _paragraph_text(par: Mapping[str, Any]) -> str:
    """A paragraph's text with its citation, figure/table and equation spans cut out (by their offsets)."""
    text = _str(par.get("text"))
    cuts: list[tuple[int, int]] = []
    for key in _SPANS:
        for span in par.get(key) or ():
            if not isinstance(span, dict):
                continue
            start, end = span.get("start"), span.get("end")
            if isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text):
                cuts.append((start, end))
    if not cuts:
        return text
    out, pos = [], 0
    for start, end in sorted(cuts):
        if start >= pos:
            out.append(text[pos:start])
        pos = max(pos, end)
    out.append(text[pos:])
    return " ".join(out)


def _paragraphs(value: Any, where: str, field: str) -> list[Mapping[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(p, dict) for p in value):
        raise PaperError("not_s2orc", f"{where}: {field} is not a list of paragraph objects")
    return value


def _body(paragraphs: list[Mapping[str, Any]]) -> list[RawSection]:
    out: list[RawSection] = []
    key: tuple[str, str] | None = None
    for par in paragraphs:
        heading = clean_text(_str(par.get("section")))
        number = _str(par.get("sec_num")).strip()
        if key != (heading, number) or not out:
            out.append(RawSection(heading=heading, number=number or None))
            key = (heading, number)
        text = _paragraph_text(par)
        if text.strip():
            out[-1].paragraphs.append(sentences(text))
    return out


def _author(a: Any) -> str:
    if not isinstance(a, dict):
        return _str(a)
    last = clean_text(_str(a.get("last")))
    initials = "".join(clean_text(_str(x))[:1] for x in [a.get("first"), *(a.get("middle") or [])] if x)
    return f"{last} {initials}".strip()


def _reference(entry: Any) -> str:
    if not isinstance(entry, dict):
        return clean_text(_str(entry))
    raw = clean_text(_str(entry.get("raw_text")))
    if raw:
        return raw
    ids = entry.get("other_ids") or {}
    dois = (ids.get("doi") or ids.get("DOI") or []) if isinstance(ids, dict) else []
    return reference_line(
        [_author(a) for a in entry.get("authors") or []],
        _str(entry.get("title")),
        _str(entry.get("venue")),
        _str(entry.get("year")),
        _str(entry.get("volume")),
        _str(entry.get("pages")),
        _str(dois[0]) if isinstance(dois, list) and dois else "",
    )


def _schema(obj: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """The layout's name and the object that holds the parse (body_text, ref_entries, bib_entries)."""
    if isinstance(obj.get("pdf_parse"), dict):
        return "doc2json", obj["pdf_parse"]
    if "grobid_parse" in obj or "latex_parse" in obj:
        latex = obj.get("latex_parse")
        if isinstance(latex, dict) and latex.get("body_text"):
            return "2019-09-28", latex
        grobid = obj.get("grobid_parse")
        return "2019-09-28", grobid if isinstance(grobid, dict) else {}
    if "metadata" in obj:
        return "2021-01-01", obj
    return "2020-07-05", obj


def _abstract(obj: Mapping[str, Any], src: Mapping[str, Any], where: str) -> tuple[tuple[str, ...], ...]:
    value = src.get("abstract")
    if isinstance(value, list) and value:
        return tuple(p for p in (sentences(_paragraph_text(par)) for par in _paragraphs(value, where, "abstract")) if p)
    metadata = _dict(obj.get("metadata"))
    for text in (obj.get("abstract"), metadata.get("abstract")):
        if isinstance(text, str) and text.strip():
            return tuple(p for p in (sentences(part) for part in text.split("\n")) if p)
    return ()


def _meta(obj: Mapping[str, Any], schema: str) -> dict[str, Any]:
    metadata = _dict(obj.get("metadata"))
    out: dict[str, Any] = {"s2orc_schema": schema}
    if obj.get("paper_id") not in (None, ""):
        out["paper_id"] = _str(obj["paper_id"])
    for key, name in (
        ("doi", "doi"),
        ("pmc_id", "pmcid"),
        ("pubmed_id", "pmid"),
        ("arxiv_id", "arxiv"),
        ("acl_id", "acl"),
        ("year", "year"),
        ("venue", "venue"),
        ("journal", "journal"),
    ):
        value = metadata.get(key, obj.get(key))
        if value not in (None, ""):
            out[name] = _str(value)
    return out


def from_json(obj: Any, paper_id: str, where: str) -> Paper:
    """An S2ORC record (decoded JSON) as a Paper; ``where`` names the file (and line) in errors and ``ref``."""
    if not is_s2orc(obj):
        keys = ", ".join(sorted(obj)[:12]) if isinstance(obj, dict) else type(obj).__name__
        raise PaperError(
            "not_s2orc", f"{where}: no S2ORC keys ({', '.join(S2ORC_KEYS)}); found {keys or 'an empty object'}"
        )
    schema, src = _schema(obj)
    metadata = _dict(obj.get("metadata"))
    title = clean_text(_str(metadata.get("title") or obj.get("title") or src.get("title")))
    body = _paragraphs(src.get("body_text"), where, "body_text")
    ref_entries = _dict(src.get("ref_entries"))
    captions = [clean_text(_str(e.get("text"))) for e in ref_entries.values() if isinstance(e, dict)]
    bib = _dict(src.get("bib_entries"))
    references = [_reference(e) for e in bib.values()]
    return Paper(
        id=paper_id,
        title=title,
        abstract=_abstract(obj, src, where),
        sections=build_sections(_body(body), by_content=True),
        captions=tuple(c for c in captions if c),
        references=tuple(r for r in references if r),
        format=FORMAT,
        ref=SourceRef(dataset=FORMAT, path=where, line=None, item_id=paper_id),
        meta=_meta(obj, schema),
    )


def parse(data: bytes, paper_id: str, where: str) -> Paper:
    """An S2ORC JSON file (bytes) as a Paper; ``where`` names the file in errors and in ``ref``."""
    return from_json(parse_json(data, where), paper_id, where)
