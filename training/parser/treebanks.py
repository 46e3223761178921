"""Treebanks for ``en_claimforge_sci``: read CoNLL-U, map CRAFT to UD v2, make Atis look like real questions, and
write spaCy DocBin files for ``spacy train``.

    python training/parser/treebanks.py --data ../shared/data --out build/parser_sci/corpus \
        [--n-sents 10] [--seed 0] [--atis-share 0.8] [--ewt-copies 2]

Writes ``train.spacy`` (EWT train x ``--ewt-copies`` + Atis train + CRAFT train), ``dev.spacy`` (the three dev sets,
used to pick the checkpoint) and one file per treebank and split (``ewt_test.spacy``, ``atis_test.spacy``,
``craft_test.spacy``, ...) for the per-treebank scores of the model card; ``--dump DIR`` also writes the mapped CRAFT
and the augmented Atis as CoNLL-U for reading. A JSON summary (sentences, tokens, label counts after mapping) goes to
stdout.

**CRAFT** (`craft/NOTE.md`) has UD tags and features but ClearNLP/Stanford-style dependencies. :func:`craft_to_ud`
turns them into UD v2 as UD English-EWT v2.15 annotates it (the mapping is listed in ``docs/models/parser.md``):

* prepositional phrases are restructured: the object (``pobj``) takes the preposition's place under its head as
  ``obl`` (head is a verb, adjective or adverb) or ``nmod`` (otherwise), and the preposition becomes its ``case``;
  a clausal object (``pcomp`` verb) becomes ``advcl``/``acl`` with the preposition as ``mark``; ``agent`` gives
  ``obl:agent``; nested prepositions ("from within the cell") are handled innermost first;
* copulas: "be" with an ``attr``/``acomp`` (or, failing that, a prepositional predicate) hands its place to the
  predicate and becomes ``cop`` (AUX), its other dependents move to the predicate; with an ``expl`` ("there is X")
  the ``attr`` is the ``nsubj``;
* coordination: ClearNLP chains conjuncts (each ``conj`` on the previous one) and hangs ``cc`` and commas on the
  preceding conjunct; UD puts every ``conj`` on the first conjunct and ``cc``/commas on the following one;
* labels: ``dobj``→``obj``, ``nsubjpass``→``nsubj:pass``, ``auxpass``→``aux:pass``, ``csubjpass``→``csubj:pass``,
  ``poss``→``nmod:poss``, ``relcl``→``acl:relcl``, ``prt``→``compound:prt``, ``preconj``→``cc:preconj``,
  ``predet``→``det:predet``, ``neg``→``advmod`` (``det`` for "no"), ``quantmod``→``advmod``,
  ``npadvmod``→``obl:unmarked``/``nmod:unmarked``, ``acomp``/``attr``/``oprd`` of other verbs→``xcomp``,
  ``nmod`` (ClearNLP's noun pre-modifier)→``compound`` (``amod`` for adjectives and participles), ``dative``→``iobj``
  (or a prepositional phrase when it is a preposition), ``meta``→``dep``;
* UPOS: auxiliaries, copulas and modals are ``AUX`` (CRAFT tags every "be" ``VERB``); lemmas are dropped (CRAFT
  normalises them: ``brca0``, ``#crd#``), so the lemmatizer learns nothing from CRAFT.

**Atis** is lower-case with no final punctuation. In a seeded share of sentences (``--atis-share``) the text is
re-cased (sentence start, "I", proper nouns as their lemma is cased) and given a final "?" (questions) or "."; the
rest stay as they are. Atis has no PTB tags: :func:`ptb_tag` derives them from UPOS, features and lemma (its
agreement with the gold tags of EWT train is printed in the summary).

GENIA is not used for training: its train split exists only as XML phrase-structure trees that need the Stanford
converter (Java), which is not available here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

NOMINAL_HEAD = {"NOUN", "PROPN", "PRON", "NUM", "SYM", "X", "DET"}
CLAUSAL_HEAD = {"VERB", "AUX", "ADJ", "ADV"}
MODALS = {"can", "could", "may", "might", "must", "shall", "should", "will", "would", "ought"}
WH = {"what", "which", "who", "whom", "whose", "where", "when", "why", "how"}
CONJ_PUNCT = {",", ";"}
AUX_LEMMAS = {"be", "have", "do", "get"} | MODALS


@dataclass
class Token:
    id: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int
    deprel: str
    misc: str = "_"

    @property
    def space_after(self) -> bool:
        return "SpaceAfter=No" not in self.misc.split("|")


@dataclass
class Sentence:
    tokens: list[Token]
    comments: list[str] = field(default_factory=list)
    source: str = ""

    def children(self, head: int) -> list[Token]:
        return [t for t in self.tokens if t.head == head]

    def tok(self, i: int) -> Token:
        return self.tokens[i - 1]


class ConlluError(ValueError):
    pass


def _open(path: Path) -> Iterable[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def read_conllu(path: Path) -> Iterator[Sentence]:
    """Sentences of a CoNLL-U file (``.gz`` too). Multiword-token ranges give their SpaceAfter to the last word;
    empty nodes are skipped. A malformed line raises :class:`ConlluError` naming the file and line."""
    tokens: list[Token] = []
    comments: list[str] = []
    mwt_end, mwt_misc = 0, "_"
    start = 1
    with _open(path) as handle:
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                if tokens:
                    yield _checked(Sentence(tokens, comments, f"{path}:{start}"), path, start)
                tokens, comments, start = [], [], number + 1
                continue
            if line.startswith("#"):
                comments.append(line)
                continue
            cols = line.split("\t")
            if len(cols) != 10:
                raise ConlluError(f"{path}:{number}: expected 10 tab-separated columns, found {len(cols)}")
            if "." in cols[0]:
                continue
            if "-" in cols[0]:
                mwt_end, mwt_misc = int(cols[0].split("-")[1]), cols[9]
                continue
            try:
                ident, head = int(cols[0]), int(cols[6])
            except ValueError as exc:
                raise ConlluError(f"{path}:{number}: ID and HEAD must be integers: {line!r}") from exc
            misc = cols[9]
            if mwt_end and ident < mwt_end:
                misc = _set_space_after(misc, False)
            elif mwt_end and ident == mwt_end:
                misc = _set_space_after(misc, "SpaceAfter=No" not in mwt_misc.split("|"))
                mwt_end = 0
            tokens.append(Token(ident, cols[1], cols[2], cols[3], cols[4], cols[5], head, cols[7], misc))
    if tokens:
        yield _checked(Sentence(tokens, comments, f"{path}:{start}"), path, start)


def _checked(sentence: Sentence, path: Path, line: int) -> Sentence:
    ids = [t.id for t in sentence.tokens]
    if ids != list(range(1, len(ids) + 1)):
        raise ConlluError(f"{path}:{line}: token IDs are not 1..n")
    if any(not 0 <= t.head <= len(ids) for t in sentence.tokens):
        raise ConlluError(f"{path}:{line}: a HEAD is out of range")
    return sentence


def _set_space_after(misc: str, space: bool) -> str:
    parts = [p for p in misc.split("|") if p and p != "_" and not p.startswith("SpaceAfter=")]
    if not space:
        parts.append("SpaceAfter=No")
    return "|".join(sorted(parts)) or "_"


def write_conllu(sentences: Iterable[Sentence], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for s in sentences:
            for c in s.comments:
                out.write(c + "\n")
            for t in s.tokens:
                cols = [str(t.id), t.form, t.lemma or "_", t.upos, t.xpos, t.feats, str(t.head), t.deprel, "_", t.misc]
                out.write("\t".join(cols) + "\n")
            out.write("\n")


# ---------------------------------------------------------------------------------------------- CRAFT -> UD v2

SIMPLE = {
    "dobj": "obj",
    "nsubjpass": "nsubj:pass",
    "auxpass": "aux:pass",
    "csubjpass": "csubj:pass",
    "poss": "nmod:poss",
    "relcl": "acl:relcl",
    "prt": "compound:prt",
    "preconj": "cc:preconj",
    "predet": "det:predet",
    "quantmod": "advmod",
    "oprd": "xcomp",
    "meta": "dep",
}


def craft_to_ud(sentence: Sentence) -> Sentence:
    """One CRAFT sentence with UD v2 dependencies (a copy; see the module docstring for the mapping)."""
    s = Sentence([replace(t) for t in sentence.tokens], list(sentence.comments), sentence.source)
    depth = _depths(s)
    for t in s.tokens:
        if t.xpos == "MD" or (t.deprel in {"aux", "auxpass"} and _lemma(t) in AUX_LEMMAS):
            t.upos = "AUX"
        if t.deprel == "aux" and t.upos == "PART":  # infinitival "to"
            t.deprel = "mark"
        if t.deprel == "nmod":  # ClearNLP's noun pre-modifier; UD's nmod is made below from prepositional phrases
            t.deprel = "amod" if t.upos in {"ADJ", "VERB"} else "compound"
    # 1. prepositional phrases, innermost first
    preps = [t for t in s.tokens if _is_prep(t)]
    for p in sorted(preps, key=lambda t: -depth[t.id]):
        _restructure_prep(s, p)
    # 2. copulas
    for t in list(s.tokens):
        if _lemma(t) == "be" and t.deprel not in {"aux", "auxpass", "aux:pass"}:
            _restructure_copula(s, t)
    # 3. remaining labels
    for t in s.tokens:
        head = s.tok(t.head) if t.head else None
        if t.deprel in SIMPLE:
            t.deprel = SIMPLE[t.deprel]
        elif t.deprel == "neg":
            t.deprel = "det" if t.upos == "DET" else "advmod"
        elif t.deprel == "npadvmod":
            t.deprel = "nmod:unmarked" if head is not None and head.upos in NOMINAL_HEAD else "obl:unmarked"
        elif t.deprel in {"acomp", "attr"}:
            t.deprel = "xcomp"
        elif t.deprel == "dative":
            t.deprel = "iobj"
        elif t.deprel in {"prep", "agent", "pobj", "pcomp"}:  # no object ("based on X", ranges "1 - 3"), orphans
            verbal = head is None or head.upos in CLAUSAL_HEAD
            if t.upos in {"VERB", "AUX"}:
                t.deprel = "advcl" if verbal else "acl"
            elif t.upos in {"ADJ", "ADV"}:
                t.deprel = "advmod"
            elif t.upos in NOMINAL_HEAD:
                t.deprel = "obl" if verbal else "nmod"
            else:
                t.deprel = "dep"
        if t.deprel in {"aux", "aux:pass", "cop"} and t.upos == "VERB":
            t.upos = "AUX"
    # 4. coordination
    _flatten_coordination(s)
    for t in s.tokens:
        t.lemma = ""
    _validate(s)
    return s


def _lemma(t: Token) -> str:
    return t.lemma.lower() if t.lemma else ""


def _depths(s: Sentence) -> dict[int, int]:
    depth: dict[int, int] = {}
    for t in s.tokens:
        d, h, seen = 0, t.head, set()
        while h and h not in seen:
            seen.add(h)
            d += 1
            h = s.tok(h).head
        depth[t.id] = d
    return depth


def _is_prep(t: Token) -> bool:
    return (
        t.deprel in {"prep", "agent"}
        or (t.deprel == "dative" and t.upos == "ADP")
        or (t.deprel == "pcomp" and t.upos == "ADP")
    )


def _obj_of(s: Sentence, p: Token) -> Token | None:
    kids = s.children(p.id)
    for label in ("pobj", "pcomp"):
        right = [k for k in kids if k.deprel == label and k.id > p.id] or [k for k in kids if k.deprel == label]
        if right:
            return right[0]
    return None


def _restructure_prep(s: Sentence, p: Token) -> None:
    obj = _obj_of(s, p)
    if obj is None:
        return
    role = p.deprel  # prep / agent / dative / pcomp
    head = s.tok(p.head) if p.head else None
    for k in s.children(p.id):  # the preposition's other dependents go to its object
        if k is not obj and k.deprel not in {"fixed", "mwe"}:
            k.head = obj.id
    obj.head = p.head
    p.head = obj.id
    clausal = obj.deprel == "pcomp" and obj.upos in {"VERB", "AUX"}
    if role == "pcomp":  # nested: the object now stands where the inner preposition stood
        obj.deprel = "pcomp"
        p.deprel = "mark" if clausal else "case"
        return
    p.deprel = "mark" if clausal else "case"
    verbal = head is None or head.upos in CLAUSAL_HEAD
    if clausal:
        obj.deprel = "advcl" if verbal else "acl"
    elif role == "agent":
        obj.deprel = "obl:agent"
    else:
        obj.deprel = "obl" if verbal else "nmod"


def _restructure_copula(s: Sentence, be: Token) -> None:
    kids = s.children(be.id)
    if any(k.deprel == "expl" for k in kids):
        for k in kids:
            if k.deprel == "attr":
                k.deprel = "nsubj"
        return
    if any(k.deprel in {"dobj", "obj", "ccomp", "xcomp", "csubj"} for k in kids):
        return
    pred = next((k for k in kids if k.deprel in {"attr", "acomp"}), None)
    if pred is None:  # "X is in the nucleus": the prepositional object is the predicate
        pred = next(
            (
                k
                for k in kids
                if k.id > be.id and k.deprel == "obl" and any(c.deprel == "case" for c in s.children(k.id))
            ),
            None,
        )
        if pred is None:
            return
    pred.head, pred.deprel = be.head, be.deprel
    for k in kids:
        if k is not pred:
            k.head = pred.id
    be.head, be.deprel, be.upos = pred.id, "cop", "AUX"


def _flatten_coordination(s: Sentence) -> None:
    def first(t: Token) -> Token:
        seen = set()
        while t.deprel == "conj" and t.head and t.id not in seen:
            seen.add(t.id)
            t = s.tok(t.head)
        return t

    for t in s.tokens:
        if t.deprel == "conj":
            t.head = first(t).id
    groups: dict[int, list[int]] = {}
    for t in s.tokens:
        if t.deprel == "conj":
            groups.setdefault(t.head, [t.head]).append(t.id)
    for members in groups.values():
        members.sort()
        member_set = set(members)
        for t in s.tokens:
            if t.head not in member_set:
                continue
            if t.deprel == "cc" or (t.deprel == "punct" and t.form in CONJ_PUNCT and members[0] < t.id < members[-1]):
                nxt = [m for m in members if m > t.id]
                if nxt and t.id > members[0]:
                    t.head = nxt[0]


def _validate(s: Sentence) -> None:
    roots = [t for t in s.tokens if t.head == 0]
    if len(roots) != 1:
        raise ConlluError(f"{s.source}: {len(roots)} roots after mapping")
    for t in s.tokens:
        seen, h = {t.id}, t.head
        while h:
            if h in seen:
                raise ConlluError(f"{s.source}: cycle at token {t.id} after mapping")
            seen.add(h)
            h = s.tok(h).head


# ---------------------------------------------------------------------------------------------- GENIA (UD v1)

PTB_UPOS = {
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ",
    "RB": "ADV", "RBR": "ADV", "RBS": "ADV", "WRB": "ADV", "VB": "VERB", "VBD": "VERB", "VBG": "VERB",
    "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB", "MD": "AUX", "DT": "DET", "PDT": "DET", "WDT": "DET",
    "PRP": "PRON", "PRP$": "PRON", "WP": "PRON", "WP$": "PRON", "EX": "PRON", "IN": "ADP", "TO": "PART",
    "RP": "ADP", "CC": "CCONJ", "CD": "NUM", "POS": "PART", "UH": "INTJ", "FW": "X", "SYM": "SYM", "LS": "X",
}  # fmt: skip
V1_TO_V2 = {"dobj": "obj", "nsubjpass": "nsubj:pass", "auxpass": "aux:pass", "csubjpass": "csubj:pass", "mwe": "fixed"}


def genia_to_ud(sentence: Sentence) -> Sentence:
    """A GENIA sentence (Stanford converter output, UD v1, PTB tags in both tag columns) in UD v2 as EWT has it:
    UPOS from the PTB tag (AUX for auxiliaries and copulas), ``obl`` for ``nmod`` under verbs and adjectives,
    the v1 labels renamed (``dobj`` -> ``obj``, ...), ``neg`` -> ``advmod`` / ``det``, ``nmod:npmod`` ->
    ``obl:unmarked`` / ``nmod:unmarked``, and coordination's ``cc`` and commas on the following conjunct. Used for
    evaluation only (there is no converted GENIA train split here)."""
    s = Sentence([replace(t) for t in sentence.tokens], list(sentence.comments), sentence.source)
    for t in s.tokens:
        t.xpos = t.xpos if t.xpos not in ("", "_") else t.upos
        t.upos = PTB_UPOS.get(t.xpos, "PUNCT" if not any(c.isalnum() for c in t.form) else "X")
        if t.deprel in ("aux", "auxpass", "cop"):
            t.upos = "AUX" if t.xpos != "TO" else "PART"
        t.feats = "_"  # none in GENIA
    for t in s.tokens:
        head = s.tok(t.head) if t.head else None
        verbal = head is not None and head.upos in CLAUSAL_HEAD
        if t.deprel in V1_TO_V2:
            t.deprel = V1_TO_V2[t.deprel]
        elif t.deprel == "neg":
            t.deprel = "det" if t.upos == "DET" else "advmod"
        elif t.deprel == "nmod" and verbal:
            t.deprel = "obl"
        elif t.deprel == "nmod:npmod":
            t.deprel = "obl:unmarked" if verbal else "nmod:unmarked"
    _flatten_coordination(s)
    _validate(s)
    return s


# ---------------------------------------------------------------------------------------------- Atis


def ptb_tag(t: Token) -> str:
    """A PTB tag from UD UPOS, features and lemma (for treebanks without XPOS)."""
    f = dict(kv.split("=", 1) for kv in t.feats.split("|") if "=" in kv)
    low, lemma = t.form.lower(), t.lemma.lower()
    up = t.upos
    if up == "PUNCT":
        return {
            "?": ".",
            "!": ".",
            ".": ".",
            ",": ",",
            ":": ":",
            ";": ":",
            "(": "-LRB-",
            ")": "-RRB-",
            '"': "``" if t.id == 1 else "''",
            "-": "HYPH",
        }.get(low, ".")
    if lemma == "to" and up == "PART":
        return "TO"
    if up == "ADP" and t.deprel == "compound:prt":
        return "RP"
    if up == "PART":
        return "POS" if low in {"'s", "'"} else "RB"
    if up in {"NOUN", "PROPN"}:
        base = "NNP" if up == "PROPN" else "NN"
        return base + ("S" if f.get("Number") == "Plur" else "")
    if up == "PRON":
        if f.get("PronType") == "Rel" and lemma in {"that", "which"}:
            return "WDT"
        if low in WH or f.get("PronType") in {"Int", "Rel"}:
            return "WP$" if f.get("Poss") == "Yes" else "WP"
        if f.get("PronType") == "Dem":
            return "DT"
        if f.get("PronType") in {"Ind", "Neg", "Tot"}:
            return "NN" if lemma.endswith(("one", "body", "thing")) else "DT"
        if low == "there" and t.deprel == "expl":
            return "EX"
        return "PRP$" if f.get("Poss") == "Yes" else "PRP"
    if up == "DET":
        if f.get("PronType") in {"Int", "Rel"} or low in WH:
            return "WDT"
        return "PDT" if t.deprel == "det:predet" else "DT"
    if up == "ADV":
        if low in WH or f.get("PronType") in {"Int", "Rel"}:
            return "WRB"
        return {"Cmp": "RBR", "Sup": "RBS"}.get(f.get("Degree", ""), "RB")
    if up == "ADJ":
        return {"Cmp": "JJR", "Sup": "JJS"}.get(f.get("Degree", ""), "JJ")
    if up in {"VERB", "AUX"}:
        if up == "AUX" and lemma in MODALS:
            return "MD"
        form = f.get("VerbForm", "")
        if form == "Inf" or f.get("Mood") == "Imp":
            return "VB"
        if form == "Ger" or (form == "Part" and f.get("Tense") == "Pres"):
            return "VBG"
        if form == "Part":
            return "VBN"
        if f.get("Tense") == "Past":
            return "VBD"
        if form == "Fin":
            return "VBZ" if f.get("Person") == "3" and f.get("Number") == "Sing" else "VBP"
        return "VB"
    return {"ADP": "IN", "NUM": "CD", "CCONJ": "CC", "SCONJ": "IN", "INTJ": "UH", "SYM": "SYM", "X": "FW"}.get(up, "XX")


def is_question(s: Sentence) -> bool:
    first = s.tokens[0]
    if first.form.lower() in WH or first.form.lower() in {"which", "how"}:
        return True
    return first.upos == "AUX" and any(t.deprel.startswith("nsubj") and t.id > 1 for t in s.tokens)


def atis_realistic(s: Sentence, rng: random.Random, share: float) -> Sentence:
    """PTB tags for every token; in ``share`` of the sentences also sentence case and a final '?' or '.'."""
    toks = [replace(t) for t in s.tokens]
    for t in toks:
        t.xpos = ptb_tag(t)
    out = Sentence(toks, [c for c in s.comments if not c.startswith("# text")], s.source)
    if rng.random() >= share:
        return out
    for t in toks:
        if t.form == "i":
            t.form = "I"
        elif t.upos == "PROPN" and t.lemma[:1].isupper():
            t.form = t.lemma if t.lemma.lower() == t.form.lower() else t.form.capitalize()
    toks[0].form = toks[0].form[:1].upper() + toks[0].form[1:]
    root = next(t for t in toks if t.head == 0)
    mark = "?" if is_question(s) else "."
    toks[-1].misc = _set_space_after(toks[-1].misc, False)
    toks.append(Token(len(toks) + 1, mark, mark, "PUNCT", ".", "_", root.id, "punct", "_"))
    return out


# ---------------------------------------------------------------------------------------------- DocBin


def to_docs(vocab, sentences: list[Sentence], n_sents: int):  # type: ignore[no-untyped-def]
    from spacy.tokens import Doc

    for i in range(0, len(sentences), n_sents):
        chunk = sentences[i : i + n_sents]
        words, spaces, tags, pos, morphs, lemmas, heads, deps, starts = [], [], [], [], [], [], [], [], []
        for s in chunk:
            offset = len(words)
            for j, t in enumerate(s.tokens):
                words.append(t.form)
                spaces.append(t.space_after)
                tags.append(t.xpos if t.xpos not in {"", "_"} else "")
                pos.append(t.upos)
                morphs.append("" if t.feats == "_" else t.feats)
                lemmas.append(t.lemma if t.lemma not in {"", "_"} or t.form == "_" else "")
                heads.append(offset + (t.head - 1 if t.head else t.id - 1))
                deps.append(t.deprel)
                starts.append(j == 0)
        yield Doc(
            vocab,
            words=words,
            spaces=spaces,
            tags=tags,
            pos=pos,
            morphs=morphs,
            lemmas=lemmas,
            heads=heads,
            deps=deps,
            sent_starts=starts,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("build/parser_sci/corpus"))
    ap.add_argument("--n-sents", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--atis-share", type=float, default=0.8)
    ap.add_argument("--ewt-copies", type=int, default=2)
    ap.add_argument("--dump", type=Path, default=None, help="also write the mapped CRAFT / augmented Atis CoNLL-U here")
    args = ap.parse_args()

    import spacy
    from spacy.tokens import DocBin

    tb = args.data / "treebanks"
    files = {
        "ewt": {sp: args.data / "ud_english_ewt" / f"en_ewt-ud-{sp}.conllu" for sp in ("train", "dev", "test")},
        "atis": {sp: tb / "ud_english_atis" / f"en_atis-ud-{sp}.conllu" for sp in ("train", "dev", "test")},
        "craft": {
            "train": tb / "craft" / "craft-train.conllu.gz",
            "dev": tb / "craft" / "craft-dev.conllu",
            "test": tb / "craft" / "craft-test.conllu.gz",
        },
        "genia": {"dev": tb / "genia" / "dev.conllu", "test": tb / "genia" / "test.conllu"},  # evaluation only
    }
    for paths in files.values():
        for p in paths.values():
            if not p.is_file():
                raise SystemExit(f"missing treebank file: {p}")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    nlp = spacy.blank("en")
    summary: dict[str, object] = {}
    corpus: dict[str, dict[str, list[Sentence]]] = {}
    for name, paths in files.items():
        corpus[name] = {}
        for split, path in paths.items():
            sents = list(read_conllu(path))
            if name == "craft":
                sents = [craft_to_ud(s) for s in sents]
            elif name == "genia":
                sents = [genia_to_ud(s) for s in sents]
            elif name == "atis":
                rng = random.Random(f"{args.seed}-{split}")
                sents = [atis_realistic(s, rng, args.atis_share) for s in sents]
            corpus[name][split] = sents
            if args.dump and name != "ewt":
                write_conllu(sents, args.dump / f"{name}-{split}.conllu")
            DocBin(docs=to_docs(nlp.vocab, sents, args.n_sents), store_user_data=False).to_disk(
                args.out / f"{name}_{split}.spacy"
            )
            summary[f"{name}_{split}"] = {"sentences": len(sents), "tokens": sum(len(s.tokens) for s in sents)}
    train = corpus["ewt"]["train"] * args.ewt_copies + corpus["atis"]["train"] + corpus["craft"]["train"]
    dev = corpus["ewt"]["dev"] + corpus["atis"]["dev"] + corpus["craft"]["dev"]
    DocBin(docs=to_docs(nlp.vocab, train, args.n_sents)).to_disk(args.out / "train.spacy")
    DocBin(docs=to_docs(nlp.vocab, dev, args.n_sents)).to_disk(args.out / "dev.spacy")
    labels = Counter(t.deprel for s in corpus["craft"]["train"] for t in s.tokens)
    ewt_tokens = [t for s in corpus["ewt"]["train"] for t in s.tokens]
    agree = sum(ptb_tag(t) == t.xpos for t in ewt_tokens) / len(ewt_tokens)
    summary.update(
        {
            "train_sentences": len(train),
            "craft_train_labels": dict(labels.most_common()),
            "ptb_tag_rule_agreement_on_ewt_train": round(agree, 4),
        }
    )
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
