"""Trains the speaker embedding model (emb_model.py) by classifying the train split's speakers
(all but the last --calib speakers, kept for calibrating the clustering threshold) on crops of
1.5-4 s of their utterances (--crop-min/--crop-max frames), with an additive-margin softmax;
fixed wall-clock budget, one thread.

  OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 tools/models/diarization/train_emb.py --minutes 28 --out .cache/diar/emb.pt

--init-onnx continues from the weights of an exported model (its batch norms folded into the
convolutions, so they stay identities and are not trained on batch statistics); the margin
softmax's speaker weights then start at each speaker's mean embedding, so that the first steps
do not undo what the model knows.
"""
import argparse
import math
import random
import time

import numpy as np
import torch

from conversations import Pool_
from emb_model import Embedder, MarginSoftmax
from fbank import raw_fbank

ap = argparse.ArgumentParser()
ap.add_argument("--minutes", type=float, default=28)
ap.add_argument("--batch", type=int, default=64)
ap.add_argument("--lr", type=float, default=2e-3)
ap.add_argument("--calib", type=int, default=100)
ap.add_argument("--attention", type=int, default=0, help="attentive pooling's hidden size (0: plain)")
ap.add_argument("--crop-min", type=int, default=150)
ap.add_argument("--crop-max", type=int, default=400)
ap.add_argument("--init-onnx", help="start from this exported model's weights")
ap.add_argument("--out", required=True)
a = ap.parse_args()

torch.set_num_threads(1)
torch.manual_seed(0)
rng = random.Random(13)
nrng = np.random.default_rng(13)
pool = Pool_("train")
speakers = pool.speaker_ids[: len(pool.speaker_ids) - a.calib]
label = {s: i for i, s in enumerate(speakers)}
t0 = time.time()
# features of every training utterance, with a random low noise floor (or none) mixed in
feats = {}
for s in speakers:
    for u in pool.by_speaker[s]:
        x = pool.utterance(u)
        if nrng.random() < 0.7:
            x = x + np.float32(10 ** (nrng.uniform(-75, -35) / 20) * np.abs(x).max()) * nrng.standard_normal(len(x)).astype(np.float32)
        feats[u] = raw_fbank(x).astype(np.float16)
print("model: %d parameters" % sum(p.numel() for p in Embedder(attention=a.attention).parameters()), flush=True)
print("features of %d utterances of %d speakers in %.1f min" % (len(feats), len(speakers), (time.time() - t0) / 60), flush=True)


def crop(s, n):
    u = rng.choice(pool.by_speaker[s])
    f = feats[u]
    while len(f) < n:
        f = np.concatenate([f, feats[rng.choice(pool.by_speaker[s])]])
    a0 = rng.randrange(0, len(f) - n + 1)
    c = f[a0: a0 + n].astype(np.float32)
    return c - c.mean(axis=0, keepdims=True)


if a.init_onnx:
    from eval_emb import from_onnx
    model = from_onnx(a.init_onnx)
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm1d)]
else:
    model = Embedder(attention=a.attention)
    norms = []
head = MarginSoftmax(256, len(speakers))
if a.init_onnx:
    with torch.no_grad():
        model.eval()
        for s in speakers:
            x = torch.from_numpy(np.stack([crop(s, 300) for _ in range(2)]))
            head.weight[label[s]] = torch.nn.functional.normalize(model(x), dim=1).mean(dim=0)
        model.train()
    print("speaker weights from the model's embeddings in %.1f min" % ((time.time() - t0) / 60), flush=True)
opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=a.lr, weight_decay=1e-5)
budget = a.minutes * 60
t0 = time.time()
step, avg, acc = 0, None, None
while True:
    frac = (time.time() - t0) / budget
    if frac >= 1:
        break
    lr = a.lr * min(1.0, (step + 1) / 100) * (0.5 * (1 + math.cos(math.pi * frac)) * 0.97 + 0.03)
    for g in opt.param_groups:
        g["lr"] = lr
    margin = 0.2 * min(1.0, frac / 0.25)
    n = rng.randint(a.crop_min, a.crop_max)
    batch = [rng.choice(speakers) for _ in range(a.batch)]
    x = torch.from_numpy(np.stack([crop(s, n) for s in batch]))
    y = torch.tensor([label[s] for s in batch])
    for m in norms:
        m.eval()
    loss, accuracy = head(model(x), y, margin)
    opt.zero_grad()
    loss.backward()
    opt.step()
    step += 1
    avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
    acc = accuracy.item() if acc is None else 0.98 * acc + 0.02 * accuracy.item()
    if step % 25 == 0:
        print("step %d  %.1f min  lr %.2e  margin %.2f  loss %.3f  acc %.3f" % (step, (time.time() - t0) / 60, lr, margin, avg, acc), flush=True)
    if step % 200 == 0:
        torch.save(model.state_dict(), a.out)
torch.save(model.state_dict(), a.out)
print("done: %d steps, %d crops, %.1f min" % (step, step * a.batch, (time.time() - t0) / 60), flush=True)
