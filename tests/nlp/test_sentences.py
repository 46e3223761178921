"""The one sentence splitter (claimforge.nlp.sentences)."""

from __future__ import annotations

import pytest

from claimforge.nlp.sentences import split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("One. Two.", ["One.", "Two."]),
        ("A b. C d? 3 e.\nNew para", ["A b.", "C d?", "3 e.", "New para"]),
        ("  spaced   out.\nNew  paragraph  ", ["spaced out.", "New paragraph"]),
        ("", []),
        # abbreviations and "et al."
        ("Low birth weight (de Onis et al. 2004) . Next.", ["Low birth weight (de Onis et al. 2004) .", "Next."]),
        ("Shown by Ginestier et al. [16] in tumours.", ["Shown by Ginestier et al. [16] in tumours."]),
        ("Hebert et al. (24) showed it.", ["Hebert et al. (24) showed it."]),
        ("Smith et al. showed it. Fig. 2 shows more!", ["Smith et al. showed it.", "Fig. 2 shows more!"]),
        ("It was seen by Smith et al. The end.", ["It was seen by Smith et al.", "The end."]),
        ("Bonds formed (Fig. 6a) [39] .", ["Bonds formed (Fig. 6a) [39] ."]),
        ("Tools (e.g. ITNs and IRS) help. Then e.g. this.", ["Tools (e.g. ITNs and IRS) help.", "Then e.g. this."]),
        ("It costs Rs. 350 per month. Next.", ["It costs Rs. 350 per month.", "Next."]),
        ("On Mount St. Helens, it melted glaciers.", ["On Mount St. Helens, it melted glaciers."]),
        ("seen in the trial (fig. S4). Next.", ["seen in the trial (fig. S4).", "Next."]),
        ("See Fig.\nResults follow.", ["See Fig.", "Results follow."]),  # never joined across a line break
        ("Smith et al. \u201cThe title\u201d says so.", ["Smith et al.", "\u201cThe title\u201d says so."]),
        ("Is it malignant? No. The lesion is benign.", ["Is it malignant?", "No.", "The lesion is benign."]),
        ("It is No. 5 here.", ["It is No. 5 here."]),
        ("3 and 5, resp. The next step.", ["3 and 5, resp.", "The next step."]),
        ("It ends with Smith et al.", ["It ends with Smith et al."]),
        ("Smith et al. (Nature 2010) showed it.", ["Smith et al. (Nature 2010) showed it."]),
        (" \n\t ", []),
        # units, a capital before the period, closing and opening quotes and brackets end sentences
        ("Cells were spun for 30 min. Pellets were kept.", ["Cells were spun for 30 min.", "Pellets were kept."]),
        ("Levels of vitamin D. Patients were older.", ["Levels of vitamin D.", "Patients were older."]),
        ("(Be careful!) What happens?", ["(Be careful!)", "What happens?"]),
        ("It says “stay away!” Bees dance.", ["It says “stay away!”", "Bees dance."]),
        ("classed as thin skin. “Thick skin” is rare.", ["classed as thin skin.", "“Thick skin” is rare."]),
        ("Notable for ST elevation in aVF. He was treated.", ["Notable for ST elevation in aVF.", "He was treated."]),
        # line separators and control characters
        (
            "Oxygenic photosynthesis \u2028 Compared to archaea, it differs.",
            ["Oxygenic photosynthesis", "Compared to archaea, it differs."],
        ),
        ("A \x00broken\x1b export. Next.", ["A broken export.", "Next."]),
        ("The results were\x0cconsistent.", ["The results were consistent."]),
        ("One word\x85another.", ["One word another."]),
    ],
)
def test_split_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences


def test_long_runs_of_joins() -> None:
    """20,000 joined pieces: milliseconds, where searching the growing sentence again per piece took minutes."""
    assert len(split_sentences("Smith et al. (2010) x " * 20_000)) == 1
    assert len(split_sentences("Dr. " * 20_000)) == 1
