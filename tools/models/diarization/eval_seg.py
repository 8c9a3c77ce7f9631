"""Frame-level error of the segmentation model on 10-s chunks of conversations of the eval split
(held-out voice variants m3, m7, f3, f5, klatt2 at pitches and speeds not trained on).

error = (missed + false alarm + confusion) / reference speech, counted per frame as pyannote
does (missed = max(0, |ref| - |hyp|), false alarm = max(0, |hyp| - |ref|), confusion =
min(|ref|, |hyp|) - |ref and hyp|), under the chunk's best mapping of model to reference speakers.

  /usr/bin/python3 tools/models/diarization/eval_seg.py --model .cache/diar/seg.pt --chunks 300
"""
import argparse
import random

import numpy as np
import torch

from chunks import chunk
from conversations import Pool_
from seg_model import PERMUTATIONS, Segmenter, to_multilabel


def counts(ref, hyp):
    r, h = ref.sum(1), hyp.sum(1)
    hit = (ref * hyp).sum(1)
    return np.maximum(0, r - h).sum(), np.maximum(0, h - r).sum(), (np.minimum(r, h) - hit).sum(), r.sum()


def best(ref, hyp):
    return min((counts(ref, hyp[:, list(p)]) for p in PERMUTATIONS), key=lambda c: c[0] + c[1] + c[2])


def evaluate(model, chunks, batch=16):
    tot = np.zeros(4)
    with torch.no_grad():
        for i in range(0, len(chunks), batch):
            x = torch.from_numpy(np.stack([c[0] for c in chunks[i: i + batch]])[:, None, :])
            hyp = to_multilabel(model(x)).numpy()
            for (_, ref), h in zip(chunks[i: i + batch], hyp):
                tot += best(ref, h)
    miss, fa, conf, speech = tot
    return dict(error=(miss + fa + conf) / speech, missed=miss / speech, false_alarm=fa / speech,
                confusion=conf / speech)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--chunks", type=int, default=300)
    a = ap.parse_args()
    torch.set_num_threads(1)
    np.random.seed(5)
    pool = Pool_("eval")
    rng = random.Random(12345)
    chunks = [chunk(pool, rng, with_speakers=True) for _ in range(a.chunks)]
    model = Segmenter()
    model.load_state_dict(torch.load(a.model))
    model.eval()
    r = evaluate(model, [c[:2] for c in chunks])
    print("held-out chunks: %d x 10 s; frame error %.2f%% (missed %.2f%%, false alarm %.2f%%, confusion %.2f%%)"
          % (a.chunks, 100 * r["error"], 100 * r["missed"], 100 * r["false_alarm"], 100 * r["confusion"]))
    # the same, split by whether two speakers of a chunk share a voice variant (then they differ
    # only in pitch, speed and language voice)
    variant = {s["id"]: s["variant"] for s in pool.speakers}
    shared = [len({variant[s] for s in c[2]}) < len(c[2]) for c in chunks]
    for name, keep in (("all variants distinct", False), ("a variant shared", True)):
        part = [c[:2] for c, sh in zip(chunks, shared) if sh == keep]
        if part:
            r = evaluate(model, part)
            print("  %s: %d chunks, frame error %.2f%% (confusion %.2f%%)"
                  % (name, len(part), 100 * r["error"], 100 * r["confusion"]))
