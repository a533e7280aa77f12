#!/usr/bin/env python3
"""Random-weight BERT models in the transformers.js folder layout, for tests and the benchmark.

No pretrained weights can be downloaded where this project is built, so the tests and the benchmark
use models with the right *shape* and random weights: their vectors and scores mean nothing, but
they go through the same tokenizer, ONNX runtime and pooling as a real model, and they cost the same
CPU time as a real model of that shape.

Each folder holds what @docs/embed's local provider reads (and what a model from the Hugging Face
hub holds): config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx, and for an embedder
the sentence-transformers files that say how to pool (1_Pooling/config.json) and which instruction
prefixes queries and documents take (config_sentence_transformers.json).

Set-up (torch, transformers and onnx from the machine's local package mirror):

    python3 -m venv .venv
    PIP_INDEX_URL=file:///opt/pypi/simple .venv/bin/pip install torch transformers onnx

Committed fixtures (packages/embed/fixtures/, a few hundred KB each):

    .venv/bin/python packages/embed/scripts/make-fixture-models.py --shape tiny --kind embedder \
        --out packages/embed/fixtures/tiny-embedder
    .venv/bin/python packages/embed/scripts/make-fixture-models.py --shape tiny --kind reranker \
        --out packages/embed/fixtures/tiny-reranker

Benchmark models (not committed: 90-130 MB each), e.g.:

    .venv/bin/python packages/embed/scripts/make-fixture-models.py --shape minilm --kind embedder \
        --out /work/wt/models/minilm-l6-random --corpus ../shared/corpus

Shapes: tiny (2 layers, hidden 32); minilm (all-MiniLM-L6-v2 / ms-marco-MiniLM-L-6-v2: 6 layers,
hidden 384, mean pooling); bge-small (bge-small-en-v1.5: 12 layers, hidden 384, CLS pooling and
bge's query instruction).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import shutil

import torch
from tokenizers import BertWordPieceTokenizer
from transformers import BertConfig, BertForSequenceClassification, BertModel

REPO = pathlib.Path(__file__).resolve().parents[3]

SHAPES = {
    # Small enough to commit; vocabulary trained to 1,500 pieces (sub-words cover the rest).
    "tiny": dict(vocab=1500, hidden=32, layers=2, heads=2, intermediate=64, positions=128, pooling="mean",
                 # e5-style prefixes, so the tests can see that the query/document prefix is applied.
                 prompts={"query": "query: ", "document": "passage: "}),
    "minilm": dict(vocab=30522, hidden=384, layers=6, heads=12, intermediate=1536, positions=512, pooling="mean",
                   prompts=None),
    "bge-small": dict(vocab=30522, hidden=384, layers=12, heads=12, intermediate=1536, positions=512, pooling="cls",
                      prompts={"query": "Represent this sentence for searching relevant passages: ", "document": ""}),
}


def corpus_texts(paths: list[pathlib.Path]):
    """Markdown and text files under the given paths, for training the WordPiece vocabulary."""
    for path in paths:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in {".md", ".mdx", ".txt"})
        for file in files:
            yield file.read_text(encoding="utf-8", errors="replace")


def train_tokenizer(size: int, corpus: list[pathlib.Path]) -> BertWordPieceTokenizer:
    """A lower-cased WordPiece tokenizer (as BERT's) trained on `corpus`, its vocabulary padded with
    [unusedN] up to `size` so the embedding matrix has the real model's shape even when the corpus
    yields fewer pieces."""
    trained = BertWordPieceTokenizer(lowercase=True, strip_accents=True)
    trained.train_from_iterator(corpus_texts(corpus), vocab_size=size, min_frequency=2, show_progress=False)
    tokens = [token for token, _ in sorted(trained.get_vocab().items(), key=lambda item: item[1])][:size]
    tokens += [f"[unused{i}]" for i in range(size - len(tokens))]
    return BertWordPieceTokenizer(vocab={token: i for i, token in enumerate(tokens)}, lowercase=True,
                                  strip_accents=True)


def write_tokenizer(tokenizer: BertWordPieceTokenizer, max_length: int, out: pathlib.Path) -> None:
    tokenizer.save(str(out / "tokenizer.json"))
    (out / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "BertTokenizer",
        "do_lower_case": True,
        "model_max_length": max_length,
        "cls_token": "[CLS]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "unk_token": "[UNK]",
        "mask_token": "[MASK]",
    }, indent=2) + "\n")


def export(model: torch.nn.Module, tokenizer: BertWordPieceTokenizer, output_names: list[str], dynamic: dict,
           path: pathlib.Path) -> None:
    tokenizer.enable_padding(pad_id=tokenizer.token_to_id("[PAD]"), pad_token="[PAD]")
    sample = tokenizer.encode_batch([("a first sample sentence", "its pair"), ("a second", "another pair of words")])
    tokenizer.no_padding()
    inputs = tuple(torch.tensor([getattr(e, field) for e in sample], dtype=torch.long)
                   for field in ("ids", "attention_mask", "type_ids"))
    path.parent.mkdir(parents=True, exist_ok=True)
    axes = {name: {0: "batch_size", 1: "sequence_length"} for name in ("input_ids", "attention_mask", "token_type_ids")}
    torch.onnx.export(
        model,
        inputs,
        str(path),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=output_names,
        dynamic_axes={**axes, **dynamic},
        opset_version=17,
        do_constant_folding=True,
        # The TorchScript exporter: one self-contained file, no onnxscript needed.
        dynamo=False,
    )


class LastHiddenState(torch.nn.Module):
    """BertModel without its pooler output, so the ONNX graph has the one output transformers.js
    pools from: last_hidden_state."""

    def __init__(self, bert: BertModel):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                         token_type_ids=token_type_ids).last_hidden_state


class Logits(torch.nn.Module):
    def __init__(self, model: BertForSequenceClassification):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    parser.add_argument("--kind", choices=["embedder", "reranker"], default="embedder")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--corpus", type=pathlib.Path, nargs="*",
                        help="text to train the vocabulary on (default: this repository's README and docs/)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    shape = SHAPES[args.shape]
    corpus = args.corpus or [REPO / "README.md", REPO / "CONTRIBUTING.md", REPO / "docs"]
    torch.manual_seed(args.seed)

    out: pathlib.Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    tokenizer = train_tokenizer(shape["vocab"], corpus)
    write_tokenizer(tokenizer, shape["positions"], out)

    config = BertConfig(
        vocab_size=shape["vocab"],
        hidden_size=shape["hidden"],
        num_hidden_layers=shape["layers"],
        num_attention_heads=shape["heads"],
        intermediate_size=shape["intermediate"],
        max_position_embeddings=shape["positions"],
        num_labels=1,
    )
    if args.kind == "embedder":
        model = BertModel(config, add_pooling_layer=False).eval()
        wrapped, outputs = LastHiddenState(model), ["last_hidden_state"]
        dynamic = {"last_hidden_state": {0: "batch_size", 1: "sequence_length"}}
        config.architectures = ["BertModel"]
    else:
        model = BertForSequenceClassification(config).eval()
        wrapped, outputs = Logits(model), ["logits"]
        dynamic = {"logits": {0: "batch_size"}}
        config.architectures = ["BertForSequenceClassification"]
        config.id2label = {0: "LABEL_0"}
        config.label2id = {"LABEL_0": 0}
    config.save_pretrained(str(out))
    with torch.no_grad():
        export(wrapped, tokenizer, outputs, dynamic, out / "onnx" / "model.onnx")

    if args.kind == "embedder":
        pooling = shape["pooling"]
        (out / "1_Pooling").mkdir()
        (out / "1_Pooling" / "config.json").write_text(json.dumps({
            "word_embedding_dimension": shape["hidden"],
            "pooling_mode_cls_token": pooling == "cls",
            "pooling_mode_mean_tokens": pooling == "mean",
            "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False,
        }, indent=2) + "\n")
        if shape["prompts"]:
            (out / "config_sentence_transformers.json").write_text(json.dumps({
                "prompts": shape["prompts"],
                "default_prompt_name": None,
                "similarity_fn_name": "cosine",
            }, indent=2) + "\n")

    (out / "README.md").write_text(
        f"# Random-weight {args.shape} {args.kind}\n\n"
        "Made by packages/embed/scripts/make-fixture-models.py "
        f"(`--shape {args.shape} --kind {args.kind} --seed {args.seed}`). The weights are random: its outputs "
        "have the right shape and cost, and no meaning.\n"
    )
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"{out}: {args.shape} {args.kind}, {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
