"""Sentence cleanup and parse-based simplification (the shipped parser; no other model)."""

from __future__ import annotations

import pytest

from claimforge.generate.simplify import claim_from_clause, clauses, clean_sentence
from claimforge.registry import registry

CLEANUP = [
    ("However, metformin reduces glucose output [12, 13].", "Metformin reduces glucose output."),
    ("Metformin reduces glucose output (Smith et al., 2010; Lee and Kim 2012).", "Metformin reduces glucose output."),
    ("Metformin reduces glucose output [3-5, 8].", "Metformin reduces glucose output."),
    ("Metformin reduces glucose output (see ref. 12).", "Metformin reduces glucose output."),
    ("It has been suggested that statins possibly reduce mortality (Fig. 2A).", "Statins reduce mortality."),
    ("Accumulating evidence suggests that lncRNAs act as miR sponges [3-5].", "lncRNAs act as miR sponges."),
    ("We found that IL-6 (interleukin 6) levels rise after exercise.", "IL-6 levels rise after exercise."),
    (
        "Liu et al. show that lncRNA loc285194 inhibits colon cancer cell growth.",
        "lncRNA loc285194 inhibits colon cancer cell growth.",
    ),
    ("These results, however, indicate that TNF is required for fever.", "TNF is required for fever."),
    (
        "Several studies have also shown that vitamin D deficiency is associated with depression.",
        "Vitamin D deficiency is associated with depression.",
    ),
    # an abbreviation's definition stays when the abbreviation is used again; otherwise it goes
    (
        "Osteoarthritis (OA) is common, and OA pain is undertreated.",
        "Osteoarthritis (OA) is common, and OA pain is undertreated.",
    ),
    ("Osteoarthritis (OA) is common in older adults.", "Osteoarthritis is common in older adults."),
    # content openers are not discourse openers
    ("In colon cancer, miR-211 promotes cell proliferation.", "In colon cancer, miR-211 promotes cell proliferation."),
    # nested parentheses
    ("Aspirin (acetylsalicylic acid (ASA)) reduces fever.", "Aspirin reduces fever."),
    # "likely to" is a comparison or a predicate, not a hedge to drop ("were less to report")
    ("Women were less likely to report feeling isolated.", "Women were less likely to report feeling isolated."),
    ("Smokers are likely to develop lung cancer.", "Smokers are likely to develop lung cancer."),
    # a pointer to a figure whose cross-reference the reader dropped, or that names it, goes with its clause
    ("As can be seen in, glucose rose 5 min later (P < 0.001).", "Glucose rose 5 min later."),
    ("As shown in Figure 2B, the rate rose sharply.", "The rate rose sharply."),
    ("The rate rose sharply, as shown in.", "The rate rose sharply."),
    ("As shown in Fig. 2A, B, expression of IL-6 increased.", "Expression of IL-6 increased."),  # panels listed
    ("However, as shown in Figure 2, the rate rose.", "The rate rose."),
    ("IL-6 rose, as shown in Table 3, after surgery.", "IL-6 rose after surgery."),
    ("Cells were grown as shown in the protocol.", "Cells were grown as shown in the protocol."),
    ("As mentioned, there was no significant change in HbA1c.", "There was no significant change in HbA1c."),
    ("As observed previously, the number of clusters is lower.", "The number of clusters is lower."),
    ("As expected there was no change in the placebo group.", "There was no change in the placebo group."),
    # not when a blocked preposition follows: the span up to a comma could be the main clause
    (
        "As expected in diabetic patients HbA1c rose, and insulin fell.",
        "As expected in diabetic patients HbA1c rose, and insulin fell.",
    ),
    (
        "There was no difference in RFS (P = 0.706)., nor in OS (P = 0.68).",
        "There was no difference in RFS, nor in OS.",
    ),
    # a sentence the reader cut after its subject keeps only the frame's verb; "datasets" report like "data"
    ("demonstrates that SRP changes the ratio at 6 months (P < 0.05).", "SRP changes the ratio at 6 months."),
    (
        "Analysis of public gene expression datasets suggests that the allele is associated with HMMR expression.",
        "The allele is associated with HMMR expression.",
    ),
]


@pytest.mark.parametrize(("raw", "expected"), CLEANUP)
def test_clean_sentence(raw: str, expected: str) -> None:
    assert clean_sentence(raw).text == expected


def test_cleanup_records_its_edits() -> None:
    edits = clean_sentence("However, we show that interleukin 6 binds its receptor on T cells [4] (Fig. 1).").edits
    assert "opener" in edits and any(e.startswith("frame:") for e in edits)
    assert "citation×1" in edits and "figure_reference×1" in edits


def test_a_frame_is_kept_when_too_little_would_remain() -> None:
    assert clean_sentence("We show that it works.").text == "We show that it works."


@pytest.fixture(scope="module")
def parse():
    nlp = registry.build("nlp", {"name": "spacy", "use_cache": False})
    return lambda text: nlp.parse([text])[0]


def _claims(parse, text: str) -> list[tuple[str | None, str | None]]:
    doc = parse(text)
    return [(c.text, c.problem) for c in (claim_from_clause(doc, cl) for cl in clauses(doc))]


def test_non_restrictive_relative_clause_is_removed(parse) -> None:
    out = _claims(parse, "The herbicide inhibits EPSPS in the shikimate pathway, which has a key role in plants.")
    assert out[0] == ("The herbicide inhibits EPSPS in the shikimate pathway.", None)


def test_modal_hedge_becomes_an_assertion(parse) -> None:
    out = _claims(parse, "lncRNA loc285194 may exert functions through targeting miR-211.")
    assert out == [("lncRNA loc285194 exerts functions through targeting miR-211.", None)]


def test_coordinated_clauses_are_split(parse) -> None:
    texts = [t for t, p in _claims(parse, "The virus enters the cell, and the antibody blocks its replication.")]
    assert texts == ["The virus enters the cell.", "The antibody blocks its replication."]


def test_shared_subject_is_borrowed(parse) -> None:
    texts = [t for t, p in _claims(parse, "The drug lowers blood pressure and reduces heart rate.")]
    assert texts[1] == "The drug reduces heart rate."  # the second conjunct borrows the shared subject


def test_pronoun_subject_is_flagged(parse) -> None:
    out = _claims(parse, "They are able to regulate other proteins.")
    assert out[0][1] == "pronoun_subject"


def test_entity_reduces_its_coordination_list(parse) -> None:
    doc = parse("The patients received aspirin, insulin and warfarin.")
    (clause,) = clauses(doc)
    for drug in ("aspirin", "insulin", "warfarin"):
        span = {t.i for t in doc if t.text == drug}
        assert claim_from_clause(doc, clause, span).text == f"The patients received {drug}."


def test_symmetric_and_subject_coordinations_are_not_reduced(parse) -> None:
    doc = parse("Misunderstandings between doctors and patients are common.")
    (clause,) = clauses(doc)
    span = {t.i for t in doc if t.text == "patients"}
    assert claim_from_clause(doc, clause, span).text == "Misunderstandings between doctors and patients are common."


def test_misparsed_clauses_are_flagged_not_cut(parse) -> None:  # type: ignore[no-untyped-def]
    """Real sentences of a SciClaimHunt build (2026-11-27) whose claims lost a predicate or an object."""
    # a subordinate clause the parse made the root
    sub = _claims(
        parse,
        "Contrastingly, for pain and disability, though a significant proportion of participants did not meet MCICs "
        "and thus were considered non-responders, a large proportion did meet MCICs.",
    )
    assert [p for _, p in sub] == ["subordinate_clause", "subordinate_clause"]
    # a noun phrase coordinated with the verb: neither half is a claim ("... differed greatly, and therefore
    # drop-outs and protocol violations." / the second verb with the first clause's subject)
    made = _claims(
        parse,
        "Statistical conclusions for the two populations differed greatly, and therefore drop-outs and protocol "
        "violations—which are common especially in long intervention studies such as this—were considered to "
        "have a significant impact on the outcomes.",
    )
    assert [p for _, p in made if p is None] == []
    # an apposition without a comma is kept ("Test Time × Task"), not cut to "Test Time ×"
    texts = [t for t, _ in _claims(parse, "The interaction of Test Time × Task was also significant.")]
    assert texts == ["The interaction of Test Time × Task was also significant."]
    # an apposition between commas goes with both of its commas
    texts = [t for t, _ in _claims(parse, "The chin-down maneuver, a free and easy procedure, improves swallowing.")]
    assert texts == ["The chin-down maneuver improves swallowing."]


def test_bare_reference_numbers_are_removed() -> None:
    # a superscript reference number that lost its formatting, between commas or before the full stop
    cleaned = clean_sentence("Consistent with the 2-step model, 65, all the N-loop antibodies reduced chemotaxis.")
    assert cleaned.text == "All the N-loop antibodies reduced chemotaxis."
    assert clean_sentence("It still leaves that patient with significant risk, 3.").text == (
        "It still leaves that patient with significant risk."
    )
    # numbers that are data stay
    assert clean_sentence("The values were 2, 3.").text == "The values were 2, 3."
    assert clean_sentence("Mice were treated at 2, 3 and 4 weeks.").text == "Mice were treated at 2, 3 and 4 weeks."


# -- the faults of the 2026-11-28 ClaimGen reading (docs/claimgen.md), real citances as fixtures ------------------


def _entity_claim(parse, text: str, entity: str) -> str | None:  # type: ignore[no-untyped-def]
    doc = parse(text)
    words = entity.split()
    start = next(t.i for t in doc if [x.text for x in doc[t.i : t.i + len(words)]] == words)
    span = set(range(start, start + len(words)))
    clause = next(c for c in clauses(doc) if span <= c.tokens)
    return claim_from_clause(doc, clause, span).text


@pytest.mark.parametrize(
    ("text", "entity", "expected"),
    [
        # "such" parsed as the first member's modifier, and as "case" with a fixed "as": both stay with "as"
        (
            "Older adults have issues particular to their age, such as advanced disease, cognitive dysfunction, "
            "complex treatment regimens, and depression.",
            "cognitive dysfunction",
            "Older adults have issues particular to their age, such as cognitive dysfunction.",
        ),
        (
            "The pandemic and the stay-at-home orders have also led to a change in lifestyle, such as sleep quality, "
            "physical activity, and eating behavior.",
            "physical activity",
            "The pandemic and the stay-at-home orders have also led to a change in lifestyle such as physical "
            "activity.",
        ),
    ],
)
def test_such_as_stays_whole_when_a_list_is_reduced(parse, text: str, entity: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    assert _entity_claim(parse, text, entity) == expected


def test_verbs_sharing_an_object_are_one_clause(parse) -> None:  # type: ignore[no-untyped-def]
    text = "Goblet cells can synthesize and secrete bioactive molecules that are components of mucus."
    assert [t for t, _ in _claims(parse, text)] == [
        "Goblet cells can synthesize and secrete bioactive molecules that are components of mucus."
    ]  # not "Goblet cells can synthesize."


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        # the list hangs on the predicate nominal: reducing it cut the subject or fused two members
        (
            "The major risk factors for DR are long duration of diabetes, poor glycaemic control and hypertension.",
            "hypertension",
        ),
        (
            "Oxidative stress is inseparably linked to mitochondrial dysfunction, as mitochondria are both generators "
            "of and targets for reactive species.",
            "targets",
        ),
        # "the association of A and B" relates the two; a quantity coordinated with a noun is a misparse
        (
            "FGF21 resistance may contribute to the association of FGF21 and nonalcoholic fatty liver disease.",
            "disease",
        ),
        (
            "The lifetime prevalence ranges from 11 to 15% and its 12 months prevalence is about 6% in the global "
            "setting.",
            "months",
        ),
        # "as well as" joins something else to a list
        (
            "Many articles focused on diets rich in antioxidants, such as essential vitamins and minerals, as well as "
            "a commitment to the Mediterranean diet.",
            "commitment",
        ),
        # misparsed coordinations from the Citation-Integrity citances (session 41), each once a broken claim
        (
            "The SARS-CoV-2 receptors are elevated in situations of COPD, as well as diabetes and male gender.",
            "diabetes",
        ),
        ("Obesity is considered as an important health problem causing morbidity and mortality.", "mortality"),
        (
            "The intakes of potato chips, red meat, and sugary drinks increased significantly during the lockdown.",
            "red meat",
        ),
        (
            "COVID-19 is an age-related disease with a higher risk of organ dysfunction and mortality in older adults.",
            "mortality",
        ),
        (
            "Local side effect in the injection site and systemic side effects were higher in individuals previously "
            "infected than in those without known past COVID-19 infection.",
            "systemic side effects",
        ),
        (
            "Epithelial-mesenchymal transition, characterized by loss of cell-cell junctions, polarity and epithelial "
            "markers, and acquisition of mesenchymal features and motility, has been suggested to be involved in "
            "cancer progression and metastasis.",
            "acquisition",
        ),
        (
            "Younger adults may report more adverse events due to their robust immune system, than older adults.",
            "older",
        ),
        # the parser left the list's attachment unlabelled ("dep")
        (
            "Among patients with asthma, the expression level of ACE2 in sputum cells was higher in male sex, African "
            "American race and history of diabetes mellitus.",
            "history",
        ),
    ],
)
def test_lists_that_are_not_one_list_are_not_reduced(parse, text: str, entity: str) -> None:  # type: ignore[no-untyped-def]
    doc = parse(text)
    full = {c.text for c in (claim_from_clause(doc, cl) for cl in clauses(doc))}
    assert _entity_claim(parse, text, entity) in full


def test_a_reflexive_subject_is_a_misparse(parse) -> None:  # type: ignore[no-untyped-def]
    # the parse makes "Ubiquitin" a root of its own and "itself" the subject of the verb
    doc = parse("Ubiquitin itself can be phosphorylated on serine 65 by PINK1.")
    problems = {c.text: c.problem for c in (claim_from_clause(doc, cl) for cl in clauses(doc))}
    assert problems["Itself can be phosphorylated on serine 65 by PINK1."] == "pronoun_subject"


def test_verbs_with_objects_of_their_own_still_split(parse) -> None:  # type: ignore[no-untyped-def]
    texts = [t for t, _ in _claims(parse, "Goblet cells synthesize mucins and secrete trefoil factors.")]
    assert texts == ["Goblet cells synthesize mucins.", "Goblet cells secrete trefoil factors."]


@pytest.mark.parametrize(
    ("text", "entity", "expected"),
    [
        # the member before "as well as" is still a claim of its own
        (
            "Many sites are highly tolerant of mutations with respect to ACE2 binding as well as their expression.",
            "mutations",
            "Many sites are highly tolerant of mutations with respect to ACE2 binding.",
        ),
        # "due to" stays whole with the kept member, however the parser labels "to"
        (
            "The increase in life expectancy of HIV-infected patients has also driven increased costs due to "
            "life-long HIV treatment and concurrent age-related comorbidities.",
            "comorbidities",
            "The increase in life expectancy of HIV-infected patients has also driven increased costs due to "
            "concurrent age-related comorbidities.",
        ),
        # "risk of A and B" kept to its first member is true whichever way B attaches; a list followed by a clause
        (
            "COVID-19 is an age-related disease with a higher risk of organ dysfunction and mortality in older adults.",
            "organ dysfunction",
            "COVID-19 is an age-related disease with a higher risk of organ dysfunction in older adults.",
        ),
    ],
)
def test_doubtful_coordinations_still_reduce_where_safe(parse, text: str, entity: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    assert _entity_claim(parse, text, entity) == expected


@pytest.mark.parametrize(
    ("text", "entity", "expected"),
    [
        # a new clause after the list is no sign the list goes on (the review of 2026-11-28)
        (
            "Fatigue is associated with depression, anxiety, and pain, and insomnia is common.",
            "anxiety",
            "Fatigue is associated with anxiety.",
        ),
        # "might have been": the modal is the finite word, so "have" is no plural verb
        (
            "The incidence of stroke and death might have been reduced by aspirin.",
            "death",
            "The incidence of death has been reduced by aspirin.",  # the modal hedge asserted
        ),
    ],
)
def test_ordinary_lists_are_still_reduced(parse, text: str, entity: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    assert _entity_claim(parse, text, entity) == expected
