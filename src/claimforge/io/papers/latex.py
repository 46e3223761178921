"""LaTeX sources (arXiv's) → :class:`claimforge.records.Paper`, with a small LaTeX reader of its own.

Input: arXiv's source download, which is a gzip of a tar of the source files or a gzip of the single ``.tex``
file; a plain tar (also compressed: ``.tar.gz``, ``.tar.bz2``, ``.tar.xz``) or a plain ``.tex`` file is read too.
The main file is the ``.tex`` with an uncommented ``\\documentclass`` and ``\\begin{document}`` (the largest, if
several); ``\\input``/``\\include``/``\\subfile`` files are inlined (relative to the main file, ``.tex`` added
when missing; missing ones are listed in ``Paper.meta["missing_inputs"]``).

No LaTeX library is used: pylatexenc (MIT) converts LaTeX to text well, but it knows nothing of the parts of a
paper (abstract, sections, floats, bibliography), so that code would have to be written here anyway, and what
it adds on top (macro expansion, accents, symbols) is short. The reader:

* strips comments (``%`` to the end of the line; a line holding only a comment is gone, so it does not end a
  paragraph), ``\\iffalse ... \\fi`` and ``comment`` environments;
* expands the paper's own macros (``\\newcommand``, ``\\renewcommand``, ``\\providecommand``,
  ``\\DeclareRobustCommand``, ``\\def``, with arguments and an optional default), so ``\\ours`` becomes
  "SciFact" and not nothing;
* takes ``\\title``, the ``abstract`` environment (or ``\\abstract{...}``), and ``\\section``,
  ``\\subsection``, ``\\subsubsection`` (starred too; ``\\chapter`` as the level above) as sections, the heading
  path joined with " / " ("Constructing the corpus / Processing PDFs"); sections after ``\\appendix`` are
  appendices, typed ``other``; text between the abstract and the first section, if any, is an untitled
  first section typed ``introduction`` (as in :mod:`.pdf`);
* splits paragraphs on blank lines and ``\\par``; each list ``\\item`` is a paragraph; ``\\paragraph{Title}``
  starts a paragraph "Title. ...";
* removes ``\\cite``-like commands (natbib's ``\\citet``/``\\citeauthor`` become "Lo et al. (2020)" / "Lo et
  al." when the ``.bbl`` gives the label), ``\\ref``-like commands, ``\\label``, footnotes, ``\\thanks``, and
  layout commands with their arguments (``\\vspace``, ``\\includegraphics``, ...); formatting commands are
  unwrapped (``\\emph{x}``, ``\\textbf{x}``, ``{\\bf x}`` → x), TeX accents and symbols become Unicode
  (``\\'e`` → é, ``--`` → –, ``\\%`` → %); an unknown command is dropped and its arguments kept;
* **math**: display math (``equation``, ``align``, ``\\[...\\]``, ``$$...$$``, ...) is dropped; inline math is
  kept as plain text when it is short (at most 30 characters once rendered) and made only of letters, digits,
  operators and known symbols ("$p < 0.05$" → "p < 0.05", "$\\alpha$" → "α", "$10^{-3}$" → "10^-3",
  "$F_1$" → "F1"), and dropped otherwise (fractions, sums, unknown macros): no placeholder is left;
* puts each ``\\caption`` of a ``figure``/``table`` (starred, wrapped, sideways, ``algorithm``, ``longtable``)
  into ``Paper.captions`` (without "Figure N:", which LaTeX adds when it typesets) and drops the rest of the
  float; tables, code and pictures outside floats are dropped too;
* reads the references from a ``thebibliography`` environment, else from the ``.bbl`` file (named like the
  ``\\bibliography`` argument or the main file, or the only one): one string per ``\\bibitem``; a biblatex
  ``.bbl`` (``\\entry``) gives "Authors. Year. Title. Venue.".

Errors (:class:`~claimforge.io.papers.PaperError`): ``unreadable_archive`` (a broken gzip or tar),
``not_latex`` (no ``.tex`` file in the archive, or binary data), ``no_document`` (no ``\\documentclass`` with
``\\begin{document}``), ``no_sections`` (a document without any ``\\section``), ``macro_expansion_limit`` (more
than 100,000 macro expansions: a macro that expands to itself).
"""

from __future__ import annotations

import io
import posixpath
import re
import tarfile
import unicodedata
import zlib
from dataclasses import dataclass, field
from typing import Any

from claimforge.io.papers import PaperError
from claimforge.io.papers.sections import section_type
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Paper, Section, SectionType, SourceRef

__all__ = ["parse"]

FORMAT = "latex"

_MAX_UNPACKED = 256 * 1024 * 1024  # an archive that unpacks to more is refused (a gzip bomb)
_MAX_MEMBER = 32 * 1024 * 1024  # source files larger than this are skipped
_MAX_EXPANSIONS = 100_000  # macro expansions per paper (real papers need a few thousand)
_SOURCE_EXT = (".tex", ".ltx", ".latex", ".bbl")
_PAR = "\ue002"  # paragraph break while text is converted (Unicode private use: never in sources)

# --------------------------------------------------------------------------------------------------
# Input: gzip, tar, tex


def _decompress(data: bytes, where: str) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out = d.decompress(data, _MAX_UNPACKED + 1)
    except (zlib.error, EOFError, OSError) as e:
        raise PaperError("unreadable_archive", f"{where}: broken gzip ({e})") from e
    if len(out) > _MAX_UNPACKED:
        raise PaperError("unreadable_archive", f"{where}: unpacks to more than {_MAX_UNPACKED >> 20} MiB")
    if not d.eof:
        raise PaperError("unreadable_archive", f"{where}: truncated gzip")
    return out


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _is_text(raw: bytes) -> bool:
    head = raw[:4096]
    if b"\x00" in head:
        return False
    text = _decode(head)
    bad = sum(1 for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\n\r\t\f")
    return bad <= 0.01 * max(1, len(text))


def _files(data: bytes, where: str) -> dict[str, str]:
    """The source files: name → text (a single file is named ``main.tex``)."""
    raw = _decompress(bytes(data), where)
    is_tar = len(raw) >= 512 and raw[257:262] == b"ustar"
    if not is_tar and raw[:3] in (b"BZh", b"\xfd7z"):  # a bzip2 / xz tar
        is_tar = True
    if is_tar:
        if raw[257:262] == b"ustar" and len(raw) % 512:  # tar files are whole 512-byte blocks
            raise PaperError("unreadable_archive", f"{where}: truncated tar ({len(raw)} bytes)")
        try:
            with tarfile.open(fileobj=io.BytesIO(raw), mode="r:*") as tar:
                files: dict[str, str] = {}
                total = 0
                for m in tar.getmembers():
                    name = posixpath.normpath(m.name.lstrip("/"))
                    base = posixpath.basename(name)
                    if not m.isfile() or base.startswith("._") or "__MACOSX" in name:
                        continue
                    if not name.lower().endswith(_SOURCE_EXT) or m.size > _MAX_MEMBER:
                        continue
                    total += m.size
                    if total > _MAX_UNPACKED:
                        raise PaperError("unreadable_archive", f"{where}: sources larger than the limit")
                    f = tar.extractfile(m)
                    if f is not None:
                        files[name] = _decode(f.read())
        except PaperError:
            raise
        except (tarfile.TarError, EOFError, OSError, zlib.error) as e:
            raise PaperError("unreadable_archive", f"{where}: broken tar ({e})") from e
        if not any(n.lower().endswith((".tex", ".ltx", ".latex")) for n in files):
            raise PaperError("not_latex", f"{where}: no .tex file in the archive")
        return files
    if not _is_text(raw):
        raise PaperError("not_latex", f"{where}: neither a tar, a gzip of LaTeX nor a .tex file (binary data)")
    return {"main.tex": _decode(raw)}


# --------------------------------------------------------------------------------------------------
# Comments, inputs, the main file


def _strip_comments(text: str) -> str:
    """``%`` comments removed; a line that held only a comment is removed whole (it does not make a blank
    line); ``\\iffalse ... \\fi`` blocks and ``comment`` environments removed."""
    out = []
    for line in text.splitlines():
        cut = _comment_at(line)
        if cut is None:
            out.append(line)
        elif line[:cut].strip():
            out.append(line[:cut])
        # else: a comment line: gone
    text = "\n".join(out)
    text = re.sub(r"\\begin\{comment\}.*?\\end\{comment\}", "", text, flags=re.DOTALL)
    return re.sub(r"\\iffalse\b.*?\\fi\b", "", text, flags=re.DOTALL)


def _comment_at(line: str) -> int | None:
    i = line.find("%")
    while i >= 0:
        k = i - 1
        while k >= 0 and line[k] == "\\":
            k -= 1
        if (i - 1 - k) % 2 == 0:  # an even number of backslashes before it: a comment
            return i
        i = line.find("%", i + 1)
    return None


_INPUT = re.compile(r"\\(?:input|include|subfile)(?![A-Za-z])\s*(?:\{([^}]*)\}|([^\s{}\\]+))")


def _resolve(name: str, base: str, files: dict[str, str]) -> str | None:
    name = name.strip().strip('"')
    for cand in (posixpath.join(base, name), name):
        cand = posixpath.normpath(cand)
        for c in (cand, cand + ".tex"):
            if c in files:
                return c
    return None


def _inline(
    name: str, files: dict[str, str], missing: list[str], depth: int = 0, seen: frozenset[str] = frozenset()
) -> str:
    text = _strip_comments(files[name])
    base = posixpath.dirname(name)

    def sub(m: re.Match[str]) -> str:
        target = (m.group(1) or m.group(2) or "").strip()
        path = _resolve(target, base, files)
        if path is None or path.endswith(".bbl"):
            if path is None and not target.endswith((".sty", ".cls", ".bst", ".tikz", ".pgf")):
                missing.append(target)
            return ""
        if path in seen or depth >= 12:
            return ""
        return "\n" + _inline(path, files, missing, depth + 1, seen | {name}) + "\n"

    return _INPUT.sub(sub, text)


def _main_file(files: dict[str, str], where: str) -> str:
    cands = []
    for name, text in files.items():
        if not name.lower().endswith((".tex", ".ltx", ".latex")):
            continue
        stripped = _strip_comments(text)
        if "\\documentclass" in stripped or "\\documentstyle" in stripped:
            cands.append((("\\begin{document}" in stripped), len(stripped), name))
    if not cands:
        raise PaperError("no_document", f"{where}: no .tex file with \\documentclass")
    cands.sort(reverse=True)
    return cands[0][2]


# --------------------------------------------------------------------------------------------------
# Brace-aware reading


def _group_end(s: str, i: int) -> int:
    """``s[i] == "{"``: the index after its matching ``}`` (or the end of the text)."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _skip_space(s: str, i: int) -> int:
    n = len(s)
    while i < n and s[i] in " \t\n\r":
        i += 1
    return i


def _arg(s: str, i: int) -> tuple[str, int]:
    """A required argument at ``i`` (spaces skipped): a ``{group}``'s content, a control sequence, or one
    character."""
    i = _skip_space(s, i)
    if i >= len(s):
        return "", i
    if s[i] == "{":
        end = _group_end(s, i)
        return s[i + 1 : end - 1], end
    if s[i] == "\\":
        m = re.compile(r"\\([A-Za-z@]+|.)").match(s, i)
        if m:
            return m.group(0), m.end()
    return s[i], i + 1


def _opt(s: str, i: int) -> tuple[str | None, int]:
    """An optional ``[argument]`` at ``i`` (spaces skipped), or None."""
    j = _skip_space(s, i)
    if j >= len(s) or s[j] != "[":
        return None, i
    depth, k = 0, j
    while k < len(s):
        c = s[k]
        if c == "\\":
            k += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "]" and depth == 0:
            return s[j + 1 : k], k + 1
        k += 1
    return None, i


def _env_end(s: str, i: int, name: str) -> tuple[int, int]:
    """From ``i`` (after ``\\begin{name}``): (start of the matching ``\\end{name}``, index after it)."""
    pat = re.compile(r"\\(begin|end)\s*\{" + re.escape(name) + r"\}")
    depth = 1
    for m in pat.finditer(s, i):
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            return m.start(), m.end()
    return len(s), len(s)


# --------------------------------------------------------------------------------------------------
# Macros


@dataclass(slots=True)
class _Macro:
    nargs: int = 0
    default: str | None = None  # the default of an optional first argument
    body: str = ""


# fmt: off
_PROTECTED = {
    "begin", "end", "section", "subsection", "subsubsection", "chapter", "paragraph", "caption", "cite", "citep",
    "citet", "ref", "label", "item", "input", "include", "bibliography", "footnote", "title", "author", "appendix",
    "par", "emph", "textbf", "textit", "url", "href", "bibitem", "newblock", "maketitle", "abstract",
}
# fmt: on
_DEF_START = re.compile(r"\\(?:newcommand|renewcommand|providecommand|DeclareRobustCommand)\*?|\\[gex]?def(?![A-Za-z])")


def _collect_macros(text: str) -> tuple[dict[str, _Macro], str]:
    """The macro definitions of a source, and the source without them."""
    macros: dict[str, _Macro] = {}
    out: list[str] = []
    pos = 0
    for m in _DEF_START.finditer(text):
        if m.start() < pos:
            continue
        i = m.end()
        try:
            if m.group(0).endswith("def"):
                nm = re.compile(r"\s*\\([A-Za-z@]+)").match(text, i)
                if nm is None:
                    continue
                name, i = nm.group(1), nm.end()
                params_end = text.find("{", i)
                if params_end < 0 or params_end - i > 40:
                    continue
                nargs = text[i:params_end].count("#")
                body, i = _arg(text, params_end)
                macro = _Macro(nargs, None, body)
            else:
                raw_name, i = _arg(text, i)
                name = raw_name.strip().lstrip("\\")
                if not re.fullmatch(r"[A-Za-z@]+", name):
                    continue
                n_str, i = _opt(text, i)
                default, i = _opt(text, i)
                body, i = _arg(text, i)
                nargs = int(n_str) if n_str and n_str.strip().isdigit() else 0
                macro = _Macro(nargs, default, body)
        except (ValueError, IndexError):
            continue
        out.append(text[pos : m.start()])
        pos = i
        if name not in _PROTECTED and not (m.group(0).startswith("\\provide") and name in macros):
            macros[name] = macro
    out.append(text[pos:])
    return macros, "".join(out)


# --------------------------------------------------------------------------------------------------
# LaTeX → text

# fmt: off
_ACCENT_MARKS = {
    "'": "\u0301", "`": "\u0300",
    '"': "\u0308",
    "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306",
    "H": "\u030b", "r": "\u030a", "k": "\u0328", "d": "\u0323", "b": "\u0331",
}
_SYMBOLS = {
    "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", " ": " ", ",": " ", ";": " ", ":": " ",
    "!": "", "/": "", "-": "", "@": "", "ldots": "…", "dots": "…", "textellipsis": "…", "S": "§", "P": "¶",
    "textendash": "–", "textemdash": "—", "textasciitilde": "~", "textbackslash": "\\", "textbar": "|",
    "textless": "<", "textgreater": ">", "textdegree": "°", "texttimes": "×", "textregistered": "®",
    "texttrademark": "™", "copyright": "©", "pounds": "£", "euro": "€", "textquotedblleft": "“",
    "textquotedblright": "”", "textquoteleft": "‘", "textquoteright": "’", "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ",
    "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "LaTeX": "LaTeX",
    "TeX": "TeX", "LaTeXe": "LaTeX2e", "BibTeX": "BibTeX", "checkmark": "✓", "cmark": "✓", "xmark": "✗", "dag": "†",
    "ddag": "‡", "textdagger": "†", "textdaggerdbl": "‡", "textbullet": "•", "textpm": "±", "textmu": "µ",
    "textperthousand": "‰", "textsection": "§", "slash": "/", "nobreakdash": "", "newline": " ", "linebreak": " ",
    "break": " ", "quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ", "hfill": " ", "hfil": " ",
    "vfill": " ", "indent": "", "noindent": "", "xspace": "", "relax": "", "protect": "", "centering": "",
    "raggedright": "", "raggedleft": "", "maketitle": "", "clearpage": "", "newpage": "", "pagebreak": "",
    "nopagebreak": "", "smallskip": "", "medskip": "", "bigskip": "", "today": "", "tableofcontents": "",
    "footnotemark": "", "and": ", ", "AND": ", ", "unskip": "", "ignorespaces": "", "normalsize": "", "small": "",
    "footnotesize": "", "scriptsize": "", "tiny": "", "large": "", "Large": "", "LARGE": "", "huge": "", "Huge": "",
    "bf": "", "it": "", "em": "", "sc": "", "rm": "", "tt": "", "sf": "", "sl": "", "bfseries": "", "itshape": "",
    "scshape": "", "ttfamily": "", "rmfamily": "", "sffamily": "", "mdseries": "", "upshape": "", "normalfont": "",
    "selectfont": "", "sloppy": "", "frenchspacing": "", "onecolumn": "", "twocolumn": "", "bibliographystyle": "",
    "hline": "", "toprule": "", "midrule": "", "bottomrule": "", "printbibliography": "", "leavevmode": "",
    "strut": "", "null": "", "nolinkurl": "", "titlebox": "", "aclfinalcopy": "", "appendix": "", "ast": "*",
}
_MATH_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "times": "×", "pm": "±", "mp": "∓", "cdot": "·",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~", "simeq": "≃",
    "equiv": "≡", "propto": "∝", "to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒",
    "leftrightarrow": "↔", "infty": "∞", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪",
    "cap": "∩", "circ": "°", "degree": "°", "prime": "′", "ell": "ℓ", "partial": "∂", "nabla": "∇", "ll": "≪",
    "gg": "≫", "uparrow": "↑", "downarrow": "↓", "mid": "|", "vert": "|", "star": "*", "ast": "*", "dagger": "†",
    "ddagger": "‡", "sharp": "#", "%": "%", "{": "{", "}": "}", "_": "_", "&": "&", "#": "#", "$": "$", ",": " ",
    ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ", "left": "", "right": "", "big": "", "Big": "",
    "bigl": "", "bigr": "", "Bigl": "", "Bigr": "", "displaystyle": "", "textstyle": "", "ldots": "…", "cdots": "…",
    "dots": "…", "neg": "¬", "land": "∧", "lor": "∨", "forall": "∀", "exists": "∃", "emptyset": "∅",
    "varnothing": "∅", "log": "log", "ln": "ln", "exp": "exp", "max": "max", "min": "min", "sin": "sin",
    "cos": "cos", "lim": "lim", "arg": "arg", "det": "det", "xspace": "", "relax": "", "cdotp": "·", "colon": ":",
    "backslash": "\\", "lvert": "|", "rvert": "|", "langle": "⟨", "rangle": "⟩", "surd": "√", "bullet": "•",
    "triangle": "△", "sum": "Σ", "prod": "Π",
}
_MATH_UNWRAP = {
    "mathrm", "text", "textrm", "mathbf", "mathit", "mathsf", "mathtt", "mathcal", "mathbb", "mathnormal",
    "boldsymbol", "bm", "operatorname", "textit", "textbf", "mbox", "textsc", "texttt", "emph", "mathscr",
    "mathfrak", "textnormal", "hbox", "bold", "pmb", "textup",
}
# commands dropped with their arguments: name → (optional args, required args)
_DROP: dict[str, tuple[int, int]] = {
    **{
        n: (1, 1)
        for n in (
            "cite", "citep", "citealp", "citealt", "citenum", "parencite", "autocite", "footcite", "supercite",
            "nocite", "cite*", "citep*", "citealp*", "Cite", "Citep", "smartcite", "citeA", "citeN", "shortcite",
            "textcite", "Textcite", "footfullcite", "fullcite",
        )
    },
    **{
        n: (0, 1)
        for n in (
            "ref", "eqref", "autoref", "cref", "Cref", "pageref", "label", "vref", "Vref", "nameref", "autoref*",
            "cref*", "Cref*", "crefrange", "subref", "hyperlink", "hypertarget", "vspace", "vspace*", "hspace",
            "hspace*", "vskip", "pagestyle", "thispagestyle", "bibliography", "bibliographystyle", "addbibresource",
            "usepackage", "RequirePackage", "documentclass", "color", "pagecolor", "includegraphics", "includepdf",
            "input", "include", "date", "author", "affiliation", "affil", "address", "institute", "institution",
            "email", "keywords", "thanks", "Thanks", "footnote", "footnotetext", "tnote", "orcid", "ead", "corref",
            "fnref", "acmConference", "acmYear", "acmDOI", "acmISBN", "acmPrice", "setcopyright", "copyrightyear",
            "ccsdesc", "settopmatter", "acmJournal", "acmVolume", "acmNumber", "acmArticle", "acmMonth",
            "numberwithin", "theoremstyle", "lstset", "lstdefinelanguage", "lstdefinestyle", "newtheorem",
            "newtheorem*", "DeclareMathOperator", "DeclareMathOperator*", "captionsetup", "graphicspath",
            "hypersetup", "urlstyle", "setcitestyle", "bibpunct", "geometry", "titlespacing", "titleformat",
            "pgfplotsset", "tikzset", "usetikzlibrary", "newcounter", "stepcounter", "refstepcounter", "newlength",
            "special", "phantom", "hphantom", "vphantom", "rule", "linespread", "let", "fancyhead", "fancyfoot",
            "markboth", "markright", "icmltitlerunning", "icmlsetsymbol", "icmlaffiliation",
            "icmlcorrespondingauthor", "icmlkeywords", "runningtitle", "runningauthor", "shorttitle", "shortauthors",
            "headheight", "titlerunning", "authorrunning", "ExecuteOptions", "PassOptionsToPackage", "newif",
            "setuptodonotes", "todo", "subjclass", "dedicatory", "received", "accepted", "editor", "twocolumn*",
            "makeatletter", "makeatother", "bibliographystyle*", "notoc",
        )
    },
    **{
        n: (0, 2)
        for n in (
            "setlength", "addtolength", "setcounter", "addtocounter", "settowidth", "newcolumntype", "crefname",
            "Crefname", "AtBeginEnvironment", "fontsize", "colorlet",
        )
    },
    "definecolor": (0, 3), "vskip": (0, 0), "hskip": (0, 0),
}
# commands whose argument ``index`` (0-based, among ``total`` required ones) is kept as text
_KEEP: dict[str, tuple[int, int]] = {
    **{
        n: (0, 1)
        for n in (
            "emph", "textbf", "textit", "texttt", "textsc", "textrm", "textsf", "textsl", "textup", "textnormal",
            "textmd", "underline", "uline", "mbox", "makebox", "fbox", "framebox", "text", "hbox", "natexlab", "url",
            "path", "nolinkurl", "enquote", "mkbibquote", "textls", "textsubscript", "textsuperscript", "uppercase",
            "lowercase", "MakeUppercase", "MakeLowercase", "textmc", "sout", "st", "hl", "ul", "so", "mathrm",
            "mathbf", "mathit", "boldsymbol", "bm", "ensuremath", "centerline", "leftline", "rightline", "smash",
            "textnhtt", "small", "footnotesize", "bibinfo", "bibfield", "BibitemOpen", "bibitemopen", "citename",
            "urlprefix", "doi", "eprint", "Acronym", "acrshort", "acrlong", "acrfull", "ac", "acs", "acl", "acf",
            "gls", "Gls", "glspl",
        )
    },
    **{n: (1, 2) for n in ("href", "textcolor", "colorbox", "foreignlanguage", "raisebox", "scalebox")},
    "fcolorbox": (2, 3), "resizebox": (2, 3), "resizebox*": (2, 3), "rotatebox": (1, 2), "texorpdfstring": (0, 2),
    "parbox": (1, 2), "IfFileExists": (1, 3),
}
_CITE_TEXT = {
    "citet", "citet*", "Citet", "citeauthor", "citeauthor*", "Citeauthor", "citeyear", "citeyearpar", "citealt",
}
_DISPLAY_MATH = {
    "equation", "equation*", "align", "align*", "alignat", "alignat*", "gather", "gather*", "multline", "multline*",
    "eqnarray", "eqnarray*", "displaymath", "math", "flalign", "flalign*", "split", "subequations", "dmath",
    "dmath*", "array", "cases", "IEEEeqnarray", "IEEEeqnarray*",
}
_DROP_ENVS = _DISPLAY_MATH | {
    "tabular", "tabular*", "tabularx", "tabulary", "tabu", "verbatim", "verbatim*", "Verbatim", "lstlisting",
    "minted", "comment", "tikzpicture", "pgfpicture", "picture", "algorithmic", "filecontents", "filecontents*",
    "thebibliography", "abstract", "titlepage", "CCSXML", "keywords", "IEEEkeywords", "axis", "forest", "dependency",
    "tablenotes", "code", "spverbatim",
}
_FLOAT_ENVS = {
    "figure", "figure*", "table", "table*", "wrapfigure", "wraptable", "SCfigure", "SCtable", "sidewaysfigure",
    "sidewaystable", "algorithm", "algorithm*", "longtable", "subfigure", "subtable", "listing", "floatrow",
    "figwindow", "margintable", "marginfigure", "threeparttable", "sidewaysfigure*", "sidewaystable*", "wrapfig",
    "supertabular", "xtabular",
}
_LIST_ENVS = {
    "itemize", "enumerate", "description", "compactitem", "compactenum", "inparaenum", "asparaenum", "itemize*",
    "enumerate*", "description*", "outline", "list", "tasks",
}
# environments whose arguments come before the content: name → (optional, required)
_ENV_ARGS: dict[str, tuple[int, int]] = {
    "minipage": (1, 1), "multicols": (0, 1), "multicols*": (0, 1), "wrapfigure": (2, 2), "wraptable": (2, 2),
    "list": (0, 2), "tcolorbox": (1, 0), "adjustbox": (0, 1), "subfigure": (1, 1), "subtable": (1, 1),
    "spacing": (0, 1), "otherlanguage": (0, 1), "tabularx": (0, 2), "tabular": (1, 1), "longtable": (1, 1),
}
_SECTION_CMDS = {"part": 0, "chapter": 0, "section": 1, "subsection": 2, "subsubsection": 3}


# fmt: on
class _Converter:
    """LaTeX → text for one document: expands its macros, collects captions, knows its citation labels."""

    def __init__(self, macros: dict[str, _Macro], cite_labels: dict[str, tuple[str, str]]) -> None:
        self.macros = macros
        self.cite_labels = cite_labels  # key → (authors, year) from natbib \bibitem labels
        self.captions: list[str] = []
        self.dropped_math = 0
        self.kept_math = 0
        self.expansions = 0  # macro expansions so far: a self-doubling macro would otherwise never end

    # -- text mode --------------------------------------------------------------------------------

    def text(self, s: str, depth: int = 0) -> str:
        """``s`` as text; paragraph breaks are :data:`_PAR`."""
        out: list[str] = []
        i, n = 0, len(s)
        while i < n:
            c = s[i]
            if c == "\\":
                i = self._command(s, i, out, depth)
            elif c in "{}":
                i += 1
            elif c == "$":
                if s.startswith("$$", i):
                    end = s.find("$$", i + 2)
                    end = n if end < 0 else end + 2
                    self.dropped_math += 1
                    out.append(" ")
                    i = end
                else:
                    end = i + 1
                    while end < n and not (s[end] == "$" and s[end - 1] != "\\"):
                        end += 1
                    out.append(self.math(s[i + 1 : end], depth))
                    i = end + 1
            elif c == "~" or c == "&":
                out.append(" ")
                i += 1
            elif c == "\n":
                # a blank line ends the paragraph
                j = i + 1
                while j < n and s[j] in " \t\r":
                    j += 1
                if j < n and s[j] == "\n":
                    out.append(_PAR)
                    while j < n and s[j] in " \t\r\n":
                        j += 1
                    i = j
                else:
                    out.append(" ")
                    i += 1
            else:
                out.append(c)
                i += 1
        return "".join(out)

    def _command(self, s: str, i: int, out: list[str], depth: int) -> int:
        m = re.compile(r"\\([A-Za-z@]+\*?|.)").match(s, i)
        if m is None:
            return i + 1
        name, i = m.group(1), m.end()
        if name == "\\":
            star = i < len(s) and s[i] == "*"
            opt, j = _opt(s, i + 1 if star else i)
            out.append(" ")
            return j if opt is not None else (i + 1 if star else i)
        if name in ("(", "["):
            close = "\\)" if name == "(" else "\\]"
            end = s.find(close, i)
            end = len(s) if end < 0 else end
            if name == "(":
                out.append(self.math(s[i:end], depth))
            else:
                self.dropped_math += 1
                out.append(" ")
            return end + 2
        if name in _ACCENT_MARKS:  # \'e, \"{o}, \c{c}, \v s
            arg, j = _arg(s, i)
            base = self.text(arg, depth + 1).strip() if "\\" in arg else arg.strip()
            if base:
                first = {"ı": "i", "ȷ": "j"}.get(base[0], base[0])
                out.append(unicodedata.normalize("NFC", first + _ACCENT_MARKS[name]) + base[1:])
            return j
        if name == "begin":
            return self._environment(s, i, out, depth)
        if name == "end":
            _, j = _arg(s, i)
            return j
        if name in ("par", "item"):
            out.append(_PAR)
            if name == "item":
                label, j = _opt(s, i)
                if label is not None:
                    out.append(self.text(label, depth + 1).strip() + " ")
                    return j
            return i
        if name in ("paragraph", "paragraph*", "subparagraph", "subparagraph*"):
            _, i = _opt(s, i)
            title, i = _arg(s, i)
            t = " ".join(self.text(title, depth + 1).split())
            out.append(_PAR + t + ("" if not t or t[-1] in ".:?!" else ".") + " ")
            return i
        if name in ("caption", "caption*", "captionof", "captionof*", "subcaption", "subcaptionbox"):
            if name.startswith("captionof"):
                _, i = _arg(s, i)
            _, i = _opt(s, i)
            cap, i = _arg(s, i)
            self._caption(cap, depth)
            return i
        if name == "verb" or name == "verb*":
            if i < len(s):
                end = s.find(s[i], i + 1)
                end = len(s) if end < 0 else end
                out.append(s[i + 1 : end])
                return end + 1
            return i
        if name in _CITE_TEXT:
            _, i = _opt(s, i)
            _, i = _opt(s, i)
            keys, i = _arg(s, i)
            out.append(self._cite_text(name, keys))
            return i
        if name in self.macros and depth < 32:
            return self._expand(s, i, self.macros[name], out, depth)
        if name in _DROP:
            nopt, nreq = _DROP[name]
            for _ in range(nopt + (1 if name in ("cite", "citep", "citealp") else 0)):
                _, i = _opt(s, i)
            for _ in range(nreq):
                _, i = _arg(s, i)
            if name in ("vskip", "hskip"):
                dim = re.compile(r"\s*-?[\d.]+\s*[a-z]{2}(\s*(plus|minus)\s*-?[\d.]+\s*[a-z]{2})*").match(s, i)
                i = dim.end() if dim else i
            return i
        if name in _KEEP:
            keep, total = _KEEP[name]
            _, i = _opt(s, i)
            for k in range(total):
                arg, i = _arg(s, i)
                if k == keep:
                    out.append(arg if name in ("url", "path", "nolinkurl") else self.text(arg, depth + 1))
            return i
        if name in _SYMBOLS:
            out.append(_SYMBOLS[name])
            return i
        if name in _MATH_SYMBOLS and len(name) > 1:  # \alpha in text (a macro of the paper's may do that)
            out.append(_MATH_SYMBOLS[name])
            return i
        if name in _SECTION_CMDS:  # a sectioning command left inside a section's text (in a macro, a float)
            _, i = _opt(s, i)
            title, i = _arg(s, i)
            out.append(_PAR + self.text(title, depth + 1) + _PAR)
            return i
        # an unknown command: dropped; an optional argument right after it too; its {arguments} stay as text
        _, i = _opt(s, i)
        return i

    def _expand(self, s: str, i: int, macro: _Macro, out: list[str], depth: int) -> int:
        self.expansions += 1
        if self.expansions > _MAX_EXPANSIONS:
            raise PaperError(
                "macro_expansion_limit",
                f"more than {_MAX_EXPANSIONS} macro expansions (a macro that expands to itself, e.g. \\x -> \\x\\x)",
            )
        args: list[str] = []
        if macro.nargs:
            if macro.default is not None:
                opt, i = _opt(s, i)
                args.append(macro.default if opt is None else opt)
            while len(args) < macro.nargs:
                arg, i = _arg(s, i)
                args.append(arg)
        body = macro.body
        if args:
            body = re.sub(
                r"#(\d)", lambda m: args[int(m.group(1)) - 1] if 0 < int(m.group(1)) <= len(args) else "", body
            )
        out.append(self.text(body, depth + 1))
        return i

    def _environment(self, s: str, i: int, out: list[str], depth: int) -> int:
        env, i = _arg(s, i)
        env = env.strip()
        start = i
        end, after = _env_end(s, i, env)
        if env in _FLOAT_ENVS:
            self._float(s[start:end], depth)
            out.append(" ")
            return after
        if env in _DROP_ENVS:
            if env in _DISPLAY_MATH:
                self.dropped_math += 1
            out.append(" ")
            return after
        nopt, nreq = _ENV_ARGS.get(env, (1, 0))
        for _ in range(nopt):
            _, start = _opt(s, start)
        for _ in range(nreq):
            _, start = _arg(s, start)
        inner = self.text(s[start:end], depth + 1)
        if env in _LIST_ENVS or env in _THEOREMS:
            out.append(_PAR + inner + _PAR)
        else:
            out.append(inner)
        return after

    def _float(self, body: str, depth: int) -> None:
        for m in re.finditer(r"\\(caption\*?|captionof\*?|subcaption|subcaptionbox)(?![A-Za-z])", body):
            i = m.end()
            if m.group(1).startswith("captionof"):
                _, i = _arg(body, i)
            _, i = _opt(body, i)
            cap, _ = _arg(body, i)
            self._caption(cap, depth)

    def _caption(self, raw: str, depth: int) -> None:
        text = _tidy(self.text(raw, depth + 1).replace(_PAR, " "))
        if text:
            self.captions.append(text)

    def _cite_text(self, name: str, keys: str) -> str:
        parts = []
        for key in (k.strip() for k in keys.split(",")):
            if key not in self.cite_labels:
                continue
            authors, year = self.cite_labels[key]
            if name.lower().startswith("citeauthor"):
                parts.append(authors)
            elif name.startswith("citeyear"):
                parts.append(year)
            elif name == "citealt":
                parts.append(f"{authors} {year}")
            else:
                parts.append(f"{authors} ({year})")
        return "; ".join(parts)

    # -- math mode --------------------------------------------------------------------------------

    def math(self, s: str, depth: int = 0) -> str:
        """Inline math as plain text when it is short and simple, else "" (dropped)."""
        rendered = self._math(s, depth)
        if rendered is None or len(rendered) > 30:
            self.dropped_math += 1
            return " "
        self.kept_math += 1
        return rendered

    def _math(self, s: str, depth: int) -> str | None:
        out: list[str] = []
        i, n = 0, len(s)
        while i < n:
            c = s[i]
            if c == "\\":
                m = re.compile(r"\\([A-Za-z]+|.)").match(s, i)
                if m is None:
                    return None
                name, i = m.group(1), m.end()
                if name in _MATH_SYMBOLS:
                    out.append(_MATH_SYMBOLS[name])
                elif name in _MATH_UNWRAP:
                    arg, i = _arg(s, i)
                    inner = self._math(arg, depth + 1)
                    if inner is None:
                        return None
                    out.append(inner)
                elif name in self.macros and depth < 32:
                    sub: list[str] = []
                    i = self._expand(s, i, self.macros[name], sub, depth)  # a macro of the paper's, as text
                    out.append("".join(sub))
                elif name in ("ref", "label", "cite", "eqref", "tag", "nonumber", "notag"):
                    if name not in ("nonumber", "notag"):
                        _, i = _arg(s, i)
                else:
                    return None  # \frac, \sum, \sqrt, an unknown macro: not plain text
            elif c in "^_":
                arg, i = _arg(s, i + 1)
                inner = self._math(arg, depth + 1)
                if inner is None:
                    return None
                inner = inner.strip()
                if c == "_" or inner in ("°", "′", "*", "†", "‡"):
                    out.append(inner)
                else:
                    out.append("^" + (inner if len(inner) <= 1 or inner.lstrip("-").isalnum() else f"({inner})"))
            elif c in "{}":
                i += 1
            elif c == "~":
                out.append(" ")
                i += 1
            else:
                out.append(c)
                i += 1
        return " ".join("".join(out).split())


_THEOREMS = {
    "theorem",
    "lemma",
    "proposition",
    "corollary",
    "definition",
    "proof",
    "remark",
    "example",
    "claim",
    "conjecture",
    "observation",
    "assumption",
    "hypothesis",
    "note",
    "fact",
    "problem",
    "question",
}


# --------------------------------------------------------------------------------------------------
# Text clean-up

_EMPTY_GROUP = re.compile(r"\s*[(\[]\s*(?:(?:[,;:\-–—]|and|&|e\.g\.,?|see|cf\.)\s*)*[)\]]")


def _tidy(text: str) -> str:
    """Whitespace collapsed, TeX quotes and dashes made typographic, traces of removed citations and references
    tidied ("( )", "[ ; ]", a space before punctuation, a dangling "§")."""
    text = text.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”").replace("`", "‘")
    text = " ".join(text.split())
    text = re.sub(r"§\s*(?=[\s.,;:)\]]|$)", "", text)
    previous = None
    while previous != text:
        previous = text
        text = _EMPTY_GROUP.sub("", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r"\s+([,.;:!?)\]])", r"\1", text)
    text = re.sub(r",(\s*,)+", ",", text)
    text = re.sub(r"[,;]\s*([.!?])", r"\1", text)
    return " ".join(text.split())


def _paragraphs(text: str) -> list[tuple[str, ...]]:
    """Converted text → paragraphs of sentences (empty ones dropped)."""
    out = []
    for para in text.split(_PAR):
        para = _tidy(para)
        if para and any(ch.isalnum() for ch in para):
            sentences = tuple(split_sentences(para))
            if sentences:
                out.append(sentences)
    return out


# --------------------------------------------------------------------------------------------------
# Bibliography


def _bibitems(text: str) -> list[tuple[str, str, str]]:
    """``\\bibitem[label]{key} entry`` → (key, label, raw entry), from a thebibliography environment or .bbl."""
    items = []
    marks = list(re.finditer(r"\\bibitem(?![A-Za-z])", text))
    for k, m in enumerate(marks):
        i = m.end()
        label, i = _opt(text, i)
        key, i = _arg(text, i)
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        body = text[i:end]
        body = re.split(r"\\end\{thebibliography\}", body)[0]
        items.append((key.strip(), label or "", body))
    return items


def _natbib_label(label: str, conv: _Converter) -> tuple[str, str] | None:
    """natbib's ``{Lo et~al.(2020)Lo, Wang, ...}`` → ("Lo et al.", "2020")."""
    m = re.match(r"^\s*\{?(.*?)\(([^()]*)\)", label, re.DOTALL)
    if m is None:
        return None
    authors = _tidy(conv.text(m.group(1)).replace(_PAR, " "))
    year = _tidy(conv.text(m.group(2)).replace(_PAR, " "))
    return (authors, year) if authors and year else None


def _biblatex_entries(text: str, conv: _Converter) -> list[str]:
    """A biblatex ``.bbl`` (``\\entry{key}{type}{}`` ... ``\\endentry``) → "Authors. Year. Title. Venue."."""
    out = []
    for block in re.findall(r"\\entry\{.*?\\endentry", text, re.DOTALL):
        families = re.findall(r"family=\{([^}]*)\}", block)
        fields = dict(re.findall(r"\\field\{(\w+)\}\{((?:[^{}]|\{[^{}]*\})*)\}", block))
        parts = []
        if families:
            names = [conv.text(f) for f in families[:3]]
            parts.append(", ".join(names) + (" et al." if len(families) > 3 else ""))
        for key in ("year", "title", "journaltitle", "booktitle"):
            if fields.get(key):
                parts.append(_tidy(conv.text(fields[key])))
        entry = ". ".join(p.rstrip(".") for p in parts if p)
        if entry:
            out.append(entry + ".")
    return out


def _references(body: str, files: dict[str, str], main: str, conv: _Converter) -> tuple[list[str], str]:
    """The reference list and where it came from ("thebibliography", the .bbl's name, or "")."""
    source = ""
    text = ""
    m = re.search(r"\\begin\{thebibliography\}.*?(\\end\{thebibliography\}|$)", body, re.DOTALL)
    if m is not None:
        text, source = m.group(0), "thebibliography"
    else:
        bbls = {n: t for n, t in files.items() if n.lower().endswith(".bbl")}
        wanted = [posixpath.splitext(main)[0] + ".bbl"]
        for bm in re.finditer(r"\\bibliography\s*\{([^}]*)\}", body):
            for name in bm.group(1).split(","):
                wanted.append(posixpath.normpath(posixpath.join(posixpath.dirname(main), name.strip())) + ".bbl")
        for name in wanted:
            if name in bbls:
                text, source = bbls[name], name
                break
        else:
            if len(bbls) == 1:
                source, text = next(iter(bbls.items()))
    if not text:
        return [], ""
    text = _strip_comments(text)
    if "\\entry{" in text and "\\bibitem" not in text:
        return _biblatex_entries(text, conv), source
    refs = []
    for _key, _label, raw in _bibitems(text):
        entry = _tidy(conv.text(raw.replace("\\newblock", " ")).replace(_PAR, " "))
        if len(entry) >= 5:
            refs.append(entry)
    return refs, source


def _cite_labels(body: str, files: dict[str, str], conv: _Converter) -> dict[str, tuple[str, str]]:
    labels: dict[str, tuple[str, str]] = {}
    sources = [body] + [t for n, t in files.items() if n.lower().endswith(".bbl")]
    for text in sources:
        for key, label, _ in _bibitems(text):
            if label and key not in labels:
                parsed = _natbib_label(label, conv)
                if parsed is not None:
                    labels[key] = parsed
    return labels


# --------------------------------------------------------------------------------------------------
# The paper


@dataclass
class _RawSection:
    level: int
    title: str  # LaTeX
    body: str  # LaTeX
    appendix: bool


@dataclass
class _Parts:
    front: str = ""  # text before the first section (abstract removed)
    sections: list[_RawSection] = field(default_factory=list)


_SECTION_RE = re.compile(r"\\(part|chapter|section|subsection|subsubsection)(\*?)(?![A-Za-z])")


def _split_sections(body: str) -> _Parts:
    parts = _Parts()
    marks: list[tuple[int, int, int, str]] = []  # (start, end, level, title)
    for m in _SECTION_RE.finditer(body):
        if marks and m.start() < marks[-1][1]:
            continue
        i = m.end()
        _, i = _opt(body, i)
        title, i = _arg(body, i)
        marks.append((m.start(), i, _SECTION_CMDS[m.group(1)], title))
    appendix_at = [m.start() for m in re.finditer(r"\\appendix(?![A-Za-z])|\\begin\{appendices\}", body)]
    first_appendix = appendix_at[0] if appendix_at else len(body) + 1
    parts.front = body[: marks[0][0]] if marks else body
    for k, (start, end, level, title) in enumerate(marks):
        stop = marks[k + 1][0] if k + 1 < len(marks) else len(body)
        parts.sections.append(_RawSection(level, title, body[end:stop], start > first_appendix))
    return parts


def _take_abstract(body: str) -> tuple[str, str]:
    """(the abstract's LaTeX, the body without it)."""
    m = re.search(r"\\begin\{abstract\}(.*?)\\end\{abstract\}", body, re.DOTALL)
    if m is not None:
        return m.group(1), body[: m.start()] + body[m.end() :]
    m2 = re.search(r"\\abstract(?![A-Za-z])\s*\{", body)
    if m2 is not None:
        end = _group_end(body, m2.end() - 1)
        return body[m2.end() : end - 1], body[: m2.start()] + body[end:]
    return "", body


def _title(text: str, conv: _Converter) -> str:
    m = re.search(r"\\title(?![A-Za-z])", text)
    if m is None:
        m = re.search(r"\\(?:icmltitle|papertitle|Title)(?![A-Za-z])", text)
        if m is None:
            return ""
    _, i = _opt(text, m.end())
    raw, _ = _arg(text, i)
    return _tidy(conv.text(raw).replace(_PAR, " "))


def parse(data: bytes, paper_id: str, where: str) -> Paper:
    """Read LaTeX sources (an arXiv ``.gz``, a tar, or a ``.tex``; their bytes) into a :class:`Paper`.

    Raises :class:`PaperError` with reason ``unreadable_archive``, ``not_latex``, ``no_document``,
    ``no_sections`` or ``macro_expansion_limit``."""
    try:
        return _parse(data, paper_id, where)
    except PaperError as e:
        if e.detail.startswith(where):
            raise
        raise PaperError(e.reason, f"{where}: {e.detail}") from None
    except RecursionError as e:
        raise PaperError("not_latex", f"{where}: nested too deeply to read ({e})") from e
    except Exception as e:  # a source this reader did not foresee: a reject with the cause, not a crash
        raise PaperError("not_latex", f"{where}: {type(e).__name__}: {e}") from e


def _parse(data: bytes, paper_id: str, where: str) -> Paper:
    if not isinstance(data, bytes | bytearray):
        raise PaperError("not_latex", f"{where}: expected bytes, got {type(data).__name__}")
    files = _files(data, where)
    main = _main_file(files, where)
    missing: list[str] = []
    source = _inline(main, files, missing)
    macros, source = _collect_macros(source)
    begin = re.search(r"\\begin\s*\{document\}", source)
    if begin is None:
        raise PaperError("no_document", f"{where}: {main} has no \\begin{{document}}")
    end = re.search(r"\\end\s*\{document\}", source[begin.end() :])
    preamble = source[: begin.start()]
    body = source[begin.end() : begin.end() + end.start()] if end else source[begin.end() :]

    conv = _Converter(macros, {})
    conv.cite_labels = _cite_labels(body, files, conv)
    title = _title(body, conv) or _title(preamble, conv)
    abstract_src, body = _take_abstract(body)
    references, ref_source = _references(body, files, main, conv)
    body = re.sub(r"\\begin\{thebibliography\}.*?(\\end\{thebibliography\}|$)", " ", body, flags=re.DOTALL)
    parts = _split_sections(body)
    if not parts.sections:
        raise PaperError("no_sections", f"{where}: {main} has no \\section")

    sections: list[Section] = []
    stack: list[tuple[int, str, SectionType]] = []
    for raw in parts.sections:
        heading = _tidy(conv.text(raw.title).replace(_PAR, " "))
        while stack and stack[-1][0] >= raw.level:
            stack.pop()
        parent = stack[-1][2] if stack else None
        kind: SectionType = "other" if raw.appendix else section_type(heading, parent=parent)
        stack.append((raw.level, heading, kind))
        sections.append(
            Section(
                heading=" / ".join(h for _, h, _ in stack),
                type=kind,
                paragraphs=tuple(_paragraphs(conv.text(raw.body))),
            )
        )
    front = _paragraphs(conv.text(parts.front))
    untitled = any(sum(len(s.split()) for s in p) >= 20 for p in front)
    if untitled:
        sections.insert(0, Section(heading="", type="introduction", paragraphs=tuple(front)))
    abstract = tuple(_paragraphs(conv.text(abstract_src)))
    meta: dict[str, Any] = {
        "main_file": main,
        "files": len(files),
        "missing_inputs": missing,
        "macros": len(macros),
        "references_from": ref_source,
        "math_kept": conv.kept_math,
        "math_dropped": conv.dropped_math,
        "untitled_first_section": untitled,
    }
    return Paper(
        id=paper_id,
        title=title,
        abstract=abstract,
        sections=tuple(sections),
        captions=tuple(conv.captions),
        references=tuple(references),
        format=FORMAT,
        ref=SourceRef(dataset=FORMAT, path=where, line=None, item_id=paper_id),
        meta=meta,
    )
