"""training/parser/treebanks.py: CRAFT's ClearNLP dependencies mapped to UD v2 on hand-made trees, Atis made to
look like real questions, and CoNLL-U errors naming the file and line."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training" / "parser"))
import treebanks as tb  # noqa: E402


def _sentence(tmp_path: Path, rows: list[str]) -> tb.Sentence:
    """Rows "form lemma upos xpos head deprel" (1-based heads) -> one sentence read through read_conllu."""
    lines = []
    for i, row in enumerate(rows, 1):
        form, lemma, upos, xpos, head, dep = row.split()
        lines.append("\t".join([str(i), form, lemma, upos, xpos, "_", head, dep, "_", "_"]))
    path = tmp_path / "s.conllu"
    path.write_text("\n".join(lines) + "\n\n")
    [s] = list(tb.read_conllu(path))
    return s


def _ud(s: tb.Sentence) -> list[tuple[str, str, str, str]]:
    """(form, head form or ROOT, deprel, upos) of each token after mapping."""
    out = tb.craft_to_ud(s)
    return [(t.form, out.tok(t.head).form if t.head else "ROOT", t.deprel, t.upos) for t in out.tokens]


def test_prepositional_phrase_object_heads_and_preposition_is_case(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "Analysis analysis NOUN NN 0 root",
            "of of ADP IN 1 prep",
            "the the DET DT 4 det",
            "roles role NOUN NNS 2 pobj",
        ],
    )
    assert _ud(s) == [
        ("Analysis", "ROOT", "root", "NOUN"),
        ("of", "roles", "case", "ADP"),
        ("the", "roles", "det", "DET"),
        ("roles", "Analysis", "nmod", "NOUN"),
    ]


def test_passive_with_agent_and_oblique(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "Members member NOUN NNS 3 nsubjpass",
            "are be VERB VBP 3 auxpass",
            "expressed express VERB VBN 0 root",
            "by by ADP IN 3 agent",
            "cells cell NOUN NNS 4 pobj",
            "throughout throughout ADP IN 3 prep",
            "development development NOUN NN 6 pobj",
            ". . PUNCT . 3 punct",
        ],
    )
    assert _ud(s) == [
        ("Members", "expressed", "nsubj:pass", "NOUN"),
        ("are", "expressed", "aux:pass", "AUX"),
        ("expressed", "ROOT", "root", "VERB"),
        ("by", "cells", "case", "ADP"),
        ("cells", "expressed", "obl:agent", "NOUN"),
        ("throughout", "development", "case", "ADP"),
        ("development", "expressed", "obl", "NOUN"),
        (".", "expressed", "punct", "PUNCT"),
    ]


def test_copula_hands_its_place_to_the_predicate(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "BMP2 bmp0 NOUN NN 2 nsubj",
            "is be VERB VBZ 0 root",
            "necessary necessary ADJ JJ 2 acomp",
            "for for ADP IN 3 prep",
            "condensation condensation NOUN NN 4 pobj",
            ". . PUNCT . 2 punct",
        ],
    )
    assert _ud(s) == [
        ("BMP2", "necessary", "nsubj", "NOUN"),
        ("is", "necessary", "cop", "AUX"),
        ("necessary", "ROOT", "root", "ADJ"),
        ("for", "condensation", "case", "ADP"),
        ("condensation", "necessary", "obl", "NOUN"),
        (".", "necessary", "punct", "PUNCT"),
    ]


def test_prepositional_predicate_and_existential_there(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "Smad4 smad0 NOUN NN 2 nsubj",
            "is be VERB VBZ 0 root",
            "in in ADP IN 2 prep",
            "the the DET DT 5 det",
            "nucleus nucleus NOUN NN 3 pobj",
        ],
    )
    assert _ud(s) == [
        ("Smad4", "nucleus", "nsubj", "NOUN"),
        ("is", "nucleus", "cop", "AUX"),
        ("in", "nucleus", "case", "ADP"),
        ("the", "nucleus", "det", "DET"),
        ("nucleus", "ROOT", "root", "NOUN"),
    ]
    s = _sentence(
        tmp_path,
        ["There there PRON EX 2 expl", "is be VERB VBZ 0 root", "a a DET DT 4 det", "mutation mutation NOUN NN 2 attr"],
    )
    assert _ud(s) == [
        ("There", "is", "expl", "PRON"),
        ("is", "ROOT", "root", "VERB"),
        ("a", "mutation", "det", "DET"),
        ("mutation", "is", "nsubj", "NOUN"),
    ]


def test_coordination_is_flattened_onto_the_first_conjunct(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "BMP2 bmp0 NOUN NN 0 root",
            ", , PUNCT , 1 punct",
            "BMP4 bmp0 NOUN NN 1 conj",
            ", , PUNCT , 3 punct",
            "and and CCONJ CC 3 cc",
            "BMP7 bmp0 NOUN NN 3 conj",
        ],
    )
    assert _ud(s) == [
        ("BMP2", "ROOT", "root", "NOUN"),
        (",", "BMP4", "punct", "PUNCT"),
        ("BMP4", "BMP2", "conj", "NOUN"),
        (",", "BMP7", "punct", "PUNCT"),
        ("and", "BMP7", "cc", "CCONJ"),
        ("BMP7", "BMP2", "conj", "NOUN"),
    ]


def test_nested_and_clausal_prepositional_objects(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "Proteins protein NOUN NNS 2 nsubj",
            "move move VERB VBP 0 root",
            "from from ADP IN 2 prep",
            "within within ADP IN 3 pcomp",
            "the the DET DT 6 det",
            "cell cell NOUN NN 4 pobj",
            "by by ADP IN 2 prep",
            "binding bind VERB VBG 7 pcomp",
            "DNA dna NOUN NN 8 dobj",
        ],
    )
    assert _ud(s) == [
        ("Proteins", "move", "nsubj", "NOUN"),
        ("move", "ROOT", "root", "VERB"),
        ("from", "cell", "case", "ADP"),
        ("within", "cell", "case", "ADP"),
        ("the", "cell", "det", "DET"),
        ("cell", "move", "obl", "NOUN"),
        ("by", "binding", "mark", "ADP"),
        ("binding", "move", "advcl", "VERB"),
        ("DNA", "binding", "obj", "NOUN"),
    ]


def test_labels_infinitival_to_and_lemmas_dropped(tmp_path: Path) -> None:
    s = _sentence(
        tmp_path,
        [
            "To to PART TO 2 aux",
            "circumvent circumvent VERB VB 5 advcl",
            "this this DET DT 2 dobj",
            "we we PRON PRP 5 nsubj",
            "made make VERB VBD 0 root",
            "knockout knockout NOUN NN 7 nmod",
            "mice mouse NOUN NNS 5 dobj",
            "not not PART RB 9 neg",
            "lacking lack VERB VBG 7 acl",
        ],
    )
    out = tb.craft_to_ud(s)
    assert [t.deprel for t in out.tokens] == [
        "mark",
        "advcl",
        "obj",
        "nsubj",
        "root",
        "compound",
        "obj",
        "advmod",
        "acl",
    ]
    assert all(t.lemma == "" for t in out.tokens)  # CRAFT's normalised lemmas ("bmp0") teach nothing


def test_atis_questions_get_case_punctuation_and_ptb_tags(tmp_path: Path) -> None:
    rows = [
        "what what PRON _ 3 nsubj",
        "flights flight NOUN _ 1 nmod",
        "leave leave VERB _ 0 root",
        "from from ADP _ 5 case",
        "pittsburgh Pittsburgh PROPN _ 3 obl",
    ]
    lines = []
    feats = ["PronType=Int", "Number=Plur", "Mood=Ind|Tense=Pres|VerbForm=Fin", "_", "Number=Sing"]
    for i, (row, f) in enumerate(zip(rows, feats, strict=True), 1):
        form, lemma, upos, xpos, head, dep = row.split()
        lines.append("\t".join([str(i), form, lemma, upos, xpos, f, head, dep, "_", "_"]))
    path = tmp_path / "atis.conllu"
    path.write_text("\n".join(lines) + "\n\n")
    [s] = list(tb.read_conllu(path))
    out = tb.atis_realistic(s, random.Random(0), share=1.0)
    assert [t.form for t in out.tokens] == ["What", "flights", "leave", "from", "Pittsburgh", "?"]
    assert [t.xpos for t in out.tokens] == ["WP", "NNS", "VBP", "IN", "NNP", "."]
    assert out.tokens[-1].head == 3 and out.tokens[-2].misc == "SpaceAfter=No"
    kept = tb.atis_realistic(s, random.Random(0), share=0.0)
    assert [t.form for t in kept.tokens] == ["what", "flights", "leave", "from", "pittsburgh"]


def test_bad_conllu_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.conllu"
    path.write_text("1\tA\ta\tDET\tDT\t_\t0\troot\t_\t_\n2\tb\tb\tNOUN\n\n")
    with pytest.raises(tb.ConlluError, match=r"bad\.conllu:2"):
        list(tb.read_conllu(path))


def test_genia_ud_v1_to_v2(tmp_path: Path) -> None:
    path = tmp_path / "genia.conllu"
    rows = [
        "1\tPlatelets\tplatelet\tNNS\tNNS\t_\t2\tnsubj\t_\t_",
        "2\tactivate\tactivate\tVBP\tVBP\t_\t0\troot\t_\t_",
        "3\tcells\tcell\tNNS\tNNS\t_\t2\tdobj\t_\t_",
        "4\tin\tin\tIN\tIN\t_\t5\tcase\t_\t_",
        "5\tvitro\tvitro\tFW\tFW\t_\t2\tnmod\t_\t_",
        "6\tand\tand\tCC\tCC\t_\t2\tcc\t_\t_",
        "7\tdo\tdo\tVBP\tVBP\t_\t9\taux\t_\t_",
        "8\tnot\tnot\tRB\tRB\t_\t9\tneg\t_\t_",
        "9\tdie\tdie\tVB\tVB\t_\t2\tconj\t_\t_",
    ]
    path.write_text("\n".join(rows) + "\n\n")
    [s] = list(tb.read_conllu(path))
    out = tb.genia_to_ud(s)
    assert [(t.upos, t.deprel, t.head) for t in out.tokens] == [
        ("NOUN", "nsubj", 2),
        ("VERB", "root", 0),
        ("NOUN", "obj", 2),
        ("ADP", "case", 5),
        ("X", "obl", 2),
        ("CCONJ", "cc", 9),
        ("AUX", "aux", 9),
        ("ADV", "advmod", 9),
        ("VERB", "conj", 2),
    ]
