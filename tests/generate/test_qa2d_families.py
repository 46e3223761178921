"""QA2D failure families found in blind readings (issue 12), one test per family, on real exam question strings
(SciQ, Medbullets; a few shortened). Each expected claim is what a careful annotator would accept."""

from __future__ import annotations

import pytest

from claimforge.registry import registry
from claimforge.types import QA2DRequest


@pytest.fixture(scope="module")
def conv():  # type: ignore[no-untyped-def]
    return registry.build("qa2d", {"name": "rules", "nlp": {"name": "spacy", "use_cache": False}})


def _claim(conv, question: str, answer: str) -> str | None:  # type: ignore[no-untyped-def]
    [res] = conv.convert([QA2DRequest(question=question, answer=answer)])
    return res.text


ADJECTIVE_ANSWERS = [
    # "what type of N" + an adjective: the noun stays
    (
        "Budding and fission in annelids are examples of what type of reproduction?",
        "asexual",
        "Budding and fission in annelids are examples of asexual reproduction.",
    ),
    (
        "Ionic compounds contain what type of ions?",
        "positive and negative",
        "Ionic compounds contain positive and negative ions.",
    ),
    (
        "Which competition leads to one species going extinct or both becoming more specialized?",
        "interspecific",
        "Interspecific competition leads to one species going extinct or both becoming more specialized.",
    ),
    (
        "What bodily system is primarily responsible for fighting pathogens in the body?",
        "immune",
        "The immune system is primarily responsible for fighting pathogens in the body.",
    ),
    (
        "What type of climates is malaria commonly found in?",
        "tropical and subtropical",
        "Malaria is commonly found in tropical and subtropical climates.",
    ),
    # the class noun is kept for an adjective answer
    (
        "What type of speciation occurs when groups from the same species are geographically isolated for long"
        " periods?",
        "allopatric",
        "Allopatric speciation occurs when groups from the same species are geographically isolated for long periods.",
    ),
    # "what term / name" + a word: "the term X"
    (
        "What term refers to an animal that sleeps during the day and is active at night?",
        "nocturnal",
        "The term nocturnal refers to an animal that sleeps during the day and is active at night.",
    ),
]


DOUBLED = [
    (
        "What fuels provide most of the world's energy?",
        "fossil fuels",
        "Fossil fuels provide most of the world's energy.",
    ),
    (
        "What muscles allow the tongue to change shape?",
        "intrinsic muscles",
        "Intrinsic muscles allow the tongue to change shape.",
    ),
]


PREPOSITIONS = [
    # stranded prepositions and particles: the answer goes after them
    ("Which kingdom are mosses and trees included in?", "plantae", "Mosses and trees are included in Plantae."),
    (
        "What do the planets orbit around in the solar system?",
        "the sun",
        "The planets orbit around the sun in the solar system.",
    ),
    ("What should you listen to if you want less noise?", "fm", "You should listen to fm if you want less noise."),
    # a list of adjectives inside the wh-phrase is one phrase
    (
        "Steam consists of what common and essential element in its gaseous phase?",
        "water",
        "Steam consists of water in its gaseous phase.",
    ),
]


def test_quoted_glosses_are_unquoted(conv) -> None:  # type: ignore[no-untyped-def]
    q = 'Ecology is a major branch of what higher-level "classification" of science?'
    assert _claim(conv, q, "biology") == "Ecology is a major branch of biology."


def test_a_stem_that_opens_with_not_true_or_false_is_inverted(conv) -> None:  # type: ignore[no-untyped-def]
    # MedMCQA: "Not true about X" asks for the false statement, like "Which is not true about X?"
    [r, s] = conv.convert(
        [
            QA2DRequest(question="Not true about fresh frozen plasma", answer="Supplies major coagulation factors"),
            QA2DRequest(question="False regarding protective splinting:", answer="It is a pathologic condition"),
        ]
    )
    assert (r.polarity, r.text) == ("inverted", "Fresh frozen plasma supplies major coagulation factors.")
    assert (s.polarity, s.text) == ("inverted", "Protective splinting is a pathologic condition.")


def test_negation_inside_a_clause_is_not_a_negative_stem(conv) -> None:  # type: ignore[no-untyped-def]
    [r] = conv.convert(
        [
            QA2DRequest(
                question="What will be the effect to an organism if its homeostasis is not maintained?",
                answer="death or disease",
            )
        ]
    )
    assert r.polarity == "as_is"
    assert r.text == "Death or disease will be the effect to an organism if its homeostasis is not maintained."
    [r] = conv.convert(
        [QA2DRequest(question="What is root that does not arise from a usual place?", answer="adventitious")]
    )
    assert r.polarity == "as_is" and r.text is not None and "does not arise" in r.text


def test_vignette_question_after_an_unpunctuated_lab_list(conv) -> None:  # type: ignore[no-untyped-def]
    q = (
        "A 45-year-old man presents with chest pain. Troponin: < 0.01 ng/mL "
        "Which of the following is the most likely diagnosis?"
    )
    assert _claim(conv, q, "Left ventricular hypertrophy") == (
        "A 45-year-old man presents with chest pain. Troponin: < 0.01 ng/mL. "
        "Left ventricular hypertrophy is the most likely diagnosis."
    )


def test_vignette_answer_starts_its_sentence_capitalised(conv) -> None:  # type: ignore[no-untyped-def]
    q = (
        "A digital rectal exam reveals a tight anal sphincter. "
        "Which of the following is the most accurate test to diagnose this patient's condition?"
    )
    claim = _claim(conv, q, "Rectal suction biopsy")
    assert claim is not None and claim.endswith(
        ". Rectal suction biopsy is the most accurate test to diagnose this patient's condition."
    )


def test_imperative_answer_as_subject_becomes_a_gerund(conv) -> None:  # type: ignore[no-untyped-def]
    q = (
        "The patient is given several intravenous boluses of fluids. "
        "Which of the following is most likely to confirm the underlying cause of this patient's symptoms?"
    )
    claim = _claim(conv, q, "Check serum TSH and free T4 levels")
    assert claim is not None and claim.endswith(
        "Checking serum TSH and free T4 levels is most likely to confirm the underlying cause of this patient's"
        " symptoms."
    )


def test_context_sentences_about_figures_are_dropped(conv) -> None:  # type: ignore[no-untyped-def]
    q = (
        "A 3-year-old boy has a painless limp. A radiograph of the hip is shown in Figure A. "
        "Which of the following is the most likely diagnosis?"
    )
    assert _claim(conv, q, "Legg-Calve-Perthes disease") == (
        "A 3-year-old boy has a painless limp. Legg-Calve-Perthes disease is the most likely diagnosis."
    )


MODIFIERS_BEFORE_THE_VERB = [
    (
        "What factor largely determines the distinguishing features of terrestrial biomes?",
        "climate",
        "The climate largely determines the distinguishing features of terrestrial biomes.",
    ),
    ("What always continues in a red supergiant?", "fusion", "Fusion always continues in a red supergiant."),
    (
        "What man-made devices in space are used to observe the earth's surface?",
        "satellites",
        "Satellites in space are used to observe the earth's surface.",
    ),
]


COPULAR_AND_ARTICLES = [
    # "is" before an adjective predicate of why/where questions
    (
        "Why is the drift velocity negligible?",
        "because of many free charges",
        "The drift velocity is negligible because of many free charges.",
    ),
    (
        "Where is the potential energy of a river the highest?",
        "at the source",
        "The potential energy of a river is the highest at the source.",
    ),
    # a gerund after a preposition is not the main verb
    (
        "What is the most important muscle involved in the process of breathing?",
        "diaphragm",
        "The diaphragm is the most important muscle involved in the process of breathing.",
    ),
    # a bare singular noun answer gets the article the LM prefers
    (
        "A long chain of monosaccharides linked by glycosidic bonds is known as what?",
        "polysaccharide",
        "A long chain of monosaccharides linked by glycosidic bonds is known as a polysaccharide.",
    ),
    (
        "What produces hormones referred to as thymosins?",
        "thymus",
        "The thymus produces hormones referred to as thymosins.",
    ),
]


GAPS_AFTER_BE = [
    # "What is X used to measure": a passive participle whose infinitive lacks its object (the blind reading of
    # 2026-11-26 found "A mass spectrometer used to measure is relative atomic masses.")
    (
        "What is a mass spectrometer used to measure?",
        "relative atomic masses",
        "A mass spectrometer is used to measure relative atomic masses.",
    ),
    ("What are mars' moons thought to be?", "captured asteroids", "Mars' moons are thought to be captured asteroids."),
    (
        "What type of transport is vesicle transport considered to be?",
        "active transport",
        "Vesicle transport is considered to be active transport.",
    ),
    # "What is X equal to in Y": an adjective whose preposition lacks its object
    (
        "What is the number of electrons equal to in every electrically neutral atom?",
        "protons",
        "The number of electrons is equal to protons in every electrically neutral atom.",
    ),
    (
        "What were the first life forms found on earth similar to?",
        "bacteria",
        "The first life forms found on earth were similar to bacteria.",
    ),  # fmt: skip
    # "which" with do-support after a comma or a dash is a question, not a relative clause
    (
        "Of the three types of skeleton designs - hydrostatic skeletons, exoskeletons, and endoskeletons - which do "
        "humans possess?",
        "endoskeleton",
        "Of the three types of skeleton designs - hydrostatic skeletons, exoskeletons, and endoskeletons - humans "
        "possess endoskeleton.",
    ),
    # unchanged: the object of an active verb, with a purpose infinitive after it; a complete reduced relative
    ("What do living things need to survive?", "nutrients", "Living things need nutrients to survive."),
    ("What is the material found in lava?", "magma", "The material found in lava is magma."),
]


NAMING = [
    # "What is X called in which/that ...?": the clause stays with X and the blank goes after "called" (2026-11-27
    # reading: "The process called in which ..."); one that ends in its own preposition keeps the question's order
    (
        "What is the process called in which nutrients pass into the bloodstream?",
        "absorption",
        "The process in which nutrients pass into the bloodstream is called absorption.",
    ),
    (
        "What are scientists called who study the weather and give forecasts?",
        "meteorologists",
        "Scientists who study the weather and give forecasts are called meteorologists.",
    ),
    # "What do you call X?" names X (179 SciQ train questions; "You call X Y" in the 2026-11-27 reading)
    (
        "What do you call a species that has died out in the past?",
        "extinct",
        "A species that has died out in the past is called extinct.",
    ),
    (
        "What do you call the horizontal stems of a strawberry plant that run over the ground surface?",
        "stolons",
        "The horizontal stems of a strawberry plant that run over the ground surface are called stolons.",
    ),
    (
        "In physics, what do you call devices that make work easier?",
        "machines",
        "In physics, devices that make work easier are called machines.",
    ),
    (
        "When land used for mining or other purposes is restored to its natural state, what do you call the "
        "process, which is often mandated by law?",
        "reclamation",
        "When land used for mining or other purposes is restored to its natural state, the process, which is often "
        "mandated by law, is called reclamation.",
    ),
    # "What is the term for X?" names X too
    (
        "What is the term for the force of attraction between things that have a mass?",
        "gravity",
        "The force of attraction between things that have a mass is called gravity.",
    ),
    (
        "What is the name for the tiny air sacs at the end of bronchioles?",
        "alveoli",
        "The tiny air sacs at the end of bronchioles are called alveoli.",
    ),
    (
        "What do you call the high and low points of transverse waves?",
        "crests and troughs",
        "The high and low points of transverse waves are called crests and troughs.",
    ),
]


def test_a_named_subject_keeps_its_naming(conv) -> None:  # type: ignore[no-untyped-def]
    # a named subject keeps its naming ("Darwin called X Y"), not the passive
    assert not (
        _claim(conv, "What did Darwin call the concept of change over generations?", "descent") or ""
    ).startswith("The concept")


NOUN_PREDICATES_AND_ARTICLES = [
    # a predicate noun before a stranded preposition ("an example of"), and "most" opening the subject
    (
        "What is the tail bone an example of?",
        "a vestigial structure",
        "The tail bone is an example of a vestigial structure.",
    ),
    (
        "What are bacteria and archaea examples of?",
        "prokaryotes",
        "Bacteria and archaea are examples of prokaryotes.",
    ),
    ("What are most stis caused by?", "bacteria", "Most stis are caused by bacteria."),
    ("What is most of earth's surface covered with?", "water", "Most of earth's surface is covered with water."),
    # a question that ends in "is called" has its blank at the end, whatever wh-word it contains
    (
        "The measure of how much a given volume of matter decreases when placed under pressure is called?",
        "compressibility",
        "The measure of how much a given volume of matter decreases when placed under pressure is called "
        "compressibility.",
    ),
    (
        "What is the science of classifying living things is called?",
        "taxonomy",
        "The science of classifying living things is called taxonomy.",
    ),
    # "what type of bonding" + "hydrogen bonding": the gerund is the asked noun, not said twice
    (
        "Hydrophobic interactions arise because water molecules engage in what type of bonding with other water "
        "molecules?",
        "hydrogen bonding",
        "Hydrophobic interactions arise because water molecules engage in hydrogen bonding with other water molecules.",
    ),
    # "What is a/an X?" + a term: the definition reads term first
    (
        "What is a symbiotic relationship in which both species benefit?",
        "mutualism",
        "Mutualism is a symbiotic relationship in which both species benefit.",
    ),
    ("What is an alloy of copper and tin?", "bronze", "Bronze is an alloy of copper and tin."),
    # "do what" + a verb: the verb ("will rust", "can only contract"), with "it" standing for the object after "to"
    (
        "Iron will do what when it is exposed to oxygen and water?",
        "rust",
        "Iron will rust when it is exposed to oxygen and water.",
    ),
    (
        "Skeletal muscles must work in pairs because they can only do what?",
        "contract",
        "Skeletal muscles must work in pairs because they can only contract.",
    ),
    (
        "Adding a solute does what to the boiling point of a pure solvent?",
        "increases it",
        "Adding a solute increases the boiling point of a pure solvent.",
    ),
    # "the study of": the noun before "of" takes its article
    ("What is paleobotany?", "study of extinct plants", "Paleobotany is the study of extinct plants."),
    # "has" is the main verb when the participle after it modifies a noun ("specialized cells")
    (
        "What kind of organisms have many different types of specialized cells with particular jobs?",
        "multicellular",
        "Multicellular organisms have many different types of specialized cells with particular jobs.",
    ),
    # a preposition left without its object before another phrase takes the answer
    (
        "What do stored fats provide our body with for later use?",
        "energy",
        "Stored fats provide our body with energy for later use.",
    ),
    (
        "What do the ears have to be protected from in order to avoid hearing loss?",
        "loud sounds",
        "The ears have to be protected from loud sounds in order to avoid hearing loss.",
    ),
    # a multi-word singular answer takes an article where the LM prefers one; a mass noun does not
    (
        "What system protects the soft organs of the body?",
        "skeletal system",
        "The skeletal system protects the soft organs of the body.",
    ),
    (
        "What is the most common form of cancer in women?",
        "breast cancer",
        "The most common form of cancer in women is breast cancer.",
    ),
]


OPTION_CASE = [
    # exam options written in title case are lowered mid-sentence when they are common words (MedMCQA, 2026-11-27)
    (
        "Hodgkin's disease is considered to be:",
        "A malignant neoplasm",
        "Hodgkin's disease is considered to be a malignant neoplasm.",
    ),
    ("Relative bradycardia is uncommon in:", "Malaria", "Relative bradycardia is uncommon in malaria."),
    # a name the dictionary does not know keeps its capital
    (
        "A retroperitoneal mass with these findings is typical of:",
        "Castleman",
        "A retroperitoneal mass with these findings is typical of Castleman.",
    ),
]


COUNTABILITY = [
    # a singular count noun after "is called", "an example of", "part of" takes an article (2026-11-27 readings)
    (
        "What do you call a lens that causes the light rays to bend away from its axis?",
        "diverging lens",
        "A lens that causes the light rays to bend away from its axis is called a diverging lens.",
    ),
    ("A ramp is an example of what?", "inclined plane", "A ramp is an example of an inclined plane."),
    (
        "Somatic, autonomic, and enteric structures are part of what system?",
        "nervous system",
        "Somatic, autonomic, and enteric structures are part of the nervous system.",
    ),
    (
        "What do you call a condition caused by mutations in one or more genes?",
        "genetic disorder",
        "A condition caused by mutations in one or more genes is called a genetic disorder.",
    ),
    # a mass noun or substance takes none ("a chlorine", "the glucose", "into the insulin" before)
    (
        "What is the active ingredient in household bleach?",
        "chlorine",
        "The active ingredient in household bleach is chlorine.",
    ),
    (
        "What do we call the energy-rich product of photosynthesis?",
        "glucose",
        "The energy-rich product of photosynthesis is called glucose.",
    ),
    (
        "Photosynthesis converts carbon dioxide and water into what?",
        "insulin",
        "Photosynthesis converts carbon dioxide and water into insulin.",
    ),
    (
        "What is made from the minerals in rocks known as bauxite?",
        "aluminum",
        "Aluminum is made from the minerals in rocks known as bauxite.",
    ),
]


def test_countability_from_the_lm_frequencies(conv) -> None:  # type: ignore[no-untyped-def]
    kinds = {w: conv._countability(w) for w in ("reaction", "lens", "system", "sucrose", "insulin", "apparatus")}
    assert kinds == {
        "reaction": "count",
        "lens": "count",
        "system": "count",
        "sucrose": "mass",  # lemminflect's plural is the word itself
        "insulin": "mass",  # plurals are rare in the LM's training text
        "apparatus": None,  # an unchanged plural of a noun in -s: left to the LM
    }
    assert conv._countability("moist") is None and conv._countability(None) is None  # not a noun


NAMES = [
    # lower-cased options get the capitals WordNet always writes them with (2026-11-27 reading: "called mars")
    ("What is the fourth planet from the sun?", "mars", "The fourth planet from the sun is Mars."),
    (
        "When food enters the stomach after a period of fasting, a drop in what initiates the conversion of "
        "pepsinogen to pepsin?",
        "ph",
        "When food enters the stomach after a period of fasting, a drop in pH initiates the conversion of pepsinogen "
        "to pepsin.",
    ),
    (
        "The measure of magnetic fields is named after a serbian physicist. what is his name?",
        "nikola tesla",
        "The measure of magnetic fields is named after a Serbian physicist. His name is Nikola Tesla.",
    ),
    # a plural of a common noun is not the taxon or person WordNet spells like it ("Fungi", "Chambers")
    (
        "Mushrooms are an example of what type of organism, which includes beneficial and toxic specimens?",
        "fungi",
        "Mushrooms are an example of fungi, which includes beneficial and toxic specimens.",
    ),
    ("What does magma that cools underground form?", "chambers", "Magma that cools underground forms chambers."),
]


def test_name_casing_words_and_the_switch(conv) -> None:  # type: ignore[no-untyped-def]
    assert conv._cased_names("It occurs in northern africa and in the earth.", "northern africa") == (
        "It occurs in northern Africa and in the earth."
    )
    assert conv._cased_names("It moves back and forth.", "back and forth") == "It moves back and forth."  # the Forth
    plain = registry.build("qa2d", {"name": "rules", "names": None})
    assert plain.convert([QA2DRequest(question="What is the fourth planet from the sun?", answer="mars")])[0].text == (
        "The fourth planet from the sun is mars."
    )
    assert "+names:" in conv.model_id and "+names:" not in plain.model_id


ONE_PREPOSITION = [
    ("Where do germline mutations occur in?", "in gametes", "Germline mutations occur in gametes."),
    ("In what unit is frequency measured in?", "hertz", "Frequency is measured in hertz."),
    (
        "Through which organ do hookworm larvae enter the human body?",
        "through the skin",
        "Hookworm larvae enter the human body through the skin.",
    ),
]


def test_fixed_phrases_and_function_words_are_left_alone(conv) -> None:  # type: ignore[no-untyped-def]
    # "in vitro", "in situ" keep the question's own "in"
    assert _claim(conv, "Which technique are fluorescent probes used in?", "in situ hybridization") == (
        "Fluorescent probes are used in in situ hybridization."
    )
    # a one-word answer that WordNet also spells as a name ("US", "IT", "OR") stays a word
    assert conv._cased_names("The light reaches us.", "us") == "The light reaches us."
    assert conv._cased_names("The answer is it.", "it") == "The answer is it."
    # a person takes no article, and a claim still opens with a capital
    assert conv._proper_name("nikola tesla") and not conv._proper_name("golgi apparatus")
    assert conv._cased_names("Van gogh painted it.", "van gogh") == "Van Gogh painted it."


SUPERLATIVES = [
    # a long superlative description reads term first (2026-11-27 reading: "... which can be used to treat cancer
    # are gamma rays" was awkward); a short one and a prepositional answer keep the question's order
    (
        "What are the most energetic of all electromagnetic waves, which can be used to treat cancer?",
        "gamma rays",
        "Gamma rays are the most energetic of all electromagnetic waves, which can be used to treat cancer.",
    ),
    (
        "What is the largest planet in the solar system?",
        "jupiter",
        "The largest planet in the solar system is Jupiter.",
    ),
    (
        "What is the most common way to classify stars?",
        "by color",
        "The most common way to classify stars is by color.",
    ),
]

# a passive or "be" inside a clause of the subject is not the question's verb; the stem's auxiliary said twice by
# the source is said once
CLAUSE_INSIDE_THE_SUBJECT = [
    (
        "What is the base unit that frequency is typically measured in?",
        "hertz",
        "The base unit that frequency is typically measured in is hertz.",
    ),
    (
        "What are the structures in the cytoplasm where proteins are made?",
        "ribosomes",
        "The structures in the cytoplasm where proteins are made are ribosomes.",
    ),
    (
        "What is the result when two monosaccharides are bound together?",
        "disaccharide",
        "The result when two monosaccharides are bound together is a disaccharide.",
    ),
    (
        "What was the first amino acid to be isolated?",
        "asparagine",
        "The first amino acid to be isolated was asparagine.",
    ),
    (
        "How is carbon dioxide and water vapor that is produced by cellular respiration released?",
        "exhalation",
        # the question's own "is" made plural for the two nouns since rules-v45
        "Carbon dioxide and water vapor that is produced by cellular respiration are released by exhalation.",
    ),
    (
        "What is a disorder of glucose metabolism in which insulin production by the pancreas is impaired?",
        "diabetes mellitus",
        "Diabetes mellitus is a disorder of glucose metabolism in which insulin production by the pancreas is"
        " impaired.",
    ),
    # "have" is the clause's own verb before a naming participle
    (
        "What are temporary feet that protists have called?",
        "pedicules",
        "Temporary feet that protists have are called pedicules.",
    ),
    ("What are bacteria that stain purple are called?", "bacilli", "Bacteria that stain purple are called bacilli."),
    ("What substance are physical objects are made of?", "matter", "Physical objects are made of matter."),
    (
        "What are are organisms that feed on small pieces of organic matter?",
        "deposit feeders",
        "Organisms that feed on small pieces of organic matter are deposit feeders.",
    ),
]

# a question word left in place at the end of a statement: the answer takes its place ("in" before a place only where
# the statement has no preposition or verb of its own for it)
IN_SITU_AT_THE_END = [
    (
        "Most geological activity takes place where?",
        "at plate boundaries",
        "Most geological activity takes place at plate boundaries.",
    ),
    ("Nearly all earthquakes occur where?", "plate boundaries", "Nearly all earthquakes occur in plate boundaries."),
    (
        "Upon ovulation, the oocyte released by the ovary is swept into where?",
        "uterine tube",
        "Upon ovulation, the oocyte released by the ovary is swept into the uterine tube.",
    ),
    (
        "For each initial glucose molecules, two pyruvate molecules will enter where?",
        "the mitochondria",
        "For each initial glucose molecules, two pyruvate molecules will enter the mitochondria.",
    ),
    (
        "Most of a mushroom's surface area is actually where?",
        "underground",
        "Most of a mushroom's surface area is actually underground.",
    ),
    (
        "Changing electric and mnagnetic fields radiate outward when?",
        "charged particles accelerate",
        "Changing electric and mnagnetic fields radiate outward when charged particles accelerate.",
    ),
    (
        "The name of the cation comes first, followed by the name of the anion, in what kind of compound?",
        "ionic compound",
        "The name of the cation comes first, followed by the name of the anion, in an ionic compound.",
    ),
]

# a singular count noun the tagger reads alone as an adjective ("atom", "ocean") still gets its article; metals and
# verbs after "do" do not
ANSWERS_TAGGED_ALONE = [
    ("What is the basic unit of matter?", "atom", "The basic unit of matter is an atom."),
    ("Most cnidarians live where?", "ocean", "Most cnidarians live in the ocean."),
    (
        "What is the smallest unit of a chemical element called?",
        "atom",
        "The smallest unit of a chemical element is called an atom.",
    ),
    (
        "What is typically used to shield things from gamma rays?",
        "lead",
        "Lead is typically used to shield things from gamma rays.",
    ),
]

# from a triage reading of 150 SciQ conversions (2026-11-27): "else" left behind, an adjective answer's kept noun
# without its article, "a" before a plural answer, two prepositions
TRIAGE_35 = [
    (
        "Amphibians are ectothermic vertebrates that divide their time between freshwater and what else?",
        "terrestrial habitats",
        "Amphibians are ectothermic vertebrates that divide their time between freshwater and terrestrial habitats.",
    ),
    (
        "Oxygenated blood is transported by what system?",
        "circulatory",
        "Oxygenated blood is transported by the circulatory system.",
    ),
    (
        "Alleles that carry deadly diseases are usually which type?",
        "dominant",
        "Alleles that carry deadly diseases are usually the dominant type.",
    ),
    (
        "A cartilaginous joint where the bones are joined by fibrocartilage is called a what?",
        "vesicles",
        "A cartilaginous joint where the bones are joined by fibrocartilage is called vesicles.",
    ),
    ("At what time of life does menopause occur?", "in middle adulthood", "Menopause occurs in middle adulthood."),
]

# SciQ lower-cases its questions: names and acronyms the knowledge base always capitalises are cased in the whole
# claim, not words the question uses as verbs ("acts", "led")
CASED_QUESTION_WORDS = [
    (
        "What structure is made from dna and protein molecules coiled together?",
        "chromosome",
        "The chromosome is made from DNA and protein molecules coiled together.",
    ),
    ("What is the ph level of neutral, pure water?", "seven", "The pH level of neutral, pure water is seven."),
    ("Where does the krebs cycle take place?", "in the matrix", "The Krebs cycle takes place in the matrix."),
    (
        "What is the name for a combination of elements that acts as a different substance?",
        "compound",
        "A combination of elements that acts as a different substance is called a compound.",
    ),
]

# "What does X do (to Y)?" + a verb phrase: the answer's verb in the place of "do", Y as its object
WHAT_DOES_X_DO = [
    (
        "What does increased temperature do to a substance's kinetic energy?",
        "increases",
        "Increased temperature increases a substance's kinetic energy.",
    ),
    (
        "What does antifreeze do to the freezing temperature of the water in car radiators?",
        "lowers it",
        "Antifreeze lowers the freezing temperature of the water in car radiators.",
    ),
    ("What does oil do when mixed with water?", "forms droplets", "Oil forms droplets when mixed with water."),
    ("What does the human heart do?", "pump blood", "The human heart pumps blood."),
]

# an article after "of" unless a classifier or measure comes before it (reading of 2026-11-27: "A tumor of pituitary
# gland", "layer of dermis")
ARTICLE_AFTER_OF = [
    (
        "A tumor of what gland can cause hypersecretion of growth hormone?",
        "pituitary gland",
        "A tumor of the pituitary gland can cause hypersecretion of growth hormone.",
    ),
    (
        "The posterior pituitary is an extension of what?",
        "hypothalamus",
        "The posterior pituitary is an extension of the hypothalamus.",
    ),
    ("Alpha emission is a type of what?", "radioactivity", "Alpha emission is a type of radioactivity."),
]

# cases from the review of rules v6-v12: what the new rules must not do
REVIEW_35 = [
    (
        "What is the material that the cell wall is made of?",
        "cellulose",
        "The material that the cell wall is made of is cellulose.",
    ),
    ("What is the disease known to be spread by?", "mosquitoes", "The disease is known to be spread by mosquitoes."),
    ("Sugars are made in the leaves where?", "chloroplasts", "Sugars are made in the leaves in chloroplasts."),
    ("What does sugar do to water?", "dissolves", None),  # "Sugar dissolves water" would be wrong
    ("At what age do children walk?", "around one year", "Children walk at around one year."),
    ("A tissue is a what?", "group of cells", "A tissue is a group of cells."),
    (
        "What do plants do to prevent water loss at night?",
        "close their leaves",
        "Plants close their leaves to prevent water loss at night.",
    ),
]

# a substance the countability test is unsure of takes no article; one named as a class member keeps it
SUBSTANCES = [
    (
        "What fills the epidermal cells that make up fingernails and toenails?",
        "keratin",
        "Keratin fills the epidermal cells that make up fingernails and toenails.",
    ),
    (
        "What is the gas in smog that can damage plants called?",
        "ozone",
        "The gas in smog that can damage plants is called ozone.",
    ),
    (
        "What do you call the carbohydrate formed when two monosaccharides bond together?",
        "disaccharide",
        "The carbohydrate formed when two monosaccharides bond together is called a disaccharide.",
    ),
]


OPEN_PREDICATES = [
    # a copular question whose predicate ends in a stranded preposition: the "is" goes after the subject
    ("Which planet is the kuiper belt closest to?", "neptune", "The Kuiper belt is closest to Neptune."),
    (
        "What system is the brain the control center of?",
        "nervous",
        "The brain is the control center of the nervous system.",
    ),
    (
        "What are biofilms resistant to many common forms of?",
        "sterilization",
        "Biofilms are resistant to many common forms of sterilization.",
    ),
    ("What class are centipedes and millipedes in?", "myriapoda", "Centipedes and millipedes are in Myriapoda."),
    ("What type of cells are flagella rare in?", "eukaryotic", "Flagella are rare in eukaryotic cells."),
    (
        "Where is the potential energy of a river the highest at?",
        "the source",
        "The potential energy of a river is the highest at the source.",
    ),
    # a relative clause keeps "is" before the answer
    (
        "What is the most electron-pair bonds a nitrogen atom can participate in?",
        "four",
        "The most electron-pair bonds a nitrogen atom can participate in is four.",
    ),
    (
        "What are diodes, transistors, and integrated circuits examples of?",
        "electronic components",
        "Diodes, transistors, and integrated circuits are examples of electronic components.",
    ),
]

DO_AS_THE_ASKED_VERB = [
    # "do" stands for the answer's verb phrase
    ("What must two nuclei do for fusion to occur?", "collide", "Two nuclei must collide for fusion to occur."),
    ("What do skeletal muscles enable the body to do?", "move", "Skeletal muscles enable the body to move."),
    (
        "What should you let liquid waste do before placing the container in the trash?",
        "evaporate",
        "You should let liquid waste evaporate before placing the container in the trash.",
    ),
    ("What do you need to do to water to make it steam?", "heat it", "You need to heat water to make it steam."),
    (
        "What does the cell cycle do?",
        "divide and reproduce cells",
        "The cell cycle divides and reproduces cells.",
    ),
    (
        "Metallic bonds allow metals to do what, in the manner of a willow tree?",
        "bend without breaking",
        "Metallic bonds allow metals to bend without breaking, in the manner of a willow tree.",
    ),
    # an adjective that is also a verb is no verb phrase; a pro-verb in a clause of its own is no gap
    (
        "What will the contraction of smooth muscles help organs do?",
        "fine motor movements",
        "The contraction of smooth muscles will help organs do fine motor movements.",
    ),
    (
        "What do most species of monkeys have that no apes or humans do?",
        "tail",
        "Most species of monkeys have a tail that no apes or humans do.",
    ),
]

OPENER_WITHOUT_COMMA = [
    (
        "When traveling through space what do mechanical waves lose?",
        "energy",
        "When traveling through space, mechanical waves lose energy.",
    ),
    (
        "In addition to a nucleus what do eukaryotic cells have?",
        "organelles",
        "In addition to a nucleus, eukaryotic cells have organelles.",
    ),
]

KEPT_NOUN_NUMBER = [
    # the asked noun kept in the claim decides the verb's number, not the answer
    (
        "What term is used to describe the cellular structures responsible for protein synthesis?",
        "ribosomes",
        "The term ribosomes is used to describe the cellular structures responsible for protein synthesis.",
    ),
    (
        "What kind of fuels include coal, oil, and natural gas?",
        "fossil",
        "Fossil fuels include coal, oil, and natural gas.",
    ),
    (
        "Whose laws of motion are the foundation of dynamics?",
        "newton",
        "Newton's laws of motion are the foundation of dynamics.",
    ),
]

WHERE_IN_AND_HAS = [
    # "Where in X": the narrowing phrase opens the claim
    (
        "Where in the cell does photosynthesis occur?",
        "chloroplast",
        "In the cell, photosynthesis occurs in the chloroplast.",
    ),
    ("Where in the atom is a neutron found?", "the nucleus", "In the atom, a neutron is found in the nucleus."),
    # "has" before a relative clause's passive is the main verb, not a perfect
    (
        "What type of organism has spores that are spread by water and wind?",
        "fungi",
        "Fungi have spores that are spread by water and wind.",
    ),
    # the verb inflected twice in the source ("does ... takes place")
    (
        "Where in the lungs does gas exchange between the air and blood takes place?",
        "alveoli",
        "In the lungs, gas exchange between the air and blood takes place in alveoli.",
    ),
]

REMOVED_NOT_AND_PARTICIPLES = [
    # a "do" left by the removed "not" of a negative stem goes (the claim is the positive one, polarity inverted)
    ("What type of respiration does not use oxygen?", "fermentation", "Fermentation uses oxygen."),
    (
        "What kind of plants do not need adaptations for absorbing, transporting, and conserving water?",
        "aquatic plants",
        "Aquatic plants need adaptations for absorbing, transporting, and conserving water.",
    ),
    # a participle inside the asked noun is part of it; a do-form ends it
    (
        "What light-producing process occurs when a substance absorbs shorter-wavelength ultraviolet light?",
        "fluorescence",
        "Fluorescence occurs when a substance absorbs shorter-wavelength ultraviolet light.",
    ),
    ("What type of young do scorpions produce?", "live", "Scorpions produce live young."),
    (
        "Inside a cylinder, thermal energy is converted to what type of energy of the moving piston?",
        "kinetic energy",
        "Inside a cylinder, thermal energy is converted to kinetic energy of the moving piston.",
    ),
]

THE_FOLLOWING = [
    # MedMCQA: "(all of) the following (N)" is the blank, in place, with or without "except"
    (
        "Hydrolysis of IgG with papain will lead to formation of following fragments:",
        "1 Fc and 2 Fab fragments",
        "Hydrolysis of IgG with papain will lead to formation of 1 Fc and 2 Fab fragments.",
    ),
    # a bare "following" inside the stem may be the preposition: left alone (no claim); after a verb that takes it as
    # its object it is "the following" since rules-v46 (MEDMCQA_STEMS_46)
    (
        "Most common complication following tonsillectomy:",
        "Secondary hemorrhage",
        "The most common complication following tonsillectomy is a secondary hemorrhage.",
    ),
    (
        "Autoinfection can be caused by all the following helminths except:",
        "Ascaris lumbricoides",
        "Autoinfection can be caused by Ascaris lumbricoides.",
    ),
    # an adjective answer has no noun phrase's place; since rules-v44 it is what the subject is (MEDMCQA_STEMS_44)
    ("Sclerotic dentin has following features:", "Resistant to caries", "Sclerotic dentin is resistant to caries."),
    # a list answer is plural
    (
        "What three forces are involved in erosion?",
        "water, wind, gravity",
        "Water, wind, gravity are involved in erosion.",
    ),
]

TRIAGE_36 = [
    # from a triage reading of 150 claims (session 36): the answer before a relative clause on it
    (
        "What do some plants produce that protects dormant seeds and aids in their dispersal?",
        "fruit",
        "Some plants produce fruit that protects dormant seeds and aids in their dispersal.",
    ),
    (
        "What do corals secrete that builds up to become a coral reef?",
        "exoskeletons",
        "Corals secrete exoskeletons that build up to become a coral reef.",
    ),
    # a verb before its particle is no noun; a participle opening a parenthesis is no main verb
    (
        "At the bottom of lakes and ponds, bacteria in what zone break down dead organisms that sink there?",
        "aphotic zone",
        "At the bottom of lakes and ponds, bacteria in the aphotic zone break down dead organisms that sink there.",
    ),
    (
        "Where are bile acids, needed to emulsify lipids, stored in the body?",
        "gallbladder",
        "Bile acids, needed to emulsify lipids, are stored in the body in the gallbladder.",
    ),
    # an adverb after a participle in the subject stays with it
    (
        "What is the distance between the nuclei of two identical atoms bonded together called?",
        "atomic radius",
        "The distance between the nuclei of two identical atoms bonded together is called the atomic radius.",
    ),
    # from the session-36 whole-build reading: an approximator before "how many"; a participle before a
    # preposition is the verb of a wh-subject
    (
        "Approximately how many weeks does the fetal period last?",
        "30 weeks",
        "The fetal period lasts approximately 30 weeks.",
    ),
    (
        "What is measured using units pascal, bar, atmosphere or mmhg?",
        "pressure",
        "Pressure is measured using units pascal, bar, atmosphere or mmhg.",
    ),
    # Medbullets: an instruction as the subject becomes a gerund, also when the tagger reads its verb as a noun
    (
        "Which of the following is the most appropriate next step in management?",
        "Administer intravenous hydration",
        "Administering intravenous hydration is the most appropriate next step in management.",
    ),
    (
        "Which of the following is the most appropriate method for preventing future similar occurrences?",
        "Add an alert in the electronic medical system",
        "Adding an alert in the electronic medical system is the most appropriate method for preventing future "
        "similar occurrences.",
    ),
    (
        "Which of the following is the most appropriate next step in management?",
        "Biopsy of the lesion",
        "The biopsy of the lesion is the most appropriate next step in management.",
    ),
    # the options after a colon are not part of the claim; "a"/"an" by sound
    ("Which is larger: the human sperm or the human egg?", "human egg", "A human egg is larger."),
    (
        "Any place at which two bones are joined is called a what?",
        "articulation",
        "Any place at which two bones are joined is called an articulation.",
    ),
]

REVIEW_36 = [
    # from the review of session 36's rules: what they must leave alone
    # "following" as a preposition is no blank; a stem that ends in its blank appends the answer
    (
        "Hypocalcemia following thyroidectomy is due to",
        "parathyroid injury",
        "Hypocalcemia following thyroidectomy is due to parathyroid injury.",
    ),
    (
        "Following thyroidectomy, hoarseness is due to injury of",
        "recurrent laryngeal nerve",
        "Following thyroidectomy, hoarseness is due to injury of the recurrent laryngeal nerve.",
    ),
    # a removed "did not" keeps the past tense
    ("Which scientist did not study pea plants?", "Darwin", "Darwin studied pea plants."),
    # a purpose infinitive after "do" is not what the answer acts on
    ("What must the body do to maintain homeostasis?", "sweat", "The body must sweat to maintain homeostasis."),
    # a single capital letter keeps its case after an opening phrase
    ("Where in the body do T cells mature?", "thymus", "In the body, T cells mature in the thymus."),
    # an approximator before a subject's "how many" stays in place
    ("Approximately how many people have diabetes?", "400 million", "Approximately 400 million people have diabetes."),
    # "an" before letters read one by one
    ("What is an mRNA codon made of?", "nucleotides", "An mRNA codon is made of nucleotides."),
    # an adjective answer has no noun phrase's place; since rules-v44 it is what the subject is (MEDMCQA_STEMS_44)
    ("X has which of the following features?", "Malignant", "X is malignant."),
    ("X causes which of the following features?", "Malignant", None),
    # an object relative clause on the answer; a "that" clause of a verb like "show" ends with the answer
    (
        "What does every star emit that humans cannot see?",
        "radiation",
        "Every star emits radiation that humans cannot see.",
    ),
    ("What does the evidence show that cells need?", "oxygen", "The evidence shows that cells need oxygen."),
]

NEGATIONS_AND_APOSTROPHES = [
    # "not" after the subject goes after the auxiliary
    (
        "What can sodium ions not pass through?",
        "nonpolar lipid bilayer",
        "Sodium ions can not pass through a nonpolar lipid bilayer.",
    ),
    (
        "Why do viruses not belong to any domain of life?",
        "they are nonliving",
        "Viruses do not belong to any domain of life because they are nonliving.",
    ),
    # two negations: no exception question, nothing is turned positive
    (
        "Antibiotics only target prokaryotic cells - they do not affect fungi, which are not prokaryotic, but instead "
        "what?",
        "eukaryotic",
        "Antibiotics only target prokaryotic cells - they do not affect fungi, which are not prokaryotic, but instead "
        "eukaryotic.",
    ),
    (
        "What celestial body is the earth\u2019s main source of energy?",
        "sun",
        "The sun is the earth's main source of energy.",
    ),
    # a fill-in stem's second sentence starts with a capital before its comma
    (
        "Innate behaviors occur in all animals. however, they are less common in species with higher levels of what?",
        "intelligence",
        "Innate behaviors occur in all animals. However, they are less common in species with higher levels of "
        "intelligence.",
    ),
]


HOW_MANY = [
    # session 37: a quantity answer keeps the asked noun ("of" after tens/thousands); "one" makes it singular and
    # the verb agrees
    (
        "How many possible alleles do the majority of human genes have?",
        "two or more",
        "The majority of human genes have two or more possible alleles.",
    ),
    ("How many pathogens can each droplet contain?", "thousands", "Each droplet can contain thousands of pathogens."),
    (
        "How many types of surface waves are there?",
        "over a hundred",
        "There are over a hundred types of surface waves.",
    ),
    (
        "How many weeks are in the life cycle of ladybugs",
        "four to six",
        "Four to six weeks are in the life cycle of ladybugs.",
    ),
    ("How many types of galaxies are there?", "one", "There is one type of galaxies."),
    ("How many types of galaxies are there?", "three", "There are three types of galaxies."),
    ("How many stars are in our solar system?", "one", "One star is in our solar system."),
    ("How many chambers does a mammalian heart have?", "one", "A mammalian heart has one chamber."),
    (
        "Simple eyes, like the human eye, have how many lenses?",
        "one",
        "Simple eyes, like the human eye, have one lens.",
    ),
    ("How many sets of chromosomes do gametes contain?", "single", "Gametes contain a single set of chromosomes."),
    (
        "Approximately how many weeks does the fetal period last?",
        "30 weeks",
        "The fetal period lasts approximately 30 weeks.",
    ),
]

EXISTENTIAL_THERE = [
    # session 37: "there" + be opens the claim, the rest of the question follows the answer
    (
        "What kind of bonds are there between carbon atoms in saturated fatty acids?",
        "single",
        "There are single bonds between carbon atoms in saturated fatty acids.",
    ),
    (
        "About how many thunderstorms are there each year worldwide?",
        "14 million",
        "There are about 14 million thunderstorms each year worldwide.",
    ),
    (
        "Why is there very little evaporation in the boreal forests?",
        "temperature is too cold",
        "There is very little evaporation in the boreal forests because temperature is too cold.",
    ),
    ("How many pairs of chromosomes are there?", "23", "There are 23 pairs of chromosomes."),
]

WHAT_HAPPENS_TO = [
    # session 37 (a whole-build reading): the asked noun phrase is the subject of a verb answer or of a clause on
    # "it"/"they", the verb agreeing with its head; a participle or an adjective is a state after "is"
    ("What happens to an animal's telomeres as it ages?", "shorten", "An animal's telomeres shorten as it ages."),
    (
        "What happens to the density of air as the altitude decreases?",
        "decreases",
        "The density of air decreases as the altitude decreases.",
    ),
    (
        "What happens to the rate of chemical reactions in higher temperatures?",
        "they increase",
        "The rate of chemical reactions increases in higher temperatures.",
    ),
    (
        "What happens to the energy levels of electrons as they are closer to the nucleus?",
        "they are lower",
        "The energy levels of electrons are lower as they are closer to the nucleus.",
    ),
    (
        "What happens to energy when an atom gains an electron?",
        "it is released",
        "Energy is released when an atom gains an electron.",
    ),
    (
        "What happens to meteors as they fall through the mesosphere?",
        "they burn",
        "Meteors burn as they fall through the mesosphere.",
    ),
    (
        "What happens to old oceanic crust at convergent boundaries?",
        "destroyed",
        "Old oceanic crust is destroyed at convergent boundaries.",
    ),
    (
        "What happens to the level of relative humidity in the evening as air temperature declines?",
        "it goes up and down",
        "The level of relative humidity goes up and down in the evening as air temperature declines.",
    ),
    (
        "If the temperature of a gas sample is decreased, what happens to the volume?",
        "decreases",
        "If the temperature of a gas sample is decreased, the volume decreases.",
    ),
    (
        "What happened to chemical reactions when temperature increases?",
        "it became faster",
        "Chemical reactions became faster when temperature increases.",
    ),
    # a noun answer keeps "happens to"; a noun phrase cut inside a hyphenated word is no subject
    (
        "What happens to a species when all of the individuals die out or evolve into a different species?",
        "extinction",
        "Extinction happens to a species when all of the individuals die out or evolve into a different species.",
    ),
    ("As the prokaryotic cell size increases, what happens to its surface area-to-volume ratio?", "decreases", None),
    # "How does X change ...?" likewise, with the phrase's head deciding the number; not when "change" has an object
    (
        "How does the distance between galaxies change as the universe expands?",
        "it increases",
        "The distance between galaxies increases as the universe expands.",
    ),
    (
        "How does air pressure change as altitude increases?",
        "goes up and down",
        "Air pressure goes up and down as altitude increases.",
    ),
    (
        "How do some animals change their depth?",
        "by changing their density",
        "Some animals change their depth by changing their density.",
    ),
    # "called" before a clause of time: the answer follows "called"
    (
        "What is the fracture called when rocks on both sides move?",
        "a fault",
        "The fracture is called a fault when rocks on both sides move.",
    ),
    (
        "What is lava called before it reaches the surface of the earth?",
        "magma",
        "Lava is called magma before it reaches the surface of the earth.",
    ),
    # an infinitive answers "for what purpose" without the "for"
    (
        "For what purpose does liver use the excess carbohydrate?",
        "to synthesize glycogen",
        "Liver uses the excess carbohydrate to synthesize glycogen.",
    ),
]

REVIEW_37 = [
    # from the review of session 37's rules (questions in SciQ's style): the answer's own punctuation and negation,
    # quantifiers and coordinated subjects, "change into", nouns that are also verbs, "what happens when"
    (
        "What happens to the pressure when the gas is heated?",
        "it increases, then decreases",
        "The pressure increases, then decreases when the gas is heated.",
    ),
    ("What happens to the cells in salt water?", "it doesn't change", "The cells don't change in salt water."),
    (
        "What happens to the cells in salt water?",
        "move faster and spread apart",
        "The cells move faster and spread apart in salt water.",
    ),
    ("What happens to most of the cells in the heat?", "they die", "Most of the cells die in the heat."),
    (
        "How do temperature and pressure change with depth?",
        "they increase",
        "Temperature and pressure increase with depth.",
    ),
    ("What happens to the cells in salt water?", "damage", "Damage happens to the cells in salt water."),
    (
        "What happens to old oceanic crust at convergent boundaries?",
        "created",
        "Old oceanic crust is created at convergent boundaries.",
    ),
    (
        "When additional water is added to an aqueous solution, what happens to the concentration of that solution?",
        "doubles",
        "When additional water is added to an aqueous solution, the concentration of that solution doubles.",
    ),
    ("What happens when chemical bonds in a burning log break?", "release heat", None),
]

# every family above: the claim each real question and answer must give


MEDMCQA_STEMS_38 = [
    # MedMCQA validation stems (session 38, rules-v33): exam tags and dates after the stem, "All the following N"
    # and "in all cases except", "Which one of the following", a verb read as a noun after "the following",
    # telegraphic participles, answers that are the predicate, noun-phrase stems, an answer's number by its noun
    (
        "In plasmodium vivax malaria, relapse is caused by:September 2012",
        "Hypnozoite",
        "In plasmodium vivax malaria, relapse is caused by Hypnozoite.",
    ),
    (
        "Which of the following finger has two dorsal interossei (AIIMS May 2019)",
        "Middle",
        "Middle has two dorsal interossei.",
    ),
    (
        "All of the following are induction agents except:September 2007",
        "Nitrous oxide",
        "Nitrous oxide is an induction agent.",
    ),
    (
        "All the following muscles of larynx are supplied by the recurrent laryngeal nerve except:",
        "Cricothyroid",
        "Cricothyroid is supplied by the recurrent laryngeal nerve.",
    ),
    (
        "Anti D is required in all cases except",
        "Intrauterine transfusion at 28 weeks",
        "Anti D is required in intrauterine transfusion at 28 weeks.",
    ),
    (
        "Palatal secretions affect the setting of all the impression materials except:",
        "Silicone",
        "Palatal secretions affect the setting of silicone.",
    ),
    (
        "Which one of the following antibiotics chelates with calcium ?",
        "Tetracycline",
        "Tetracycline chelates with calcium.",
    ),
    ("Which of the following causes vasodilation?", "Histamine", "Histamine causes vasodilation."),
    (
        "All of the following increases calcium absorption from the gut except",
        "Phytates",
        "Phytates increase calcium absorption from the gut.",
    ),
    (
        "Which of the following best describes paradoxical suicide?",
        "Suicide after taking low dose of drug",
        "Suicide after taking low dose of drug best describes paradoxical suicide.",
    ),
    ("Which of the following causes is most common?", "Trauma", "Trauma is most common."),
    ("Wilson curve seen in:", "Molars", "Wilson curve is seen in molars."),
    (
        "Maximum masticatory forces taken up by which fibers:",
        "Oblique",
        "Maximum masticatory forces are taken up by the oblique fibers.",
    ),
    ("Junctional epithelium", "Is permeable", "Junctional epithelium is permeable."),
    (
        "Persons with the greatest risk of oral cancer",
        "Are old, Chronic alcoholics and regularly use tobacco",
        "Persons with the greatest risk of oral cancer are old, Chronic alcoholics and regularly use tobacco.",
    ),
    (
        "The typical cervical differs from thoracic vertebra in that it",
        "Has a foramen transversarium",
        "The typical cervical differs from thoracic vertebra in that it has a foramen transversarium.",
    ),
    ("Pulp proper resembles", "Loose connective tissue", "Pulp proper resembles loose connective tissue."),
    (
        "Stimulated saliva as compared to unstimulated saliva has more",
        "Bicarbonate",
        "Stimulated saliva as compared to unstimulated saliva has more Bicarbonate.",
    ),
    (
        "Teeth that erupt in 30 days of birth",
        "Neonatal teeth",
        "The teeth that erupt in 30 days of birth are neonatal teeth.",
    ),
    ("Etching time in teeth with fluorosis", "60-90 sec", "The etching time in teeth with fluorosis is 60-90 sec."),
    (
        "In myocardial infarction the first enzyme to rise:",
        "CPK",
        "In myocardial infarction, the first enzyme to rise is CPK.",
    ),
    (
        "Mandibular process of each side fuse to form:",
        "Lower lip.",
        "Mandibular process of each side fuse to form lower lip.",
    ),
    (
        "All of the following indicate Fetal lung maturity except?",
        "Blue cells in Nile Blue Test",
        "Blue cells in Nile Blue Test indicate Fetal lung maturity.",
    ),
    (
        "In alpha-thalassemia trait,electrophoresis shows:March 2005",
        "Normal HbF and normal HbA2",
        "In alpha-thalassemia trait, electrophoresis shows normal HbF and normal HbA2.",
    ),
    (
        "Mother to children's transmission is a key feature of which pattern of inheritance?",
        "Mitochondrial inheritance",
        "Mother to children's transmission is a key feature of mitochondrial inheritance.",
    ),
    (
        "In CRISPR-Cas 9 system, which repair mechanism is used for genome editing?",
        "Non homologous end repair",
        "In CRISPR-Cas 9 system, non homologous end repair is used for genome editing.",
    ),
    (
        "Among the following propeies of dopamine, which of them is not helpful in acute shock?",
        "Alpha-1 agonist action",
        None,
    ),
]

OPENERS_38 = [
    # a question word after an opening phrase and its comma is a question, not a relative pronoun (SciQ, session 38);
    # not where the question has no place for the answer, a later comma, or a partitive "which of them"
    (
        "In alcoholic fermentation , which acid changes to alcohol and carbon dioxide?",
        "pyruvic",
        "In alcoholic fermentation, pyruvic changes to alcohol and carbon dioxide.",
    ),
    (
        "Of all the electromagnetic waves, which have the lowest frequencies?",
        "radio waves",
        "Of all the electromagnetic waves, radio waves have the lowest frequencies.",
    ),
    (
        "Besides greenland, where are the earth's largest ice sheets found?",
        "antarctica",
        "Besides Greenland, the earth's largest ice sheets are found in Antarctica.",
    ),
    ("In eukaryotic cells, where is the dna kept?", "nucleus", "In eukaryotic cells, the DNA is kept in the nucleus."),
    ("In a tropical rainforest, where are ferns common?", "understory", None),
    (
        "In response to high blood osmolarity, which can occur during dehydration or following a very salty meal, "
        "the osmoreceptors signal the posterior pituitary to release this?",
        "antidiuretic hormone (ADH)",
        "In response to high blood osmolarity, which can occur during dehydration or following a very salty meal, "
        "the osmoreceptors signal the posterior pituitary to release antidiuretic hormone (ADH).",
    ),
    (
        "The electroplating process transfers metal from the anode to which part of the cell?",
        "cathode",
        "The electroplating process transfers metal from the anode to the cathode.",
    ),
    (
        "Salt hydrolysis is a reaction in which one of the ions from a salt reacts with what?",
        "water",
        "Salt hydrolysis is a reaction in which one of the ions from a salt reacts with water.",
    ),
    ("Birds evolved from what type of ancestor?", "reptile", "Birds evolved from a reptile."),
    (
        "Metal detectors used for airport security work on which principle?",
        "inductance",
        "Metal detectors used for airport security work on inductance.",
    ),
    (
        "What causes a voltage to exist across the membrane in cells?",
        "difference in charges",
        "Difference in charges causes a voltage to exist across the membrane in cells.",
    ),
    (
        "Populations of viruses do not grow through cell division because they?",
        "are not cells",
        "Populations of viruses do not grow through cell division because they are not cells.",
    ),
]


READING_38 = [
    # from the blind reading of a MedMCQA build (session 38, rules-v34): "WHO" is no question word, "any" goes
    # with a removed "not", "used for" + an infinitive answer drops "for"
    (
        "Which of the following doesn't have any effect on pancreatic secretion?",
        "Gastrin",
        "Gastrin has an effect on pancreatic secretion.",
    ),
    (
        "Which type of joints do not allow any movement of the bones?",
        "fixed",
        "Fixed joints allow a movement of the bones.",
    ),
    (
        "According to the WHO definition of hearing loss, what is the value to classify as profound hearing loss?",
        ">91 dB",
        "According to the WHO definition of hearing loss, the value to classify as profound hearing loss is >91 dB.",
    ),
    (
        "According to WHO guidelines, latent TB should be ruled out in all the following situations except:",
        "Chronic alcoholics",
        "According to WHO guidelines, latent TB should be ruled out in chronic alcoholics.",
    ),
    (
        "Statistical `Q' test is used for:",
        "To determine outliars",
        "Statistical `Q' test is used to determine outliars.",
    ),
]


ARTICLES_39 = [
    # from the session 34-38 SciQ readings: a bare singular count noun opening the claim or after "is", for words
    # too rare for the plural test ("sphygmomanometer", "thermosphere"), mass-like endings with common plurals ("a
    # combustion reaction") and a subject with "a" ("a groin"); no article before a field, a gerund or an
    # adjective answer's noun the question asked for
    # a process noun opens the claim bare (the session-39 paired reading preferred "Delayed reaction is a feature
    # of anaphylaxis" to "The delayed reaction ...")
    (
        "What occurs when a substance reacts quickly with oxygen?",
        "combustion reaction",
        "Combustion reaction occurs when a substance reacts quickly with oxygen.",
    ),
    (
        "Which of the following is not a feature of anaphylaxis?",
        "Delayed reaction",
        "Delayed reaction is a feature of anaphylaxis.",
    ),
    (
        "What type of organism has many different specialized cells that work together to carry out life processes?",
        "multicellular organism",
        "A multicellular organism has many different specialized cells that work together to carry out life processes.",
    ),
    ("What layer is above the mesosphere?", "thermosphere", "The thermosphere is above the mesosphere."),
    (
        "What is the lowest layer of the atmosphere?",
        "troposphere",
        "The lowest layer of the atmosphere is the troposphere.",
    ),
    ("What is a wall of rocks or concrete called?", "groin", "A wall of rocks or concrete is called a groin."),
    (
        "What is used to measure blood pressure?",
        "sphygmomanometer",
        "A sphygmomanometer is used to measure blood pressure.",
    ),
    (
        "What is the science that describes the ancestral and descendant connections between organisms?",
        "phylogeny",
        "The science that describes the ancestral and descendant connections between organisms is phylogeny.",
    ),
    (
        "Most protists are aquatic organisms and need what kind of environment to survive?",
        "moist",
        "Most protists are aquatic organisms and need a moist environment to survive.",
    ),
    ("How do dogs lose body heat?", "barking", "Dogs lose body heat by barking."),
    (
        "What is the process for developing knowledge called?",
        "science",
        "The process for developing knowledge is called science.",
    ),
    (
        "What science includes many fields of science related to our home planet?",
        "earth science",
        "Earth science includes many fields of science related to our home planet.",
    ),
    (
        "How do organophostbate pesticides work?",
        "inhibiting acetylcholinesterase",
        "Organophostbate pesticides work by inhibiting acetylcholinesterase.",
    ),
    ("Sickle cell mutation is", "Point mutation", "Sickle cell mutation is a point mutation."),
]


ALTERNATIVES_39 = [
    # yes/no questions with "or" (SciQ): the parse's coordination, a shared noun or comparison kept, the verb
    # inflected when it is the alternative, an adjective alternative as the predicate with the whole subject before
    # it; "X, Y, or both" without a parse of X and Y is rejected, not garbled
    (
        "Does climate change have a positive or negative effect on reproductive success?",
        "negative",
        "Climate change has a negative effect on reproductive success.",
    ),
    ("Are coral reefs found in warm or cold water?", "warm", "Coral reefs are found in warm water."),
    (
        "Are valence electrons attracted more or less strongly when they are farther from the nucleus?",
        "less strongly",
        "Valence electrons are attracted less strongly when they are farther from the nucleus.",
    ),
    (
        "Are birds and mammals mainly exothermic or endothermic?",
        "endothermic",
        "Birds and mammals are mainly endothermic.",
    ),
    (
        "Is the digestive tract of many sharks longer or shorter than many other vertebrates?",
        "shorter",
        "The digestive tract of many sharks is shorter than many other vertebrates.",
    ),
    ("Did darwin believe in punctuated equilibrium or gradualism?", "gradualism", "Darwin believed in gradualism."),
    ("Are vesicles larger or smaller than vacuoles?", "larger", "Vesicles are larger than vacuoles."),
    (
        "Does air temperature increase or decrease as it rises higher in the atmosphere?",
        "decrease",
        "Air temperature decreases as it rises higher in the atmosphere.",
    ),
    (
        "Do metals tend to gain electrons or lose electrons in chemical reactions?",
        "lose electrons",
        "Metals tend to lose electrons in chemical reactions.",
    ),
    # review cases: a compound alternative is not a shared word, an exact alternative before a longer one
    ("Is the pot made of iron or stainless steel?", "iron", "The pot is made of iron."),
    ("Does the reaction produce carbon dioxide or carbon?", "carbon", "The reaction produces carbon."),
    ("Are giraffes herbivores or are they omnivores?", "herbivores", "Giraffes are herbivores."),
    ("Are the lungs organs of the excretory system, the respiratory system, or both?", "both", None),
    # a field in "-ics" is singular
    (
        "What field of study is called the language of science?",
        "mathematics",
        "Mathematics is called the language of science.",
    ),
    ("Which diseases are infectious but not communicable?", "Measles", "Measles is infectious but not communicable."),
]


AGREEMENT_39 = [
    # verbs coordinated with the one the answer agrees with; a numbered kind is singular; "why" + a contracted
    # negation; a plural noun the tagger read as a verb, a verb read as a noun before "because"
    (
        "What makes and stores pigments that give petals and fruit their orange and yellow colors?",
        "chromoplasts",
        "Chromoplasts make and store pigments that give petals and fruit their orange and yellow colors.",
    ),
    (
        "What hits the eardrum and causes it to vibrate?",
        "sound waves",
        "Sound waves hit the eardrum and cause it to vibrate.",
    ),
    (
        "In a food chain, what group of organisms breaks down animal remains and wastes to get energy?",
        "decomposers",
        "In a food chain, decomposers break down animal remains and wastes to get energy.",
    ),
    (
        "Which type of diabetes involves the pancreas not secreting enough insulin?",
        "type 3",
        "Type 3 involves the pancreas not secreting enough insulin.",
    ),
    (
        "Why wouldn't a teakettle have an aluminum handle?",
        "it conducts heat",
        "A teakettle would not have an aluminum handle because it conducts heat.",
    ),
    (
        "Why doesn't the moon have an atmosphere?",
        "its gravity is too weak",
        "The moon does not have an atmosphere because its gravity is too weak.",
    ),
    ("Why won't the car start?", "the battery is dead", "The car will not start because the battery is dead."),
    ("Why hasn't the volcano erupted?", "pressure is low", None),  # no verb found to put the negation before
    ("Which organism grows and reproduces?", "bacteria", "Bacteria grow and reproduce."),
    (
        "What objects are made from highly reflective metal?",
        "mirrors",
        "Mirrors are made from highly reflective metal.",
    ),
    (
        "What form because water erodes the outside of curves?",
        "meanders",
        "Meanders form because water erodes the outside of curves.",
    ),
    (
        "Red litmus paper turns what color when placed in a basic solution?",
        "blue",
        "Red litmus paper turns blue when placed in a basic solution.",
    ),
    # "help" read as the subject's noun takes the tense (the session-38 reading: "Fiber help keeps ...")
    (
        "What does fiber help keep at normal levels in the body?",
        "sugar and lipids",
        "Fiber helps keep sugar and lipids at normal levels in the body.",
    ),
    (
        "In what organ does pepsin help break down proteins?",
        "stomach",
        "Pepsin helps break down proteins in the stomach.",
    ),
    # a name the tagger read as the verb after "did" (the session-39 reading: "Sir isaaced newton's famous law")
    (
        "What did sir isaac newton's famous law help people understand?",
        "gravity",
        "Sir Isaac newton's famous law helped people understand gravity.",
    ),
]


WHAT_HAPPENS_IF_39 = [
    # "What happens when/if CLAUSE?": a clause answer after the condition, a verb phrase on the condition's subject,
    # a noun phrase as what happens (SciQ; all rejected or broken before rules-v39)
    (
        "What will happen if the gas particles inside an inflated balloon suddenly stop moving?",
        "balloon deflates",
        "If the gas particles inside an inflated balloon suddenly stop moving, the balloon deflates.",
    ),
    ("What happens if a catalyst runs out?", "reaction slows", "If a catalyst runs out, the reaction slows."),
    (
        "What happens when a sodium atom loses an electron?",
        "becomes sodium ion",
        "When a sodium atom loses an electron, it becomes sodium ion.",
    ),
    (
        "What happens when more glucose is present than the proteins can handle, in the body?",
        "excreted as urine",
        "When more glucose is present than the proteins can handle, in the body, it is excreted as urine.",
    ),
    ("What happens when they are heated?", "expand", "When they are heated, they expand."),
    ("What happens when you touch a hot stove?", "get burned", "When you touch a hot stove, you get burned."),
    (
        "What happens when heated water is released into a body of water?",
        "thermal pollution",
        "Thermal pollution happens when heated water is released into a body of water.",
    ),
    (
        "What happens when development of nervous system is disturbed?",
        "neurodevelopmental disorders",
        "Neurodevelopmental disorders happen when development of nervous system is disturbed.",
    ),
    (
        "What happens when antibodies are transferred to a person who has never been exposed to the pathogen?",
        "acquired immunity",
        "Acquired immunity happens when antibodies are transferred to a person who has never been exposed to the "
        "pathogen.",
    ),
]


def test_article_affinity_of_rare_nouns(conv) -> None:  # type: ignore[no-untyped-def]
    kinds = {w: conv._countability(w) for w in ("sphygmomanometer", "solenoid", "thermosphere", "atmosphere", "moist")}
    assert kinds == {
        "sphygmomanometer": "count",  # rare: follows "a" in the LM's text
        "solenoid": "count",
        "thermosphere": "unique",  # one of Earth's layers
        "atmosphere": None,  # "an atmosphere to protect it": not one of a kind
        "moist": None,  # an adjective
    }
    assert conv._countability("influenza") is None  # a condition: "an influenza virus" is no article of its own


MEDMCQA_STEMS_42 = [
    # real MedMCQA validation stems (rules-v42): a run of dashes is a blank; a filled blank keeps its spaces
    (
        "A-alpha \ufb01bers have a speed of conduction of ------ m/s.",
        "70-120",
        "A-alpha \ufb01bers have a speed of conduction of 70-120 m/s.",
    ),
    (
        "________occurs whenever there is an imbalance between myocardial oxygen supply and demand.",
        "Stable angina",
        "Stable angina occurs whenever there is an imbalance between myocardial oxygen supply and demand.",
    ),
    # a list of exams after a colon
    (
        "Opium poisoning is treated with:MAHE 06; Bihar 12; UPSC 13",
        "Atropine",
        "Opium poisoning is treated with Atropine.",
    ),
    # "likely" at the end, an adjective waiting for its noun (not "into enamel", a noun)
    (
        "White rough pedunculated lesion on palate is most likely:",
        "Papilloma",
        "White rough pedunculated lesion on palate is most likely Papilloma.",
    ),
    (
        "Greater crown bulk distal to the faciolingual dissecting plane of the tooth is most typical of mandibular",
        "Canine",
        "Greater crown bulk distal to the faciolingual dissecting plane of the tooth is most typical of mandibular"
        " canine.",
    ),
    (
        "Extension of odontoblast processes into enamel",
        "Enamel spindle",
        "The extension of odontoblast processes into enamel is the enamel spindle.",
    ),
    # "This is because" + a clause; an infinitive answer after the stem's object
    (
        "In a patient with acute pulpitis, it is difficult for the patient to locate the pain. This is because?",
        "Less proprioceptors are present in the pulp",
        "In a patient with acute pulpitis, it is difficult for the patient to locate the pain. This is because less"
        " proprioceptors are present in the pulp.",
    ),
    (
        "HIV sentinel surveillance provides data:",
        "To monitor disease trends",
        "HIV sentinel surveillance provides data to monitor disease trends.",
    ),
    # a telegraphic last sentence after context sentences; not a list of values, an imperative or a verb answer
    (
        "An affected male does not have affected children but an affected female always has affected children. Type of"
        " inheritance?",
        "X linked recessive",
        "An affected male does not have affected children but an affected female always has affected children. The"
        " type of inheritance is X linked recessive.",
    ),
    (
        "A patient who is a known case of CKD has complaints of vomiting. His ABG repos are as follows: pH - 7.40, pCO2"
        " - 40, HCO3 - 25. Na -145, chloride-100.",
        "Normal anion gap met acidosis",
        None,
    ),
    (
        "A 3 days old baby is admitted with intraventricular hemorrhage. Baby develops abdominal distention. The X-ray"
        " abdomen showed pneumatosis poalis. Stage the necrotizing enterocolitis:",
        "2b",
        None,
    ),
    (
        "A 60 years old male presented with fever, chills and dysuria. Patient was hospitalized in emergency for 5"
        " days."
        " PSA level was 7.4. Next best step in this patient:",
        "Antibiotics and admit",
        None,
    ),
    # truth stems: "Not true/False about X" inverted like "Which is not true about X"; a statement without its
    # subject takes the topic X; a subject the tagger reads as a verb does not ("Signs and symptoms ... subsides")
    ("Not true about piperacilline is:", "Inhibits Beta-lactamase", "Piperacilline inhibits Beta-lactamase."),
    (
        "False about enamel rods is",
        "They are perpendicular to tooth surface",
        "Enamel rods are perpendicular to tooth surface.",
    ),
    (
        "All of the following are true regarding oxygenases except :",
        "Required for carboxylation of drugs",
        "Oxygenases are required for carboxylation of drugs.",
    ),
    (  # "It" is articaine, not its use
        "All are true about use of articaine in a child except",
        "It's an amide which is metabolised in both plasma and liver",
        "Articaine is an amide which is metabolised in both plasma and liver.",
    ),
    ("Which is true about the treatment of malaria?", "It is caused by Plasmodium", "Malaria is caused by Plasmodium."),
    # the topic without its frame or a trailing copula; "in general" is no topic
    ("Which is true in relation to hepatitis B?", "Transmitted sexually", "Hepatitis B is transmitted sexually."),
    ("Which is true in case of diabetes?", "Causes neuropathy", "Diabetes causes neuropathy."),
    ("Which of the following is true about aspirin is:", "Inhibits COX", "Aspirin inhibits COX."),
    ("False about X is/are:", "It is red", "X is red."),
    # (the claim check's no_subject before rules-v44; now the rules' statement_answer_without_subject)
    ("Which is true in general?", "Is used in pregnancy", None),
    ("Incorrect of the following statements regarding aspirin:", "It causes bleeding", None),
    # a verb-first or modal answer, a participle before a clause (review of session 42)
    (
        "False about Bone marrow biopsy",
        "Can be done in prone or lateral position",
        "Bone marrow biopsy can be done in prone or lateral position.",
    ),
    (
        "False about Bone marrow biopsy",
        "Contraindicated when platelet count is below 40,000",
        "Bone marrow biopsy is contraindicated when platelet count is below 40,000.",
    ),
    ("All of the following are true regarding caries except:", "Caused by bacteria", "Caries is caused by bacteria."),
    # (None before rules-v44: a noun-phrase answer is now a feature of the topic, MEDMCQA_STEMS_44)
    ("All of the following are true about COPD except:", "Decreased FEV1", "Decreased FEV1 is a feature of COPD."),
    (
        "About Transfusion Related Acute Lung Injury (TRALI), all of the following are true except:",
        "Signs and symptoms usually subsides within 2-3 weeks of onset",
        # (rules-v44: a statement that does not name its topic opens with it)
        "In Transfusion Related Acute Lung Injury (TRALI), signs and symptoms usually subsides within 2-3 weeks of "
        "onset.",
    ),
    # "which N of the following" + a verb; the stem's verb said at both ends, not a clause's own at the end
    (
        "Which factor of the following contributes to short duration of anesthetic action of single dose thiopental",
        "High lipid solubility",
        "High lipid solubility contributes to short duration of anesthetic action of single dose thiopental.",
    ),
    (
        "Which is best method to assess fetal damage in a diabetes mother in 1st trimester is:",
        "Glycosylated Hb",
        "Best method to assess fetal damage in a diabetes mother in 1st trimester is Glycosylated Hb.",
    ),
    (
        "What is a measure of how hot or cold the air is?",
        "temperature",
        "Temperature is a measure of how hot or cold the air is.",
    ),
    # "which N of the following" only before a verb, not a plural noun
    ("What percentage of the following patients are cured?", "50%", "50% of the following patients are cured."),
    # rules-v42, part 3: one phrase + a clause answer; an opening phrase, a comma and a subject + a predicate; an
    # adverb after "be" or a modal; a comparison answer; "upto"; a blank after a colon; an imperative last sentence
    (
        "During cryosurgery",
        "Cell death occurs when the temperature falls below -20°C",
        "During cryosurgery, cell death occurs when the temperature falls below -20°C.",
    ),
    (
        "In resorption of roots of the primary teeth, the dental pulp",
        "Plays a passive role",
        "In resorption of roots of the primary teeth, the dental pulp plays a passive role.",
    ),
    (
        "In root fracture of the apical one-thrid of permanent anterior teeth, the teeth usually",
        "Remain in function and are vital",
        "In root fracture of the apical one-thrid of permanent anterior teeth, the teeth usually remain in function and"
        " are vital.",
    ),
    (
        "The fear of a 6 year old related to dentistry is primarily:",
        "Subjective",
        "The fear of a 6 year old related to dentistry is primarily subjective.",
    ),
    (
        "When something loses electrons, it must also?",
        "gain electrons",
        "When something loses electrons, it must also gain electrons.",
    ),
    (
        "The name of which ion always comes first?",
        "positive ion",
        None,  # "comes first": no "be" or modal before the adverb
    ),
    (
        "Hyponatremia is defined as a serum Na+ level",
        "< 135 mmol/L",
        "Hyponatremia is defined as a serum Na+ level < 135 mmol/L.",
    ),
    (
        "According to ISO 6876-2001 ADA specifications 57 Endodontics sealer penetration is upto?",
        "50 μm",
        "According to ISO 6876-2001 ADA specifications 57 Endodontics sealer penetration is up to 50 μm.",
    ),
    ("Drug of choice is:______", "Atropine", "Drug of choice is Atropine."),
    # the source's "is/are" said once
    (
        "Which of the following hormone is/are under inhibitory control of hypyothalamus?",
        "Both Prolactin and Growth hormone",
        "Both Prolactin and Growth hormone are under inhibitory control of hypyothalamus.",
    ),
    (
        "Cause of apical periodontitis is/are:",
        "Periapical pathogens",
        "Cause of apical periodontitis is periapical pathogens.",
    ),
    ("A 30 year old man has fever. He is a farmer. Identify organism:", "Leptospira", None),
]


MEDMCQA_STEMS_43 = [
    # real MedMCQA validation stems (session 43): "True about X is" and "About X all are true, except" name the topic
    # (before: "True about placenta accreta is seen in cesarean scar.", which passed the claim check)
    ("True about placenta accreta is:", "Seen in cesarean scar", "Placenta accreta is seen in cesarean scar."),
    (
        "True about cardiolipin is all except",
        "Found in inner mitochondrial membrane",
        "Cardiolipin is found in inner mitochondrial membrane.",
    ),
    ("True about ythT cells:", "Are helper t cells", "ythT cells are helper t cells."),
    # (a noun phrase stated nothing about the topic before rules-v44; now a class of the topic: MEDMCQA_STEMS_44)
    ("True about enameloma", "True neoplasm of ameloblast", "Enameloma is a true neoplasm of ameloblast."),
    (
        "True open bite is caused by",
        "A horizontal fracture of the maxilla",
        "True open bite is caused by a horizontal fracture of the maxilla.",
    ),
    (
        "About gutta-percha all are true, except:",
        "Can be sterilized by heating",
        "Gutta-percha can be sterilized by heating.",
    ),
    ("For propofol all are true except", "Causes vomiting after use", "Propofol causes vomiting after use."),
    (
        "Find faulty statement regarding muscle spindle:",
        "Peripheral zone has no actin and myosin",
        "In muscle spindle, peripheral zone has no actin and myosin.",
    ),
    # "Following N" is "Which N"; a note after the last preposition goes (not one about a figure)
    (
        "Following renal disorder is associated with worst pregnancy outcome:",
        "Scleroderma",
        "Scleroderma is associated with worst pregnancy outcome.",
    ),
    (
        "C shaped root canals are preferably found in (Maximum incidence)",
        "Mand 2nd molar",
        "C shaped root canals are preferably found in mand 2nd molar.",
    ),
    (
        "Wave patterns of EEF, ECG and EMG are depicted below. The B pattern belongs to (Figure was not provided "
        "in the exam):",
        "Wakefulness",
        None,
    ),
    # an ellipsis run is a blank
    (
        "Apical constriction is ……………mm coronal to Apical foramen",
        "0.5-1.5",
        "Apical constriction is 0.5-1.5 mm coronal to Apical foramen.",
    ),
    # a complete clause, then where or how; "its" / "approximately" / "above" wait for the answer
    (
        "Hammock ligament is present:",
        "In apical area of a tooth",
        "Hammock ligament is present in apical area of a tooth.",
    ),
    (
        "The property of amalgam that makes it undesirable to bevel occlusal margins of an amalgam cavity preparation "
        "is its:",
        "Brittleness",
        "The property of amalgam that makes it undesirable to bevel occlusal margins of an amalgam cavity preparation "
        "is its brittleness.",
    ),
    (
        "According to Glickman, maximum accumulation of plaque takes place in approximately",
        "30 days",
        "According to Glickman, maximum accumulation of plaque takes place in approximately 30 days.",
    ),
    (
        "During implant placement maximum torque should not be above?",
        "70 N",
        "During implant placement maximum torque should not be above 70 N.",
    ),
    # the subject of a clause of reason ends the stem; a verb the tagger reads as a noun opens the answer
    (
        "Tissue conditioners are not used for long as they",
        "Harden in mouth",
        "Tissue conditioners are not used for long as they harden in mouth.",
    ),
    # an action answer after "is": "to" after a subject that names an action, else no copula
    (
        "The function of 2% potassium sulphate in a gypsum product is:",
        "Regulate setting time",
        "The function of 2% potassium sulphate in a gypsum product is to regulate setting time.",
    ),
    (
        "What is the function of filtration process while taking radiographs?",
        "Remove the short wavelength photons",
        "The function of filtration process while taking radiographs is to remove the short wavelength photons.",
    ),
    ("Steroids:", "Exacerbate the inflammatory response", "The steroids exacerbate the inflammatory response."),
    (
        "The proximal walls of a class II cavity on a deciduous molar:",
        "Converge toward occlusal surface",
        "The proximal walls of a class II cavity on a deciduous molar converge toward occlusal surface.",
    ),
    (
        "The ideal instrument that is used to widen the canal is",
        "Broach",
        "The ideal instrument that is used to widen the canal is broach.",
    ),
    # a wh-word left in a noun-phrase stem makes no claim ("with which skin type" parses as "in which" does)
    ("People with which skin type run a greater risk of vitamin d deficiency?", "darker skin", None),
    ("In a tropical rainforest, where are ferns common?", "understory", None),
    # a sentence's period with no space after it (before: "... is XY.What is ...", no question found)
    (
        "In iron poisoning drug Desferoxamine is given.what is its mechanism of action -",
        "By binding with trivalent Fe3+",
        "In iron poisoning drug Desferoxamine is given. Its mechanism of action is by binding with trivalent Fe3+.",
    ),
    # an action answer after a subject that names an action takes "to", also a verb the tagger read as a noun
    (
        "What is the next step in the management of this patient?",
        "Retrieve follicles",
        "The next step in the management of this patient is to retrieve follicles.",
    ),
    ("What is the next step?", "Give cabergoline", "The next step is to give cabergoline."),
    # (not a noun: "The best finish line ... is shoulder with bevel", "The undesirable side effect ... is pain")
    (
        "The best finish line for anterior metal ceramic crown is:",
        "Shoulder with bevel",
        "The best finish line for anterior metal ceramic crown is shoulder with bevel.",
    ),
    (
        "The treatment of choice is:",
        "Complete debridement and apexification",
        "The treatment of choice is complete debridement and apexification.",
    ),
    # a determiner "which" right after a noun, on its clause's subject before its verb, asks (not a relative's verb)
    (
        "During mandibular nerve block which nerve also gets damaged",
        "Facial",
        "During mandibular nerve block the facial nerve also gets damaged.",
    ),
    (
        "Peg-shaped incisors which taper towards the incisal edge are typically seen in:",
        "Congenital syphilis",
        "Peg-shaped incisors which taper towards the incisal edge are typically seen in congenital syphilis.",
    ),
    # "What to do next?" asks for the next step (an action answer takes "to")
    (
        "A patient has pain epigastrium. Chest X-ray normal. What to do next?",
        "Serum lipase",
        "A patient has pain epigastrium. Chest X-ray normal. The next step is serum lipase.",
    ),
    ("What to do next?", "Wait and watch", "The next step is to wait and watch."),
    # review of session 46: the copula before all adverbs, by the number of "-s" singulars; not a context
    # sentence's participle, nor one with no passive
    ("Parotid gland most commonly involved in", "Mumps", "Parotid gland is most commonly involved in mumps."),
    ("Measles caused by", "Paramyxovirus", "Measles is caused by Paramyxovirus."),
    ("Glucosamines used in following condition:", "Arthritis", "Glucosamines are used in arthritis."),
    (
        "Patient treated with amoxicillin for 5 days. Drug given in",
        "Otitis media",
        "Patient treated with amoxicillin for 5 days. Drug is given in otitis media.",
    ),
    ("Haemoglobin fallen to", "6 g/dl", "Haemoglobin fallen to 6 g/dl."),
    # (a bare "following" in a context sentence, or after a verb not on the list, keeps the old reading)
    (
        "A 30 year old male presented with following symptoms: fever, jaundice and RUQ pain. Diagnosis?",
        "Cholangitis",
        "A 30 year old male presented with following symptoms: fever, jaundice and RUQ pain. The diagnosis is "
        "Cholangitis.",
    ),
    (
        "Moyer's mixed dentition analysis measures following teeth",
        "Mandibular incisors",
        "Moyer's mixed dentition analysis measures mandibular incisors.",
    ),
    # (a bracket that qualifies the answer is kept, and the stem stays a reject)
    ("Normal intraocular pressure is (in mm Hg):", "10-21", None),
    # a coordinated action ("Wait and watch") takes "to" like a single one; a noun list does not
    ("The treatment is:", "Surgery and radiotherapy", "The treatment is surgery and radiotherapy."),
    # a determiner "which" cut from the clause's subject before a bare auxiliary ("what age" + "tetracycline")
    (
        "Till what age tetracycline should not be given to prevent discoloration",
        "8 year",
        "Till 8 year tetracycline should not be given to prevent discoloration.",
    ),
    (
        "Preconceptional intake of which of the following results in decrease in incidence of neural tube defect:",
        "Folate",
        "Preconceptional intake of Folate results in decrease in incidence of neural tube defect.",
    ),
]

MEDMCQA_STEMS_44 = [
    # real MedMCQA validation stems (session 44). A noun-phrase answer to a truth stem: a feature of the topic, of
    # the kind the topic names, or a class the topic belongs to (before: statement_answer_without_verb)
    (
        "All are true about polycystic ovarian disease except:",
        "Increased prolactin",
        "Increased prolactin is a feature of polycystic ovarian disease.",
    ),
    ("Which is false about apoptosis?", "Organelle swelling", "Organelle swelling is a feature of apoptosis."),
    ("True about complications of measles is:", "Pneumonia", "Pneumonia is a complication of measles."),
    (
        "True about side effects of phenytoin:",
        "Gum hypertrophy and hirsutism",
        "Gum hypertrophy and hirsutism are side effects of phenytoin.",
    ),
    ("Not true about vibrio cholera is", "Gram positive rod", "Vibrio cholera is a gram positive rod."),
    (
        "All of the following are true regarding Duncan placental separation except:",
        "Most common method of placental separation",
        "Duncan placental separation is the most common method of placental separation.",
    ),
    (  # a superlative answer names what the topic is
        "About N. gonorrhoea, all are true except",
        "Most common cause of urethritis in male",
        "N. gonorrhoea is the most common cause of urethritis in male.",
    ),
    ("True about treatment of malaria:", "Chloroquine", None),  # an action on a thing has no features
    ("Not true about NRHM", "Appoint ASHA", "NRHM appoints ASHA."),  # a verb's base form agrees with the topic
    (
        "All of the following are true regarding oxygenases except :",
        "Incorporate 2 atoms of oxygen",
        "Oxygenases incorporate 2 atoms of oxygen.",
    ),
    (  # not with a topic that is an action: the answer is an instruction
        "Which of the following is not true regarding iron supplementation in iron deficiency anemia?",
        "Administer a small diluted dose first prior to full dose",
        None,
    ),
    # an adjective phrase alone; an adverb before a participle; a verb in a relative clause of the answer
    (
        "Which of the following is TRUE about propagated nerve action potential?",
        "Decremental",
        "Propagated nerve action potential is decremental.",
    ),
    ("Following are true about bronchial cyst except –", "Mostly mediastinal", "Bronchial cyst is mostly mediastinal."),
    (
        "True about cardiolipin is all except",
        "Has choline base which has labile methyl group",
        "Cardiolipin has choline base which has labile methyl group.",
    ),
    # a statement that does not name its topic opens with it; a verb after adverbs or before a clause of its own
    ("Unstable Angina, True is", "Pain lasts for 10 minutes.", "In Unstable Angina, pain lasts for 10 minutes."),
    (
        "All are true about adult polycystic kidney disease except",
        "Hypertension is rare",
        "In adult polycystic kidney disease, hypertension is rare.",
    ),
    (
        "True about myofacial pain dysfunction syndrome",
        "Mainly affects young females",
        "Myofacial pain dysfunction syndrome mainly affects young females.",
    ),
    (
        "True about VENTOUSE:",
        "Can be applied when foetal head is above the level of ischial spine",
        "VENTOUSE can be applied when foetal head is above the level of ischial spine.",
    ),
    (  # a topic inside a frame; a source is no topic; nor is a figure ("the given instrument")
        "With respect to peripheral vascular disease, all of the following statements are true except:",
        "Ankle brachial index < 0.5 indicates critical limb ischemia",
        "In peripheral vascular disease, ankle brachial index < 0.5 indicates critical limb ischemia.",
    ),
    (
        "According to 2010 ACLS guidelines, all of the following are true except",
        "Atropine is for asystole",
        "Atropine is for asystole.",
    ),
    (
        "All of the following are true about the given instrument except",
        "Can be done in prone or lateral position",
        None,
    ),
    # a misparse that reads "-s" words as verbs is no clause ("Pulsus bisferiens"), nor a verb after the answer's first
    ("True about Levator Ani except -", "Converge downwards & medially", "Levator Ani converges downwards & medially."),
    # the topic first: "X all statements are true except", "X true is"
    (
        "Garre's osteomyelitis all statements are true except:",
        "Common in children and young",
        "Garre's osteomyelitis is common in children and young.",
    ),
    (
        "Prions true is:",
        "Readily inactivated by autoclave at 121oC",
        "Prions are readily inactivated by autoclave at 121oC.",
    ),
    ("find false statement regarding sensory endings", "Annulospiral wrap the ends", None),  # a clause
    ("About psedomonas. All are true except", "Strict aerobes", None),  # a class, but plural
    ("true statement about golgi tendon organ is", "3-25 muscle fibres", None),  # a number first
    ("In a left skewed curve, true statement is:", "Mean < Mode", None),
    (  # a sentence is no topic
        "A male child with Fanconi syndrome with nephrocalcinosis has a variant of dent disease. All are true except :",
        "Similar presentation in father",
        None,
    ),
    # "not" / "less" / "more" before a predicative answer
    (
        "What is not true regarding Zika Virus:",
        "Not transmitted from mother to newborn",
        "Zika Virus is not transmitted from mother to newborn.",
    ),
    (
        "All of the following are true about Ifosfamide except:",
        "Less neurotoxic than cyclophosphamide",
        "Ifosfamide is less neurotoxic than cyclophosphamide.",
    ),
    # "X has the following function/feature(s)" + a predicate: X is its subject
    (
        "Dentin conditioner has the following function.",
        "Removes smear layer",
        "Dentin conditioner removes smear layer.",
    ),
    (
        "Odontogenic keratocyst has the following feature",
        "Is developmental in origin",
        "Odontogenic keratocyst is developmental in origin.",
    ),
    ("Type III gold alloy does not have following features except:", "Harder than type IV", None),
    # a base-form verb read as a noun after "the following"; the asking sentence's verb decides, not the context's
    (
        "All of the following decrease in iron deficiency anemia except:",
        "TIBC",
        "TIBC decreases in iron deficiency anemia.",
    ),
    (
        "Child presents with hypotonia and seizures. It was confirmed to be zellweger syndrome. Which of the following "
        "accumulates in brain?",
        "Long chain fatty acid",
        "Child presents with hypotonia and seizures. It was confirmed to be zellweger syndrome. Long chain fatty acid "
        "accumulates in brain.",
    ),
    # "Which of the following ... except" asked once (was "Which of which of the following"), "which among", a gloss
    (
        "Which of the following will lead to spread of communicable disease during disaster, except",
        "Malnutrition",
        "Malnutrition will lead to spread of communicable disease during disaster.",
    ),
    (
        "Which among the following is not a risk factor for contrast-induced nephropathy?",
        "Obesity",
        "Obesity is a risk factor for contrast-induced nephropathy.",
    ),
    (
        "Which of the following bone(s) are used for the determination of growth in an individual?",
        "Cervical vertebrae",
        "Cervical vertebrae are used for the determination of growth in an individual.",
    ),
    (  # a capitalised "Which" after a verb that waits for its object is in place, not a new sentence
        "Initial calcification of crown represents Which Nolla's stage:",
        "Stage 2",
        "Initial calcification of crown represents stage 2.",
    ),
    # a class noun at the end waits for the name the answer gives; "it" after a preposition at the end is the blank
    (
        "Two brothers have bleeding into joints. It is due to deficiency of factor:",
        "VIII",
        "Two brothers have bleeding into joints. It is due to deficiency of factor VIII.",
    ),
    (
        "Embalming without issuing death certificate is punishable under section:",
        "IPC 201",
        "Embalming without issuing death certificate is punishable under section IPC 201.",
    ),
    ("A 30 year old man has fever. He is a farmer. Identify organism:", "Leptospira", None),  # an order, no verb
    ("In humans, each set of chromosomes contains 22 of these and 1 sex chromosome?", "autosomes", None),  # "these"
    (
        "The usefulness of a screening test depends upon it",
        "Sensitivity",
        "The usefulness of a screening test depends upon sensitivity.",
    ),
    (  # context sentences whose verbs the tagger missed, then a telegraphic stem
        "A patient notices a well demarcated area of depapillation on his tongue which has been there for as long as "
        "he can remember. The most probable diagnosis:",
        "Median rhomboid glossitis",
        "A patient notices a well demarcated area of depapillation on his tongue which has been there for as long as "
        "he can remember. The most probable diagnosis is median rhomboid glossitis.",
    ),
    # from the review of the session's diff: no claim that states the wrong relation
    ("True about tuberculosis:", "Acid fast bacillus", None),  # not "Tuberculosis is an acid fast bacillus"
    ("True about syphilis:", "Treponemal test", None),
    ("True about malaria:", "Chloroquine", None),  # a thing, not a finding
    ("Not true about prions:", "Infectious protein", None),
    ("True about lithium:", "Avoid in pregnancy", None),  # an instruction, not what lithium does
    ("True about digoxin:", "Administer slowly intravenously", None),
    (  # the kind the topic names, not a class of it
        "True about complications of measles is:",
        "Bacterial infection",
        "Bacterial infection is a complication of measles.",
    ),
    ("True about features of Hodgkin lymphoma:", "Fever is common", "Fever is common."),  # no "In features of"
    (  # "oxygenase" names "oxygenases"
        "True about oxygenases:",
        "Oxygenase incorporates oxygen into substrate",
        "Oxygenase incorporates oxygen into substrate.",
    ),
    (  # "given" inside a topic is no figure
        "True about vitamin K given to newborn:",
        "Prevents hemorrhagic disease",
        "Vitamin K given to newborn prevents hemorrhagic disease.",
    ),
    ("Which of the following is true about the lesion shown?", "Has a good prognosis", None),  # a figure's lesion
    ("Which of the following are used in angina?", "BETA BLOCKERS", "BETA BLOCKERS are used in angina."),
    (
        "Which of the following statements is true or false regarding the CPR technique?",
        "a is false and b, c, d are true",
        None,
    ),
    (  # an acronym in capitals is singular
        "Which of the following Glomerulonephritis has Nephrotic syndrome except -",
        "FSGS",
        "FSGS has Nephrotic syndrome.",
    ),
    (  # two stems in one: the options are still named in the claim
        "Which of the following is not attached laterally to thyroid cartilage, or all the following muscles are "
        "attached to the oblique line of thyroid cartilage except:",
        "Superior constrictor",
        None,
    ),
]


MEDMCQA_STEMS_45 = [
    # the stem's own agreement error, repaired in the claim (session 45; before: rejected by the claim check)
    (
        "Topical steroids is most effective in:",
        "Eczematous dermatitis",
        "Topical steroids are most effective in eczematous dermatitis.",
    ),
    (
        "Efferent tracts from cerebellum arises from:",
        "Purkinje cells",
        "Efferent tracts from cerebellum arise from Purkinje cells.",
    ),
    (
        "Bacteria responsible for post-operative endocarditis is:",
        "Staphylococcus epidermidis.",
        "Bacteria responsible for post-operative endocarditis are staphylococcus epidermidis.",
    ),
    # a plural answer put in the subject's place (SciQ)
    ("What transmits nerve impulses to other cells?", "neurons", "Neurons transmit nerve impulses to other cells."),
    ("Heterotrophs is another name for what group?", "consumers", "Heterotrophs are another name for consumers."),
    # the copula said again at the end of a wh-question (before: "A crater is a common osseous lesion in ... is.")
    (
        "Which of the following is a common osseous lesion in periodontitis is",
        "crater",
        "A crater is a common osseous lesion in periodontitis.",
    ),
    # (not a clause of its own that ends on its copula, nor one sentence the parser split)
    (
        "What is a measure of how hot or cold the air is?",
        "temperature",
        "Temperature is a measure of how hot or cold the air is.",
    ),
    (
        "What type of particles can a beta particle be?",
        "electron or positron",
        "A beta particle can be electron or positron.",
    ),
    # a relative "which" in a context sentence is not the question when the last sentence ends on an open copula
    (
        "At 28 weeks gestation, amniocentesis reveals a AOD 450 of 0.20 which is at the top of third zone of the "
        "liley curve. The most appropriate management of such a case is:",
        "Intrauterine transfusion",
        "At 28 weeks gestation, amniocentesis reveals an AOD 450 of 0.20 which is at the top of third zone of the "
        "liley curve. The most appropriate management of such a case is intrauterine transfusion.",
    ),
    # a fronted "preposition + which" before a clause in plain order (before: unsupported_question_form)
    (
        "In which stage of neurocysticercosis, there is no edema?",
        "Vesicular",
        "In vesicular stage of neurocysticercosis, there is no edema.",
    ),
    ("At which stage of Nolla's, the tooth starts erupting?", "Stage 6", "At stage 6, the tooth starts erupting."),
    (
        "For which of the following, you will not perform pulpectomy?",
        "Primary teeth with sinus tract",
        "For primary teeth with sinus tract, you will not perform pulpectomy.",
    ),
    ("In which of the following, long spaced collagen present?", "Cornea", None),  # no verb of its own
    # (the asked noun said once: the review found "In the third stage of labour stage of labour, ...")
    (
        "In which stage of labour, the placenta is delivered?",
        "Third",
        "In the third stage of labour, the placenta is delivered.",
    ),
    ("In which phase, the chromosomes are pulled apart?", "Anaphase", "In Anaphase, the chromosomes are pulled apart."),
    # do-support before a verb the source left in its "-s" form (before: no_main_verb)
    (
        "What does the red cell distribution width represents?",
        "Anisocytosis",
        "The red cell distribution width represents Anisocytosis.",
    ),
    (
        "At what stage of embryonic development does initial tooth development begins:",
        "6th week",
        "Initial tooth development begins at 6th week.",
    ),
    # (not after a subordinate clause's verb, found by the session's review)
    ("What does the body do when it overheats?", "Sweats", "The body sweats when it overheats."),
    # an ordering question has no claim (before: "The sequential arrangement of fetal scans is a growth scan.")
    ("Sequential arrangement of fetal scans -", "Growth scan", None),
    ("Sequential order of sperm formation: Spermatogonia Spermatocyte Spermatids Spermatozoa", "1234", None),
    (
        "Sequence of three nucleotides that codes for an amino acid is called:",
        "Codon",
        "Sequence of three nucleotides that codes for an amino acid is called Codon.",
    ),
    # "this is:" / "that is:" at the end wait for the answer after the copula (before: the answer replaced "this")
    (
        "In a blood sample antiserum A and antiserum B and Rh +ve factor is added. No agglutination is seen. This is:",
        "O group and Rh-ve",
        "In a blood sample antiserum A and antiserum B and Rh +ve factor is added. No agglutination is seen. This is "
        "O group and Rh-ve.",
    ),
    (
        "In comparison to maxillary central incisor, maxillary canine has a height of contour that is:",
        "More",
        "In comparison to maxillary central incisor, maxillary canine has a height of contour that is more.",
    ),
]


MEDMCQA_STEMS_46 = [
    # a telegraphic participle that can only be passive gets its copula (session 46; before: "Pegloticase used in ...")
    ("Pegloticase used in which of the following conditions?", "Chronic Gout", "Pegloticase is used in Chronic Gout."),
    ("Alginate fillers derived from", "Diatomaceous earth", "Alginate fillers are derived from diatomaceous earth."),
    ("Ciliocytophthoria caused by", "Viral infection", "Ciliocytophthoria is caused by viral infection."),
    ("D1 bone found mainly in which site?", "Anterior mandible", "D1 bone is found mainly in the anterior mandible."),
    (
        "Beta 3 glucan assay testing not done for",
        "Mucormycosis",
        "Beta 3 glucan assay testing is not done for Mucormycosis.",
    ),
    # (not a past tense, a quoted title, a copula glued to its noun, or a verb the tagger read as a noun after it)
    ("Birds evolved from", "dinosaurs", "Birds evolved from dinosaurs."),
    ("Tonsils developed from:", "Ventral part of 2nd pouch.", "Tonsils developed from ventral part of 2nd pouch."),
    ("Stenopic slit'is used for all except-", "Corneal tattooing", "Stenopic slit'is used for corneal tattooing."),
    (
        "Metal detectors used for airport security work on which principle?",
        "inductance",
        "Metal detectors used for airport security work on inductance.",
    ),
    (
        "Hormones produced by what gland in the neck increase the rate of metabolism in cells throughout the body?",
        "thyroid",
        "Hormones produced by the thyroid gland in the neck increase the rate of metabolism in cells throughout the "
        "body.",
    ),
    # a noun-phrase stem keeps its relative clause (before: no_question_form)
    (
        "Organism which causes bacterial endocarditis:",
        "Streptococcus viridans",
        "The organism which causes bacterial endocarditis is streptococcus viridans.",
    ),
    (
        "Only tooth in which buccal surface is made of 2 lobes",
        "Upper 1st molar",
        "The only tooth in which buccal surface is made of 2 lobes is upper 1st molar.",
    ),
    # (not a question word after a preposition in a question, nor one deep inside a vignette's clause)
    ("People with which skin type run a greater risk of vitamin d deficiency?", "darker skin", None),
    (
        "A 59-year-old female presents with gingival condition punched out crater-like depression covered with "
        "membrane which can be pulled off painlessly?",
        "ANUG",
        None,
    ),
    # a stem's final comma goes ("is called," is a blank at the end)
    (
        "A statistical test which indicates the chance of an observed difference between two means occurring by "
        "chance is called,",
        "Tests of significance",
        "A statistical test which indicates the chance of an observed difference between two means occurring by "
        "chance is called tests of significance.",
    ),
    # "which of following" asks like "which of the following"; a determiner "which" after "of" asks
    (
        "Coefficient of thermal expansion of which of following is most similar to that of tooth?",
        "Silicate cement",
        "Coefficient of thermal expansion of silicate cement is most similar to that of tooth.",
    ),
    (
        "Thermal conductivity of which material is close to dentin:",
        "Silicate",
        "Thermal conductivity of silicate is close to dentin.",
    ),
    (
        "The function of which organ is to filter blood and form urine?",
        "liver",
        "The function of the liver is to filter blood and form urine.",
    ),
    # (after other prepositions "which" + a noun is most often relative)
    (
        "The part of the shadow in which light is completely blocked is called what?",
        "umbra",
        "The part of the shadow in which light is completely blocked is called umbra.",
    ),
    # an adjective answer in place of "the following N" keeps N (before: answer_not_a_noun_phrase)
    (
        "This is used to assess which of the following pathway?",
        "Extrinsic",
        "This is used to assess the extrinsic pathway.",
    ),
    (
        "Midazolam cannot be given by which of the following routes:",
        "Oral",
        "Midazolam cannot be given by the oral route.",
    ),
    # (not for nouns the adjective answer is: "the malignant feature")
    ("X causes which of the following features?", "Malignant", None),
    # a plural answer replaces "which N" whose noun the tagger read as a verb (SciQ; before: "Independent variables
    # factors are ..."); a modifier answer keeps the noun
    (
        "Which factors are controlled by the experimenter?",
        "independent variables",
        "Independent variables are controlled by the experimenter.",
    ),
    ("What waves are used in radar?", "radio", "Radio waves are used in radar."),
    # an adverb on the asked noun's modifier is part of the wh-phrase (before: "... from black holes extremely dense
    # object sometimes found in deep space.")
    (
        "Not even light can escape from what extremely dense object sometimes found in deep space?",
        "black holes",
        "Not even light can escape from black holes sometimes found in deep space.",
    ),
    (
        "When energy is captured or transformed, it inevitably degrades and becomes what less useful form of energy?",
        "chemical",
        "When energy is captured or transformed, it inevitably degrades and becomes chemical energy.",
    ),
    ("What weakly scatters visible light?", "air", "Air weakly scatters visible light."),
    # a word tagged as a finite verb that is no verb form does not make the stem a clause ("sealant" read as VBP)
    (
        "The penetration of the fissure sealant into the fissure:",
        "Must occur before the polymerization of the material",
        "The penetration of the fissure sealant into the fissure must occur before the polymerization of the material.",
    ),
    # a subordinator and the noun phrase of its subject end the stem; an infinitive answer after an adjective
    (
        "High copper dental amalgams are superior to other amalgams because high copper dental amalgams:",
        "Have less marginal breakdown",
        "High copper dental amalgams are superior to other amalgams because high copper dental amalgams have less "
        "marginal breakdown.",
    ),
    (
        "The radiographic examination of a traumatized tooth is essential -",
        "To establish baseline data",
        "The radiographic examination of a traumatized tooth is essential to establish baseline data.",
    ),
    # "following" without its article after a verb or preposition is "the following" (not "Lead cause following except")
    (
        "I.V. diazepam causes following in a patient on dental chair:",
        "Virrel's sign",
        "I.V. diazepam causes Virrel's sign in a patient on dental chair.",
    ),
    ("Lead cause following except", "Macrocytic anemia", "Lead cause following macrocytic anemia."),  # (a reject)
    (
        "The most common complication following rheumatoid arthritis of the TMJ is:",
        "Ankylosis",
        "The most common complication following rheumatoid arthritis of the TMJ is Ankylosis.",
    ),
    # a note in brackets after the word that waits for the answer goes (not one about a figure)
    (
        "Most common site for melanotic neuroectodermal tumour of infancy is (MNTI):",
        "Maxilla",
        "Most common site for melanotic neuroectodermal tumour of infancy is the maxilla.",
    ),
    (
        "One unit of PRBC raises HCT by: (In exam instead of HCT, they wrote HCV, which we assume to be a spelling "
        "error):",
        "3-5%",
        "One unit of PRBC raises HCT by 3-5%.",
    ),
    (
        "Wave patterns of EEF, ECG and EMG are depicted below. The B pattern belongs to (Figure was not provided "
        "in the exam):",
        "Wakefulness",
        None,
    ),
]


STEMS_47 = [
    # a plural noun answer takes the asked noun's place when the parse left the noun out of the wh-phrase: before the
    # clause's verb, or at the end after a preposition (session 47; before: "gas molecules objects move")
    (
        "Both diffusion and effusion are related to the speed at which what objects move?",
        "gas molecules",
        "Both diffusion and effusion are related to the speed at which gas molecules move.",
    ),
    (
        "Filter feeders, such as sponges, pump water into their body through what structures?",
        "pores",
        "Filter feeders, such as sponges, pump water into their body through pores.",
    ),
    (
        "What structures receive blood from the atria and pump it out of the heart?",
        "ventricles",
        "Ventricles receive blood from the atria and pump it out of the heart.",
    ),
    (
        "Proteins include 20 common types of what compounds?",
        "amino acids",
        "Proteins include 20 common types of amino acids.",
    ),
    # a modifier answer keeps the noun; a real verb stays a verb
    (
        "Amino acid units in a protein are connected by what bonds?",
        "peptide",
        "Amino acid units in a protein are connected by peptide bonds.",
    ),
    (
        "The reaction rate usually increases as the concentration of what increases?",
        "reactants",
        "The reaction rate usually increases as the concentration of reactants increases.",
    ),
    (
        "What helps push the fetus from the uterus during birth?",
        "contractions",
        "Contractions help push the fetus from the uterus during birth.",
    ),
    # an answer that ends in the asked noun takes it (review finding; was "energy levels levels")
    (
        "Electrons are arranged around the nucleus in what levels?",
        "energy levels",
        "Electrons are arranged around the nucleus in energy levels.",
    ),
    # a "what" ending the question is the one it asks, the other wh-words stay (session-47 reading; before: "...
    # understand energy happens in nuclear reactions and why they produce so much what.")
    (
        "Einstein’s equation helps scientists understand what happens in nuclear reactions and why they produce so "
        "much what?",
        "energy",
        "Einstein's equation helps scientists understand what happens in nuclear reactions and why they produce so "
        "much energy.",
    ),
    (
        "Mitosis is nuclear division during which duplicated chromosomes are segregated and distributed into what?",
        "daughter nuclei",
        "Mitosis is nuclear division during which duplicated chromosomes are segregated and distributed into daughter "
        "nuclei.",
    ),
    # a free relative in an object's place keeps its subject (review finding)
    ("Fertilizers supply what plants need?", "nutrients", "Fertilizers supply nutrients plants need."),
    # the wh-word as the subject of a clause inside the sentence: its verb agrees with the answer (before: "the
    # reason continents moves"); not a noun the tagger read as the verb, nor after a clause answer
    (
        "The creation and destruction of oceanic crust is the reason what moves?",
        "continents",
        "The creation and destruction of oceanic crust is the reason continents move.",
    ),
    (
        "Receptor clustering happens when what binds to the receptors?",
        "enzymes",
        "Receptor clustering happens when enzymes bind to the receptors.",
    ),
    (
        "The creation and destruction of oceanic crust is the reason what moves?",
        "the ocean",
        "The creation and destruction of oceanic crust is the reason the ocean moves.",
    ),
    # a question after an opener's comma: also after "To" + verb, and with a relative pronoun later on (MedMCQA)
    (
        "Of all the pulpal sensibility test, which is best in a patient who is restored with Porcelain fused to metal "
        "crown?",
        "Cold test",
        "Of all the pulpal sensibility test, the cold test is best in a patient who is restored with Porcelain fused "
        "to metal crown.",
    ),
    (
        "To check objective pain response, which is best used method",
        "Facial pain scale",
        "To check objective pain response, best used method is a facial pain scale.",
    ),
    (
        "To establish the diagnosis of H-type trachea-esophageal fistula, which if the following is required?",
        "Tracheo-bronchoscopy",
        "To establish the diagnosis of H-type trachea-esophageal fistula, Tracheo-bronchoscopy is required.",
    ),
]


FAMILIES = {
    "adjective_answers": ADJECTIVE_ANSWERS,
    "doubled": DOUBLED,
    "prepositions": PREPOSITIONS,
    "modifiers_before_the_verb": MODIFIERS_BEFORE_THE_VERB,
    "copular_and_articles": COPULAR_AND_ARTICLES,
    "gaps_after_be": GAPS_AFTER_BE,
    "naming": NAMING,
    "noun_predicates_and_articles": NOUN_PREDICATES_AND_ARTICLES,
    "option_case": OPTION_CASE,
    "countability": COUNTABILITY,
    "names": NAMES,
    "one_preposition": ONE_PREPOSITION,
    "superlatives": SUPERLATIVES,
    "clause_inside_the_subject": CLAUSE_INSIDE_THE_SUBJECT,
    "in_situ_at_the_end": IN_SITU_AT_THE_END,
    "answers_tagged_alone": ANSWERS_TAGGED_ALONE,
    "triage_35": TRIAGE_35,
    "cased_question_words": CASED_QUESTION_WORDS,
    "what_does_x_do": WHAT_DOES_X_DO,
    "article_after_of": ARTICLE_AFTER_OF,
    "review_35": REVIEW_35,
    "substances": SUBSTANCES,
    "open_predicates": OPEN_PREDICATES,
    "do_as_the_asked_verb": DO_AS_THE_ASKED_VERB,
    "opener_without_comma": OPENER_WITHOUT_COMMA,
    "negations_and_apostrophes": NEGATIONS_AND_APOSTROPHES,
    "kept_noun_number": KEPT_NOUN_NUMBER,
    "where_in_and_has": WHERE_IN_AND_HAS,
    "removed_not_and_participles": REMOVED_NOT_AND_PARTICIPLES,
    "the_following": THE_FOLLOWING,
    "triage_36": TRIAGE_36,
    "review_36": REVIEW_36,
    "how_many": HOW_MANY,
    "existential_there": EXISTENTIAL_THERE,
    "what_happens_to": WHAT_HAPPENS_TO,
    "review_37": REVIEW_37,
    "medmcqa_stems_38": MEDMCQA_STEMS_38,
    "openers_38": OPENERS_38,
    "reading_38": READING_38,
    "articles_39": ARTICLES_39,
    "alternatives_39": ALTERNATIVES_39,
    "agreement_39": AGREEMENT_39,
    "what_happens_if_39": WHAT_HAPPENS_IF_39,
    "medmcqa_stems_42": MEDMCQA_STEMS_42,
    "medmcqa_stems_43": MEDMCQA_STEMS_43,
    "medmcqa_stems_44": MEDMCQA_STEMS_44,
    "medmcqa_stems_45": MEDMCQA_STEMS_45,
    "medmcqa_stems_46": MEDMCQA_STEMS_46,
    "stems_47": STEMS_47,
}


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [pytest.param(*case, id=f"{family}-{i}") for family, cases in FAMILIES.items() for i, case in enumerate(cases)],
)
def test_families(conv, question: str, answer: str, expected: str | None) -> None:  # type: ignore[no-untyped-def]
    assert _claim(conv, question, answer) == expected


def test_exam_lists_go_but_values_after_a_colon_and_space_stay() -> None:
    from claimforge.generate.qa2d.rules import prepare_question

    assert prepare_question("Diagnosis is:AFMC 12; JIPMER 12; AIIMS 12, 13").text == "Diagnosis is"
    # lab values after ": " are the question's data, not exams (a long list that does not match ends at once: the
    # spaces between two items can be split one way only)
    lab = "Findings: Sodium 13 Potassium 45 " * 12 + "Which is the diagnosis?"
    assert "Potassium 45" in prepare_question(lab).text
