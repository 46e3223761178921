"""Credentials never reach an output: the one function that removes them from URLs, command lines, messages and
recipes before anything is written (manifest, report, run cards, logs, error messages).

Removed: ``user:password@`` in URLs, the values of credential-like query parameters (``api_key=``, ``token=``,
...) and the value of any environment variable whose name says it holds a secret (``*_KEY``, ``*_TOKEN``,
``*_SECRET``, ``*PASSWORD*``) wherever it occurs in the text.
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

MASK = "***"
_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.\-]*://)(?P<userinfo>[^/\s@'\"]+)@")
_QUERY_SECRET = re.compile(
    r"(?P<key>[?&;](?:api[_-]?key|apikey|key|token|access[_-]?token|secret|password|passwd|pwd|sig|signature)=)"
    r"(?P<value>[^&#\s'\"]+)",
    re.IGNORECASE,
)
_SECRET_ENV = re.compile(r"(?:_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD|_PAT|_CREDENTIALS?)$|^(?:API_?KEY|TOKEN)$", re.I)
_MIN_SECRET = 6  # shorter environment values are too likely to occur by chance to be masked


def _env_secrets() -> list[str]:
    values = {v for k, v in os.environ.items() if _SECRET_ENV.search(k) and len(v) >= _MIN_SECRET}
    return sorted(values, key=len, reverse=True)


def redact(text: str) -> str:
    """``text`` with credentials masked (``***``); everything else unchanged."""
    if not text:
        return text
    text = _USERINFO.sub(lambda m: f"{m.group('scheme')}{MASK}@", text)
    text = _QUERY_SECRET.sub(lambda m: f"{m.group('key')}{MASK}", text)
    for secret in _env_secrets():
        text = text.replace(secret, MASK)
    return text


def redact_tree(node: Any) -> Any:
    """A JSON-like value (recipe, manifest, run card) with every string redacted."""
    if isinstance(node, str):
        return redact(node)
    if isinstance(node, dict):
        return {k: redact_tree(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [redact_tree(v) for v in node]
    return node


def url_without_userinfo(url: str) -> str:
    """The URL with no ``user:password@`` part at all (for model ids and the address requests go to)."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[-1]))


def url_userinfo(url: str) -> tuple[str, str] | None:
    """(user, password) from ``user:password@`` in a URL, or None."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return None
    from urllib.parse import unquote

    return unquote(parts.username or ""), unquote(parts.password or "")
