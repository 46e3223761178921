"""The UMLS Metathesaurus from its Rich Release Format files (for users with a UMLS licence).

``path`` (or ``$CLAIMFORGE_UMLS_DIR``) is a directory with ``MRCONSO.RRF``, ``MRSTY.RRF`` and ``MRREL.RRF``
(or its ``META/`` subdirectory; ``.gz`` copies work too). Each line is a row of ``|``-terminated fields:

* MRCONSO (18): CUI|LAT|TS|LUI|STT|SUI|ISPREF|AUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF|
* MRREL (16): CUI1|AUI1|STYPE1|REL|CUI2|AUI2|STYPE2|RELA|RUI|SRUI|SAB|SL|RG|DIR|SUPPRESS|CVF|
* MRSTY (6): CUI|TUI|STN|STY|ATUI|CVF|

A line with another number of fields, an empty CUI or bytes that are not UTF-8 raises an InputError naming the
file and the line.

What is kept: MRCONSO rows in ``languages`` (default ENG), from ``sources`` (SAB; default all) and, with
``skip_suppressed`` (default), with SUPPRESS = N (O = obsolete, E/Y = suppressible are dropped). A concept
(CUI) exists when one such row does. Its name is the first row with TS=P, STT=PF, ISPREF=Y (the
Metathesaurus' preferred name; if the filters removed that row, the best-ranked kept row); its aliases are
the other strings, one per normalised form. Types are its semantic types (MRSTY STY names, file order).
Hierarchy: MRREL rows whose REL is in ``relations`` (default PAR and CHD; add RB and RN for broader /
narrower), between two kept concepts, from ``sources`` when given, not suppressed. REL is the relation of
CUI2 to CUI1: PAR means CUI2 is a parent of CUI1, CHD a child, RB broader, RN narrower.

Memory: the files are streamed line by line (rows of other languages or relations are skipped after a partial
split); only the kept concepts' names, aliases, types, edges and name index stay in memory: about 2 KB of peak
RSS per kept concept (measured on synthetic files, docs/knowledge_bases.md), so ~6 GB for a whole English
release; the ``sources`` filter is what brings it down.
"""

from __future__ import annotations

import gzip
import re
import time
from collections.abc import Iterator
from pathlib import Path

from claimforge.kb.base import (
    GraphKB,
    KBNotAvailable,
    cached_factory,
    env_path,
    input_error,
    resource_digest,
)
from claimforge.registry import ComponentConfig, registry

__all__ = ["UMLS", "UMLSConfig", "MRCONSO_FIELDS", "MRREL_FIELDS", "MRSTY_FIELDS", "iter_rrf"]

MRCONSO_FIELDS = "CUI LAT TS LUI STT SUI ISPREF AUI SAUI SCUI SDUI SAB TTY CODE STR SRL SUPPRESS CVF".split()  # noqa: SIM905
MRREL_FIELDS = "CUI1 AUI1 STYPE1 REL CUI2 AUI2 STYPE2 RELA RUI SRUI SAB SL RG DIR SUPPRESS CVF".split()  # noqa: SIM905
MRSTY_FIELDS = "CUI TUI STN STY ATUI CVF".split()  # noqa: SIM905
RELATIONS = ("PAR", "CHD", "RB", "RN")
_RELEASE = re.compile(r"umls\.release\.name\s*=\s*(\S+)")


class UMLSConfig(ComponentConfig):
    path: str | None = None  # a directory with MRCONSO.RRF, MRREL.RRF, MRSTY.RRF; default $CLAIMFORGE_UMLS_DIR
    languages: tuple[str, ...] = ("ENG",)
    sources: tuple[str, ...] | None = None  # SAB filter, e.g. ("MSH", "SNOMEDCT_US", "RXNORM"); None = all
    skip_suppressed: bool = True
    relations: tuple[str, ...] = ("PAR", "CHD")


def _find(directory: Path, name: str) -> Path | None:
    for d in (directory, directory / "META"):
        for candidate in (d / name, d / f"{name}.gz"):
            if candidate.is_file():
                return candidate
    return None


def iter_rrf(
    path: Path, n_fields: int, keep: tuple[int, frozenset[str]] | None = None
) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of an RRF file. Every line is checked: one without exactly ``n_fields``
    ``|``-terminated fields, with an empty first field or with bytes that are not UTF-8 raises an InputError
    naming the file and the line. ``keep=(k, values)`` yields only the rows whose field k is one of the values
    (decided before splitting the whole line: most MRREL rows are not hierarchy)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as f:
        for lineno, raw in enumerate(f, start=1):
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                raise input_error(path, f"line {lineno}", f"not UTF-8 ({e.reason} at byte {e.start})") from None
            if not line:
                continue
            if line.count("|") != n_fields or line[-1] != "|" or line[0] == "|":
                fields = line.split("|")
                if fields[0] == "" and len(fields) == n_fields + 1 and fields[-1] == "":
                    raise input_error(path, f"line {lineno}", f"empty CUI: {line[:100]!r}")
                got = len(fields) - 1 if fields[-1] == "" else len(fields)
                raise input_error(
                    path, f"line {lineno}", f"expected {n_fields} '|'-terminated fields, got {got}: {line[:100]!r}"
                )
            if keep is not None and line.split("|", keep[0] + 1)[keep[0]] not in keep[1]:
                continue
            fields = line.split("|")
            fields.pop()
            yield lineno, fields


class UMLS(GraphKB):
    """UMLS Metathesaurus (MRCONSO, MRSTY, MRREL): semantic types as types, PAR/CHD hierarchy."""

    name = "umls"

    def __init__(self, config: UMLSConfig | None = None) -> None:
        super().__init__()
        self.config = config or UMLSConfig()
        directory = env_path(self.config.path, "CLAIMFORGE_UMLS_DIR")
        if directory is None:
            raise KBNotAvailable(
                "UMLS: no directory given. Set the 'path' option or $CLAIMFORGE_UMLS_DIR to the META directory of a "
                "UMLS release (MRCONSO.RRF, MRREL.RRF, MRSTY.RRF; licence from https://uts.nlm.nih.gov)"
            )
        files = {name: _find(directory, name) for name in ("MRCONSO.RRF", "MRSTY.RRF", "MRREL.RRF")}
        missing = [name for name, p in files.items() if p is None]
        if missing:
            raise KBNotAvailable(f"UMLS: {', '.join(missing)} not found in {directory} (nor in {directory / 'META'})")
        self.directory = directory
        found = {name: p for name, p in files.items() if p is not None}
        self.mrconso, self.mrsty, self.mrrel = found["MRCONSO.RRF"], found["MRSTY.RRF"], found["MRREL.RRF"]
        bad = [r for r in self.config.relations if r not in RELATIONS]
        if bad:
            raise ValueError(f"umls: unknown relations {bad} (known: {', '.join(RELATIONS)})")
        self.release = self._release()
        self._model_id: str | None = None

    def _release(self) -> str:
        for d in (self.directory, self.directory.parent):
            f = d / "release.dat"
            if f.is_file():
                m = _RELEASE.search(f.read_text(encoding="utf-8", errors="replace"))
                if m:
                    return m.group(1)
        return "unknown"

    @property
    def model_id(self) -> str:
        if self._model_id is None:
            cfg = self.config
            parts = [
                "+".join(cfg.languages),
                "+".join(cfg.sources) if cfg.sources else "all",
                "nosuppressed" if cfg.skip_suppressed else "suppressed",
                "+".join(cfg.relations),
            ]
            digest = resource_digest([self.mrconso, self.mrsty, self.mrrel])
            self._model_id = f"umls-{self.release}:{':'.join(parts)}:{digest}"
        return self._model_id

    def _load(self) -> None:
        cfg = self.config
        languages = set(cfg.languages)
        sources = set(cfg.sources) if cfg.sources else None
        t0 = time.perf_counter()
        # CUI -> [rank of the name row, name, [strings]]
        entries: dict[str, list] = {}
        rows = 0
        for _, f in iter_rrf(self.mrconso, 18, keep=(1, frozenset(languages))):
            rows += 1
            if sources is not None and f[11] not in sources:
                continue
            if cfg.skip_suppressed and f[16] != "N":
                continue
            cui, text = f[0], f[14]
            rank = (f[2] == "P") + (f[4] == "PF") + (f[6] == "Y")
            e = entries.get(cui)
            if e is None:
                entries[cui] = [rank, text, [text]]
                continue
            if text not in e[2]:
                e[2].append(text)
            if rank > e[0]:
                e[0], e[1] = rank, text
        self.stats["mrconso_rows_in_languages"] = rows
        self.stats["mrconso_seconds"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        types: dict[str, list[str]] = {}
        interned: dict[str, str] = {}
        for _, f in iter_rrf(self.mrsty, 6):
            if f[0] in entries:
                sty = interned.setdefault(f[3], f[3])
                t = types.setdefault(f[0], [])
                if sty not in t:
                    t.append(sty)
        self.stats["mrsty_seconds"] = time.perf_counter() - t1
        for cui in sorted(entries):
            _, name, strings = entries.pop(cui)
            self._add_concept(cui, name, strings, types.pop(cui, ()))
        t2 = time.perf_counter()
        relations = set(cfg.relations)
        known = self._concepts
        for _, f in iter_rrf(self.mrrel, 16, keep=(3, frozenset(relations))):
            rel = f[3]
            if (sources is not None and f[10] not in sources) or (cfg.skip_suppressed and f[14] not in ("N", "")):
                continue
            cui1, cui2 = f[0], f[4]
            if cui1 not in known or cui2 not in known:
                continue
            if rel in ("PAR", "RB"):
                self._add_edge(cui1, cui2)
            else:  # CHD, RN: CUI2 is below CUI1
                self._add_edge(cui2, cui1)
        self.stats["mrrel_seconds"] = time.perf_counter() - t2


@registry.register("kb", "umls", UMLSConfig)
@cached_factory
def _build(config: UMLSConfig) -> UMLS:
    """UMLS Metathesaurus from MRCONSO/MRSTY/MRREL.RRF (user-provided): semantic types, PAR/CHD siblings."""
    return UMLS(config)
