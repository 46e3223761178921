"""The OpenAI-compatible chat client and the ``llm`` QA2D converter, against a local scripted server."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from claimforge.backends.llm import (
    FailedReply,
    LLMError,
    OpenAIChatConfig,
    OpenAIChatLLM,
    usable_reply,
)
from claimforge.registry import RegistryError, registry
from claimforge.types import QA2DRequest

SECRET = "sk-test-Zq8cV3mN1pL0xY7w"
KEY_ENV = "CLAIMFORGE_TEST_LLM_KEY"


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant text of a 200 (default: echo the last user message)
    body: Any = None  # a raw body instead (dict -> JSON, str -> as is)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


class FakeServer:
    """``POST /v1/chat/completions``: replies from ``script`` in order, then from ``responder``."""

    def __init__(self) -> None:
        self.script: list[Reply] = []
        self.responder: Callable[[dict[str, Any]], Reply] = lambda body: Reply()
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.loads(raw)
                with server.lock:
                    server.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    reply = server.script.pop(0) if server.script else None
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    reply = reply or server.responder(body)
                    time.sleep(reply.delay)
                    self._send(reply, body)
                finally:
                    with server.lock:
                        server.in_flight -= 1

            def _send(self, reply: Reply, body: dict[str, Any]) -> None:
                if self.path != "/v1/chat/completions":
                    reply = Reply(404, body={"error": {"message": f"no route {self.path}"}})
                if reply.body is not None:
                    payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                else:
                    content = reply.content
                    if content is None:
                        content = "echo: " + body["messages"][-1]["content"]
                    payload = json.dumps(
                        {
                            "id": "x",
                            "object": "chat.completion",
                            "model": body["model"],
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop",
                                }
                            ],
                        }
                    )
                data = payload.encode("utf-8")
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that timed out and hung up: expected in the timeout test

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def count(self) -> int:
        with self.lock:
            return len(self.requests)


@pytest.fixture
def server(serve) -> FakeServer:  # type: ignore[no-untyped-def]
    return serve(FakeServer(), KEY_ENV, SECRET)


def _config(server: FakeServer, tmp_path: Path, **kw: Any) -> dict[str, Any]:
    return {
        "base_url": server.base_url,
        "model": "tiny-chat",
        "api_key_env": KEY_ENV,
        "backoff": 0.01,
        "timeout": 2.0,
        "cache_dir": str(tmp_path / "cache"),
        **kw,
    }


def _client(server: FakeServer, tmp_path: Path, **kw: Any) -> OpenAIChatLLM:
    return OpenAIChatLLM(OpenAIChatConfig(**_config(server, tmp_path, **kw)))


def _conv(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


# -- the chat client --------------------------------------------------------------------------------


def test_request_carries_key_model_and_sampling(server: FakeServer, tmp_path: Path) -> None:
    llm = registry.build("llm", {"name": "openai-compatible", **_config(server, tmp_path, max_tokens=32)})
    assert llm.complete([_conv("hello")]) == ["echo: hello"]
    (req,) = server.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["Authorization"] == f"Bearer {SECRET}"
    assert req["body"]["model"] == "tiny-chat"
    assert req["body"]["temperature"] == 0.0
    assert req["body"]["max_tokens"] == 32
    assert req["body"]["messages"] == _conv("hello")


def test_no_key_in_env_sends_no_authorization(
    server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    assert _client(server, tmp_path).complete([_conv("hi")]) == ["echo: hi"]
    assert "Authorization" not in server.requests[0]["headers"]


def test_key_never_leaks(server: FakeServer, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # including httpx / httpcore debug logs
    server.script = [
        Reply(500, body=f"upstream said: bad key {SECRET}"),
        Reply(401, body={"error": {"message": f"Incorrect API key provided: {SECRET}"}}),
    ]
    llm = _client(server, tmp_path)
    with pytest.raises(LLMError) as err:
        llm.complete([_conv("hello")])
    assert server.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    message = str(err.value)
    assert "401" in message and "Incorrect API key provided" in message
    for text in (message, repr(err.value), repr(llm), str(llm.config), repr(llm.config)):
        assert SECRET not in text
    assert any("retry 1/5" in r.getMessage() for r in caplog.records)
    assert all(SECRET not in r.getMessage() for r in caplog.records)
    assert SECRET not in caplog.text

    qa2d = registry.build("qa2d", {"name": "llm", **_config(server, tmp_path)})
    assert SECRET not in repr(qa2d) and SECRET not in qa2d.model_id
    # ... nor in what the cache stores (a successful call, then the raw database files).
    qa2d.convert([QA2DRequest(question="What is it?", answer="a cell")])
    blobs = b"".join(p.read_bytes() for p in (tmp_path / "cache").iterdir())
    assert blobs and SECRET.encode() not in blobs


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503])
def test_transient_status_is_retried(server: FakeServer, tmp_path: Path, status: int) -> None:
    server.script = [Reply(status, body={"error": {"message": "try later"}})]
    assert _client(server, tmp_path).complete([_conv("x")]) == ["echo: x"]
    assert server.count == 2


def test_retry_after_is_honoured(server: FakeServer, tmp_path: Path) -> None:
    server.script = [
        Reply(429, headers={"Retry-After": "0.2"}, body={"error": {"message": "slow down"}}),
        Reply(429, headers={"retry-after-ms": "100"}, body={"error": {"message": "slow down"}}),
    ]
    # A huge backoff would take minutes: finishing quickly proves the server's delay was used instead.
    llm = _client(server, tmp_path, backoff=100.0)
    start = time.monotonic()
    assert llm.complete([_conv("x")]) == ["echo: x"]
    elapsed = time.monotonic() - start
    assert server.count == 3
    assert 0.3 <= elapsed < 2.0


def test_client_errors_fail_fast(server: FakeServer, tmp_path: Path) -> None:
    server.script = [Reply(400, body={"error": {"message": "model 'tiny-chat' does not exist"}})]
    with pytest.raises(LLMError) as err:
        _client(server, tmp_path).complete([_conv("x")])
    assert server.count == 1
    assert err.value.status == 400
    message = str(err.value)
    for part in ("400", "does not exist", server.base_url, "tiny-chat"):
        assert part in message


def test_timeout_is_retried(server: FakeServer, tmp_path: Path) -> None:
    server.script = [Reply(delay=1.0, content="too late")]
    start = time.monotonic()
    assert _client(server, tmp_path, timeout=0.2).complete([_conv("x")]) == ["echo: x"]
    assert server.count == 2
    assert time.monotonic() - start < 1.0


def test_retries_stop_at_max_retries(server: FakeServer, tmp_path: Path) -> None:
    server.responder = lambda body: Reply(503, body="Service Unavailable")
    with pytest.raises(LLMError) as err:
        _client(server, tmp_path, max_retries=2).complete([_conv("x")])
    assert server.count == 3
    message = str(err.value)
    assert "after 3 attempt(s)" in message and "503" in message and "Service Unavailable" in message
    assert err.value.status == 503


def test_connection_refused_is_retried_then_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv(KEY_ENV, SECRET)
    config = OpenAIChatConfig(
        base_url=f"http://127.0.0.1:{port}/v1",
        model="m",
        api_key_env=KEY_ENV,
        max_retries=2,
        backoff=0.01,
        use_cache=False,
    )
    with pytest.raises(LLMError, match=r"after 3 attempt\(s\).*ConnectError") as err:
        OpenAIChatLLM(config).complete([_conv("x")])
    assert f"127.0.0.1:{port}" in str(err.value) and SECRET not in str(err.value)


def test_malformed_success_body_is_retried(server: FakeServer, tmp_path: Path) -> None:
    # a proxy's login page or a truncated JSON body in a 200 is a transient fault: asked again
    server.script = [Reply(body="<html>proxy login</html>"), Reply(body='{"choices": [')]
    assert _client(server, tmp_path).complete([_conv("x")]) == ["echo: x"]
    assert server.count == 3


def test_malformed_success_body_is_an_error_when_it_persists(server: FakeServer, tmp_path: Path) -> None:
    server.responder = lambda body: Reply(body="<html>proxy login</html>")
    with pytest.raises(LLMError, match=r"after 3 attempt\(s\).*unexpected response.*proxy login"):
        _client(server, tmp_path, max_retries=2).complete([_conv("x")])
    assert server.count == 3


def test_order_is_preserved_with_concurrency(server: FakeServer, tmp_path: Path) -> None:
    # Early conversations answer slowest, so completions arrive in reverse order.
    server.responder = lambda body: Reply(delay=0.02 * (8 - int(body["messages"][-1]["content"])))
    texts = [str(i) for i in range(8)]
    out = _client(server, tmp_path, concurrency=4).complete([_conv(t) for t in texts])
    assert out == [f"echo: {t}" for t in texts]
    assert server.count == 8
    assert server.max_in_flight > 1


def test_cache_makes_a_rerun_free(server: FakeServer, tmp_path: Path) -> None:
    convs = [_conv("a"), _conv("b"), _conv("a")]
    first = _client(server, tmp_path).complete(convs)
    assert first == ["echo: a", "echo: b", "echo: a"]
    assert server.count == 2  # the duplicate was asked once
    # A new client (as in a rerun) on the same cache makes no request at all.
    assert _client(server, tmp_path).complete(convs) == first
    assert server.count == 2
    # Other sampling parameters are other cache entries; so is disabling the cache.
    _client(server, tmp_path, max_tokens=17).complete([_conv("a")])
    assert server.count == 3
    _client(server, tmp_path, use_cache=False).complete([_conv("a")])
    assert server.count == 4


def test_one_refused_request_costs_one_item_not_the_run(server: FakeServer, tmp_path: Path) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if body["messages"][-1]["content"] == "bad":
            return Reply(400, body={"error": {"message": "context length exceeded"}}, delay=0.05)
        return Reply()

    server.responder = respond
    out = _client(server, tmp_path, concurrency=2).complete([_conv("good"), _conv("bad"), _conv("also good")])
    assert out[0] == "echo: good" and out[2] == "echo: also good"
    assert isinstance(out[1], FailedReply) and out[1] == ""
    assert "400" in out[1].error and "context length exceeded" in out[1].error and out[1].status == 400
    assert server.count == 3
    # the answers are cached; the refused one is not, so a rerun asks for it (and only it) again
    _client(server, tmp_path).complete([_conv("good"), _conv("bad"), _conv("also good")])
    assert server.count == 4


@pytest.mark.parametrize("status", [401, 403, 404])
def test_key_and_model_errors_still_fail_the_run(server: FakeServer, tmp_path: Path, status: int) -> None:
    server.responder = lambda body: Reply(status, body={"error": {"message": "no"}})
    with pytest.raises(LLMError) as err:
        _client(server, tmp_path, concurrency=2).complete([_conv("a"), _conv("b")])
    assert err.value.status == status


def test_every_request_refused_is_a_run_error(server: FakeServer, tmp_path: Path) -> None:
    server.responder = lambda body: Reply(400, body={"error": {"message": "unknown parameter"}})
    with pytest.raises(LLMError, match="all 3 requests were refused.*unknown parameter"):
        _client(server, tmp_path, concurrency=2).complete([_conv("a"), _conv("b"), _conv("c")])


@pytest.mark.parametrize("reply", ["", "   \n\t", "<think>still reasoning about it", "<think>done</think>  "])
def test_empty_or_unfinished_replies_are_never_cached(server: FakeServer, tmp_path: Path, reply: str) -> None:
    server.script = [Reply(content=reply)]
    assert _client(server, tmp_path).complete([_conv("x")]) == [reply]
    assert not usable_reply(reply)
    # the server is fixed: the rerun asks again and gets (and caches) a real answer
    assert _client(server, tmp_path).complete([_conv("x")]) == ["echo: x"]
    assert _client(server, tmp_path).complete([_conv("x")]) == ["echo: x"]
    assert server.count == 2


def test_url_credentials_never_replace_the_bearer_key(server: FakeServer, tmp_path: Path) -> None:
    url = server.base_url.replace("http://", "http://alice:pw123456@")
    llm = _client(server, tmp_path, base_url=url)
    assert llm.complete([_conv("x")]) == ["echo: x"]
    assert server.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"


def test_url_credentials_are_basic_auth_without_a_key(
    server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import base64

    monkeypatch.delenv(KEY_ENV)
    url = server.base_url.replace("http://", "http://alice:pw123456@")
    assert _client(server, tmp_path, base_url=url).complete([_conv("x")]) == ["echo: x"]
    expected = "Basic " + base64.b64encode(b"alice:pw123456").decode()
    assert server.requests[0]["headers"]["Authorization"] == expected


def test_config_validation() -> None:
    with pytest.raises(RegistryError, match="base_url"):
        registry.build("llm", {"name": "openai-compatible", "model": "m", "base_url": "localhost:8000"})
    with pytest.raises(RegistryError, match="api_key"):
        registry.build("llm", {"name": "openai-compatible", "model": "m", "api_key": SECRET})


def test_credentials_in_the_base_url_never_reach_ids_reprs_or_manifests() -> None:
    from claimforge.backends.llm import OpenAIChatConfig, OpenAIChatLLM, safe_url
    from claimforge.redact import redact_tree

    url = "https://alice:s3cret@llm.example.org:8443/v1"
    assert safe_url(url) == "https://llm.example.org:8443/v1"
    assert safe_url("http://localhost:8000/v1") == "http://localhost:8000/v1"
    llm = OpenAIChatLLM(OpenAIChatConfig(base_url=url, model="m", use_cache=False))
    assert "s3cret" not in llm.model_id and "s3cret" not in repr(llm) and "s3cret" not in llm._where()
    assert redact_tree({"qa2d": {"name": "llm", "base_url": url}, "x": [{"base_url": url}]}) == {
        "qa2d": {"name": "llm", "base_url": "https://***@llm.example.org:8443/v1"},
        "x": [{"base_url": "https://***@llm.example.org:8443/v1"}],
    }


def test_cache_prune_drops_replies_without_an_answer(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from claimforge.cache import DiskCache
    from claimforge.cli import app

    cache = DiskCache(tmp_path, "llm")
    cache.put_many({"a": b"A claim.", "b": b"", "c": b"  \n", "d": b"<think>hmm", "e": b"<think>x</think>Yes."})
    cache.close()
    res = CliRunner().invoke(app, ["cache", "prune", "--cache-dir", str(tmp_path)])
    assert res.exit_code == 0 and "dropped 3 of 5" in " ".join(res.output.split())  # the console wraps lines
    kept = DiskCache(tmp_path, "llm").get_many(["a", "b", "c", "d", "e"])
    assert sorted(kept) == ["a", "e"]
