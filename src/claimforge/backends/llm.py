"""A chat client for any OpenAI-compatible server (vLLM, Ollama, llama.cpp server, OpenAI): retried, cached.
The ``llm`` QA2D converter built on it is in :mod:`claimforge.generate.qa2d.llm`.
"""

from __future__ import annotations

import base64
import email.utils
import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from typing import Any

import httpx
from pydantic import Field, field_validator

from claimforge.cache import CachedComponentConfig, fingerprint
from claimforge.redact import url_userinfo, url_without_userinfo
from claimforge.registry import registry

log = logging.getLogger(__name__)

Message = dict[str, Any]

# 408 timeout, 409 conflict (OpenAI uses it for transient lock errors), 429 rate limit; all 5xx.
_RETRY_STATUS = frozenset({408, 409, 429})
# A client error other than these is about one request (context too long, a bad prompt): that item fails, the
# run goes on. 401/403 (the key) and 404 (no such model or endpoint) fail the run, and so does a batch in which
# every request was refused (the problem is then the server or the model, not an item).
_RUN_STATUS = frozenset({401, 403, 404})
_RETRY_EXC = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


class LLMError(RuntimeError):
    """A chat request failed for good (a non-retryable status, or the retries ran out)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMItemError(LLMError):
    """The server refused one request (a 4xx about that request): only its item fails."""


class FailedReply(str):
    """The reply of a request that failed for good (``complete``'s placeholder, an empty string): ``error`` is
    the server's message. Never cached, so a rerun asks again."""

    error: str
    status: int | None

    def __new__(cls, error: str, status: int | None = None) -> FailedReply:
        obj = super().__new__(cls, "")
        obj.error = error
        obj.status = status
        return obj


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def without_thinking(text: str, sep: str = "") -> str:
    """A reply without its finished ``<think>`` blocks (each replaced by ``sep``); an unfinished one stays, so
    callers can tell a reply cut off while reasoning."""
    return _THINK.sub(sep, text)


def usable_reply(text: str) -> bool:
    """A reply worth caching: some text outside ``<think>`` blocks, and no reasoning left unfinished.
    Empty, whitespace-only and cut-off replies are returned to the caller but never cached."""
    if isinstance(text, FailedReply):
        return False
    visible = _THINK.sub("", text)
    return bool(visible.strip()) and "<think>" not in visible.lower()


class OpenAIChatConfig(CachedComponentConfig):
    base_url: str = "http://localhost:8000/v1"
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(default=0.0, ge=0.0)
    max_tokens: int = Field(default=256, ge=1)
    timeout: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=5, ge=0)
    backoff: float = Field(default=1.0, ge=0)
    max_backoff: float = Field(default=60.0, ge=0)
    concurrency: int = Field(default=4, ge=1)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, v: str) -> str:
        if not v.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https:// (got {v!r})")
        return v.rstrip("/")


class _Secret:
    """Holds the API key so that no repr, log line or traceback local prints it."""

    __slots__ = ("_value",)

    def __init__(self, value: str | None) -> None:
        self._value = value or None

    def reveal(self) -> str | None:
        return self._value

    def redact(self, text: str) -> str:
        return text.replace(self._value, "***") if self._value else text

    def __repr__(self) -> str:
        return "<secret>" if self._value else "<no key>"

    __str__ = __repr__


def excerpt(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut at ``limit`` characters (for error messages and reject details)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``Retry-After``: seconds or a date)."""
    ms = response.headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


safe_url = url_without_userinfo  # ids and messages name the server without credentials


class OpenAIChatLLM:
    """Chat completions from an OpenAI-compatible ``/chat/completions`` endpoint.

    ``complete`` takes a batch of conversations (lists of ``{"role", "content"}`` messages) and returns
    the assistant texts in order. Requests run on a thread pool of ``concurrency`` workers; transient
    failures (connection errors, timeouts, 408/409/429/5xx) are retried with exponential backoff and
    jitter, honouring ``Retry-After``. Responses are cached on disk, keyed by server, model, sampling
    parameters and messages (never the key), so a rerun makes no calls.
    """

    @classmethod
    def of(cls, config: OpenAIChatConfig) -> OpenAIChatLLM:
        """The client of a component whose config extends ``OpenAIChatConfig`` (its chat fields only)."""
        return cls(OpenAIChatConfig(**config.model_dump(include=set(OpenAIChatConfig.model_fields))))

    def __init__(self, config: OpenAIChatConfig) -> None:
        self.config = config
        self.model_id = f"{config.model}@{safe_url(config.base_url)}"
        self._key = _Secret(os.environ.get(config.api_key_env))
        # Credentials in the URL: never part of the address requests go to (httpx would turn them into Basic
        # auth and drop the Bearer key); used as Basic auth only when no key is set in the environment.
        self._url = url_without_userinfo(config.base_url)
        userinfo = url_userinfo(config.base_url)
        self._basic = userinfo if userinfo and self._key.reveal() is None else None
        if userinfo and self._basic is None:
            log.warning(
                "%s: credentials in base_url are ignored; the key from $%s is sent as a Bearer token",
                self._url,
                config.api_key_env,
            )
        self._cache = config.open_cache("llm")
        self._client: httpx.Client | None = None
        self._client_lock = threading.Lock()

    def __repr__(self) -> str:
        c = self.config
        return (
            f"OpenAIChatLLM(base_url={safe_url(c.base_url)!r}, model={c.model!r}, "
            f"api_key_env={c.api_key_env!r}, key={self._key!r})"
        )

    # -- HTTP ---------------------------------------------------------------------------------------

    @property
    def client(self) -> httpx.Client:
        with self._client_lock:
            if self._client is None:
                n = self.config.concurrency
                self._client = httpx.Client(
                    timeout=httpx.Timeout(self.config.timeout),
                    limits=httpx.Limits(max_connections=n, max_keepalive_connections=n),
                )
            return self._client

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def __enter__(self) -> OpenAIChatLLM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = self._key.reveal()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        elif self._basic is not None:
            token = base64.b64encode(":".join(self._basic).encode("utf-8")).decode("ascii")
            headers["Authorization"] = f"Basic {token}"
        return headers

    def _payload(self, messages: list[Message]) -> dict[str, Any]:
        c = self.config
        return {
            "model": c.model,
            "messages": messages,
            "temperature": c.temperature,
            "max_tokens": c.max_tokens,
            "stream": False,
        }

    def _where(self) -> str:
        return f"{safe_url(self.config.base_url)} (model {self.config.model!r})"

    def _delay(self, attempt: int, response: httpx.Response | None) -> float:
        asked = _retry_after(response) if response is not None else None
        if asked is not None:
            return min(asked, self.config.max_backoff)
        base = self.config.backoff * (2**attempt)
        return min(base / 2 + random.uniform(0, base / 2), self.config.max_backoff)

    def _request(self, messages: list[Message]) -> str:
        """One conversation -> the assistant text, with retries."""
        url = f"{self._url}/chat/completions"
        payload = self._payload(messages)
        attempts = self.config.max_retries + 1
        last = ""
        for attempt in range(attempts):
            response: httpx.Response | None = None
            try:
                response = self.client.post(url, json=payload, headers=self._headers())
            except _RETRY_EXC as e:
                last = f"{type(e).__name__}: {self._key.redact(str(e)) or 'no detail'}"
            except httpx.HTTPError as e:
                raise LLMError(
                    f"chat request to {self._where()} failed: {type(e).__name__}: {self._key.redact(str(e))}"
                ) from None
            else:
                status = response.status_code
                if status < 300:
                    try:
                        return self._parse(response)
                    except LLMError as e:  # a broken body (invalid JSON, no choices) is retried like a 5xx
                        last = str(e)
                else:
                    body = self._key.redact(excerpt(response.text))
                    last = f"HTTP {status}: {body}"
                    if status not in _RETRY_STATUS and status < 500:
                        error = LLMError if status in _RUN_STATUS else LLMItemError
                        raise error(f"chat request to {self._where()} failed with {last}", status=status)
            if attempt + 1 < attempts:
                delay = self._delay(attempt, response)
                log.warning(
                    "chat request to %s: %s; retry %d/%d in %.2fs",
                    self._where(),
                    last,
                    attempt + 1,
                    self.config.max_retries,
                    delay,
                )
                time.sleep(delay)
        raise LLMError(
            f"chat request to {self._where()} failed after {attempts} attempt(s); last error: {last}",
            status=response.status_code if response is not None else None,
        )

    def _parse(self, response: httpx.Response) -> str:
        try:
            data = response.json()
            content = data["choices"][0]["message"].get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            body = self._key.redact(excerpt(response.text))
            raise LLMError(
                f"unexpected response from {self._where()} (not JSON with choices[0].message): {body}",
                status=response.status_code,
            ) from None
        return content if isinstance(content, str) else ""

    # -- batch API ----------------------------------------------------------------------------------

    def _key_of(self, messages: list[Message]) -> str:
        c = self.config
        return fingerprint("chat", c.base_url, c.model, c.temperature, c.max_tokens, messages)

    def complete(self, conversations: Sequence[list[Message]]) -> list[str]:
        """One assistant text per conversation, in order (cached ones make no request). A request the server
        refuses for that item alone (a 4xx other than 401/403/429) comes back as a :class:`FailedReply` (an
        empty string with ``.error``) so that the caller can reject that item and go on; any other failure
        raises :class:`LLMError`."""
        keys = [self._key_of(conv) for conv in conversations]
        conv_of = dict(zip(keys, conversations, strict=True))
        texts: dict[str, str] = {k: v.decode("utf-8") for k, v in self._cache.get_many(list(conv_of)).items()}
        todo = [k for k in conv_of if k not in texts]
        if todo:
            self._run(todo, conv_of, texts)
        return [texts[k] for k in keys]

    def _run(self, todo: list[str], conv_of: dict[str, list[Message]], texts: dict[str, str]) -> None:
        """Request the missing keys; cache each answer as soon as it arrives (from this thread only:
        the SQLite connection belongs to it). On a failure, what already finished is kept and cached."""

        def keep(k: str, text: str) -> None:
            texts[k] = text
            if usable_reply(text):
                self._cache.put(k, text.encode("utf-8"))

        def ask(k: str) -> str:
            try:
                return self._request(conv_of[k])
            except LLMItemError as e:
                log.warning("%s", e)
                return FailedReply(str(e), e.status)

        if len(todo) == 1 or self.config.concurrency == 1:
            for k in todo:
                keep(k, ask(k))
        else:
            self._run_pool(todo, ask, keep, texts)
        failed = [t for k in todo if isinstance(t := texts[k], FailedReply)]
        if failed and len(failed) == len(conv_of):  # nothing in the whole call was answered
            first, n = failed[0], len(failed)
            what = first.error if n == 1 else f"all {n} requests were refused; the first: {first.error}"
            raise LLMError(what, status=first.status)

    def _run_pool(
        self, todo: list[str], ask: Callable[[str], str], keep: Callable[[str, str], None], texts: dict[str, str]
    ) -> None:
        pool = ThreadPoolExecutor(max_workers=min(self.config.concurrency, len(todo)))
        futures: dict[Future[str], str] = {}
        error: BaseException | None = None
        try:
            futures = {pool.submit(ask, k): k for k in todo}
            for f in as_completed(futures):
                error = f.exception()
                if error is not None:
                    break
                keep(futures[f], f.result())
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if error is not None:
            for f, k in futures.items():
                if k not in texts and f.done() and not f.cancelled() and f.exception() is None:
                    keep(k, f.result())
            raise error


@registry.register("llm", "openai-compatible", OpenAIChatConfig)
def build_openai_chat(config: OpenAIChatConfig) -> OpenAIChatLLM:
    """Chat completions from an OpenAI-compatible server (vLLM, Ollama, llama.cpp, OpenAI)."""
    return OpenAIChatLLM(config)
