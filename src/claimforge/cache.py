"""On-disk cache for expensive results (embeddings, parses, model generations).

Keys are fingerprints of (namespace, model id, parameters, content); values are bytes in SQLite.
Each put is committed in small transactions, so a killed run keeps what it had finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from claimforge.registry import ComponentConfig


def default_cache_dir() -> Path:
    env = os.environ.get("CLAIMFORGE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "claimforge"


def fingerprint(*parts: Any) -> str:
    """A stable hex digest of JSON-serialisable parts."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def files_digest(paths: Iterable[Path], salt: str = "") -> str:
    """A digest of files' names and bytes (e.g. a model's weights), read in 1 MiB blocks."""
    h = hashlib.sha256(salt.encode())
    for path in sorted(paths):
        h.update(path.name.encode())
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


def weights_stamp(path: str | Path) -> str:
    """A cheap identity of a local model (a file or a folder): the names, sizes and modification times of its
    files, so caches and stored stage outputs notice a model retrained in place. "" for anything that is not a
    local path (a hub name). The one model-fingerprint helper of every cache; :func:`files_digest` hashes the
    bytes when an export must match the exact weights."""
    p = Path(path).expanduser()
    try:
        if p.is_file():
            st = p.stat()
            return fingerprint([p.name, st.st_size, st.st_mtime_ns])[:16]
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.is_file())[:2000]
            stats = [[str(f.relative_to(p)), f.stat().st_size, f.stat().st_mtime_ns] for f in files]
            return fingerprint(stats)[:16] if stats else ""
    except OSError:
        return ""
    return ""


class DiskCache:
    """A namespaced bytes cache. ``DiskCache(None)`` is a no-op cache (caching disabled)."""

    def __init__(self, directory: Path | str | None, namespace: str) -> None:
        self.namespace = namespace
        self._db: sqlite3.Connection | None = None
        if os.environ.get("CLAIMFORGE_NO_CACHE") == "1":
            directory = None  # `claimforge ... --no-cache`: one switch for every component's cache
        if directory is not None:
            path = Path(directory)
            path.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path / f"{namespace}.sqlite"), timeout=60)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v BLOB NOT NULL)")
            self._db.commit()

    @property
    def enabled(self) -> bool:
        return self._db is not None

    def get_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        if self._db is None or not keys:
            return {}
        found: dict[str, bytes] = {}
        for i in range(0, len(keys), 500):
            chunk = list(keys[i : i + 500])
            marks = ",".join("?" * len(chunk))
            for k, v in self._db.execute(f"SELECT k, v FROM kv WHERE k IN ({marks})", chunk):
                found[k] = v
        return found

    def put_many(self, items: Mapping[str, bytes] | Iterable[tuple[str, bytes]]) -> None:
        if self._db is None:
            return
        pairs = list(items.items()) if isinstance(items, Mapping) else list(items)
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)", pairs)

    def get(self, key: str) -> bytes | None:
        return self.get_many([key]).get(key)

    def put(self, key: str, value: bytes) -> None:
        self.put_many([(key, value)])

    def prune(self, keep: Callable[[bytes], bool]) -> int:
        """Delete every entry whose value ``keep`` rejects; returns how many were deleted."""
        if self._db is None:
            return 0
        bad = [k for k, v in self._db.execute("SELECT k, v FROM kv") if not keep(v)]
        with self._db:
            self._db.executemany("DELETE FROM kv WHERE k = ?", [(k,) for k in bad])
        return len(bad)

    def __len__(self) -> int:
        if self._db is None:
            return 0
        return int(self._db.execute("SELECT COUNT(*) FROM kv").fetchone()[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class CachedComponentConfig(ComponentConfig):
    """Config fields shared by every component that caches results on disk."""

    cache_dir: str | None = None  # default: default_cache_dir()
    use_cache: bool = True

    def open_cache(self, namespace: str) -> DiskCache:
        """The component's cache (a no-op cache when ``use_cache`` is false or --no-cache is given)."""
        return DiskCache((self.cache_dir or default_cache_dir()) if self.use_cache else None, namespace)
