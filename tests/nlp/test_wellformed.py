"""The emit-time checks of nlp/wellformed.py on the shipped parser: what a claim must be before it is a row."""

from __future__ import annotations

import pytest

from claimforge.nlp import wellformed as wf
from claimforge.registry import registry


@pytest.fixture(scope="module")
def parse():  # type: ignore[no-untyped-def]
    nlp = registry.build("nlp", {"name": "spacy", "use_cache": False})
    return lambda text: nlp.parse([text])[0]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Digestive enzymes speeds up the reactions of chemical digestion.", "agreement"),
        ("The sun, moon, and stars appears to travel from east to west.", "agreement"),
        ("Which of the following is the most likely diagnosis.", "question_words"),
        ("A spider has how many legs.", "question_words"),
        ("What causes the seasons on Earth.", "wh_question_order"),
        ("Fossil fuels fuels provide most of the world's energy.", "repeated_word"),
        ("Results regarding the genetic architecture of autism spectrum disorder.", "no_finite_verb"),
        ("Is the tomato a fruit?", "question_mark"),
        ("Although EGCG at 100 µM reduced cell viability in both lines.", "subordinate_clause_only"),
        # a citance cut after its subject ("… et al. measured …"), and the source's own missing "that" (session 41)
        (
            "Measured calibration accuracy for typically developing infants and infants later diagnosed with autism "
            "from 2 to 24 months.",
            "no_subject",
        ),
        ("Measured the accuracy of the infants.", "no_subject"),
        ("Adult neurogenesis has been suggested it can buffer stress response.", "missing_complementizer"),
        ("As metformin is an inhibitor of complex I.", "subordinate_clause_only"),
        # a "Not" left before the verb it belonged to, its subject lost (MedMCQA conversions, session 42)
        ("Not should be used in acute infection of tonsils and adenoids.", "no_subject"),
        ("Not present are in the collecting duct.", "no_subject"),
        ("Is used in pregnancy.", "no_subject"),
        ("Were significantly reduced in treated mice.", "no_subject"),
        # an exam's truth stem left in the claim, an answer with no subject (MedMCQA conversions, session 43)
        ("True about placenta accreta is seen in cesarean scar.", "question_words"),
        ("Are helper t cells.", "no_subject"),
        ("Maintain vertical height of face.", "no_subject"),
        ("The goal of science is improve knowledge.", "copula_before_verb"),
    ],
)
def test_ill_formed_claims_are_caught(parse, text: str, code: str) -> None:  # type: ignore[no-untyped-def]
    reasons = wf.wellformed_reasons(text, parse(text))
    assert any(r.split(":")[0] == code for r in reasons), reasons


@pytest.mark.parametrize(
    "text",
    [
        "Digestive enzymes speed up the reactions of chemical digestion.",
        "The sun, moon, and stars appear to travel from east to west.",
        "A triad of seizure, mental retardation and sebaceous adenoma is seen in tuberous sclerosis.",
        "Metformin inhibits mitochondrial complex I.",
        "Mosses and trees are included in the plant kingdom.",
        "Stiffness is resistance to elastic deformation.",
        "Although the dose was doubled, the response rate did not change.",
        "Whereas mice gained weight, rats did not.",
        "True open bite is caused by a horizontal fracture of the maxilla.",  # a kind of open bite, no truth stem
        "Sound, like all waves, travels at a certain speed and has the properties of frequency and wavelength.",
        "Glossy smooth margins of a casting are due to incomplete wax elimination.",
        "Although much of the heart's basic structure is complete by the end of the fifth week, shunts remain.",
        "A 35-year-old male is put on thiazides for the treatment of primary hypertension.",
        # a word that can end a sentence is no dangling end (the review of 2026-11-27)
        "Pain scores were measured before and after.",
        "Mice received 10 mg of the drug each.",
        "The drug affected splicing, transcription, or both.",
        # "how much" opening a clause of its own (a SciQ conversion the check rejected, 2026-11-27)
        "The measure of how much a given volume of matter decreases under pressure is called compressibility.",
        # a sentence opening on a participle: a fronted clause, or a verb the tagger read as a noun
        "Made of hot, solid rock, the mantle is beneath the crust.",
        "Increased levels of IL-6 predict mortality.",
        "Reported side effects included fever and fatigue.",
        "It has been suggested that neurogenesis buffers stress.",
        "As the temperature rises the pressure increases.",
        "As many as 30% of patients died.",
        "As a marker of inflammation CRP is widely used.",
        "Patients were shown it at the clinic.",
        "As part of the innate response macrophages secrete IL-6.",
        "Not all cells are able to divide.",
        "Not included in the human poverty index is occupation.",
        "Not everyone is susceptible to the virus.",
        "Not enough is known about the mechanism.",
        "Not infrequently are these lesions missed.",
        "Not shown are the controls.",
        "Had the trial continued, more patients would have died.",
    ],
)
def test_well_formed_claims_pass(parse, text: str) -> None:  # type: ignore[no-untyped-def]
    assert wf.wellformed_reasons(text, parse(text)) == []


def test_abbreviations_defined_in_the_source_are_written_out() -> None:
    source = (
        "Infants later diagnosed with autism spectrum disorder (ASD) differ. Reactive oxygen species (ROS) and "
        "reactive nitrogen species (RNS) matter; randomized controlled trials (RCTs) show it."
    )
    defs = wf.abbreviation_definitions(source)
    assert defs["ASD"] == "autism spectrum disorder" and defs["RCT"] == "randomized controlled trials"
    known = frozenset(wf.COMMON_ABBREVIATIONS)
    claim, done = wf.expand_abbreviations("RNS levels rise in ASD and in CTX.", defs, known)
    # a long form that opens the claim takes its capital
    assert claim == "Reactive nitrogen species (RNS) levels rise in autism spectrum disorder (ASD) and in CTX."
    assert done == ["RNS", "ASD"]  # CTX is not defined in the source: it stays (and the check flags it)
    defs = wf.abbreviation_definitions("Serum ferritin level (SFL) rose. Intellectual Disability (ID) is common.")
    claim, _ = wf.expand_abbreviations("Anger is common in ID and SFL rose.", defs, known)
    assert claim == "Anger is common in Intellectual Disability (ID) and serum ferritin level (SFL) rose."
    # the long form's last word is not said twice ("HC formulation")
    claim, _ = wf.expand_abbreviations(
        "The HC formulation was preferred.", {"HC": "high-concentration formulation"}, known
    )
    assert claim == "The high-concentration formulation (HC) was preferred."


def test_restore_case_from_the_evidence() -> None:
    from claimforge.nlp.normalize import restore_case

    src = "Dissolving NaOH in water gives ions. The Paleozoic era began long ago. The Latin word. Water is wet."
    assert restore_case("Naoh forms in the paleozoic, says the latin text about water.", src) == (
        "NaOH forms in the Paleozoic, says the Latin text about water."
    )
    # a function word capitalised after a heading with no full stop is not a name (SciQ reading, 2026-11-27)
    src = "The Pressure of a Mixture of Gases: Dalton's Law Unless they react, gases do not affect each other."
    assert ", unless they react," in restore_case("According to the law, unless they react, gases mix.", src)


@pytest.mark.parametrize(
    ("title", "fragment"),
    [
        # titles of the PMC trial reports (2026-11-27): a chemical noun read as the verb; a bare verb with no subject
        ("Efficacy and safety of delayed-release dimethyl fumarate in newly diagnosed patients.", True),
        ("Dapagliflozin add-on to metformin in type 2 diabetes inadequately controlled with metformin.", True),
        ("Predicting epidemic risk from past contact data.", True),
        # verbs of the life sciences the general lexicon lacks still head a claim
        ("Kinases phosphorylate tau at serine 202.", False),
        ("Resistant strains outcompete the wild type in vitro.", False),
        ("Statins upregulate LDL receptors in hepatocytes.", False),
        ("Limited haplotypes display different airway responses in asthmatics.", False),
    ],
)
def test_headline_fragments(parse, title: str, fragment: bool) -> None:  # type: ignore[no-untyped-def]
    assert bool(wf.headline_reasons(title, parse(title))) == fragment


def test_references_to_the_sentence_before_are_not_self_contained() -> None:
    # session 36's triage of ClaimGen claims: openers and comparisons that need the sentence before
    from claimforge.nlp.wellformed import _ANAPHORS

    for text in (
        "Another possibility is poor transition of care from the inpatient setting.",
        "Besides this, the propensity of RNA viruses to a high mutation rate is known.",
        "Examples are single nucleotide polymorphisms and RNAseq data.",
        "A study from the United Kingdom reported similar results.",
    ):
        assert _ANAPHORS.search(text), text
    assert not _ANAPHORS.search("Similar results to those in mice were found in rats.")


def test_such_as_before_a_coordinator_is_a_broken_list(parse) -> None:  # type: ignore[no-untyped-def]
    for text in (
        "Some good examples include coordination activities, such as and Mental Health Studies Register.",
        "Diets are rich in antioxidants, such as well as a commitment to the Mediterranean diet.",
    ):
        assert any(r.startswith("broken_list") for r in wf.wellformed_reasons(text, parse(text))), text
    text = "Diets are rich in antioxidants, such as vitamins and minerals."
    assert not any(r.startswith("broken_list") for r in wf.wellformed_reasons(text, parse(text)))


def test_broken_list_at_the_end_and_before_a_comma(parse) -> None:  # type: ignore[no-untyped-def]
    for text in (
        "Lifestyle changes were documented, such as, and sleep.",
        "Lifestyle changes were documented such as or",
    ):
        assert any(r.startswith("broken_list") for r in wf.wellformed_reasons(text, parse(text))), text


def test_a_title_has_no_verb_in_its_capitalised_words(parse) -> None:  # type: ignore[no-untyped-def]
    text = "The Global Burden of Metabolic Risk Factors for Chronic Diseases Collaboration."
    assert "no_finite_verb" in wf.wellformed_reasons(text, parse(text))
    text = "The brain stem monitors the level of carbon dioxide."  # the fallback still finds a lower-case verb
    assert "no_finite_verb" not in wf.wellformed_reasons(text, parse(text))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("The reason for this is unclear.", "demonstrative"),
        ("PPARγ is an important regulator of their differentiation and metabolism.", "anaphor"),
        ("PPARγ regulates their target genes.", "anaphor"),  # the possessed noun is no referent
        ("PPARγ is expressed in fat and is an important regulator of their differentiation.", "anaphor"),
        ("Diabetes affects their health.", "anaphor"),  # a singular in "-s"
    ],
)
def test_demonstratives_and_their_without_a_referent_are_not_self_contained(parse, text: str, code: str) -> None:  # type: ignore[no-untyped-def]
    reasons = wf.decontextualization_reasons(text, parse(text), None)
    assert any(r.split(":")[0] == code for r in reasons), reasons


@pytest.mark.parametrize(
    "text",
    [
        "Due to their high prevalence of homelessness, PWID are at elevated risk for SARS-CoV-2 infection.",
        "Apart from their use in the vaccine field, bNAbs are interesting compounds.",
        "Patients and their families were interviewed.",
        "Mitochondria regulate their own division.",
        "Patients with this mutation die early.",
    ],
)
def test_their_with_a_referent_anywhere_is_self_contained(parse, text: str) -> None:  # type: ignore[no-untyped-def]
    reasons = wf.decontextualization_reasons(text, parse(text), None)
    assert not any(r.startswith(("anaphor", "demonstrative: 'this'")) for r in reasons), reasons


@pytest.fixture(scope="module")
def claim_check():  # type: ignore[no-untyped-def]
    return registry.build("claim_check", {"name": "wellformed", "nlp": {"name": "spacy", "use_cache": False}})


@pytest.mark.parametrize(
    "text",
    [
        # a verb the tagger takes for a plural noun, before a preposition, an adverb, "to" + verb or the end; the
        # n-gram LM reads it as a verb (MedMCQA and SciQ conversions, session 43)
        "The maxillary sinus drains into the middle meatus.",
        "Infection from maxillary first molar drains into the buccal space.",
        "In a free gingival graft, epithelium of the graft degenerates.",
        "Restriction endonuclease cuts at AAGCTT.",
        "Granite forms from cooled magma or lava.",
        "The heart contracts rhythmically to pump blood to the lungs and the rest of the body.",
        "In most crustaceans, head and thorax fuse to form a cephalothorax.",
    ],
)
def test_a_verb_read_as_a_plural_noun_passes_with_the_lm(claim_check, parse, text: str) -> None:  # type: ignore[no-untyped-def]
    assert "no_finite_verb" in wf.wellformed_reasons(text, parse(text))  # the parse alone misses the verb
    assert claim_check.check([text]) == [[]], text


@pytest.mark.parametrize(
    "text",
    [
        "Blood levels in patients.",  # "levels" reads as a noun
        "Substantial issues of mistrust surrounding COVID-19 vaccines and treatment among HIV-positive Blacks.",
        "Predisposing clinical condition for endodontic flare up asymptomatic necrotic pulp with periapical lesion.",
        "A baby travels to after leaving the uterus in the birth canal.",  # "to" + no verb
        "Water travels in downhill.",  # the preposition opens no noun phrase
    ],
)
def test_no_verb_slot_still_has_no_finite_verb(claim_check, text: str) -> None:  # type: ignore[no-untyped-def]
    assert "no_finite_verb" in claim_check.check([text])[0], text


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("Sediments changes rocks by heat and pressure.", "'Sediments … changes'"),
        ("The lungs monitors the level of carbon dioxide in the blood.", "'lungs … monitors'"),
        ("Ocean currents travels at the interface between the sea surface and the atmosphere.", "'currents … travels'"),
    ],
)
def test_a_fallback_verb_after_a_plural_subject_is_an_agreement_error(claim_check, text: str, pair: str) -> None:  # type: ignore[no-untyped-def]
    assert f"agreement: {pair}" in claim_check.check([text])[0]


def test_the_speed_of_cars_increases_is_no_agreement_error(parse) -> None:  # type: ignore[no-untyped-def]
    text = "The speed of cars increases with time."
    assert not [r for r in wf.wellformed_reasons(text, parse(text), lambda w: True) if r.startswith("agreement")]


@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        # the exam stem's own error carried into the claim (MedMCQA / SciQ conversions, session 45)
        ("Topical steroids is most effective in eczematous dermatitis.", "Topical steroids are most effective in"),
        ("Diabetes insipidus, bone lesions and exophthalmos is seen in Hand-Schuller-Christian disease.", "are seen"),
        ("Efferent tracts from cerebellum arises from Purkinje cells.", "tracts from cerebellum arise from"),
        ("Bacteria reproduces by binary fission.", "Bacteria reproduce"),
        ("Heterotrophs is another name for consumers.", "Heterotrophs are another"),
        ("The facial proportions between upper, middle and lower thirds of face Is 30:35:35.", "face Are 30"),
    ],
)
def test_agreement_repaired_makes_the_verb_plural(parse, text: str, repaired: str) -> None:  # type: ignore[no-untyped-def]
    out = wf.agreement_repaired(text, parse(text), lambda w: True)
    assert out is not None and repaired in out, out
    assert not wf.agreement_errors(parse(out)), out


@pytest.mark.parametrize(
    "text",
    [
        "When magma cools slowly, it has large crystals.",  # the subject is in a subordinate clause
        "The tooth most commonly having bifurcated roots is the mandibular premolar.",  # inside a participle
        "Humans building communities to make survival easier is an example of humans changing their environment.",
        "Biomes that occur where a river, a source of fresh water, meets the ocean are called estuaries.",
        "Roots, stems and leaves are organs commonly found in plants.",  # nouns that may be verbs
        "Deciduous loses its leaves each fall and remains leafless in the winter.",
        "5 years and 4 month old child presents with distal step molar relation.",  # a number before it
        "A dimorphic fungi is pneumocystis jirovecii.",  # "a": meant singular
        "The bacteria of oral flora which plays least role in periodontitis is Actinomyces.",  # its clause: singular
        "Vitamins that is fat soluble is Vitamin A.",
        "Bacteria is a prokaryote.",  # a singular predicate
        "Ascites is seen in cirrhosis.",  # a singular in "-s" that lemminflect does not know
        'The 3" brain stem monitors the level.',
        "The means by which one part opposes the action of the retainer is called reciprocation.",
        "Apical foramen is found at root apex in 17-46% of cases.",
        "The results are clear.",  # nothing to repair
    ],
)
def test_agreement_repaired_leaves_doubtful_parses_alone(parse, text: str) -> None:  # type: ignore[no-untyped-def]
    assert wf.agreement_repaired(text, parse(text), lambda w: True) is None


@pytest.mark.parametrize(
    "text",
    ["Apical foramen is found at root apex in 17-46% of cases.", "The means of transport is a ship."],
)
def test_singulars_the_tagger_calls_plural_are_no_agreement_error(parse, text: str) -> None:  # type: ignore[no-untyped-def]
    assert wf.agreement_errors(parse(text)) == [], text


@pytest.mark.parametrize(
    ("text", "dangling"),
    [
        ("A crater is a common osseous lesion in periodontitis is.", True),  # MedMCQA stems with a doubled copula
        ("The child rushes to dental clinic with avulsed tooth, the treatment is.", True),
        ("Density reflects how closely packed the particles of matter are.", False),  # an embedded wh-clause
        ("The reaction is faster at high temperature than it is.", False),
    ],
)
def test_a_sentence_ending_on_a_copula_dangles(parse, text: str, dangling: bool) -> None:  # type: ignore[no-untyped-def]
    reasons = wf.fluency_checks(text, parse(text))
    assert any(r.startswith("dangling_end") for r in reasons) == dangling, reasons


def test_singular_nouns_under_one_determiner_may_name_one_thing(parse) -> None:  # type: ignore[no-untyped-def]
    text = "The major entrance and exit for the respiratory system is the nose."
    assert wf.agreement_errors(parse(text)) == []
    assert wf.agreement_repaired(text, parse(text)) is None


def test_a_question_word_left_at_the_end_is_a_question_left(parse) -> None:  # type: ignore[no-untyped-def]
    text = "Solutions in which a solute concentration exceeds its solubility are called what."
    assert any(r.startswith("question_words") for r in wf.question_left(text, parse(text)))


def test_a_quoted_title_gives_no_verb(parse) -> None:  # type: ignore[no-untyped-def]
    text = 'Term "Clean Tooth Never Decays" given by Perrie Fauchard.'
    assert "no_finite_verb" in wf.fluency_checks(text, parse(text))
    text = 'The phrase "survival of the fittest" describes natural selection.'
    assert "no_finite_verb" not in wf.fluency_checks(text, parse(text))


@pytest.mark.parametrize(
    ("text", "error"),
    [
        # review 45
        ("The liver and spleen is enlarged in malaria.", True),  # two organs, not one thing
        ("Nucleotides links together to form long polymeric chains.", True),  # unknown to lemminflect, plural
        ("Physics is the study of energy, matter, and their interactions.", False),
        ("Ascites is seen in cirrhosis.", False),
        ("Aeromonas is associated with leeches.", False),
        # wellformed-v13: a participle's object or an age read as the subject is no agreement error
        ("The tooth most commonly having bifurcated roots is the mandibular premolar.", False),
        ("2 years female has been successfully treated for urinary tract infection.", False),
        # (still errors: coordinated subjects, a plural subject with no participle before it)
        ("The sun, moon, and stars appears to travel from east to west.", True),
        ("Capillary microaneurysms is an earliest sign of retinopathy.", True),
    ],
)
def test_agreement_errors(parse, text: str, error: bool) -> None:  # type: ignore[no-untyped-def]
    reasons = wf.wellformed_reasons(text, parse(text), lambda w: True)
    assert any(r.startswith("agreement") for r in reasons) == error, text


def test_quotes_hide_a_verb_only_inside_the_sentence(parse) -> None:  # type: ignore[no-untyped-def]
    for text in ('The 3" brain stem monitors the level.', '"The brain stem monitors the level of carbon dioxide."'):
        assert "no_finite_verb" not in wf.fluency_checks(text, parse(text)), text


@pytest.mark.parametrize(
    ("text", "dangling"),
    [
        ("The most appropriate management of a patient who presents with fever is.", True),
        ("The treatment of choice would be.", True),
        ("The term density describes how closely packed the particles of matter are.", False),
    ],
)
def test_a_copula_the_parse_makes_the_root_dangles(parse, text: str, dangling: bool) -> None:  # type: ignore[no-untyped-def]
    assert any(r.startswith("dangling_end") for r in wf.fluency_checks(text, parse(text))) == dangling, text


def test_the_end_of_a_hyphenated_word_does_not_dangle(parse) -> None:  # type: ignore[no-untyped-def]
    text = "The occlusal clearance of an onlay is best detected by wax chew-in."
    assert not [r for r in wf.fluency_checks(text, parse(text)) if r.startswith("dangling_end")]
    text = "The drug is used for."
    assert [r for r in wf.fluency_checks(text, parse(text)) if r.startswith("dangling_end")]
    text = "The test is done in a step-by."  # only particles end hyphenated words
    assert [r for r in wf.fluency_checks(text, parse(text)) if r.startswith("dangling_end")]


def test_a_what_ending_the_claim_is_a_question_left(parse) -> None:  # type: ignore[no-untyped-def]
    text = "Where a cell resides, how it appears, and a minute race it does define its what."
    assert any(r.startswith("question_words") for r in wf.question_left(text, parse(text)))
    text = "A statement that describes what always happens in nature is a scientific law."
    assert not any(r.startswith("question_words") for r in wf.question_left(text, parse(text)))
