"""Knowledge bases behind one interface, for KB-informed negation (KBIN, Wright et al. 2022, Algorithm 1).

An entity mention is *linked* to concepts; concepts of the same type that are *siblings* in the hierarchy
(they share a parent) are candidate replacements; their canonical name and aliases are substituted into
the claim. WordNet also gives *antonyms* (verbs, adjectives).

Shared here, once: the :class:`Concept` record, the :class:`KnowledgeBase` protocol, name normalisation
(:func:`normalize_name`), the inflection fallback of linking, the part-of-speech spellings, and the sibling
computation with its same-type filter (:meth:`BaseKB.siblings`). :class:`GraphKB` is the in-memory
implementation that GO, HPO, UMLS and MeSH fill in; WordNet reads its files lazily (``wordnet.py``).

Conventions
    * ``link`` matches the normalised mention exactly against names and aliases (case-, diacritic-,
      whitespace-, hyphen- and underscore-insensitive), then, when nothing matches, the base forms of its
      inflected head word (:func:`inflection_variants`: rules, each candidate checked against the names;
      WordNet uses its own morphy); best first: preferred-name matches before alias matches, then by the
      KB's own order (sense frequency for WordNet, identifier otherwise).
    * ``siblings(c)``: the children of c's parents, in parent order then child order, without c, its
      ancestors and descendants, concepts named like c (a sibling whose canonical name is one of c's names,
      or whose names include c's canonical name) and repeated canonical names. ``same_type`` keeps the
      siblings sharing at least one type with c (no filter when c has no types).
    * Missing resources raise :class:`KBNotAvailable` (with how to install them); malformed files raise
      :class:`claimforge.io.mcq.InputError` naming the file and the line.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import gzip
import hashlib
import io
import os
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol, TypeVar, runtime_checkable

__all__ = [
    "BaseKB",
    "Concept",
    "GraphKB",
    "KBNotAvailable",
    "KnowledgeBase",
    "UnknownConcept",
    "inflection_variants",
    "word_base_forms",
    "input_error",
    "normalize_name",
    "normalize_pos",
    "open_text",
    "resource_digest",
    "shares_type",
    "unique_names",
]


_Cfg = TypeVar("_Cfg")
_KB = TypeVar("_KB")


@dataclass(frozen=True, slots=True)
class Concept:
    """A concept of a knowledge base: ``name`` is the canonical name, ``aliases`` the other names (synonyms),
    ``types`` what the same-type filter compares (WordNet lexicographer file, GO namespace, HPO branch,
    UMLS semantic types, MeSH tree category), ``pos`` a WordNet part of speech (n, v, a, s, r) or None."""

    id: str
    name: str
    aliases: tuple[str, ...]
    types: tuple[str, ...]
    kb: str
    pos: str | None = None
    definition: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical name, then the aliases: what KBIN substitutes into a claim."""
        return (self.name, *self.aliases)


@runtime_checkable
class KnowledgeBase(Protocol):
    name: str

    @property
    def model_id(self) -> str: ...

    def link(self, mention: str, pos: str | None = None) -> list[Concept]: ...

    def concept(self, id: str) -> Concept: ...

    def parents(self, c: Concept) -> list[Concept]: ...

    def children(self, c: Concept) -> list[Concept]: ...

    def siblings(self, c: Concept, same_type: bool = True, limit: int | None = None) -> list[Concept]: ...

    def antonyms(self, c: Concept) -> list[Concept]: ...


class KBNotAvailable(FileNotFoundError):
    """The knowledge base's files are not there; the message says where they were looked for and how to get them."""


def input_error(path: str | Path, where: str | None, detail: str) -> Exception:
    """A :class:`claimforge.io.mcq.InputError` (file, line, problem), imported only when there is one to raise."""
    from claimforge.io.rows import InputError

    return InputError(path, where, detail)


class UnknownConcept(KeyError):
    """``concept(id)`` with an id the knowledge base does not have."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""


# --------------------------------------------------------------------------------------------------
# Names and parts of speech

_SEPARATORS = re.compile(r"[\s_\-\u2010\u2011\u2012\u2013\u2014\u2212]+")


def normalize_name(text: str) -> str:
    """The matching key of a name or mention: Unicode-folded (é → e), lower-cased, with every run of
    whitespace, hyphens and underscores one space, stripped. ``"Beta-Blockers"`` → ``"beta blockers"``."""
    if text.isascii():  # the fast path (str.translate is several times slower)
        return " ".join(text.replace("_", " ").replace("-", " ").lower().split())
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _SEPARATORS.sub(" ", text).strip()


_POS = {
    "n": "n",
    "noun": "n",
    "propn": "n",
    "nn": "n",
    "nns": "n",
    "nnp": "n",
    "nnps": "n",
    "v": "v",
    "verb": "v",
    "aux": "v",
    "a": "a",
    "s": "a",
    "adj": "a",
    "jj": "a",
    "jjr": "a",
    "jjs": "a",
    "r": "r",
    "adv": "r",
    "rb": "r",
}


def unique_names(name: str, candidates: Iterable[str]) -> tuple[str, ...]:
    """Aliases from candidate names: one per normalised form (the first spelling), none equal to ``name``."""
    seen = {normalize_name(name)}
    out = []
    for cand in candidates:
        key = normalize_name(cand)
        if key and key not in seen:
            seen.add(key)
            out.append(cand.strip())
    return tuple(out)


def normalize_pos(pos: str | None) -> str | None:
    """A WordNet part of speech (n, v, a, r) from WordNet letters, Universal POS tags (NOUN, PROPN, VERB, ADJ,
    ADV) or Penn tags (NN*, VB*, JJ*, RB*); None for None or any other tag (no filter)."""
    if not pos:
        return None
    key = pos.strip().lower()
    if key.startswith("vb"):
        return "v"
    return _POS.get(key)


# Base forms of an inflected English word, tried in this order; every candidate is checked against the KB's
# names, so over-generating is harmless (the idea of WordNet's morphy, plus Latin/Greek plurals of biomedicine).
_NOUN_RULES = (
    ("ies", "y"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("sses", "ss"),
    ("xes", "x"),
    ("zes", "z"),
    ("ses", "sis"),  # diagnoses, metastases
    ("ices", "ex"),  # indices
    ("ices", "ix"),  # matrices
    ("ves", "f"),
    ("ves", "fe"),
    ("men", "man"),
    ("es", ""),
    ("s", ""),
    ("ae", "a"),  # vertebrae
    ("ata", "a"),  # stomata
    ("a", "um"),  # bacteria
    ("a", "on"),  # criteria, phenomena
    ("i", "us"),  # nuclei
)
_IRREGULAR = {
    "mice": "mouse",
    "lice": "louse",
    "feet": "foot",
    "teeth": "tooth",
    "geese": "goose",
    "children": "child",
    "oxen": "ox",
    "people": "person",
}
_VERB_RULES = (("ies", "y"), ("es", ""), ("s", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""))


def word_base_forms(word: str) -> list[str]:
    """Candidate base forms of one lower-cased word: plural nouns and inflected verbs (doubled consonants
    undone: "stopped" -> "stop"). Not checked against anything."""
    out: list[str] = [_IRREGULAR[word]] if word in _IRREGULAR else []
    if len(word) <= 3 or not word.isalpha():
        return out
    for suffix, ending in (*_NOUN_RULES, *_VERB_RULES):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            base = word[: len(word) - len(suffix)] + ending
            out.append(base)
            if suffix in ("ed", "ing") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiousl":
                out.append(base[:-1])
    return [b for b in dict.fromkeys(out) if b != word]


def inflection_variants(key: str) -> list[str]:
    """Base forms of a normalised mention whose head word is inflected, to be looked up in order: the last
    word's ("apoptotic processes" -> "apoptotic process", "seizures" -> "seizure", "nuclei" -> "nucleus"), then,
    for phrases, the first word's ("inhibits growth" -> "inhibit growth")."""
    words = key.split()
    if not words:
        return []
    out = [" ".join([*words[:-1], b]) for b in word_base_forms(words[-1])]
    if len(words) > 1:
        out += [" ".join([b, *words[1:]]) for b in word_base_forms(words[0])]
    return [v for v in dict.fromkeys(out) if v != key]


def shares_type(c: Concept, other: Concept) -> bool:
    """The same-type filter: ``other`` has at least one of c's types (always true when c has no types)."""
    if not c.types:
        return True
    return not set(c.types).isdisjoint(other.types)


# --------------------------------------------------------------------------------------------------
# Files


def open_text(path: Path) -> IO[str]:
    """A text file (UTF-8, or gzip-compressed when the name ends in .gz) for line-by-line reading; universal
    newlines, so Windows line endings are stripped."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", errors="strict")
    return path.open(encoding="utf-8")


def resource_digest(paths: Iterable[Path], content_limit: int = 256 << 20) -> str:
    """A short digest identifying resource files: their names and bytes when they total at most
    ``content_limit`` bytes, else (UMLS, MeSH) their names, sizes and first and last MiB."""
    files = sorted(Path(p) for p in paths)
    total = sum(p.stat().st_size for p in files)
    h = hashlib.sha256()
    for path in files:
        size = path.stat().st_size
        h.update(f"{path.name}\0{size}\0".encode())
        with path.open("rb") as f:
            if total <= content_limit:
                for block in iter(functools.partial(f.read, 1 << 20), b""):
                    h.update(block)
            else:
                h.update(f.read(1 << 20))
                f.seek(max(0, size - (1 << 20)))
                h.update(f.read())
    return h.hexdigest()[:16]


def env_path(config_value: str | None, env_var: str, default: str | None = None) -> Path | None:
    """A resource path: the config's value, else the environment variable, else the default."""
    value = config_value or os.environ.get(env_var) or default
    return Path(value).expanduser() if value else None


# --------------------------------------------------------------------------------------------------
# The shared algorithm


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Bulk loading creates millions of small objects and no garbage cycles: the cyclic garbage collector
    would rescan them again and again (it roughly doubles GO's load time), so it pauses meanwhile."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class BaseKB:
    """Linking order, sibling computation and the same-type filter, over four primitives a subclass gives:
    ``concept(id)``, ``_parent_ids(id)``, ``_child_ids(id)`` and ``_lookup(key, pos)`` (concept ids whose
    normalised name or alias is ``key``, best first)."""

    name: str = "kb"
    _ANCESTOR_CACHE = 200_000

    def __init__(self) -> None:
        self._ancestors: dict[str, frozenset[str]] = {}
        self._lock = threading.RLock()

    # -- primitives -------------------------------------------------------------------------------
    @property
    def model_id(self) -> str:  # pragma: no cover - every KB overrides
        raise NotImplementedError

    def concept(self, id: str) -> Concept:  # pragma: no cover - every KB overrides
        raise NotImplementedError

    def _parent_ids(self, id: str) -> Sequence[str]:  # pragma: no cover
        raise NotImplementedError

    def _child_ids(self, id: str) -> Sequence[str]:  # pragma: no cover
        raise NotImplementedError

    def _lookup(self, key: str, pos: str | None) -> list[str]:  # pragma: no cover
        raise NotImplementedError

    def _variants(self, key: str, pos: str | None) -> list[str]:
        """Base forms tried when the mention itself matches nothing (WordNet: morphy)."""
        return inflection_variants(key)

    # -- the interface ----------------------------------------------------------------------------
    def link(self, mention: str, pos: str | None = None) -> list[Concept]:
        """Concepts whose name or alias is the mention (normalised), best first; an inflection fallback
        when nothing matches as written. ``pos`` restricts WordNet to one part of speech; other KBs ignore it."""
        key = normalize_name(mention)
        if not key:
            return []
        wn_pos = normalize_pos(pos)
        ids = self._lookup(key, wn_pos)
        if not ids:
            for variant in self._variants(key, wn_pos):
                ids.extend(self._lookup(variant, wn_pos))
        return [self.concept(i) for i in dict.fromkeys(ids)]

    def parents(self, c: Concept) -> list[Concept]:
        return [self.concept(i) for i in self._parent_ids(c.id)]

    def children(self, c: Concept) -> list[Concept]:
        return [self.concept(i) for i in self._child_ids(c.id)]

    def antonyms(self, c: Concept) -> list[Concept]:
        return []

    def ancestor_ids(self, id: str) -> frozenset[str]:
        """Every concept above ``id`` (transitively; cycles, as in UMLS, are fine)."""
        found = self._ancestors.get(id)
        if found is not None:
            return found
        seen: set[str] = set()
        stack = list(self._parent_ids(id))
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            cached = self._ancestors.get(p)
            if cached is not None:
                seen |= cached
                continue
            stack.extend(self._parent_ids(p))
        seen.discard(id)
        result = frozenset(seen)
        if len(self._ancestors) >= self._ANCESTOR_CACHE:
            self._ancestors.clear()
        self._ancestors[id] = result
        return result

    def siblings(self, c: Concept, same_type: bool = True, limit: int | None = None) -> list[Concept]:
        """Concepts sharing a parent with ``c``: see the module docstring for what is left out and the order."""
        ancestors = self.ancestor_ids(c.id)
        own_names = {normalize_name(n) for n in c.names}
        own_name = normalize_name(c.name)
        seen_ids = {c.id}
        seen_names = set(own_names)
        out: list[Concept] = []
        for parent in self._parent_ids(c.id):
            for sid in self._child_ids(parent):
                if sid in seen_ids:
                    continue
                seen_ids.add(sid)
                if sid in ancestors or c.id in self.ancestor_ids(sid):
                    continue
                sib = self.concept(sid)
                if same_type and not shares_type(c, sib):
                    continue
                sib_name = normalize_name(sib.name)
                if sib_name in seen_names or own_name in {normalize_name(n) for n in sib.aliases}:
                    continue
                seen_names.add(sib_name)
                out.append(sib)
                if limit is not None and len(out) >= limit:
                    return out
        return out


class GraphKB(BaseKB):
    """A knowledge base held in memory: concepts, parent and child lists, and a name index. Subclasses fill
    them in ``_load`` (called once, lazily, under a lock) with :meth:`_add` and :meth:`_add_edge`."""

    def __init__(self) -> None:
        super().__init__()
        self._loaded = False
        self._concepts: dict[str, Concept] = {}
        self._parents: dict[str, list[str]] = {}  # tuples once loaded
        self._children: dict[str, list[str]] = {}
        # normalised name -> one id, or a list of (rank, order key, id) until _finish sorts it into a tuple
        self._index: dict[str, object] = {}
        self._alt_ids: dict[str, str] = {}
        self._antonym_ids: dict[str, list[str]] = {}
        self.stats: dict[str, float] = {}

    # -- filling ----------------------------------------------------------------------------------
    def _load(self) -> None:  # pragma: no cover - every GraphKB overrides
        raise NotImplementedError

    def _ensure(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if not self._loaded:
                t0 = time.perf_counter()
                with gc_paused():
                    self._load()
                    self._finish()
                self._loaded = True
                self.stats["load_seconds"] = time.perf_counter() - t0

    def _add(self, c: Concept, order: str | None = None, index_names: bool = True) -> None:
        """Add a ready-made concept (its names indexed unless ``index_names`` is false)."""
        self._concepts[c.id] = c
        if index_names:
            self._index_key(normalize_name(c.name), 0, order or c.id, c.id)
            for alias in c.aliases:
                self._index_key(normalize_name(alias), 1, order or c.id, c.id)

    def _add_concept(
        self,
        id: str,
        name: str,
        candidates: Iterable[str],
        types: Sequence[str],
        definition: str = "",
        order: str | None = None,
    ) -> Concept:
        """Add a concept whose aliases are ``candidates`` deduplicated as :func:`unique_names` does, normalising
        each name once for both the deduplication and the index."""
        order = order or id
        key = normalize_name(name)
        self._index_key(key, 0, order, id)
        seen = {key}
        aliases = []
        for cand in candidates:
            k = normalize_name(cand)
            if k and k not in seen:
                seen.add(k)
                aliases.append(cand.strip())
                self._index_key(k, 1, order, id)
        c = Concept(id, name, tuple(aliases), tuple(types), self.name, None, definition)
        self._concepts[id] = c
        return c

    def _index_key(self, key: str, rank: int, order: str, id: str) -> None:
        if not key:
            return
        entry = self._index.get(key)
        if entry is None:
            self._index[key] = [(rank, order, id)]
        else:
            entry.append((rank, order, id))  # type: ignore[attr-defined]

    def _add_edge(self, child: str, parent: str) -> None:
        if child == parent:
            return
        self._parents.setdefault(child, []).append(parent)
        self._children.setdefault(parent, []).append(child)

    def _finish(self) -> None:
        """Drop edges to unknown concepts, dedupe and sort edges (parents and children by id), sort the index."""
        known = self._concepts
        for table in (self._parents, self._children):
            for id, ids in list(table.items()):
                if id not in known:
                    del table[id]
                    continue
                kept = tuple(sorted({i for i in ids if i in known}))
                if kept:
                    table[id] = kept  # type: ignore[assignment]
                else:
                    del table[id]
        for key, entries in self._index.items():
            if isinstance(entries, list):
                if len(entries) == 1:
                    self._index[key] = entries[0][2]
                    continue
                ordered = tuple(dict.fromkeys(id for _, _, id in sorted(entries)))
                self._index[key] = ordered[0] if len(ordered) == 1 else ordered

    # -- primitives -------------------------------------------------------------------------------
    def concept(self, id: str) -> Concept:
        self._ensure()
        c = self._concepts.get(id)
        if c is None:
            primary = self._alt_ids.get(id)
            if primary is not None:
                return self._concepts[primary]
            raise UnknownConcept(f"{self.name}: no concept {id!r}")
        return c

    def _parent_ids(self, id: str) -> Sequence[str]:
        self._ensure()
        return self._parents.get(id, ())

    def _child_ids(self, id: str) -> Sequence[str]:
        self._ensure()
        return self._children.get(id, ())

    def _lookup(self, key: str, pos: str | None) -> list[str]:
        self._ensure()
        entry = self._index.get(key)
        if entry is None:
            return []
        return [entry] if isinstance(entry, str) else list(entry)  # type: ignore[call-overload]

    def antonyms(self, c: Concept) -> list[Concept]:
        self._ensure()
        return [self.concept(i) for i in self._antonym_ids.get(c.id, ())]

    def concepts(self) -> Iterator[Concept]:
        """Every concept, in load order."""
        self._ensure()
        return iter(list(self._concepts.values()))

    def __len__(self) -> int:
        self._ensure()
        return len(self._concepts)

    @property
    def alias_count(self) -> int:
        self._ensure()
        return sum(len(c.aliases) for c in self._concepts.values())


def cached_factory(build: Callable[[_Cfg], _KB]) -> Callable[[_Cfg], _KB]:
    """Wrap a KB factory so that one config (with the same ``CLAIMFORGE_*`` environment, which can name the
    resource files) builds one instance per process: KBs load once, lazily."""
    instances: dict[object, _KB] = {}
    lock = threading.Lock()

    def factory(config: _Cfg) -> _KB:
        key = (config, tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("CLAIMFORGE_"))))
        with lock:
            kb = instances.get(key)
            if kb is None:
                kb = instances[key] = build(config)
            return kb

    factory.__doc__ = build.__doc__
    factory.__name__ = getattr(build, "__name__", "factory")
    return factory
