"""Re-save a trained NER pipeline as the shipped ``en_claimforge_bioner`` (inference files only).

    python training/ner/package.py build/ner/final/model-last src/claimforge/nlp/models/en_claimforge_bioner

Training-only settings in the stored config are reset (corpus paths, vectors path, the tokenizer callback in
``[initialize.before_init]``: the corpus-style tokenizer's patterns are saved in the ``tokenizer`` file itself),
and claimforge metadata is written to ``meta.json``. The result loads with plain ``spacy.load(path)``.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import spacy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tokenizer  # noqa: E402,F401  (registers the callback named in the training config)

DESCRIPTION = (
    "claimforge's biomedical NER: Chemical and Disease mentions, trained on BC5CDR (+ NCBI-disease, see "
    "docs/models/ner.md). CNN tok2vec (hash embeddings of NORM/PREFIX/SUFFIX/SHAPE + 64-d PPMI-SVD word vectors "
    "built from unlabelled biomedical text) and a transition-based NER; tokenizer splits like the corpora."
)


def main() -> None:
    src, dest = Path(sys.argv[1]), Path(sys.argv[2])
    extra = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    nlp = spacy.load(src)
    for key in ("train", "dev", "vectors", "raw_text", "init_tok2vec"):
        if key in nlp.config["paths"]:
            nlp.config["paths"][key] = None
    nlp.config["initialize"]["before_init"] = None
    nlp.meta.update(
        {
            "name": "en_claimforge_bioner",
            "version": "0.1.0",
            "description": DESCRIPTION,
            "author": "claimforge",
            "license": "CC BY 4.0",
            "sources": [
                {
                    "name": "BC5CDR (BioCreative V CDR), IOB version of Crichton et al. 2017",
                    "url": "https://github.com/cambridgeltl/MTL-Bioinformatics-2016",
                    "license": "CC BY 4.0",
                },
                {
                    "name": "NCBI-disease corpus",
                    "url": "https://www.ncbi.nlm.nih.gov/CBBresearch/Dogan/DISEASE/",
                    "license": "public domain",
                },
            ],
            **extra,
        }
    )
    if dest.exists():
        shutil.rmtree(dest)
    nlp.to_disk(dest)
    # sanity: reloads without the training code, tokenizer kept
    import subprocess

    check = (
        "import spacy,sys; nlp=spacy.load(sys.argv[1]); "
        "print([t.text for t in nlp.make_doc(\"Parkinson's 5-FU\")], nlp.pipe_names, nlp.meta['name'])"
    )
    out = subprocess.run([sys.executable, "-c", check, str(dest)], capture_output=True, text=True, check=True)
    print(out.stdout.strip())


if __name__ == "__main__":
    main()
