#!/usr/bin/env bash
# Train claimforge's default English pipeline en_claimforge_sci (tagger, morphologizer, parser, lemmatizer) on
# UD English-EWT + UD English-Atis (questions, re-cased and punctuated in a seeded share) + CRAFT (biomedical full
# text, its ClearNLP dependencies mapped to UD v2): docs/models/parser.md.
# Run from the repository root:   bash training/parser/train.sh
# Env overrides: DATA (../shared/data), WORK (scratch dir, git-ignored), SEED, N_SENTS (sentences per doc),
# EWT_COPIES (EWT train is repeated this many times, so CRAFT's 493k tokens do not swamp it), THREADS.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."   # repo root
DATA="${DATA:-../shared/data}"
WORK="${WORK:-build/parser_sci}"
SEED="${SEED:-0}"
N_SENTS="${N_SENTS:-10}"
EWT_COPIES="${EWT_COPIES:-2}"
THREADS="${THREADS:-1}"
CONFIG="training/parser/config.cfg"
DEST="src/claimforge/nlp/models/en_claimforge_sci"
PY="${PYTHON:-python}"
export OMP_NUM_THREADS="$THREADS" OPENBLAS_NUM_THREADS="$THREADS" MKL_NUM_THREADS="$THREADS"

# 1. Treebanks -> .spacy: train.spacy (EWT x EWT_COPIES + Atis + CRAFT), dev.spacy (the three dev sets, for
#    choosing the checkpoint), and {ewt,atis,craft}_{train,dev,test}.spacy for per-treebank scores.
"$PY" training/parser/treebanks.py --data "$DATA" --out "$WORK/corpus" --n-sents "$N_SENTS" --seed "$SEED" \
  --ewt-copies "$EWT_COPIES" --dump "$WORK/conllu" | tee "$WORK/corpus_summary.json"

# 2. Train (CPU, fixed seed). model-best is chosen on the pooled dev set by the score weights in the config.
time "$PY" -m spacy train "$CONFIG" \
  --output "$WORK/output" \
  --paths.train "$WORK/corpus/train.spacy" \
  --paths.dev "$WORK/corpus/dev.spacy" \
  --system.seed "$SEED" 2>&1 | tee "$WORK/train.log"

# 3. Per-treebank test scores with gold tokenisation (each gold sentence parsed on its own), the usual UD setting;
#    GENIA (UD v1 mapped to v2, evaluation only) for PTB tags and UAS.
for tb in ewt atis craft genia; do
  "$PY" -m spacy evaluate "$WORK/output/model-best" "$WORK/corpus/${tb}_test.spacy" --gold-preproc \
    --output "$WORK/test_${tb}_goldtok.json" 2>&1 | tee "$WORK/test_${tb}_goldtok.txt"
done

# 4. Package: re-save model-best (inference files only) with claimforge metadata; training paths reset to null.
rm -rf "$DEST"
"$PY" - "$WORK/output/model-best" "$DEST" <<'PYEOF'
import sys
import spacy

src, dest = sys.argv[1], sys.argv[2]
nlp = spacy.load(src)
nlp.config["paths"]["train"] = None
nlp.config["paths"]["dev"] = None
nlp.meta.update({
    "name": "en_claimforge_sci",
    "version": "0.2.0",
    "description": (
        "claimforge's default English pipeline for questions and biomedical text: CNN tok2vec (no pretrained "
        "vectors) with PTB tagger, UPOS+FEATS morphologizer, UD v2 dependency parser (also sentence boundaries) and "
        "edit-tree lemmatizer, trained on UD English-EWT v2.15 + UD English-Atis v2.16 (re-cased, punctuated) + "
        "CRAFT v4 (ClearNLP dependencies mapped to UD v2, training/parser/treebanks.py)."
    ),
    "license": "CC BY-SA 4.0",
    "sources": [
        {"name": "UD English-EWT v2.15", "url": "https://github.com/UniversalDependencies/UD_English-EWT",
         "license": "CC BY-SA 4.0"},
        {"name": "UD English-Atis v2.16", "url": "https://github.com/UniversalDependencies/UD_English-Atis",
         "license": "CC BY-SA 4.0"},
        {"name": "CRAFT v4 dependency annotation", "url": "https://github.com/UCDenver-ccp/CRAFT",
         "license": "CC BY 3.0"},
    ],
})
nlp.to_disk(dest)
PYEOF
du -sh "$DEST"
echo "Pipeline written to $DEST"
