"""Trains the segmentation model (seg_model.py) on random 10-s chunks of generated conversations
of the train split, for a fixed wall-clock budget, one thread.

  OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 tools/models/diarization/train_seg.py --minutes 28 --out .cache/diar/seg.pt
"""
import argparse
import math
import random
import time

import numpy as np
import torch

from chunks import batch
from conversations import Pool_
from seg_model import Segmenter, pit_loss

ap = argparse.ArgumentParser()
ap.add_argument("--minutes", type=float, default=28)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--lr", type=float, default=3e-3)
ap.add_argument("--out", required=True)
a = ap.parse_args()

torch.set_num_threads(1)
torch.manual_seed(0)
rng = random.Random(11)
np.random.seed(11)
pool = Pool_("train")
model = Segmenter()
opt = torch.optim.Adam(model.parameters(), lr=a.lr)
budget = a.minutes * 60
t0 = time.time()
step, avg = 0, None
while True:
    frac = (time.time() - t0) / budget
    if frac >= 1:
        break
    lr = a.lr * min(1.0, (step + 1) / 50) * (0.5 * (1 + math.cos(math.pi * frac)) * 0.97 + 0.03)
    for g in opt.param_groups:
        g["lr"] = lr
    x, y = batch(pool, rng, a.batch)
    loss = pit_loss(model(torch.from_numpy(x)), torch.from_numpy(y))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    step += 1
    avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
    if step % 25 == 0:
        print("step %d  %.1f min  lr %.2e  loss %.4f" % (step, (time.time() - t0) / 60, lr, avg), flush=True)
    if step % 200 == 0:
        torch.save(model.state_dict(), a.out)
torch.save(model.state_dict(), a.out)
print("done: %d steps, %d chunks, %.1f min" % (step, step * a.batch, (time.time() - t0) / 60), flush=True)
