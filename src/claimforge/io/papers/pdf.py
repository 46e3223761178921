"""PDF papers → :class:`claimforge.records.Paper`, from the PDF's text layer (no OCR).

Library: `pdfminer.six <https://github.com/pdfminer/pdfminer.six>`_ (MIT). It is pure Python, so it installs
everywhere, and it gives every glyph with its position, font name and size, which is what finding headings in a
paper needs (a heading is a line in a bold or larger font than the body text). The alternatives were pypdf (BSD;
its text extraction returns strings without font sizes or bold fonts, so headings could only be guessed from the
words) and PyMuPDF (faster, but AGPL-3.0, which an Apache-2.0 project should not make a default dependency).

How a paper is read:

1. **Glyphs.** Every page is interpreted without pdfminer's layout analysis (``laparams=None``, which is also
   what makes it fast); glyphs inside form XObjects (``LTFigure``) are taken too, rotated glyphs (arXiv's margin
   stamp) are dropped, and so are glyphs without a Unicode mapping (``(cid:N)``) and exact duplicates (fake bold
   printed twice). Ligatures are expanded, spacing accents composed with their letter ("Andr´e" → "André").
2. **Lines.** Glyphs are joined in content-stream order into fragments (a space where the gap is wider than
   0.12 em); a page whose text leaves a vertical gutter near the middle is two-column: fragments left of it,
   right of it and across it are kept apart, fragments on one baseline of one column are joined, and the page is
   read band by band (a line across both columns, such as a full-width caption, ends a band; in a band the left
   column is read before the right one).
3. **Clean-up.** The body font size is the most common glyph size before the reference list. Lines in the top
   or bottom 10 % of a page whose text (digits ignored) comes back on at least 40 % of the pages are running
   headers or footers, and a lone number there is a page number: both are dropped.
4. **Headings.** A line is a heading when it is short, does not end like a sentence, is set apart by its font
   (bold, at least 8 % larger than the body, or all capitals; italics for numbered subsections) and is either
   numbered ("3 Experiments", "3.1 Setup", "IV. RESULTS", "A. Data"; the numbers must follow each other
   plausibly) or a known heading ("Abstract", "Introduction", "Materials and Methods", "References",
   "Acknowledgments", "Appendix A. ...", ...). "Abstract" and "References" alone on a line count in the body font
   too. In a paper without numbered headings, any short bold or larger line after the first known heading is a
   heading, its level given by its font. A heading wrapped over two lines in the same font is joined.
   "Keywords"/"Index Terms"/"CCS Concepts" end the abstract and are no section.
5. **Regions.** Title: the largest text in the first page's top part. Abstract: the text between "Abstract"
   (or a paragraph that starts "Abstract—") and the next heading, else the first paragraph of 40 words or more
   (then body text before the first heading is an untitled first section, typed ``introduction``). Body: the
   text between headings, in each section's own most common type size (footnotes, table cells and figure labels
   are smaller and left out). Captions: paragraphs that start "Figure 2:", "Fig. 2.", "Table 1", "TABLE I" and
   so on, in any size, kept apart from the body. References: the lines after "References"/"Bibliography"/
   "Literature cited", split into entries by their numbers ("[12]", "12."), else by hanging indentation, else by
   vertical gaps; an appendix heading after them starts sections again (typed ``other``).
6. **Paragraphs.** A paragraph ends at a larger vertical gap than the usual line pitch, at an indented line, or
   after a short line that ends a sentence; a paragraph goes on across a column or page break. A word hyphenated
   at the end of a line is joined as the paper spells it elsewhere ("document-" + "level" stays hyphenated when
   the paper writes "document-level"), else joined before a lower-case letter ("repre-" + "sentation"), kept in
   compounds ("state-of-the-" + "art") and before "and"/"or".

Details, limits and results on real papers: ``docs/papers_pdf_latex.md``.

Headings are stored **without their numbers** ("Experiments / Setup", not "3 Experiments / 3.1 Setup"): the
numbering is layout, and without it a PDF's heading path is the same as the one the paper's LaTeX source or its
JATS/TEI version gives. ``Paper.meta`` keeps the headings as printed (``headings_as_printed``), the page
count, pages that could not be read, two-column pages and the body font size.

Errors (:class:`~claimforge.io.papers.PaperError`): ``unreadable_pdf`` (not a PDF, encrypted with a password,
broken beyond pdfminer's repair, no page readable), ``no_text_layer`` (hardly any text: a scan without OCR),
``no_sections`` (text but no heading found, e.g. a single table page). No other exception escapes :func:`parse`.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTFigure, LTImage, LTPage
from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser

from claimforge.io.papers import PaperError
from claimforge.io.papers.sections import normalise_heading, section_type
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Paper, Section, SectionType, SourceRef

__all__ = ["parse"]

FORMAT = "pdf"

# --------------------------------------------------------------------------------------------------
# Glyphs → fragments → lines

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\u00ad": "",  # soft hyphen
}
# spacing accents that TeX's OT1 fonts print as separate glyphs → combining marks
_ACCENTS = {"´": "\u0301", "`": "\u0300", "¨": "\u0308", "ˆ": "\u0302", "˜": "\u0303", "ˇ": "\u030c", "˚": "\u030a"}
_ACCENT_RE = re.compile("([" + "".join(_ACCENTS) + r"])\s?([A-Za-zı])")
_BOLD_FONT = re.compile(
    r"bold|black|heavy|semibold|demi|-medi|\bmedi|cmbx|cmb\d|[-,]bd\b|[-,]b$|(libertine|biolinum)[a-z]*tbi?$",
    re.IGNORECASE,
)
_ITALIC_FONT = re.compile(r"ital|oblique|cmti|[-,]it$|[-,]i$", re.IGNORECASE)
_SPACE_EM = 0.12  # a gap wider than this (in em) between two glyphs is a space
_FRAGMENT_GAP_EM = 1.0  # a gap wider than this starts a new fragment (a column gutter, a table cell)


@dataclass(slots=True)
class _Line:
    """A run of text on one baseline: a fragment of glyphs in stream order, or a merged visual line."""

    page: int
    x0: float
    x1: float
    y0: float
    y1: float
    text: str
    sizes: Counter[float] = field(default_factory=Counter)  # glyph size (0.1 pt) → glyph count
    bold: int = 0  # bold glyphs
    italic: int = 0  # italic glyphs (math italic not counted)
    n: int = 0  # glyphs (spaces not counted)
    letters: int = 0
    upper: int = 0
    col: int = 0  # 0: whole page width (or a one-column page), 1: left column, 2: right column
    first_bold: bool = False  # the first glyph is bold (a run-in heading starts the line)

    @property
    def size(self) -> float:
        return self.sizes.most_common(1)[0][0] if self.sizes else 0.0

    @property
    def bold_share(self) -> float:
        return self.bold / self.n if self.n else 0.0

    @property
    def caps(self) -> bool:
        return self.letters >= 4 and self.upper >= 0.85 * self.letters

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def _compose(m: re.Match[str]) -> str:
    base = "i" if m.group(2) == "ı" else m.group(2)
    return unicodedata.normalize("NFC", base + _ACCENTS[m.group(1)])


def _clean_font(name: str) -> str:
    return name.split("+", 1)[1] if "+" in name[:8] else name


def _glyph_text(text: str) -> str:
    if text.startswith("(cid:"):
        return ""
    out = []
    for ch in text:
        if ch in _LIGATURES:
            out.append(_LIGATURES[ch])
        elif ch.isspace():
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Co", "Cs", "Cf"):
            continue  # control, private use (unmapped math glyphs), surrogates, format characters
        else:
            out.append(ch)
    return "".join(out)


def _chars(obj: Iterable[Any], out: list[LTChar], images: list[int]) -> None:
    for item in obj:
        if isinstance(item, LTChar):
            a, b, c, d, _e, _f = item.matrix
            if a > 0 and d > 0 and abs(b) < 1e-3 * a and abs(c) < 1e-3 * d:  # upright, not rotated
                out.append(item)
        elif isinstance(item, LTFigure):
            _chars(item, out, images)
        elif isinstance(item, LTImage):
            images[0] += 1


def _fragments(chars: Sequence[LTChar], page: int) -> list[_Line]:
    """Glyphs in content-stream order → fragments: runs on one baseline without a wide gap."""
    frags: list[_Line] = []
    cur: _Line | None = None
    seen: set[tuple[str, int, int]] = set()
    pending_space = False
    for ch in chars:
        text = _glyph_text(ch.get_text())
        if not text:
            continue
        if text.isspace():
            pending_space = cur is not None
            continue
        key = (text, round(ch.x0), round(ch.y0))
        if key in seen:  # the same glyph printed again at the same place (fake bold, shadows)
            continue
        seen.add(key)
        size = round(ch.size, 1)
        if size <= 0:
            continue
        if cur is not None:
            lo, hi = max(cur.y0, ch.y0), min(cur.y1, ch.y1)
            overlap = (hi - lo) / max(1e-6, min(cur.height, ch.y1 - ch.y0))
            gap = ch.x0 - cur.x1
            em = max(size, cur.size)
            if overlap >= 0.5 and -0.3 * em <= gap <= _FRAGMENT_GAP_EM * em:
                if pending_space or gap > _SPACE_EM * em:
                    cur.text += " "
                cur.text += text
                cur.x1 = max(cur.x1, ch.x1)
                # the line's box follows its larger glyphs only (a superscript must not grow it)
                if size >= cur.size - 0.5:
                    cur.y0, cur.y1 = min(cur.y0, ch.y0), max(cur.y1, ch.y1)
                _count(cur, text, size, ch.fontname)
                pending_space = False
                continue
            frags.append(cur)
        cur = _Line(page=page, x0=ch.x0, x1=ch.x1, y0=ch.y0, y1=ch.y1, text=text)
        _count(cur, text, size, ch.fontname)
        pending_space = False
    if cur is not None:
        frags.append(cur)
    return [f for f in frags if f.text.strip()]


def _count(line: _Line, text: str, size: float, font: str) -> None:
    k = len(text)
    bold = _BOLD_FONT.search(_clean_font(font)) is not None
    if not line.n:
        line.first_bold = bold
    line.n += k
    line.sizes[size] += k
    if bold:
        line.bold += k
    if _ITALIC_FONT.search(font):
        line.italic += k
    for ch in text:
        if ch.isalpha():
            line.letters += 1
            if ch.isupper():
                line.upper += 1


def _gutter(frags: Sequence[_Line], x0: float, x1: float) -> float | None:
    """The x of the gap between two columns, or None for a one-column page: the widest run of the least
    covered 2-pt strips in the middle 40 % of the page, when at most 40 % of the text crosses it (titles, wide
    tables and captions do) and at least a tenth of it lies on either side."""
    width = x1 - x0
    lo, hi = x0 + 0.3 * width, x0 + 0.7 * width
    nbins = max(1, int((hi - lo) / 2))
    cover = [0] * nbins
    total = 0
    for f in frags:
        if f.n < 3:
            continue
        total += f.n
        for b in range(max(0, int((f.x0 - lo) / 2)), min(nbins, int((f.x1 - lo) / 2) + 1)):
            cover[b] += f.n
    if total < 200:
        return None
    least = min(cover)
    best, best_len, run_start = -1, 0, -1
    for b in range(nbins + 1):
        if b < nbins and cover[b] == least:
            if run_start < 0:
                run_start = b
        elif run_start >= 0:
            if b - run_start > best_len:
                best, best_len = run_start, b - run_start
            run_start = -1
    x = lo + 2 * best + best_len  # middle of the run
    left = sum(f.n for f in frags if f.x1 <= x)
    right = sum(f.n for f in frags if f.x0 >= x)
    if least <= 0.4 * total and left >= 0.1 * total and right >= 0.1 * total:
        return x
    return None


def _join_row(row: list[_Line]) -> _Line:
    row.sort(key=lambda f: f.x0)
    first = row[0]
    out = _Line(
        page=first.page,
        x0=first.x0,
        x1=first.x1,
        y0=first.y0,
        y1=first.y1,
        text=first.text,
        sizes=Counter(first.sizes),
        bold=first.bold,
        italic=first.italic,
        n=first.n,
        letters=first.letters,
        upper=first.upper,
        col=first.col,
        first_bold=first.first_bold,
    )
    for f in row[1:]:
        em = max(out.size, f.size)
        out.text += (" " if f.x0 - out.x1 > _SPACE_EM * em else "") + f.text
        out.x1 = max(out.x1, f.x1)
        out.y0, out.y1 = min(out.y0, f.y0), max(out.y1, f.y1)
        out.sizes.update(f.sizes)
        out.bold += f.bold
        out.italic += f.italic
        out.n += f.n
        out.letters += f.letters
        out.upper += f.upper
    return out


def _rows(frags: list[_Line]) -> list[_Line]:
    """Fragments of one column → visual lines: fragments whose boxes overlap vertically by half are one line."""
    rows: list[tuple[float, float, list[_Line]]] = []  # (y0, y1) of the row's first fragment, fragments
    for f in sorted(frags, key=lambda f: -(f.y0 + f.y1) / 2):
        placed = False
        for i in range(len(rows) - 1, max(-1, len(rows) - 4), -1):
            y0, y1, members = rows[i]
            overlap = (min(y1, f.y1) - max(y0, f.y0)) / max(1e-6, min(y1 - y0, f.height))
            if overlap >= 0.5:
                members.append(f)
                placed = True
                break
        if not placed:
            rows.append((f.y0, f.y1, [f]))
    return [_join_row(members) for _, _, members in rows]


def _page_lines(frags: list[_Line], x0: float, x1: float) -> tuple[list[_Line], bool]:
    """A page's fragments → its visual lines in reading order, and whether it has two columns."""
    for f in frags:
        if _ACCENT_RE.search(f.text):
            f.text = _ACCENT_RE.sub(_compose, f.text)
    gutter = _gutter(frags, x0, x1)
    if gutter is None:
        lines = _rows(frags)
        lines.sort(key=lambda ln: -ln.y1)
        return lines, False
    for f in frags:
        f.col = 1 if f.x1 <= gutter + 1 else 2 if f.x0 >= gutter - 1 else 0
    lines = [ln for c in (0, 1, 2) for ln in _rows([f for f in frags if f.col == c])]
    lines.sort(key=lambda ln: -ln.y1)
    ordered: list[_Line] = []
    band: list[_Line] = []
    for ln in lines:
        if ln.col == 0:
            ordered.extend(sorted(band, key=lambda b: b.col))  # stable: top-down within each column
            band = []
            ordered.append(ln)
        else:
            band.append(ln)
    ordered.extend(sorted(band, key=lambda b: b.col))
    return ordered, True


# --------------------------------------------------------------------------------------------------
# Reading the PDF


@dataclass(slots=True)
class _Page:
    index: int
    x0: float
    y0: float
    x1: float
    y1: float
    lines: list[_Line]
    two_column: bool


def _open(data: bytes, where: str) -> PDFDocument:
    if not isinstance(data, bytes | bytearray) or b"%PDF-" not in bytes(data[:1024]):
        raise PaperError("unreadable_pdf", f"{where}: not a PDF (no %PDF- header in the first 1024 bytes)")
    try:
        return PDFDocument(PDFParser(io.BytesIO(bytes(data))))
    except PDFPasswordIncorrect as e:
        raise PaperError("unreadable_pdf", f"{where}: encrypted, needs a password") from e
    except PDFEncryptionError as e:
        raise PaperError("unreadable_pdf", f"{where}: encrypted in a way pdfminer cannot read ({e})") from e
    except Exception as e:  # pdfminer raises many types (PSEOF, KeyError, TypeError ...) on broken files
        raise PaperError("unreadable_pdf", f"{where}: {type(e).__name__}: {e}") from e


def _read_pages(doc: PDFDocument, where: str) -> tuple[list[_Page], int, int, int]:
    """The pages' lines; also how many pages failed, how many glyphs and images there were."""
    rsrc = PDFResourceManager(caching=True)
    device = PDFPageAggregator(rsrc, laparams=None)
    interp = PDFPageInterpreter(rsrc, device)
    pages: list[_Page] = []
    failed = glyphs = 0
    images = [0]
    it: Iterator[PDFPage] = iter(PDFPage.create_pages(doc))
    index = 0
    while True:
        try:
            page = next(it)
        except StopIteration:
            break
        except Exception:  # a broken page tree: keep the pages read so far
            failed += 1
            break
        try:
            interp.process_page(page)
            layout: LTPage = device.get_result()
        except Exception:
            failed += 1
            index += 1
            continue
        chars: list[LTChar] = []
        _chars(layout, chars, images)
        glyphs += sum(1 for c in chars if not c.get_text().isspace())
        frags = _fragments(chars, index)
        px0, py0, px1, py1 = layout.bbox
        lines, two = _page_lines(frags, px0, px1)
        pages.append(_Page(index, px0, py0, px1, py1, lines, two))
        index += 1
    if not pages:
        raise PaperError("unreadable_pdf", f"{where}: no page could be read ({failed} failed)")
    return pages, failed, glyphs, images[0]


def _body_size(pages: Sequence[_Page]) -> float:
    """The most common glyph size (0.5-pt steps) before the reference list (long reference lists and tables
    in small type must not outvote the body)."""
    sizes: Counter[float] = Counter()
    lines = [ln for p in pages for ln in p.lines]
    end = len(lines)
    for i, ln in enumerate(lines):
        if i >= 0.3 * len(lines) and normalise_heading(ln.text).rstrip(":") in _REFERENCES:
            end = i
            break
    for ln in lines[:end]:
        for size, k in ln.sizes.items():
            sizes[round(size * 2) / 2] += k
    return sizes.most_common(1)[0][0] if sizes else 10.0


_PAGE_NUMBER = re.compile(r"^(page\s+)?(\d{1,4}|[ivxlc]{1,6})(\s*(/|of)\s*\d{1,4})?$", re.IGNORECASE)


def _drop_headers_footers(pages: Sequence[_Page]) -> int:
    """Remove running headers/footers (the same text, digits ignored, in the top or bottom tenth of at least
    40 % of the pages) and lone page numbers there. Returns how many lines were removed."""

    def in_margin(p: _Page, ln: _Line) -> bool:
        h = p.y1 - p.y0
        return ln.y1 >= p.y1 - 0.1 * h or ln.y0 <= p.y0 + 0.1 * h

    def key(ln: _Line) -> str:
        return re.sub(r"\d+", "#", " ".join(ln.text.lower().split()))

    seen: Counter[str] = Counter()
    for p in pages:
        for k in {key(ln) for ln in p.lines if in_margin(p, ln)}:
            seen[k] += 1
    need = max(2, -(-4 * len(pages) // 10))  # ceil(0.4 n), at least 2
    removed = 0
    for p in pages:
        keep = []
        for ln in p.lines:
            if in_margin(p, ln) and (
                (len(pages) >= 2 and seen[key(ln)] >= need) or _PAGE_NUMBER.match(ln.text.strip())
            ):
                removed += 1
                continue
            keep.append(ln)
        p.lines = keep
    return removed


# --------------------------------------------------------------------------------------------------
# Headings, captions


_NUMBERED = re.compile(
    r"^(?:(?P<arabic>\d{1,2}(?:\.\d{1,2}){0,3})(?:\.\s*|\s+)"
    r"|(?P<roman>[IVX]{1,6})\.\s*"
    r"|(?P<letter>[A-H])(?P<lsub>(?:\.\d{1,2}){0,2})(?:\.\s*|\s+))"
    r"(?P<title>\S.*)$"
)
# fmt: off
_KNOWN = {
    "abstract", "summary", "introduction", "background", "related work", "related works", "methods", "method",
    "methodology", "materials and methods", "methods and materials", "results", "discussion",
    "results and discussion", "conclusion", "conclusions", "conclusion and future work",
    "conclusions and future work", "acknowledgments", "acknowledgements", "acknowledgment", "acknowledgement",
    "references", "bibliography", "literature cited", "works cited", "appendix", "appendices",
    "supplementary material", "limitations", "ethics statement", "ethical considerations", "broader impact",
    "experiments", "evaluation", "future work",
}
_REFERENCES = {
    "references", "bibliography", "literature cited", "works cited", "reference", "cited literature", "bibliografía",
    "bibliografia", "referencias", "referências", "références", "literatur", "literaturverzeichnis",
}
# fmt: on
_APPENDIX = re.compile(r"^(appendix|appendices|supplementary|supplemental)\b", re.IGNORECASE)
_APPENDIX_HEADING = re.compile(r"^(?i:appendix|anexo|anhang|annexe?)\s+([A-Z]|\d{1,2}|[IVX]{1,4})\b[.:]?")
_CAPTION = re.compile(
    r"^(figure|fig\.?|table|tab\.|scheme|algorithm|chart|plate|gráfico|grafico|cuadro|tabla|figura|abbildung"
    r"|tabelle)\s*(s?\d{1,3}[a-z]?|[ivxlc]{1,5})(\s*[.:|—–-]|\s*$)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?:;,\-]$")
_ABSTRACT_RUNIN = re.compile(r"^abstract\s*[—–\-.:]\s*", re.IGNORECASE)
# front-matter blocks that end the abstract and are no section: "KEYWORDS", "Index Terms—...", "CCS CONCEPTS"
# fmt: off
_FRONT = {
    "keywords", "key words", "index terms", "ccs concepts", "acm reference format", "general terms", "highlights",
    "graphical abstract", "author keywords",
}
# fmt: on
_FRONT_RUNIN = re.compile(
    r"^(keywords|key words|index terms|ccs concepts|acm reference format)\s*[—–\-.:]", re.IGNORECASE
)


@dataclass(slots=True)
class _Heading:
    line: _Line
    title: str  # without its number
    printed: str  # as printed, number included
    kind: str  # "abstract", "references", "section", "front" (keywords and the like)
    number: tuple[int, ...] = ()  # (3, 1) for "3.1"; (4,) for "IV."; (100,) for appendix "A"
    scheme: str = ""  # "arabic", "roman", "letter" ("A." under roman sections), "appendix", "" (unnumbered)
    level: int = 1


def _roman(s: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for i, ch in enumerate(s):
        v = values[ch]
        total += -v if i + 1 < len(s) and values[s[i + 1]] > v else v
    return total


def _distinct(ln: _Line, body: float) -> bool:
    """Set apart from body text by its font: bold, larger, or in capitals."""
    return ln.bold_share >= 0.6 or ln.size >= 1.08 * body or ln.caps


def _heading_candidate(ln: _Line, body: float, after_refs: bool) -> _Heading | None:
    text = " ".join(ln.text.split())
    words = text.split()
    if not words or len(words) > 18 or ln.letters < 3 or _CAPTION.match(text):
        return None
    numbered = _numbered_heading(ln, text, body, after_refs)
    if numbered is not None:
        plain_title = normalise_heading(numbered.title).rstrip(":")
        if plain_title in _REFERENCES:
            numbered.kind = "references"
        elif plain_title == "abstract":
            numbered.kind = "abstract"
        return numbered
    plain = normalise_heading(text).rstrip(":")
    if plain in _FRONT and (_distinct(ln, body) or text[:1].isupper()):
        return _Heading(ln, text, text, "front")
    appendix = _APPENDIX_HEADING.match(text)
    if appendix is not None and _distinct(ln, body) and not _SENTENCE_END.search(text) and len(words) <= 15:
        return _Heading(ln, text, text, "section", scheme="appendix")  # "Appendix A. Proofs"
    if plain in _KNOWN or plain in _REFERENCES:
        kind = "abstract" if plain == "abstract" else "references" if plain in _REFERENCES else "section"
        exact = len(words) <= 2 and text[:1].isupper() and text.rstrip(":").lower() in {"abstract", *_REFERENCES}
        if _distinct(ln, body) or exact:
            m = _NUMBERED.match(text)
            title = m.group("title") if m else text
            return _Heading(ln, title.rstrip(":. "), text, kind)
    return None


def _numbered_heading(ln: _Line, text: str, body: float, after_refs: bool) -> _Heading | None:
    m = _NUMBERED.match(text)
    if m is None:
        return None
    title = m.group("title").strip()
    subsection = bool(m.group("arabic") and "." in m.group("arabic"))
    italic = subsection and ln.italic >= 0.6 * ln.n  # "2.1. Piezoresistive effect" in italics (Elsevier)
    if (
        not title[:1].isalpha()
        or not (title[:1].isupper() or not title[:1].isascii())  # "β-multiplier with resistor" is fine
        or _SENTENCE_END.search(title)
        or sum(ch.isdigit() for ch in title) > 0.3 * len(title)
        or not (_distinct(ln, body) or italic)
        or ln.size < 0.95 * body
    ):
        return None
    if m.group("arabic"):
        return _Heading(ln, title, text, "section", tuple(int(x) for x in m.group("arabic").split(".")), "arabic")
    if m.group("roman"):
        return _Heading(ln, title, text, "section", (_roman(m.group("roman")),), "roman")
    letter = m.group("letter")
    sub = tuple(int(x) for x in m.group("lsub").split(".") if x)
    if after_refs:  # appendix "A", "A.1"
        return _Heading(ln, title, text, "section", (100 + ord(letter) - ord("A"), *sub), "appendix")
    if text[len(letter) : len(letter) + 1] == "." and not sub:  # "A. Data": a subsection under roman numbers
        return _Heading(ln, title, text, "section", (ord(letter) - ord("A") + 1,), "letter")
    return None


def _plausible(heads: list[_Heading]) -> list[_Heading]:
    """Numbered headings whose numbers follow each other (a list item "2 Results were ..." set in bold, or a
    table row, breaks the sequence and is dropped); unnumbered ones are kept."""
    out: list[_Heading] = []
    top = 0
    roman = False
    for h in heads:
        if h.scheme in ("", "appendix"):
            out.append(h)
        elif h.scheme == "letter":  # "A. Data" counts only under roman-numbered sections
            if roman:
                h.level = 2
                out.append(h)
        else:
            t = h.number[0]
            if (not top and t <= 2) or (top and ((t == top and len(h.number) > 1) or top < t <= top + 2)):
                top = t
                roman = h.scheme == "roman"
                h.level = len(h.number)
                out.append(h)
    return out


def _join_wrapped(lines: list[_Line], heads: dict[int, _Heading], body: float) -> set[int]:
    """A heading that goes on to the next line in the same font: join the line into the heading. Returns the
    indices of the lines joined (no longer lines of their own)."""
    joined: set[int] = set()
    for i, h in list(heads.items()):
        if h.kind != "section":
            continue
        j = i + 1
        while j < len(lines) and j not in heads and len(h.title.split()) < 18:
            a, b = lines[j - 1], lines[j]
            words = b.text.split()
            if (
                b.page != a.page
                or abs(b.size - h.line.size) > 0.3
                or (b.bold_share >= 0.6) != (h.line.bold_share >= 0.6)
                or (h.line.caps and not b.caps)
                or not _distinct(b, body)
                or a.y0 - b.y0 > 1.8 * h.line.size
                or b.y0 >= a.y0
                or len(words) > 12
                or _SENTENCE_END.search(b.text.strip())
                or _CAPTION.match(b.text.strip())
            ):
                break
            h.title = f"{h.title} {' '.join(words)}"
            h.printed = f"{h.printed} {' '.join(words)}"
            joined.add(j)
            j += 1
    return joined


def _styled_heading(ln: _Line, body: float) -> _Heading | None:
    """In a paper without numbered headings: a short line in bold or a larger font, in capitals or starting with
    a capital, not ending like a sentence."""
    text = " ".join(ln.text.split())
    words = text.split()
    if (
        not words
        or len(words) > 10
        or ln.letters < 4
        or not text[:1].isupper()
        or _SENTENCE_END.search(text)
        or _CAPTION.match(text)
        or ln.size < 0.95 * body
        or not (ln.bold_share >= 0.8 or ln.size >= 1.15 * body)
        or sum(ch.isdigit() for ch in text) > 0.2 * len(text)
    ):
        return None
    return _Heading(ln, text, text, "section")


def _style(h: _Heading) -> tuple[float, bool]:
    return round(h.line.size * 2) / 2, h.line.caps


def _levels_by_style(heads: dict[int, _Heading]) -> None:
    """Levels of unnumbered headings: a known heading ("Results") and any in its font are level 1; other fonts
    rank below it, larger before smaller and capitals before mixed case (at most level 3)."""
    known = {_style(h) for h in heads.values() if h.kind == "section" and _is_known(h.title)}
    others = sorted(
        {_style(h) for h in heads.values() if h.kind == "section"} - known, key=lambda st: (-st[0], not st[1])
    )
    rank = {st: min(3, i + (2 if known else 1)) for i, st in enumerate(others)}
    for h in heads.values():
        if h.kind == "section" and not h.number:
            h.level = 1 if _style(h) in known else rank[_style(h)]


def _is_known(title: str) -> bool:
    return normalise_heading(title).rstrip(":") in _KNOWN


def _find_headings(lines: list[_Line], body: float, title_size: float) -> tuple[dict[int, _Heading], set[int]]:
    """The heading lines (index → heading), and the indices of lines joined into a wrapped heading.

    After the reference list only appendix headings ("A Proofs", "Appendix B", "Supplementary material") and
    known unnumbered ones ("Acknowledgments") count: numbered reference entries in bold are not sections."""
    cands: list[tuple[int, _Heading]] = []
    refs_at: int | None = None
    for i, ln in enumerate(lines):
        h = _heading_candidate(ln, body, refs_at is not None)
        if h is None:
            continue
        if refs_at is not None and (h.kind != "section" or h.scheme in ("arabic", "roman", "letter")):
            continue
        if refs_at is not None and not h.scheme and not _APPENDIX.match(h.title) and ln.size < 0.95 * body:
            continue
        cands.append((i, h))
        if h.kind == "references":
            refs_at = i
    kept_ids = {id(h) for h in _plausible([h for _, h in cands])}
    heads = {i: h for i, h in cands if id(h) in kept_ids}
    if not any(h.scheme in ("arabic", "roman") for h in heads.values()):
        # no numbered headings: a short line in bold or a larger font is one (not the title, not in the
        # front matter when a known heading marks where the paper starts, not in the reference list)
        start = min(heads) if heads else 0
        for i, ln in enumerate(lines):
            if i <= start or i in heads or (refs_at is not None and i > refs_at):
                continue
            if ln.page == lines[0].page and abs(ln.size - title_size) < 0.3:
                continue
            h2 = _styled_heading(ln, body)
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            if nxt is not None and nxt.first_bold and nxt.bold_share < 0.8 and not _distinct(nxt, body):
                continue  # a bold run-in heading that goes on into the next line's text
            if h2 is not None:
                heads[i] = h2
        _levels_by_style(heads)
    joined = _join_wrapped(lines, heads, body)
    return heads, joined


# --------------------------------------------------------------------------------------------------
# Paragraphs


_WORD = re.compile(r"\w(?:[\w\-]*\w)?")


def _vocabulary(lines: Iterable[_Line]) -> set[str]:
    """The document's words (lower case, hyphenated compounds whole), from inside lines: a hyphen that breaks
    a line is resolved by whether the word is spelt with or without it elsewhere in the paper."""
    vocab: set[str] = set()
    for ln in lines:
        words = _WORD.findall(ln.text.lower())
        if ln.text.rstrip().endswith("-") and words:
            words = words[:-1]
        vocab.update(words)
    return vocab


_TAIL = re.compile(r"(\w(?:[\w\-]*\w)?)-$")
_HEAD = re.compile(r"^(\w(?:[\w\-]*\w)?)")


def _dehyphenate(parts: Iterable[str], vocab: set[str] | frozenset[str] = frozenset()) -> str:
    """Join a paragraph's lines with spaces; at a hyphen that ends a line, the word is joined without it when
    the paper spells it so elsewhere ("repre-" + "sentation"), kept with it when the paper spells it with a
    hyphen or it is a compound ("state-of-the-" + "art", "BERT-" + "Base"), and the hyphen stays apart before
    "and"/"or" ("token- and sentence-level")."""
    out = ""
    for part in parts:
        part = " ".join(part.split())
        if not part:
            continue
        if not out:
            out = part
            continue
        tail, head = _TAIL.search(out), _HEAD.match(part)
        if tail is None or head is None or not tail.group(1)[-1].isalpha():
            out = f"{out} {part}"
            continue
        a, b = tail.group(1), head.group(1)
        glued, hyphened = (a + b).lower(), f"{a}-{b}".lower()
        if b.lower() in ("and", "or", "to", "vs", "nor"):
            out = f"{out} {part}"
        elif hyphened in vocab and glued not in vocab:
            out += part
        elif glued in vocab or ("-" not in a and "-" not in b and b[:1].islower()):
            out = out[:-1] + part
        else:
            out += part
    return out


@dataclass(slots=True)
class _Bounds:
    left: float
    right: float


def _percentile(values: Sequence[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(q * (len(s) - 1) + 0.5)))]


def _column_bounds(pages: Sequence[_Page], body: float) -> dict[tuple[int, int], _Bounds]:
    """Left and right edges of each column of each page (10th/90th percentile of its body lines' ends)."""
    out: dict[tuple[int, int], _Bounds] = {}
    for p in pages:
        for col in (0, 1, 2):
            lines = [ln for ln in p.lines if ln.col == col]
            if not lines:
                continue
            long = [ln for ln in lines if len(ln.text) >= 20 and abs(ln.size - body) <= 0.15 * body] or lines
            out[(p.index, col)] = _Bounds(
                _percentile([ln.x0 for ln in long], 0.1), _percentile([ln.x1 for ln in long], 0.9)
            )
    return out


def _line_pitch(lines: Sequence[_Line], body: float) -> float:
    """The usual baseline-to-baseline distance of body text."""
    gaps: Counter[float] = Counter()
    for a, b in zip(lines, lines[1:], strict=False):
        if a.page == b.page and a.col == b.col and abs(a.size - body) < 0.5 and abs(b.size - body) < 0.5:
            d = a.y0 - b.y0
            if 0.9 * body <= d <= 2.5 * body:
                gaps[round(d * 2) / 2] += 1
    return gaps.most_common(1)[0][0] if gaps else 1.2 * body


class _Splitter:
    """Decides where paragraphs end between two consecutive lines."""

    def __init__(self, bounds: dict[tuple[int, int], _Bounds], pitch: float, body: float) -> None:
        self.bounds = bounds
        self.pitch = pitch
        self.body = body

    def bounds_of(self, ln: _Line) -> _Bounds:
        return self.bounds.get((ln.page, ln.col), _Bounds(ln.x0, ln.x1))

    def indented(self, ln: _Line) -> bool:
        off = ln.x0 - self.bounds_of(ln).left
        return 0.7 * ln.size <= off <= 3 * ln.size

    def short(self, ln: _Line) -> bool:
        return self.bounds_of(ln).right - ln.x1 > 2 * ln.size

    def breaks(self, a: _Line, b: _Line) -> bool:
        if abs(a.size - b.size) > 0.1 * max(a.size, b.size):
            return True
        ends = bool(re.search(r"[.!?:)\]\"”]$", a.text.strip()))
        if a.page != b.page or a.col != b.col or b.y0 >= a.y0:  # a column or page break
            return self.indented(b) or (self.short(a) and ends)
        pitch = self.pitch * a.size / self.body
        if a.y0 - b.y0 > 1.35 * pitch:
            return True
        return (self.indented(b) and not self.indented(a)) or (self.short(a) and ends)


# --------------------------------------------------------------------------------------------------
# References


_REF_NUMBER = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.\s|(\d{1,4})\s+(?=[A-Z]))")


def _split_references(lines: Sequence[_Line], splitter: _Splitter, vocab: set[str]) -> list[str]:
    """Reference-list lines → one string per entry: by numbers when the entries are numbered ("[3]", "3."; the
    numbers must count up), else by hanging indentation, else by vertical gaps."""
    if not lines:
        return []
    expected, numbered = 1, []
    for i, ln in enumerate(lines):
        m = _REF_NUMBER.match(ln.text)
        if m is not None and int(next(g for g in m.groups() if g)) == expected:
            numbered.append(i)
            expected += 1
    if len(numbered) >= max(3, len(lines) // 8):
        marks = set(numbered)
        starts = [i in marks for i in range(len(lines))]
    else:
        offsets = [ln.x0 - splitter.bounds_of(ln).left for ln in lines]
        hanging = sum(1 for o, ln in zip(offsets, lines, strict=True) if 0.5 * ln.size <= o <= 4 * ln.size)
        if hanging >= 0.2 * len(lines):
            starts = [o < 0.3 * ln.size for o, ln in zip(offsets, lines, strict=True)]
        else:
            pitch = _line_pitch(lines, Counter(ln.size for ln in lines).most_common(1)[0][0])
            starts = [True] + [
                (a.page == b.page and a.col == b.col and a.y0 - b.y0 > 1.3 * pitch)
                or ((a.page != b.page or a.col != b.col) and a.text.rstrip().endswith("."))
                for a, b in zip(lines, lines[1:], strict=False)
            ]
    entries: list[list[str]] = []
    for ln, start in zip(lines, starts, strict=True):
        if start or not entries:
            entries.append([ln.text])
        else:
            entries[-1].append(ln.text)
    out = [_dehyphenate(e, vocab) for e in entries]
    return [e for e in out if len(e) >= 10]


# --------------------------------------------------------------------------------------------------
# The paper


def _title_lines(pages: Sequence[_Page]) -> list[_Line]:
    """The title: the largest lines of two words or more in the top 60 % of the first page with such lines
    (consecutive, at most two line pitches apart)."""
    for p in pages[:2]:
        h = p.y1 - p.y0
        cands = [ln for ln in p.lines if len(ln.text.split()) >= 2 and ln.letters >= 4 and ln.y1 >= p.y0 + 0.4 * h]
        if not cands:
            continue
        top = max(ln.size for ln in cands)
        picked: list[_Line] = []
        for ln in p.lines:
            if abs(ln.size - top) <= 0.3 and ln.y1 >= p.y0 + 0.4 * h:
                if picked and picked[-1].y0 - ln.y0 > 2.2 * top:
                    break
                picked.append(ln)
            elif picked:
                break
        return picked
    return []


@dataclass
class _Regions:
    """The lines of a paper sorted into its parts, as paragraphs of lines."""

    front: list[list[_Line]] = field(default_factory=list)
    abstract: list[list[_Line]] = field(default_factory=list)
    sections: list[tuple[list[str], SectionType, list[_Line]]] = field(default_factory=list)  # lines, unsplit
    captions: list[list[_Line]] = field(default_factory=list)
    references: list[_Line] = field(default_factory=list)
    abstract_how: str = ""  # "heading", "run-in", "first paragraph" or ""


def _regions(
    lines: list[_Line],
    heads: dict[int, _Heading],
    joined: set[int],
    title: Sequence[_Line],
    body: float,
    splitter: _Splitter,
) -> _Regions:
    out = _Regions()
    stack: list[tuple[int, str, SectionType]] = []  # (level, title, type) of the open sections
    region = "front"  # front, abstract, runin (a run-in abstract), body, references
    para: list[_Line] | None = None
    caption: list[_Line] | None = None
    title_ids = {id(ln) for ln in title}
    after_refs = False
    has_abstract_heading = any(h.kind == "abstract" for h in heads.values())

    def add(dest: list[list[_Line]], ln: _Line) -> None:
        nonlocal para
        if para is None or splitter.breaks(para[-1], ln):
            para = [ln]
            dest.append(para)
        else:
            para.append(ln)

    for i, ln in enumerate(lines):
        if i in joined or id(ln) in title_ids:
            continue
        h = heads.get(i)
        if h is not None:
            para = caption = None
            if h.kind == "abstract":
                region = "abstract"
                out.abstract_how = "heading"
            elif h.kind == "front":
                region = "front"
            elif h.kind == "references":
                region = "references"
                after_refs = True
                stack.clear()
            else:
                region = "body"
                while stack and stack[-1][0] >= h.level:
                    stack.pop()
                parent = stack[-1][2] if stack else None
                appendix = h.scheme == "appendix" or _APPENDIX.match(h.title) is not None
                kind: SectionType = (
                    "other" if appendix or (parent == "other" and after_refs) else section_type(h.title, parent=parent)
                )
                stack.append((h.level, h.title, kind))
                out.sections.append(([t for _, t, _ in stack], kind, []))
            continue
        text = ln.text.strip()
        if region == "references":
            out.references.append(ln)
            continue
        if caption is not None and not splitter.breaks(caption[-1], ln) and not _CAPTION.match(text):
            caption.append(ln)
            continue
        caption = None
        if _CAPTION.match(text):
            caption = [ln]
            out.captions.append(caption)
            para = None
            continue
        if region == "front":
            if not has_abstract_heading and not out.abstract_how and _ABSTRACT_RUNIN.match(text):
                region, out.abstract_how = "runin", "run-in"
                ln.text = _ABSTRACT_RUNIN.sub("", text)
                para = [ln]
                out.abstract.append(para)
            else:
                add(out.front, ln)
            continue
        if region == "runin":
            if para is not None and (splitter.breaks(para[-1], ln) or _FRONT_RUNIN.match(text)):  # one paragraph
                region, para = "front", None
                add(out.front, ln)
            else:
                add(out.abstract, ln)
            continue
        if region == "abstract":
            if _FRONT_RUNIN.match(text):  # "Keywords: ..." after the abstract
                region, para = "front", None
                add(out.front, ln)
            else:
                add(out.abstract, ln)
            continue
        if out.sections:
            out.sections[-1][2].append(ln)
    return out


def _section_paragraphs(lines: Sequence[_Line], splitter: _Splitter) -> list[list[_Line]]:
    """A section's lines → paragraphs, in the section's own text size only: smaller lines (footnotes, table
    cells, figure labels) are left out, and a paragraph goes on around them. The size is the section's most
    common one, as some journals set whole sections (methods) smaller than the rest."""
    sizes: Counter[float] = Counter()
    for ln in lines:
        sizes[round(ln.size * 2) / 2] += ln.n
    if not sizes:
        return []
    size = sizes.most_common(1)[0][0]
    paras: list[list[_Line]] = []
    for ln in lines:
        if ln.size < 0.9 * size:
            continue
        if paras and not splitter.breaks(paras[-1][-1], ln):
            paras[-1].append(ln)
        else:
            paras.append([ln])
    return paras


def _text(paragraphs: Iterable[list[_Line]], vocab: set[str]) -> tuple[tuple[str, ...], ...]:
    out = []
    for para in paragraphs:
        sentences = tuple(split_sentences(_dehyphenate((ln.text for ln in para), vocab)))
        if sentences:
            out.append(sentences)
    return tuple(out)


def _is_prose(sentences: Sequence[str]) -> bool:
    """A paragraph of words, not a column of numbers from a table."""
    text = " ".join(sentences)
    letters = sum(ch.isalpha() for ch in text)
    return letters >= 0.5 * len(text.replace(" ", "")) and len(text.split()) >= 3


def parse(data: bytes, paper_id: str, where: str) -> Paper:
    """Read a PDF (its bytes) into a :class:`Paper`; ``where`` names the file in errors and in ``Paper.ref``.

    Raises :class:`PaperError` with reason ``unreadable_pdf``, ``no_text_layer`` or ``no_sections``."""
    try:
        return _parse(data, paper_id, where)
    except PaperError:
        raise
    except RecursionError as e:
        raise PaperError("unreadable_pdf", f"{where}: nested too deeply ({e})") from e
    except Exception as e:  # a pdfminer failure this module did not foresee: still a reject, not a crash
        raise PaperError("unreadable_pdf", f"{where}: {type(e).__name__}: {e}") from e


def _parse(data: bytes, paper_id: str, where: str) -> Paper:
    doc = _open(data, where)
    pages, failed, glyphs, images = _read_pages(doc, where)
    if glyphs < 25 * len(pages):
        raise PaperError(
            "no_text_layer",
            f"{where}: {len(pages)} page(s) with {glyphs} glyphs of text and {images} image(s) in all: "
            "a scan without OCR?",
        )
    body = _body_size(pages)
    dropped = _drop_headers_footers(pages)
    lines = [ln for p in pages for ln in p.lines]
    title = _title_lines(pages)
    heads, joined = _find_headings(lines, body, title[0].size if title else 0.0)
    if not any(h.kind == "section" for h in heads.values()):
        raise PaperError("no_sections", f"{where}: no section heading found in {len(pages)} page(s) of text")
    vocab = _vocabulary(lines)
    splitter = _Splitter(_column_bounds(pages, body), _line_pitch(lines, body), body)
    reg = _regions(lines, heads, joined, title, body, splitter)

    sections = [
        Section(
            heading=" / ".join(path),
            type=kind,
            paragraphs=tuple(p for p in _text(_section_paragraphs(sec_lines, splitter), vocab) if _is_prose(p)),
        )
        for path, kind, sec_lines in reg.sections
    ]
    abstract = _text(reg.abstract, vocab)
    untitled = False
    if not reg.abstract_how:
        # no "Abstract": the first long paragraph after the title is the abstract, and body-sized prose after it
        # (before the first heading) an untitled first section: an introduction printed without a heading
        front = _text(reg.front, vocab)
        sizes = [Counter(ln.size for ln in para).most_common(1)[0][0] for para in reg.front]
        for k, para_text in enumerate(front):
            if sum(len(s.split()) for s in para_text) >= 40:
                abstract = (para_text,)
                reg.abstract_how = "first paragraph"
                rest = tuple(
                    p
                    for p, size in zip(front[k + 1 :], sizes[k + 1 :], strict=False)
                    if abs(size - body) <= 0.1 * body and _is_prose(p)
                )
                if rest:
                    sections.insert(0, Section(heading="", type="introduction", paragraphs=rest))
                    untitled = True
                break
    meta: dict[str, Any] = {
        "pages": len(pages),
        "pages_failed": failed,
        "two_column_pages": sum(1 for p in pages if p.two_column),
        "body_font_size": body,
        "headers_footers_dropped": dropped,
        "abstract_found_by": reg.abstract_how,
        "untitled_first_section": untitled,
        "headings_as_printed": [heads[i].printed for i in sorted(heads) if heads[i].kind == "section"],
    }
    return Paper(
        id=paper_id,
        title=_dehyphenate((ln.text for ln in title), vocab),
        abstract=abstract,
        sections=tuple(sections),
        captions=tuple(c for c in (_dehyphenate((ln.text for ln in cap), vocab) for cap in reg.captions) if c),
        references=tuple(_split_references(reg.references, splitter, vocab)),
        format=FORMAT,
        ref=SourceRef(dataset=FORMAT, path=where, line=None, item_id=paper_id),
        meta=meta,
    )
