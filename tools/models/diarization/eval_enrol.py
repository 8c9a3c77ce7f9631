"""Cosine similarities between speakers enrolled from one recording and speakers found in
another, for choosing a recognition threshold: each held-out speaker (eval split) has its
utterances split in two halves, as if from two recordings; a speaker's voice in a recording is
the centroid of the L2-normalised embeddings of its turns (whole utterances, cut to 6 s), itself
L2-normalised. Same-speaker scores compare a speaker's two halves; different-speaker scores
compare one speaker's first half with another's second half.

  /usr/bin/python3 tools/models/diarization/eval_enrol.py --model .cache/diar/emb.pt
  /usr/bin/python3 tools/models/diarization/eval_enrol.py --onnx tools/models/embedding-synth/onnx/model.onnx
"""
import argparse

import numpy as np
import torch

from conversations import Pool_
from emb_model import Embedder
from eval_emb import from_onnx
from fbank import fbank


def turn_embeddings(model, pool, ids, seconds=6.0):
    n = int(seconds * 16000)
    out = []
    with torch.no_grad():
        for i in ids:
            x = pool.utterance(i)[:n]
            out.append(model(torch.from_numpy(fbank(x))[None])[0].numpy())
    e = np.stack(out)
    return e / np.linalg.norm(e, axis=1, keepdims=True)


def centroid(e):
    c = e.mean(axis=0)
    return c / np.linalg.norm(c)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--model")
    ap.add_argument("--onnx")
    ap.add_argument("--attention", type=int, default=0, help="as the model was trained with")
    ap.add_argument("--turns", type=int, default=4, help="turns of a speaker in each recording")
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.onnx:
        model = from_onnx(a.onnx)
    else:
        model = Embedder(attention=a.attention)
        model.load_state_dict(torch.load(a.model))
    model.eval()
    ev = Pool_("eval")
    spk = [s for s in ev.speaker_ids if len(ev.by_speaker[s]) >= 2 * a.turns]
    enrolled, found = [], []
    for s in spk:
        u = ev.by_speaker[s]
        enrolled.append(centroid(turn_embeddings(model, ev, u[: a.turns])))
        found.append(centroid(turn_embeddings(model, ev, u[a.turns: 2 * a.turns])))
    sim = np.stack(enrolled) @ np.stack(found).T
    same = np.diag(sim)
    variant = np.array([ev.speakers[s]["variant"] for s in spk])
    off = ~np.eye(len(spk), dtype=bool)
    diff = sim[off]
    diff_same_variant = sim[off & (variant[:, None] == variant[None, :])]
    diff_other_variant = sim[variant[:, None] != variant[None, :]]
    q = [0, 1, 5, 25, 50, 75, 95, 99, 100]

    def show(name, v):
        print("%-34s n=%5d  mean %.3f  percentiles %s: %s" % (name, len(v), v.mean(), q,
              " ".join("%.3f" % x for x in np.percentile(v, q))))
    print("%d held-out speakers, %d turns per recording" % (len(spk), a.turns))
    show("same speaker", same)
    show("different speakers", diff)
    show("different speakers, same variant", diff_same_variant)
    show("different speakers, other variants", diff_other_variant)
    # the best match of each found speaker among the enrolled: is it right?
    print("best enrolled match right for %d of %d found speakers" % ((sim.argmax(axis=0) == np.arange(len(spk))).sum(), len(spk)))
    for t in [0.5, 0.6, 0.7, 0.8, 0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96]:
        print("threshold %.2f: same accepted %.1f%%, different accepted %.2f%% (of other variants %.2f%%)"
              % (t, 100 * (same >= t).mean(), 100 * (diff >= t).mean(), 100 * (diff_other_variant >= t).mean()))
