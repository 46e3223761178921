"""PDF and LaTeX papers → Paper: self-made fixtures (a two-column PDF drawn with matplotlib at test time by
tests/io/fixtures/papers/make_pdf.py, LaTeX sources and archives written here), broken inputs (each a
PaperError with its reason, never another exception), then the real files in ../shared/data/papers (skipped when
absent; see docs/papers_pdf_latex.md for the numbers)."""

from __future__ import annotations

import gzip
import importlib.util
import io
import os
import tarfile
import time
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from claimforge.io.papers import PaperError, latex, pdf
from claimforge.records import Paper, SourceRef

FIX = Path(__file__).parent / "fixtures" / "papers"
SHARED = Path(os.environ.get("CLAIMFORGE_SHARED_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))
PAPERS = SHARED / "papers"


def _make_pdf() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_pdf", FIX / "make_pdf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _make_pdf()


@pytest.fixture(scope="module")
def fixture_pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("pdf")
    return {
        "paper": MAKE.paper_pdf(out / "paper.pdf").read_bytes(),
        "plain": MAKE.plain_pdf(out / "plain.pdf").read_bytes(),
        "image": MAKE.image_only_pdf(out / "image.pdf").read_bytes(),
    }


@pytest.fixture(scope="module")
def paper(fixture_pdfs: dict[str, bytes]) -> Paper:
    return pdf.parse(fixture_pdfs["paper"], "tiny", "fixtures/paper.pdf")


def body_text(p: Paper) -> str:
    return " ".join(p.document(abstract=False).sentences)


# --------------------------------------------------------------------------------------------------
# PDF: the self-made paper


def test_pdf_model_and_provenance(paper: Paper) -> None:
    assert paper.id == "tiny"
    assert paper.format == "pdf"
    assert paper.ref == SourceRef(dataset="pdf", path="fixtures/paper.pdf", line=None, item_id="tiny")
    assert paper.title == MAKE.TITLE
    assert paper.meta["pages"] == 2 and paper.meta["two_column_pages"] == 2


def test_pdf_sections_in_reading_order_without_numbers(paper: Paper) -> None:
    assert [s.heading for s in paper.sections] == [
        "Introduction",
        "Methods",
        "Methods / Data collection",
        "Results",
        "Discussion",
        "Conclusion",
    ]
    assert [s.type for s in paper.sections] == [
        "introduction", "methods", "methods", "results", "discussion", "conclusion"
    ]  # fmt: skip
    assert paper.typed_sections() == 6
    # the numbers as printed are kept in meta
    assert paper.meta["headings_as_printed"][:3] == ["1 Introduction", "2 Methods", "2.1 Data collection"]


def test_pdf_abstract_paragraphs_and_columns(paper: Paper) -> None:
    assert paper.abstract == (tuple(MAKE.ABSTRACT.replace(". ", ".\n").split("\n")),)
    intro = paper.sections[0]
    assert len(intro.paragraphs) == 4  # indented first lines start paragraphs
    assert intro.paragraphs[0][0].startswith("Parsers of scientific papers")
    # the left column is read before the right one, whose text goes on with the introduction
    assert intro.paragraphs[-1] == (
        "The introduction goes on at the top of the right column, and a reader reads it after the left one.",
    )


def test_pdf_hyphenation(paper: Paper) -> None:
    text = body_text(paper)
    assert "internal representation of the page" in text
    assert "state-of-the-art way" in text
    assert "repre-" not in text


def test_pdf_captions_references_and_no_page_furniture(paper: Paper) -> None:
    assert paper.captions == ("Figure 1: The pipeline of the method, from the page to the sections of the paper.",)
    assert paper.references == tuple(MAKE.REFERENCES)
    text = " ".join([body_text(paper), *paper.abstract_sentences])
    for junk in ("Figure 1", "Fixture Journal", "small type", "[1]", "Lovelace and C."):
        assert junk not in text
    # the page numbers are gone: no sentence is a lone number
    assert not [s for s in paper.document().sentences if s.strip().isdigit()]
    assert paper.meta["headers_footers_dropped"] == 4


def test_pdf_without_headings_is_no_sections(fixture_pdfs: dict[str, bytes]) -> None:
    with pytest.raises(PaperError) as e:
        pdf.parse(fixture_pdfs["plain"], "plain", "plain.pdf")
    assert e.value.reason == "no_sections" and "plain.pdf" in e.value.detail


def test_pdf_image_only_is_no_text_layer(fixture_pdfs: dict[str, bytes]) -> None:
    with pytest.raises(PaperError) as e:
        pdf.parse(fixture_pdfs["image"], "scan", "scan.pdf")
    assert e.value.reason == "no_text_layer" and "scan.pdf" in e.value.detail and "1 image" in e.value.detail


@pytest.mark.parametrize("cut", [0, 200, 5000, 0.5, -300])
def test_pdf_truncated_is_unreadable(fixture_pdfs: dict[str, bytes], cut: float) -> None:
    data = fixture_pdfs["paper"]
    end = int(len(data) * cut) if isinstance(cut, float) else (cut if cut >= 0 else len(data) + cut)
    with pytest.raises(PaperError) as e:
        pdf.parse(data[:end], "cut", "cut.pdf")
    assert e.value.reason == "unreadable_pdf" and "cut.pdf" in e.value.detail


@pytest.mark.parametrize(
    "data",
    [b"hello, not a pdf", b"%PDF-1.4\n" + bytes(range(256)) * 20, b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, b""],
)
def test_pdf_not_a_pdf_is_unreadable(data: bytes) -> None:
    with pytest.raises(PaperError) as e:
        pdf.parse(data, "x", "x.pdf")
    assert e.value.reason == "unreadable_pdf"


def test_pdf_dehyphenate_uses_the_papers_own_spelling() -> None:
    vocab = {"document-level", "scidocs"}
    assert pdf._dehyphenate(["a document-", "level model"], vocab) == "a document-level model"
    assert pdf._dehyphenate(["the SCI-", "DOCS suite"], vocab) == "the SCIDOCS suite"
    assert pdf._dehyphenate(["a repre-", "sentation"]) == "a representation"
    assert pdf._dehyphenate(["token- and", "sentence-level"]) == "token- and sentence-level"
    assert pdf._dehyphenate(["BERT-", "Base"]) == "BERT-Base"


# --------------------------------------------------------------------------------------------------
# LaTeX: self-made sources

TEX = r"""\documentclass[11pt]{article}
\usepackage{amsmath}
% a comment in the preamble \section{Not a section}
\newcommand{\ours}{\textsc{TinyFact}\xspace}
\newcommand{\note}[1]{\textbf{#1}}
\title{A Tiny \LaTeX{} Paper\thanks{Thanks to nobody.}}
\author{Ada Lovelace \and Alan Turing}
\begin{document}
\maketitle
\begin{abstract}
We present \ours, a tiny dataset.
It has one claim.

A second abstract paragraph.
\end{abstract}

\section{Introduction}
\label{sec:intro}
Claims matter~\cite{smith2020,doe2021}. \citet{smith2020} wrote about \emph{claims} and \textbf{evidence}
% a comment line inside the paragraph: not a paragraph break
in Section~\ref{sec:methods}.\footnote{A footnote that is not body text.}
The effect was significant ($p < 0.05$) for $\alpha$ and $10^{-3}$ but not for $\frac{a}{b}$.

Caf\'e na\"ive Gr{\"u}n --- an em dash, 50\% of all, \note{macro arguments}.
\begin{equation}
  E = mc^2
\end{equation}
where $E$ is energy.

\begin{figure}[t]
  \centering
  \includegraphics[width=\linewidth]{figure.png}
  \caption{The pipeline of \ours.}
  \label{fig:pipeline}
\end{figure}

\section*{Methods}\label{sec:methods}
\begin{itemize}
  \item First step.
  \item Second step.
\end{itemize}
\subsection{Data}
\paragraph{Collection} We collected data.
\begin{table}
\caption{Statistics.}
\begin{tabular}{ll} a & b \\ \end{tabular}
\end{table}

\section{Results and Discussion}
It worked.
\iffalse
Hidden text.
\fi
\section{Conclusion}
Done.

\appendix
\section{Proofs}
A proof.

\begin{thebibliography}{2}
\bibitem[{Smith et~al.(2020)Smith, Jones, and Lee}]{smith2020}
John Smith, Ann Jones, and Bo Lee. 2020.
\newblock \emph{Claims}. In \emph{Proc. of Tests}, pages 1--2.
\bibitem[{Doe(2021)}]{doe2021} Jane Doe. 2021. \newblock Evidence.
\end{thebibliography}
\end{document}
"""


@pytest.fixture(scope="module")
def tex_paper() -> Paper:
    return latex.parse(TEX.encode(), "tiny-tex", "tiny.tex")


def test_latex_model_and_provenance(tex_paper: Paper) -> None:
    p = tex_paper
    assert p.format == "latex"
    assert p.ref == SourceRef(dataset="latex", path="tiny.tex", line=None, item_id="tiny-tex")
    assert p.title == "A Tiny LaTeX Paper"
    assert p.abstract == (
        ("We present TinyFact, a tiny dataset.", "It has one claim."),
        ("A second abstract paragraph.",),
    )


def test_latex_sections_types_and_appendix(tex_paper: Paper) -> None:
    assert [(s.heading, s.type) for s in tex_paper.sections] == [
        ("Introduction", "introduction"),
        ("Methods", "methods"),
        ("Methods / Data", "methods"),
        ("Results and Discussion", "results"),
        ("Conclusion", "conclusion"),
        ("Proofs", "other"),
    ]


def test_latex_text_cleanup(tex_paper: Paper) -> None:
    intro = tex_paper.sections[0]
    assert intro.paragraphs[0] == (
        "Claims matter.",
        "Smith et al. (2020) wrote about claims and evidence in Section.",
        "The effect was significant (p < 0.05) for α and 10^-3 but not for.",
    )
    assert intro.paragraphs[1] == ("Café naïve Grün — an em dash, 50% of all, macro arguments. where E is energy.",)
    text = " ".join(tex_paper.document().sentences)
    for junk in ("\\", "{", "}", "$", "cite", "footnote", "Hidden", "E = mc", "sec:", "pipeline of", "Statistics"):
        assert junk not in text


def test_latex_lists_paragraphs_captions_references(tex_paper: Paper) -> None:
    methods = tex_paper.sections[1]
    assert methods.paragraphs == (("First step.",), ("Second step.",))
    assert tex_paper.sections[2].paragraphs == (("Collection.", "We collected data."),)
    assert tex_paper.captions == ("The pipeline of TinyFact.", "Statistics.")
    assert tex_paper.references == (
        "John Smith, Ann Jones, and Bo Lee. 2020. Claims. In Proc. of Tests, pages 1–2.",
        "Jane Doe. 2021. Evidence.",
    )
    assert tex_paper.meta["references_from"] == "thebibliography"


MAIN = r"""\documentclass{article}
\input{macros}
\begin{document}
\title{Archive Paper}
\maketitle
\begin{abstract}Short.\end{abstract}
\input{sections/intro}
\include{sections/results.tex}
\input{sections/missing}
\bibliography{refs}
\end{document}
"""
INTRO_TEX = "\\section{Introduction}\n\\ours{} is introduced here.\n"
RESULTS_TEX = "\\section{Results}\nIt works.\n"
BBL = r"""\begin{thebibliography}{1}
\bibitem{a} A. Author. 2019. \newblock A title.
\bibitem{b} B. Author. 2020. \newblock Another title.
\end{thebibliography}
"""


def _tar(files: dict[str, bytes], mode: str = "w:gz") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tar:  # type: ignore[call-overload]
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


ARCHIVE = {
    "./main.tex": MAIN.encode(),
    "./macros.tex": b"\\newcommand{\\ours}{OurSystem}\n",
    "./sections/intro.tex": INTRO_TEX.encode(),
    "./sections/results.tex": RESULTS_TEX.encode(),
    "./refs.bbl": BBL.encode(),
    "./._main.tex": b"\x00\x05\x16\x07 AppleDouble junk",
    "./figure.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 64,
    "./old-draft.tex": b"\\section{Old} A fragment without a document class.\n",
}


@pytest.mark.parametrize("mode", ["w:gz", "w", "w:bz2"])
def test_latex_archive_inputs_and_bbl(mode: str) -> None:
    p = latex.parse(_tar(ARCHIVE, mode), "arch", "arch.tar")
    assert p.title == "Archive Paper"
    assert [s.heading for s in p.sections] == ["Introduction", "Results"]
    assert p.sections[0].paragraphs == (("OurSystem is introduced here.",),)
    assert p.references == ("A. Author. 2019. A title.", "B. Author. 2020. Another title.")
    assert p.meta["main_file"] == "main.tex"
    assert p.meta["missing_inputs"] == ["sections/missing"]
    assert p.meta["references_from"] == "refs.bbl"


def test_latex_gzip_of_a_single_tex_file() -> None:
    p = latex.parse(gzip.compress(TEX.encode()), "one", "one.gz")
    assert p.title == "A Tiny LaTeX Paper" and len(p.sections) == 6


def test_latex_latin1_source() -> None:
    src = TEX.replace(r"Caf\'e", "Café").encode("latin-1")
    p = latex.parse(src, "l1", "l1.tex")
    assert p.sections[0].paragraphs[1][0].startswith("Café naïve")


def test_latex_untitled_text_before_the_first_section() -> None:
    src = (
        "\\documentclass{article}\\begin{document}\n"
        "This opening paragraph has no heading of its own, but it is long enough to count as the introduction of "
        "the paper.\n\n"
        "\\section{Methods}\nWe did it.\n\\end{document}\n"
    )
    p = latex.parse(src.encode(), "u", "u.tex")
    assert [(s.heading, s.type) for s in p.sections] == [("", "introduction"), ("Methods", "methods")]
    assert p.meta["untitled_first_section"] is True


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (gzip.compress(bytes(range(256)) * 40), "not_latex"),  # a gzip of binary data
        (gzip.compress(TEX.encode())[:60], "unreadable_archive"),  # a truncated gzip
        (b"\x1f\x8b\x08\x00garbage", "unreadable_archive"),  # a gzip header and then nothing valid
        (bytes(range(256)) * 40, "not_latex"),  # binary, not an archive
        (b"\\section{Intro} text without a document class", "no_document"),
        (b"\\documentclass{article}\n\\section{A} no begin document", "no_document"),
        (b"\\documentclass{article}\\begin{document}Just text.\\end{document}", "no_sections"),
        (_tar({"a.png": b"\x89PNG", "b.sty": b"\\relax"}), "not_latex"),  # a tar without .tex files
        (_tar(ARCHIVE)[: len(_tar(ARCHIVE)) // 2], "unreadable_archive"),  # a truncated tar.gz
        (_tar(ARCHIVE, "w")[:1500], "unreadable_archive"),  # a truncated tar
        (  # a self-doubling macro: 2^32 expansions without the limit
            b"\\documentclass{article}\\newcommand{\\x}{\\x\\x}\\begin{document}\\section{A}\\x\\end{document}",
            "macro_expansion_limit",
        ),
    ],
)
def test_latex_broken_inputs(data: bytes, reason: str) -> None:
    with pytest.raises(PaperError) as e:
        latex.parse(data, "bad", "bad.gz")
    assert e.value.reason == reason, e.value.detail
    assert "bad.gz" in e.value.detail


def test_latex_inline_math_rendering() -> None:
    conv = latex._Converter({}, {})
    assert conv.math(r"p < 0.05") == "p < 0.05"
    assert conv.math(r"\alpha") == "α"
    assert conv.math(r"F_1") == "F1"
    assert conv.math(r"10^{-3}") == "10^-3"
    assert conv.math(r"90^\circ") == "90°"
    assert conv.math(r"\frac{a}{b}") == " "  # dropped
    assert conv.math(r"\mathcal{O}(n \log n)") == "O(n log n)"


# --------------------------------------------------------------------------------------------------
# Real files (skipped when ../shared/data is absent)

REAL_PDFS: dict[str, tuple[int, int, int] | str] = {
    # file: (minimum sections, minimum typed sections, minimum references); None: a PaperError reason
    "pdf/2020.acl-main.447.pdf": (15, 3, 40),
    "pdf/2023.eacl-main.121.pdf": (15, 3, 50),
    "pdf/2304.02623v1.pdf": (5, 2, 30),  # its only typed headings are Introduction and Conclusion
    "pdf/b80e338a4e543de6b49cada07156c9149d22.pdf": (5, 3, 60),
    "pdf/key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf": (8, 3, 30),
    "pdf/1903.10676.pdf": "no_sections",  # a single table page
    "formats/pdf/2020.acl-main.207.pdf": (15, 10, 50),
    "formats/pdf/N18-3011.pdf": (10, 2, 20),
    "formats/input_from_history/5cd28c171f9f3b6a8bcebe246159c464980c.pdf": (5, 2, 30),
}


@cache
def _parse_real(rel: str) -> tuple[Paper | PaperError, float]:
    path = PAPERS / rel
    start = time.perf_counter()
    try:
        result: Paper | PaperError = pdf.parse(path.read_bytes(), path.stem, str(path))
    except PaperError as e:
        result = e
    return result, time.perf_counter() - start


@pytest.mark.slow
@pytest.mark.parametrize("rel", sorted(REAL_PDFS))
def test_real_pdf(rel: str) -> None:
    if not (PAPERS / rel).exists():
        pytest.skip(f"real data not available: {PAPERS / rel}")
    expected = REAL_PDFS[rel]
    result, seconds = _parse_real(rel)
    assert seconds < 10
    if isinstance(expected, str):
        assert isinstance(result, PaperError) and result.reason == expected
        return
    assert isinstance(result, Paper), result
    min_sections, min_typed, min_refs = expected
    assert len(result.sections) >= min_sections
    assert result.typed_sections() >= min_typed
    assert len(result.references) >= min_refs
    assert result.title and len(result.title.split()) >= 4
    assert all(not s.heading[:1].isdigit() for s in result.sections)  # numbers stripped


@pytest.mark.slow
def test_real_pdfs_target() -> None:
    """The target: at least 4 of the 6 PDFs in papers/pdf give 3 or more typed sections (the other two cannot:
    a single table page, and a position paper whose only typed headings are Introduction and Conclusion)."""
    rels = [r for r in REAL_PDFS if r.startswith("pdf/")]
    if not all((PAPERS / r).exists() for r in rels):
        pytest.skip(f"real data not available: {PAPERS / 'pdf'}")
    good = [r for r in rels if isinstance(p := _parse_real(r)[0], Paper) and p.typed_sections() >= 3]
    assert len(good) >= 4, good


@pytest.mark.slow
def test_real_pdf_against_grobid_headings() -> None:
    """SPECTER's headings as GROBID found them (its TEI parse lies next to the PDF) are found here too."""
    rel = "formats/pdf/2020.acl-main.207.pdf"
    if not (PAPERS / rel).exists():
        pytest.skip("real data not available")
    p = _parse_real(rel)[0]
    assert isinstance(p, Paper)
    headings = [s.heading.split(" / ")[-1] for s in p.sections]
    for h in (
        "Introduction",
        "Background: Pretrained Transformers",
        "Citation-Based Pretraining Objective",
        "Document Classification",
        "Experiments",
        "Results",
        "Related Work",
        "Conclusions and Future Work",
    ):
        assert h in headings
    assert p.abstract_sentences[0].startswith("Representation learning is a critical ingredient")


REAL_TEX = {
    "1911.02782.gz": ("S2ORC: The Semantic Scholar Open Research Corpus", 20, 3, 50, 10),
    "2004.14974.gz": ("Fact or Fiction: Verifying Scientific Claims", 20, 5, 30, 15),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REAL_TEX))
def test_real_latex(name: str) -> None:
    path = PAPERS / "formats" / "latex" / name
    if not path.exists():
        pytest.skip(f"real data not available: {path}")
    title, min_sections, min_typed, min_refs, min_captions = REAL_TEX[name]
    p = latex.parse(path.read_bytes(), path.stem, str(path))
    assert p.title == title
    assert len(p.sections) >= min_sections and p.typed_sections() >= min_typed
    assert len(p.references) >= min_refs and len(p.captions) >= min_captions
    assert p.abstract and p.meta["missing_inputs"] == []
    text = " ".join(p.document().sentences)
    assert "\\" not in text and "$" not in text
