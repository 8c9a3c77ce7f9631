"""Checks the torch log-mel and the Python BPE encoder against transformers.js.

  /usr/bin/python3 tools/models/verify/compare.py <staged model folder> <folder with node_modules/@huggingface/transformers>
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from whisper_torch import LogMel  # noqa: E402
from wtok import LANGS, WhisperTokenizer, shared_dir  # noqa: E402


def main():
    folder, tjs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rng = np.random.default_rng(0)
    n = 160000 if "whisper-synth" in folder else 480000
    audio = [
        (0.1 * rng.standard_normal(n)).astype(np.float32),
        np.concatenate([0.3 * np.sin(np.arange(40000) * 0.05), np.zeros(n - 40000)]).astype(np.float32),
        (0.05 * rng.standard_normal(n // 3)).astype(np.float32),  # shorter than the window
    ]
    tok = WhisperTokenizer()
    texts = []
    for l in LANGS:
        with open(os.path.join(shared_dir(), "test-corpus", "vocabulary.%s.txt" % l), encoding="utf-8") as f:
            words = f.read().split()
        texts.append(" " + " ".join(words))
        texts += [w for w in words]
    with tempfile.TemporaryDirectory() as tmp:
        inp, outp = os.path.join(tmp, "in.json"), os.path.join(tmp, "out.json")
        with open(inp, "w") as f:
            json.dump({"audio": [a.tolist() for a in audio], "texts": texts}, f)
        script = os.path.join(tjs, "murmur-features.mjs")
        with open(os.path.join(HERE, "features.mjs")) as src, open(script, "w") as dst:
            dst.write(src.read())
        subprocess.run(["node", script, folder, inp, outp], check=True)
        with open(outp) as f:
            res = json.load(f)
    mel = LogMel()
    worst = 0.0
    for a, r in zip(audio, res["features"]):
        padded = np.zeros(n, dtype=np.float32)
        padded[: len(a)] = a
        ours = mel(torch.from_numpy(padded)[None]).numpy()[0]
        theirs = np.array(r["data"], dtype=np.float32).reshape(r["dims"][1:])
        worst = max(worst, float(np.abs(ours - theirs).max()))
        print("features", ours.shape, theirs.shape, "max abs diff %.2e" % np.abs(ours - theirs).max())
    bad = [(t, tok.encode(t), r) for t, r in zip(texts, res["tokens"]) if tok.encode(t) != r]
    print("tokenizer: %d texts, %d differ" % (len(texts), len(bad)))
    for b in bad[:10]:
        print("  ", b)
    sys.exit(0 if worst < 1e-3 and not bad else 1)


if __name__ == "__main__":
    main()
