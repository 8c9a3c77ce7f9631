"""Rebuilds a training checkpoint from an exported fp32 model folder (the committed test model).

  /usr/bin/python3 tools/models/from_onnx.py --model tools/models/whisper-synth --out .cache/train/committed.pt

Training checkpoints live in the git-ignored cache; the committed ONNX files hold every weight
the model computes with. This reads them back into the torch model so that training can go on
from the committed weights (train.py --init) on a machine that never had the checkpoint.

How the weights are found: a model of the same configuration gets distinct random values in
every parameter and is exported by export.py's own code; each of its ONNX initializers then
equals exactly one parameter (or its transpose), and the committed file's initializer at the
same place in the same graph holds that parameter's trained value. Last, the rebuilt model is
exported again and every initializer and constant is compared with the committed files.

The encoder's CTC head is used in training only and is not exported: the checkpoint has none,
and train.py starts a new one.
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from export import export_model  # noqa: E402
from train import token_subset  # noqa: E402
from whisper_torch import Whisper  # noqa: E402
from wtok import WhisperTokenizer  # noqa: E402

CONFIG_KEYS = ["d_model", "encoder_layers", "decoder_layers", "encoder_attention_heads", "decoder_attention_heads",
               "encoder_ffn_dim", "decoder_ffn_dim", "num_mel_bins", "max_source_positions",
               "max_target_positions", "vocab_size"]


def export_fp32(model, cfg):
    """The fp32 files export.py writes for this model, as ONNX models."""
    with tempfile.TemporaryDirectory() as tmp:
        return export_model(model, cfg, tmp, quantize_too=False)


def tensors(model):
    """Initializers and Constant-node tensors of a graph and its subgraphs, in graph order."""
    out = [numpy_helper.to_array(i) for i in model.graph.initializer]

    def walk(g):
        for node in g.node:
            if node.op_type == "Constant":
                out.extend(numpy_helper.to_array(a.t) for a in node.attribute if a.name == "value")
            for a in node.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)

    walk(model.graph)
    return out


def match(fresh, params):
    """For each initializer of the fresh export: the parameter it holds and whether transposed."""
    found = []
    for init in fresh.graph.initializer:
        a = numpy_helper.to_array(init)
        hit = None
        for name, p in params.items():
            w = p.detach().numpy()
            if w.shape == a.shape and np.array_equal(w, a):
                hit = (name, False)
            elif w.ndim == 2 and w.T.shape == a.shape and np.array_equal(w.T, a):
                hit = (name, True)
            if hit:
                break
        found.append(hit)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=os.path.join(HERE, "whisper-synth"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--enc-pos-tiles", type=int, default=2,
                    help="the encoder positions' tiling (2 for the committed model, widened once by grow.py)")
    args = ap.parse_args()
    torch.backends.mkldnn.enabled = False
    with open(os.path.join(args.model, "config.json"), encoding="utf-8") as f:
        exported = json.load(f)
    cfg = {k: exported[k] for k in CONFIG_KEYS}
    cfg["enc_pos_tiles"] = args.enc_pos_tiles
    cfg["token_subset"] = token_subset(WhisperTokenizer())

    model = Whisper(dict(cfg))
    model.eval()
    params = dict(model.named_parameters())
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in params.values():
            p.copy_(torch.randn(p.shape, generator=gen))
    fresh = export_fp32(model, cfg)

    state = {}
    for fname, fresh_model in fresh.items():
        committed = onnx.load(os.path.join(args.model, "onnx", fname))
        if len(committed.graph.initializer) != len(fresh_model.graph.initializer):
            raise SystemExit("%s: %d initializers, the export of this configuration has %d" % (
                fname, len(committed.graph.initializer), len(fresh_model.graph.initializer)))
        for (hit, init) in zip(match(fresh_model, params), committed.graph.initializer):
            if hit is None:
                continue  # an index or a buffer, checked below
            name, transposed = hit
            a = numpy_helper.to_array(init)
            state[name] = torch.from_numpy((a.T if transposed else a).copy())
    missing = sorted(set(params) - set(state))
    if missing:
        raise SystemExit("not found in the export: " + ", ".join(missing))
    model.load_state_dict(state, strict=False)

    again = export_fp32(model, cfg)
    for fname, m in again.items():
        committed = onnx.load(os.path.join(args.model, "onnx", fname))
        a, b = tensors(m), tensors(committed)
        same = len(a) == len(b) and all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b))
        if not same:
            raise SystemExit("%s: the rebuilt model does not export to the same tensors" % fname)
        print("%s: %d tensors identical after re-export" % (fname, len(a)))

    full = model.state_dict()
    torch.save(dict(model=full, ctc_head={}, config=cfg, subset=cfg["token_subset"], step=0, spent=0.0), args.out)
    print("wrote %s (%.2fM parameters)" % (args.out, sum(p.numel() for p in params.values()) / 1e6))


if __name__ == "__main__":
    main()
