"""The output folder of a build, checked before anything heavy runs: never ``/`` or the home folder, never a
folder holding someone else's files (unless ``force``), and a manifest that lists only what the build wrote.

A folder is claimforge's when it holds the marker file ``.claimforge-build`` (written when a build starts) or
a finished build's ``manifest.json``. Rebuilding into it first removes the files the previous build listed, so
no stale output survives; files claimforge did not write are left alone and never listed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

MARKER = ".claimforge-build"
STAGES = ".stages"  # stored stage outputs (claimforge.engine): kept across rebuilds, never listed
MANIFEST = "manifest.json"


class OutputDirError(ValueError):
    """The output folder cannot be used (the message says why and what to do)."""


def _previous_manifest(out: Path) -> dict | None:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "pipeline" in data and isinstance(data.get("files"), list) else None


def _protected(path: Path) -> bool:
    """The filesystem root, the home folder, or a folder that contains the home folder."""
    home = Path.home().resolve()
    return path == Path(path.anchor) or path == home or home.is_relative_to(path)


@dataclass
class OutputDir:
    """A checked output folder; ``written()`` lists the files created or changed since ``open`` (relative)."""

    path: Path
    replaced: dict | None = None  # the previous build's manifest, when one is being replaced
    _before: dict[str, tuple[int, int]] = field(default_factory=dict)

    def _snapshot(self) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        if self.path.is_dir():
            for p in self.path.rglob("*"):
                if p.is_file() and p.relative_to(self.path).parts[0] != STAGES:
                    st = p.stat()
                    out[str(p.relative_to(self.path))] = (st.st_mtime_ns, st.st_size)
        return out

    def mark(self) -> None:
        """Create the folder and mark it as claimforge's (before any stage output is stored in it)."""
        self.path.mkdir(parents=True, exist_ok=True)
        if not (self.path / MARKER).is_file():
            self._stamp()

    def _stamp(self) -> None:
        stamp = {"started": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        (self.path / MARKER).write_text(json.dumps(stamp) + "\n", encoding="utf-8")

    def start(self) -> None:
        """Create the folder, mark it as claimforge's, and remove the previous build's listed outputs."""
        self.path.mkdir(parents=True, exist_ok=True)
        if self.replaced is not None:
            for name in self.replaced.get("files", []):
                target = (self.path / name).resolve()
                if target.is_relative_to(self.path) and target.is_file():
                    target.unlink()
        self._stamp()
        self._before = self._snapshot()

    def written(self) -> list[str]:
        now = self._snapshot()
        return sorted(k for k, v in now.items() if self._before.get(k) != v and k != MARKER)


def check_output_dir(out: str | Path, force: bool = False) -> OutputDir:
    """Validate ``out`` without writing anything; raises :class:`OutputDirError`."""
    path = Path(out).expanduser().resolve()
    if _protected(path):
        raise OutputDirError(
            f"--out {out}: refusing to write a dataset into {path} (the root or home folder); "
            "name a new folder, e.g. --out out/mybuild"
        )
    if path.exists() and not path.is_dir():
        raise OutputDirError(f"--out {out}: {path} is a file, not a folder")
    if not path.is_dir():
        return OutputDir(path)
    previous = _previous_manifest(path)
    ours = previous is not None or (path / MARKER).is_file()
    if not ours and any(path.iterdir()) and not force:
        names = sorted(p.name for p in path.iterdir())
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        raise OutputDirError(
            f"--out {out}: {path} already holds files that are not a claimforge build ({shown}); "
            "choose an empty or new folder, or pass --force to write beside them"
        )
    return OutputDir(path, replaced=previous)
