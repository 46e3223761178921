"""MeSH descriptors: a self-made desc2025 subset in NLM's XML layout (fixtures/mesh), and a real file when
``$CLAIMFORGE_MESH_XML`` points at one."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import pytest

from claimforge.io.rows import InputError
from claimforge.kb.base import Concept, KBNotAvailable
from claimforge.kb.mesh import MeSH, MeSHConfig, tree_parent
from claimforge.registry import registry

from .conftest import FIXTURES

DESC = FIXTURES / "mesh" / "desc2025_sample.xml"


@pytest.fixture(scope="module")
def mesh() -> MeSH:
    return MeSH(MeSHConfig(path=str(DESC)))


def names(concepts: list[Concept]) -> list[str]:
    return [c.name for c in concepts]


def test_records(mesh: MeSH) -> None:
    (aspirin,) = mesh.link("Aspirin")
    assert aspirin.id == "D001241" and aspirin.kb == "mesh"
    # the name is the record's own, not the pharmacological actions' names nested in the record
    assert aspirin.name == "Aspirin"
    # every term of every concept of the record, the permuted term left out
    assert aspirin.aliases == (
        "Acetylsalicylic Acid",
        "Acid, Acetylsalicylic",
        "2-(Acetyloxy)benzoic Acid",
        "Acylpyrin",
        "Easprin",
        "Aspirin, Buffered",
        "Buffered Aspirin",
    )
    assert aspirin.definition == "The prototypical analgesic used in the treatment of mild to moderate pain."
    assert aspirin.types == ("D",)
    assert mesh.tree_numbers["D001241"] == ("D02.241.223.100.380.800.075",)
    assert mesh.link("acetylsalicylic-acid") == [aspirin]
    assert mesh.link("seizure")[0].id == "D012640" and mesh.link("heart attacks")[0].id == "D009203"
    assert mesh.link("salicylic acid, acetyl") == []  # permuted
    assert mesh.link("diseases") == []  # virtual categories are not linked


def test_tree_hierarchy(mesh: MeSH) -> None:
    assert tree_parent("C10.228.140.490") == "C10.228.140" and tree_parent("C10") is None
    epilepsy = mesh.concept("D004827")
    assert names(mesh.parents(epilepsy)) == ["Brain Diseases"]
    # C10.597.742 and C23.888.592.742: both under Neurologic Manifestations (C10.597 and C23.888.592)
    seizures = mesh.concept("D012640")
    assert names(mesh.parents(seizures)) == ["Neurologic Manifestations"]
    # C23.888.592 has no ancestor in this file: it hangs under the virtual category
    assert names(mesh.parents(mesh.concept("D009461"))) == ["Diseases", "Nervous System Diseases"]
    assert mesh.concept("C").name == "Diseases" and mesh.concept("C").types == ("C",)
    assert names(mesh.children(mesh.concept("D003920"))) == ["Diabetes Mellitus, Type 1", "Diabetes Mellitus, Type 2"]
    mi = mesh.concept("D009203")  # C14.280.647.500 and C14.907.585.500: gaps up to Heart / Vascular Diseases
    assert names(mesh.parents(mi)) == ["Heart Diseases", "Vascular Diseases"]


def test_siblings(mesh: MeSH) -> None:
    aspirin = mesh.concept("D001241")
    assert names(mesh.siblings(aspirin)) == ["Sodium Salicylate", "Mesalamine"]
    assert names(mesh.siblings(mesh.link("hypertension")[0])) == [
        "Hypotension",
        "Myocardial Infarction",
        "Intracranial Vascular Disorders",
    ]
    # top-level descriptors of one category are siblings (under the virtual category); Neurologic
    # Manifestations (C10.597 and C23.888.592) is also a descendant of Nervous System Diseases: excluded
    assert names(mesh.siblings(mesh.concept("D009422"))) == [
        "Cardiovascular Diseases",
        "Endocrine System Diseases",
        "Nutritional and Metabolic Diseases",
    ]
    assert names(mesh.siblings(mesh.concept("D012640"))) == ["Somatosensory Disorders"]
    assert mesh.antonyms(aspirin) == []


def test_tree_type_level_and_model_id(mesh: MeSH) -> None:
    tree = MeSH(MeSHConfig(path=str(DESC), type_level="tree"))
    assert tree.concept("D003920").types == ("C18", "C19")
    assert mesh.concept("D003920").types == ("C",)
    assert mesh.model_id.startswith("mesh-2025:category:") and tree.model_id.startswith("mesh-2025:tree:")
    assert len(mesh) == 36 + 2  # descriptors + categories C and D


def test_gzip_and_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gz = tmp_path / "desc2025.xml.gz"
    with DESC.open("rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    monkeypatch.setenv("CLAIMFORGE_MESH_XML", str(gz))
    kb = registry.build("kb", "mesh")
    assert isinstance(kb, MeSH) and kb.link("aspirin")[0].id == "D001241"


def test_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAIMFORGE_MESH_XML", raising=False)
    with pytest.raises(KBNotAvailable, match="CLAIMFORGE_MESH_XML"):
        MeSH(MeSHConfig())
    with pytest.raises(
        InputError, match=r"desc2025_malformed\.xml, line 31: malformed XML at column \d+: mismatched tag"
    ):
        MeSH(MeSHConfig(path=str(FIXTURES / "mesh" / "desc2025_malformed.xml"))).link("x")
    text = DESC.read_text()
    no_ui = tmp_path / "desc2025.xml"
    no_ui.write_text(text.replace("<DescriptorUI>D006973</DescriptorUI>", "", 1))
    line = text[: text.index("<DescriptorUI>D006973")].rsplit("<DescriptorRecord ", 1)[0].count("\n") + 1
    with pytest.raises(InputError, match=rf"desc2025\.xml, line {line}: DescriptorRecord without DescriptorUI"):
        MeSH(MeSHConfig(path=str(no_ui))).link("x")
    other = tmp_path / "supp2025.xml"
    other.write_text('<?xml version="1.0"?>\n<SupplementalRecordSet></SupplementalRecordSet>\n')
    with pytest.raises(InputError, match="expected <DescriptorRecordSet>"):
        MeSH(MeSHConfig(path=str(other))).link("x")


@pytest.mark.slow
def test_real_mesh() -> None:
    path = os.environ.get("CLAIMFORGE_MESH_XML")
    if not path or not Path(path).is_file():
        pytest.skip("no MeSH descriptor file: set CLAIMFORGE_MESH_XML to desc20XX.xml (from nlm.nih.gov)")
    kb = MeSH(MeSHConfig(path=path))
    aspirin = kb.link("aspirin")[0]
    assert aspirin.id == "D001241" and "Acetylsalicylic Acid" in aspirin.aliases
    assert kb.siblings(aspirin)
