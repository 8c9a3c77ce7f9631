"""Greedy decoding with the torch checkpoint (a quick look during training).

  /usr/bin/python3 tools/models/greedy.py --ckpt .cache/train/run1/ckpt.pt [--n 4]
"""
import argparse
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))
from whisper_torch import LogMel, load_trained  # noqa: E402
from windows import UtterancePool, build_window  # noqa: E402
from wtok import LANGS, REPO, WhisperTokenizer  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--split", default="eval")
    args = ap.parse_args()
    model, ck = load_trained(args.ckpt, threads=1)
    if not model.compact:
        bias = torch.full((51865,), -100.0)
        bias[torch.tensor(ck["subset"])] = 0
        model.logit_bias.copy_(bias)
    tok = WhisperTokenizer()
    pool = UtterancePool(os.path.join(REPO, ".cache", "corpus"), args.split)
    rng = np.random.default_rng(5)
    mel = LogMel()
    for _ in range(args.n):
        w = build_window(rng, pool, tok, LANGS, kind="speech", mode="ts", noise=False)
        with torch.no_grad():
            enc = model.encode(mel(torch.from_numpy(w["audio"])[None]))
            ids = [tok.sot]
            h, _ = model.decode_hidden(torch.tensor([ids]), enc)
            lang = int(model.logits(h)[0, -1].argmax())
            ids = [tok.sot, tok.lang[w["lang"]], tok.transcribe]
            while len(ids) < 120:
                h, _ = model.decode_hidden(torch.tensor([ids]), enc)
                nxt = int(model.logits(h)[0, -1].argmax())
                ids.append(nxt)
                if nxt == tok.eot:
                    break
        print("REF", w["lang"], [(round(s, 2), e and round(e, 2), t) for s, e, t, l, c in w["segments"]])
        print("HYP", tok.decode([lang], True), tok.decode(ids[3:], True))


if __name__ == "__main__":
    main()
