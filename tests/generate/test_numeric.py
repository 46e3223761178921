"""Numeric counter-claims (generate/numeric.py): each kind on hand-written scientific sentences, the never-change
list, the consistency rules (ranges, x of y, CIs, order, arithmetic), formats, determinism, and a property test
that no edit touches a year, citation, reference or identifier."""

from __future__ import annotations

import difflib
import math
import random
import re
import xml.etree.ElementTree as ET

import pytest

from claimforge.generate.numeric import (
    KINDS,
    NumericEdit,
    numeric_edits,
    numeric_mentions,
    protected_spans,
)
from claimforge.registry import registry

SEEDS = range(12)

# (sentence, kinds that must be found, substrings that must never change)
SENTENCES: list[tuple[str, set[str], list[str]]] = [
    ("Vaccination reduced hospital admissions by 42% among adults aged 65 years or older.", {"percent"}, ["65"]),
    ("Sensitivity was 12.5% lower in the validation cohort (Table 2).", {"percent"}, ["Table 2"]),
    ("Seroconversion occurred in 96% of vaccinated participants.", {"percent"}, []),
    ("Treatment with atorvastatin lowered LDL cholesterol (p = 0.003).", {"p_value"}, []),
    ("Serum ferritin did not differ between groups (p = 0.46).", {"p_value"}, []),
    ("The association remained significant after adjustment (p < 0.001).", {"p_value"}, []),
    ("The interaction term was significant (P = .03).", {"p_value"}, []),
    ("The rs2772300 variant was associated with asthma (p = 3.2 × 10−4).", {"p_value"}, ["rs2772300"]),
    ("Statin use was associated with lower mortality (HR 0.62, 95% CI 0.45–0.85).", {"ratio"}, ["95%"]),
    ("Smoking increased the odds of COPD (OR = 1.8; 95% CI 1.2–2.4).", {"ratio"}, ["95%", "COPD"]),
    ("IL-6 expression increased 2.5-fold after LPS stimulation.", {"fold_change"}, ["IL-6"]),
    ("Tumour volume was 3 times higher in knockout mice.", {"fold_change"}, []),
    ("Expression of BRCA1 was twofold higher in tumours than in normal tissue.", {"fold_change"}, ["BRCA1"]),
    ("Patients received 20 mg/kg of cyclophosphamide daily.", {"dose"}, []),
    ("Mice were given 0.5 mg of the compound for 14 days.", {"dose", "measurement"}, []),
    ("Plasma glucose was 5.6 mmol/L at baseline in the metformin arm.", {"dose"}, []),
    ("Cells were incubated at 37 °C for 24 h before lysis.", {"measurement"}, []),
    ("The trial enrolled 120 patients with type 2 diabetes.", {"sample_size"}, ["type 2"]),
    ("Tumours regressed in 35 of 50 mice treated with the inhibitor.", {"sample_size"}, []),
    ("Among patients with resistance, 12/15 (80%) harboured thymidine analogue mutations.", {"sample_size"}, []),
    ("Two patients developed grade 3 neutropenia.", {"count_word"}, ["grade 3"]),
    ("The effect was twice as large in women as in men.", {"multiplier_word"}, []),
    ("About half of the participants reported mild side effects.", {"fraction_word"}, []),
    ("Response rates ranged from 20% to 35% across the study sites.", {"range"}, []),
    ("Response rates were 20–35% in the intervention arm.", {"range"}, []),
    ("Optimal doses were between 10 and 20 mg per day.", {"range"}, []),
    ("Mean systolic pressure was 128.4 ± 12.1 mmHg in the control group.", {"measurement"}, ["12.1"]),
    ("The mutation rate was 3.2 × 10−4 per base pair.", {"decimal"}, []),
    ("A total of 1,234 cells expressed CD4+ in the sample.", {"cardinal"}, ["CD4+"]),
    ("Age was inversely correlated with telomere length (r = −0.32).", {"statistic"}, []),
    ("The hazard of death was lower in the 2015 cohort [12].", set(), ["2015", "[12]"]),
    ("SARS-CoV-2 RNA was detected in 45 of 300 samples collected in 2020.", {"sample_size"}, ["SARS-CoV-2", "2020"]),
    ("One of the two-tailed tests used a one-way ANOVA with 3 factors.", {"cardinal"}, ["One of", "two-tailed"]),
    ("Enrolment in the Phase 3 trial was completed in 2019 (Figure 3).", set(), ["Phase 3", "2019", "Figure 3"]),
    ("Trisomy of chromosome 21 was found in 8% of fetuses (Section 4.1).", {"percent"}, ["21", "Section 4.1"]),
    ("Analyses were run in SPSS version 22.0 on 38 isolates.", {"sample_size"}, ["22.0"]),
    ("The p53 and H1N1 status of 38 isolates was determined [3, 4].", {"sample_size"}, ["p53", "H1N1", "[3, 4]"]),
    ("The median survival was 14.2 months (95% CI 11.8–16.9) in the 1st cohort.", {"measurement"}, ["95%", "1st"]),
    ("The median CD4 count was 116 cells/mm3 (IQR: 54–189).", {"measurement"}, ["CD4", "54", "189"]),
    ("A third of the children were infected with HIV-1 by 18 months of age.", {"fraction_word"}, ["HIV-1"]),
    ("Infected mice lost 18.5% of their body weight within 7 days.", {"percent"}, ["7 days"]),
    ("Cephalosporins were effective in 88% of cases (ref. 12), as reported by Smith et al. 2010.", {"percent"}, ["12"]),
    ("Viral load fell from 32,000 copies/ml to 1,200 copies/ml after 12 weeks.", {"range", "measurement"}, []),
    ("The AUC was 0.82 for the combined COVID-19 severity score.", {"decimal"}, ["COVID-19"]),
    ("The kappa between the two raters was 0.71 in the Fig. 2B subset.", {"decimal"}, ["Fig. 2B"]),
    ("The 5-point Likert scale showed 64% agreement among 40 nurses.", {"percent", "sample_size"}, ["5-point"]),
    ("Median follow-up was 3.4 y (range: 1.2–6.8) in the HIV-2 cohort.", {"measurement"}, ["HIV-2", "1.2", "6.8"]),
]


def _edits(claim: str, seed: int = 0, **kw: object) -> list[NumericEdit]:
    return numeric_edits(claim, random.Random(seed), **kw)  # type: ignore[arg-type]


def _changed(claim: str, text: str) -> list[tuple[int, int]]:
    """The character ranges of ``claim`` that differ in ``text`` (an insertion is an empty range)."""
    ops = difflib.SequenceMatcher(None, claim, text, autojunk=False).get_opcodes()
    return [(i1, i2) for tag, i1, i2, _, _ in ops if tag != "equal"]


def _touches(changed: list[tuple[int, int]], s: int, e: int) -> bool:
    return any((i1 < e and s < i2) or (i1 == i2 and s < i1 < e) for i1, i2 in changed)


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def _numbers(text: str) -> list[float]:
    return [_number(x) for x in re.findall(r"[−-]?[0-9][0-9,]*(?:\.[0-9]+)?", text)]


# --------------------------------------------------------------------------------------------------------------
# The hand-written sentences: kinds found, protected text intact, every edit well-formed


@pytest.mark.parametrize(("claim", "kinds", "protected"), SENTENCES)
def test_sentences_kinds_protected_and_wellformed(claim: str, kinds: set[str], protected: list[str]) -> None:
    found = {m.kind for m in numeric_mentions(claim)}
    assert kinds <= found, (kinds, found)
    for seed in SEEDS:
        edits = _edits(claim, seed)
        if kinds:
            assert edits, claim
        for e in edits:
            assert e.text == claim[: e.start] + e.replacement + claim[e.end :]
            assert e.original == claim[e.start : e.end]
            assert e.text != claim
            changed = _changed(claim, e.text)
            assert all(e.start <= i1 and i2 <= e.end for i1, i2 in changed)  # only inside the edit's span
            for keep in protected:
                pos = claim.index(keep)
                assert not _touches(changed, pos, pos + len(keep)), (keep, e)
                assert keep in e.text
            # fluent: same token count ± 1, no doubled or lost spaces
            assert abs(len(e.text.split()) - len(claim.split())) <= 1, e
            assert "  " not in e.text
        assert len({e.text for e in edits}) == len(edits)  # the edits of one claim differ


def test_at_least_forty_sentences() -> None:
    assert len(SENTENCES) >= 40


# --------------------------------------------------------------------------------------------------------------
# Percentages


def test_percent_changes_enough_and_stays_in_bounds() -> None:
    for seed in SEEDS:
        (e,) = _edits("The response rate was 42% in the treatment arm.", seed)
        new = _number(e.replacement.rstrip("%"))
        assert e.replacement.endswith("%") and 0 < new < 100
        assert abs(new - 42) / 42 >= 0.2


def test_percent_near_100_moves_down_and_keeps_precision() -> None:
    for seed in SEEDS:
        (e,) = _edits("Seroconversion occurred in 96% of participants.", seed)
        assert _number(e.replacement.rstrip("%")) < 96
        (e,) = _edits("Sensitivity was 12.5% lower in the validation cohort.", seed)
        assert re.fullmatch(r"[0-9]+\.[0-9]%", e.replacement), e.replacement  # 12.5% -> 17.5%, never 17.5318%


def test_all_percentages_stay_below_100_across_seeds() -> None:
    claim = "Coverage was 85% in 2010 and 91% in 2015, and 77.5% of clinics reported stock-outs."
    for seed in SEEDS:
        for e in _edits(claim, seed):
            assert all(0 < x < 100 for x in _numbers(e.replacement)), e


def test_all_100_percent_with_all_is_left_alone() -> None:
    assert not _edits("All of them (100%) carried the M184V mutation.")


# --------------------------------------------------------------------------------------------------------------
# p-values


def test_exact_p_value_keeps_its_side_of_005_and_changes_at_least_twofold() -> None:
    for claim, old in (("Treatment lowered LDL (p = 0.003).", 0.003), ("Ferritin did not differ (p = 0.46).", 0.46)):
        for seed in SEEDS:
            (e,) = _edits(claim, seed)
            new = _number(e.replacement.split("=")[1])
            assert (new < 0.05) == (old < 0.05) and 0 < new < 1
            assert abs(math.log10(new / old)) >= math.log10(2) - 1e-9


def test_p_bound_becomes_an_exact_value_the_evidence_excludes() -> None:
    for seed in SEEDS:
        (e,) = _edits("The association remained significant (p < 0.001).", seed)
        assert e.replacement.startswith("p = ")
        new = _number(e.replacement[4:])
        assert 0.002 <= new < 0.05  # still significant, but not < 0.001


def test_p_thresholds_at_005_are_never_changed() -> None:
    assert not _edits("Mortality did not differ between arms (p > 0.05).")
    assert not _edits("Both groups improved (p < 0.05).")
    assert not numeric_mentions("Both groups improved (p < 0.05).")


def test_p_value_formats() -> None:
    (e,) = _edits("The interaction term was significant (P = .03).")
    assert re.fullmatch(r"P = \.[0-9]+", e.replacement)  # no leading zero, as written
    (e,) = _edits("The variant was associated with asthma (p = 3.2 × 10−4).")
    assert re.fullmatch(r"p = 3\.2 × 10−[0-9]", e.replacement)  # the exponent changes, the mantissa stays
    (e,) = _edits("The correlation was strong (r=0.39, p=<0.0001).", kinds={"p_value"})
    assert e.replacement.startswith("p=0.")


# --------------------------------------------------------------------------------------------------------------
# Ratios and fold changes


def test_ratio_keeps_side_of_one_and_ci_scales_with_it() -> None:
    for claim, below in (
        ("Statin use was associated with lower mortality (HR 0.62, 95% CI 0.45–0.85).", True),
        ("Smoking increased the odds of COPD (OR = 1.8; 95% CI 1.2–2.4).", False),
    ):
        for seed in SEEDS:
            (e,) = _edits(claim, seed)
            assert "95% CI" in e.replacement
            est, lo, hi = (x for x in _numbers(e.replacement) if x != 95)
            assert lo < est < hi
            assert all((x < 1) == below for x in (est, lo, hi))


def test_fold_change_stays_above_one_and_keeps_its_format() -> None:
    for seed in SEEDS:
        (e,) = _edits("IL-6 expression increased 2.5-fold after stimulation.", seed)
        assert re.fullmatch(r"[0-9]+\.[0-9]-fold", e.replacement) and _number(e.replacement[:-5]) > 1
        (e,) = _edits("Expression was twofold higher in tumours.", seed)
        assert e.replacement in {"threefold", "fourfold", "fivefold"}


def test_ratio_of_one_has_no_direction_and_is_left_alone() -> None:
    assert not _edits("The odds were unchanged (OR = 1.0).")


# --------------------------------------------------------------------------------------------------------------
# Doses and measurements


def test_dose_keeps_unit_integerness_and_magnitude() -> None:
    for seed in SEEDS:
        (e,) = _edits("Patients received 20 mg/kg of cyclophosphamide daily.", seed)
        assert e.replacement.endswith(" mg/kg")
        new = e.replacement.split()[0]
        assert new.isdigit() and 0.4 <= int(new) / 20 <= 2.5 and abs(int(new) - 20) >= 4


def test_decimal_precision_and_unit_kept() -> None:
    for seed in SEEDS:
        (e,) = _edits("Plasma glucose was 5.6 mmol/L at baseline.", seed)
        assert re.fullmatch(r"[0-9]+\.[0-9] mmol/L", e.replacement)


def test_magnitude_any_allows_larger_factors_same_does_not() -> None:
    claim = "Patients received 40 mg of prednisolone daily."
    same = {_number(_edits(claim, s)[0].replacement.split()[0]) for s in range(40)}
    wide = {_number(_edits(claim, s, magnitude="any")[0].replacement.split()[0]) for s in range(40)}
    assert all(0.4 <= x / 40 <= 2.5 for x in same)
    assert any(not 0.4 <= x / 40 <= 2.5 for x in wide)


def test_singular_time_unit_is_pluralised() -> None:
    assert not _edits("Symptoms resolved within 1 week of treatment.")  # "within": a bound
    for seed in SEEDS:
        (e,) = _edits("Symptoms resolved after 1 week of treatment.", seed)
        assert re.fullmatch(r"[0-9]+ weeks", e.replacement)


def test_temperature_moves_little() -> None:
    for seed in SEEDS:
        e = _edits("Cells were incubated at 37 °C overnight.", seed)[0]
        assert 26 <= _number(e.replacement.split()[0]) <= 48


def test_mean_changes_and_sd_is_kept() -> None:
    for seed in SEEDS:
        (e,) = _edits("Mean systolic pressure was 128.4 ± 12.1 mmHg.", seed)
        assert e.replacement.endswith(" ± 12.1 mmHg") and not e.replacement.startswith("128.4")


def test_median_stays_inside_its_range_and_iqr() -> None:
    for seed in SEEDS:
        (e,) = _edits("The median CD4 count was 116 cells/mm3 (IQR: 54–189).", seed)
        assert e.replacement.endswith("cells/mm3 (IQR: 54–189")
        assert 54 <= _number(e.replacement.split()[0]) <= 189


def test_ci_of_a_measurement_moves_with_it() -> None:
    for seed in SEEDS:
        (e,) = _edits("The median survival was 14.2 months (95% CI 11.8–16.9).", seed)
        est, _, lo, hi = _numbers(e.replacement)
        assert lo < est < hi and est != 14.2


# --------------------------------------------------------------------------------------------------------------
# Counts


def test_x_of_y_keeps_total_and_x_below_it() -> None:
    for seed in SEEDS:
        (e,) = _edits("Tumours regressed in 35 of 50 mice treated with the inhibitor.", seed)
        x, y = _numbers(e.replacement)
        assert y == 50 and 1 <= x < 50 and x != 35


def test_x_of_y_percentage_is_recomputed() -> None:
    for seed in SEEDS:
        (e,) = _edits("Among patients with resistance, 12/15 (80%) harboured TAMs.", seed)
        x, y, pct = _numbers(e.replacement)
        assert y == 15 and x < 15 and pct == round(100 * x / 15)


def test_count_with_percentage_uses_the_implied_total() -> None:
    for seed in SEEDS:
        (e,) = _edits("The pattern occurred in 12 (66.7%) patients.", seed)
        x, pct = _numbers(e.replacement)
        assert pct == round(100 * x / 18, 1)  # 12/18 = 66.7%


def test_sample_size_and_count_words() -> None:
    for seed in SEEDS:
        (e,) = _edits("The trial enrolled 120 patients with type 2 diabetes.", seed)
        assert e.kind == "sample_size" and e.replacement.isdigit()
        (e,) = _edits("Two patients developed grade 3 neutropenia.", seed)
        assert e.kind == "count_word" and e.replacement in {"Three", "Four", "Five"}
        (e,) = _edits("The effect was twice as large in women.", seed)
        assert e.replacement in {"three times", "four times"}
        (e,) = _edits("About half of the participants reported side effects.", seed)
        assert e.replacement in {"a third", "a quarter", "two thirds", "three quarters"}


def test_parts_that_add_up_are_left_alone() -> None:
    assert not _edits("We screened 24 genes, 14 up-regulated and 10 down-regulated.")
    assert not _edits(
        "Of these patients, 16.7% had one, 33.3% had two and 50.0% had three mutations.", kinds={"percent"}
    )
    claim = "Among 55 patients, 34 (61.8%) were female."
    assert all(e.kind == "sample_size" and not e.original.startswith("55") for e in _edits(claim))
    # a count followed by its enumeration, a duration given by a span of years
    assert not _edits("Five synapomorphies (characters 16.1, 19.1, 28.1, 31.2, and 72.3) unite the clade.")
    assert not _edits("Over the 20 y from 1990 to 2009, neonatal mortality fell.")
    # a count with its percentage stays with it, and their total stays too
    claim = "Among 29 patients, 9 cases (31%) were rejected, against one case (6%) among 17 patients."
    assert all(e.original.startswith("9 cases") for e in _edits(claim, max_edits=5))


def test_order_with_other_quantities_is_kept() -> None:
    claim = "The proportion increased from 37% in 1990 to 41% in 2009."
    for seed in SEEDS:
        for e in _edits(claim, seed):
            a, b = (x for x in _numbers(e.text) if x < 100)
            assert a < b, e.text


# --------------------------------------------------------------------------------------------------------------
# Ranges


@pytest.mark.parametrize(
    "claim",
    [
        "Response rates ranged from 20% to 35% across sites.",
        "Response rates were 20–35% in the intervention arm.",
        "Optimal doses were between 10 and 20 mg per day.",
        "Life expectancy estimates were reduced by 1–2 y.",
    ],
)
def test_range_is_one_quantity_changed_consistently(claim: str) -> None:
    for seed in SEEDS:
        (e,) = _edits(claim, seed)
        assert e.kind == "range"
        (lo0, hi0), (lo, hi) = _numbers(e.original), _numbers(e.replacement)
        assert lo < hi and lo != lo0 and hi != hi0
        if "%" in claim:
            assert hi < 100
        if "–" in e.original:
            assert "–" in e.replacement  # the en dash is kept


def test_year_range_is_not_a_quantity() -> None:
    assert not numeric_mentions("Neonatal deaths were counted over 1990–2009 [4].")


# --------------------------------------------------------------------------------------------------------------
# Formats


def test_formats_are_preserved() -> None:
    (e,) = _edits("A total of 1,234 cells expressed CD4+ in the sample.")
    assert re.fullmatch(r"[0-9],[0-9]{3}", e.replacement)  # thousands separator
    (e,) = _edits("The mutation rate was 3.2 × 10−4 per base pair.")
    assert re.fullmatch(r"[0-9]\.[0-9] × 10−4", e.replacement)  # mantissa changes, exponent kept
    (e,) = _edits("The rate was 1.5e-5 per cell division.")
    assert re.fullmatch(r"[0-9]\.[0-9]e-5", e.replacement)
    for seed in SEEDS:
        (e,) = _edits("Age was inversely correlated with telomere length (r = −0.32).", seed)
        assert e.replacement.startswith("−0.") and len(e.replacement) == 5  # unicode minus, |r| < 1, 2 decimals
    (e,) = _edits("Median viral load was 32,000 copies/ml in the cohort.")
    assert re.fullmatch(r"[0-9]{2},000 copies/ml", e.replacement)  # rounded to thousands, like the original


# --------------------------------------------------------------------------------------------------------------
# Never changed


@pytest.mark.parametrize(
    ("claim", "keep"),
    [
        ("In 2009, 44% of deaths occurred in the first week [12].", ["2009", "[12]"]),
        ("As shown in Figure 3 and Table 2, 40% of samples were positive.", ["Figure 3", "Table 2"]),
        (
            "IL-6, CD4+, COVID-19, H1N1, SARS-CoV-2, p53 and BRCA1 rose by 30% in 12 patients.",
            ["IL-6", "CD4+", "COVID-19", "H1N1", "SARS-CoV-2", "p53", "BRCA1"],
        ),
        ("Trisomy of chromosome 21 was seen in 15 fetuses in the Phase 3 trial.", ["chromosome 21", "Phase 3"]),
        ("Patients with type 2 diabetes lost 4.2 kg (Section 4.1).", ["type 2", "Section 4.1"]),
        ("The 1st and 2nd doses gave 80% protection.", ["1st", "2nd"]),
        ("Data were analysed with SPSS version 22.0 in 300 adults.", ["22.0"]),
        ("One of the patients had a 45% reduction (3).", ["One of", "(3)"]),
        ("A one-way ANOVA with two-tailed tests showed a 25% difference.", ["one-way", "two-tailed"]),
        ("The OR was 2.1 (95% CI 1.4–3.2) in 230 cases.", ["95%"]),
        ("The first and second visits showed 18% and 26% adherence.", ["first", "second"]),
        ("Smith et al. (2010) found that 62% of 80 clinics used the test.", ["2010"]),
    ],
)
def test_never_changed(claim: str, keep: list[str]) -> None:
    assert numeric_mentions(claim)
    for seed in SEEDS:
        edits = _edits(claim, seed, max_edits=5)
        assert edits
        for e in edits:
            changed = _changed(claim, e.text)
            for k in keep:
                pos = claim.index(k)
                assert not _touches(changed, pos, pos + len(k)), (k, e)


def test_bounds_are_skipped() -> None:
    assert not _edits("More than 50% of the patients had at least 3 comorbidities.")
    assert not _edits("Patients aged 65 years or older were excluded.")
    reasons = {r for _, _, r in protected_spans("More than 50% of the patients had at least 3 comorbidities.")}
    assert reasons == {"bound"}


def test_protected_spans_name_their_reason() -> None:
    claim = "In 2020, IL-6 rose by 30% (Figure 2) in the Phase 3 trial [7] (95% CI 20–40)."
    reasons = {claim[s:e]: r for s, e, r in protected_spans(claim)}
    assert reasons["2020"] == "year"
    assert reasons["6"] == "identifier"
    assert reasons["2"] == "reference"
    assert reasons["3"] == "label"
    assert reasons["7"] == "citation"
    assert reasons["95"] == "ci_level"


# --------------------------------------------------------------------------------------------------------------
# API: determinism, order, limits


def test_deterministic_for_a_seed_and_varies_across_seeds() -> None:
    claim = "Of 240 adults, 35% reported headache (p = 0.02) after 20 mg of drug X for 14 days."
    runs = [[(e.kind, e.text) for e in _edits(claim, seed)] for seed in SEEDS]
    assert runs == [[(e.kind, e.text) for e in _edits(claim, seed)] for seed in SEEDS]
    assert len({tuple(r) for r in runs}) > 1


def test_order_limit_and_kinds_filter() -> None:
    claim = "Of 240 adults, 35% reported headache (p = 0.02) after 20 mg of drug X for 14 days."
    edits = _edits(claim, max_edits=10)
    ranks = [KINDS.index(e.kind) for e in edits]
    assert ranks == sorted(ranks)
    assert [e.kind for e in edits][:3] == ["percent", "p_value", "dose"]
    assert len(_edits(claim, max_edits=2)) == 2
    assert _edits(claim, max_edits=0) == []
    assert {e.kind for e in _edits(claim, kinds={"dose", "measurement"})} == {"dose", "measurement"}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown kinds"):
        _edits("42% of patients", kinds={"percentage"})
    with pytest.raises(ValueError, match="magnitude"):
        _edits("42% of patients", magnitude="huge")


def test_no_numbers_no_edits() -> None:
    assert numeric_mentions("Metformin reduced HbA1c in adults.") == []
    assert _edits("Metformin reduced HbA1c in adults.") == []


# --------------------------------------------------------------------------------------------------------------
# Property: no edit touches a year, a citation, a reference or an identifier

_NEVER = {"year", "citation", "reference", "identifier", "label", "ordinal", "ci_level", "version", "date"}
_FRAGMENTS = {
    "quantity": [
        "42% of patients",
        "a 2.5-fold increase",
        "20 mg/kg daily",
        "35 of 50 mice",
        "p = 0.003",
        "HR 0.62 (95% CI 0.45–0.85)",
        "12.3 ± 1.2 mmol/L",
        "between 10 and 20 weeks",
        "n = 120",
        "three cohorts",
        "1,234 cells",
        "r = 0.41",
    ],
    "protected": [
        "in 2019",
        "[12]",
        "[3, 4]",
        "(Figure 3)",
        "(Table 2)",
        "in Section 4.1",
        "in IL-6 knockout mice",
        "among CD4+ cells",
        "after COVID-19",
        "with H1N1",
        "of SARS-CoV-2",
        "in p53 mutants",
        "with BRCA1 variants",
        "on chromosome 21",
        "in the Phase 3 trial",
        "with type 2 diabetes",
        "in the 1st year",
        "(SPSS version 22.0)",
        "by Smith et al. 2010",
    ],
}


def _random_sentences(n: int) -> list[str]:
    rnd = random.Random(2026)
    out = []
    for _ in range(n):
        q = rnd.sample(_FRAGMENTS["quantity"], 2)
        p = rnd.sample(_FRAGMENTS["protected"], 2)
        out.append(f"We observed {q[0]} {p[0]}, and {q[1]} {p[1]}.")
    return out


def _check_untouched(claim: str, edits: list[NumericEdit]) -> None:
    never = [(s, e) for s, e, r in protected_spans(claim) if r in _NEVER]
    for edit in edits:
        assert edit.text == claim[: edit.start] + edit.replacement + claim[edit.end :]
        changed = _changed(claim, edit.text)
        for s, e in never:
            assert not _touches(changed, s, e), (claim[s:e], edit)


def test_property_no_edit_touches_protected_numbers() -> None:
    for k, claim in enumerate(_random_sentences(150)):
        edits = numeric_edits(claim, random.Random(k), max_edits=4)
        assert edits, claim
        _check_untouched(claim, edits)
        for frag in _FRAGMENTS["protected"]:
            if frag in claim:
                assert all(frag in e.text for e in edits), (frag, claim)


def test_property_on_real_results_sentences(shared_data) -> None:  # type: ignore[no-untyped-def]
    """The PLOS starter corpus' Results paragraphs (docs/numeric_negation.md): every edit keeps the invariants."""
    from claimforge.nlp.sentences import split_sentences

    corpus = shared_data("papers", "plos_jats", "starter_corpus")
    sentences = []
    for path in sorted(corpus.glob("*.xml")):
        for sec in ET.parse(path).getroot().iter("sec"):
            title = sec.find("title")
            if title is not None and "results" in "".join(title.itertext()).lower():
                for p in sec.findall("p"):
                    text = " ".join("".join(p.itertext()).split())
                    sentences += [s for s in split_sentences(text) if re.search(r"[0-9]", s)]
    assert len(sentences) > 200
    with_edit = 0
    for k, claim in enumerate(sentences):
        edits = numeric_edits(claim, random.Random(k))
        with_edit += bool(edits)
        _check_untouched(claim, edits)
        for e in edits:
            assert abs(len(e.text.split()) - len(claim.split())) <= 1
    assert with_edit / len(sentences) > 0.35


def test_unusable_edits_do_not_use_up_the_cap() -> None:
    claim = "Response rates were 45% with the drug and 30% with placebo."
    first = numeric_edits(claim, random.Random(1), max_edits=1)
    assert len(first) == 1 and first[0].original == "45%"
    kept = numeric_edits(claim, random.Random(1), max_edits=1, keep=lambda e: e.original != "45%")
    assert [e.original for e in kept] == ["30%"]
    negator = registry.build("negator", {"name": "numeric", "max_edits": 1, "nli": None})
    (neg,) = negator.negate([claim], evidence=[("Of the placebo group, 30% responded.",)])  # 45% is not stated
    assert neg.text is not None and "45%" in neg.text and "30%" not in neg.text


@pytest.mark.parametrize(
    ("claim", "design"),
    [
        ("At 12 months, pain fell in 40% of patients.", {"12 months"}),
        ("Pain fell more in the two groups given 40 mg.", {"two"}),
        ("The 10-year risk of fracture was 14% in women.", {"10-year"}),  # a risk horizon
        ("Patients completed an 800 m swim in 12 minutes.", {"800 m"}),  # a distance that names the task
        ("The 6-minute walk distance increased by 35 m.", {"6-minute"}),
        ("Among 5-year-old children, 30% slept 30 minutes longer.", {"5-year"}),
        # results: a measured amount, a change, a duration that is the outcome
        ("Survival of 5 years was reached by 60% of patients.", set()),
        ("Treatment gave a 2-year gain in survival in 20% of patients.", set()),
        ("There was a 3-month survival gain in 20% of patients.", set()),
        ("Median survival was 14 months overall in 20% of patients.", set()),
        ("Patients walked 400 m further, 20% more than controls.", set()),
        ("Survival was 5 years longer in 20% of patients.", set()),
        ("The 10 year risk of fracture was 14% in women.", {"10 year"}),
        ("Nausea was less frequent 42 hours after surgery in 20% of patients.", {"42 hours"}),  # a time point
        ("Pain was lower 105 minutes post-dose in 30% of patients.", {"105 minutes"}),
        ("There were no significant differences for the 30% cut-off in 45 patients.", {"30%"}),  # an analysis choice
        ("Sensitivity was 82% at a 2.5 mg/L threshold.", {"2.5 mg/L"}),
        ("Accuracy within 30% and 50% was 64% and 81%.", {"50%"}),  # tolerance bands
        ("For nH = 1, the period decreased by 40% with ks.", {"1"}),  # a setting
        ("The sealer Roth 811 exceeded the threshold in 12 of 20 teeth.", {"811"}),  # a name
        ("Roth 811 exceeded the threshold in 45% of teeth.", {"811"}),
        ("In 2010, 45% of patients were smokers.", set()),
        ("Of the four training methods, two improved strength by 20%.", {"four"}),  # a count of methods
        ("In the initial six months, 45% of patients had no co-infection.", {"six months"}),
    ],
)
def test_design_numbers_are_told_from_results(claim: str, design: set[str]) -> None:
    from claimforge.generate.numeric import design_number

    edits = numeric_edits(claim, random.Random(0), max_edits=10)
    assert edits
    assert {e.original for e in edits if design_number(claim, e)} == design
