"""``claimforge papers convert``: paper files of any supported format → one JSON Lines file of
:class:`~claimforge.records.Paper` records (``Paper.model_dump(mode="json")``, one a line) and one of rejects.

The output is written as a stream (one paper in memory at a time) to temporary files that replace the targets
only when the run completes; the ``papers`` reader reads the output back as the same Papers.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimforge.io.dataset import atomic_open
from claimforge.io.papers.reader import FORMATS
from claimforge.io.rows import InputError
from claimforge.records import SECTION_TYPES, Paper, Reject
from claimforge.registry import registry

__all__ = ["ConvertStats", "check_paths", "convert_papers", "default_rejects_path"]


@dataclass
class ConvertStats:
    """What a conversion read and wrote: per format the files, papers and rejects (a reject whose format was
    never found counts under ``unknown``), reject reasons, section types, and papers with ≥ 3 typed sections."""

    files: Counter[str] = field(default_factory=Counter)
    papers: Counter[str] = field(default_factory=Counter)
    rejects: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    section_types: Counter[str] = field(default_factory=Counter)
    typed3: Counter[str] = field(default_factory=Counter)

    @property
    def total_papers(self) -> int:
        return sum(self.papers.values())

    @property
    def total_rejects(self) -> int:
        return sum(self.rejects.values())

    def add(self, item: Paper | Reject) -> None:
        if isinstance(item, Paper):
            fmt = item.format or "unknown"
            self.papers[fmt] += 1
            self.files[fmt] += 1
            self.section_types.update(s.type for s in item.sections)
            if item.typed_sections() >= 3:
                self.typed3[fmt] += 1
        else:
            fmt = item.ref.dataset if item.ref is not None else "unknown"
            self.rejects[fmt] += 1
            self.files[fmt] += 1
            self.reasons[item.reason] += 1

    def table(self) -> list[str]:
        """The counts as lines of text (formats, totals, reject reasons, section types)."""
        rows = [f"{'format':<10} {'files':>7} {'papers':>7} {'rejects':>7} {'>=3 typed':>10}"]
        for fmt in sorted(self.files):
            rows.append(
                f"{fmt:<10} {self.files[fmt]:>7} {self.papers[fmt]:>7} {self.rejects[fmt]:>7} {self.typed3[fmt]:>10}"
            )
        total = sum(self.files.values())
        rows.append(
            f"{'total':<10} {total:>7} {self.total_papers:>7} {self.total_rejects:>7} {sum(self.typed3.values()):>10}"
        )
        if self.reasons:
            rows.append("rejects: " + ", ".join(f"{r} {n}" for r, n in self.reasons.most_common()))
        n = sum(self.section_types.values())
        if n:
            parts = [f"{t} {self.section_types[t]} ({self.section_types[t] / n:.1%})" for t in SECTION_TYPES]
            rows.append(f"sections ({n}): " + ", ".join(parts))
        return rows


def default_rejects_path(out: Path) -> Path:
    """``papers.jsonl`` -> ``papers.rejects.jsonl``."""
    name = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(f"{name}.rejects.jsonl")


def check_paths(inputs: Sequence[Path], out: Path, rejects: Path, force: bool = False) -> None:
    """Refuse what cannot work before anything is parsed: a missing input, an output that exists (unless
    ``force``) or is a folder, an output that is also an input, the same file for papers and rejects. Raises
    :class:`~claimforge.io.rows.InputError`."""
    if not inputs:
        raise InputError(out, None, "no input files or folders given")
    for p in inputs:
        if not p.exists():
            raise InputError(p, None, "no such file or folder")
    if out.resolve() == rejects.resolve():
        raise InputError(out, None, "the papers and the rejects would be the same file")
    for target in (out, rejects):
        if target.is_dir():
            raise InputError(target, None, "is a folder, expected a file name")
        if target.exists() and not force:
            raise InputError(target, None, "exists already (use --force to overwrite it)")
        resolved = target.resolve()
        for p in inputs:
            rp = p.resolve()
            if resolved == rp or (rp.is_dir() and rp in resolved.parents):
                raise InputError(target, None, f"is inside the input {p}: write the output elsewhere")


def convert_papers(
    inputs: Sequence[Path],
    out: Path,
    rejects: Path | None = None,
    fmt: str = "auto",
    *,
    force: bool = False,
    limit: int | None = None,
    min_sections: int = 1,
    min_typed_sections: int = 0,
    progress: Callable[[Paper | Reject], Any] | None = None,
) -> ConvertStats:
    """Read every input (file, folder or archive) with the reader for ``fmt`` (``auto``: the ``papers`` reader,
    which finds each file's format) and write the papers to ``out`` and the rejects to ``rejects`` (default
    :func:`default_rejects_path`). ``limit`` caps the papers per input. Returns the counts."""
    if fmt != "auto" and fmt not in FORMATS:
        raise ValueError(f"unknown paper format {fmt!r} (one of auto, {', '.join(FORMATS)})")
    rejects = rejects if rejects is not None else default_rejects_path(out)
    check_paths(inputs, out, rejects, force)
    readers = [
        registry.build(
            "reader",
            {
                "name": "papers" if fmt == "auto" else fmt,
                "path": str(p),
                "limit": limit,
                "min_sections": min_sections,
                "min_typed_sections": min_typed_sections,
            },
        )
        for p in inputs
    ]
    stats = ConvertStats()
    seen: set[str] = set()  # ids are unique within one input (the reader sees to it) and across inputs (here)
    with atomic_open(out) as fp, atomic_open(rejects) as fr:
        for reader in readers:
            for item in reader.read(skip_bad=True):
                if isinstance(item, Paper):
                    if item.id in seen:
                        item = Reject(
                            item_id=item.id,
                            stage="read",
                            reason="duplicate_id",
                            detail=f"{item.ref.where()}: an earlier input already gave id {item.id!r}",
                            ref=item.ref.model_copy(update={"dataset": item.format or item.ref.dataset}),
                        )
                    else:
                        seen.add(item.id)
                stats.add(item)
                (fp if isinstance(item, Paper) else fr).write(
                    json.dumps(item.model_dump(mode="json"), ensure_ascii=False) + "\n"
                )
                if progress is not None:
                    progress(item)
    return stats
