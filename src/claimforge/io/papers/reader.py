"""Readers of full papers: files of any supported format → :class:`~claimforge.records.Paper` records.

Each reader is a registered component of kind ``"reader"`` (usable as ``--input NAME:PATH`` in ``claimforge
build``, and by ``claimforge papers convert``):

``jats``, ``tei``, ``s2orc``, ``scirex``, ``latex``, ``pdf``
    every file is read with that format's parser (:mod:`claimforge.io.papers.jats`, ...). The LaTeX and PDF
    parsers are imported when the first such file comes (a missing one makes ``format_unavailable`` rejects).
``papers``
    each file's format is found from its name and its first bytes: ``%PDF`` → pdf; XML whose root is ``TEI``
    → tei, ``article`` (or a ``pmc-articleset``) → jats; JSON with ``body_text`` / ``pdf_parse`` /
    ``grobid_parse`` → s2orc, with ``words``, ``sections`` and ``sentences`` → scirex; a ``.tex``, ``.gz``,
    ``.tgz`` or a ``.tar`` holding ``.tex`` files → latex (one paper); JSON Lines written by ``claimforge
    papers convert`` → the Papers as they are (and JSON Lines of S2ORC or SciREX records, one paper a line).

Config keys (all readers)
    ``path``: a file; a folder, walked recursively in sorted order; or a tar archive (``.tar``, ``.tar.gz``,
    ``.tgz``, ``.tar.xz``, ``.txz``, ``.tar.bz2``), read member by member as a stream without unpacking. A tar
    archive inside the folder is read the same way. A ``.tar.gz``/``.tgz``/``.tar`` that holds ``.tex`` files is
    the LaTeX source of ONE paper, not an archive of papers (and for the ``latex`` reader every ``.gz``, ``.tgz``
    and ``.tar`` is one paper). ``dataset``: the name in each Paper's ``ref`` (default: the format).
    ``limit``: stop after this many papers. ``min_sections`` (default 1) and ``min_typed_sections`` (default
    0): papers with fewer sections, or fewer sections typed other than ``other``, are rejects.

Files skipped in folders and archives (not accounted for): hidden files and folders (a name starting with
"."), and licence and documentation files whose name starts with ``LICENSE``, ``LICENCE``, ``COPYING``,
``NOTICE``, ``README``, ``CHANGELOG`` or ``AUTHORS`` (any case, any extension). Every other file gives exactly
one Paper or one :class:`~claimforge.records.Reject` (``stage="read"``), in reading order; a JSON Lines file
gives one per line. Paper ids are the file stems (``journal.pone.0146913``, ``PMC1065065``; ``.tei.xml``,
``.tar.gz`` and the like count as one extension); in JSON Lines the record's own id.

Reject reasons
    ``unknown_format`` (not a format the reader knows), ``duplicate_id`` (a second file with the same stem),
    ``too_large`` (a paper file over :data:`MAX_FILE_BYTES`; JSON Lines files on disk are streamed, any size),
    ``unreadable`` (the file could not be read),
    ``format_unavailable`` (the LaTeX or PDF parser could not be imported), ``archive_unreadable`` (a broken
    or truncated archive: the members before the break are read), ``malformed_record`` (a JSON Lines line that
    is not a record, only with ``skip_bad``: else it raises :class:`~claimforge.io.rows.InputError`, as in
    every reader), ``no_sections`` (no body section with text), ``too_few_sections``,
    ``too_few_typed_sections``, ``parser_failed`` (a parser raised something other than its own error: a bug,
    kept as a reject so that one file does not stop a run of thousands), and each parser's own reasons
    (:class:`~claimforge.io.papers.PaperError`: ``not_well_formed``, ``not_jats``, ``not_tei``, ``not_s2orc``,
    ``not_scirex``, ``unreadable_pdf``, ``no_text_layer``, ...). Problems with a file are rejects whatever
    ``skip_bad`` says; a missing ``path`` raises :class:`~claimforge.io.rows.InputError`.
"""

from __future__ import annotations

import importlib
import json
import re
import tarfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from pydantic import Field, ValidationError

from claimforge.io.papers import PaperError
from claimforge.io.papers.s2orc import is_s2orc
from claimforge.io.papers.scirex import is_scirex
from claimforge.io.rows import InputError, files_under
from claimforge.records import Paper, Record, Reject, SourceRef
from claimforge.registry import ComponentConfig, registry

__all__ = [
    "FORMATS",
    "JATS_SUFFIXES",
    "ArchiveBroken",
    "MAX_FILE_BYTES",
    "PaperReader",
    "PapersConfig",
    "archive_members",
    "detect_format",
    "is_archive_name",
    "is_skipped",
    "paper_id_of",
]

FORMATS = ("jats", "tei", "s2orc", "scirex", "latex", "pdf")
MAX_FILE_BYTES = 512 * 1024 * 1024
_SNIFF_BYTES = 65536

# The extensions each format reader takes; any other file is an ``unknown_format`` reject.
JATS_SUFFIXES = (".xml", ".nxml")
_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "jats": JATS_SUFFIXES,
    "tei": (".xml",),
    "s2orc": (".json", ".jsonl"),
    "scirex": (".json", ".jsonl"),
    "latex": (".gz", ".tgz", ".tar", ".tex"),
    "pdf": (".pdf",),
}
_MULTI_SUFFIXES = (".tei.xml", ".tar.gz", ".tar.xz", ".tar.bz2")
_ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tbz")
_LATEX_MEMBERS = (".tex", ".bbl", ".sty", ".cls", ".bib")
_SKIPPED_NAMES = re.compile(r"^(license|licence|copying|notice|readme|changelog|authors)", re.IGNORECASE)
_ROOT_TAG = re.compile(rb"<([A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*)(?=[\s>/])")
_PAPER_KEYS = ("id", "sections", "format", "ref")


class PapersConfig(ComponentConfig):
    path: str
    dataset: str | None = None
    limit: int | None = Field(None, ge=1)
    min_sections: int = Field(1, ge=0)
    min_typed_sections: int = Field(0, ge=0)


def is_skipped(name: str) -> bool:
    """A file name (or path) that folders and archives skip: hidden, or a licence/readme-like file."""
    parts = Path(name).parts
    return any(p.startswith(".") and p not in (".", "..") for p in parts) or bool(_SKIPPED_NAMES.match(Path(name).name))


def paper_id_of(name: str) -> str:
    """The id of a paper file: its name without the extension (``.tei.xml``, ``.tar.gz`` count as one)."""
    base = Path(name).name
    for suffix in _MULTI_SUFFIXES:
        if base.lower().endswith(suffix):
            return base[: -len(suffix)]
    return Path(base).stem


def is_archive_name(name: str) -> bool:
    return name.lower().endswith(_ARCHIVES)


def _xml_root(text: bytes) -> str | None:
    """The name (without namespace prefix) of an XML document's root element, from its first bytes: the XML
    declaration, processing instructions, comments and the DOCTYPE (with an internal subset) are skipped."""
    pos = 0
    while True:
        rest = text[pos:].lstrip()
        pos = len(text) - len(rest)
        if rest.startswith(b"<?"):
            end, skip = rest.find(b"?>"), 2
        elif rest.startswith(b"<!--"):
            end, skip = rest.find(b"-->"), 3
        elif rest[:9].upper() == b"<!DOCTYPE":
            bracket, close = rest.find(b"["), rest.find(b">")
            end, skip = (rest.find(b"]>"), 2) if -1 < bracket < close else (close, 1)
        else:
            m = _ROOT_TAG.match(rest)
            return m.group(2).decode("ascii", "replace") if m else None
        if end == -1:
            return None
        pos += end + skip


def detect_format(name: str, head: bytes) -> str | None:
    """The paper format of a file from its name and first bytes (None when it is none of them); JSON files
    need their decoded content, see :func:`_json_format`."""
    lower = name.lower()
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"%PDF") or lower.endswith(".pdf"):
        return "pdf"
    if lower.endswith((".tex", ".gz", ".tgz", ".tar")) or head[:2] == b"\x1f\x8b":
        return "latex"
    if text.startswith(b"<"):
        root = _xml_root(text)
        if root == "TEI":
            return "tei"
        if root in ("article", "pmc-articleset"):
            return "jats"
        return None
    if text.startswith((b"{", b"[")):
        return "json"
    return None


def _json_format(obj: Any) -> str | None:
    if is_s2orc(obj):
        return "s2orc"
    if is_scirex(obj):
        return "scirex"
    if isinstance(obj, dict) and all(k in obj for k in _PAPER_KEYS):
        return "paper"
    return None


@dataclass
class _Unit:
    """One file to read: a file of a folder (read when its turn comes) or a member of an archive (already read:
    a tar stream cannot go back)."""

    name: str  # the file or member name (for the id and the extension)
    where: str  # the file, or "archive:member": SourceRef.path and the start of error details
    size: int
    file: Path | None = None
    data: bytes | None = None
    # why the file cannot be read at all (a broken archive, a dangling link): a reject with this reason
    broken: tuple[str, str] | None = None  # (reason, detail)

    def load(self) -> bytes:
        if self.data is not None:
            return self.data
        assert self.file is not None
        return self.file.read_bytes()

    def head(self, n: int) -> bytes:
        """The first ``n`` bytes (to find the format without reading a large file whole)."""
        if self.data is not None:
            return self.data[:n]
        assert self.file is not None
        with self.file.open("rb") as f:
            return f.read(n)

    def lines(self) -> Iterator[bytes]:
        if self.data is not None:
            yield from self.data.splitlines()
            return
        assert self.file is not None
        with self.file.open("rb") as f:
            yield from f


class ArchiveBroken(Exception):
    """A tar archive that cannot be read (on): ``where`` names it, ``detail`` says why."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(detail)
        self.where = where
        self.detail = detail


def archive_members(f: Path, suffixes: tuple[str, ...] | None = None) -> Iterator[tuple[str, int, bytes]]:
    """The files of a tar archive (any compression), streamed in order: (member name, size, bytes); skipped names
    (:func:`is_skipped`) and, with ``suffixes``, names not ending in one of them are left out (unread), and a member
    over :data:`MAX_FILE_BYTES` comes with no bytes. Raises :class:`ArchiveBroken` where the archive stops being
    readable (the members before it have been yielded)."""
    try:
        with tarfile.open(f, mode="r|*") as tar:
            for member in tar:
                if not member.isfile() or is_skipped(member.name):
                    continue
                if suffixes is not None and not member.name.lower().endswith(suffixes):
                    continue
                fileobj = tar.extractfile(member) if member.size <= MAX_FILE_BYTES else None
                yield member.name, member.size, fileobj.read() if fileobj is not None else b""
    except (tarfile.TarError, EOFError, OSError, ValueError, zlib.error) as e:
        raise ArchiveBroken(str(f), f"{f}: broken archive ({type(e).__name__}: {e})") from None


class PaperReader:
    """Full papers in any supported format → Papers (one per file, or a reject)."""

    format: ClassVar[str | None] = None  # None: find each file's format
    item_type: ClassVar[type[Record]] = Paper  # what read() yields besides Rejects (a pipeline's item_type)

    def __init__(self, config: PapersConfig) -> None:
        self.config = config
        self.path = Path(config.path)
        self.source = str(config.path)
        self.dataset = config.dataset
        if not self.path.exists():
            raise InputError(self.path, None, "no such file or folder")
        self._modules: dict[str, ModuleType | ImportError] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.source!r}, dataset={self.dataset!r})"

    # ----------------------------------------------------------------------------------------------
    # Walking files

    def _units(self) -> Iterator[_Unit]:
        if self.path.is_dir():
            for f in files_under(self.path):
                rel = f.relative_to(self.path).as_posix()
                if not is_skipped(rel):
                    yield from self._file_units(f)
        else:
            yield from self._file_units(self.path)

    def _file_units(self, f: Path) -> Iterator[_Unit]:
        """The units of one file; a file that cannot be opened, or an archive that breaks, ends as a unit with
        ``broken`` set (one reject), and the files after it are still read."""
        try:
            size = f.stat().st_size
        except OSError as e:  # a dangling symbolic link, a file removed while walking
            yield _Unit(f.name, str(f), 0, broken=("unreadable", f"{f}: {e.strerror or e}"))
            return
        if is_archive_name(f.name) and self._is_container(f):
            try:
                yield from self._archive_units(f)
            except ArchiveBroken as e:
                yield _Unit(f.name, e.where, size, broken=("archive_unreadable", e.detail))
            return
        yield _Unit(f.name, str(f), size, file=f)

    def _is_container(self, f: Path) -> bool:
        """An archive of papers (not the LaTeX source of one paper)."""
        lower = f.name.lower()
        if not lower.endswith((".tar", ".tar.gz", ".tgz")):
            return True  # .tar.xz, .tar.bz2: always archives of files
        if self.format == "latex":
            return False
        if self.format is not None:
            return True
        return not _holds_latex(f)

    def _archive_units(self, f: Path) -> Iterator[_Unit]:
        for name, size, data in archive_members(f):
            yield _Unit(name, f"{f}:{name}", size, data=data)

    # ----------------------------------------------------------------------------------------------
    # Reading

    def read(self, skip_bad: bool = False) -> Iterator[Paper | Reject]:
        """Yield one Paper or one Reject per file (per line of a JSON Lines file), in reading order."""
        seen: set[str] = set()
        papers = 0
        limit = self.config.limit
        for unit in self._units():
            if unit.broken is not None:
                yield self._reject(paper_id_of(unit.where), *unit.broken, unit.where)
                continue
            for out in self._read_unit(unit, seen, skip_bad):
                yield out
                if isinstance(out, Paper):
                    papers += 1
                    if limit is not None and papers >= limit:
                        return

    def _reject(
        self, item_id: str, reason: str, detail: str, path: str, line: int | None = None, fmt: str | None = None
    ) -> Reject:
        """A reject of the read stage; its ``ref.dataset`` is the configured dataset, else the file's format (or
        "unknown" when none was found)."""
        ref = SourceRef(dataset=self.dataset or fmt or self.format or "unknown", path=path, line=line, item_id=item_id)
        return Reject(item_id=item_id, stage="read", reason=reason, detail=detail, ref=ref)

    def _module(self, fmt: str) -> ModuleType:
        if fmt not in self._modules:
            try:
                self._modules[fmt] = importlib.import_module(f"claimforge.io.papers.{fmt}")
            except ImportError as e:
                self._modules[fmt] = e
        mod = self._modules[fmt]
        if isinstance(mod, ImportError):
            raise PaperError("format_unavailable", f"the {fmt} parser cannot be imported ({mod})")
        return mod

    def _format_of(self, unit: _Unit, head: bytes) -> str | None:
        lower = unit.name.lower()
        if self.format is not None:
            if self.format == "latex" and lower.endswith((".tar.gz", ".tgz")):
                return "latex"
            return self.format if lower.endswith(_EXTENSIONS[self.format]) else None
        return detect_format(unit.name, head)

    def _read_unit(self, unit: _Unit, seen: set[str], skip_bad: bool) -> Iterator[Paper | Reject]:
        pid = paper_id_of(unit.name)
        jsonl = unit.name.lower().endswith((".jsonl", ".ndjson"))
        if unit.size > MAX_FILE_BYTES and not (jsonl and unit.file is not None):  # a JSONL file streams
            detail = f"{unit.where}: {unit.size} bytes (at most {MAX_FILE_BYTES} in one paper file)"
            yield self._reject(pid, "too_large", detail, unit.where)
            return
        try:
            head = unit.head(_SNIFF_BYTES)
        except OSError as e:
            yield self._reject(pid, "unreadable", f"{unit.where}: {e}", unit.where)
            return
        fmt = self._format_of(unit, head)
        if fmt is None:
            known = ", ".join(_EXTENSIONS[self.format]) if self.format else "JATS, TEI, S2ORC, SciREX, LaTeX or PDF"
            detail = f"{unit.where}: not a paper file this reader takes ({known})"
            yield self._reject(pid, "unknown_format", detail, unit.where)
            return
        if jsonl:
            yield from self._read_lines(unit, seen, skip_bad, fmt)
            return
        try:
            data = unit.load()
        except OSError as e:
            yield self._reject(pid, "unreadable", f"{unit.where}: {e}", unit.where)
            return
        obj: Any = None
        if fmt == "json":  # the auto reader's JSON: decode once, then ask the format
            try:
                obj = json.loads(data.decode("utf-8-sig"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                yield self._reject(pid, "not_well_formed", f"{unit.where}: not valid JSON ({e})", unit.where)
                return
            fmt = _json_format(obj)
            if fmt is None or fmt == "paper":
                what = "a Paper record: use JSON Lines" if fmt == "paper" else "neither S2ORC nor SciREX"
                yield self._reject(pid, "unknown_format", f"{unit.where}: JSON that is {what}", unit.where)
                return
        if pid in seen:
            yield self._reject(
                pid, "duplicate_id", f"{unit.where}: another file already gave id {pid!r}", unit.where, fmt=fmt
            )
            return
        seen.add(pid)
        yield self._parsed(fmt, pid, unit.where, unit.where, None, data, obj)

    def _parsed(
        self, fmt: str, pid: str, where: str, path: str, line: int | None, data: bytes, obj: Any
    ) -> Paper | Reject:
        try:
            mod = self._module(fmt)
            paper: Paper = mod.from_json(obj, pid, where) if obj is not None else mod.parse(data, pid, where)
        except PaperError as e:
            return self._reject(pid, e.reason, e.detail, path, line, fmt)
        except MemoryError:
            raise
        except Exception as e:  # a parser bug: one file must not stop the run (see the module docstring)
            return self._reject(pid, "parser_failed", f"{where}: {type(e).__name__}: {e}", path, line, fmt)
        ref = SourceRef(dataset=self.dataset or fmt, path=path, line=line, item_id=pid)
        return self._checked(paper.model_copy(update={"ref": ref, "format": paper.format or fmt}), where)

    def _checked(self, paper: Paper, where: str) -> Paper | Reject:
        n, typed = len(paper.sections), paper.typed_sections()
        if n == 0 and self.config.min_sections > 0:
            return self._reject(
                paper.id,
                "no_sections",
                f"{where}: no body section with text",
                paper.ref.path,
                paper.ref.line,
                paper.format,
            )
        if n < self.config.min_sections:
            detail = f"{where}: {n} sections (min_sections={self.config.min_sections})"
            return self._reject(paper.id, "too_few_sections", detail, paper.ref.path, paper.ref.line, paper.format)
        if typed < self.config.min_typed_sections:
            detail = f"{where}: {typed} typed sections (min_typed_sections={self.config.min_typed_sections})"
            return self._reject(
                paper.id, "too_few_typed_sections", detail, paper.ref.path, paper.ref.line, paper.format
            )
        return paper

    def _read_lines(self, unit: _Unit, seen: set[str], skip_bad: bool, fmt: str) -> Iterator[Paper | Reject]:
        """A JSON Lines file: Papers written by ``papers convert``, or S2ORC / SciREX records, one a line (a
        file on disk is read line by line, whatever its size)."""
        stem = paper_id_of(unit.name)
        kind: str | None = None if fmt == "json" else fmt
        for lineno, raw in enumerate(unit.lines(), start=1):
            if lineno == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            if not raw.strip():
                continue
            fallback = f"{stem}:{lineno}"
            try:
                obj = json.loads(raw.decode("utf-8"))
                if not isinstance(obj, dict):
                    raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
            except (UnicodeDecodeError, ValueError) as e:
                if not skip_bad:
                    raise InputError(unit.where, f"line {lineno}", f"not a JSON record ({e})") from None
                yield self._reject(
                    fallback, "malformed_record", f"{unit.where}, line {lineno}: {e}", unit.where, lineno
                )
                continue
            line_fmt = _json_format(obj) if kind is None or fmt == "json" else kind
            if kind is None:
                kind = line_fmt  # the first record decides what the file holds
            where = f"{unit.where}, line {lineno}"
            if line_fmt is None or line_fmt != kind:
                what = "neither a Paper, an S2ORC nor a SciREX record" if line_fmt is None else f"a {line_fmt} record"
                yield self._reject(fallback, "unknown_format", f"{where}: {what}", unit.where, lineno)
                continue
            if kind == "paper":
                yield from self._paper_line(obj, fallback, where, unit, lineno, seen, skip_bad)
                continue
            own = obj.get("paper_id") if kind == "s2orc" else obj.get("doc_id")
            pid = str(own) if own not in (None, "") else fallback
            if pid in seen:
                yield self._reject(pid, "duplicate_id", f"{where}: id {pid!r} again", unit.where, lineno, kind)
                continue
            seen.add(pid)
            yield self._parsed(kind, pid, where, unit.where, lineno, raw, obj)

    def _paper_line(
        self, obj: dict[str, Any], fallback: str, where: str, unit: _Unit, lineno: int, seen: set[str], skip_bad: bool
    ) -> Iterator[Paper | Reject]:
        try:
            paper = Paper.model_validate(obj)
        except ValidationError as e:
            detail = f"not a Paper record ({e.error_count()} errors; first: {e.errors()[0]['msg']})"
            if not skip_bad:
                raise InputError(unit.where, f"line {lineno}", detail) from None
            yield self._reject(fallback, "malformed_record", f"{where}: {detail}", unit.where, lineno)
            return
        if paper.id in seen:
            yield self._reject(
                paper.id, "duplicate_id", f"{where}: id {paper.id!r} again", unit.where, lineno, paper.format
            )
            return
        seen.add(paper.id)
        if self.dataset:
            paper = paper.model_copy(update={"ref": paper.ref.model_copy(update={"dataset": self.dataset})})
        yield self._checked(paper, where)


def _holds_latex(f: Path) -> bool:
    """A .tar / .tar.gz / .tgz that is the LaTeX source of one paper: a .tex (or .bbl, .sty, ...) among its
    first members, or a gzip file that is no tar at all (arXiv's gzipped single .tex). A tar that breaks after
    some members is an archive (its members before the break are read)."""
    members = 0
    try:
        with tarfile.open(f, mode="r|*") as tar:
            for member in tar:
                if member.name.lower().endswith(_LATEX_MEMBERS):
                    return True
                members += 1
                if members > 200:
                    break
    except (tarfile.TarError, EOFError, OSError, zlib.error):
        return members == 0  # not a tar at all: a gzipped .tex, which the LaTeX parser reads (or rejects)
    return False


@registry.register("reader", "papers", PapersConfig)
class PapersReader(PaperReader):
    """Full papers of any supported format (found per file) → Papers: JATS, TEI, S2ORC, SciREX, LaTeX, PDF."""

    format = None


@registry.register("reader", "jats", PapersConfig)
class JatsReader(PaperReader):
    """JATS / NXML articles (PLOS, PubMed Central) → Papers."""

    format = "jats"


@registry.register("reader", "tei", PapersConfig)
class TeiReader(PaperReader):
    """GROBID TEI XML (*.tei.xml) → Papers."""

    format = "tei"


@registry.register("reader", "s2orc", PapersConfig)
class S2orcReader(PaperReader):
    """S2ORC JSON (all schema versions, s2orc-doc2json output; JSON Lines too) → Papers."""

    format = "s2orc"


@registry.register("reader", "scirex", PapersConfig)
class ScirexReader(PaperReader):
    """SciREX JSON documents (tokenised CS papers; JSON Lines too) → Papers."""

    format = "scirex"


@registry.register("reader", "latex", PapersConfig)
class LatexReader(PaperReader):
    """LaTeX sources (arXiv .gz / .tar.gz, or .tex) → Papers, one per source."""

    format = "latex"


@registry.register("reader", "pdf", PapersConfig)
class PdfReader(PaperReader):
    """PDF papers (their text layer) → Papers."""

    format = "pdf"
