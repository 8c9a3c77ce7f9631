"""Benchmark models: generated (seeded random) weights at the exact dimensions of whisper-tiny
and whisper-base, exported like the test model, with the real config, generation and
preprocessor files (30 s windows) and the real tokenizer. They recognise nothing; their cost
per window and per token equals the production models'.

  /usr/bin/python3 tools/models/make-bench-models.py [--out .models] [--only tiny|base] [--no-fp32]

Writes <out>/murmur-bench/whisper-tiny/ and <out>/murmur-bench/whisper-base/ (fp32 and
quantized ONNX files). Not committed: run it when needed (npm run models:bench).
"""
import argparse
import os
import shutil
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_weights import bench_whisper  # noqa: E402
from export import export_model  # noqa: E402
from wtok import REPO, shared_dir  # noqa: E402

TOKENIZER_FILES = ["tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt", "added_tokens.json",
                   "special_tokens_map.json", "normalizer.json"]


def make(name, out_root, fp32=True):
    src = os.path.join(shared_dir(), "models", "whisper-configs", name)
    model, cfg = bench_whisper(name)
    out = os.path.join(out_root, "murmur-bench", "whisper-" + name)
    os.makedirs(out, exist_ok=True)
    export_model(model, cfg, out, quantize_too=True, keep_fp32=fp32)
    for f in ("config.json", "generation_config.json", "preprocessor_config.json"):
        shutil.copy(os.path.join(src, f), os.path.join(out, f))
    tok = os.path.join(shared_dir(), "models", "whisper-tokenizer")
    for f in TOKENIZER_FILES:
        shutil.copy(os.path.join(tok, f), os.path.join(out, f))
    for f in sorted(os.listdir(os.path.join(out, "onnx"))):
        print("%s/onnx/%-40s %7.1f MB" % (out, f, os.path.getsize(os.path.join(out, "onnx", f)) / 1e6), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(REPO, ".models"))
    ap.add_argument("--only", choices=["tiny", "base"])
    ap.add_argument("--no-fp32", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(2)
    torch.backends.mkldnn.enabled = False
    for name in ([args.only] if args.only else ["tiny", "base"]):
        make(name, args.out, fp32=not args.no_fp32)


if __name__ == "__main__":
    main()
