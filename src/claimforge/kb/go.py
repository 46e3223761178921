"""The Gene Ontology, from Bioconductor's ``GO.db`` SQLite file (Debian ``r-bioc-go.db``) or an OBO file.

Where: the ``path`` option, else ``$CLAIMFORGE_GO_DB``, else
``/usr/lib/R/site-library/GO.db/extdata/GO.sqlite``. A path ending in ``.obo`` (or ``.obo.gz``), e.g.
``go-basic.obo``, is read as OBO instead.

GO.db schema used: ``go_term(_id, go_id, term, ontology, definition)`` (obsolete terms live in another table
and are left out, as is the ``all`` root of ontology ``universal``), ``go_ontology(ontology, term_type)``,
``go_synonym(_id, synonym, secondary, like_go_id)`` and ``go_{bp,mf,cc}_parents(_id, _parent_id,
relationship_type)`` with relationship types ``isa``, ``part of``, ``regulates``, ``negatively regulates``,
``positively regulates``.

Concepts: id ``GO:0006915``, name = the term, types = the namespace (``biological_process``,
``molecular_function``, ``cellular_component``), definition. Aliases: GO.db keeps synonyms *without* their
scope (EXACT / RELATED / NARROW / BROAD are mixed), so every label synonym is an alias (``like_go_id = 1``
rows are secondary GO ids: ``concept()`` accepts them); an alias match ranks after a name match. From an OBO
file, only the synonyms whose scope is in ``synonym_scopes`` (default EXACT) are aliases. Parents and
children follow the ``relations`` (default ``is_a`` only; ``part_of`` and ``regulates`` can be added).
Antonyms: the terms that positively and negatively regulate the same term are each other's antonyms
("positive regulation of apoptotic process" ↔ "negative regulation of apoptotic process").
"""

from __future__ import annotations

import sqlite3
import time
from collections import defaultdict

from claimforge.kb.base import (
    GraphKB,
    KBNotAvailable,
    cached_factory,
    env_path,
    input_error,
    resource_digest,
)
from claimforge.kb.obo import SYNONYM_SCOPES, read_obo
from claimforge.registry import ComponentConfig, registry

__all__ = ["GeneOntology", "GOConfig", "DEFAULT_GO_DB", "GO_NAMESPACES"]

DEFAULT_GO_DB = "/usr/lib/R/site-library/GO.db/extdata/GO.sqlite"
GO_NAMESPACES = {"BP": "biological_process", "MF": "molecular_function", "CC": "cellular_component"}
_PARENT_TABLES = ("go_bp_parents", "go_mf_parents", "go_cc_parents")
_REQUIRED_TABLES = ("go_term", "go_synonym", *_PARENT_TABLES)


def relation_name(rel: str) -> str:
    """One spelling for GO.db's and OBO's relation names: ``isa``/``is_a`` -> ``is_a``, ``part of`` -> ``part_of``."""
    rel = rel.strip().lower().replace(" ", "_")
    return "is_a" if rel in ("isa", "is_a") else rel


class GOConfig(ComponentConfig):
    path: str | None = None  # GO.sqlite or a .obo file; default $CLAIMFORGE_GO_DB, then DEFAULT_GO_DB
    relations: tuple[str, ...] = ("is_a",)  # also: part_of, regulates, positively_regulates, negatively_regulates
    synonyms: bool = True  # aliases from synonyms at all
    synonym_scopes: tuple[str, ...] = ("EXACT",)  # OBO input only: GO.db has no scopes


class GeneOntology(GraphKB):
    """The Gene Ontology (GO.db SQLite or OBO): namespaces as types, is_a siblings, synonyms as aliases."""

    name = "go"

    def __init__(self, config: GOConfig | None = None) -> None:
        super().__init__()
        self.config = config or GOConfig()
        path = env_path(self.config.path, "CLAIMFORGE_GO_DB", DEFAULT_GO_DB)
        assert path is not None
        if not path.is_file():
            raise KBNotAvailable(
                f"GO database not found: {path}. Extract GO.sqlite from Debian's r-bioc-go.db (`apt-get download "
                "r-bioc-go.db && dpkg -x r-bioc-go.db_*.deb go`), or give go-basic.obo; set the 'path' option "
                "or $CLAIMFORGE_GO_DB"
            )
        self.path = path
        self.relations = frozenset(relation_name(r) for r in self.config.relations)
        bad = [s for s in self.config.synonym_scopes if s not in SYNONYM_SCOPES]
        if bad:
            raise ValueError(f"go: unknown synonym scopes {bad} (known: {', '.join(SYNONYM_SCOPES)})")
        self.version = ""
        self._model_id: str | None = None

    @property
    def is_obo(self) -> bool:
        return self.path.name.endswith((".obo", ".obo.gz"))

    @property
    def model_id(self) -> str:
        if self._model_id is None:
            self._ensure()
            rels = "+".join(sorted(self.relations))
            self._model_id = f"go-{self.version or 'unknown'}:{rels}:{resource_digest([self.path])}"
        return self._model_id

    def _load(self) -> None:
        if self.is_obo:
            self._load_obo()
        else:
            self._load_sqlite()

    # -- GO.db ------------------------------------------------------------------------------------
    def _load_sqlite(self) -> None:
        try:
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as e:
            raise input_error(self.path, None, f"not a SQLite database ({e})") from None
        try:
            missing = [t for t in _REQUIRED_TABLES if t not in tables]
            if missing:
                raise input_error(self.path, None, f"not a GO.db file: no table(s) {', '.join(missing)}")
            if "metadata" in tables:
                meta = dict(db.execute("SELECT name, value FROM metadata"))
                self.version = meta.get("GOSOURCEDATE", "")
            namespaces = dict(GO_NAMESPACES)
            if "go_ontology" in tables:
                namespaces.update(dict(db.execute("SELECT ontology, term_type FROM go_ontology")))
            t0 = time.perf_counter()
            by_row: dict[int, str] = {}
            terms = []
            for row_id, go_id, term, ontology, definition in db.execute(
                "SELECT _id, go_id, term, ontology, definition FROM go_term ORDER BY go_id"
            ):
                if ontology not in GO_NAMESPACES:  # the 'all' root of ontology 'universal'
                    continue
                by_row[row_id] = go_id
                terms.append((row_id, go_id, term, namespaces.get(ontology, ontology), definition or ""))
            aliases: dict[int, list[str]] = defaultdict(list)
            for row_id, synonym, secondary, like_go_id in db.execute(
                "SELECT _id, synonym, secondary, like_go_id FROM go_synonym ORDER BY rowid"
            ):
                go_id = by_row.get(row_id)
                if go_id is None:
                    continue
                if like_go_id:
                    self._alt_ids[secondary or synonym] = go_id
                elif self.config.synonyms:
                    aliases[row_id].append(synonym)
            for row_id, go_id, term, namespace, definition in terms:
                self._add_concept(go_id, term, aliases.get(row_id, ()), (namespace,), definition)
            regulators: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for table in _PARENT_TABLES:
                for child, parent, rel in db.execute(f"SELECT _id, _parent_id, relationship_type FROM {table}"):
                    c, p = by_row.get(child), by_row.get(parent)
                    if c is None or p is None:
                        continue
                    rel = relation_name(rel)
                    if rel in self.relations:
                        self._add_edge(c, p)
                    if rel in ("positively_regulates", "negatively_regulates"):
                        regulators[p][rel].append(c)
            self._antonyms_from_regulation(regulators)
            self.stats["read_seconds"] = time.perf_counter() - t0
        finally:
            db.close()

    # -- OBO --------------------------------------------------------------------------------------
    def _load_obo(self) -> None:
        header, terms = read_obo(self.path)
        self.version = header.get("data-version", "").removeprefix("releases/")
        scopes = set(self.config.synonym_scopes)
        regulators: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for t in terms:
            if t.is_obsolete or not t.id:
                continue
            if not t.name:
                raise input_error(self.path, f"line {t.line}", f"term {t.id} has no name")
            synonyms = [s for s, scope, _ in t.synonyms if scope in scopes] if self.config.synonyms else []
            self._add_concept(t.id, t.name, synonyms, (t.namespace or "gene_ontology",), t.definition)
            for alt in t.alt_ids:
                self._alt_ids[alt] = t.id
            edges = [("is_a", p) for p in t.is_a] + [(relation_name(r), p) for r, p in t.relationships]
            for rel, parent in edges:
                if rel in self.relations:
                    self._add_edge(t.id, parent)
                if rel in ("positively_regulates", "negatively_regulates"):
                    regulators[parent][rel].append(t.id)
        self._antonyms_from_regulation(regulators)

    def _antonyms_from_regulation(self, regulators: dict[str, dict[str, list[str]]]) -> None:
        pairs: dict[str, set[str]] = defaultdict(set)
        for by_rel in regulators.values():
            for up in by_rel.get("positively_regulates", ()):
                for down in by_rel.get("negatively_regulates", ()):
                    pairs[up].add(down)
                    pairs[down].add(up)
        self._antonym_ids = {k: sorted(v) for k, v in pairs.items()}


@registry.register("kb", "go", GOConfig)
@cached_factory
def _build(config: GOConfig) -> GeneOntology:
    """Gene Ontology from GO.db's GO.sqlite (or go-basic.obo): namespaces as types, synonyms as aliases."""
    return GeneOntology(config)
