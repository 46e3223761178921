"""Language models for fluency: the n-gram Kneser-Ney model (trained by training/lm/kneser_ney.py) against
hand-computed probabilities, its storage and the shipped model; the Hugging Face causal LM on a tiny random GPT-2
built here (no download)."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from claimforge.backends.lm import (
    EOS_ID,
    HFCausalLM,
    HFCausalLMConfig,
    NGramLanguageModel,
    NGramLM,
    sliding_windows,
    tokenize,
)
from claimforge.backends.seq2seq import ModelLoadError
from claimforge.registry import registry

# The trainer lives with the training scripts (training/lm/kneser_ney.py), not in the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training" / "lm"))
from kneser_ney import kn_discounts, train_kneser_ney  # noqa: E402

D = (0.5, 1.0, 1.5)  # fixed discounts for the hand computations
TOY = [["a", "b"], ["a", "b"], ["b", "a"]]


def test_tokenize() -> None:
    assert tokenize("The IL-6 level was 1.8 µm (p < 0.05) in p53 mice.") == [
        "the", "il", "-", "<num>", "level", "was", "<num>", "μm", "(", "p", "<", "<num>", ")", "in", "p0", "mice", ".",
    ]  # fmt: skip
    assert tokenize("10,000 cells") == ["<num>", "cells"]


def test_kn_discounts_from_counts_of_counts() -> None:
    # n1=4, n2=2, n3=1, n4=1: Y = 4/(4+4) = 0.5; D1 = 1 - 2*0.5*2/4; D2 = 2 - 3*0.5*1/2; D3+ = 3 - 4*0.5*1/1
    assert kn_discounts(np.array([1, 1, 1, 1, 2, 2, 3, 4, 7])) == pytest.approx((0.5, 1.25, 1.0))


def _p1() -> dict[str, float]:
    # Unigram continuation counts N1+(. w): a {<s>, b} = 2, b {<s>, a} = 2, </s> {a, b} = 2, <unk> 0; total 6.
    # Each count 2 is discounted by D2 = 1: (2 - 1)/6; gamma = 3 * 1 / 6 = 0.5 spread over 4 predictable words.
    seen = 1 / 6 + 0.5 / 4
    return {"a": seen, "b": seen, "</s>": seen, "<unk>": 0.5 / 4}


def test_bigram_kneser_ney_by_hand() -> None:
    lm = train_kneser_ney(TOY, order=2, discounts={1: D, 2: D})
    assert lm.vocab == ["<unk>", "<s>", "</s>", "a", "b"]
    p1 = _p1()
    assert np.exp(lm.unigram_logp[[0, 2, 3, 4]]) == pytest.approx([p1["<unk>"], p1["</s>"], p1["a"], p1["b"]])
    # Bigram counts: <s> a 2, <s> b 1 | a b 2, a </s> 1 | b </s> 2, b a 1; every history has total 3 and
    # gamma = (D2 + D1) / 3 = 0.5.
    p_a_bos = (2 - 1.0) / 3 + 0.5 * p1["a"]
    p_b_a = (2 - 1.0) / 3 + 0.5 * p1["b"]
    p_eos_b = (2 - 1.0) / 3 + 0.5 * p1["</s>"]
    p_a_b = (1 - 0.5) / 3 + 0.5 * p1["a"]
    got = lm.score_sentences([["a", "b"], ["b", "a"]], unk_penalty=False)
    p_b_bos = (1 - 0.5) / 3 + 0.5 * p1["b"]
    p_eos_a = (1 - 0.5) / 3 + 0.5 * p1["</s>"]
    assert got == pytest.approx([math.log(p_a_bos * p_b_a * p_eos_b), math.log(p_b_bos * p_a_b * p_eos_a)], rel=1e-6)
    # unseen bigram "a a": backoff(a) * p(a); unknown word: p(<unk> | <s>) = gamma(<s>) p(<unk>)
    ctx_a = np.exp(lm.next_word_logprobs(["a"]))
    assert ctx_a[lm.word_id["a"]] == pytest.approx(0.5 * p1["a"], rel=1e-6)
    assert ctx_a[0] == pytest.approx(0.5 * p1["<unk>"], rel=1e-6)


def test_trigram_kneser_ney_by_hand() -> None:
    """The middle order uses continuation counts, except for n-grams starting with <s> (raw counts)."""
    lm = train_kneser_ney(TOY, order=3, discounts={1: D, 2: D, 3: D})
    p1 = _p1()
    # bigram level: <s> a 2 and <s> b 1 raw; a b, a </s>, b </s>, b a each have one left neighbour -> 1
    p2_a_bos = (2 - 1.0) / 3 + 0.5 * p1["a"]
    p2_b_bos = (1 - 0.5) / 3 + 0.5 * p1["b"]
    p2_b_a = (1 - 0.5) / 2 + 0.5 * p1["b"]  # history a: b 1, </s> 1 -> total 2, gamma 0.5
    p2_eos_b = (1 - 0.5) / 2 + 0.5 * p1["</s>"]
    p2_b_b = 0.5 * p1["b"]  # unseen after b: gamma(b) = 0.5
    # trigram level: <s> a b 2 (history total 2, gamma D2/2); a b </s> 2; <s> b a 1 (gamma D1/1)
    p3_b_bos_a = (2 - 1.0) / 2 + 0.5 * p2_b_a
    p3_eos_a_b = (2 - 1.0) / 2 + 0.5 * p2_eos_b
    p3_b_bos_b = 0.5 * p2_b_b  # history "<s> b" seen (with a) -> its gamma; b never follows it
    p_eos_b_b = p2_eos_b  # history "b b" never seen: backoff weight 1
    got = lm.score_sentences([["a", "b"], ["b", "b"]], unk_penalty=False)
    assert got == pytest.approx(
        [math.log(p2_a_bos * p3_b_bos_a * p3_eos_a_b), math.log(p2_b_bos * p3_b_bos_b * p_eos_b_b)], rel=1e-6
    )


def _random_corpus(n: int = 300, seed: int = 0) -> list[list[str]]:
    rng = random.Random(seed)
    words = "the a cell drug reduces increases blood pressure protein binds gene expression in of mice".split()  # noqa: SIM905
    sents = [[rng.choice(words) for _ in range(rng.randint(2, 9))] for _ in range(n)]
    return sents + [["the", f"rare{i}", "binds"] for i in range(3)]  # words seen once


@pytest.mark.parametrize("order", [2, 3, 4])
@pytest.mark.parametrize("prune", [None, (1.0, 2.0, 2.0)])
def test_next_word_distribution_sums_to_one(order: int, prune: tuple[float, ...] | None) -> None:
    lm = train_kneser_ney(_random_corpus(), order=order, min_count=3, prune=prune)
    assert lm.meta["unk_types"] > 0  # rare words became <unk>
    if prune:
        assert lm.num_ngrams[-1] < lm.meta["ngrams_before_pruning"][-1]
    for ctx in ([], ["the"], ["the", "drug"], ["blood", "pressure", "in"], ["never", "seen"], ["cell"] * 5):
        probs = np.exp(lm.next_word_logprobs(ctx))
        assert probs.sum() == pytest.approx(1.0, abs=1e-6)
        assert probs[1] == 0.0  # <s> is never predicted
        assert probs[EOS_ID] > 0 and probs[0] > 0


def test_unpruned_backoffs_are_the_interpolation_weights() -> None:
    """Recomputing the backoffs with a zero pruning threshold gives the Kneser-Ney gammas back."""
    corpus = _random_corpus()
    plain = train_kneser_ney(corpus, order=3)
    recomputed = train_kneser_ney(corpus, order=3, prune=(1e-300, 1e-300))
    assert recomputed.num_ngrams == plain.num_ngrams
    np.testing.assert_allclose(recomputed.unigram_backoff, plain.unigram_backoff, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(recomputed.backoff[0], plain.backoff[0], rtol=1e-5, atol=1e-6)


def test_save_load_round_trip_is_exact(tmp_path: Path) -> None:
    lm = train_kneser_ney(_random_corpus(), order=3, min_count=2, prune=(1.0, 1.0), meta={"note": "toy"})
    for dtype in (np.float32, np.float16):
        model = lm.astype(dtype)
        model.save(tmp_path / str(dtype.__name__))
        back = NGramLM.load(tmp_path / str(dtype.__name__))
        assert back.vocab == model.vocab and back.order == 3 and back.meta == model.meta
        for name, arr in model.arrays().items():
            assert back.arrays()[name].dtype == arr.dtype
            np.testing.assert_array_equal(back.arrays()[name], arr)
        sents = _random_corpus(20, seed=1)
        np.testing.assert_array_equal(back.score_sentences(sents), model.score_sentences(sents))
    # the stored arrays are plain numbers (loadable without pickle)
    with np.load(tmp_path / "float32" / "arrays.npz", allow_pickle=False) as z:
        assert all(z[k].dtype != object for k in z.files)


def test_ngram_component_caches_and_counts_tokens(tmp_path: Path) -> None:
    lm = train_kneser_ney(_random_corpus(), order=3)
    lm.save(tmp_path / "m")
    built = registry.build("lm", {"name": "ngram", "path": str(tmp_path / "m"), "cache_dir": str(tmp_path / "c")})
    assert isinstance(built, NGramLanguageModel)
    texts = ["The drug reduces blood pressure.", "Gene expression in mice. The cell binds a protein.", ""]
    first = built.log_prob(texts)
    # 6 + 1 tokens; two sentences of 5 and 6 tokens, each with </s>; an empty text still ends (</s>)
    assert [n for _, n in first] == [7, 13, 1]
    expected = lm.score_sentences([tokenize(texts[0])])[0]
    assert first[0][0] == pytest.approx(expected)
    assert len(built._cache) == 3

    def boom(batch: list[str]) -> list[tuple[float, int]]:
        raise AssertionError("should have been cached")

    built._score_batch = boom  # type: ignore[method-assign]
    assert built.log_prob(texts) == first
    ppl = built.perplexity(texts)
    assert ppl[0] == pytest.approx(math.exp(-first[0][0] / 7))


def test_frequency_unigram_and_slor(tmp_path: Path) -> None:
    corpus = _random_corpus()
    lm = train_kneser_ney(corpus, order=3, min_count=2)
    # the stored word-frequency table is the order-1 model (raw counts) on the same vocabulary
    assert lm.frequency_logp is not None
    np.testing.assert_allclose(lm.frequency_logp, train_kneser_ney(corpus, order=1, min_count=2).unigram_logp)
    assert np.exp(lm.frequency_logp).sum() == pytest.approx(1.0, abs=1e-6)
    lm.save(tmp_path / "m")
    built = registry.build("lm", {"name": "ngram", "path": str(tmp_path / "m"), "use_cache": False})
    text = "The drug reduces blood pressure in rare0 mice."
    toks = tokenize(text)
    ids = lm.ids(toks)
    lp1 = float(sum(lm.frequency_logp[i] for i in ids) + lm.frequency_logp[EOS_ID]) - lm.log_unk_types * ids.count(0)
    lp, n = built.log_prob([text])[0]
    assert built.slor([text])[0] == pytest.approx((lp - lp1) / n, rel=1e-5)
    # word_frequency: the table's relative frequency, 0.0 for an unknown word, None without a table
    word = toks[1]
    assert built.word_frequency(word) == pytest.approx(math.exp(float(lm.frequency_logp[lm.word_id[word]])))
    assert built.word_frequency("zzzunknownzzz") == 0.0
    built.model.frequency_logp = None
    assert built.word_frequency(word) is None


def test_shipped_model_prefers_fluent_word_order() -> None:
    lm = registry.build("lm", {"name": "ngram", "use_cache": False})
    assert lm.model.order == 4 and len(lm.model.vocab) > 10_000
    fluent, scrambled = lm.perplexity(["The drug reduces blood pressure.", "The drug blood reduces pressure."])
    assert fluent < scrambled
    assert lm.model_id.startswith("ngram:lm-ngram@")


def test_registry_names() -> None:
    assert {"ngram", "hf-causal"} <= set(registry.names("lm"))


# -- hf-causal ---------------------------------------------------------------------------------------------

WORDS = "the drug reduces blood pressure in mice cells bind a protein gene expression increases of and".split()  # noqa: SIM905


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    directory = tmp_path_factory.mktemp("tiny-gpt2")
    vocab = {"<|endoftext|>": 0, "[UNK]": 1, **{w: i + 2 for i, w in enumerate(WORDS)}}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="[UNK]"
    )
    config = GPT2Config(
        vocab_size=len(vocab), n_positions=64, n_embd=16, n_layer=2, n_head=2, bos_token_id=0, eos_token_id=0,
        initializer_range=0.3,
    )  # fmt: skip
    torch.manual_seed(0)
    GPT2LMHeadModel(config).save_pretrained(directory, safe_serialization=True)
    tokenizer.save_pretrained(directory)
    yield directory
    torch.set_num_threads(threads)


def _hand_log_prob(directory: Path, text: str) -> tuple[float, int]:
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(directory)
    ids = [0] + [2 + WORDS.index(w) if w in WORDS else 1 for w in text.split()]
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0]
    lp = torch.log_softmax(logits.double(), dim=-1)
    return float(sum(lp[i - 1, ids[i]] for i in range(1, len(ids)))), len(ids) - 1


TEXTS = [
    "the drug reduces blood pressure",
    "mice",
    "the drug blood reduces pressure in mice and cells",
    "gene expression increases",
    "a protein unknownword binds",
]


def test_hf_causal_matches_logits_by_hand(tiny_gpt2: Path, tmp_path: Path) -> None:
    lm = registry.build("lm", {"name": "hf-causal", "model": str(tiny_gpt2), "use_cache": False})
    assert isinstance(lm, HFCausalLM)
    got = lm.log_prob(TEXTS)
    for text, (lp, n) in zip(TEXTS, got, strict=True):
        want_lp, want_n = _hand_log_prob(tiny_gpt2, text)
        assert n == want_n == len(text.split())  # BOS prepended: every word is scored
        assert lp == pytest.approx(want_lp, abs=1e-4)
    ppl = lm.perplexity(TEXTS)
    assert ppl == pytest.approx(np.exp([-lp / n for lp, n in got]))


def test_hf_causal_batching_and_padding_do_not_change_scores(tiny_gpt2: Path) -> None:
    one = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), batch_size=1, use_cache=False)).log_prob(TEXTS)
    many = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), batch_size=8, use_cache=False)).log_prob(TEXTS)
    assert [n for _, n in one] == [n for _, n in many]
    assert [lp for lp, _ in one] == pytest.approx([lp for lp, _ in many], abs=1e-4)


def test_sliding_windows_cover_each_target_once() -> None:
    assert sliding_windows(5, 8, 4) == [(0, 5, 1)]
    assert sliding_windows(1, 8, 4) == []
    wins = sliding_windows(20, 8, 3)
    targets = [t for _, end, first in wins for t in range(first, end)]
    assert targets == list(range(1, 20))
    assert all(end - begin <= 8 for begin, end, _ in wins)


def test_hf_causal_sliding_window(tiny_gpt2: Path) -> None:
    import torch

    full = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), use_cache=False))
    # short texts: a window longer than every text is the full computation
    windowed = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), max_length=12, stride=5, use_cache=False))
    short = TEXTS[:2] + TEXTS[3:]
    assert [lp for lp, _ in windowed.log_prob(short)] == pytest.approx([lp for lp, _ in full.log_prob(short)], abs=1e-4)
    # a long text: every token scored once, each with the context of its window
    long_text = " ".join(WORDS * 2)
    lp, n = windowed.log_prob([long_text])[0]
    assert n == len(long_text.split())
    ids = windowed.encode([long_text])[0]
    _, model = windowed.components
    want = 0.0
    for begin, end, first in sliding_windows(len(ids), 12, 5):
        with torch.no_grad():
            logits = model(torch.tensor([ids[begin:end]])).logits[0].double()
        logp = torch.log_softmax(logits, dim=-1)
        want += float(sum(logp[t - begin - 1, ids[t]] for t in range(first, end)))
    assert lp == pytest.approx(want, abs=1e-4)
    assert lp != pytest.approx(full.log_prob([long_text])[0][0], abs=1e-3)  # less context than the full pass


def test_hf_causal_cache(tiny_gpt2: Path, tmp_path: Path) -> None:
    lm = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), cache_dir=str(tmp_path)))
    first = lm.log_prob(TEXTS[:3] + TEXTS[:1])
    assert len(lm._cache) == 3  # deduplicated

    def boom(batch: list[str]) -> list[tuple[float, int]]:
        raise AssertionError("should have been cached")

    lm._score_batch = boom  # type: ignore[method-assign]
    again = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), cache_dir=str(tmp_path)))
    again._score_batch = boom  # type: ignore[method-assign]
    assert again.log_prob(TEXTS[:3]) == first[:3]
    assert again.model_id == lm.model_id and "@" in lm.model_id  # keyed by the weights' digest
    other = HFCausalLM(HFCausalLMConfig(model=str(tiny_gpt2), cache_dir=str(tmp_path), max_length=8))
    assert other._key(TEXTS[0]) != lm._key(TEXTS[0])


def test_hf_causal_refuses_pickled_weights(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"model_type": "gpt2"}')
    (tmp_path / "pytorch_model.bin").write_bytes(b"not unpickled")
    lm = HFCausalLM(HFCausalLMConfig(model=str(tmp_path), use_cache=False))
    with pytest.raises(ModelLoadError, match="safetensors"):
        lm.log_prob(["the drug"])
