"""Benchmark the shipped claimforge English pipeline on raw text.

Loads ``src/claimforge/nlp/models/en_claimforge_sci`` (or ``--model``), runs
``nlp.pipe`` over raw sentences N times (single process) and prints JSON with
the median words/s.  Words are counted as spaCy tokens that are not whitespace.

Default texts: the ``# text =`` lines of the UD English-EWT test CoNLL-U file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MODEL = REPO / "src" / "claimforge" / "nlp" / "models" / "en_claimforge_sci"
DEFAULT_TEXTS = (
    Path(os.environ.get("UD_DIR", REPO.parent / "shared" / "data" / "ud_english_ewt")) / "en_ewt-ud-test.conllu"
)


def read_texts(path: Path) -> list[str]:
    """Read raw sentences: ``# text =`` lines for CoNLL-U, else one text per non-empty line."""
    lines = path.read_text(encoding="utf8").splitlines()
    if path.suffix == ".conllu" or any(line.startswith("# text = ") for line in lines[:50]):
        return [line[len("# text = ") :] for line in lines if line.startswith("# text = ")]
    return [line for line in lines if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--texts",
        type=Path,
        default=DEFAULT_TEXTS,
        help="CoNLL-U file (uses '# text =' lines) or plain text, one text per line",
    )
    ap.add_argument("--model", default=str(DEFAULT_MODEL), help="spaCy pipeline name or path")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--warmup", type=int, default=200, help="texts processed once before timing")
    args = ap.parse_args()

    import spacy

    t0 = time.perf_counter()
    nlp = spacy.load(args.model)
    load_s = time.perf_counter() - t0
    texts = read_texts(args.texts)
    if not texts:
        raise SystemExit(f"no texts found in {args.texts}")
    list(nlp.pipe(texts[: args.warmup], batch_size=args.batch_size))

    results = []
    for _ in range(args.runs):
        start = time.perf_counter()
        n_words = 0
        for doc in nlp.pipe(texts, batch_size=args.batch_size):
            n_words += sum(1 for t in doc if not t.is_space)
        elapsed = time.perf_counter() - start
        results.append({"seconds": round(elapsed, 3), "words": n_words, "words_per_s": round(n_words / elapsed, 1)})

    out = {
        "model": args.model,
        "pipeline": nlp.pipe_names,
        "texts": str(args.texts),
        "n_texts": len(texts),
        "words": results[0]["words"],
        "runs": args.runs,
        "batch_size": args.batch_size,
        "median_words_per_s": round(statistics.median(r["words_per_s"] for r in results), 1),
        "per_run": results,
        "load_seconds": round(load_s, 2),
        "cpu_cores": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "spacy": spacy.__version__,
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
