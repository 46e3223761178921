"""Reading records from files, for every reader: JSON Lines, JSON arrays, pandas-column JSON and CSV/TSV,
each record with the line where it starts (or why it could not be parsed); :class:`InputError`, whose message
names the file and line; text normalisation; and :func:`reader_from_spec` for the CLI form ``NAME:PATH``.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimforge.registry import RegistryError, registry

JSON_EXTENSIONS = (".json", ".jsonl", ".ndjson")
CSV_EXTENSIONS = (".csv", ".tsv", ".tab")
HF_BUILDERS = {
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
    ".csv": "csv",
    ".tsv": "csv",
    ".tab": "csv",
    ".parquet": "parquet",
    ".arrow": "arrow",
}
KNOWN_EXTENSIONS = tuple(sorted(set(JSON_EXTENSIONS) | set(CSV_EXTENSIONS) | set(HF_BUILDERS)))


class InputError(ValueError):
    """A malformed input record (or file): the message names the file, the line or row, and the problem."""

    def __init__(self, path: str | Path, where: str | None, detail: str) -> None:
        self.path = str(path)
        self.where = where
        self.detail = detail
        super().__init__(f"{self.path}, {where}: {detail}" if where else f"{self.path}: {detail}")


# --------------------------------------------------------------------------------------------------
# Text normalisation


_WS = re.compile(r"\s+")
_HSPACE = re.compile(r"[^\S\n]+")
_LINEBREAKS = re.compile(r"[ ]*\n[\s]*")


# C0/C1 control characters other than tab, newline and carriage return (NUL, escape codes, ...): never text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def strip_control(text: str) -> str:
    """``text`` without control characters (a NUL or an escape code from a broken export)."""
    return _CONTROL.sub("", text)


def normalize_text(text: str) -> str:
    """Strip and collapse every run of whitespace (newlines included) to one space; control characters go."""
    return _WS.sub(" ", strip_control(text)).strip()


def normalize_explanation(text: str) -> str:
    """Strip, collapse spaces/tabs within lines, and turn each run of line breaks into one ``\\n``; control
    characters go."""
    text = strip_control(text).replace("\r\n", "\n").replace("\r", "\n")
    text = _HSPACE.sub(" ", text)
    return _LINEBREAKS.sub("\n", text).strip()


# --------------------------------------------------------------------------------------------------
# Raw records: where each one starts, and its fields (or why it could not be parsed)


@dataclass
class RawRecord:
    n: int  # 0-based record index in the file
    line: int | None  # SourceRef.line
    where: str  # "line 12" / "row 5", for messages
    data: dict[str, Any] | None = None
    error: str | None = None
    row_label: Any = None  # pandas-column JSON row index / HF row


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(path, None, f"not UTF-8 text ({e})") from None


def files_under(root: Path) -> list[Path]:
    """Every file under a folder, recursively, in sorted order of the path relative to ``root``, following
    symbolic links to folders (``Path.rglob`` before Python 3.13 skips them silently: a linked corpus would be
    missing from a build without a word); a link back to a folder already walked is not entered twice."""
    seen: set[str] = set()
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen:
            dirnames[:] = []
            continue
        seen.add(real)
        dirnames.sort()
        found.extend(Path(dirpath) / name for name in filenames)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def check_file(path: Path) -> None:
    if not path.exists():
        raise InputError(path, None, "no such file")
    if path.is_dir():
        raise InputError(path, None, "is a directory, expected a file")


def _object_or_error(obj: Any) -> tuple[dict[str, Any] | None, str | None]:
    if isinstance(obj, dict):
        return obj, None
    return None, f"expected a JSON object, got {type(obj).__name__}"


def _iter_jsonl(path: Path) -> Iterator[RawRecord]:
    n = 0
    with path.open("rb") as f:
        for lineno, raw_line in enumerate(f, start=1):
            if lineno == 1 and raw_line.startswith(b"\xef\xbb\xbf"):
                raw_line = raw_line[3:]
            if not raw_line.strip():
                continue
            rec = RawRecord(n, lineno, f"line {lineno}")
            n += 1
            try:
                obj = json.loads(raw_line.decode("utf-8"))
            except UnicodeDecodeError as e:
                rec.error = f"not UTF-8 text ({e.reason})"
            except json.JSONDecodeError as e:
                rec.error = f"invalid JSON: {e.msg} (column {e.colno})"
            else:
                rec.data, rec.error = _object_or_error(obj)
            yield rec


def _iter_json_array(path: Path, text: str) -> Iterator[RawRecord]:
    """Objects of a top-level JSON array, each with the line of its first character."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"\s*")
    pos = ws.match(text, 0).end()  # type: ignore[union-attr]
    assert text[pos] == "["
    pos = ws.match(text, pos + 1).end()  # type: ignore[union-attr]
    line, counted = 1, 0
    n = 0

    def fail(at: int, msg: str) -> InputError:
        return InputError(path, f"line {text.count(chr(10), 0, at) + 1}", msg)

    if pos < len(text) and text[pos] == "]":
        return
    while True:
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            obj, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            raise fail(e.pos, f"invalid JSON in the array (record {n}): {e.msg}") from None
        rec = RawRecord(n, line, f"line {line}")
        rec.data, rec.error = _object_or_error(obj)
        n += 1
        yield rec
        pos = ws.match(text, end).end()  # type: ignore[union-attr]
        if pos >= len(text):
            raise fail(pos, "unterminated JSON array")
        if text[pos] == "]":
            if text[pos + 1 :].strip():
                raise fail(pos + 1, "extra data after the JSON array")
            return
        if text[pos] != ",":
            raise fail(pos, f"expected ',' or ']' in the JSON array, got {text[pos]!r}")
        pos = ws.match(text, pos + 1).end()  # type: ignore[union-attr]


_INT = re.compile(r"^[+-]?\d+$")


def _row_order(labels: list[str]) -> list[str]:
    if all(_INT.match(k) for k in labels):
        return sorted(labels, key=int)
    return labels


def _iter_json_columns(path: Path, obj: dict[str, Any]) -> Iterator[RawRecord]:
    """pandas-column JSON ``{column: {row_index: value}}``; ``line`` is the row index label."""
    labels: dict[str, None] = {}
    for column, values in obj.items():
        if not isinstance(values, dict):
            raise InputError(
                path,
                None,
                f"expected pandas-column JSON {{column: {{row: value}}}}; column {column!r} "
                f"holds {type(values).__name__}",
            )
        labels.update(dict.fromkeys(values))
    for n, label in enumerate(_row_order(list(labels))):
        line = int(label) if _INT.match(label) else n
        data = {column: values.get(label) for column, values in obj.items()}
        yield RawRecord(n, line, f"row {label}", data=data, row_label=label)


def iter_json_records(path: str | Path) -> Iterator[RawRecord]:
    """Records of a JSON file in any of the common layouts, detected from the content.

    JSON array of objects, JSON Lines (also in a ``.json`` file), or pandas-column JSON.
    """
    path = Path(path)
    check_file(path)
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        yield from _iter_jsonl(path)
        return
    text = read_text(path)
    stripped = text.lstrip()
    if not stripped:
        return
    if stripped[0] == "[":
        yield from _iter_json_array(path, text)
        return
    if stripped[0] == "{":
        start = len(text) - len(stripped)
        try:
            obj, end = json.JSONDecoder().raw_decode(text, start)
        except json.JSONDecodeError:
            obj, end = None, -1
        if end != -1 and not text[end:].strip():  # a single JSON value: the column layout
            if obj and all(isinstance(v, dict) for v in obj.values()):
                yield from _iter_json_columns(path, obj)
                return
            raise InputError(path, None, "a single JSON object that is not pandas-column JSON {column: {row: value}}")
        yield from _iter_jsonl(path)  # one object per line (e.g. the official MedMCQA .json files)
        return
    raise InputError(path, "line 1", "expected a JSON array, JSON Lines or pandas-column JSON")


def iter_csv_records(path: str | Path, delimiter: str | None = None, quoted: bool | None = None) -> Iterator[RawRecord]:
    """Rows of a CSV/TSV file as dicts keyed by the header, each with the physical line where it starts.

    ``delimiter`` defaults to a tab for ``.tsv``/``.tab`` and a comma otherwise; ``quoted`` (whether ``"``
    quotes fields) defaults to True for comma-separated and False for tab-separated files. Blank lines are
    skipped; a row with the wrong number of fields is a malformed record.
    """
    path = Path(path)
    check_file(path)
    opts = _csv_options(path, delimiter, quoted)
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f, **opts)
        header: list[str] | None = None
        n = 0
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except (csv.Error, UnicodeDecodeError) as e:
                raise InputError(path, f"line {start}", f"unreadable CSV ({e})") from None
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if header is None:
                header = [h.strip() for h in row]
                dupes = sorted({h for h in header if header.count(h) > 1})
                if dupes:
                    raise InputError(path, f"line {start}", f"duplicate column names {dupes}")
                continue
            rec = RawRecord(n, start, f"line {start}")
            n += 1
            if len(row) != len(header):
                rec.error = f"expected {len(header)} fields, got {len(row)}"
            else:
                rec.data = dict(zip(header, row, strict=True))
            yield rec


def _csv_options(path: Path, delimiter: str | None, quoted: bool | None) -> dict[str, Any]:
    """csv.reader options: tab for .tsv/.tab else comma; quotes honoured unless tab-separated."""
    tabbed = path.suffix.lower() in (".tsv", ".tab")
    delimiter = delimiter or ("\t" if tabbed else ",")
    if quoted is None:
        quoted = delimiter != "\t"
    opts: dict[str, Any] = {"delimiter": delimiter}
    if not quoted:
        opts["quoting"] = csv.QUOTE_NONE
    return opts


def csv_header(path: Path, delimiter: str | None, quoted: bool | None) -> list[str]:
    """The header of a CSV file (first non-blank row)."""
    opts = _csv_options(path, delimiter, quoted)
    with path.open(encoding="utf-8-sig", newline="") as f:
        for row in csv.reader(f, **opts):
            if row and not (len(row) == 1 and not row[0].strip()):
                return [h.strip() for h in row]
    return []


def reader_from_spec(spec: str, **overrides: Any) -> Any:
    """Build a reader from the CLI form ``NAME:PATH`` (e.g. ``sciq:../shared/data/sciq/train.json``).

    ``overrides`` are further config fields (``table``'s column mapping, ``cop_base``, ...). A spec
    without a known reader name is an error that lists the reader names.
    """
    names = registry.names("reader")
    name, sep, path = spec.partition(":")
    if sep and name in names:
        if not path:
            raise RegistryError(f"reader spec {spec!r} has no path; use NAME:PATH")
        return registry.build("reader", {"name": name, "path": path, **overrides})
    known = ", ".join(names)
    if sep and len(name) > 1 and not any(c in name for c in "/\\."):  # not a drive letter or a path
        raise RegistryError(f"unknown reader {name!r} in {spec!r} (known: {known})")
    raise RegistryError(f"reader spec {spec!r} names no reader; use NAME:PATH with NAME one of: {known}")
