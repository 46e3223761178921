"""The review page: a small Starlette app, server-rendered Jinja2 templates and htmx (vendored, no build step).

Security: the server listens on 127.0.0.1 only; every request needs the random token printed at start (in the URL
once, then an HttpOnly SameSite=Strict cookie; ``Authorization: Bearer TOKEN`` for programs); a Host header other
than the loopback names is refused (DNS rebinding); a POST from the page must carry htmx's ``HX-Request`` header,
which a cross-site form cannot send. It reads only the datasets it was given and writes only their ``review/``
folders. docs/review.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from claimforge.check import claim_item
from claimforge.nlp.sentences import split_sentences
from claimforge.review.store import (
    CRITERIA,
    LABELS,
    Dataset,
    NotFound,
    ReviewError,
    ReviewStore,
    applicable_criteria,
    check_annotator,
    evidence_view,
    filtered,
    sheet_csv,
    source_view,
)

PAGE_SIZE = 50
COOKIE = "claimforge_review"
ANNOTATOR_COOKIE = "claimforge_annotator"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
# Headless Chromium on a machine without a network or a screen (the browser tests and bench/review_screenshots.py):
# without the background-networking flags it keeps trying to reach Google's hosts.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
CRITERION_TITLES = {
    "label": "Label (your own reading of claim + evidence)",
    "fluency": "Fluency",
    "decontextualized": "De-contextualised (self-contained)",
    "atomicity": "Atomic",
    "faithfulness": "Faithful to the source sentence",
    "entailment": "Negation vs original claim",
}
VALUE_TITLES: dict[str, dict[Any, str]] = {
    "label": {"SUPPORTED": "supported", "REFUTED": "refuted", "NOT_ENOUGH_INFO": "not enough info"},
    "fluency": {3: "3 fluent", 2: "2 some errors", 1: "1 not understandable"},
    "decontextualized": {1: "yes", 0: "no"},
    "atomicity": {1: "yes", 0: "no"},
    "faithfulness": {
        5: "5 correct, complete",
        4: "4 correct, leaves out",
        3: "3 related, not stated",
        2: "2 incorrect info",
        1: "1 unrelated",
    },
    "entailment": {3: "definitely false", 2: "might be true", 1: "definitely true", "SKIP": "unreadable"},
}
# The blind round asks only what claim + evidence can answer: the label and the claim's form.
BLIND_CRITERIA = ("label", "fluency", "decontextualized", "atomicity")


class Checking:
    """The checkers behind ``POST /check`` (``full``: with the 5W aspects, as ``claimforge check``) and the
    judge's per-sentence scores (verdict and sentence scores only), each made on first use by ``factory(full)``."""

    def __init__(self, factory: Callable[[bool], Any] | None) -> None:
        self._factory = factory
        self._made: dict[bool, Any] = {}
        self._lock = threading.Lock()

    @property
    def available(self) -> bool:
        return self._factory is not None

    def get(self, full: bool = True) -> Any:
        if self._factory is None:
            raise ReviewError("this review server was started with --no-check")
        with self._lock:
            if full not in self._made:
                self._made[full] = self._factory(full)
            return self._made[full]


def _form(body: bytes) -> dict[str, str]:
    """A urlencoded form (what htmx posts), one value per field (the last)."""
    return {k: v[-1] for k, v in parse_qs(body.decode("utf-8"), keep_blank_values=True).items()}


def create_app(store: ReviewStore, token: str, checker: Callable[[bool], Any] | None = None) -> Starlette:
    """The review app over ``store``; ``token`` is the secret every request must carry; ``checker(full)`` makes
    the checker of ``POST /check`` (``full``) and of the judge's sentence scores (None: both are off)."""
    env = Environment(loader=PackageLoader("claimforge.review", "templates"), autoescape=select_autoescape())
    env.globals.update(
        LABELS=LABELS,
        CRITERIA=CRITERIA,
        CRITERION_TITLES=CRITERION_TITLES,
        VALUE_TITLES=VALUE_TITLES,
        urlencode=urlencode,
    )
    checking = Checking(checker)
    cookie = f"{COOKIE}_{hashlib.sha256(token.encode()).hexdigest()[:10]}"  # one per server: cookies ignore ports
    sentence_scores: dict[tuple[str, str], list[dict[str, Any]]] = {}

    def render(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        ctx.setdefault("annotator", request.cookies.get(ANNOTATOR_COOKIE, ""))
        ctx.setdefault("datasets", store.datasets)
        ctx.setdefault("warnings", store.warnings)
        ctx["request"] = request
        return HTMLResponse(env.get_template(name).render(**ctx), status_code=status)

    def error(request: Request, message: str, status: int = 400) -> Response:
        if request.headers.get("hx-request"):
            return HTMLResponse(f'<div class="error" role="alert">{_escape(message)}</div>', status_code=status)
        return render(request, "error.html", status=status, message=message)

    def annotator_of(request: Request, form: Mapping[str, str]) -> str:
        return check_annotator(form.get("annotator") or request.cookies.get(ANNOTATOR_COOKIE, ""))

    # -- pages ---------------------------------------------------------------------------------------------------

    def overview(request: Request) -> Response:
        cards = []
        for name, ds in store.datasets.items():
            cards.append({"ds": ds, "summary": store.summary(name), "labels": _counts(ds, "label"),
                          "methods": _counts(ds, "method"), "reasons": _reject_reasons(ds)})  # fmt: skip
        return render(request, "overview.html", cards=cards)

    def dataset_of(request: Request) -> Dataset:
        """The dataset the query names (default: the first one given); NotFound for an unknown name."""
        return store.dataset(request.query_params.get("dataset") or next(iter(store.datasets)))

    def examples(request: Request) -> Response:
        q = request.query_params
        ds = dataset_of(request)
        name = ds.name
        facets = {k[2:]: v for k, v in q.items() if k.startswith("f.") and v}
        unknown = [k for k in facets if k not in ds.facets]
        if unknown:
            raise ReviewError(f"unknown filter {unknown[0]!r} (filters: {', '.join(ds.facets)})")
        rows = filtered(ds, q.get("label", ""), q.get("method", ""), q.get("q", ""), facets)
        n_grades = Counter(x for (d, x, _, _) in store.grades if d == name)
        graded = q.get("graded", "")
        if graded:
            rows = [e for e in rows if (e.id in n_grades) == (graded == "yes")]
        try:
            page = max(1, int(q.get("page", "1")))
        except ValueError:
            page = 1
        pages = max(1, -(-len(rows) // PAGE_SIZE))
        page = min(page, pages)
        shown = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        params = {k: v for k, v in q.items() if k != "page" and v}
        ctx: dict[str, Any] = dict(
            ds=ds,
            rows=shown,
            total=len(rows),
            page=page,
            pages=pages,
            params=params,
            filters=dict(q),
            methods=[m for m, _ in _counts(ds, "method")],
            n_grades=n_grades,
            fixes={x: f for (d, x), f in store.fixes.items() if d == name},
        )
        template = "examples_table.html" if request.headers.get("hx-target") == "results" else "examples.html"
        return render(request, template, **ctx)

    def example(request: Request) -> Response:
        name, ident = request.path_params["dataset"], request.path_params["example_id"]
        e = store.example(name, ident)
        annotator = request.cookies.get(ANNOTATOR_COOKIE, "")
        mine = store.grades.get((name, e.id, annotator, False))  # the open grade (the blind one stays as it is)
        return render(
            request,
            "example.html",
            ds=store.dataset(name),
            e=e,
            evidence=evidence_view(e, sentence_scores.get((name, e.id))),
            source=source_view(e),
            details=json.dumps(e.provenance.model_dump(mode="json"), indent=2, ensure_ascii=False),
            criteria=applicable_criteria(e),
            mine=mine,
            grades=store.grades_of(name, e.id),
            fix=store.fixes.get((name, e.id)),
            can_score=checking.available,
        )

    def blind(request: Request) -> Response:
        q = request.query_params
        name = dataset_of(request).name
        try:
            n, seed = min(max(int(q.get("n", "60")), 1), 10000), int(q.get("seed", "2026"))
        except ValueError as exc:
            raise ReviewError(f"blind round: n and seed are whole numbers ({exc})") from None
        annotator = request.cookies.get(ANNOTATOR_COOKIE, "")
        ctx: dict[str, Any] = dict(dataset=name, n=n, seed=seed)
        if not annotator:
            return render(request, "blind.html", need_name=True, **ctx)
        nxt, done, total = store.next_blind(name, annotator, n, seed)
        ctx.update(done=done, total=total, criteria=BLIND_CRITERIA)
        if nxt is None:
            summary = store.summary(name, store.sample(name, n, seed))
            return render(request, "blind.html", finished=True, summary=summary, **ctx)
        e = store.example(name, nxt)
        # the form names the example by its place in the round: its id (which can spell its label) stays out
        position = store.sample(name, n, seed).index(nxt)  # the sample is made once per round
        return render(request, "blind.html", e=e, evidence=evidence_view(e, mark_key=False), position=position, **ctx)

    def rejects(request: Request) -> Response:
        q = request.query_params
        ds = dataset_of(request)
        reason, stage = q.get("reason", ""), q.get("stage", "")
        rows = [r for r in ds.rejects if (not reason or r.reason == reason) and (not stage or r.stage == stage)]
        return render(request, "rejects.html", ds=ds, rows=rows[:500], total=len(rows), reason=reason, stage=stage,
                      reasons=_reject_reasons(ds), stages=sorted({r.stage for r in ds.rejects}))  # fmt: skip

    def agreement(request: Request) -> Response:
        summaries = {name: store.summary(name) for name in store.datasets}
        return render(request, "agreement.html", summaries=summaries)

    # -- actions -------------------------------------------------------------------------------------------------

    async def set_annotator(request: Request) -> Response:
        form = _form(await request.body())
        name = check_annotator(form.get("annotator", ""))
        resp = Response(status_code=204, headers={"HX-Redirect": _local_path(form.get("next") or "/")})
        resp.set_cookie(ANNOTATOR_COOKIE, name, httponly=True, samesite="strict", max_age=365 * 86400)
        return resp

    async def save_blind(request: Request) -> Response:
        """A grade of the round's example at ``position`` (the blind form never names the example)."""
        form = _form(await request.body())
        name = store.dataset(form.get("dataset", "")).name
        try:
            n, seed, position = int(form.get("n", "")), int(form.get("seed", "")), int(form.get("position", ""))
        except ValueError as exc:
            raise ReviewError(f"n, seed and position are whole numbers ({exc})") from None
        ids = store.sample(name, n, seed)
        if not 0 <= position < len(ids):
            raise ReviewError(f"position {position} is not in this round of {len(ids)}")
        values = {k: form.get(k) for k in BLIND_CRITERIA if k in form}
        if not values.get("label"):
            raise ReviewError("choose a label (keys 1, 2, 3)")
        annotator = annotator_of(request, form)
        await run_in_threadpool(store.grade, name, ids[position], annotator, values, True, form.get("comment", ""))
        return Response(status_code=204, headers={"HX-Redirect": "/blind?" + urlencode({"dataset": name, "n": n,
                                                                                          "seed": seed})})  # fmt: skip

    async def save_grade(request: Request) -> Response:
        name, ident = request.path_params["dataset"], request.path_params["example_id"]
        form = _form(await request.body())
        annotator = annotator_of(request, form)
        values = {k: form.get(k) for k in CRITERIA if k in form}
        g = await run_in_threadpool(store.grade, name, ident, annotator, values, False, form.get("comment", ""))
        return HTMLResponse(
            f'<span class="saved" role="status">saved {_escape(g.time[11:19])} UTC as {_escape(annotator)}</span>'
        )

    async def save_fix(request: Request) -> Response:
        name, ident = request.path_params["dataset"], request.path_params["example_id"]
        form = _form(await request.body())
        f = await run_in_threadpool(
            store.fix, name, ident, form.get("action", ""), annotator_of(request, form), form.get("label") or None,
            form.get("reason", ""),
        )  # fmt: skip
        return render(request, "fix_status.html", fix=None if f.action == "keep" else f)

    def score(request: Request) -> Response:
        """The judge's scores of each evidence sentence alone (the sentences that decide the label light up)."""
        name, ident = request.path_params["dataset"], request.path_params["example_id"]
        e = store.example(name, ident)
        sentences = [row["text"] for row in evidence_view(e)]
        try:
            result = checking.get(full=False).check([claim_item(e.claim, sentences)])[0]
        except ReviewError:
            raise
        except (ValueError, OSError, RuntimeError) as exc:  # the model: shown above the evidence, which stays
            return render(request, "evidence.html", evidence=evidence_view(e), score_error=f"the judge failed: {exc}")
        sentence_scores[(name, e.id)] = [
            {
                "label": max(s.probabilities, key=lambda k: s.probabilities[k]),
                "decisive": s.supports_verdict,
                **{k: round(v, 3) for k, v in s.probabilities.items()},
            }  # fmt: skip
            for s in result.evidence
        ]
        return render(
            request, "evidence.html", evidence=evidence_view(e, sentence_scores[(name, e.id)]), verdict=result.label
        )

    def export(request: Request) -> Response:
        name, kind = request.path_params["dataset"], request.path_params["kind"]
        annotator = request.query_params.get("annotator", "")
        text, written, skipped = sheet_csv(store, name, kind, check_annotator(annotator))
        filename = f"{annotator}.{name}.{kind}.csv".replace(" ", "_")
        return Response(
            "\ufeff" + text,
            media_type="text/csv; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="{filename}"',
                "X-Rows": str(written),
                "X-Skipped-Incomplete": str(skipped),
            },
        )

    async def check(request: Request) -> Response:
        """JSON in: {"claim": str, "evidence": str | [str], "id"?: str} or a list of them; JSON out: the results
        of ``claimforge check --json`` (one object, or a list)."""
        try:
            doc = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError) as exc:
            return JSONResponse({"error": f"the body is not JSON: {exc}"}, status_code=400)
        many = isinstance(doc, list)
        items = []
        for i, d in enumerate(doc if many else [doc]):
            where = f"item {i}" if many else "the body"
            if not isinstance(d, dict) or not isinstance(d.get("claim"), str) or not d["claim"].strip():
                return JSONResponse({"error": f"{where}: needs a non-empty string 'claim'"}, status_code=400)
            ev = d.get("evidence")
            if isinstance(ev, str) and ev.strip():  # text only: the server never reads a file a request names
                sentences = tuple(split_sentences(ev))
            elif isinstance(ev, list) and ev and all(isinstance(s, str) and s.strip() for s in ev):
                sentences = tuple(ev)
            else:
                return JSONResponse(
                    {"error": f"{where}: needs 'evidence', a string or a list of sentences"}, status_code=400
                )
            try:
                items.append(claim_item(d["claim"], sentences, str(d.get("id") or f"claim{i}")))
            except ValueError as exc:
                return JSONResponse({"error": f"{where}: {exc}"}, status_code=400)
        if not items:
            return JSONResponse({"error": "no claims in the body"}, status_code=400)
        if len(items) > 100:
            return JSONResponse({"error": f"{len(items)} claims: at most 100 per request"}, status_code=413)
        try:
            results = await run_in_threadpool(lambda: checking.get().check(items))  # the models run off the loop
        except ReviewError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        except (ValueError, RuntimeError, OSError) as exc:
            return JSONResponse({"error": f"{type(exc).__name__}: {exc}"}, status_code=500)
        docs = [r.to_json() for r in results]
        return JSONResponse(docs if many else docs[0])

    class Guard(BaseHTTPMiddleware):
        async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
            if _host_name(request.headers.get("host", "")) not in LOOPBACK:
                return PlainTextResponse("host not allowed: open the review at 127.0.0.1", 403)
            given = request.query_params.get("token")
            if given is not None and _same(given, token):
                rest = {k: v for k, v in request.query_params.items() if k != "token"}
                path = _local_path(request.url.path)
                resp: Response = RedirectResponse(path + (f"?{urlencode(rest)}" if rest else ""), 303)
                resp.set_cookie(cookie, token, httponly=True, samesite="strict")
                return resp
            bearer = request.headers.get("authorization", "")
            by_header = bearer.startswith("Bearer ") and _same(bearer[7:].strip(), token)
            by_cookie = _same(request.cookies.get(cookie, ""), token)
            if not (by_header or by_cookie):
                return PlainTextResponse("forbidden: open the URL with the token that claimforge review printed", 403)
            if request.method == "POST" and not by_header and not request.headers.get("hx-request"):
                return PlainTextResponse("forbidden: a POST from the page must come from htmx", 403)
            await run_in_threadpool(store.refresh)  # grades another server or an import wrote meanwhile
            return await call_next(request)

    static = Path(__file__).parent / "static"
    routes = [
        Route("/", overview),
        Route("/examples", examples),
        Route("/example/{dataset}/{example_id:path}", example),
        Route("/blind", blind),
        Route("/rejects", rejects),
        Route("/agreement", agreement),
        Route("/annotator", set_annotator, methods=["POST"]),
        Route("/grade/{dataset}/{example_id:path}", save_grade, methods=["POST"]),
        Route("/blind/grade", save_blind, methods=["POST"]),
        Route("/fix/{dataset}/{example_id:path}", save_fix, methods=["POST"]),
        Route("/score/{dataset}/{example_id:path}", score, methods=["POST"]),
        Route("/export/{dataset}/{kind}.csv", export),
        Route("/check", check, methods=["POST"]),
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]

    async def on_review_error(request: Request, exc: Exception) -> Response:
        """Every ReviewError a page or action raises: its message on the page (404 for what is not there)."""
        return error(request, str(exc), 404 if isinstance(exc, NotFound) else 400)

    return Starlette(routes=routes, middleware=[Middleware(Guard)], exception_handlers={ReviewError: on_review_error})


def _host_name(host: str) -> str:
    """The name of a Host header without its port: "127.0.0.1:8765" -> "127.0.0.1", "[::1]:80" -> "[::1]"."""
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0]


def _same(given: str, token: str) -> bool:
    """A constant-time comparison that any string survives (non-ASCII included)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def _local_path(target: str) -> str:
    """``target`` if it is a path on this site ("/examples?x=1"), else "/": never another host ("//host",
    "/\\host", control characters, a scheme)."""
    parts = urlsplit(target)
    bad = parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//")
    if bad or "\\" in target or any(ord(c) < 32 for c in target):
        return "/"
    return target


def _escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


def _counts(ds: Dataset, attr: str) -> list[tuple[str, int]]:
    c = Counter(getattr(e, attr).value if attr == "label" else getattr(e, attr) for e in ds.examples)
    return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))


def _reject_reasons(ds: Dataset) -> list[tuple[str, int]]:
    return Counter(r.reason for r in ds.rejects).most_common()


def make_server(
    store: ReviewStore, port: int = 8765, checker: Callable[[bool], Any] | None = None
) -> tuple[Any, Any, str]:
    """(a uvicorn server of the review, its socket listening on 127.0.0.1:``port`` (0: any free port), the URL
    with a new random token: the one way in)."""
    import secrets
    import socket

    import uvicorn

    token = secrets.token_urlsafe(18)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as e:
        sock.close()
        raise ReviewError(
            f"--port {port}: cannot listen there ({e.strerror}); choose another, or --port 0 for any"
        ) from None
    sock.listen(64)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/?token={token}"
    config = uvicorn.Config(create_app(store, token, checker), log_level="warning", access_log=False, lifespan="off")
    return uvicorn.Server(config), sock, url


def serve(
    store: ReviewStore,
    port: int = 8765,
    checker: Callable[[bool], Any] | None = None,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve the review until interrupted; ``announce`` gets the URL with the token."""
    server, sock, url = make_server(store, port, checker)
    announce(url)
    server.run(sockets=[sock])
