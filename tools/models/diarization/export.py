"""Exports the trained models to ONNX (fp32) into tools/models/{segmentation,embedding}-synth/onnx/
and writes, for check_onnx.mjs, a random input of each with the torch output.

  /usr/bin/python3 tools/models/diarization/export.py --seg .cache/diar/seg.pt --emb .cache/diar/emb.pt --threshold T
"""
import argparse
import json
import os

import numpy as np
import torch

from emb_model import Embedder
from seg_model import Segmenter

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(MODELS))


def export(model, name, x, in_name, out_name, axes_in, axes_out):
    path = os.path.join(MODELS, name, "onnx", "model.onnx")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.onnx.export(model, (x,), path, input_names=[in_name], output_names=[out_name], opset_version=14,
                      dynamic_axes={in_name: axes_in, out_name: axes_out}, do_constant_folding=True)
    with torch.no_grad():
        y = model(x)
    return path, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seg", required=True)
    ap.add_argument("--emb", required=True)
    ap.add_argument("--threshold", type=float, required=True)
    ap.add_argument("--check", default=os.path.join(REPO, ".cache", "diar", "onnx-check.json"))
    a = ap.parse_args()
    torch.manual_seed(1)
    seg = Segmenter()
    seg.load_state_dict(torch.load(a.seg))
    seg.eval()
    emb = Embedder()
    emb.load_state_dict(torch.load(a.emb))
    emb.eval()

    xs = 0.1 * torch.randn(2, 1, 160000)
    seg_path, ys = export(seg, "segmentation-synth", xs, "input_values", "logits",
                          {0: "batch_size", 2: "num_samples"}, {0: "batch_size", 1: "num_frames"})
    xe = torch.randn(2, 300, 80)
    emb_path, ye = export(emb, "embedding-synth", xe, "input_features", "embeddings",
                          {0: "batch_size", 1: "num_frames"}, {0: "batch_size"})
    # a second length, to check the dynamic axes
    xs2, xe2 = 0.1 * torch.randn(1, 1, 48000), torch.randn(1, 123, 80)
    with torch.no_grad():
        ys2, ye2 = seg(xs2), emb(xe2)

    def t(x):
        return {"dims": list(x.shape), "data": x.flatten().tolist()}
    with open(a.check, "w") as f:
        json.dump({"segmentation": {"path": seg_path, "cases": [[t(xs), t(ys)], [t(xs2), t(ys2)]]},
                   "embedding": {"path": emb_path, "cases": [[t(xe), t(ye)], [t(xe2), t(ye2)]]}}, f)

    n_seg = sum(p.numel() for p in seg.parameters())
    n_emb = sum(p.numel() for p in emb.parameters())
    with open(os.path.join(MODELS, "segmentation-synth", "config.json"), "w") as f:
        json.dump({
            "model_type": "pyannote",
            "architectures": ["PyAnnoteForAudioFrameClassification"],
            "num_labels": 7,
            "id2label": {str(i): l for i, l in enumerate(
                ["none", "spk0", "spk1", "spk2", "spk0+spk1", "spk0+spk2", "spk1+spk2"])},
            "label2id": {l: i for i, l in enumerate(
                ["none", "spk0", "spk1", "spk2", "spk0+spk1", "spk0+spk2", "spk1+spk2"])},
            "sampling_rate": 16000,
            "num_speakers": 3,
            "max_speakers_per_frame": 2,
            "frame_step": 270,
            "frame_span": 990,
            "output": "log_softmax",
            "lstm_hidden_size": 64,
            "lstm_num_layers": 2,
            "num_parameters": n_seg,
        }, f, indent=2)
        f.write("\n")
    with open(os.path.join(MODELS, "embedding-synth", "config.json"), "w") as f:
        json.dump({
            "model_type": "wespeaker-resnet",
            "architectures": ["WeSpeakerResNetModel"],
            "embedding_size": 256,
            "num_mel_bins": 80,
            "sampling_rate": 16000,
            "pooling": "mean+std",
            "murmur_clustering_threshold": round(a.threshold, 3),
            "murmur_clustering_linkage": "centroid",
            "murmur_clustering_metric": "cosine",
            "num_parameters": n_emb,
        }, f, indent=2)
        f.write("\n")
    for p in (seg_path, emb_path):
        print(p, os.path.getsize(p), "bytes")
    print("parameters: segmentation %d, embedding %d" % (n_seg, n_emb))


if __name__ == "__main__":
    main()
