"""Chooses the decoder cross-attention heads used for word timestamps (generation_config's
alignment_heads): the heads whose attention peak, for the text tokens of each utterance, falls
inside that utterance's true extent most often, on windows from the held-out split.

  /usr/bin/python3 tools/models/pick_heads.py --ckpt .cache/train/run1/ckpt.pt [--top 3]
Prints the scores and a JSON list for export.py --alignment-heads.
"""
import argparse
import json
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
    ap.add_argument("--windows", type=int, default=24)
    ap.add_argument("--top", type=int, default=3)
    args = ap.parse_args()
    model, ck = load_trained(args.ckpt)
    cfg = ck["config"]
    tok = WhisperTokenizer()
    pool = UtterancePool(os.path.join(REPO, ".cache", "corpus"), "eval")
    rng = np.random.default_rng(11)
    mel = LogMel()
    L, H = cfg["decoder_layers"], cfg["decoder_attention_heads"]
    hits = np.zeros((L, H))
    total = 0
    for _ in range(args.windows):
        w = build_window(rng, pool, tok, LANGS, kind="speech", mode="ts", noise=False)
        ids = torch.tensor([w["inputs"]])
        with torch.no_grad():
            enc = model.encode(mel(torch.from_numpy(w["audio"])[None]))
            _, crosses = model.decode_hidden(ids, enc)
        # the segment of each target token: timestamps open and close segments
        seg_of = []
        k = -1
        opened = False
        for t in w["targets"]:
            if tok.ts0 <= t < tok.ts0 + 1501:
                if not opened:
                    k += 1
                opened = not opened
                seg_of.append(None)
            elif 0 <= t < tok.eot and opened:
                seg_of.append(k)
            else:
                seg_of.append(None)
        for l in range(L):
            att = crosses[l][0].numpy()  # [H, T, S]
            for pos, kk in enumerate(seg_of):
                if kk is None or kk >= len(w["segments"]):
                    continue
                s, e = w["segments"][kk][0], w["segments"][kk][1]
                if e is None:
                    continue
                # the token predicted at pos is read at pos+1 (its own input position)
                if pos + 1 >= att.shape[1]:
                    continue
                peak = att[:, pos + 1, :].argmax(axis=-1) * 0.02
                hits[l] += (peak >= s - 0.1) & (peak <= e + 0.1)
                if l == 0:
                    total += 1
    score = hits / max(1, total)
    for l in range(L):
        print("layer %d: %s" % (l, " ".join("%.2f" % x for x in score[l])))
    order = np.dstack(np.unravel_index(np.argsort(-score.ravel()), score.shape))[0]
    best = [[int(l), int(h)] for l, h in order[: args.top]]
    print(json.dumps(best))


if __name__ == "__main__":
    main()
