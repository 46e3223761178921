"""The Human Phenotype Ontology: a self-made hp.obo subset, and the real ontology inside hpo3."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from claimforge.io.rows import InputError
from claimforge.kb.base import Concept, KBNotAvailable
from claimforge.kb.hpo import HPOConfig, HumanPhenotypeOntology
from claimforge.registry import registry

from .conftest import FIXTURES

HP_OBO = FIXTURES / "hpo" / "hp_sample.obo"
NERVOUS = "Abnormality of the nervous system"
CARDIO = "Abnormality of the cardiovascular system"


@pytest.fixture(scope="module")
def hpo() -> HumanPhenotypeOntology:
    return HumanPhenotypeOntology(HPOConfig(path=str(HP_OBO)))


def names(concepts: list[Concept]) -> list[str]:
    return [c.name for c in concepts]


def test_link_aliases_and_plurals(hpo: HumanPhenotypeOntology) -> None:
    (seizure,) = hpo.link("seizure")
    assert seizure.id == "HP:0001250" and seizure.kb == "hpo"
    # EXACT synonyms (plural forms included); RELATED "Epilepsy" and the obsolete_synonym "Fits" are not aliases
    assert seizure.aliases == ("Epileptic seizure", "Seizures")
    assert seizure.definition.startswith("A seizure is an intermittent abnormality")
    assert hpo.link("SEIZURES") == hpo.link("epileptic seizures") == [seizure]  # alias; alias + plural
    assert hpo.link("epilepsy") == [] and hpo.link("fits") == []
    assert hpo.link("high blood pressure")[0].id == "HP:0000822"  # a layperson synonym
    assert hpo.concept("HP:0001275") == seizure  # alt_id
    assert hpo.link("obsolete seizures") == []  # obsolete terms are left out


def test_types_are_top_level_branches(hpo: HumanPhenotypeOntology) -> None:
    assert hpo.link("seizure")[0].types == (NERVOUS,)
    assert hpo.link("stroke")[0].types == (NERVOUS, CARDIO)  # under both branches
    assert hpo.concept("HP:0000707").types == ("Phenotypic abnormality",)  # a branch itself
    assert hpo.concept("HP:0000118").types == ("Phenotypic abnormality",)
    assert hpo.concept("HP:0000006").types == ("Mode of inheritance",)  # other branches: the root's child
    assert hpo.concept("HP:0003577").types == ("Clinical modifier",)
    assert hpo.concept("HP:0000001").types == ()


def test_siblings(hpo: HumanPhenotypeOntology) -> None:
    seizure = hpo.link("seizure")[0]
    assert names(hpo.parents(seizure)) == ["Abnormal nervous system physiology"]
    assert names(hpo.siblings(seizure)) == ["Stroke", "Encephalopathy", "Headache"]  # by id
    hypertension = hpo.link("hypertension")[0]
    assert names(hpo.siblings(hypertension)) == ["Stroke", "Hypotension"]
    assert names(hpo.siblings(hpo.link("stroke")[0])) == [
        "Hypertension",
        "Hypotension",
        "Seizure",
        "Encephalopathy",
        "Headache",
    ]
    # organ-system branches are siblings of one type; inheritance modes too
    assert names(hpo.siblings(hpo.concept("HP:0000707"))) == [CARDIO]
    assert names(hpo.siblings(hpo.link("autosomal dominant")[0])) == ["Autosomal recessive inheritance"]
    assert hpo.antonyms(seizure) == []


def test_scopes_option_and_model_id(hpo: HumanPhenotypeOntology) -> None:
    assert hpo.model_id.startswith("hpo-2025-01-16:obo:") and hpo.source == "obo"
    wide = HumanPhenotypeOntology(HPOConfig(path=str(HP_OBO), synonym_scopes=("EXACT", "RELATED")))
    assert wide.link("epilepsy")[0].id == "HP:0001250"
    with pytest.raises(ValueError, match="unknown synonym scopes"):
        HumanPhenotypeOntology(HPOConfig(path=str(HP_OBO), synonym_scopes=("SYNONYM",)))


def test_environment_and_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMFORGE_HPO_OBO", str(HP_OBO))
    kb = registry.build("kb", "hpo")
    assert kb.source == "obo" and kb.link("headaches")[0].id == "HP:0002315"


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(KBNotAvailable, match="hp.obo"):
        HumanPhenotypeOntology(HPOConfig(path=str(tmp_path / "hp.obo")))
    bad = tmp_path / "hp.obo"
    lines = HP_OBO.read_text().splitlines()
    n = lines.index('synonym: "Cephalgia" EXACT []')
    lines[n] = "synonym Cephalgia"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=rf"hp\.obo, line {n + 1}: expected 'tag: value'"):
        HumanPhenotypeOntology(HPOConfig(path=str(bad))).link("x")


# -- the real HPO (hpo3) ---------------------------------------------------------------------------


@pytest.mark.slow
def test_real_hpo3_seizure(real_hpo: HumanPhenotypeOntology) -> None:
    (seizure,) = real_hpo.link("Seizures")
    assert seizure.id == "HP:0001250" and seizure.name == "Seizure"
    assert seizure.types == (NERVOUS,)
    assert seizure.aliases == ()  # hpo3 ships no synonyms: aliases need hp.obo
    sibs = real_hpo.siblings(seizure)
    assert len(sibs) >= 10 and all(NERVOUS in s.types for s in sibs)
    assert {"Encephalopathy", "Headache"} <= set(names(sibs))
    assert names(real_hpo.parents(seizure)) == ["Abnormal nervous system physiology"]
    assert real_hpo.concept("HP:0000006").types == ("Mode of inheritance",)
    assert real_hpo.model_id.startswith("hpo-") and ":hpo3-" in real_hpo.model_id


@pytest.mark.slow
def test_real_hp_obo_aliases() -> None:
    """With a real hp.obo (``$CLAIMFORGE_HPO_OBO``), "seizure" has its synonyms as aliases."""
    path = os.environ.get("CLAIMFORGE_HPO_OBO")
    if not path or not Path(path).is_file():
        pytest.skip("no real hp.obo: set CLAIMFORGE_HPO_OBO (see docs/knowledge_bases.md)")
    kb = HumanPhenotypeOntology(HPOConfig(path=path))
    (seizure,) = kb.link("epileptic seizure")
    assert seizure.id == "HP:0001250" and "Epileptic seizure" in seizure.aliases
    assert seizure.types == (NERVOUS,) and len(kb.siblings(seizure)) >= 10
