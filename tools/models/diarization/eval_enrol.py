"""Cosine similarities between speakers enrolled from one recording and speakers found in
another, for choosing a recognition threshold: each held-out speaker (eval split) has its
utterances split in two halves, as if from two recordings; a speaker's voice in a recording is
the centroid of the L2-normalised embeddings of its turns (whole utterances, cut to 6 s), itself
L2-normalised. Same-speaker scores compare a speaker's two halves; different-speaker scores
compare one speaker's first half with another's second half.

  /usr/bin/python3 tools/models/diarization/eval_enrol.py --model .cache/diar/emb.pt
  /usr/bin/python3 tools/models/diarization/eval_enrol.py --onnx tools/models/embedding-synth/onnx/model.onnx

--conversation-voices measures instead the five voices of the project's generated
conversations (tools/testing/conversation.ts: m3, f3, m7, f5, klatt2 at their pitches and
speeds, en-us), 12 utterances each, in 40 random draws of two recordings of 4 turns.
"""
import argparse
import os
import random
import sys
from multiprocessing import Pool

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


# tools/testing/conversation.ts' CONVERSATION_VOICES: (variant, pitch, speed)
CONVERSATION_VOICES = [("m3", 30, 150), ("f3", 80, 175), ("m7", 55, 190), ("f5", 95, 140), ("klatt2", 40, 165)]


def conversation_voice_scores(model, utterances=12, turns=4, draws=40):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from corpus.synth import speak, vocabulary
    rng, words = random.Random(3), vocabulary("en")
    jobs = [(" ".join(rng.choice(words) for _ in range(rng.randint(5, 12))), "en", "en-us", v, speed, pitch, 100, 0, None)
            for v, pitch, speed in CONVERSATION_VOICES for _ in range(utterances)]
    with Pool(2) as pool:
        audio = pool.map(speak, jobs)
    with torch.no_grad():
        e = np.stack([model(torch.from_numpy(fbank(a.astype(np.float32) / 32768.0))[None])[0].numpy() for a in audio])
    e = (e / np.linalg.norm(e, axis=1, keepdims=True)).reshape(len(CONVERSATION_VOICES), utterances, -1)
    same, diff = [], []
    for _ in range(draws):
        order = rng.sample(range(utterances), 2 * turns)
        a = np.stack([centroid(v[order[:turns]]) for v in e])
        b = np.stack([centroid(v[order[turns:]]) for v in e])
        sim = a @ b.T
        same += list(np.diag(sim))
        diff += list(sim[~np.eye(len(sim), dtype=bool)])
    return np.array(same), np.array(diff)


def centroid(e):
    c = e.mean(axis=0)
    return c / np.linalg.norm(c)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--model")
    ap.add_argument("--onnx")
    ap.add_argument("--attention", type=int, default=0, help="as the model was trained with")
    ap.add_argument("--turns", type=int, default=4, help="turns of a speaker in each recording")
    ap.add_argument("--conversation-voices", action="store_true")
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.onnx:
        model = from_onnx(a.onnx)
    else:
        model = Embedder(attention=a.attention)
        model.load_state_dict(torch.load(a.model))
    model.eval()
    q = [0, 1, 5, 25, 50, 75, 95, 99, 100]

    def show(name, v):
        print("%-34s n=%5d  mean %.3f  percentiles %s: %s" % (name, len(v), v.mean(), q,
              " ".join("%.3f" % x for x in np.percentile(v, q))))
    if a.conversation_voices:
        same, diff = conversation_voice_scores(model, turns=a.turns)
        print("the %d conversation voices, %d turns per recording" % (len(CONVERSATION_VOICES), a.turns))
        show("same speaker", same)
        show("different speakers", diff)
        sys.exit(0)
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
