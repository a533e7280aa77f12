#!/usr/bin/env python3
"""Serve a static model from `scripts/distil-static.py` as an OpenAI-compatible embeddings endpoint, for evaluation.

Evaluation only (issue 30): lets `pnpm eval --embed openai:<name>` run the real hybrid fusion with a static
model before any of it is written in TypeScript. Needs numpy and tokenizers (the eval-models venv has both).

    M=~/.cache/docs/eval-models
    $M/_venv/bin/python scripts/static-model-server.py --model $M/static-minilm-256 --port 8931 &
    DOCS_EMBED_URL=http://127.0.0.1:8931/v1 npx -y pnpm@10.34.9 eval ... --embed openai:static-minilm-256

`POST /v1/embeddings` takes `{model, input}` (a string or a list) and answers `{data: [{embedding, index}]}`. A
text's vector is the mean of its tokens' rows (the teacher's tokenizer, no special tokens, `[UNK]` dropped, the
first `max_tokens` of config.json), normalised; a text with no known token gets the zero vector.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer


class StaticModel:
    def __init__(self, folder: Path, int8: bool) -> None:
        self.config = json.loads((folder / "config.json").read_text())
        if int8:
            self.vectors = np.load(folder / "vectors-int8.npy").astype(np.float32) * (self.config["scale"] / 127)
        else:
            self.vectors = np.load(folder / "vectors.npy")
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.unk = self.tokenizer.token_to_id("[UNK]")
        self.max_tokens = int(self.config["max_tokens"])

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.vectors.shape[1]), dtype=np.float32)
        for i, encoding in enumerate(self.tokenizer.encode_batch(texts, add_special_tokens=False)):
            ids = [t for t in encoding.ids if t != self.unk][: self.max_tokens]
            if ids:
                v = self.vectors[ids].mean(axis=0)
                norm = np.linalg.norm(v)
                out[i] = v / norm if norm > 0 else v
        return out


def handler_for(model: StaticModel, quiet: bool) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
                self.send_error(404, "only POST /v1/embeddings")
                return
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            started = time.perf_counter()
            vectors = model.embed([str(t) for t in texts])
            if not quiet:
                ms = (time.perf_counter() - started) * 1000
                print(f"{len(texts)} texts in {ms:.1f} ms", file=sys.stderr, flush=True)
            answer = {
                "object": "list",
                "model": body.get("model", ""),
                "data": [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)],
            }
            payload = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, type=Path, help="folder written by scripts/distil-static.py")
    parser.add_argument("--port", type=int, default=8931)
    parser.add_argument("--int8", action="store_true", help="serve the int8 matrix (the shape a package would ship)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    model = StaticModel(args.model, args.int8)
    print(
        f"{args.model.name}: {model.vectors.shape[0]} × {model.vectors.shape[1]} loaded in "
        f"{(time.perf_counter() - started) * 1000:.0f} ms; http://127.0.0.1:{args.port}/v1",
        file=sys.stderr,
        flush=True,
    )
    ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(model, args.quiet)).serve_forever()


if __name__ == "__main__":
    main()
