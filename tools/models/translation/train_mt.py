"""Trains the translation test model on sentences of parallel rows (mt_corpus.sample_pair).

  OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 tools/models/translation/train_mt.py --minutes 25 --out .cache/mt/run1
"""
import argparse
import json
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mt_corpus as C  # noqa: E402
from mt_torch import M2M, make_config  # noqa: E402


def batch(rows, tok, rng, fillers, n, lang_id):
    srcs, tgts = [], []
    for _ in range(n):
        s, a, t, b = C.sample_pair(rows, rng, fillers)
        srcs.append([lang_id[s]] + tok.encode(a) + [C.EOS])
        # decoder: </s> __tgt__ words </s> (decoder_start_token_id, then the forced language)
        tgts.append([C.EOS, lang_id[t]] + tok.encode(b) + [C.EOS])
    S = max(map(len, srcs))
    T = max(map(len, tgts))
    src = torch.full((n, S), C.PAD, dtype=torch.long)
    mask = torch.zeros((n, S), dtype=torch.long)
    tgt = torch.full((n, T), C.PAD, dtype=torch.long)
    for i, (a, b) in enumerate(zip(srcs, tgts)):
        src[i, : len(a)] = torch.tensor(a)
        mask[i, : len(a)] = 1
        tgt[i, : len(b)] = torch.tensor(b)
    return src, mask, tgt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--ff", type=int, default=512)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    rows = C.read_rows()
    vocab = C.build_vocab(rows)
    tok = C.Tokenizer(vocab)
    lang_id = {l: tok.ids["__%s__" % l] for l in C.LANGS}
    cfg = make_config(len(vocab), lang_id, d=a.d, layers=a.layers, ff=a.ff)
    model = M2M(cfg)
    print("parameters", sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    rng = random.Random(a.seed)
    fillers = C.fillers_by_lang(rows)
    t0 = time.time()
    step, avg = 0, None
    budget = a.minutes * 60
    while True:
        el = time.time() - t0
        if el > budget:
            break
        # warm-up then cosine decay over the time budget
        frac = el / budget
        lr = a.lr * min(1.0, (step + 1) / 200) * (0.05 + 0.95 * 0.5 * (1 + torch.cos(torch.tensor(frac * 3.14159)).item()))
        for g in opt.param_groups:
            g["lr"] = lr
        src, mask, tgt = batch(rows, tok, rng, fillers, a.batch, lang_id)
        model.train()
        enc = model.encode(src, mask)
        logits = model.decode(tgt[:, :-1], enc, mask)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt[:, 1:].reshape(-1), ignore_index=C.PAD)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % 100 == 0:
            print("step %d  %.1f min  loss %.4f  lr %.2e" % (step, el / 60, avg, lr), flush=True)
            torch.save({"cfg": cfg, "model": model.state_dict(), "step": step}, os.path.join(a.out, "ckpt.pt"))
    torch.save({"cfg": cfg, "model": model.state_dict(), "step": step}, os.path.join(a.out, "ckpt.pt"))
    print("done", step, flush=True)


if __name__ == "__main__":
    main()
