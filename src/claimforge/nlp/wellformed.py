"""Is a generated claim a well-formed, self-contained, atomic declarative sentence? Surface and parse checks shared
by the emit-time claim check (``generate/claim_check.py``: a claim that fails is a reject, never a dataset row) and
the automatic claim scores (``evaluate/claim_quality.py``, ``docs/claim_quality.md``). Every check returns reason
codes (``code`` or ``code: detail``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from claimforge.nlp.normalize import base_verb_only, finite_verb_form
from claimforge.nlp.normalize import noun_reading as _noun_reading


def reason(code: str, detail: str = "") -> str:
    return f"{code}: {detail}" if detail else code


_DANGLING = frozenset(
    """
    and or but nor of by for with from to into than via between among the a an whereas while that which whose
    its their including such in at as during within without versus vs per through toward towards against onto
    whether if because these this those our his her
    """.split()  # noqa: SIM905
)
VERBAL_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
_NOT_BEFORE_VERB = frozenset({"DET", "ADP", "CCONJ", "SCONJ", "PART", "AUX"})
# a negation left in front of the verb it belonged to, its subject lost: "Not should be used in ...", "Not present are
# in the collecting duct" (not "Not everyone is ...", "Not enough is known", "Not shown are the controls"); and a
# sentence that opens on its auxiliary before a participle or adverb, with no subject: "Is used in pregnancy."
_AUX = r"(?:is|are|was|were|be|should|can|could|may|might|must|will|would|shall|does|do|did|has|have|had)"
_NOT_OPENING = re.compile(
    rf"^Not\s+{_AUX}\b|^Not\s+[\w-]+\s+(?:is|are|was|were)\s+(?:in|on|at|of|for|with|by|to|from|during)\b"
)
_AUX_OPENING = re.compile(
    r"^(?:Is|Are|Was|Were|Has|Have|Had|Can|Could|Should|May|Might|Must|Will|Would|Does|Do|Did)\s+(?:\w+ly\s+)?"
    r"(?:used|seen|given|found|known|done|made|shown|\w+ed)\b[^?]*$"
    r"|^(?:Is|Are|Was|Were)\s[^?]*$"  # a copula with no subject before it: "Are helper T cells."
)
_SUBORDINATE_START = re.compile(r"(?:although|though|whereas|while|because|unless|since)\b", re.I)
# "As" opening a clause ("As X is Y" with one finite verb and no comma has no main clause); not "As many as"
_AS_START = re.compile(
    r"as\s+(?!(?:many|much|few|little|well|early|late|soon|long|far|such|a|an|the|part|of|in|with|for|to|compared|"
    r"shown|expected|described|mentioned|noted|discussed|reported|seen|illustrated|demonstrated|indicated)\b)",
    re.I,
)


def fluency_checks(text: str, doc: Any, verb_reading: Callable[[str], bool] | None = None) -> list[str]:
    """Surface and parse checks of fluency (each failed check lowers the LM-based level by one): a finite verb
    in the main clause (the parse, or — since the parser misses verbs in scientific text — a verb form right
    after a noun), no dangling conjunction/preposition/determiner at the end, no doubled word, balanced
    brackets, not a lone subordinate clause ("Although the dose was doubled."), no word that lost its leading
    symbol ("The -diversity", where the source had β as an image), not opening on a present-tense verb with no
    subject ("Demonstrates that the incidence ...") nor on a past form with none ("Measured calibration accuracy
    for ..."), no "As" + one clause ("As metformin is an inhibitor of complex I."), no passive reporting verb
    before a clause without "that" ("has been suggested it can"). ``verb_reading`` (the claim check's LM) lets the
    fallback take a verb form before a preposition, an adverb, "to" or the end ("The maxillary sinus drains into the
    middle meatus", "The graft degenerates."), where a plural noun also stands ("Blood levels in patients."), when
    the word reads as a verb; such a verb after a plural subject noun is an agreement error ("Minerals changes
    from heat")."""
    reasons = []
    words = text.split()
    if len(words) < 3:
        reasons.append(reason("too_short", f"{len(words)} words"))
    if not root_is_finite(doc):
        verb = _fallback_verb(doc, verb_reading)
        if verb is None:
            reasons.append("no_finite_verb")
        elif (subj := _plural_subject_before(verb)) is not None:
            reasons.append(_agreement_reason(subj, verb))
    toks = [t for t in doc if not t.is_punct]
    # an acronym ("in severe AS": aortic stenosis), not a word of a text in capitals ("ALL ARE SEEN IN")
    acronym = bool(toks) and len(toks[-1].text) > 1 and toks[-1].text.isupper() and any(c.islower() for c in text)
    acronym = acronym and not (len(toks) > 1 and toks[-2].text.isupper() and toks[-2].is_alpha)
    acronym = acronym and toks[-1].lower_ not in ("the", "and", "of", "to", "for", "by", "its", "with", "from")
    # a particle that ends a hyphenated word does not dangle: "wax chew-in", "a follow-up" (not "a step-by.";
    # wellformed-v13)
    hyphenated = (
        bool(toks) and toks[-1].i > 0 and doc[toks[-1].i - 1].text == "-" and not doc[toks[-1].i - 1].whitespace_
    )
    hyphenated = hyphenated and toks[-1].i > 1 and not doc[toks[-1].i - 2].whitespace_
    hyphenated = hyphenated and toks[-1].lower_ in ("in", "up", "out", "on", "off", "through", "over", "down")
    if (toks and toks[-1].lower_ in _DANGLING and not acronym and not hyphenated) or _dangling_copula(toks):
        reasons.append(reason("dangling_end", repr(toks[-1].text)))
    for a, b in zip(toks, toks[1:], strict=False):
        if a.lower_ == b.lower_ and a.is_alpha and a.whitespace_ and a.lower_ not in ("that", "had"):
            reasons.append(reason("repeated_word", repr(f"{a.text} {b.text}")))
            break
    for a, b in zip(toks, toks[1:], strict=False):
        # "The function of X is regulate setting time", "Step back technique is consist of 2 phases"
        if a.lower_ in ("is", "are", "was", "were") and b.tag_ in ("VB", "VBP") and base_verb_only(b.text):
            reasons.append(reason("copula_before_verb", repr(f"{a.text} {b.text}")))
            break
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        reasons.append("unbalanced_brackets")
    m = _SUBORDINATE_START.match(text)
    if m and "," not in text:  # "Although the dose was doubled." has no main clause
        reasons.append(reason("subordinate_clause_only", repr(m.group(0))))
    elif _AS_START.match(text) and "," not in text and sum(t.tag_ in VERBAL_TAGS for t in doc) == 1:
        reasons.append(reason("subordinate_clause_only", "'As'"))  # "As metformin is an inhibitor of complex I."
    broken_list = _BROKEN_SUCH_AS.search(text)
    if broken_list:  # "such as and Mental Health Studies Register", "such as well as": a list cut at its start
        reasons.append(reason("broken_list", repr(broken_list.group(0))))
    lost = _LOST_SYMBOL.search(text)
    if lost:
        reasons.append(reason("lost_symbol", repr(lost.group(1))))
    # the verb must head the sentence: a plural noun the tagger took for a verb ("Increases in blood pressure
    # were observed") is not
    if _NOT_OPENING.match(text) or _AUX_OPENING.match(text):
        reasons.append(reason("no_subject", repr(text.split()[0])))
    elif toks and toks[0].tag_ == "VBZ" and toks[0].text[:1].isupper() and toks[0].dep_ == "ROOT":
        reasons.append(reason("no_subject", repr(toks[0].text)))
    elif toks and toks[0].tag_ in ("VB", "VBP") and toks[0].dep_ == "ROOT" and _order(toks[0]):
        # an answer left without its subject reads as an order: "Converge downwards & medially."
        reasons.append(reason("no_subject", repr(toks[0].text)))
    elif toks and toks[0].tag_ in ("VBD", "VBN") and toks[0].text[:1].isupper() and _subjectless_opening(toks[0]):
        # "Measured calibration accuracy for … infants": a sentence cut after its subject ("X et al. measured …")
        reasons.append(reason("no_subject", repr(toks[0].text)))
    missing_that = _MISSING_THAT.search(text)
    if missing_that:  # "Adult neurogenesis has been suggested it can buffer …": the source's own grammar
        reasons.append(reason("missing_complementizer", repr(missing_that.group(0))))
    return reasons


def _order(first: Any) -> bool:
    """A base-form verb that opens the sentence with no subject and no finite verb after it: an order ("Maintain
    vertical height of face."), not a noun the tagger read as a verb ("Sound energy travels through matter")."""
    rest = first.doc[first.i + 1 :]
    later_verb = any(
        t.tag_ in VERBAL_TAGS or (t.tag_ == "NNS" and finite_verb_form(t.text, third_person_only=True)) for t in rest
    )
    return not later_verb and not any(c.dep_ in SUBJECT_DEPS for c in first.children)


def _subjectless_opening(first: Any) -> bool:
    """A past form opening a sentence without a comma (not a fronted participle: "Made of hot rock, the mantle is
    …") that is its root without a subject, or a modifier of a root that is no verb (the parse read the fragment as
    a noun phrase), with no later word that is or could be a finite verb ("Increased levels of IL-6 predict
    mortality", "predict" tagged a noun, is a sentence)."""
    doc = first.doc
    if any(t.text in (",", ";", ":") for t in doc):
        return False
    rest = doc[first.i + 1 :]
    if any(t.tag_ in VERBAL_TAGS for t in rest) or any(
        t.is_alpha and not t.lower_.endswith("ed") and finite_verb_form(t.text) for t in rest
    ):
        return False
    if first.dep_ == "ROOT":
        return not any(c.dep_ in SUBJECT_DEPS for c in first.children)
    root = first.sent.root
    return (
        first.head.i == root.i
        and root.pos_ not in ("VERB", "AUX")
        and not any(c.dep_ in ("cop", "aux", "aux:pass") for c in root.children)
    )


# a passive reporting verb followed by a clause without "that" ("has been suggested it can", "was shown they are")
_MISSING_THAT = re.compile(
    r"\b(?:been|be|is|are|was|were)\s+(?:\w+ly\s+)?(?:suggested|shown|reported|proposed|demonstrated|found|"
    r"hypothesi[sz]ed|speculated|postulated|observed|established|known|thought|believed|documented|confirmed|"
    r"noted|argued|claimed)\s+(?:it|they|he|she|we)\s+(?:can|could|may|might|will|would|should|must|is|are|was|"
    r"were|has|have|had|does|do|did)\b",  # a clause follows ("it can"), not an object ("were shown it at the clinic")
    re.I,
)


# "such as" right before a coordinator: a list cut at its start ("such as and Mental Health Studies Register",
# "such as, and Y", "such as well as a commitment")
_BROKEN_SUCH_AS = re.compile(r"\bsuch as\s*,?\s*(?:and|or|but|well as)(?!\w)", re.I)

# a word that starts with a hyphen: a symbol (a Greek letter, an inline formula) the source text lost before it;
# not a shared prefix ("anti-CD3 and -CD28", "pro- and -inflammatory") nor a chemical group in brackets ("(-SH)")
_LOST_SYMBOL = re.compile(r"(?:^|(?<!\band)(?<!\bor)(?<!,)\s)(-[A-Za-z][\w-]*)")


_OBJECT_START = frozenset({"DET", "NOUN", "PROPN", "ADJ", "PRON", "NUM"})


def root_is_finite(doc: Any) -> bool:
    """Whether the parse's root is a finite verb or has a finite auxiliary or copula (no fallbacks)."""
    for t in doc:
        if t.dep_ == "ROOT":
            if t.tag_ in VERBAL_TAGS or t.tag_ == "VB" or "VerbForm=Fin" in str(t.morph):
                return True
            if any(c.dep_ in ("cop", "aux", "aux:pass") and c.tag_ in VERBAL_TAGS for c in t.children):
                return True
    return False


def headline_reasons(text: str, doc: Any) -> list[str]:
    """Why a title is not a full declarative sentence by the parse alone (``headline_fragment``): its root is not
    a finite verb ("Predicting epidemic risk from past contact data", "Safety and efficacy of ...: a randomized
    trial"). Stricter than :func:`fluency_checks`, whose fallback accepts a verb form the tagger missed: titles
    are headline fragments far more often than generated claims are. A present-tense root must also be a word the
    lexicon knows as a verb ("fumarate" is not), and a bare root verb needs a subject ("... add-on to metformin")."""
    if not root_is_finite(doc):
        return [reason("headline_fragment", "the root is not a finite verb")]
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is not None and root.tag_ in ("VB", "VBP") and not _is_verb_word(root.text):
        # a noun the tagger read as a verb: "Efficacy and safety of dimethyl fumarate in ..." ("fumarate")
        return [reason("headline_fragment", f"the root {root.text!r} is no verb the lexicon knows")]
    if root is not None and root.tag_ == "VB" and not any(c.dep_ in SUBJECT_DEPS for c in root.children):
        # a bare verb with no subject: "Dapagliflozin add-on to metformin in type 2 diabetes ..." ("add")
        return [reason("headline_fragment", f"the root {root.text!r} has no subject")]
    return []


# subject relations, UD v2 and the older Stanford-style "nsubjpass" (shared with generate/simplify.py)
SUBJECT_DEPS = frozenset({"nsubj", "nsubj:pass", "nsubjpass", "csubj", "csubj:pass", "expl"})


# verbs of the life sciences the general lexicon lacks: "phosphorylate", "upregulate", "potentiate", "ubiquitinate",
# "lyse" (most chemical nouns end otherwise: "fumarate", "glutamate", "pyruvate"; "succinate" and "salicylate" do
# not, and pass); prefixed verbs are looked up without their prefix ("co-express", "outcompete", "derepress")
_SCIENCE_VERB_ENDING = re.compile(r"(?:ylate|ulate|iate|inate|i[sz]e|ify|y[sz]e)s?$")


def _is_verb_word(word: str) -> bool:
    from lemminflect import getAllLemmas

    w = word.lower().rsplit("-", 1)[-1]
    stems = [w] + [w[len(p) :] for p in _VERB_PREFIXES if w.startswith(p) and len(w) - len(p) >= 3]
    for stem in stems:
        lemmas = getAllLemmas(stem)
        if "VERB" in lemmas or "AUX" in lemmas or (not lemmas and _SCIENCE_VERB_ENDING.search(stem)):
            return True
    return False


_VERB_PREFIXES = ("co", "re", "de", "trans", "mis", "out", "over", "under", "hyper", "hypo", "up", "down", "fine")


_TITLE_WORD = re.compile(r"\b[A-Z][a-z]+\b")


def sentence_case(title: str) -> str:
    """A Title Case title in sentence case ("Energy Landscape Reveals That the Cell Cycle Is Robust" -> "Energy
    landscape reveals that the cell cycle is robust"): capitalised words lose the capital except the first word;
    acronyms and words with inner capitals or digits keep theirs. Titles not in Title Case (fewer than half of
    their words of four or more letters capitalised after the first) are returned as they are. Proper names
    lose their capital too: restore them from the source (:func:`claimforge.nlp.normalize.restore_case`)."""
    words = [w for w in re.findall(r"[A-Za-z][\w\-]*", title)[1:] if len(w) >= 4]
    if not words or sum(w[0].isupper() for w in words) < 0.5 * len(words):
        return title
    first = re.match(r"\W*\w+", title)
    head = first.end() if first else 0
    return title[:head] + _TITLE_WORD.sub(lambda m: m.group(0).lower(), title[head:])


def _fallback_verb(doc: Any, verb_reading: Callable[[str], bool] | None = None) -> Any | None:
    """The finite verb of a sentence whose parse root is not one, or None. For the tagger's misses (the small CNN
    taggers read "The brain stem monitors the level" as a noun compound): a finite verb tagged as such anywhere,
    or an inflected verb form that does not follow a determiner, preposition, conjunction or auxiliary (where a
    noun would stand) and either cannot be a noun ("protect"), or the morphologizer calls it a verb, or something
    follows it (an object: "monitors the level"), or (with ``verb_reading``) it reads as a verb where a verb
    without an object stands (:func:`_verb_slot`: "drains into", "contracts rhythmically", "fuse to form",
    "degenerates."); not the last word of "... of autism spectrum disorder.", nor a word in quotation marks."""
    toks = list(doc)
    quoted = _quoted_inside(toks)
    for i, t in enumerate(toks):
        if t.text in _QUOTE_MARKS or i in quoted:
            continue  # a quoted title is no verb of the claim ('Term "Clean Tooth Never Decays" given by ...')
        if t.tag_ in VERBAL_TAGS and t.pos_ in ("VERB", "AUX"):
            return t
        if i > 0 and finite_verb_form(t.text):
            prev = toks[i - 1]
            if t.text[:1].isupper() and not t.text.isupper() and prev.text[:1].isupper() and i > 1:
                continue  # a run of capitalised words is a title or a name ("Chronic Diseases Collaboration")
            if prev.pos_ in _NOT_BEFORE_VERB or prev.lower_ in ("a", "an", "the", "to", "of"):
                continue
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            # an object or particle follows: "monitors the level", "speed up"; not "disorder." or "landscape and"
            followed = nxt is not None and (nxt.pos_ in _OBJECT_START or nxt.tag_ == "RP")
            if t.pos_ in ("VERB", "AUX") or not _noun_reading(t.text) or followed:
                return t
            if verb_reading is not None and _verb_slot(t) and verb_reading(t.text):
                return t
    return None


def _dangling_copula(toks: list[Any]) -> bool:
    """A sentence that ends on "is"/"are"/"was"/"were"/"be"/"been" that the parse makes a clause's head, with no
    clause before it that the copula may close: no "how"/"what"/"whether"/"than" ("X describes how closely packed
    the particles are", "than it is"), no "who"/"which"/"where"/"when" but a relative one right after a noun. "A
    crater is a common osseous lesion in periodontitis is.", "The most appropriate management of a patient who
    presents with fever is.", "The treatment of choice would be." (an exam stem's blank)."""
    own_clause = toks[-1].dep_ in ("ROOT", "conj", "parataxis") if toks else False  # not "the stronger the effect is"
    if len(toks) < 2 or toks[-1].lower_ not in ("is", "are", "was", "were", "be", "been") or not own_clause:
        return False
    last = toks[-1]
    before = [t for t in toks[:-1] if t.i >= last.sent.start]
    for k, t in enumerate(before):
        if t.lower_ in _CLAUSE_BEFORE_COPULA:
            return False  # "X describes how closely packed the particles are", "than it is"
        relative = k > 0 and before[k - 1].pos_ in ("NOUN", "PROPN")  # "a patient who presents ...", "choice when"
        if t.lower_ in _RELATIVE_OR_CLAUSE and not relative:
            return False  # "... where the nerve is", "... which part the organ is"
    return True


_CLAUSE_BEFORE_COPULA = frozenset("how what whether why than however wherever whatever whoever".split())  # noqa: SIM905
_RELATIVE_OR_CLAUSE = frozenset({"who", "whom", "which", "where", "when"})


_QUOTE_MARKS = frozenset({'"', "''", "``", "“", "”"})


def _quoted_inside(toks: list[Any]) -> set[int]:
    """Indices of the words between a pair of quotation marks that the sentence goes on around: not an unpaired
    mark (an inch sign), nor a quote that opens the sentence or closes it (a claim quoted whole)."""
    marks = [k for k, t in enumerate(toks) if t.text in _QUOTE_MARKS]
    words = [k for k, t in enumerate(toks) if not t.is_punct]
    inside: set[int] = set()
    for a, b in zip(marks[::2], marks[1::2], strict=False):
        if words and words[0] < a and b < words[-1]:
            inside.update(range(a + 1, b))
    return inside


def _verb_slot(t: Any) -> bool:
    """Whether a lower-case word stands where a verb without an object would: after a noun, pronoun or adverb (or,
    for an "-s" form, an adjective: the tagger reads nouns such as "enamel" and "molar" as adjectives), and before
    the end, an adverb, a subordinator, "to" + a verb, or a preposition other than "of" that opens a noun phrase
    ("drains into the middle meatus", "contracts rhythmically", "fuse to form", "forms from cooled magma"; not
    "issues of mistrust", "endodontic flare up", "travels to after", "travels in downhill")."""
    doc = t.doc
    if not t.text[:1].islower() or t.i == 0:
        return False
    prev = doc[t.i - 1].pos_
    if prev not in ("NOUN", "PROPN", "PRON", "ADV") and not (
        prev == "ADJ" and finite_verb_form(t.text, third_person_only=True)
    ):
        return False
    nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
    if nxt is None or nxt.is_punct or nxt.pos_ in ("ADV", "SCONJ"):
        return True
    after = doc[nxt.i + 1] if nxt.i + 1 < len(doc) else None
    if after is None:
        return False
    if nxt.pos_ == "PART":
        return nxt.lower_ == "to" and after.tag_ == "VB"
    noun_phrase = after.pos_ in _OBJECT_START or after.tag_ in ("VBN", "VBG")
    return nxt.pos_ == "ADP" and nxt.lower_ != "of" and noun_phrase


def _plural_subject_before(verb: Any) -> Any | None:
    """The plural noun that directly precedes (adverbs aside) a verb form the tagger took for a plural noun
    ("changes", tagged NNS), with no preposition before it in the sentence: "Minerals changes from heat", "Cells
    continuously monitors" (not "The speed of cars increases"); None if there is none."""
    if verb.tag_ != "NNS" or not finite_verb_form(verb.text, third_person_only=True):
        return None
    j = verb.i - 1
    while j > 0 and verb.doc[j].pos_ == "ADV":
        j -= 1
    subj = verb.doc[j]
    if any(t.pos_ == "ADP" for t in verb.doc[: subj.i]):
        return None
    plural = subj.tag_ in ("NNS", "NNPS") and _plural_word(subj.text)
    return subj if plural else None


# Abbreviations a biomedical reader understands without a definition, so a claim that uses them undefined is
# still interpretable on its own. A hand-made list (not taken from an authority), in the spirit of the "may be
# used without expansion" lists in biomedical journals' author instructions: (1) molecules, techniques and
# diseases whose abbreviation is their usual name (DNA, mRNA, ATP, HIV, AIDS, PCR, ELISA, CRISPR, MRI, CT, ECG,
# GWAS, SNP, COPD, ADHD); (2) statistics reported in abstracts (CI, OR, HR, RR, SD); (3) countries and agencies
# (US, UK, EU, WHO, FDA, NIH); (4) cell types, designs and drug classes that abstracts use undefined (iPSC, ESC,
# HSC, MSC, RCT, NSAID, SSRI, ACE as in "ACE inhibitor", CRP). Ambiguous short forms (MS, ALS, PD, AD, RA, OA,
# MI, ART, ...) are left out on purpose: they are the source-dependent abbreviations the paper's annotators had
# to resolve ("OA ... (MIA)" in Table 4). Extend it with ClaimScorerConfig.extra_abbreviations (claim_quality)
# or the claim check's extra_abbreviations.
COMMON_ABBREVIATIONS: tuple[str, ...] = tuple(
    """
    DNA RNA mRNA tRNA rRNA miRNA siRNA shRNA lncRNA ncRNA snRNA cDNA mtDNA ssDNA dsDNA gDNA
    ATP ADP AMP GTP GDP cAMP cGMP NAD NADH NADP NADPH FAD
    HIV AIDS HPV HBV HCV HSV EBV CMV RSV SARS MERS COVID SARS-CoV SARS-CoV-2 TB
    PCR qPCR RT-PCR ELISA CRISPR MRI fMRI CT PET SPECT ECG EKG EEG EMG GWAS SNP SNPs RNAi RNA-seq ChIP ChIP-seq
    iPSC ESC HSC MSC RCT NSAID SSRI ACE CRP
    BMI ICU ER IQ UV HDL LDL VLDL ROS GFP YFP RFP IgA IgD IgE IgG IgM HLA MHC NK CNS PNS GI
    COPD ADHD PTSD OCD CVD CHD IVF
    CI OR HR RR SD SE
    US USA UK EU WHO FDA NIH CDC
    pH
    """.split()  # noqa: SIM905
)

_START_PRONOUNS = frozenset("it its they their them this these those that such he she his her".split())  # noqa: SIM905
_SUBJECT_PRONOUNS = frozenset("it they this these those he she".split())  # noqa: SIM905
_DEMONSTRATIVES = frozenset("this these those".split())  # noqa: SIM905
_EXPLETIVE_IT = re.compile(  # "It is known that ...", "it has recently been shown that ...": no referent needed
    r"^it\s+(?:(?:has|have|had|may|might|can|could|will|would|should|also|now|not|\w+ly)\s+){0,3}"
    r"(?:is|was|be|been|remains|remained|appears|appeared|seems|seemed)\b.*?\b(?:that|to|whether|if|how|why)\b",
    re.I,
)
_ANAPHORS = re.compile(
    r"\b(?:aforementioned|above-mentioned|the\s+above)\b"
    # what the sentence before said: "Another possibility is ...", "Besides this, ...", "Examples are ...",
    # "... reported similar results" (session 36's triage of ClaimGen claims)
    r"|^(?:another\s+(?:possibility|explanation|reason|option|mechanism|hypothesis|factor|example)"
    r"|besides\s+(?:this|that)|examples\s+(?:are|include))\b"
    r"|\bsimilar\s+(?:results|findings|effects|observations|outcomes)\b(?!\s+(?:to|as|in)\b)",
    re.I,
)
_DEICTIC = re.compile(
    r"\b(?:we|our|ours|us|here|herein|hereby)\b"
    r"|\b(?:this|the\s+present|the\s+current|the\s+presented)\s+(?:study|studies|paper|work|article|review|report|"
    r"trial|analysis|investigation|experiment|experiments|manuscript|cohort|series|survey|meta-analysis)\b"
    r"|\bthe\s+authors\b"
    r"|\b(?:fig(?:ure)?s?\.?|tables?|supplementary\s+(?:fig(?:ure)?|table|material)s?)\s+[S]?\d+[A-Za-z]?\b",
    re.I,
)
_FIRST_PERSON_CASE = re.compile(r"\b(?:We|we|Our|our|Ours|ours|us)\b")  # "US" (the country) is not "us"
_CITATIONS = re.compile(
    r"\[\s*\d+(?:\s*[-–,]\s*\d+)*\s*\]"  # [12], [3, 4], [5-7]
    r"|\[\s*<\|[^\]]*\|>\s*\]"  # dataset citation tokens
    r"|\(\s*(?:[A-Z][\w'\-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'\-]+)?)?,?\s+(?:19|20)\d\d[a-z]?"
    r"(?:\s*[;,]\s*(?:[A-Z][\w'\-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'\-]+)?)?,?\s+)?(?:19|20)\d\d[a-z]?)*\s*)\)"
    r"|\bet\s+al\b\.?"
    r"|\(\s*(?:refs?\.?\s*)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\s*\)"  # (12), (1, 2), (ref. 4)
)
_ABBREV_TOKEN = re.compile(r"[^\s,;:()\[\]{}\"'“”‘’.]+")
_ROMAN = re.compile(r"^(?=[IVXLC]+$)M*(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})$")
_GREEK = re.compile(r"[\u0370-\u03ff]")
_LIST_ITEM = r"[\w\-']+(?: [\w\-']+){0,2}"
_COMMA_LIST = re.compile(rf"\b{_LIST_ITEM}(?:, {_LIST_ITEM})+,? (?:and|or) {_LIST_ITEM}")  # A, B(,) and C
_DISCOURSE = frozenset(
    """
    however though thus therefore furthermore moreover interestingly additionally which when where that who
    whereas while but also then indeed finally first second respectively including such like
    """.split()  # noqa: SIM905
)
PREPOSITIONS = frozenset("in on at for with by from of to into after before during among between under".split())  # noqa: SIM905
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "X"})
_OBJECTS = frozenset({"obj", "iobj", "dobj", "attr", "ROOT"})


def decontextualization_reasons(
    text: str,
    doc: Any,
    known: frozenset[str] | None,
    digit_symbols_ok: bool = True,
    max_caps: int | None = 3,
) -> list[str]:
    """Why a claim may need its source to be understood: an unresolved pronoun or demonstrative (at the start,
    as the main clause's subject, a demonstrative determiner, "this"/"these" standing alone, "their" with nothing in
    the claim to point to), first-person or deictic reference ("we", "our",
    "here", "this study", "Figure 2"), a citation marker, an abbreviation neither defined in the claim nor in
    ``known`` (``known=None``: no abbreviation check). Empty when none is found."""
    reasons: list[str] = []
    toks = [t for t in doc if not t.is_space]
    first = toks[0].lower_ if toks else ""
    deictic = [m for m in _DEICTIC.finditer(text)]
    in_deictic = {i for m in deictic for i in range(m.start(), m.end())}
    expletive = first == "it" and _EXPLETIVE_IT.match(text.strip())
    such_as = first == "such" and len(toks) > 1 and toks[1].lower_ == "as"
    if first in _START_PRONOUNS and not expletive and not such_as:
        reasons.append(reason("pronoun_start", repr(toks[0].text)))
    m = _ANAPHORS.search(text)
    if m:
        reasons.append(reason("anaphor", repr(m.group(0))))
    for t in toks[1:]:
        low = t.lower_
        if low in _SUBJECT_PRONOUNS and t.dep_ in ("nsubj", "nsubj:pass", "expl") and t.head.dep_ == "ROOT":
            if low == "it" and _EXPLETIVE_IT.match(text[t.idx :]):
                continue  # "In particular, it was shown that ..."
            if not any(p.pos_ in ("NOUN", "PROPN") for p in toks[: t.i]):  # an antecedent earlier in the claim
                reasons.append(reason("pronoun_subject", repr(t.text)))
        elif low in ("former", "latter") and t.i > 0 and doc[t.i - 1].lower_ == "the":
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if nxt is None or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):  # "the former communist countries" is not
                reasons.append(reason("anaphor", repr(f"{doc[t.i - 1].text} {t.text}")))
        elif (
            low in _DEMONSTRATIVES
            and t.i + 1 < len(doc)
            and doc[t.i + 1].is_alpha
            and t.dep_ == "det"
            and t.idx not in in_deictic  # "this study" is reported as deictic
        ):
            reasons.append(reason("demonstrative", repr(f"{t.text} {doc[t.i + 1].text}")))
        if low in ("this", "these") and t.tag_ == "DT" and t.dep_ != "det" and t.idx not in in_deictic:
            reasons.append(reason("demonstrative", repr(t.text)))  # "The reason for this is unclear."
        elif low == "their" and not _has_plural_referent(t):
            # "PPARγ is an important regulator of their differentiation": nothing "their" can point to
            reasons.append(reason("anaphor", repr(t.text)))
    for m in deictic:
        word = m.group(0)
        if word.lower() in ("we", "our", "ours", "us") and not _FIRST_PERSON_CASE.fullmatch(word):
            continue
        reasons.append(reason("deictic", repr(word)))
    for m in _CITATIONS.finditer(text):
        reasons.append(reason("citation_marker", repr(m.group(0).strip())))
    for abbr in [] if known is None else undefined_abbreviations(text, known, digit_symbols_ok, max_caps):
        reasons.append(reason("undefined_abbreviation", repr(abbr)))
    return list(dict.fromkeys(reasons))


def undefined_abbreviations(
    text: str, known: frozenset[str], digit_symbols_ok: bool = True, max_caps: int | None = 3
) -> list[str]:
    """Short forms that are not defined in the text — by "osteoarthritis (OA)" or "OA (osteoarthritis)" — and
    not in ``known``: all-capital tokens of 2 to ``max_caps`` letters ("OA", "MIA", "ART"; plural "RCTs" →
    "RCT") and lower-case-prefixed ones ("iPSC", "mTOR", "cRCT").

    Not taken as abbreviations: Roman numerals; capital-lower-capital names ("PrP", "RalB", "BiP"); longer
    all-capital tokens when ``max_caps`` is set ("KRAS", "EGFR", "MTHFR": gene and protein symbols, which are
    names rather than short forms, dominate them in biomedical text); and, with ``digit_symbols_ok``, tokens with
    digits or Greek letters (BRCA1, IL-6, CD4+, TNF-α, CO2)."""
    out: list[str] = []
    for m in _ABBREV_TOKEN.finditer(text):
        tok = m.group(0).strip("-–/+")
        if not tok or tok in known:
            continue
        if digit_symbols_ok and (any(ch.isdigit() for ch in tok) or _GREEK.search(tok)):
            continue
        for part in re.split(r"[-/]", tok):
            part = re.sub(r"\d+[a-z]?\+?$", "", part)  # only reached without digit_symbols_ok: BRCA1 -> BRCA
            core = part[:-1] if part.endswith("s") and sum(ch.isupper() for ch in part[:-1]) >= 2 else part
            if not core.isalpha() or core in known or _ROMAN.match(core):
                continue
            caps = sum(ch.isupper() for ch in core)
            prefixed = bool(re.fullmatch(r"[a-z]{1,2}[A-Z]{2,}", core))
            if not prefixed and not (core.isupper() and caps >= 2 and (max_caps is None or caps <= max_caps)):
                continue
            if re.search(rf"\(\s*{re.escape(core)}s?\s*[),;]", text) or re.search(rf"\b{re.escape(core)}s?\s*\(", text):
                continue  # defined by a parenthetical in the claim
            if core not in out:
                out.append(core)
    return out


def atomicity_reasons(text: str, doc: Any) -> list[str]:
    """Why a claim may not be atomic: coordinated clauses (a conjunct verb with its own subject), more than one
    main predicate (coordinated verbs sharing a subject, parataxis, a semicolon, a "whereas"/"while"/"but"
    clause), a list of ≥ 3 coordinated noun phrases (in the subject or object when the parse says where), or
    "respectively". Empty when none is found."""
    reasons: list[str] = []
    toks = list(doc)
    for t in toks:
        if t.dep_ == "conj" and _predicate(t.head) and _finite(t):
            if any(c.dep_ in ("nsubj", "nsubj:pass") for c in t.children):
                reasons.append(reason("coordinated_clauses", repr(f"{t.head.text} … {t.text}")))
            else:
                reasons.append(reason("multiple_predicates", repr(f"{t.head.text} … {t.text}")))
        elif t.dep_ == "parataxis" and _finite(t) and _predicate(t.head) and t.head.dep_ == "ROOT":
            reasons.append(reason("multiple_predicates", repr(f"{t.head.text} … {t.text}")))
    # Lexical backups for parser misses: "and/or/but [adverb] VBZ-verb" with no noun reading ("and reduces").
    for i, t in enumerate(toks[:-1]):
        if t.lower_ in ("and", "or", "but"):
            j = i + 1
            if toks[j].tag_ == "RB" or toks[j].lower_ in ("also", "thereby", "then", "not"):
                j += 1
            if (
                j < len(toks)
                and finite_verb_form(toks[j].text, third_person_only=True)
                and not _noun_reading(toks[j].text)
            ):
                reasons.append(reason("multiple_predicates", repr(f"{t.text} {toks[j].text}")))

    def verb_like(u: Any) -> bool:
        return (u.tag_ in VERBAL_TAGS and u.pos_ in ("VERB", "AUX")) or (
            finite_verb_form(u.text, third_person_only=True) and not _noun_reading(u.text)
        )

    for i, t in enumerate(toks[:-2]):  # "X reduces pain, and ibuprofen lowers fever": a second clause
        if t.text == "," and toks[i + 1].lower_ in ("and", "or", "but") and any(verb_like(u) for u in toks[:i]):
            for u in toks[i + 3 : i + 7]:
                if u.is_punct:
                    break
                if verb_like(u):
                    reasons.append(reason("coordinated_clauses", repr(f", {toks[i + 1].text} … {u.text}")))
                    break
    if ";" in text:
        reasons.append(reason("multiple_predicates", "';'"))
    m = re.search(r"\bwhereas\b|,\s*(?:while|but)\b", text, re.I)
    if m:
        reasons.append(reason("coordinated_clauses", repr(m.group(0).strip(", "))))
    for t in toks:
        conjs = [c for c in t.children if c.dep_ == "conj" and c.pos_ in _NOMINAL]
        if len(conjs) >= 2 and t.pos_ in _NOMINAL:
            span = doc[t.i : conjs[-1].i]
            if not any(x.text == "," for x in span) or not any(x.dep_ == "cc" for x in conjs[-1].children):
                continue  # "A, B and C" has a comma and a conjunction; parser noise has not
            where = _np_position(t)
            reasons.append(reason("list", f"{len(conjs) + 1} coordinated items{where}: {t.text}, …, {conjs[-1].text}"))
    if not any(r.startswith("list") for r in reasons):
        for m in _COMMA_LIST.finditer(text):
            words = re.findall(r"[\w\-']+", m.group(0).lower())
            if (
                _DISCOURSE.isdisjoint(words)
                and words[0] not in PREPOSITIONS
                and not any(finite_verb_form(w, third_person_only=True) for w in words)
            ):
                reasons.append(reason("list", f"comma-separated items: {m.group(0)!r}"))
                break
    if re.search(r"\brespectively\b", text, re.I):
        reasons.append("respectively")
    return list(dict.fromkeys(reasons))


def _finite(t: Any) -> bool:
    """A finite verb by the parse (tag and UPOS agree), or a verb with its own subject or auxiliary."""
    if t.pos_ not in ("VERB", "AUX"):
        return False
    return t.tag_ in VERBAL_TAGS or any(c.dep_ in ("nsubj", "nsubj:pass", "aux", "aux:pass") for c in t.children)


def _predicate(t: Any) -> bool:
    """A verb, or a nominal/adjectival predicate with a copula."""
    return t.pos_ in ("VERB", "AUX") or any(c.dep_ == "cop" for c in t.children)


def _np_position(t: Any) -> str:
    node = t
    for _ in range(6):
        if node.dep_ in SUBJECT_DEPS:
            return " in the subject"
        if node.dep_ in _OBJECTS:
            return " in the object" if node.dep_ != "ROOT" else " in the predicate"
        if node.head is node:
            break
        node = node.head
    return ""


_WH_SUBJECT = frozenset({"what", "which", "who", "whom", "whose"})
_QUESTION_LEFT = re.compile(
    r"\b(?:which|what) of (?:the following|these|those)\b|\bof the following\b|\b(?:all|none|both) of the above\b"
    r"|\bhow (?:many|much)\b|_{2,}"
    r"|\b(?:to|of|from|by|with|for|on|at|than) what\b(?=\s*[,.;]|\s*$)"  # "... from high to high to what, in ..."
    r"|\bwhat\s*\.?\s*$"  # "... are called what.", "... and what it does define its what."
    # an exam's truth stem left at the start: "True about placenta accreta is seen in ..." (not "True open bite")
    r"|^(?:not\s+)?(?:true|false|correct|incorrect|wrong)\s+(?:about|regarding)\b",
    re.I,
)


# "how much" opening a clause of its own is no question left: "The measure of how much a given volume of matter
# decreases under pressure is called compressibility" (not "A year has how many days")
_EMBEDDED_HOW = re.compile(r"how (?:many|much) (?:a|an|the|this|that|these|those|it|they|we|you|one)(?![\w-])", re.I)


def question_left(text: str, doc: Any) -> list[str]:
    """What is left of a question in a claim: a question mark, "which of the following", "all of the above", "how
    many", a blank, or a sentence that opens with a wh-word followed by a verb ("What causes ...")."""
    reasons = []
    if "?" in text:
        reasons.append("question_mark")
    m = next((m for m in _QUESTION_LEFT.finditer(text) if not _EMBEDDED_HOW.match(text, m.start())), None)
    if m:
        reasons.append(reason("question_words", repr(m.group(0))))
    toks = [t for t in doc if not t.is_punct]
    if len(toks) > 1 and toks[0].lower_ in _WH_SUBJECT and (toks[1].pos_ in ("AUX", "VERB") or toks[1].tag_ == "MD"):
        reasons.append(reason("wh_question_order", repr(f"{toks[0].text} {toks[1].text}")))
    return reasons


def agreement_errors(doc: Any) -> list[str]:
    """A third-person singular verb with a plural subject ("lncRNAs plays", "the results is"): the main verb (or
    its auxiliary / copula) tagged VBZ whose subject's head is a plural noun or coordinated nouns."""
    found = _singular_verb_of_plural_subject(doc)
    return [_agreement_reason(*found)] if found else []


def _agreement_reason(subj: Any, verb: Any) -> str:
    return reason("agreement", repr(f"{subj.text} … {verb.text}"))


def _singular_verb_of_plural_subject(doc: Any) -> tuple[Any, Any] | None:
    """(subject, verb) of the first root clause whose VBZ verb (or auxiliary / copula) has a plural subject or
    nouns joined by "and" as its subject; None if there is none."""
    for t in doc:
        if t.dep_ != "ROOT":
            continue
        verbs = [t, *(c for c in t.children if c.dep_ in ("aux", "aux:pass", "cop"))]
        finite = [
            v
            for v in verbs
            if v.tag_ == "VBZ"
            or (v.pos_ in ("VERB", "AUX") and v.tag_ == "NNS" and finite_verb_form(v.text, third_person_only=True))
        ]
        subj = next((c for c in t.children if c.dep_ in ("nsubj", "nsubj:pass")), None)
        if not finite or subj is None or not subj.is_alpha or subj.tag_ not in ("NNS", "NNPS", "NN", "NNP"):
            continue
        if any(x.tag_ == "VBG" and x.i < subj.i and x.dep_ in ("aux", "acl", "amod") for x in subj.subtree):
            continue  # a participle's object read as the subject: "The tooth most commonly having bifurcated roots is"
        if _age_unit(subj):
            continue  # "2 years female has been treated": an age, not the subject
        if subj.i > finite[0].i:
            continue  # a subject after its verb is a misparse here ("This is because less proprioceptors are ...")
        first_noun = next((x for x in t.sent if x.tag_.startswith("NN")), None)  # the root's sentence, not a context's
        between = {x.lower_ for x in doc[subj.i : t.i]}
        coordinated = any(
            c.dep_ == "conj" and c.tag_.startswith("NN") and c.i < t.i and "and" in between and "of" not in between
            for c in subj.children
        ) and not _shared_determiner(subj)
        plural = (
            subj.tag_ in ("NNS", "NNPS")
            and _plural_word(subj.text)  # not "Pulp proper resembles" ("pulp" tagged NNS)
            and first_noun is not None
            and subj.i == first_noun.i  # a misparse picks a later noun as the subject
        )
        clausal = any(c.tag_ == "VBG" and c.dep_ in ("acl", "amod") for c in subj.children) or (
            subj.i > 0 and doc[subj.i - 1].tag_ == "VBG"  # "Crossing charges is", "Birds flying ... is"
        )
        if (plural or coordinated) and not clausal:
            return subj, finite[0]
    return None


def _age_unit(t: Any) -> bool:
    """A unit of time after a number and before the noun it ages ("2 years female", "5 years child")."""
    doc = t.doc
    return (
        t.lower_ in ("years", "yrs", "months", "weeks", "days", "hours")
        and t.i > 0
        and doc[t.i - 1].like_num
        and t.i + 1 < len(doc)
        and doc[t.i + 1].pos_ in ("NOUN", "PROPN", "ADJ")
    )


def _shared_determiner(subj: Any) -> bool:
    """Two singular nouns joined by "and" under one determiner and sharing a modifier after both, which name one
    thing: "The major entrance and exit for the respiratory system is the nose" (not "The liver and spleen is
    enlarged", "The lung and the heart", "The sun, moon, and stars")."""
    det = any(c.dep_ in ("det", "nmod:poss") and c.lower_ in _ONE_DETERMINERS for c in subj.children)
    conjuncts = [c for c in subj.children if c.dep_ == "conj"]
    own_det = any(any(d.dep_ in ("det", "nmod:poss") for d in c.children) for c in conjuncts)
    pair = len(conjuncts) == 1 and not any(t.text == "," for t in subj.doc[subj.i : conjuncts[0].i])
    after = pair and any(c.dep_ == "nmod" and c.i > conjuncts[0].i for c in (*subj.children, *conjuncts[0].children))
    return det and after and not own_det and all(c.tag_ in ("NN", "NNP") for c in (subj, *conjuncts))


_ONE_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "its", "their"})


def agreement_repaired(text: str, doc: Any, verb_reading: Callable[[str], bool] | None = None) -> str | None:
    """``text`` with the verb of an agreement error (:func:`agreement_errors`, or a verb form after a plural noun,
    :func:`fluency_checks`) put in the plural — "is" → "are", "has" → "have", "causes" → "cause" — when the parse
    can be trusted (:func:`_clear_subject`). For claims made from exam stems that carry the source's error
    ("Topical steroids is most effective in ...", "Diabetes insipidus, bone lesions and exophthalmos is seen in
    ..."). None when there is nothing (safe) to repair."""
    found = _singular_verb_of_plural_subject(doc)
    if found is None and not root_is_finite(doc):
        verb = _fallback_verb(doc, verb_reading)
        subj = _plural_subject_before(verb) if verb is not None else None
        found = (subj, verb) if subj is not None else None
    if found is None:
        return None
    subj, verb = found
    if not _clear_subject(subj, verb):
        return None
    plural = SING_PLUR.get(verb.lower_) or base_form(verb.lower_)
    if plural is None:
        return None
    if verb.text[:1].isupper():
        plural = plural.upper() if verb.text.isupper() and len(verb.text) > 1 else plural.capitalize()
    return text[: verb.idx] + plural + text[verb.idx + len(verb.text) :]


def _clear_subject(subj: Any, verb: Any) -> bool:
    """Whether the parse that makes ``subj`` the subject of ``verb`` can be trusted enough to change the verb: a VBZ
    verb (or the fallback's "-s" form) after its one subject; nothing before the subject that makes it singular ("5
    years old child", "A dimorphic fungi") or puts it in a subordinate or participial phrase ("When magma cools
    slowly, it has", "The tooth most commonly having bifurcated roots is"); no relative clause of its own in the
    singular ("Vitamins that is fat soluble is") and no "a" + noun after the copula ("Bacteria is a prokaryote"),
    signs that the source meant one; not a subject and a lexical verb that may each be a noun or a verb ("Deciduous
    loses its leaves", "Roots, stems ..."); and between the two no gerund right after the subject ("Humans building
    communities ... is"), no subordinator ("where a river ... meets") and no finite verb but a relative clause's
    ("bacteria which plays ... is")."""
    doc = subj.doc
    if verb.tag_ not in ("VBZ", "NNS") or verb.i <= subj.i:
        return False
    if verb.lower_ not in SING_PLUR and _noun_reading(verb.text) and finite_verb_form(subj.lower_):
        return False  # two words that are nouns and verbs both ("Roots, stems and leaves are", "loses its leaves")
    clause = verb if verb.dep_ == "ROOT" else verb.head  # a copula's or auxiliary's subjects are its head's
    if sum(c.dep_ in ("nsubj", "nsubj:pass", "csubj") for c in clause.children) > 1:
        return False
    start = verb.sent.start
    for t in doc[start : subj.i]:
        if t.like_num or t.lower_ in ("a", "an", "each", "every", "one", "this", "that") or t.tag_ in ("VBG", "VBN"):
            return False
        if t.pos_ == "SCONJ" or t.tag_ == "WRB":
            return False
    if subj.i + 1 < verb.i and doc[subj.i + 1].tag_ == "VBG":
        return False
    relative_clauses = [c for c in subj.children if c.dep_ == "acl:relcl"]
    coordinated = any(c.dep_ == "conj" for c in subj.children)  # its clause may be the last noun's
    if not coordinated and any(x.tag_ == "VBZ" for c in relative_clauses for x in (c, *c.children)):
        return False  # the stem meant one: "Vitamins that is fat soluble is ..."
    if verb.dep_ == "cop" and any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in verb.head.children):
        return False  # "Bacteria is a prokaryote": a singular predicate
    for t in doc[subj.i + 1 : verb.i]:
        if t.pos_ == "SCONJ" or t.tag_ == "WRB" or t.lower_ in ("if", "when", "where", "while", "whereas"):
            return False
        relative = any(x.lower_ in ("that", "which", "who") for x in doc[max(subj.i, t.i - 2) : t.i])
        if t.tag_ in ("VBZ", "VBP", "VBD", "MD") and not relative:
            return False
    return True


SING_PLUR = {"is": "are", "was": "were", "has": "have", "does": "do"}  # a singular verb form and its plural


def base_form(verb: str) -> str | None:
    """The base form of a third-person singular verb form ("causes" -> "cause"), or None."""
    from lemminflect import getLemma

    if not finite_verb_form(verb, third_person_only=True):
        return None
    lemmas = getLemma(verb, upos="VERB")
    return lemmas[0] if lemmas and lemmas[0] != verb else None


def _has_plural_referent(their: Any) -> bool:
    """Whether the claim has something "their" can point to, before or after it ("Due to their high prevalence of
    X, PWID are ..."), outside the phrase "their" belongs to ("PPARγ regulates their target genes" has none): a
    plural noun ("bNAbs", "Tregs"), a name in capitals ("PWID"), "they" or "both", or nouns joined by "and"
    before it ("Patients and their families")."""
    own = set(range(their.i, max(their.i, their.head.i) + 1))  # "their target genes"
    for t in their.doc:
        if t.i in own:
            continue
        if t.lower_ in ("they", "both") or t.tag_ in ("NNS", "NNPS"):
            return True
        name_or_noun = t.pos_ in ("NOUN", "PROPN") and len(t.text) > 3
        if name_or_noun and (t.text.isupper() or (t.text.endswith("s") and _plural_noun(t.text.lower()))):
            return True
        if t.dep_ == "cc" and t.i < their.i and t.head.dep_ == "conj" and t.head.head.pos_ in ("NOUN", "PROPN"):
            return True
    return False


def _plural_noun(word: str) -> bool:
    """A plural noun form by lemminflect ("results", "bacteria", "teeth"), or a word it does not know that ends in
    "-s" ("heterotrophs", "nucleotides"); not "foramen", an ending of singular names ("Aeromonas", "Strongyloides",
    "Actinomyces", "ascites", "herpes"), a singular the tagger called plural ("pulp"), nor a noun whose "-s" form is
    also its singular ("means", "series")."""
    from lemminflect import getAllLemmas

    if word in _SAME_IN_BOTH_NUMBERS:
        return False
    lemmas = getAllLemmas(word, upos="NOUN").get("NOUN", ())
    if not lemmas:  # "heterotrophs", "nucleotides"; not "ascites", "Strongyloides", "Aeromonas", "herpes"
        return word.endswith("s") and not word.endswith(_SINGULAR_ENDINGS)
    return word in _COLLECTIVE_PLURALS or any(lemma != word for lemma in lemmas)


def _plural_word(word: str) -> bool:
    """A plural subject: an acronym's plural ("ELISAs", "NSAIDs") or :func:`_plural_noun`, but no word in
    "-ss/-us/-is/-ics/-ies" (lemminflect lemmatises "physics" to "physic", "rabies" to "raby")."""
    if len(word) > 2 and word.endswith("s") and word[:-1].isupper():
        return True
    return not word.lower().endswith(("ss", "us", "is", "ics", "ies")) and _plural_noun(word.lower())


# endings of singular words in "-s" that lemminflect does not know: genus and disease names, Latin and Greek forms
_SINGULAR_ENDINGS = ("ss", "us", "is", "as", "ics", "ies", "myces", "oides", "ites", "pes", "os")
_COLLECTIVE_PLURALS = frozenset({"people", "cattle", "police", "livestock", "poultry", "vermin", "folk"})
_SAME_IN_BOTH_NUMBERS = frozenset(
    {"means", "series", "species", "news", "headquarters", "crossroads", "whereabouts", "barracks", "innings"}
)


def wellformed_reasons(text: str, doc: Any, verb_reading: Callable[[str], bool] | None = None) -> list[str]:
    """Everything :func:`fluency_checks`, :func:`question_left` and :func:`agreement_errors` find (empty: the
    claim passes)."""
    return fluency_checks(text, doc, verb_reading) + question_left(text, doc) + agreement_errors(doc)


_DEFINITION = re.compile(r"\(\s*([A-Za-z][\w\-]{0,11}?s?)\s*[;,)]")


def abbreviation_definitions(text: str) -> dict[str, str]:
    """Short forms defined in ``text`` as "long form (SF)" (Schwartz & Hearst, 2003, simplified): the long form is
    the shortest run of at most min(|SF| + 5, 2 |SF|) words before the parenthesis whose characters contain the
    short form's letters in order, the first letter starting a word. "autism spectrum disorder (ASD)" -> {"ASD":
    "autism spectrum disorder"}; a plural short form ("RCTs") is stored without its "s" too."""
    out: dict[str, str] = {}
    for m in _DEFINITION.finditer(text):
        sf = m.group(1)
        letters = [c.lower() for c in sf if c.isalnum()]
        if not 2 <= len(letters) <= 10 or not any(c.isupper() for c in sf) or not sf[0].isalnum():
            continue
        words = text[: m.start()].rstrip().split()
        limit = min(len(letters) + 5, 2 * len(letters))
        for n in range(1, min(limit, len(words)) + 1):
            cand = words[-n:]
            if _matches(letters, " ".join(cand).lower()):
                long = " ".join(cand).strip(" ,;:")
                if long and long.lower() != sf.lower():
                    out.setdefault(sf, long)
                    if sf.endswith("s") and sum(c.isupper() for c in sf) >= 2:
                        out.setdefault(sf[:-1], long)
                break
    return out


def _matches(letters: list[str], long: str) -> bool:
    """Whether the short form's letters occur in order in ``long`` (right to left), its first letter at the start
    of a word."""
    i = len(long) - 1
    for k in range(len(letters) - 1, -1, -1):
        c = letters[k]
        while i >= 0 and (long[i] != c or (k == 0 and i > 0 and long[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return False
        i -= 1
    return True


def expand_abbreviations(claim: str, definitions: dict[str, str], known: frozenset[str]) -> tuple[str, list[str]]:
    """The claim with each undefined short form that ``definitions`` knows written out at its first use
    ("ASD" -> "autism spectrum disorder (ASD)"), and the short forms expanded."""
    done: list[str] = []
    for sf in undefined_abbreviations(claim, known):
        long = definitions.get(sf)
        if not long:
            continue
        m = re.search(rf"(?<![\w-]){re.escape(sf)}s?(?![\w-])", claim)
        if m is None:
            continue
        first, *rest = long.split()
        title_cased = any(c.isupper() for c in "".join(rest))
        if m.start() > 0 and first[:1].isupper() and first[1:].islower() and not title_cased:
            # "Reactive oxygen species (ROS)" defined at a sentence start; a title-cased name ("Intellectual
            # Disability", "Emergency Department") keeps its capitals
            long = long[0].lower() + long[1:]
        elif m.start() == 0 and first.isalpha() and first.islower():
            long = long[0].upper() + long[1:]  # "scaling and root planning (SRP) with ..." opens the claim
        after = claim[m.end() :]
        # the word the long form ends in is not said twice: "HC formulation" -> "high-concentration formulation
        # (HC)", not "... formulation (HC) formulation"
        nxt = re.match(r"\s+(\w+)", after)
        if nxt and nxt.group(1).lower().rstrip("s") == long.split()[-1].lower().rstrip("s"):
            after = after[nxt.end() :]
        claim = f"{claim[: m.start()]}{long} ({m.group(0)}){after}"
        done.append(sf)
    return claim, done
