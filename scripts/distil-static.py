#!/usr/bin/env python3
"""Distil a static embedding model from a sentence transformer (the model2vec method), for evaluation.

Run by a maintainer (issue 30), never by install, tests or CI. The teacher is a model folder laid out by
`scripts/eval-models.mjs` (`tokenizer.json` and `onnx/model.onnx`); the Python side is that script's venv
(tokenizers, onnxruntime, numpy), so nothing else is installed:

    M=~/.cache/docs/eval-models
    $M/_venv/bin/python scripts/distil-static.py --teacher $M/all-minilm-l6-v2 --out $M/static-minilm-256
    $M/_venv/bin/python scripts/distil-static.py --teacher $M/bge-small-en-v1.5 --pooling cls --out $M/static-bge-256

The method, as model2vec 0.10.0's `distill_from_model` (MIT, github.com/MinishLab/model2vec) does it:

1. every token of the teacher's vocabulary except its special tokens and `[unused…]` slots is run through the
   teacher alone, as `[CLS] token [SEP]`, and pooled (`mean` over the three positions, model2vec's default, or
   `cls`, the teacher's own pooling for bge);
2. the vectors are centred and reduced by PCA to `--dims` dimensions (eigenvectors of the covariance, each
   component's sign fixed so its largest score is positive);
3. each row is weighted by SIF, a / (a + p), with p the token's probability under Zipf's law by its rank in the
   vocabulary (a BERT vocabulary is roughly in frequency order) and a = `--sif` (1e-4).

A text's vector is then the mean of its tokens' rows (the teacher's tokenizer with no special tokens, `[UNK]`
dropped, the first `max_tokens` tokens kept), normalised; `scripts/static-model-server.py` serves it.

Written to `--out`: `vectors.npy` (float32, one row per token id of `tokenizer.json`; rows of dropped tokens
are zero), `vectors-int8.npy` with `scale` in `config.json` (the shape a package would ship: row × scale / 127),
`tokenizer.json` (the teacher's, with truncation and padding removed) and `config.json` naming the teacher,
its licence, the settings, the explained variance and the time it took.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

# Only teachers whose licence lets the distilled model ship (issue 30: MIT or Apache-2.0).
TEACHERS = {
    "all-minilm-l6-v2": {"model": "sentence-transformers/all-MiniLM-L6-v2", "licence": "Apache-2.0"},
    "bge-small-en-v1.5": {"model": "BAAI/bge-small-en-v1.5", "licence": "MIT"},
}
UNUSED = re.compile(r"\[unused\d+\]")


def token_vectors(session: ort.InferenceSession, ids: list[int], cls: int, sep: int, pooling: str, batch: int) -> np.ndarray:
    """The teacher's pooled output for each token id alone, as `[CLS] id [SEP]`."""
    names = {i.name for i in session.get_inputs()}
    out = []
    for start in range(0, len(ids), batch):
        chunk = np.array(ids[start : start + batch], dtype=np.int64)
        input_ids = np.stack([np.full_like(chunk, cls), chunk, np.full_like(chunk, sep)], axis=1)
        feeds = {"input_ids": input_ids, "attention_mask": np.ones_like(input_ids)}
        if "token_type_ids" in names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        hidden = session.run(["last_hidden_state"], feeds)[0].astype(np.float32)
        out.append(hidden[:, 0, :] if pooling == "cls" else hidden.mean(axis=1))
    return np.concatenate(out)


def pca(x: np.ndarray, dims: int) -> tuple[np.ndarray, float]:
    """Scores on the first `dims` principal components and the share of variance they keep (model2vec's `apply_pca`)."""
    centred = x - x.mean(axis=0)
    eigvals, eigvecs = np.linalg.eigh(centred.T @ centred / (len(x) - 1))
    eigvals, eigvecs = np.clip(eigvals[::-1], 0, None), eigvecs[:, ::-1]
    scores = centred @ eigvecs[:, :dims]
    signs = np.sign(scores[np.argmax(np.abs(scores), axis=0), range(dims)])
    return scores * signs, float(eigvals[:dims].sum() / eigvals.sum())


def sif_weights(n: int, a: float) -> np.ndarray:
    """a / (a + p), p the Zipf probability of rank 1…n (model2vec's `compute_weights`)."""
    inv_rank = 1 / np.arange(2, n + 2)
    return a / (a + inv_rank / inv_rank.sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--teacher", required=True, type=Path, help="model folder from scripts/eval-models.mjs")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--pooling", choices=["mean", "cls"], default="mean")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--sif", type=float, default=1e-4)
    parser.add_argument("--max-tokens", type=int, default=512, help="tokens of a text that count (model2vec's default)")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    name = args.teacher.resolve().name
    if name not in TEACHERS:
        raise SystemExit(f"unknown teacher {name}: one of {', '.join(TEACHERS)} (MIT or Apache-2.0 only)")
    started = time.perf_counter()

    tokenizer = Tokenizer.from_file(str(args.teacher / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    vocab = tokenizer.get_vocab(with_added_tokens=True)
    special = {t.content for t in tokenizer.get_added_tokens_decoder().values() if t.special}
    kept = sorted(i for t, i in vocab.items() if t not in special and not UNUSED.fullmatch(t))

    options = ort.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(args.teacher / "onnx/model.onnx"), options, providers=["CPUExecutionProvider"])
    raw = token_vectors(session, kept, vocab["[CLS]"], vocab["[SEP]"], args.pooling, args.batch)
    teacher_seconds = time.perf_counter() - started

    reduced, explained = pca(raw.astype(np.float64), args.dims)
    rows = (reduced * sif_weights(len(kept), args.sif)[:, None]).astype(np.float32)
    vectors = np.zeros((tokenizer.get_vocab_size(with_added_tokens=True), args.dims), dtype=np.float32)
    vectors[kept] = rows
    scale = float(np.abs(vectors).max())
    int8 = np.round(vectors / scale * 127).astype(np.int8)

    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "vectors.npy", vectors)
    np.save(args.out / "vectors-int8.npy", int8)
    tokenizer.save(str(args.out / "tokenizer.json"))
    sources = args.teacher / "SOURCES.json"
    if sources.exists():
        shutil.copy(sources, args.out / "TEACHER-SOURCES.json")
    config = {
        "method": "model2vec (distill_from_model of model2vec 0.10.0, written out)",
        "teacher": TEACHERS[name]["model"],
        "licence": TEACHERS[name]["licence"],
        "teacher_folder": name,
        "pooling": args.pooling,
        "dims": args.dims,
        "sif": args.sif,
        "max_tokens": args.max_tokens,
        "vocabulary": len(vocab),
        "rows_distilled": len(kept),
        "explained_variance": round(explained, 4),
        "scale": scale,
        "teacher_seconds": round(teacher_seconds, 1),
        "total_seconds": round(time.perf_counter() - started, 1),
        "threads": args.threads,
    }
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    sizes = {f: os.path.getsize(args.out / f) for f in ("vectors.npy", "vectors-int8.npy", "tokenizer.json")}
    print(json.dumps({**config, "bytes": sizes}, indent=2))


if __name__ == "__main__":
    main()
