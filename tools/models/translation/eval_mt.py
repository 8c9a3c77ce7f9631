"""Greedy translations of new row sequences by a checkpoint: word error per language pair,
clean and with noisy sources (as in training).

  /usr/bin/python3 tools/models/translation/eval_mt.py --ckpt .cache/mt/run1/ckpt.pt
"""
import argparse
import os
import random
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mt_corpus as C  # noqa: E402
from mt_torch import M2M  # noqa: E402


def wer(ref, hyp):
    r, h = ref.lower().split(), hyp.lower().split()
    row = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        nxt = [i]
        for j in range(1, len(h) + 1):
            nxt.append(min(row[j - 1] + (r[i - 1] != h[j - 1]), row[j] + 1, nxt[j - 1] + 1))
        row = nxt
    return row[-1], len(r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--n", type=int, default=40)
    a = ap.parse_args()
    torch.set_num_threads(1)
    ck = torch.load(a.ckpt, map_location="cpu")
    model = M2M(ck["cfg"], drop=0.0)
    model.load_state_dict(ck["model"])
    model.eval()
    rows = C.read_rows()
    tok = C.Tokenizer(C.build_vocab(rows))
    lang_id = ck["cfg"]["murmur_languages"]
    fillers = C.fillers_by_lang(rows)
    rng = random.Random(12345)
    for noisy in (0.0, 1.0):
        errs, total = 0, 0
        for _ in range(a.n):
            s, src, t, ref = C.sample_pair(rows, rng, fillers, noisy_share=noisy, max_rows=10)
            ids = torch.tensor([[lang_id[s]] + tok.encode(src) + [C.EOS]])
            with torch.no_grad():
                enc = model.encode(ids, torch.ones_like(ids))
                out = [C.EOS, lang_id[t]]
                for _ in range(40):
                    logits = model.decode(torch.tensor([out]), enc, torch.ones_like(ids))
                    nxt = int(logits[0, -1].argmax())
                    if nxt == C.EOS:
                        break
                    out.append(nxt)
            hyp = tok.decode(out[2:])
            e, n = wer(ref, hyp)
            errs, total = errs + e, total + n
        print("step %d noisy %.0f: word error %.1f%% of %d words" % (ck["step"], noisy, 100 * errs / total, total))


if __name__ == "__main__":
    main()
