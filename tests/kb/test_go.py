"""The Gene Ontology: a tiny GO.db SQLite with the real schema, an OBO file, and the real GO.sqlite."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from claimforge.io.rows import InputError
from claimforge.kb.base import Concept, KBNotAvailable, UnknownConcept
from claimforge.kb.go import GeneOntology, GOConfig
from claimforge.registry import RegistryError, registry


@pytest.fixture(scope="module")
def go(tiny_go_db: Path) -> GeneOntology:
    return GeneOntology(GOConfig(path=str(tiny_go_db)))


def names(concepts: list[Concept]) -> list[str]:
    return [c.name for c in concepts]


def test_link_names_synonyms_plurals(go: GeneOntology) -> None:
    (c,) = go.link("Apoptotic Process")
    assert c.id == "GO:0006915" and c.types == ("biological_process",) and c.kb == "go"
    assert c.aliases == ("apoptosis", "apoptotic cell death")  # the secondary id is not an alias
    assert c.definition == "A programmed cell death process."
    assert go.link("apoptotic processes") == [c]  # plural of the head word
    assert go.link("apoptotic-cell death") == [c]
    # a synonym shared by two terms: both, in id order (no name match)
    assert [x.id for x in go.link("apoptosis")] == ["GO:0006915", "GO:0097194"]
    assert go.link("all") == [] and go.link("no such process") == []


def test_name_matches_rank_before_alias_matches(tmp_path: Path) -> None:
    from .conftest import GO_TERMS, write_go_db

    terms = [*GO_TERMS, ("GO:0000001", "mitochondrion inheritance", "BP", "x", ["nucleus"], [("GO:0008150", "isa")])]
    kb = GeneOntology(GOConfig(path=str(write_go_db(tmp_path / "GO.sqlite", terms))))
    assert [x.id for x in kb.link("nucleus")] == ["GO:0005634", "GO:0000001"]


def test_types_hierarchy_and_siblings(go: GeneOntology) -> None:
    apoptosis = go.concept("GO:0006915")
    assert names(go.parents(apoptosis)) == ["programmed cell death"]
    # part_of and regulates edges are not hierarchy by default
    assert go.children(apoptosis) == []
    sibs = go.siblings(apoptosis)
    assert names(sibs) == ["autophagic cell death", "pyroptosis", "programmed necrotic cell death"]
    assert all(s.types == ("biological_process",) for s in sibs)
    assert names(go.siblings(apoptosis, limit=1)) == ["autophagic cell death"]
    # necroptosis is a child of necrotic cell death and of programmed cell death (a sibling of it): excluded
    assert names(go.siblings(go.concept("GO:0070265"))) == ["programmed cell death"]
    assert names(go.siblings(go.concept("GO:0005515"))) == ["DNA binding"]
    assert go.concept("GO:0008150").types == ("biological_process",) and go.parents(go.concept("GO:0008150")) == []


def test_relations_option_adds_part_of(tiny_go_db: Path) -> None:
    kb = GeneOntology(GOConfig(path=str(tiny_go_db), relations=("isa", "part of")))
    assert names(kb.children(kb.concept("GO:0006915"))) == ["execution phase of apoptosis"]
    assert "part_of" in kb.model_id and "is_a" in kb.model_id


def test_antonyms_from_regulation(go: GeneOntology) -> None:
    up = go.link("positive regulation of apoptotic process")[0]
    assert names(go.antonyms(up)) == ["negative regulation of apoptotic process"]
    assert names(go.antonyms(go.antonyms(up)[0])) == [up.name]
    assert go.antonyms(go.concept("GO:0006915")) == []


def test_secondary_ids_and_unknown_ids(go: GeneOntology) -> None:
    assert go.concept("GO:0006917").id == "GO:0006915"
    with pytest.raises(UnknownConcept, match="no concept 'GO:0000005'"):
        go.concept("GO:0000005")  # obsolete terms are not loaded


def test_model_id_and_counts(go: GeneOntology) -> None:
    assert go.model_id.startswith("go-2022-07-01:is_a:")
    assert len(go) == 19 and go.alias_count == 12  # no "all" root; "biological process" = its name


def test_registry_and_environment(tiny_go_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMFORGE_GO_DB", str(tiny_go_db))
    kb = registry.build("kb", "go")
    assert kb.path == tiny_go_db and kb.link("pyroptosis")[0].id == "GO:0070269"
    with pytest.raises(RegistryError, match="bad config for kb 'go'"):
        registry.build("kb", {"name": "go", "synonym_scope": ["EXACT"]})


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(KBNotAvailable, match="apt-get download r-bioc-go.db"):
        GeneOntology(GOConfig(path=str(tmp_path / "GO.sqlite")))
    not_go = tmp_path / "other.sqlite"
    sqlite3.connect(not_go).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(InputError, match=r"other\.sqlite: not a GO\.db file: no table\(s\) go_term"):
        GeneOntology(GOConfig(path=str(not_go))).link("x")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(InputError, match=r"junk\.sqlite: not a SQLite database"):
        GeneOntology(GOConfig(path=str(junk))).link("x")
    with pytest.raises(ValueError, match="unknown synonym scopes"):
        GeneOntology(GOConfig(path=str(junk), synonym_scopes=("exact",)))


GO_OBO = """format-version: 1.2
data-version: releases/2022-07-01
default-namespace: gene_ontology

[Term]
id: GO:0008219
name: cell death
namespace: biological_process
def: "Any biological process that results in permanent cessation of all vital functions of a cell." [GOC:mah]

[Term]
id: GO:0012501
name: programmed cell death
namespace: biological_process
def: "A process which begins when a cell receives an internal or external signal." [GOC:lr]
synonym: "caspase-independent cell death" NARROW []
synonym: "PCD" RELATED []
is_a: GO:0008219 ! cell death

[Term]
id: GO:0006915
name: apoptotic process
namespace: biological_process
alt_id: GO:0006917
def: "A programmed cell death process which begins when a cell receives a signal." [GOC:cjm]
synonym: "apoptosis" NARROW []
synonym: "apoptotic cell death" EXACT []
synonym: "apoptotic programmed cell death" EXACT []
synonym: "induction of apoptosis" RELATED []
is_a: GO:0012501 ! programmed cell death

[Term]
id: GO:0070269
name: pyroptosis
namespace: biological_process
def: "A caspase-1-dependent cell death." [GOC:mtg]
synonym: "caspase-1 dependent cell death" EXACT []
is_a: GO:0012501 ! programmed cell death

[Term]
id: GO:0043065
name: positive regulation of apoptotic process
namespace: biological_process
def: "Any process that activates apoptosis." [GOC:jl]
relationship: positively_regulates GO:0006915 ! apoptotic process

[Term]
id: GO:0043066
name: negative regulation of apoptotic process
namespace: biological_process
def: "Any process that stops apoptosis." [GOC:jl]
relationship: negatively_regulates GO:0006915 ! apoptotic process

[Term]
id: GO:0000005
name: obsolete ribosomal chaperone activity
namespace: molecular_function
is_obsolete: true

[Typedef]
id: part_of
name: part of
"""


def test_obo_input_keeps_exact_synonyms(tmp_path: Path) -> None:
    path = tmp_path / "go-basic.obo"
    path.write_text(GO_OBO)
    kb = GeneOntology(GOConfig(path=str(path)))
    (c,) = kb.link("apoptotic cell death")
    assert c.id == "GO:0006915" and c.aliases == ("apoptotic cell death", "apoptotic programmed cell death")
    assert kb.link("apoptosis") == []  # a NARROW synonym
    assert names(kb.siblings(c)) == ["pyroptosis"]
    assert kb.concept("GO:0006917") == c and len(kb) == 6
    assert names(kb.antonyms(kb.concept("GO:0043065"))) == ["negative regulation of apoptotic process"]
    assert kb.model_id.startswith("go-2022-07-01:is_a:")
    wide = GeneOntology(GOConfig(path=str(path), synonym_scopes=("EXACT", "NARROW", "RELATED")))
    assert wide.link("apoptosis")[0].id == "GO:0006915"

    bad = tmp_path / "bad.obo"
    bad.write_text(GO_OBO.replace('synonym: "PCD" RELATED []', "synonym: PCD RELATED []"))
    with pytest.raises(InputError, match=r"bad\.obo, line 17: malformed synonym"):
        GeneOntology(GOConfig(path=str(bad))).link("x")


# -- the real GO.db --------------------------------------------------------------------------------


@pytest.mark.slow
def test_real_go_apoptotic_process(real_go: GeneOntology) -> None:
    (c,) = real_go.link("apoptotic process")
    assert c.id == "GO:0006915" and c.types == ("biological_process",)
    assert "apoptotic cell death" in c.aliases
    assert real_go.link("Apoptotic processes") == [c]
    sibs = real_go.siblings(c)
    assert len(sibs) >= 5 and all(s.types == ("biological_process",) for s in sibs)
    assert {"pyroptosis", "autophagic cell death"} <= set(names(sibs))
    assert "programmed cell death" in names(real_go.parents(c))
    assert "negative regulation of apoptotic process" in names(
        real_go.antonyms(real_go.link("positive regulation of apoptotic process")[0])
    )
    assert real_go.link("nucleus")[0].types == ("cellular_component",)
    assert len(real_go) > 40_000 and real_go.model_id.startswith("go-")
