"""Paper ingestion: the JATS, GROBID TEI, S2ORC and SciREX parsers, section typing and nesting, the paper readers
(folders, tar archives, format detection, rejects) and ``claimforge papers convert``.

The fixtures in ``fixtures/papers`` are self-made (a few KB each); the real-data tests read small slices of
``../shared/data/papers`` and skip when it is absent.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tarfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimforge.cli import _parse_input, app
from claimforge.io.papers import PaperError, jats, s2orc, scirex, tei
from claimforge.io.papers.convert import convert_papers, default_rejects_path
from claimforge.io.papers.reader import detect_format, is_skipped, paper_id_of
from claimforge.io.papers.sections import RawSection, build_sections, section_type, split_numbering
from claimforge.io.papers.text import clean_text, detokenize
from claimforge.io.rows import InputError
from claimforge.records import Paper, Reject
from claimforge.registry import registry

FIXTURES = Path(__file__).parent / "fixtures" / "papers"
SHARED = (
    Path(os.environ.get("CLAIMFORGE_SHARED_DATA", Path(__file__).resolve().parents[3] / "shared" / "data")) / "papers"
)
runner = CliRunner()


def _read(name: str, path: Path, **config: object) -> list[Paper | Reject]:
    return list(registry.build("reader", {"name": name, "path": str(path), **config}).read())


def _outline(paper: Paper) -> list[tuple[str, str]]:
    return [(s.heading, s.type) for s in paper.sections]


# --------------------------------------------------------------------------------------------------
# Formats on the self-made samples


def test_jats_article() -> None:
    p = jats.parse((FIXTURES / "growth.nxml").read_bytes(), "growth", "growth.nxml")
    assert p.title == "Zinc limits growth of yeast cells"
    # the structured abstract's paragraphs; the author summary is left out
    assert p.abstract == (
        ("Zinc is an essential trace metal.", "Its excess is toxic."),
        ("High zinc slowed growth by 40%.",),
    )
    assert _outline(p) == [
        ("", "other"),  # text directly under <body>
        ("Introduction", "introduction"),
        ("Materials and Methods / Ethics statement", "methods"),
        ("Materials and Methods / Strains and media", "methods"),
        ("Results", "results"),
        ("Results / Growth curves", "results"),
        ("Results", "results"),  # an untitled subsection takes its parent's heading and type
        ("Discussion", "discussion"),
        ("Conclusions", "conclusion"),
    ]
    intro, methods = p.sections[1], p.sections[3]
    # callouts, figures and formulas are not in the text; list items are paragraphs
    assert intro.sentences == ("Zinc homeostasis is tightly regulated in yeast.", "Too much zinc harms cells.")
    assert methods.paragraphs == (
        ("Cells were grown in YPD medium at 30 °C.", "The medium held mM zinc."),
        ("Strain A was wild type.",),
        ("Strain B lacked the ZRT1 gene.",),
    )
    assert p.sections[5].sentences == ("High zinc reduced the growth rate by 40%.",)
    assert p.captions == ("Fig 1. Growth curves. Optical density over 24 hours.", "Table 1. Growth rates per strain.")
    assert p.references == (
        "Smith J, Doe A. Zinc in yeast. Yeast. 2010;27:1–10.",
        "Lee K, et al. (2015). Metal toxicity. Cell Biol J 3:22-29. doi:10.1000/cbj.22",
    )
    assert p.meta == {
        "pmid": "12345",
        "pmcid": "PMC67890",
        "doi": "10.1000/jtb.0001",
        "year": "2020",
        "journal": "Journal of Test Biology",
        "article_type": "research-article",
    }
    assert p.format == "jats" and p.ref.path == "growth.nxml" and p.ref.item_id == "growth"
    assert "We thank the reviewers." not in p.document().text  # back matter is not body text


def test_jats_document_keeps_the_corpus_interface() -> None:
    data = (FIXTURES / "growth.nxml").read_bytes()
    doc = jats.jats_document(data, "g", "growth.nxml", parts=("abstract",))
    assert doc.title == "Zinc limits growth of yeast cells" and doc.sentences[0] == "Zinc is an essential trace metal."
    full = jats.jats_document(data, "g", "growth.nxml")
    assert "Zinc limits yeast growth." in full.sentences and len(full.sentences) > len(doc.sentences)
    with pytest.raises(InputError, match=r"bad\.xml.*not well-formed XML at line 1"):
        jats.jats_document(b"<article><front>", "b", "bad.xml")


def test_tei_flat_divs_nest_by_numbering() -> None:
    p = tei.parse((FIXTURES / "retrieval.tei.xml").read_bytes(), "retrieval", "retrieval.tei.xml")
    assert p.title == "Sparse Retrieval for Scientific Claims"
    assert p.abstract == (("We study sparse retrieval for claims.", "It beats dense retrieval on two benchmarks."),)
    assert _outline(p) == [
        ("Introduction", "introduction"),
        ("Model / Overview", "methods"),  # "Model 2.1 Overview" numbered 2: GROBID glued two headings
        ("Model / Query Expansion", "methods"),  # 2.2 is under 2
        ("Model / Query Expansion / Implementation Notes", "methods"),  # unnumbered: under the section before it
        ("Experiments", "results"),
        ("Experiments / Datasets", "methods"),
        ("Experiments / Main Findings", "results"),
        ("Conclusion", "conclusion"),
    ]
    assert p.sections[0].sentences == ("Claims need evidence.", "Retrieval finds it.")
    assert p.sections[2].sentences == ("Queries are expanded with synonyms.",)  # formula and its callout gone
    assert p.captions == ("Figure 1: Recall at k for both systems.", "Table 1: Benchmark sizes.")
    assert p.references == (
        "David Wadden et al. 2020. Fact or fiction: verifying scientific claims. In EMNLP.",
        "Robertson SE (1994). Okapi at TREC-3. TREC 3:109-126.",
    )
    assert p.meta["doi"] == "10.1000/src.1" and p.meta["grobid_version"] == "0.7.0"
    assert "Thanks to the annotators." not in p.document().text


@pytest.mark.parametrize(
    ("name", "schema", "title", "outline"),
    [
        (
            "s2orc_pdf_parse.json",
            "2020-07-05",
            "",
            [
                ("", "other"),
                ("Materials and methods / Animals", "methods"),  # a heading with no text opens a group
                ("Materials and methods / Diets", "methods"),
                ("Results / Body weight", "results"),
                ("Discussion", "discussion"),
            ],
        ),
        (
            "tables.json",
            "doc2json",
            "Claims from Tables",
            [
                ("Introduction", "introduction"),
                ("Method / Data", "methods"),
                ("Method / Model", "methods"),
                ("Results", "results"),
                ("Conclusion", "conclusion"),
                ("Proofs", "other"),  # "A" after arabic numbering: an appendix
            ],
        ),
        (
            "s2orc_2019.json",
            "2019-09-28",
            "Sleep and Memory",
            [("Introduction", "introduction"), ("Methods", "methods"), ("Results", "results")],
        ),
    ],
)
def test_s2orc_schema_versions(name: str, schema: str, title: str, outline: list[tuple[str, str]]) -> None:
    p = s2orc.parse((FIXTURES / name).read_bytes(), "x", name)
    assert p.meta["s2orc_schema"] == schema and p.title == title and _outline(p) == outline
    assert p.abstract  # a list of paragraphs, or the metadata's string


def test_s2orc_spans_captions_and_references() -> None:
    p = s2orc.parse((FIXTURES / "s2orc_pdf_parse.json").read_bytes(), "x", "s.json")
    weight = p.sections[3]
    assert weight.paragraphs == (
        ("Mice fed zinc gained weight.", "This was expected."),
        ("The effect lasted four weeks.",),
    )
    assert p.sections[2].sentences == ("Diets held 30 or 300 mg zinc per kg.",)  # "(Table 1)" cut by its offsets
    assert p.captions == ("Diet composition.",)
    assert p.references == ("Smith JQ (2010). Zinc and growth. J Nutr.",)
    doc2json = s2orc.parse((FIXTURES / "tables.json").read_bytes(), "x", "t.json")
    assert doc2json.references == ("Wenhu Chen et al. 2020. TabFact. In ICLR.",)  # raw_text when kept
    assert "We thank the reviewers." not in doc2json.document().text  # back_matter left out
    # the 2019 release: the LaTeX parse is preferred to GROBID's
    assert "GROBID text." not in s2orc.parse((FIXTURES / "s2orc_2019.json").read_bytes(), "x", "y").document().text


def test_scirex_document() -> None:
    p = scirex.parse((FIXTURES / "fasttext.json").read_bytes(), "fasttext", "fasttext.json")
    assert p.title == "Fast-Text Classifiers" and p.abstract == (("We present a fast classifier.",),)
    assert _outline(p) == [
        ("Introduction", "introduction"),
        ("Model", "methods"),
        ("Model / Training", "methods"),
        ("Experiments / Results", "results"),  # a run-in "paragraph :" heading
        ("Conclusion", "conclusion"),
        ("Error Analysis", "other"),  # an appendix
    ]
    assert p.sections[0].sentences == ("Text classification matters.",)  # "[ reference ]" placeholder gone
    assert p.sections[2].sentences == ("We train with SGD (lr 0.1).",)
    assert p.meta == {"doc_id": "fasttext", "entity_mentions": 1, "relations": 0}


@pytest.mark.parametrize(
    ("parser", "data", "reason"),
    [
        (jats.parse, b"<?xml version='1.0'?><article><front><article-meta>", "not_well_formed"),
        (jats.parse, b"<TEI><text/></TEI>", "not_jats"),
        (jats.parse, b"<pmc-articleset><article/><article/></pmc-articleset>", "multiple_articles"),
        (tei.parse, b"<article/>", "not_tei"),
        (tei.parse, b"", "not_well_formed"),
        (s2orc.parse, b'{"title": "x", "abstract": "y"}', "not_s2orc"),
        (s2orc.parse, b'{"body_text": "not a list"}', "not_s2orc"),
        (s2orc.parse, b'{"body_text": [', "not_well_formed"),
        (s2orc.parse, b"\xff\xfe", "not_well_formed"),
        (scirex.parse, b'{"words": ["a"], "sections": [[0, 5]], "sentences": []}', "not_scirex"),
        (scirex.parse, b"[1, 2]", "not_scirex"),
    ],
)
def test_broken_input_is_a_paper_error(parser, data: bytes, reason: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PaperError) as e:
        parser(data, "bad", "bad.file")
    assert e.value.reason == reason and "bad.file" in e.value.detail


# --------------------------------------------------------------------------------------------------
# Section typing and nesting


@pytest.mark.parametrize(
    ("heading", "hint", "parent", "expected"),
    [
        ("Introduction", None, None, "introduction"),
        ("1. Introduction", None, None, "introduction"),
        ("Background", None, None, "introduction"),
        ("Materials and Methods", None, None, "methods"),
        ("2.3 Statistical analysis", None, None, "methods"),
        ("EXPERIMENTAL PROCEDURES", None, None, "methods"),
        ("Results and Discussion", None, None, "results"),
        ("IV. SIMULATION", None, None, "results"),
        ("Experiments on CIFAR-10", None, None, "results"),
        ("Discussion and conclusions", None, None, "discussion"),
        ("Conclusions and future work", None, None, "conclusion"),
        ("Limitations", None, None, "discussion"),
        ("Acknowledgements", None, None, "other"),
        ("Supporting Information", None, None, "other"),
        ("Related Work", None, None, "other"),
        ("Author contributions", None, "discussion", "other"),
        ("Cell growth", None, None, "other"),
        ("Cell growth", None, "results", "results"),  # says nothing: the parent's type
        ("Cell growth results", None, None, "results"),  # the key word anywhere
        ("", "materials|methods", None, "methods"),  # JATS sec-type when the heading says nothing
        ("Study area", "intro", None, "methods"),  # the heading wins over the hint
        ("Overview", None, "methods", "methods"),  # context words yield to a typed parent
        ("Overview", None, None, "introduction"),
        ("Subjects and MRI", None, "results", "results"),
        ("Ethics statement", None, "methods", "methods"),
        ("Ethics statement", None, None, "other"),
        ("Datasets", None, "results", "methods"),
        ("Introducción", None, None, "introduction"),
        ("Conclusiones", None, None, "conclusion"),
    ],
)
def test_section_type(heading: str, hint: str | None, parent: str | None, expected: str) -> None:
    assert section_type(heading, hint, parent) == expected  # type: ignore[arg-type]


def test_split_numbering() -> None:
    assert split_numbering("3.1 Results") == ("3.1", "Results")
    assert split_numbering("IV. SIMULATION") == ("IV", "SIMULATION")
    assert split_numbering("A. Proofs") == ("A", "Proofs")
    assert split_numbering("1) Setup") == ("1)", "Setup")
    assert split_numbering("A new model") == ("", "A new model")
    assert split_numbering("3D shape") == ("", "3D shape")


def _types(raws: list[RawSection]) -> list[tuple[str, str]]:
    return [(s.heading, s.type) for s in build_sections(raws)]


def test_build_sections_nesting_rules() -> None:
    text = [("Some text.",)]
    # IEEE numbering: I. / A. / 1)
    ieee = [
        RawSection(h, list(text)) for h in ("I. INTRODUCTION", "II. SIMULATION", "A. Setup", "1) Rewards", "B. Paths")
    ]
    assert _types(ieee) == [
        ("INTRODUCTION", "introduction"),
        ("SIMULATION", "results"),
        ("SIMULATION / Setup", "methods"),
        ("SIMULATION / Setup / Rewards", "methods"),
        ("SIMULATION / Paths", "results"),
    ]
    # capitals main headings among mixed-case ones; a glued "EXPERIMENTAL PROCEDURE Materials" is split
    caps = [
        RawSection(h, list(text))
        for h in ("INTRODUCTION", "EXPERIMENTAL PROCEDURE Materials", "Cell viability assay", "RESULTS", "Uptake")
    ]
    assert _types(caps) == [
        ("INTRODUCTION", "introduction"),
        ("EXPERIMENTAL PROCEDURE / Materials", "methods"),
        ("EXPERIMENTAL PROCEDURE / Cell viability assay", "methods"),
        ("RESULTS", "results"),
        ("RESULTS / Uptake", "results"),
    ]
    # untyped top-level sections between the introduction and the first results section describe the method
    imrad = [RawSection(h, list(text)) for h in ("Introduction", "Literature Graph", "Entity Linking", "Experiments")]
    assert [t for _, t in _types(imrad)] == ["introduction", "methods", "methods", "results"]
    essay = [RawSection(h, list(text)) for h in ("Introduction", "Brain-Computer Interfaces", "Recommendations")]
    assert [t for _, t in _types(essay)] == ["introduction", "other", "other"]  # no results: nothing inferred
    # everything under an "other" heading stays other; explicit levels win; empty sections are left out
    nested = [
        RawSection("Appendix", [], level=1),
        RawSection("Detailed results", list(text), level=2),
        RawSection("Discussion", list(text), level=1),
        RawSection("Empty", [], level=1),
    ]
    assert _types(nested) == [("Appendix / Detailed results", "other"), ("Discussion", "discussion")]


def test_a_body_without_headings_is_typed_by_content() -> None:
    """S2ORC's oldest schema keeps no heading: the paragraphs are typed by their cues, in the paper's order."""
    paras = [
        ("Sepsis is a leading cause of death worldwide.", "Its treatment remains unclear."),
        ("Patients were recruited from two hospitals.", "Lactate was measured using a blood gas analyser."),
        ("Informed consent was obtained from all patients.",),
        ("Mortality was significantly lower in the treated group (p < 0.01).", "Lactate decreased by 20%."),
        ("Our findings suggest that early fluids may help.", "This is consistent with previous studies."),
        ("In conclusion, early fluids reduce mortality in sepsis.",),
    ]
    sections = build_sections([RawSection("", [p]) for p in paras], by_content=True)
    assert [(s.heading, s.type, len(s.paragraphs)) for s in sections] == [
        ("", "introduction", 1),
        ("", "methods", 2),
        ("", "results", 1),
        ("", "discussion", 1),
        ("", "conclusion", 1),
    ]
    # methods at the end (PLOS Biology, Nature): the other order of a research paper
    late = [paras[0], paras[3], paras[4], paras[1], paras[2]]
    assert [s.type for s in build_sections([RawSection("", [p]) for p in late], by_content=True)] == [
        "introduction",
        "results",
        "discussion",
        "methods",
    ]
    # only where the format loses headings (S2ORC, TEI), and only a body long enough to have the parts: a JATS body
    # without headings is a letter or an editorial
    assert {s.type for s in build_sections([RawSection("", [p]) for p in paras])} == {"other"}
    assert {s.type for s in build_sections([RawSection("", [p]) for p in paras[:3]], by_content=True)} == {"other"}
    # one heading anywhere: the headings decide, as before
    assert build_sections([RawSection("Results", [paras[1]])])[0].type == "results"


def test_text_helpers() -> None:
    assert clean_text("shown (, ) in mice [ ; ] .") == "shown in mice."
    assert clean_text("as reported ( ) , and") == "as reported, and"
    assert detokenize(["Full", "-", "Resolution", "(", "FRRN", ")", "is", "fast", ",", "is", "n’t", "it", "?"]) == (
        "Full-Resolution (FRRN) is fast, isn’t it?"
    )


# --------------------------------------------------------------------------------------------------
# Readers


def _mixed_folder(root: Path) -> Path:
    folder = root / "mixed"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(FIXTURES / "growth.nxml", folder / "growth.nxml")
    shutil.copy(FIXTURES / "retrieval.tei.xml", folder / "sub" / "retrieval.tei.xml")
    shutil.copy(FIXTURES / "tables.json", folder / "tables.json")
    shutil.copy(FIXTURES / "fasttext.json", folder / "sub" / "fasttext.json")
    (folder / "truncated.xml").write_bytes((FIXTURES / "growth.nxml").read_bytes()[:900])
    (folder / "stats.json").write_text('{"n": 3, "mean": 1.5}')
    (folder / "empty_body.nxml").write_text(
        "<article><front><article-meta><title-group><article-title>T</article-title></title-group>"
        "<abstract><p>Only an abstract.</p></abstract></article-meta></front><body/></article>"
    )
    (folder / "notes.txt").write_text("not a paper")
    (folder / "README.md").write_text("skipped")
    (folder / ".hidden.xml").write_text("<article/>")
    (folder / "sub" / "growth.xml").write_bytes((FIXTURES / "growth.nxml").read_bytes())  # same stem again
    return folder


def test_papers_reader_accounts_for_every_file(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    out = _read("papers", folder)
    outcome = [(o.id, o.format) if isinstance(o, Paper) else (o.item_id, o.reason) for o in out]
    assert outcome == [  # sorted paths: empty_body, growth, notes, stats, sub/..., tables, truncated
        ("empty_body", "no_sections"),
        ("growth", "jats"),
        ("notes", "unknown_format"),
        ("stats", "unknown_format"),
        ("fasttext", "scirex"),
        ("growth", "duplicate_id"),
        ("retrieval", "tei"),
        ("tables", "s2orc"),
        ("truncated", "not_well_formed"),
    ]
    files = [f for f in folder.rglob("*") if f.is_file() and not is_skipped(f.relative_to(folder).as_posix())]
    assert len(out) == len(files) == 9  # README.md and .hidden.xml are skipped, everything else accounted for
    bad = {o.item_id: o for o in out if isinstance(o, Reject)}
    assert "truncated.xml: not well-formed XML at line" in bad["truncated"].detail
    assert bad["truncated"].ref is not None and bad["truncated"].ref.dataset == "jats"
    assert bad["stats"].ref is not None and bad["stats"].ref.dataset == "unknown"
    growth = next(o for o in out if isinstance(o, Paper) and o.id == "growth")
    assert growth.ref.path == str(folder / "growth.nxml") and growth.ref.dataset == "jats"


def test_papers_reader_follows_linked_folders_once(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(FIXTURES / "growth.nxml", corpus / "growth.nxml")
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    shutil.copy(FIXTURES / "fasttext.json", inputs / "fasttext.json")
    (inputs / "linked").symlink_to(corpus, target_is_directory=True)  # a linked corpus (Path.rglob skips it)
    (corpus / "loop").symlink_to(corpus, target_is_directory=True)  # a link back: not walked twice
    out = _read("papers", inputs)
    assert [(o.id, o.format) for o in out if isinstance(o, Paper)] == [("fasttext", "scirex"), ("growth", "jats")]
    assert len(out) == 2


def test_format_readers_reject_other_files(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    jats_out = _read("jats", folder, dataset="pmc")
    reasons = [o.reason if isinstance(o, Reject) else "ok" for o in jats_out]
    assert len(jats_out) == 9 and reasons.count("ok") == 1
    assert {"not_jats", "unknown_format", "no_sections", "duplicate_id", "not_well_formed"} <= set(reasons)
    paper = next(o for o in jats_out if isinstance(o, Paper))
    assert paper.ref.dataset == "pmc"
    s2 = _read("s2orc", folder)
    assert [o.id for o in s2 if isinstance(o, Paper)] == ["tables"]
    assert {o.reason for o in s2 if isinstance(o, Reject) and o.item_id in ("stats", "fasttext")} == {"not_s2orc"}
    only = _read("tei", FIXTURES / "retrieval.tei.xml")
    assert len(only) == 1 and isinstance(only[0], Paper) and only[0].id == "retrieval"


def test_reader_limits_and_thresholds(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    limited = _read("papers", folder, limit=2)
    assert sum(isinstance(o, Paper) for o in limited) == 2 and isinstance(limited[-1], Paper)
    strict = _read("papers", folder, min_typed_sections=6)
    kept = {o.id for o in strict if isinstance(o, Paper)}
    assert kept == {"growth", "retrieval"}  # tables and fasttext have 5 typed sections each
    assert any(isinstance(o, Reject) and o.reason == "too_few_typed_sections" for o in strict)
    with pytest.raises(InputError, match="no such file or folder"):
        registry.build("reader", {"name": "papers", "path": str(tmp_path / "absent")})


def test_large_files_and_json_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from claimforge.io.papers import reader

    records = [json.loads((FIXTURES / n).read_text()) for n in ("s2orc_pdf_parse.json", "s2orc_2019.json")]
    lines = tmp_path / "pdf_parses_0.jsonl"  # the S2ORC release ships JSON Lines, one paper a line
    lines.write_text("".join(json.dumps(r) + "\n" for r in [*records, {"paper_id": "x", "title": "no body"}]))
    out = _read("s2orc", lines)
    assert [o.id if isinstance(o, Paper) else o.reason for o in out] == ["77001", "42", "not_s2orc"]
    assert isinstance(out[0], Paper) and out[0].ref.line == 1 and out[0].ref.path == str(lines)
    monkeypatch.setattr(reader, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big"
    big.mkdir()
    shutil.copy(FIXTURES / "growth.nxml", big / "growth.nxml")
    shutil.copy(lines, big / "lines.jsonl")
    out = _read("papers", big)
    assert [o.reason if isinstance(o, Reject) else o.id for o in out] == ["too_large", "77001", "42", "unknown_format"]


def _tar(path: Path, members: dict[str, bytes], mode: str) -> Path:
    with tarfile.open(path, mode) as tar:  # type: ignore[call-overload]
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_tar_archives_are_read_member_by_member(tmp_path: Path) -> None:
    members = {
        "xml_files/PMC1.nxml": (FIXTURES / "growth.nxml").read_bytes(),
        "xml_files/PMC2.nxml": b"<article><front>",
        "xml_files/._PMC1.nxml": b"mac resource fork",
        "xml_files/LICENSE": b"text",
        "xml_files/PMC3.json": (FIXTURES / "s2orc_2019.json").read_bytes(),
    }
    for mode, name in (("w:xz", "a.tar.xz"), ("w:gz", "a.tar.gz"), ("w", "a.tar")):
        archive = _tar(tmp_path / name, members, mode)
        out = _read("papers", archive)
        assert [(o.id if isinstance(o, Paper) else o.reason) for o in out] == ["PMC1", "not_well_formed", "PMC3"]
        assert out[0].ref.path == f"{archive}:xml_files/PMC1.nxml"  # type: ignore[union-attr]
    # the jats reader takes the .nxml members and rejects the JSON one
    jats_only = _read("jats", tmp_path / "a.tar.xz")
    assert [o.reason for o in jats_only if isinstance(o, Reject)] == ["not_well_formed", "unknown_format"]
    # a truncated archive: the members before the break, then one reject for the archive
    broken = tmp_path / "broken.tar.gz"
    whole = (tmp_path / "a.tar.gz").read_bytes()
    broken.write_bytes(whole[: len(whole) * 2 // 3])
    out = _read("papers", broken)
    assert isinstance(out[-1], Reject) and out[-1].reason == "archive_unreadable"
    # in a folder, the files after a broken archive are still read; a dangling link is a reject
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a_broken.tar.gz").write_bytes(broken.read_bytes())
    shutil.copy(FIXTURES / "growth.nxml", folder / "b_growth.nxml")
    (folder / "c_gone.nxml").symlink_to(tmp_path / "missing.nxml")
    out = _read("papers", folder)
    assert [o.id for o in out if isinstance(o, Paper)][-1] == "b_growth"
    assert [o.reason for o in out if isinstance(o, Reject)][-2:] == ["archive_unreadable", "unreadable"]


def test_latex_source_tarball_is_one_paper(tmp_path: Path) -> None:
    pytest.importorskip("claimforge.io.papers.latex")
    tex = rb"""\documentclass{article}\title{Zinc and Yeast}\begin{document}\maketitle
\begin{abstract}Zinc slows yeast.\end{abstract}
\section{Introduction}Zinc is a metal that yeast cells need.
\section{Methods}Cells were grown with zinc in rich medium.
\section{Results}Growth fell by forty percent at high zinc.
\end{document}"""
    source = _tar(tmp_path / "2101.00001.tar.gz", {"main.tex": tex, "fig.png": b"png"}, "w:gz")
    assert detect_format(source.name, source.read_bytes()[:16]) == "latex"
    out = _read("papers", source)
    assert len(out) == 1 and isinstance(out[0], Paper)
    assert out[0].id == "2101.00001" and out[0].format == "latex" and out[0].title == "Zinc and Yeast"


def test_pdf_files_go_to_the_pdf_parser(tmp_path: Path) -> None:
    pytest.importorskip("claimforge.io.papers.pdf")
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf\n%%EOF")
    (out,) = _read("papers", tmp_path)
    assert isinstance(out, Reject) and out.item_id == "scan" and out.ref is not None and out.ref.dataset == "pdf"


def test_detect_format_and_ids() -> None:
    assert detect_format("a.xml", b'<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY x "y">]>\n<article>') == "jats"
    assert detect_format("a.xml", b"<!-- c --><tei:TEI xmlns:tei='x'>") == "tei"
    assert detect_format("a.xml", b"<html>") is None
    assert detect_format("x.bin", b"%PDF-1.7") == "pdf"
    assert detect_format("x.json", b'  {"a": 1}') == "json"
    assert paper_id_of("dir/2020.acl-main.207.tei.xml") == "2020.acl-main.207"
    assert paper_id_of("2004.14974.tar.gz") == "2004.14974" and paper_id_of("PMC1.nxml") == "PMC1"
    assert is_skipped("a/.DS_Store") and is_skipped("LICENSE_repo.txt") and not is_skipped("licensing_study.xml")


def test_input_spec_names_the_paper_readers() -> None:
    assert _parse_input("jats:papers/") == ("jats", "papers/")
    assert _parse_input("papers:x.tar.xz") == ("papers", "x.tar.xz")


# --------------------------------------------------------------------------------------------------
# papers convert


def test_convert_round_trip(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    out = tmp_path / "out" / "papers.jsonl"
    stats = convert_papers([folder], out)
    rejects = default_rejects_path(out)
    assert rejects.name == "papers.rejects.jsonl"
    lines = out.read_text().splitlines()
    assert len(lines) == stats.total_papers == 4 and stats.total_rejects == 5
    assert sum(stats.files.values()) == 9 == len(lines) + len(rejects.read_text().splitlines())
    back = _read("papers", out)  # the papers reader reads its own output back unchanged
    original = [o for o in _read("papers", folder) if isinstance(o, Paper)]
    assert back == original
    assert stats.files["jats"] == 4 and stats.papers["jats"] == 1  # growth; empty, duplicate, truncated rejected
    # ids are unique across the inputs of one conversion too
    twice = convert_papers([FIXTURES / "tables.json", folder / "tables.json"], tmp_path / "twice.jsonl")
    assert twice.total_papers == 1 and twice.reasons == {"duplicate_id": 1}


def test_papers_jsonl_bad_lines(tmp_path: Path) -> None:
    good = jats.parse((FIXTURES / "growth.nxml").read_bytes(), "growth", "g.nxml").model_dump(mode="json")
    f = tmp_path / "p.jsonl"
    f.write_text(
        json.dumps(good) + "\n{broken\n" + json.dumps({**good, "sections": "x"}) + "\n" + json.dumps(good) + "\n"
    )
    with pytest.raises(InputError, match="line 2"):
        _read("papers", f)
    out = list(registry.build("reader", {"name": "papers", "path": str(f)}).read(skip_bad=True))
    assert [o.reason if isinstance(o, Reject) else o.id for o in out] == [
        "growth",
        "malformed_record",
        "malformed_record",
        "duplicate_id",
    ]


def test_cli_papers_convert(tmp_path: Path) -> None:
    folder = _mixed_folder(tmp_path)
    out = tmp_path / "p.jsonl"

    def said(result) -> str:  # type: ignore[no-untyped-def]
        return " ".join(result.output.split())  # rich wraps long error lines

    res = runner.invoke(app, ["papers", "convert", str(folder), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "total            9       4       5" in res.output and "sections (" in res.output
    assert "rejects: unknown_format 2" in res.output
    again = runner.invoke(app, ["papers", "convert", str(folder), "--out", str(out)])
    assert again.exit_code == 2 and "exists already" in said(again)
    forced = runner.invoke(app, ["papers", "convert", str(folder / "tables.json"), "-o", str(out), "--force"])
    assert forced.exit_code == 0 and len(out.read_text().splitlines()) == 1
    typed = runner.invoke(
        app, ["papers", "convert", str(folder / "tables.json"), "-o", str(tmp_path / "t.jsonl"), "-f", "jats"]
    )
    assert typed.exit_code == 1 and "no paper was converted" in said(typed)  # nothing converted: non-zero
    missing = runner.invoke(app, ["papers", "convert", str(tmp_path / "absent"), "-o", str(tmp_path / "m.jsonl")])
    assert missing.exit_code == 2 and "no such file or folder" in said(missing)
    inside = runner.invoke(app, ["papers", "convert", str(folder), "-o", str(folder / "x.jsonl")])
    assert inside.exit_code == 2 and "inside the input" in said(inside)
    assert not (tmp_path / "m.jsonl").exists()


# --------------------------------------------------------------------------------------------------
# Real data (../shared/data/papers): small slices, skipped when it is absent


def _shared(*parts: str) -> Path:
    return SHARED.joinpath(*parts)


@pytest.mark.skipif(not _shared("plos_jats").exists(), reason="../shared/data/papers/plos_jats is not here")
def test_real_jats_samples() -> None:
    files = sorted(_shared("plos_jats", "starter_corpus").glob("journal.p*.xml"))[::6]
    files += sorted(_shared("evidence_inference", "xml_sample_ev2_val_test").glob("*.nxml"))[::10]
    files += sorted(_shared("formats", "jats").glob("*.nxml"))
    papers = [jats.parse(f.read_bytes(), f.stem, str(f)) for f in files]
    research = [p for p in papers if p.meta.get("article_type") == "research-article" and p.sections]
    assert len(research) >= 30
    assert sum(p.typed_sections() >= 3 for p in research) >= 0.9 * len(research)
    assert all(p.title and p.references for p in research)
    assert sum(bool(p.captions) for p in research) >= 0.8 * len(research)


@pytest.mark.skipif(not _shared("formats").exists(), reason="../shared/data/papers/formats is not here")
def test_real_tei_and_s2orc_samples() -> None:
    teis = sorted(_shared("formats").rglob("*.tei.xml"))
    assert len(teis) == 4
    for f in teis:
        p = tei.parse(f.read_bytes(), paper_id_of(f.name), str(f))
        assert p.title and p.sections and p.references
    specter = tei.parse(_shared("formats", "pdf", "2020.acl-main.207.tei.xml").read_bytes(), "s", "s")
    assert ("Model / Overview", "methods") in _outline(specter) and specter.typed_sections() >= 10
    jsons = sorted(_shared("formats", "s2orc").rglob("*.json")) + sorted(_shared("formats", "pdf").glob("*.json"))
    schemas = {s2orc.parse(f.read_bytes(), f.stem, str(f)).meta["s2orc_schema"] for f in jsons}
    assert schemas == {"2019-09-28", "2020-07-05", "2021-01-01", "doc2json"}
    drosophila = s2orc.parse(_shared("formats", "s2orc", "20200705", "18980463.json").read_bytes(), "d", "d")
    assert drosophila.typed_sections() >= 10 and drosophila.sections[1].heading.startswith("Results / ")
    # the 2019 schema has no headings: typed by content, each into at least three main parts
    for f in sorted(_shared("formats", "s2orc", "20190928").glob("*.json")):
        p = s2orc.parse(f.read_bytes(), f.stem, str(f))
        assert len({s.type for s in p.sections} - {"other"}) >= 3, f.name


@pytest.mark.skipif(not _shared("scirex").exists(), reason="../shared/data/papers/scirex is not here")
def test_real_scirex_samples() -> None:
    files = sorted(_shared("scirex").glob("*.json"))[:40]
    papers = [scirex.parse(f.read_bytes(), f.stem, str(f)) for f in files]
    assert all(p.title for p in papers)
    assert sum(p.typed_sections() >= 3 for p in papers) >= 0.9 * len(papers)
    assert not any("[ reference ]" in s for p in papers for s in p.document().sentences)


@pytest.mark.skipif(
    not _shared("evidence_inference", "xml_files.tar.xz").exists(), reason="the evidence-inference archive is absent"
)
def test_real_archive_streams_its_first_members() -> None:
    out = _read("papers", _shared("evidence_inference", "xml_files.tar.xz"), limit=25)
    papers = [o for o in out if isinstance(o, Paper)]
    assert len(papers) == 25 and all(p.format == "jats" and p.ref.path.count(".tar.xz:") == 1 for p in papers)
