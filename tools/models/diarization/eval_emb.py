"""Equal error rate of cosine scores of the embedding model on 2-s crops of held-out speakers
(the eval split: variants m3, m7, f3, f5, klatt2 at eval pitches and speeds; two speakers of one
variant differ in pitch by >= 17 or speed by >= 35), and the clustering threshold calibrated on
the train split's last --calib speakers, which training never saw (no held-out variant among them).

The threshold is the cosine distance (1 - cosine similarity of L2-normalised embeddings) with
the fewest errors on same- vs different-speaker pairs, the two kinds weighted equally; pairs of
calibration speakers that are too alike to be told apart (same variant, pitch within 15 and
speed within 30) are left out.

  /usr/bin/python3 tools/models/diarization/eval_emb.py --model .cache/diar/emb.pt
  /usr/bin/python3 tools/models/diarization/eval_emb.py --onnx tools/models/embedding-synth/onnx/model.onnx

--onnx reads the weights of an exported model of the first architecture (plain statistics
pooling, batch norm folded into the convolutions), so that a committed model can be measured
again without its training checkpoint.
"""
import argparse

import numpy as np
import torch

from conversations import Pool_
from emb_model import Embedder
from fbank import fbank


def embed(model, pool, ids, seconds=2.0):
    n = int(seconds * 16000)
    out = []
    with torch.no_grad():
        for i in ids:
            x = pool.utterance(i)
            if len(x) > n:
                a = (len(x) - n) // 2
                x = x[a: a + n]
            out.append(model(torch.from_numpy(fbank(x))[None])[0].numpy())
    e = np.stack(out)
    return e / np.linalg.norm(e, axis=1, keepdims=True)


def from_onnx(path):
    import onnx
    from onnx import numpy_helper
    graph = onnx.load(path).graph
    w = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    c, pooled = w[convs[0].input[1]].shape[0], w[convs[-1].input[1]].shape[0]
    model = Embedder(c=c, pooled=pooled, attention=0)
    state = model.state_dict()
    for k, node in enumerate(convs):
        state["layers.%d.0.weight" % k] = w[node.input[1]]
        state["layers.%d.0.bias" % k] = w[node.input[2]]
        bn = "layers.%d.1." % k
        n = state[bn + "weight"].shape[0]
        # an identity batch norm: the export folded the trained one into the convolution
        state[bn + "weight"], state[bn + "bias"] = torch.ones(n), torch.zeros(n)
        state[bn + "running_mean"], state[bn + "running_var"] = torch.zeros(n), torch.full((n,), 1 - 1e-5)
    state["embedding.weight"], state["embedding.bias"] = w["embedding.weight"], w["embedding.bias"]
    model.load_state_dict(state)
    return model


def pair_scores(emb, spk, distinct):
    sim = emb @ emb.T
    iu = np.triu_indices(len(spk), 1)
    same = spk[iu[0]] == spk[iu[1]]
    keep = same | np.array([distinct(a, b) for a, b in zip(spk[iu[0]], spk[iu[1]])])
    return 1 - sim[iu][keep], same[keep]


def eer(dist, same):
    order = np.argsort(dist)
    d, s = dist[order], same[order]
    # accepting the first k pairs (distance <= d[k-1])
    frr = 1 - np.concatenate([[0], np.cumsum(s)]) / s.sum()
    far = np.concatenate([[0], np.cumsum(~s)]) / (~s).sum()
    k = int(np.argmin(np.abs(frr - far)))
    return (frr[k] + far[k]) / 2, d[max(k - 1, 0)]


def best_threshold(dist, same):
    ts = np.linspace(0, 2, 2001)
    ds, dd = np.sort(dist[same]), np.sort(dist[~same])
    miss = 1 - np.searchsorted(ds, ts, side="right") / len(ds)
    fa = np.searchsorted(dd, ts, side="right") / len(dd)
    err = miss + fa
    ks = np.nonzero(err <= err.min() + 1e-12)[0]
    k = (ks[0] + ks[-1]) // 2  # middle of the flat optimum
    return ts[k], miss[k], fa[k]


def distinct_fn(speakers):
    by = {s["id"]: s for s in speakers}

    def distinct(a, b):
        x, y = by[int(a)], by[int(b)]
        # made-up variants of different data folders share names
        return (x["variant"], x.get("data")) != (y["variant"], y.get("data")) or abs(x["pitch"] - y["pitch"]) >= 15 or abs(x["speed"] - y["speed"]) >= 30
    return distinct


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--model")
    ap.add_argument("--onnx")
    ap.add_argument("--attention", type=int, default=0, help="as the model was trained with")
    ap.add_argument("--calib", type=int, default=100)
    ap.add_argument("--per-speaker", type=int, default=6)
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.onnx:
        model = from_onnx(a.onnx)
    else:
        model = Embedder(attention=a.attention)
        model.load_state_dict(torch.load(a.model))
    model.eval()

    ev = Pool_("eval")
    ids = [i for s in ev.speaker_ids for i in ev.by_speaker[s][: a.per_speaker]]
    embs = embed(model, ev, ids)
    d, same = pair_scores(embs, ev.speaker[ids], distinct_fn(ev.speakers))
    e, t_eer = eer(d, same)
    t_ev, miss_ev, fa_ev = best_threshold(d, same)
    print("held-out: %d speakers, %d crops of 2 s, %d same / %d different pairs: EER %.2f%% (at distance %.3f);"
          " best distance threshold on held-out %.3f" % (len(ev.speaker_ids), len(ids), same.sum(), (~same).sum(),
                                                         100 * e, t_eer, t_ev))
    # different-speaker pairs split by whether the two share a voice variant
    variant = {s["id"]: s["variant"] for s in ev.speakers}
    spk = ev.speaker[ids]
    iu = np.triu_indices(len(ids), 1)
    a_, b_ = spk[iu[0]], spk[iu[1]]
    same_variant = np.array([variant[int(x)] == variant[int(y)] for x, y in zip(a_, b_)])
    for name, keep in (("different variants", ~same_variant | (a_ == b_)), ("same variant", same_variant)):
        e2, _ = eer(1 - (embs @ embs.T)[iu][keep], (a_ == b_)[keep])
        print("  EER with different-speaker pairs of %s only: %.2f%%" % (name, 100 * e2))

    tr = Pool_("train")
    cal = tr.speaker_ids[len(tr.speaker_ids) - a.calib:]
    ids = [i for s in cal for i in tr.by_speaker[s][: a.per_speaker]]
    dc, samec = pair_scores(embed(model, tr, ids), tr.speaker[ids], distinct_fn(tr.speakers))
    ec, _ = eer(dc, samec)
    t, miss, fa = best_threshold(dc, samec)
    miss_h, fa_h = (d[same] > t).mean(), (d[~same] <= t).mean()
    print("calibration: %d unseen training-style speakers, EER %.2f%%; threshold (cosine distance) %.3f:"
          " same-speaker pairs split %.2f%%, different-speaker pairs merged %.2f%%"
          % (len(cal), 100 * ec, t, 100 * miss, 100 * fa))
    print("that threshold on held-out pairs: same split %.2f%%, different merged %.2f%%" % (100 * miss_h, 100 * fa_h))
    print("THRESHOLD %.3f" % t)
