"""The COVID-Fact pipeline (generate/covidfact.py) on self-made posts and articles, with fake components where a
model would decide (claim check, saliency, fill-mask, NLI), the real hashing embedder and the real BM25 retriever."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from claimforge.backends.fillmask import Infill
from claimforge.generate.covidfact import CovidFact, CovidFactConfig, CovidFactPrefilter
from claimforge.generate.saliency import SalientWord
from claimforge.kb.base import Concept
from claimforge.records import Document, Label, SentenceItem, SourceRef
from claimforge.registry import ComponentConfig, registry


class FakeCheck:
    """Fails texts without a verb from a small list (the headline-fragment check), texts with 'xx', and texts with
    a colon (the parser makes the noun before it the root)."""

    model_id = "fake-check"
    VERBS = ("reduces", "increases", "causes", "improves", "prevents", "lowers", "raises", "worsens", "blocks")

    def check(self, texts: list[str]) -> list[list[str]]:
        return [
            [] if any(v in t for v in self.VERBS) and "xx" not in t and ":" not in t else ["headline_fragment"]
            for t in texts
        ]


class FakeSaliency:
    """The verb first, then the other words longer than four letters, in order."""

    model_id = "fake-saliency"

    def rank(self, claims: list[str]) -> list[list[SalientWord]]:
        out = []
        for c in claims:
            words = []
            pos = 0
            for w in c.rstrip(".").split():
                start = c.index(w, pos)
                pos = start + len(w)
                score = 2.0 if w in FakeCheck.VERBS else 1.0 if len(w) > 4 else None
                if score is not None:
                    words.append(SalientWord(start, start + len(w), w, "VERB" if score == 2 else "NOUN", "", score))
            out.append(sorted(words, key=lambda x: -x.score))
        return out


OPPOSITES = {"reduces": ["increases", "lowers", "worsens"], "improves": ["worsens", "boosts"], "causes": ["prevents"]}


class FakeFill:
    """Opposites for verbs (and the word itself, which must be skipped), 'xx'-words for anything else."""

    model_id = "fake-fill"

    def __init__(self) -> None:
        self.requests: list[tuple[str, int, int]] = []

    def fill(self, requests: list[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
        self.requests += requests
        out = []
        for text, s, e in requests:
            word = text[s:e]
            subs = [*OPPOSITES.get(word, []), "xx" + word]
            out.append([Infill(w, -float(i)) for i, w in enumerate(subs[:k])])
        return out


class FakeNLI:
    """Contradiction 0.95 for a claim with 'increases' or 'worsens' or 'prevents', 0.5 for 'lowers', else 0.05;
    entailment 0.9 when the claim's words all appear in the evidence."""

    model_id = "fake-nli"

    def predict_proba(self, pairs: list[Any], progress: Any = None) -> np.ndarray:
        rows = []
        for p in pairs:
            c = p.claim.lower()
            contra = (
                0.95 if any(w in c for w in ("increases", "worsens", "prevents")) else 0.5 if "lowers" in c else 0.05
            )
            ev = " ".join(p.evidence).lower()
            ent = 0.9 if contra < 0.1 and all(w in ev for w in c.rstrip(".").split()) else 0.04
            rows.append([ent, contra, max(0.0, 1 - ent - contra)])
        return np.array(rows)


def _doc(i: str, *sentences: str) -> Document:
    return Document(id=i, title=f"title {i}", sentences=sentences)


DOCS = [
    _doc("d1", "We ran a trial.", "Aspirin reduces fever in children.", "Fever is common.", "Nothing else."),
    _doc("d2", "Exercise improves sleep in adults.", "Sleep matters for health."),
    _doc("d3", "Smoking causes cancer in many organs.", "Cancer kills millions.", "Quit smoking today."),
    _doc("d4", "Statins lower cholesterol.", "Cholesterol matters."),
]


def _item(n: int, title: str, doc: Document | None, **meta: Any) -> SentenceItem:
    return SentenceItem(
        id=f"p:{n}",
        sentence=title,
        cited=(doc,) if doc else (),
        meta={"removed": False, **meta},
        ref=SourceRef(dataset="p", path="posts.jsonl", line=n + 1, item_id=f"p:{n}"),
    )


ITEMS = [
    _item(0, "Aspirin reduces fever in children", DOCS[0], upvote_ratio=0.9, domain="nature.com"),
    _item(1, "Exercise improves sleep in adults", DOCS[1], upvote_ratio=0.95),
    _item(2, "Smoking causes cancer in people", None, upvote_ratio=0.8),  # no linked source: retrieved from the corpus
    _item(3, "Sleep and health in adults: a cohort", DOCS[1]),  # headline fragment
    _item(4, "Aspirin reduces fever", DOCS[0], upvote_ratio=0.5),  # untrusted
    _item(5, "Aspirin reduces fever again", DOCS[0], removed=True),  # removed
]


def _corpus_file(tmp_path: Path) -> str:
    path = tmp_path / "corpus.jsonl"
    path.write_text(
        "".join(json.dumps({"doc_id": d.id, "title": d.title, "abstract": list(d.sentences)}) + "\n" for d in DOCS)
    )
    return str(path)


def _config(tmp_path: Path, **over: Any) -> CovidFactConfig:
    """The real BM25 and hashing embedder over the self-made corpus; every candidate kind ("any": the machinery;
    opposites have their own test)."""
    spec = {
        "corpus": _corpus_file(tmp_path),
        "retriever": {"name": "bm25", "index_dir": str(tmp_path / "index")},
        "embedder": {"name": "hashing"},
        "min_evidence_cosine": -1.0,
        "label_check": "off",
        "substitutes": "any",
        **over,
    }
    return CovidFactConfig(**spec)


def _pipeline(tmp_path: Path, fill: Any = None, nli: Any = None, **over: Any) -> tuple[CovidFact, Any]:
    fill = fill or FakeFill()
    nli = nli or FakeNLI()
    config = _config(tmp_path, **over)
    p = CovidFact(config, claim_check=FakeCheck(), saliency=FakeSaliency(), fillmask=fill, gate=nli, judge=nli)
    return p, fill


def test_filters_sources_counter_claims_and_accounting(tmp_path: Path) -> None:
    p, fill = _pipeline(tmp_path, one_per_word=False)  # the paper's top 3 of any words
    result = p.build(ITEMS)
    reasons = {r.item_id: r.reason for r in result.rejects if r.scope == "item"}
    assert reasons == {"p:3": "not_wellformed", "p:4": "low_upvote_ratio", "p:5": "removed_post"}
    assert len(result.used_item_ids) + len(reasons) == len(ITEMS)
    by = Counter((e.source_item_id, e.label) for e in result.examples)
    # "reduces" -> increases (0.95) kept, lowers (0.5) below the gate, worsens (0.95) kept; xx-words fail the check
    assert by[("p:0", Label.SUPPORTED)] == 1 and by[("p:0", Label.REFUTED)] == 2
    refuted = {e.claim for e in result.examples if e.source_item_id == "p:0" and e.label == Label.REFUTED}
    assert refuted == {"Aspirin increases fever in children.", "Aspirin worsens fever in children."}
    # the counter-claims differ from the claim in the replaced span only, and share its evidence
    sup = next(e for e in result.examples if e.source_item_id == "p:0" and e.label == Label.SUPPORTED)
    for e in result.examples:
        if e.source_item_id == "p:0":
            assert e.evidence == sup.evidence
            d = e.provenance.details
            if e.label == Label.REFUTED:
                cc = d["counter_claim"]
                s, t = cc["span"]
                assert e.claim[:s] == sup.claim[:s] and cc["replaced"] == "reduces"
                assert e.claim[s:] == cc["substitute"] + sup.claim[t:]
                assert cc["contradiction"]["claim"] >= 0.75 and cc["contradiction"]["evidence"] >= 0.75
            assert d["post"]["domain"] == "nature.com" and d["salient_words"][0]["word"] == "reduces"
    # the linked source was matched by retrieval; the claim without one took retrieved documents
    assert sup.provenance.details["sources"][0]["how"] == "linked" and sup.provenance.details["sources"][0]["rank"] == 0
    smoking = next(e for e in result.examples if e.source_item_id == "p:2" and e.label == Label.SUPPORTED)
    assert smoking.provenance.details["sources"][0] == {
        "how": "retrieved",
        "rank": 0,
        "score": pytest.approx(smoking.provenance.details["sources"][0]["score"]),
        "id": "d3",
    }
    assert "Smoking causes cancer in many organs." in smoking.evidence
    # no counter-claim for "improves" -> worsens passes (0.95)... boosts does not: one kept
    assert by[("p:1", Label.REFUTED)] == 1
    # by default one counter-claim per replaced word: "increases" (the first in fill-mask order), not "worsens" too
    one = _pipeline(tmp_path)[0].build(ITEMS)
    assert [e.claim for e in one.examples if e.source_item_id == "p:0" and e.label == Label.REFUTED] == [
        "Aspirin increases fever in children."
    ]


def test_evidence_sentences_drop_the_claim_itself_and_keep_document_order(tmp_path: Path) -> None:
    p, _ = _pipeline(tmp_path, evidence_k=2)
    result = p.build(ITEMS[:1])
    sup = next(e for e in result.examples if e.label == Label.SUPPORTED)
    sents = sup.provenance.details["evidence_sentences"]
    assert len(sents) == 2 and [s["sentence"] for s in sents] == sorted(s["sentence"] for s in sents)
    # "Aspirin reduces fever in children." contains the claim: discarded
    assert "Aspirin reduces fever in children." not in sup.evidence


def test_source_must_be_retrieved_in_top_k(tmp_path: Path) -> None:
    other = _doc("x9", "Unrelated text about volcanoes erupting.", "Lava flows.")
    item = _item(9, "Aspirin reduces fever in children", other)
    p, _ = _pipeline(tmp_path, source_match_k=1)
    result = p.build([item])
    (r,) = [r for r in result.rejects if r.scope == "item"]
    assert r.reason == "source_not_matched" and "top 1" in r.detail
    # without a corpus there is nothing to match against: the linked source is used as it is
    p2, _ = _pipeline(tmp_path, corpus=None)
    assert any(e.label == Label.SUPPORTED for e in p2.build([item]).examples)


def test_no_counter_claim_is_an_example_reject_with_scores(tmp_path: Path) -> None:
    p, _ = _pipeline(tmp_path, min_contradiction=0.99)
    result = p.build(ITEMS[:1])
    assert [e.label for e in result.examples] == [Label.SUPPORTED]
    (r,) = [r for r in result.rejects if r.stage == "counter-claims"]
    assert r.reason == "no_counter_claim" and r.scope == "example" and "best contradiction 0.950" in r.detail


def test_trust_filters_and_domain_lists(tmp_path: Path) -> None:
    allow = tmp_path / "allow.csv"
    allow.write_text("domain\nnature.com\nscience.org\n")
    f = CovidFactPrefilter(CovidFactConfig(allow_domains=str(allow), deny_domains=["bad.nature.com"]))
    assert f.check(_item(0, "x", None, domain="www.nature.com".removeprefix("www."))) is None
    assert f.check(_item(1, "x", None, domain="news.science.org")) is None  # a subdomain of an allowed domain
    assert f.check(_item(2, "x", None, domain="bad.nature.com"))[1] == "source_denied"  # type: ignore[index]
    assert f.check(_item(3, "x", None, domain="blog.example.com"))[1] == "source_not_allowed"  # type: ignore[index]
    assert f.check(_item(4, "x", None))[1] == "source_not_allowed"  # type: ignore[index]
    assert f.check(_item(4, "x", None))[1] == "duplicate_item_id"  # type: ignore[index]
    g = CovidFactPrefilter(CovidFactConfig(min_upvote_ratio=None, filter_removed=False))
    assert g.check(_item(5, "x", None, removed=True, upvote_ratio=0.1)) is None


def test_nei_pairs_an_unrelated_source(tmp_path: Path) -> None:
    p, _ = _pipeline(tmp_path, nei=True, labels=["SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"])
    result = p.build(ITEMS[:3])
    nei = [e for e in result.examples if e.label == Label.NOT_ENOUGH_INFO]
    assert nei
    for e in nei:
        sup = next(x for x in result.examples if x.source_item_id == e.source_item_id and x.label == Label.SUPPORTED)
        assert e.claim == sup.claim and e.evidence_id not in sup.evidence_id
    with pytest.raises(ValueError, match="nei=true"):
        CovidFactConfig(labels=["SUPPORTED", "NOT_ENOUGH_INFO"])


def test_titles_in_title_case_and_colons(tmp_path: Path) -> None:
    doc = _doc("d7", "In Boston, aspirin was given.", "Aspirin reduces fever.")
    items = [
        _item(0, "Aspirin Reduces Fever In Boston Children", doc),
        _item(1, "A cohort study: Aspirin reduces fever in children", doc),
    ]
    p, _ = _pipeline(tmp_path, corpus=None)
    result = p.build(items)
    claims = {e.source_item_id: e.claim for e in result.examples if e.label == Label.SUPPORTED}
    assert claims == {"p:0": "Aspirin reduces fever in Boston children.", "p:1": "Aspirin reduces fever in children."}


def test_registered_with_its_recipe() -> None:
    from claimforge.config import load_recipe

    assert "covidfact" in registry.names("pipeline")
    recipe = load_recipe("covidfact")
    assert recipe["pipeline"] == "covidfact" and recipe["saliency"]["name"] == "learned"


class _KBConfig(ComponentConfig):
    pass


class _KB:
    """Verbs: reduce <-> increase (antonyms); nouns: fever's siblings chills and rash."""

    name = "tiny"
    model_id = "tiny-kb"

    def __init__(self, config: _KBConfig) -> None:
        self.c = {
            "reduce": Concept("V1", "reduce", (), ("verb",), "tiny"),
            "increase": Concept("V2", "increase", (), ("verb",), "tiny"),
            "fever": Concept("N1", "fever", (), ("finding",), "tiny"),
            "chills": Concept("N2", "chills", (), ("finding",), "tiny"),
            "rash": Concept("N3", "rash", (), ("finding",), "tiny"),
        }

    def link(self, mention: str, pos: str | None = None) -> list[Concept]:
        c = self.c.get(mention.lower())
        return [c] if c is not None else []

    def antonyms(self, concept: Concept) -> list[Concept]:
        return [self.c["increase"]] if concept.id == "V1" else []

    def siblings(self, concept: Concept, same_type: bool = True, limit: int | None = None) -> list[Concept]:
        return [self.c["chills"], self.c["rash"]] if concept.id == "N1" else []


class _LMConfig(ComponentConfig):
    pass


class _LM:
    """Perplexity = length: the shorter sentence ranks first."""

    model_id = "len-lm"

    def __init__(self, config: _LMConfig) -> None:
        pass

    def perplexity(self, texts: list[str], progress: Any = None) -> np.ndarray:
        return np.array([float(len(t)) for t in texts])


registry.register("kb", "tiny-kb", _KBConfig)(_KB)
registry.register("lm", "len-lm", _LMConfig)(_LM)


def test_kb_fill_offers_antonyms_and_siblings_in_the_span_form() -> None:
    fill = registry.build(
        "fillmask",
        {
            "name": "kb",
            "kbs": [{"name": "tiny-kb"}],
            "lm": {"name": "len-lm"},
            "embedder": {"name": "hashing"},
            "min_word_frequency": 0,
        },
    )
    text = "Aspirin reduces fever in children."
    (verb, noun) = fill.fill([(text, 8, 15), (text, 16, 21)], k=5)
    assert [f.text for f in verb] == ["increases"]  # the antonym, inflected like "reduces"
    assert [f.text for f in noun] == ["rash", "chills"]  # siblings, the shorter sentence first
    assert all(f.score <= 0 for f in noun)


class _ListFillConfig(ComponentConfig):
    words: tuple[str, ...] = ()


class _ListFill:
    def __init__(self, config: _ListFillConfig) -> None:
        self.words = config.words
        self.model_id = "list(" + ",".join(config.words) + ")"

    def fill(self, requests: list[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
        return [[Infill(w, -float(i)) for i, w in enumerate(self.words[:k])] for _ in requests]


registry.register("fillmask", "test-list", _ListFillConfig)(_ListFill)


def test_union_takes_members_in_turn_without_repeats() -> None:
    fill = registry.build(
        "fillmask",
        {
            "name": "union",
            "members": [{"name": "test-list", "words": ["a", "b", "c"]}, {"name": "test-list", "words": ["B", "d"]}],
        },
    )
    (out,) = fill.fill([("x y z", 0, 1)], k=2)
    assert [f.text for f in out] == ["a", "B", "d"]
    assert fill.model_id == "union(list(a,b,c),list(B,d))"


def test_substitutes_take_the_form_of_the_replaced_word() -> None:
    from claimforge.generate.covidfact import in_form_of

    assert in_form_of("decreased", "VERB", "VBZ") == "decreases"
    assert in_form_of("vitamin", "VERB", "VBZ") is None  # no verb reading
    assert in_form_of("mouse", "NOUN", "NNS") == "mice"
    assert in_form_of("Lower", "ADJ", "JJR") == "Lower"
    assert in_form_of("worst", "ADJ", "JJ") is None  # "optimal" -> "worst": a superlative for a plain adjective
    assert in_form_of("poor", "ADJ", "JJ") == "poor"
    assert in_form_of("two", "NUM", "CD") == "two" and in_form_of("in vitro", "ADJ", "JJ") == "in vitro"


def test_names_and_compounds_are_not_replaced_and_rare_forms_are_dropped() -> None:
    from claimforge.generate.covidfact import in_form_of, replaceable

    claim = "Tex10 coordinates IL-33-dependent control of Suppressor genes in mRNA decay."
    words = {w: (claim.index(w), claim.index(w) + len(w), w, "NOUN", 1.0, "NN") for w in claim.rstrip(".").split()}
    assert not replaceable(words["Tex10"], claim) and not replaceable(words["Suppressor"], claim)
    assert not replaceable(words["mRNA"], claim) and not replaceable(words["IL-33-dependent"], claim)
    assert replaceable(words["control"], claim) and replaceable(words["decay"], claim)
    assert in_form_of("reducing", "FLIP", "RB") is None and in_form_of("never", "FLIP", "RB") == "never"
    assert in_form_of("higher", "NUM", "CD") is None and in_form_of("12", "NUM", "CD") == "12"
    assert in_form_of("qzxv", "NOUN", "NN") is None  # unknown to the lexicon


def test_articles_agree_with_the_substitute_and_longer_substitutes_are_dropped() -> None:
    from claimforge.generate.covidfact import _real_substitute, _with_article

    assert _with_article("is an ", "late") == "is a " and _with_article("is a ", "early") == "is an "
    assert _with_article("A ", "unique") == "A " and _with_article("the ", "early") == "the "
    assert not _real_substitute("rid of", "required") and _real_substitute("lacking", "required")


class _ChildrenDoubtingNLI(FakeNLI):
    """As FakeNLI, but entailment 0.9 for every claim without a contradiction word, except claims about children."""

    def predict_proba(self, pairs: list[Any], progress: Any = None) -> np.ndarray:
        rows = super().predict_proba(pairs)
        for row, p in zip(rows, pairs, strict=True):
            if row[1] < 0.1:
                row[0] = 0.04 if "children" in p.claim else 0.9
                row[2] = 1 - row[0] - row[1]
        return rows


def test_counter_claims_of_unconfirmed_claims_are_dropped(tmp_path: Path) -> None:
    nli = _ChildrenDoubtingNLI()
    p, _ = _pipeline(tmp_path, nli=nli, label_check="reject", one_per_word=False)
    result = p.build(ITEMS[:2])
    by = Counter((e.source_item_id, e.label) for e in result.examples)
    assert by == {("p:1", Label.SUPPORTED): 1, ("p:1", Label.REFUTED): 1}
    dropped = [r for r in result.rejects if r.reason == "claim_not_confirmed"]
    assert len(dropped) == 2 and all(r.item_id == "p:0" for r in dropped)
    # turned off: the counter-claims stay
    off, _ = _pipeline(tmp_path, nli=nli, label_check="reject", require_confirmed_claim=False, one_per_word=False)
    assert Counter(e.label for e in off.build(ITEMS[:2]).examples)[Label.REFUTED] == 3


def test_opposites_keep_curated_opposites_over_antonyms(tmp_path: Path) -> None:
    class KindFill(FakeFill):
        def fill(self, requests: list[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
            out = super().fill(requests, k)
            return [[Infill(f.text, f.score, "antonym" if f.text == "worsens" else "") for f in fs] for fs in out]

    p, _ = _pipeline(tmp_path, fill=KindFill(), substitutes="opposites")
    result = p.build(ITEMS[:1])
    refuted = {
        e.claim: e.provenance.details["counter_claim"]["kind"] for e in result.examples if e.label == Label.REFUTED
    }
    # "reduces" is a direction word: its curated opposite is offered and the knowledge base's antonyms of it
    # ("worsens") are not (they read as broken English or do not reverse it: blind readings 2 and 3); the
    # fill-mask's plain substitutes ("lowers") are not opposites
    assert refuted == {"Aspirin increases fever in children.": "direction"}


def test_necessity_words_take_their_frame_keeping_opposite() -> None:
    from claimforge.generate.covidfact import _necessity_opposite, in_form_of

    assert _necessity_opposite("required") == "dispensable" and _necessity_opposite("Essential") == "Dispensable"
    assert _necessity_opposite("found") is None
    assert in_form_of("reduced", "ADJ", "JJ") == "reduced"  # a participle adjective is not lemmatised


def test_titles_that_ask_and_attributive_adjectives() -> None:
    from claimforge.generate.covidfact import _WH_TITLE, _attributive

    assert _WH_TITLE.match("Why females live longer than males")
    assert _WH_TITLE.match("How to measure frailty in older adults")
    assert not _WH_TITLE.match("However, statins lowered LDL cholesterol")
    assert not _WH_TITLE.match("When combined with metformin, insulin lowers glucose")
    claim = "Bile acids increase brown adipose tissue activity and are unfavorable for growth."
    assert _attributive(claim, claim.index("brown") + len("brown"))  # inside a term: no antonym
    assert not _attributive(claim, claim.index("unfavorable") + len("unfavorable"))  # predicative: "... for growth"
    assert not _attributive("The effect was large.", len("The effect was large"))


def test_rules_of_the_pmc_titles_build() -> None:
    """Families of the build on 4,470 PMC trial-report titles (2026-11-27)."""
    from claimforge.generate.covidfact import _COMPARED, _WH_TITLE, _attributive_modifier, _coordinated_verb

    # a question without its mark, opened by an auxiliary; an imperative "Do not" is no question
    assert _WH_TITLE.match("Do federal and state audits decrease compliance with a grant program")
    assert _WH_TITLE.match("Is vitamin D associated with frailty")
    assert not _WH_TITLE.match("Do not resuscitate orders are rare in surgery")
    assert not _WH_TITLE.match("Isoniazid prevents tuberculosis")
    # a participle before a noun names a group ("with impaired glucose tolerance"), after an auxiliary it is the verb
    claim = "Ginseng does not improve insulin sensitivity in subjects with impaired glucose tolerance."
    start = claim.index("impaired")
    assert _attributive_modifier(claim, start, start + len("impaired"), "VERB", "VBN")
    claim = "Glucose tolerance was impaired glucose levels aside."
    start = claim.index("impaired")
    assert not _attributive_modifier(claim, start, start + len("impaired"), "VERB", "VBN")
    # a compared adjective keeps its comparison word: no "more ineffective"
    claim = "Combined exercise is more effective than range-of-motion exercise."
    assert _COMPARED.search(claim, 0, claim.index("effective"))
    # a verb coordinated with another beside it
    claim = "Nao-Xue-Shu protects and improves secondary brain insults."
    assert _coordinated_verb(claim, claim.index("improves"), claim.index("improves") + len("improves"))
    claim = "Lockdown reduces and delays transmission."  # "delays" is also a noun
    assert _coordinated_verb(claim, claim.index("reduces"), claim.index("reduces") + len("reduces"))
    claim = "Seamustard improves growth and reduces cholesterol."
    assert not _coordinated_verb(claim, claim.index("improves"), claim.index("improves") + len("improves"))
    # an aim is no claim; a subtitle that says where results come from is not part of it; a negated claim is not
    # reversed ("does not improve" -> "does not worsen" can both be true)
    from claimforge.generate.covidfact import _AIM_TITLE, _NEGATED, _RESULTS_SUBTITLE

    assert _AIM_TITLE.match("The INTERVAL trial to determine whether intervals between donations can be increased")
    assert not _AIM_TITLE.match("Aspirin reduces the risk of stroke in a large trial")
    assert _RESULTS_SUBTITLE.match("results from the first 12 months of the NAILED stroke risk factor trial")
    assert _NEGATED.search("Phenylephrine does not improve oxygenation") and _NEGATED.search("X fails to improve Y")
    assert _NEGATED.search("NGAL-guided intervention may improve renal outcome")  # hedged: "may worsen" too
    assert _NEGATED.search("Hydroxychloroquine cannot prevent COVID-19") and _NEGATED.search("X doesn’t improve Y")
    assert not _WH_TITLE.match("May 2020 lockdown reduced transmission")
    assert not _NEGATED.search("Phenylephrine improves oxygenation during one-lung ventilation")


def test_design_subtitles_and_mechanism_clauses() -> None:
    from claimforge.generate.covidfact import _DESIGN_SUBTITLE, _MECHANISM_AFTER

    assert _DESIGN_SUBTITLE.match("a multicentre, randomised controlled trial")
    assert _DESIGN_SUBTITLE.match("A meta-analysis of randomized clinical trials")
    assert not _DESIGN_SUBTITLE.match("modified dendritic cells promote graft survival")  # a claim after the colon
    claim = "BCL9 promotes tumor progression by conferring enhanced proliferative properties."
    assert _MECHANISM_AFTER.search(claim, claim.index("promotes"))  # reversing "promotes" contradicts "by conferring"
    assert not _MECHANISM_AFTER.search("Aspirin reduces fever in children.", 8)
    from claimforge.generate.covidfact import _PURPOSE_AFTER

    claim = (
        "The MCM8-MCM9 complex promotes RAD51 recruitment at DNA damage sites to facilitate homologous recombination."
    )
    assert _PURPOSE_AFTER.search(claim, claim.index("promotes"))
    # it matches after an adjective too, but the rule is applied to reversed verbs only: "Cdk1 is sufficient to drive
    # the cell cycle" keeps its counter-claim "insufficient to drive"
    assert _PURPOSE_AFTER.search("Cdk1 is sufficient to drive the cell cycle.", 0) is not None
    assert not _PURPOSE_AFTER.search("Survival increased to 80% in treated mice.", 0)  # "to" and a number
    from claimforge.generate.covidfact import _purpose_after

    assert _purpose_after(claim, claim.index("promotes") + len("promotes"))
    assert not _purpose_after("Statins increase survival compared to control patients.", 15)
    assert not _purpose_after("Statins increase survival, and trials are needed to establish dosing.", 15)


def test_an_antonym_keeps_the_preposition_after_it() -> None:
    from claimforge.generate.covidfact import loses_preposition
    from claimforge.registry import registry

    lm = registry.build("lm", {"name": "ngram"})  # the shipped n-gram LM
    assert lm.next_word_logprob("Obesity is related", "to") > lm.next_word_logprob("Obesity is dissociated", "to")

    def lost(claim: str, word: str, sub: str, drop: float | None = 3.5) -> bool:
        start = claim.index(word)
        return loses_preposition(lm, claim, start, start + len(word), sub, drop)

    assert lost("Obesity is related to asthma in children.", "related", "dissociated")
    assert not lost("Bile acids are favorable for growth.", "favorable", "unfavorable")
    assert not lost("Obesity is related to asthma in children.", "related", "dissociated", drop=None)  # off
    assert not lost("Obesity is related.", "related", "dissociated")  # no preposition after it
    assert not loses_preposition(object(), "Obesity is related to asthma.", 11, 18, "dissociated", 3.5)  # no n-gram LM
