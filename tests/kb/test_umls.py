"""UMLS from RRF files: self-made MRCONSO/MRSTY/MRREL rows in the real layout (fixtures/umls), and a real
release when ``$CLAIMFORGE_UMLS_DIR`` points at one."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import pytest

from claimforge.io.rows import InputError
from claimforge.kb.base import Concept, KBNotAvailable, UnknownConcept
from claimforge.kb.umls import UMLS, UMLSConfig, iter_rrf
from claimforge.registry import registry

from .conftest import FIXTURES

UMLS_DIR = FIXTURES / "umls"


@pytest.fixture(scope="module")
def umls() -> UMLS:
    return UMLS(UMLSConfig(path=str(UMLS_DIR)))


def names(concepts: list[Concept]) -> list[str]:
    return [c.name for c in concepts]


def test_preferred_name_aliases_filters(umls: UMLS) -> None:
    (aspirin,) = umls.link("aspirin")
    assert aspirin.id == "C0004057" and aspirin.name == "Aspirin" and aspirin.kb == "umls"
    # English only, one alias per normalised form (RXNORM's "aspirin" = "Aspirin"), the obsolete
    # SNOMED CT string (SUPPRESS=O) skipped
    assert aspirin.aliases == ("Acetylsalicylic Acid", "2-(Acetyloxy)benzoic Acid")
    assert aspirin.types == ("Organic Chemical", "Pharmacologic Substance")
    assert umls.link("aspirina") == [] and umls.link("acetylsalicylic acid-containing product") == []
    # the preferred name is the TS=P, STT=PF, ISPREF=Y row, not the first row
    assert umls.concept("C0020538").name == "Hypertensive disease"
    assert umls.concept("C0012634").name == "Disease"


def test_link_ranks_names_before_aliases(umls: UMLS) -> None:
    # "Hypertension" is NCI's preferred name of C1963138 and an MSH entry term of C0020538
    assert [c.id for c in umls.link("hypertension")] == ["C1963138", "C0020538"]
    assert [c.id for c in umls.link("high blood pressure")] == ["C0020538", "C0497247"]
    assert umls.link("nsaids")[0].id == "C0003211"
    assert umls.link("seizure disorders")[0].id == "C0014544"
    assert umls.link("type-1 diabetes mellitus")[0].id == "C0011854"


def test_hierarchy_and_siblings(umls: UMLS) -> None:
    aspirin = umls.concept("C0004057")
    assert names(umls.parents(aspirin)) == ["Analgesics", "Anti-Inflammatory Agents, Non-Steroidal", "Salicylates"]
    # NSAIDs is a child of Analgesics but Aspirin's parent: excluded
    assert names(umls.siblings(aspirin)) == ["Acetaminophen", "Ibuprofen", "Naproxen", "Sodium Salicylate"]
    type1 = umls.link("IDDM")[0]
    # LADA is a child of Diabetes Mellitus and of Type 1: a descendant, excluded; the experimental model
    # is another semantic type
    assert names(umls.siblings(type1)) == ["Diabetes Mellitus, Non-Insulin-Dependent", "Gestational Diabetes"]
    assert "Diabetes Mellitus, Experimental" in names(umls.siblings(type1, same_type=False))
    assert names(umls.siblings(type1, limit=1)) == ["Diabetes Mellitus, Non-Insulin-Dependent"]
    assert names(umls.children(type1)) == ["Latent autoimmune diabetes mellitus in adult"]
    # C1963138 is named "Hypertension", an alias of C0020538: excluded from each other's siblings
    nci = umls.concept("C1963138")
    assert names(umls.siblings(nci, same_type=False)) == ["Hypotension", "Increased blood pressure"]
    assert names(umls.siblings(nci)) == ["Increased blood pressure"]  # both Findings
    # the suppressed PAR row (Hypotension under Heart Diseases) is not a hierarchy edge
    assert names(umls.parents(umls.concept("C0020649"))) == ["Vascular Diseases"]
    assert umls.antonyms(aspirin) == []


def test_options(umls: UMLS) -> None:
    rb = UMLS(UMLSConfig(path=str(UMLS_DIR), relations=("PAR", "CHD", "RB", "RN")))
    assert names(rb.parents(rb.concept("C0014544"))) == ["Disease", "Nervous system disorder"]
    assert names(umls.parents(umls.concept("C0014544"))) == ["Nervous system disorder"]
    msh = UMLS(UMLSConfig(path=str(UMLS_DIR), sources=("MSH",)))
    assert msh.link("hypertension")[0].id == "C0020538" and len(msh.link("hypertension")) == 1
    assert msh.concept("C0020538").name == "Hypertension"  # MTH's preferred row is filtered out
    with pytest.raises(UnknownConcept):
        msh.concept("C0342302")  # LADA has only SNOMED CT names
    spanish = UMLS(UMLSConfig(path=str(UMLS_DIR), languages=("SPA",)))
    assert [c.id for c in spanish.link("aspirina")] == ["C0004057"] and len(spanish) == 4
    suppressed = UMLS(UMLSConfig(path=str(UMLS_DIR), skip_suppressed=False))
    assert suppressed.link("acetylsalicylic acid-containing product")[0].id == "C0004057"
    assert "Heart Diseases" in names(suppressed.parents(suppressed.concept("C0020649")))
    with pytest.raises(ValueError, match="unknown relations"):
        UMLS(UMLSConfig(path=str(UMLS_DIR), relations=("ISA",)))


def test_model_id_counts_and_gzip(umls: UMLS, tmp_path: Path) -> None:
    assert umls.model_id.startswith("umls-2025AA:ENG:all:nosuppressed:PAR+CHD:")
    assert len(umls) == 36 and umls.stats["mrconso_rows_in_languages"] == 93
    meta = tmp_path / "2025AA" / "META"
    meta.mkdir(parents=True)
    for name in ("MRCONSO.RRF", "MRSTY.RRF", "MRREL.RRF"):
        with (UMLS_DIR / name).open("rb") as src, gzip.open(meta / f"{name}.gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
    kb = UMLS(UMLSConfig(path=str(tmp_path / "2025AA")))  # the release directory: META/ is found
    assert kb.link("aspirin") == umls.link("aspirin") and kb.siblings(kb.concept("C0004057"))


def test_registry_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMFORGE_UMLS_DIR", str(UMLS_DIR))
    kb = registry.build("kb", {"name": "umls", "sources": ["MSH"]})
    assert isinstance(kb, UMLS) and kb.config.sources == ("MSH",) and kb.link("heart attack")


def test_malformed_lines_name_file_and_line(tmp_path: Path) -> None:
    bad = FIXTURES / "umls_malformed"
    with pytest.raises(
        InputError, match=r"umls_malformed/MRCONSO\.RRF, line 4: expected 18 '\|'-terminated fields, got 17"
    ):
        UMLS(UMLSConfig(path=str(bad))).link("aspirin")
    d = tmp_path / "meta"
    shutil.copytree(UMLS_DIR, d)
    rows = (d / "MRREL.RRF").read_text().splitlines()
    rows[9] = rows[9].rstrip("|")  # the trailing '|' missing
    (d / "MRREL.RRF").write_text("\n".join(rows) + "\n")
    with pytest.raises(InputError, match=r"MRREL\.RRF, line 10: expected 16 '\|'-terminated fields"):
        UMLS(UMLSConfig(path=str(d))).link("aspirin")
    (d / "MRSTY.RRF").write_bytes(b"C0000970|T109|A1.4.1.2.1|Organic Chemical|AT1|256|\n|T121|A1|X|AT2||\n")
    with pytest.raises(InputError, match=r"MRSTY\.RRF, line 2: empty CUI"):
        list(iter_rrf(d / "MRSTY.RRF", 6))
    (d / "MRSTY.RRF").write_bytes(b"C0000970|T109|A1.4.1.2.1|Organic Chemical|AT1|256|\nC0000970|T1\xff|x|y|z||\n")
    with pytest.raises(InputError, match=r"MRSTY\.RRF, line 2: not UTF-8"):
        list(iter_rrf(d / "MRSTY.RRF", 6))


def test_missing_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAIMFORGE_UMLS_DIR", raising=False)
    with pytest.raises(KBNotAvailable, match="CLAIMFORGE_UMLS_DIR"):
        UMLS(UMLSConfig())
    (tmp_path / "MRCONSO.RRF").write_text("")
    with pytest.raises(KBNotAvailable, match="MRSTY.RRF, MRREL.RRF not found"):
        UMLS(UMLSConfig(path=str(tmp_path)))


@pytest.mark.slow
def test_real_umls() -> None:
    path = os.environ.get("CLAIMFORGE_UMLS_DIR")
    if not path or not Path(path).is_dir():
        pytest.skip("no UMLS release: set CLAIMFORGE_UMLS_DIR to its META directory (UMLS needs a licence)")
    kb = UMLS(UMLSConfig(path=path, sources=("MSH",)))
    aspirin = kb.link("aspirin")[0]
    assert aspirin.id == "C0004057" and "Pharmacologic Substance" in aspirin.types
    assert kb.siblings(aspirin)
