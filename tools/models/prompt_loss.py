"""How well a checkpoint transcribes after earlier text: decoder cross-entropy by prompt length.

  /usr/bin/python3 tools/models/prompt_loss.py --ckpt .cache/train/run1/ckpt.pt

In a recording longer than one window, every window after the first is decoded after the text
of the speech before it (`<|startofprev|>`, up to 223 tokens). The same training windows are
scored without a prompt and with the text of 1, 4 and 16 training utterances of their language
as the prompt; a model that has learned to read its prompt scores about the same in every row.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))
from whisper_torch import LogMel, load_trained  # noqa: E402
from windows import IGNORE, UtterancePool, build_window  # noqa: E402
from wtok import LANGS, REPO, WhisperTokenizer  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--windows", type=int, default=24, help="windows per prompt length")
    ap.add_argument("--corpus", default=os.path.join(REPO, ".cache", "corpus"))
    args = ap.parse_args()
    model, ck = load_trained(args.ckpt, threads=1)
    tok = WhisperTokenizer()
    pool = UtterancePool(args.corpus, "train")
    mel = LogMel()
    subset = torch.tensor(ck["subset"])
    remap = torch.full((tok.vocab_size,), IGNORE, dtype=torch.long)
    remap[subset] = torch.arange(len(subset))
    table = model.embed.weight[:-1] if model.compact else model.embed.weight[subset]
    print("| prompt (utterances) | decoder tokens (mean) | cross-entropy per target token |")
    print("|---|---|---|")
    for count in (0, 1, 4, 16):
        rng = np.random.default_rng(5)  # the same windows in every row
        prompt_rng = np.random.default_rng(6)
        losses, lengths = [], []
        for _ in range(args.windows):
            prompt = None
            if count:
                def prompt(lang, n=count):
                    return " ".join(pool.pick_text(prompt_rng, lang) for _ in range(n))
            w = build_window(rng, pool, tok, LANGS, kind="speech", prompt=prompt)
            feats = mel(torch.from_numpy(w["audio"][None]))
            inputs = torch.tensor([w["inputs"]])
            targets = torch.tensor(w["targets"])
            with torch.no_grad():
                h, _ = model.decode_hidden(inputs, model.encode(feats))
                logits = F.linear(h[0], table)
            t = remap[targets.clamp(min=0)].masked_fill(targets < 0, IGNORE)
            losses.append(float(F.cross_entropy(logits, t, ignore_index=IGNORE)))
            lengths.append(len(w["inputs"]))
        print("| %d | %.0f | %.3f |" % (count, np.mean(lengths), np.mean(losses)), flush=True)


if __name__ == "__main__":
    main()
