#!/usr/bin/env bash
# Train claimforge's biomedical NER (Chemical, Disease) and ship it as en_claimforge_bioner.
# Run from anywhere (it cds to the repository root):   bash training/ner/train.sh
# Env overrides: DATA (../shared/data), WORK (scratch dir, git-ignored; build/ner/run), SEED (0),
#                STEPS1 (stage-1 steps, 2700), STEPS (final steps, 6000),
#                PYTHON (python), DEST (src/claimforge/nlp/models/en_claimforge_bioner; "" = do not package).
# Everything runs on ONE thread (OMP_NUM_THREADS=1); step timings go to $WORK/timings.tsv.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."   # repo root
DATA="${DATA:-../shared/data}"
WORK="${WORK:-build/ner/run}"
SEED="${SEED:-0}"
STEPS1="${STEPS1:-2700}"
STEPS="${STEPS:-6000}"
PY="${PYTHON:-python}"
DEST="${DEST-src/claimforge/nlp/models/en_claimforge_bioner}"
CONFIG="training/ner/config.cfg"
CODE="training/ner/tokenizer.py"
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONHASHSEED=0

mkdir -p "$WORK"
: > "$WORK/timings.tsv"
step() {  # step <name> <command...>: run, log wall seconds
  local name="$1"; shift
  local t0; t0=$(date +%s)
  echo "=== $name: $*" >&2
  "$@"
  echo -e "$name\t$(( $(date +%s) - t0 ))" >> "$WORK/timings.tsv"
}

# 1. BIO TSV -> .spacy (one Doc per 10 sentences, gold tokens). BC5CDR devel is also split into
#    bc5cdr_devel_fit (its first 80% of sentences, 3,665) and bc5cdr_devel_holdout (the last 916).
step convert "$PY" training/ner/convert.py --bc5cdr "$DATA/bc5cdr" --ncbi "$DATA/ncbi_disease" --out "$WORK/corpus"

# 2. Static word vectors from unlabelled biomedical text (6M tokens; BC5CDR/NCBI test text is not used):
#    PPMI + truncated SVD, 20k lower-cased words x 64 dims.
step pretrain_corpus "$PY" training/ner/pretrain_corpus.py --data "$DATA" --out "$WORK/pretrain/texts.jsonl" \
  --max-words 6000000 --seed "$SEED"
step vectors "$PY" training/ner/vectors.py "$WORK/pretrain/texts.jsonl" "$WORK/vectors.txt" \
  --vocab 20000 --min-count 5 --dim 64 --window 4 --seed "$SEED"
step init_vectors "$PY" -m spacy init vectors en "$WORK/vectors.txt" "$WORK/vectors" --attr LOWER \
  --name en_claimforge_bioner.ppmi64

# 3. Stage 1: BC5CDR train only (model-best on all of BC5CDR devel). Its only use is step 4.
mkdir -p "$WORK/corpus/train_stage1" "$WORK/corpus/train_final"
ln -sf ../bc5cdr_train.spacy "$WORK/corpus/train_stage1/"
step train_stage1 "$PY" -m spacy train "$CONFIG" --code "$CODE" --output "$WORK/stage1" \
  --paths.train "$WORK/corpus/train_stage1" --paths.dev "$WORK/corpus/bc5cdr_devel.spacy" \
  --paths.vectors "$WORK/vectors" --training.max_steps "$STEPS1" --system.seed "$SEED"

# 4. NCBI-disease has no Chemical annotations: tokens the stage-1 model tags Chemical in NCBI train (outside gold
#    Disease spans) become *missing* instead of O  -> ncbi_train_masked.spacy.
step mask_ncbi "$PY" training/ner/convert.py --bc5cdr "$DATA/bc5cdr" --ncbi "$DATA/ncbi_disease" \
  --out "$WORK/corpus" --mask-model "$WORK/stage1/model-best"

# 5. Final: BC5CDR train + 80% of BC5CDR devel + NCBI-disease train (masked); checkpoints every 300 steps,
#    model-best chosen on the held-out 20% of BC5CDR devel (no test data is used until step 6).
ln -sf ../bc5cdr_train.spacy ../bc5cdr_devel_fit.spacy ../ncbi_train_masked.spacy "$WORK/corpus/train_final/"
step train_final "$PY" -m spacy train "$CONFIG" --code "$CODE" --output "$WORK/final" \
  --paths.train "$WORK/corpus/train_final" --paths.dev "$WORK/corpus/bc5cdr_devel_holdout.spacy" \
  --paths.vectors "$WORK/vectors" --training.max_steps "$STEPS" --system.seed "$SEED"

# 6. Test metrics (entity-level exact span + type) on BC5CDR test and NCBI-disease test.
step evaluate "$PY" training/ner/evaluate.py "$WORK/final/model-best" --bc5cdr "$DATA/bc5cdr" \
  --ncbi "$DATA/ncbi_disease" --out "$WORK/final/test_metrics.json"

# 7. Ship.
if [ -n "$DEST" ]; then
  step package "$PY" training/ner/package.py "$WORK/final/model-best" "$DEST"
  du -sh "$DEST"
fi
cat "$WORK/timings.tsv"
