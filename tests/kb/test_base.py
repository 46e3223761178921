"""What every knowledge base shares: names, parts of speech, inflection fallback, the sibling rules."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from claimforge.kb.base import (
    BaseKB,
    Concept,
    GraphKB,
    KnowledgeBase,
    UnknownConcept,
    inflection_variants,
    normalize_name,
    normalize_pos,
    shares_type,
    unique_names,
    word_base_forms,
)
from claimforge.registry import registry


def test_normalize_name() -> None:
    assert normalize_name("  Beta-Blockers ") == "beta blockers"
    assert normalize_name("acetylsalicylic_acid") == "acetylsalicylic acid"
    assert normalize_name("Ménière\u2013disease\tType  2") == "meniere disease type 2"
    assert normalize_name("NF-\u03baB") == "nf \u03bab"  # Greek kept
    assert normalize_name("") == normalize_name(" - ") == ""


def test_normalize_pos() -> None:
    assert [normalize_pos(p) for p in ("n", "NOUN", "PROPN", "NNS", "v", "VERB", "VBZ", "ADJ", "s", "JJ", "ADV")] == [
        "n",
        "n",
        "n",
        "n",
        "v",
        "v",
        "v",
        "a",
        "a",
        "a",
        "r",
    ]
    assert normalize_pos(None) is None and normalize_pos("DET") is None and normalize_pos("") is None


def test_inflection_variants() -> None:
    assert inflection_variants("apoptotic processes")[0] == "apoptotic process"
    assert "seizure" in inflection_variants("seizures")
    assert inflection_variants("nuclei") == ["nucleus"]
    assert "bacterium" in inflection_variants("bacteria") and "criterion" in inflection_variants("criteria")
    assert "diagnosis" in inflection_variants("diagnoses") and "stop" in word_base_forms("stopped")
    assert inflection_variants("mice") == ["mouse"]
    assert "inhibit growth" in inflection_variants("inhibits growth")
    assert inflection_variants("dna") == [] and inflection_variants("") == []


def test_unique_names_and_types() -> None:
    assert unique_names("Aspirin", ["aspirin", "Acetylsalicylic Acid", "acetylsalicylic-acid", " ASA ", ""]) == (
        "Acetylsalicylic Acid",
        "ASA",
    )
    a = Concept("1", "a", ("b",), ("T1", "T2"), "kb")
    assert a.names == ("a", "b")
    assert shares_type(a, Concept("2", "c", (), ("T2",), "kb"))
    assert not shares_type(a, Concept("3", "d", (), ("T3",), "kb"))
    assert not shares_type(a, Concept("4", "e", (), (), "kb"))
    assert shares_type(Concept("5", "f", (), (), "kb"), a)  # no types: no filter
    with pytest.raises(AttributeError):
        a.name = "x"  # type: ignore[misc]


class ToyKB(GraphKB):
    """A diamond with a cycle: r -> {a, b}; a -> {c, d}; b -> {c}; c -> {e}; e -> c (a cycle)."""

    name = "toy"

    def __init__(self, edges: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.edges = edges

    @property
    def model_id(self) -> str:
        return "toy"

    def _load(self) -> None:
        types = {"d": ("U",)}
        for id in "rabcde":
            self._add(
                Concept(id, f"name {id}", (f"alias {id}",) if id != "d" else ("name c",), types.get(id, ("T",)), "toy")
            )
        for child, parent in self.edges:
            self._add_edge(child, parent)


def test_sibling_rules_on_a_toy_graph() -> None:
    kb = ToyKB([("a", "r"), ("b", "r"), ("c", "a"), ("d", "a"), ("c", "b"), ("e", "c"), ("c", "e"), ("x", "r")])
    assert isinstance(kb, KnowledgeBase) and isinstance(kb, BaseKB)
    c = kb.concept("c")
    assert [p.id for p in kb.parents(c)] == ["a", "b", "e"]  # sorted; the edge to unknown 'x' dropped
    assert kb.ancestor_ids("c") == {"a", "b", "e", "r"}  # the cycle c <-> e does not loop
    # siblings of c: children of a (c, d), of b (c), of e (c): d has c's name as an alias -> excluded
    assert kb.siblings(c, same_type=False) == []
    a = kb.concept("a")
    assert [s.id for s in kb.siblings(a)] == ["b"]
    d = kb.concept("d")
    assert kb.siblings(d) == [] and [s.id for s in kb.siblings(d, same_type=False)] == []  # c is named like d's alias
    assert kb.link("Name  C") == [c, d]  # the name match first, then the alias match
    assert [x.id for x in kb.link("alias a")] == ["a"]
    with pytest.raises(UnknownConcept, match="toy: no concept 'zz'"):
        kb.concept("zz")
    assert len(kb) == 6 and kb.alias_count == 6 and kb.stats["load_seconds"] >= 0


def test_every_kb_is_registered() -> None:
    assert {"wordnet", "go", "hpo", "umls", "mesh"} <= set(registry.names("kb"))
    for name in ("wordnet", "go", "hpo", "umls", "mesh"):
        assert registry.entry("kb", name).help  # a one-line description for `claimforge` listings
