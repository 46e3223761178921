"""Readers of real-world claims (COVID-Fact, Saakyan et al. 2021): social-media posts whose title is the claim
and whose linked source is the evidence document, and article titles whose own abstract or full text is the
"linked source" (the offline stand-in for r/COVID19 posts: real claims with their real source).

Both yield :class:`~claimforge.records.SentenceItem` records: ``sentence`` is the claim as written, ``cited`` the
linked source as a :class:`~claimforge.records.Document` when the input has its text (else empty: the pipeline
retrieves evidence documents from a corpus), ``meta`` the post's metadata (``flair``, ``upvote_ratio``,
``removed``, ``url``, ``domain``, ``score``, ``date``, and any ``extra`` columns asked for). Every record becomes
one item or one :class:`~claimforge.records.Reject` (file order); a malformed record raises
:class:`~claimforge.io.rows.InputError` naming the file and line, or with ``skip_bad`` is a ``malformed_record``
reject. Reject reasons of well-formed records: ``empty_claim``, ``source_file_missing`` (a ``source_path`` that
does not exist), ``no_source_text`` (``article-titles``: a document without abstract or body).

Readers and config keys
    ``posts``: ``path`` (JSONL, JSON or CSV/TSV of posts); column names, each detected from common spellings when
    not given: ``claim`` (title, post_title, claim, text), ``id`` (id, post_id, tweet_id), ``flair``
    (flair, link_flair_text), ``upvote_ratio``, ``removed`` (removed, removed_by_category; a flair "removed"
    also marks a post removed), ``url`` (url, post_url, source_url, processed_urls), ``score``, ``date``
    (created_utc, created_unix_utc, timestamp, date), ``source_text`` (the linked source's text) and
    ``source_path`` (a file with it: text, or JATS XML; relative to the posts file); ``extra`` (more columns
    to keep in ``meta``), ``delimiter``, ``quoted``.
    ``article-titles``: ``path`` (a SciFact-format corpus JSONL such as ``corpus.jsonl``, a generic corpus
    JSONL with ``doc_id``/``id``, ``title``, ``abstract``/``text``, or JATS ``.xml``/``.nxml`` files, tar archives
    of them (``.tar.xz``, ``.tar.gz``, …; read member by member) or a folder of either); ``text``: ``abstract``
    (default) or ``full`` (JATS: abstract and body); ``limit_docs``.
    Both take ``dataset`` (the name used in ids and SourceRefs).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import Field

from claimforge.io.benchmarks import _Bad
from claimforge.io.papers.jats import jats_document
from claimforge.io.papers.reader import JATS_SUFFIXES, ArchiveBroken, archive_members, is_archive_name
from claimforge.io.rows import (
    CSV_EXTENSIONS,
    InputError,
    RawRecord,
    csv_header,
    files_under,
    iter_csv_records,
    iter_json_records,
    normalize_text,
    read_text,
)
from claimforge.io.sentences import SentenceReader, _generic_doc, _Skip
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Document
from claimforge.registry import ComponentConfig, registry

__all__ = ["ArticleTitlesReader", "PostsReader", "domain_of"]

# Column spellings looked for when the config does not name a column (first found wins).
_COLUMNS: dict[str, tuple[str, ...]] = {
    "claim": ("title", "post_title", "claim", "text"),
    "id": ("id", "post_id", "tweet_id"),
    "flair": ("flair", "link_flair_text"),
    "upvote_ratio": ("upvote_ratio",),
    "removed": ("removed", "removed_by_category"),
    "url": ("url", "post_url", "source_url", "processed_urls"),
    "score": ("score",),
    "date": ("created_utc", "created_unix_utc", "timestamp", "date"),
    "source_text": ("source_text",),
    "source_path": ("source_path",),
}
_URL = re.compile(r"https?://[^\s'\"\],]+")
_TRUE = {"1", "true", "yes", "y", "t", "removed", "deleted"}
_FALSE = {"", "0", "false", "no", "n", "f", "none", "null", "nan"}


def domain_of(url: str) -> str:
    """The host of a URL without ``www.`` ("" when there is none)."""
    host = urlparse(url.strip()).netloc.lower().split("@")[-1].split(":")[0]
    return host.removeprefix("www.")


def _first_url(value: Any) -> str:
    """The first URL in a field (a plain URL, or a list of them as some dumps write: "['https://..']")."""
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    m = _URL.search(str(value or ""))
    return m.group(0) if m else ""


def _number(value: Any, column: str) -> float | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in _FALSE - {"0"}):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise _Bad(f"column {column!r}: expected a number, got {value!r}") from None
    if not math.isfinite(x):
        raise _Bad(f"column {column!r}: expected a finite number, got {value!r}")
    return x


def _flag(value: Any, column: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value if value is not None else "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if column == "removed_by_category":  # Pushshift: "moderator", "reddit", "author", ... when removed
        return True
    raise _Bad(f"column {column!r}: expected true/false, got {value!r}")


def _source_document(path: Path, doc_id: str, title: str) -> Document:
    if path.suffix.lower() in JATS_SUFFIXES:
        return jats_document(path.read_bytes(), doc_id, str(path))
    return Document(id=doc_id, title=title, sentences=tuple(split_sentences(read_text(path))))


class PostsConfig(ComponentConfig):
    path: str
    dataset: str = "posts"
    claim: str | None = None
    id: str | None = None
    flair: str | None = None
    upvote_ratio: str | None = None
    removed: str | None = None
    url: str | None = None
    score: str | None = None
    date: str | None = None
    source_text: str | None = None
    source_path: str | None = None
    extra: tuple[str, ...] = ()
    delimiter: str | None = None
    quoted: bool | None = None


@registry.register("reader", "posts", PostsConfig)
class PostsReader(SentenceReader):
    """Posts (Reddit dumps, tweets, any table of titles) → claims with their metadata and linked source."""

    def __init__(self, config: PostsConfig) -> None:
        super().__init__(config)
        self.config: PostsConfig = config
        self._columns: dict[str, str] | None = None

    def _records(self) -> Iterator[RawRecord]:
        if self.path.suffix.lower() in CSV_EXTENSIONS:
            header = csv_header(self.path, self.config.delimiter, self.config.quoted) if self.path.is_file() else []
            self._columns = self._resolve(header)
            return iter_csv_records(self.path, self.config.delimiter, self.config.quoted)
        return iter_json_records(self.path)

    def _resolve(self, header: list[str]) -> dict[str, str]:
        """The column of each field: the configured name (which must exist) or the first common spelling."""
        cols: dict[str, str] = {}
        for fld, spellings in _COLUMNS.items():
            named = getattr(self.config, fld)
            if named is not None:
                if header and named not in header:
                    raise InputError(self.path, "line 1", f"no column {named!r} (columns: {', '.join(header)})")
                cols[fld] = named
                continue
            found = next((s for s in spellings if s in header), None)
            if found is not None:
                cols[fld] = found
        if "claim" not in cols and header:
            raise InputError(
                self.path, "line 1", f"no claim column: name one with claim=... (columns: {', '.join(header)})"
            )
        return cols

    def _cols(self, data: dict[str, Any]) -> dict[str, str]:
        if self._columns is not None:  # a table: resolved once from the header
            return self._columns
        cols = {}  # JSON records may each have other keys: configured names, else the spellings this one has
        for fld, spellings in _COLUMNS.items():
            named = getattr(self.config, fld)
            found = named if named is not None else next((s for s in spellings if s in data), None)
            if found is not None:
                cols[fld] = found
        return cols

    def _item_id(self, rec: Any, data: dict[str, Any]) -> str | None:
        col = self._cols(data).get("id")
        value = data.get(col) if col else None
        if value is None or str(value).strip() == "":
            return None
        return f"{self.dataset}:{str(value).strip()}"

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        cols = self._cols(data)
        if cols.get("claim") not in data:
            raise _Bad(f"missing claim field (one of {', '.join(_COLUMNS['claim'])}, or set claim=...)")
        raw = data[cols["claim"]]
        if raw is not None and not isinstance(raw, str):
            raise _Bad(f"field {cols['claim']!r}: expected text, got {type(raw).__name__}")
        claim = normalize_text(raw or "")
        meta: dict[str, Any] = {}
        if "flair" in cols and data.get(cols["flair"]) not in (None, ""):
            meta["flair"] = normalize_text(str(data[cols["flair"]]))
        for fld in ("upvote_ratio", "score"):
            if fld in cols:
                x = _number(data.get(cols[fld]), cols[fld])
                if x is not None:
                    meta[fld] = x
        removed = _flag(data.get(cols["removed"]), cols["removed"]) if "removed" in cols else False
        meta["removed"] = removed or str(meta.get("flair", "")).lower() in ("removed", "[removed]")
        if "url" in cols:
            url = _first_url(data.get(cols["url"]))
            if url:
                meta["url"] = url
                meta["domain"] = domain_of(url)
        if "date" in cols and data.get(cols["date"]) not in (None, ""):
            meta["date"] = str(data[cols["date"]])
        for col in self.config.extra:
            if col not in data:
                raise _Bad(f"missing field {col!r} (asked for in extra)")
            meta[col] = data[col]
        if not claim:
            raise _Skip("empty_claim", f"field {cols['claim']!r} is empty")
        cited: tuple[Document, ...] = ()
        doc_id = f"{item_id}/source"
        text = data.get(cols["source_text"]) if "source_text" in cols else None
        spath = data.get(cols["source_path"]) if "source_path" in cols else None
        if isinstance(text, str) and text.strip():
            cited = (Document(id=doc_id, title="", sentences=tuple(split_sentences(text))),)
        elif isinstance(spath, str) and spath.strip():
            p = Path(spath)
            p = p if p.is_absolute() else self.path.parent / p
            if not p.is_file():
                raise _Skip("source_file_missing", f"{p}: no such file")
            cited = (_source_document(p, doc_id, ""),)
        return {"sentence": claim, "cited": cited, "meta": meta}


# --------------------------------------------------------------------------------------------------
# Article titles with their own abstract / full text


class ArticleTitlesConfig(ComponentConfig):
    path: str
    dataset: str = "articles"
    text: Literal["abstract", "full"] = "abstract"
    limit_docs: int | None = Field(None, ge=1)


def _jats_or_archive(name: str) -> bool:
    return name.lower().endswith(JATS_SUFFIXES) or is_archive_name(name)


def _jats_files(f: Path) -> Iterator[tuple[str, bytes | None, str | None]]:
    """(where, bytes, error) for a JATS file (bytes None: read it from disk) or for each JATS member of a tar
    archive ("archive:member"); where the archive breaks, one last (archive, None, why)."""
    if not is_archive_name(f.name):
        yield str(f), None, None
        return
    try:
        for name, _, data in archive_members(f, JATS_SUFFIXES):
            yield f"{f}:{name}", data, None
    except ArchiveBroken as e:
        yield str(f), None, e.detail


@registry.register("reader", "article-titles", ArticleTitlesConfig)
class ArticleTitlesReader(SentenceReader):
    """Article titles as claims, each with its own abstract (or full text) as the linked source."""

    def __init__(self, config: ArticleTitlesConfig) -> None:
        super().__init__(config)
        self.config: ArticleTitlesConfig = config
        # JATS files, and tar archives of them (read member by member, never unpacked)
        if self.path.is_dir():
            self.files = [p for p in files_under(self.path) if _jats_or_archive(p.name) and p.is_file()]
            if not self.files:
                raise InputError(self.path, None, "a folder without .xml/.nxml (JATS) files or tar archives of them")
        elif _jats_or_archive(self.path.name):
            if not self.path.is_file():
                raise InputError(self.path, None, "no such file")
            self.files = [self.path]
        else:
            self.files = []

    def _records(self) -> Iterator[RawRecord]:
        limit = self.config.limit_docs
        if not self.files:
            for rec in iter_json_records(self.path):
                if limit is not None and rec.n >= limit:
                    return
                yield rec
            return
        n = 0
        for f in self.files:
            for where, data, error in _jats_files(f):
                if limit is not None and n >= limit:
                    return
                if error is not None:
                    yield RawRecord(n, None, where, error=error)
                else:
                    yield RawRecord(n, None, where, data={"file": where, "bytes": data})
                n += 1

    def _item_id(self, rec: Any, data: dict[str, Any]) -> str | None:
        if "file" in data:
            member = data["file"].rpartition(":")[2] if data.get("bytes") is not None else data["file"]
            return f"{self.dataset}:{Path(member).stem}"
        value = data.get("doc_id", data.get("id"))
        return f"{self.dataset}:{value}" if value is not None else None

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        if "file" in data:
            where = data["file"]
            parts = ("abstract",) if self.config.text == "abstract" else ("abstract", "body")
            raw = data["bytes"] if data.get("bytes") is not None else Path(where).read_bytes()
            try:
                doc = jats_document(raw, item_id.split(":", 1)[1], where, parts=parts)
            except InputError as e:
                raise _Bad(str(e)) from None
        else:
            doc = _generic_doc(data)
        title = normalize_text(doc.title)
        if not title:
            raise _Skip("empty_claim", "the document has no title")
        sentences = tuple(s for s in doc.sentences if s.strip())
        if not sentences:
            raise _Skip("no_source_text", f"document {doc.id} has no {self.config.text} text")
        source = Document(id=doc.id, title=title, sentences=sentences)
        return {"sentence": title, "cited": (source,), "meta": {"source": "own_article"}}
