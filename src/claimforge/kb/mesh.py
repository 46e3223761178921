"""MeSH descriptors from NLM's XML (``desc2025.xml``, plain or ``.gz``), read as a stream with ``iterparse``.

``path`` (or ``$CLAIMFORGE_MESH_XML``) is the file of ``DescriptorRecordSet/DescriptorRecord`` elements. Per
record (direct children only, so names inside PharmacologicalActionList, EntryCombinationList or
SeeRelatedList are not mistaken for the record's own): ``DescriptorUI`` is the id, ``DescriptorName/String``
the name, ``TreeNumberList/TreeNumber`` the places in the hierarchy, and every
``ConceptList/Concept/TermList/Term/String`` an alias (permuted terms only with ``permuted_terms``); the
definition is the preferred concept's ``ScopeNote``.

Hierarchy: the parent of tree number ``C10.228.140.490`` is the descriptor holding ``C10.228.140``; a
top-level tree number (``C10``) hangs under a virtual concept per category (id ``C``, name "Diseases"), so the
top-level descriptors of a category are siblings. Virtual categories are not linked by name.

Types (``type_level``): ``category`` (default) = the tree category letters of the descriptor's tree numbers
(``C`` = Diseases, ``D`` = Chemicals and Drugs, ...); ``tree`` = their first segments (``C10``, ``D02``). A
descriptor without tree numbers has no parents and no types.

Memory: the records are cleared as they are read; what stays is the descriptors' names, aliases, scope
notes and tree numbers (about 30,000 descriptors for a current release).
"""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from typing import IO, Literal
from xml.parsers import expat

from claimforge.kb.base import (
    Concept,
    GraphKB,
    KBNotAvailable,
    cached_factory,
    env_path,
    input_error,
    resource_digest,
)
from claimforge.registry import ComponentConfig, registry

__all__ = ["MeSH", "MeSHConfig", "MESH_CATEGORIES", "tree_parent"]

MESH_CATEGORIES = {
    "A": "Anatomy",
    "B": "Organisms",
    "C": "Diseases",
    "D": "Chemicals and Drugs",
    "E": "Analytical, Diagnostic and Therapeutic Techniques, and Equipment",
    "F": "Psychiatry and Psychology",
    "G": "Phenomena and Processes",
    "H": "Disciplines and Occupations",
    "I": "Anthropology, Education, Sociology, and Social Phenomena",
    "J": "Technology, Industry, and Agriculture",
    "K": "Humanities",
    "L": "Information Science",
    "M": "Named Groups",
    "N": "Health Care",
    "V": "Publication Characteristics",
    "Z": "Geographicals",
}
_YEAR = re.compile(r"desc(\d{4})")


class MeSHConfig(ComponentConfig):
    path: str | None = None  # desc20XX.xml(.gz); default $CLAIMFORGE_MESH_XML
    type_level: Literal["category", "tree"] = "category"
    permuted_terms: bool = False


def tree_parent(tree_number: str) -> str | None:
    """``C10.228.140`` -> ``C10.228``; a top-level number (``C10``) has none."""
    head, sep, _ = tree_number.rpartition(".")
    return head if sep else None


def _text(elem: ET.Element | None) -> str:
    return " ".join((elem.text or "").split()) if elem is not None else ""


class MeSH(GraphKB):
    """MeSH descriptors: tree-number hierarchy, tree categories as types, all entry terms as aliases."""

    name = "mesh"

    def __init__(self, config: MeSHConfig | None = None) -> None:
        super().__init__()
        self.config = config or MeSHConfig()
        path = env_path(self.config.path, "CLAIMFORGE_MESH_XML")
        if path is None or not path.is_file():
            raise KBNotAvailable(
                f"MeSH descriptor file not found: {path or '(none given)'}. Download desc20XX.xml from "
                "https://nlmpubs.nlm.nih.gov/projects/mesh/MESH_FILES/xmlmesh/ and set the 'path' option or "
                "$CLAIMFORGE_MESH_XML"
            )
        self.path = path
        m = _YEAR.search(path.name)
        self.version = m.group(1) if m else "unknown"
        self._model_id: str | None = None
        self.tree_numbers: dict[str, tuple[str, ...]] = {}

    @property
    def model_id(self) -> str:
        if self._model_id is None:
            self._model_id = f"mesh-{self.version}:{self.config.type_level}:{resource_digest([self.path])}"
        return self._model_id

    def _open(self) -> IO[bytes]:
        if self.path.suffix == ".gz":
            return gzip.open(self.path, "rb")  # type: ignore[return-value]
        return self.path.open("rb")

    def _record_line(self, n: int) -> str:
        """'line N' where the n-th (0-based) DescriptorRecord starts: found again only to report an error."""
        count = -1
        with self._open() as f:
            for lineno, line in enumerate(f, start=1):
                count += line.count(b"<DescriptorRecord ") + line.count(b"<DescriptorRecord>")
                if count >= n:
                    return f"line {lineno}"
        return f"record {n + 1}"

    def _load(self) -> None:
        by_tree: dict[str, str] = {}
        n = -1
        root: ET.Element | None = None
        try:
            with self._open() as f:
                for event, elem in ET.iterparse(f, events=("start", "end")):
                    if event == "start":
                        if root is None:
                            root = elem
                            if elem.tag != "DescriptorRecordSet":
                                raise input_error(
                                    self.path, "line 1", f"expected <DescriptorRecordSet>, got <{elem.tag}>"
                                )
                        continue
                    if elem.tag != "DescriptorRecord":
                        continue
                    n += 1
                    self._record(elem, n, by_tree)
                    elem.clear()
                    if root is not None:
                        root.clear()  # drop the finished records from the tree
        except ET.ParseError as e:
            line, col = e.position
            reason = expat.ErrorString(e.code) if e.code else str(e)
            raise input_error(self.path, f"line {line}", f"malformed XML at column {col}: {reason}") from None
        if n < 0:
            raise input_error(self.path, None, "no DescriptorRecord in the file")
        level = self.config.type_level
        for letter in sorted({t[0] for t in by_tree}):
            name = MESH_CATEGORIES.get(letter, f"Category {letter}")
            self._add(Concept(letter, name, (), (letter,), self.name), index_names=False)
        for tree, ui in by_tree.items():
            parent = tree_parent(tree)
            while parent is not None and parent not in by_tree:  # a gap in the file's tree: the nearest one above
                parent = tree_parent(parent)
            self._add_edge(ui, by_tree[parent] if parent is not None else tree[0])
        # types depend on every tree number of the descriptor: fill them in now
        for ui, trees in self.tree_numbers.items():
            types = tuple(dict.fromkeys(t[0] if level == "category" else t.split(".")[0] for t in trees))
            c = self._concepts[ui]
            self._concepts[ui] = Concept(c.id, c.name, c.aliases, types, c.kb, c.pos, c.definition)

    def _record(self, rec: ET.Element, n: int, by_tree: dict[str, str]) -> None:
        ui = _text(rec.find("DescriptorUI"))
        name = _text(rec.find("DescriptorName/String"))
        if not ui or not name:
            missing = "DescriptorUI" if not ui else f"DescriptorName/String (of {ui})"
            raise input_error(self.path, self._record_line(n), f"DescriptorRecord without {missing}")
        if ui in self._concepts:
            raise input_error(self.path, self._record_line(n), f"descriptor {ui} appears twice")
        trees = tuple(_text(t) for t in rec.findall("TreeNumberList/TreeNumber") if _text(t))
        aliases: list[str] = []
        definition = ""
        for concept in rec.findall("ConceptList/Concept"):
            if concept.get("PreferredConceptYN") == "Y" and not definition:
                definition = _text(concept.find("ScopeNote"))
            for term in concept.findall("TermList/Term"):
                if term.get("IsPermutedTermYN") == "Y" and not self.config.permuted_terms:
                    continue
                aliases.append(_text(term.find("String")))
        for t in trees:
            by_tree[t] = ui
        self.tree_numbers[ui] = trees
        self._add_concept(ui, name, aliases, (), definition)


@registry.register("kb", "mesh", MeSHConfig)
@cached_factory
def _build(config: MeSHConfig) -> MeSH:
    """MeSH descriptors from desc20XX.xml (user-provided): tree hierarchy, categories as types."""
    return MeSH(config)
