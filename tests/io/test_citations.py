"""Citation text cleanup (claimforge.io.citations): markers and callouts out of citing sentences, citances split
from their passages."""

from __future__ import annotations

import pytest

from claimforge.io.citations import split_citance, strip_citation_markers


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("cell growth [<|cit|>].", "cell growth."),
        ("apoptosis and metastasis [<|multi_cit|>].", "apoptosis and metastasis."),
        ("targets of p53 tumor suppression [<|multi_cit|>,7].", "targets of p53 tumor suppression."),
        ("immune cells [<|multi_cit|>, 14].", "immune cells."),
        ("in mice [8, <|multi_cit|>, 20].", "in mice."),
        ("in mice [<|multi_cit|>–11] and rats.", "in mice and rats."),
        ("in mice [<|multi_cit|>-26].", "in mice."),
        ("it works [<|cit|>,<|other_cit|>].", "it works."),
        ("it works [<|other_cit|>,18,<|other_cit|>], too.", "it works, too."),
        ("marked [<|cit|>••] here.", "marked here."),
        ("an inhibitor of complex I<|cit|>.", "an inhibitor of complex I."),
        ("bare <|cit|> token in the middle.", "bare token in the middle."),
        ("in colon cancer cells (<|cit|>).", "in colon cancer cells."),
        ("( <|cit|> ) spaced.", "spaced."),
        ("metformin (<|cit|>; <|other_cit|>) works.", "metformin works."),
        ("metformin (<|multi_cit|>; Baldridge et al., 2010).", "metformin."),
        ("metformin (Smith et al., <|other_cit|>; Jones and Li, <|multi_cit|>).", "metformin."),
        ("aging (Spilman et al., 2010[<|cit|>]).", "aging."),
        ("rotenone (Fig.\u00a0<|other_cit|>), suggesting", "rotenone, suggesting"),
        ("shown (Figures <|other_cit|> and <|other_cit|>).", "shown."),
        ("shown (e.g. [<|multi_cit|>–55]).", "shown."),
        ("shown ([<|multi_cit|>] but see [<|other_cit|>]).", "shown."),
        ("repair (NHEJ; <|multi_cit|>) happens.", "repair (NHEJ) happens."),
        ("a virus (e.g. Prevotella in arthritis; <|cit|>) here.", "a virus (e.g. Prevotella in arthritis) here."),
        ("failure,<|other_cit|> and stroke<|other_cit|>.", "failure, and stroke."),
        ("Stat3<|other_cit|>, p53<|cit|>, EZH2<|other_cit|> and more.", "Stat3, p53, EZH2 and more."),
        ("growth, [<|cit|>], and death.", "growth, and death."),
        ("growth, [<|cit|>].", "growth."),
        ("a dose [e.g., 3.8 log RNA copies/ml (<|cit|>)] b", "a dose [e.g., 3.8 log RNA copies/ml] b"),
        ("ordinary citations stay [12] (Smith et al., 2010).", "ordinary citations stay [12] (Smith et al., 2010)."),
        ("admission (3% to 43%) (Table <|other_cit|>,18,<|other_cit|>].", "admission (3% to 43%)."),  # sic
        ("in vivo (<|multi_cit|>–20) and", "in vivo and"),
        ("species (3<|multi_cit|>–8).", "species."),
        ("no markers at all.", "no markers at all."),
        ("[<|cit|>]", ""),
    ],
)
def test_strip_citation_markers(raw: str, clean: str) -> None:
    assert strip_citation_markers(raw) == clean


# --------------------------------------------------------------------------------------------------
# Citances spanning several sentences


@pytest.mark.parametrize(
    ("raw", "before", "sentence", "after", "anchor"),
    [
        ("One sentence [<|cit|>].", (), "One sentence.", (), "target"),
        (
            "It acts via miR-211.<|cit|> Liu et al. show that it inhibits growth.",
            (),
            "It acts via miR-211.",
            ("Liu et al. show that it inhibits growth.",),
            "target",
        ),
        (
            "Background here.<|other_cit|> The cited finding holds [<|multi_cit|>]. A later sentence.",
            ("Background here.",),
            "The cited finding holds.",
            ("A later sentence.",),
            "target",
        ),
        (  # the full stop was lost: the token ends the sentence
            "Results are shown in <|multi_cit|> It must be noted that this is rare.",
            (),
            "Results are shown in",
            ("It must be noted that this is rare.",),
            "target",
        ),
        (  # numbers glued to the token are citations too
            "FGF21 predicts steatosis.<|cit|>,35 The paradox may be explained.36",
            (),
            "FGF21 predicts steatosis.",
            ("The paradox may be explained.36",),
            "target",
        ),
        (  # the data repeats the sentence with its reference number
            "Similar findings were reported by Menni et al.<|cit|> Similar findings were reported by Menni et al.8",
            (),
            "Similar findings were reported by Menni et al.",
            (),
            "target",
        ),
        (  # no target token: the sentence with any token
            "Vulnerable groups are affected.<|other_cit|> Our analysis found nothing.",
            (),
            "Vulnerable groups are affected.",
            ("Our analysis found nothing.",),
            "other",
        ),
        ("No tokens. Two sentences.", (), "No tokens. Two sentences.", (), "none"),
        (  # "et al." and "Fig." do not end sentences
            "As Smith et al. (2010) showed in Fig. 2, it grows [<|cit|>]. Next one.",
            (),
            "As Smith et al. (2010) showed in Fig. 2, it grows.",
            ("Next one.",),
            "target",
        ),
    ],
)
def test_split_citance(raw: str, before: tuple[str, ...], sentence: str, after: tuple[str, ...], anchor: str) -> None:
    b, s, a, info = split_citance(raw)
    assert (b, s, a) == (before, sentence, after)
    assert info["anchor"] == anchor


def test_split_citance_info() -> None:
    _, _, _, info = split_citance("A.<|other_cit|> B is cited [<|cit|>]. C follows. D too.")
    assert info == {"n_sentences": 4, "anchor": "target", "span": [1, 1]}
    _, s, _, info = split_citance("X is true.<|cit|> Y is true [<|multi_cit|>]. Z.")
    assert s == "X is true. Y is true." and info["span"] == [0, 1]  # several target sentences: the span
    _, _, _, info = split_citance("X holds.<|cit|> X holds.6")
    assert info["repeats_dropped"] == 1
