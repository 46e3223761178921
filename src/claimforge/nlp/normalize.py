"""Fast text normalisation for matching: lower-cased, lemmatised word tokens, without running a parser.

Used where whole paragraphs must be compared cheaply (does this explanation mention the answer?).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

# Hyphenated compounds are split ("carbon-to-carbon" -> carbon, to, carbon) so their parts can match.
_WORD = re.compile(r"[0-9]+(?:[.,][0-9]+)*|[^\W_]+(?:'[^\W_]+)*", re.UNICODE)

# Auxiliary verbs (also what the QA2D rules look for after a question word).
AUXILIARIES = frozenset(
    "is are was were be been am do does did has have had can could will would shall should may might must".split()  # noqa: SIM905
)
# Words that carry no content on their own: an answer made only of these cannot be "contained".
STOPWORDS = AUXILIARIES | frozenset(
    """
    a an the of to in on at by for with from and or but as it its this that these those which who
    whom whose what when where why how not no than then there their they them he she his her we our
    you your i me my into onto over under up down out about being
    """.split()  # noqa: SIM905
)


@functools.lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """Lemma of a lower-cased word: noun reading first, then verb, then adjective; else the word."""
    from lemminflect import getAllLemmas

    if len(word) <= 3 or word.isdigit():
        return word
    lemmas = getAllLemmas(word)
    for upos in ("NOUN", "VERB", "ADJ"):
        if upos in lemmas:
            return lemmas[upos][0].lower()
    return _plural_fallback(word)


def _plural_fallback(word: str) -> str:
    """Singular of a regular plural the lexicon does not know ("exoskeletons", "phragmoplasts")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ys")):
        return word[:-1]
    return word


def word_count(text: str) -> int:
    """Whitespace-separated words: the length measure of the paper's filters and Table 5."""
    return len(text.split())


def fold(text: str) -> str:
    """Unicode-fold and lower-case (é → e, ﬁ → fi, Greek kept)."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


def lemma_tokens(text: str) -> tuple[str, ...]:
    return tuple(lemma(w) for w in _WORD.findall(fold(text)))


def content_lemmas(text: str) -> tuple[str, ...]:
    """Lemma tokens without stopwords: what is compared when asking whether a text mentions a phrase."""
    return tuple(t for t in lemma_tokens(text) if t not in STOPWORDS)


def contains_content(hay: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether ``needle`` occurs contiguously in ``hay`` (both already stopword-free lemma sequences).
    An empty needle (an answer made only of stopwords) never matches: it carries no key entity."""
    if not needle:
        return False
    n = len(needle)
    first = needle[0]
    return any(tok == first and tuple(hay[i : i + n]) == tuple(needle) for i, tok in enumerate(hay))


def contains_phrase(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether the lemma sequence ``needle`` occurs contiguously in ``haystack``, ignoring stopwords on
    both sides, so "the nucleus" matches "nuclei" and "a nucleus of"."""

    def strip(seq: Sequence[str]) -> tuple[str, ...]:
        return tuple(t for t in seq if t not in STOPWORDS)

    return contains_content(strip(haystack), strip(needle))


@functools.lru_cache(maxsize=100_000)
def finite_verb_form(word: str, third_person_only: bool = False) -> bool:
    """Whether ``word`` is an inflected (finite) form of an English verb per lemminflect: "inhibits", "reduced",
    "lack". Used where the parser (trained on web English) tags scientific verbs as nouns."""
    from lemminflect import getAllLemmas, getInflection

    w = word.lower()
    if not w.isalpha() or len(w) < 3:
        return False
    tags = ("VBZ",) if third_person_only else ("VBZ", "VBD", "VBP")
    for lem in getAllLemmas(w, upos="VERB").get("VERB", ()):
        if any(w in getInflection(lem, tag=t) for t in tags):
            return True
    return False


@functools.lru_cache(maxsize=100_000)
def base_verb_only(word: str) -> bool:
    """Whether lemminflect knows ``word`` only as a verb's base form: not also a noun, adjective or adverb, nor a
    past participle ("regulate", "withhold"; not "abscess", "put", "complete" is no adjective to lemminflect but is
    told apart by the tagger where this is used)."""
    from lemminflect import getAllLemmas, getInflection

    w = word.lower()
    lemmas = getAllLemmas(w)
    verb_only = tuple(lemmas.get("VERB", ()))[:1] == (w,) and not {"NOUN", "ADJ", "ADV"} & set(lemmas)
    return verb_only and w not in getInflection(w, "VBN")


def noun_reading(word: str) -> bool:
    """Whether lemminflect knows ``word`` as a noun form ("increases" is; "inhibits" is not)."""
    from lemminflect import getAllLemmas

    return "NOUN" in getAllLemmas(word.lower(), upos="NOUN")


# letters whose names start with a vowel sound ("an RNA", "an MRI", "an X-ray"; "a DNA", "a UV lamp")
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")


def indefinite_article(word: str) -> str:
    """ "a" or "an" before ``word``, by its first sound: "an anion", "an hour", "an RNA", "an X-ray"; "a unit", "a
    eukaryotic cell", "a one-celled", "a DNA", "a uterus"."""
    w = word.strip()
    if not w:
        return "a"
    # "RNA", "mRNA", "x-ray", "B12", "HbA1c"
    letters = len(w) == 1 or w[1].isupper() or w[1] in "-0123456789" or (w[0].isupper() and any(c.isdigit() for c in w))
    symbol = w[0].isupper() and len(w) <= 3 and w.isalpha() and not _known_word(w.lower())  # "Fc", "Hb", "Mg"
    if (letters and (w[0].isupper() or len(w) > 1)) or symbol:  # read letter by letter: "an mRNA", "an Fc"
        return "an" if w[0].upper() in _VOWEL_LETTERS else "a"
    low = w.lower()
    if low.startswith(_SILENT_H):
        return "an"
    if low.startswith(("one", "once", "eu", "ewe", "uni", "unanim")) or re.match(r"u[bcdfgjklmpqrstvwxz][aeiouy]", low):
        return "a"  # "a unit", "a usual", "a urinary", "a eukaryotic", "a one-celled"
    return "an" if low[0] in "aeiou" else "a"


_INDEFINITE = re.compile(r"(?<![\w'])([Aa]n?)(\s+)([A-Za-z][\w-]*)")


@functools.lru_cache(maxsize=65536)
def _known_word(word: str) -> bool:
    from lemminflect import getAllLemmas

    return bool(getAllLemmas(word.split("-")[0]))


def agree_indefinite_articles(text: str) -> str:
    """Every "a"/"an" made to agree with the word after it ("a anion" -> "an anion", "An solid" -> "A solid"); not
    a letter used as a name ("The a in ATP", "vitamin A is", "a and b")."""

    def fix(m: re.Match[str]) -> str:
        art, gap, word = m.group(1), m.group(2), m.group(3)
        before = text[: m.start()].rstrip().split(" ")[-1].lower() if m.start() else ""
        if art == "A" and m.start() > 0 and not text[: m.start()].rstrip().endswith((".", "!", "?", ":")):
            return m.group(0)  # "vitamin A is", "type A blood": a name, not an article
        if before in ("the", "vitamin", "type", "group", "hepatitis") or word.lower() in STOPWORDS:
            return m.group(0)  # "The a in ATP", "a and b"
        if word.islower() and len(word) <= 4 and not _known_word(word):
            return m.group(0)  # maybe an acronym not yet cased ("an sti"): its sound is unknown
        want = indefinite_article(word)
        new = want.capitalize() if art[0] == "A" else want
        return f"{new}{gap}{word}"

    return _INDEFINITE.sub(fix, text)


def finish_sentence(text: str) -> str | None:
    """Tidy a generated sentence: spacing around punctuation, a capital first letter (a first word with
    inner capitals or digits such as "mRNA", "pH" or "p53" keeps its case), capitals after inner sentence ends, and a
    final period. None when nothing but punctuation is left."""
    t = " ".join(text.split())
    t = re.sub(r"\s+([,.;:!?%)])", r"\1", t)
    t = re.sub(r"([(])\s+", r"\1", t)
    t = re.sub(r"\s+'s\b", "'s", t)
    t = t.rstrip(" ,;:-").strip()
    if not any(ch.isalnum() for ch in t):
        return None
    first = t.split(" ", 1)[0]
    if t[0].islower() and not any(ch.isupper() or ch.isdigit() for ch in first[1:]):
        t = t[0].upper() + t[1:]
    # "... a physicist. his name is" -> ". His", ". however, after" -> ". However,"; not after abbreviations such as
    # "E. coli", nor before a word with inner capitals or digits ("mRNA", "p53").
    # Also after "Figure A." and units ("ng/mL."), whose words are shorter.
    t = re.sub(
        r"((?:\w{3,}|(?:Figure|Table|Fig\.) [A-Z0-9]+|\w+/\w+)[.!?] )([a-z])(?=[a-z]*[ ,;:])",
        lambda m: m.group(1) + m.group(2).upper(),
        t,
    )
    if t[-1] not in ".!?":
        t += "."
    return t


_CASED_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
# function words are never names: a capital on one in the source starts a sentence its splitter did not see ("…
# Dalton's Law Unless they …", a heading without a full stop)
_NEVER_CASED = (STOPWORDS - {"i"}) | frozenset(  # "I" is also a numeral ("meiosis I")
    "unless although though because while if since after before whether until once whereas so also".split()  # noqa: SIM905
)


def restore_case(text: str, source: str) -> str:
    """Words of ``text`` in the casing ``source`` gives them where it is not sentence case: proper names and
    symbols the claim lost because options are lower-cased ("paleozoic" -> "Paleozoic", "naoh" -> "NaOH",
    "latin" -> "Latin"). Only words ``source`` always writes the same way in mid-sentence, with a capital letter."""
    cased = _case_forms(source)
    if not cased:
        return text

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        form = cased.get(word.lower())
        if form is None or word not in (word.lower(), word.lower().capitalize()):
            return word
        if word.lower() in _NEVER_CASED and form == word.lower().capitalize():
            return word  # "Unless" after a heading; an acronym ("NO", "OR") is still restored
        return form

    return _CASED_WORD.sub(fix, text)


@functools.lru_cache(maxsize=1024)
def _case_forms(source: str) -> dict[str, str]:
    """lower-case word -> its one mid-sentence form with a capital in ``source`` (one call per explanation, though
    every option's claim of a question asks)."""
    forms: dict[str, set[str]] = {}
    for m in _CASED_WORD.finditer(source):
        word = m.group(0)
        before = source[: m.start()].rstrip()
        sentence_start = not before or before[-1] in ".!?:"
        if sentence_start and not any(c.isupper() for c in word[1:]):
            continue
        forms.setdefault(word.lower(), set()).add(word)
    return {low: next(iter(f)) for low, f in forms.items() if len(f) == 1 and next(iter(f)) != low}
