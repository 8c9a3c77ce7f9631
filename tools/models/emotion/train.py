"""Trains the emotion test model on espeak-ng sentences in four manners and exports it.

usage: /usr/bin/python3 tools/models/emotion/train.py [--per-class N] [--epochs E] [--out DIR]
"""
import argparse
import json
import os
import random
import time

import numpy as np
import torch
from torch import nn

from manners import LABELS, dataset
from model import EmotionNet

torch.set_num_threads(2)


def normalise(x):
    """What Wav2Vec2FeatureExtractor does with do_normalize."""
    return (x - x.mean()) / np.sqrt(x.var() + 1e-7)


def crops(xs, ys, rng, seconds=(1.0, 3.0)):
    """Random crops of one length a batch (the model pools over time)."""
    length = int(rng.uniform(*seconds) * 16000)
    out = []
    for x in xs:
        if len(x) <= length:
            x = np.pad(x, (0, length - len(x)))
        else:
            start = rng.randrange(0, len(x) - length + 1)
            x = x[start:start + length]
        out.append(normalise(x))
    return torch.tensor(np.stack(out), dtype=torch.float32), torch.tensor(ys)


def accuracy(model, xs, ys):
    model.eval()
    with torch.no_grad():
        guesses = [int(model(torch.tensor(normalise(x), dtype=torch.float32)[None]).argmax()) for x in xs]
    model.train()
    return float(np.mean(np.array(guesses) == ys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-class", type=int, default=300)
    ap.add_argument("--eval-per-class", type=int, default=40)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "../emotion-synth"))
    args = ap.parse_args()
    torch.manual_seed(0)
    rng = random.Random(0)
    t = time.time()
    xs, ys = dataset(args.per_class, seed=1)
    exs, eys = dataset(args.eval_per_class, seed=2, held_out=True)
    print(f"data: {len(xs)} train, {len(exs)} held-out ({time.time() - t:.0f} s)", flush=True)

    model = EmotionNet(classes=len(LABELS))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-2)
    steps_per_epoch = len(xs) // 32
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * steps_per_epoch)
    loss_fn = nn.CrossEntropyLoss()
    order = list(range(len(xs)))
    for epoch in range(args.epochs):
        rng.shuffle(order)
        total = 0.0
        for b in range(steps_per_epoch):
            idx = order[b * 32:(b + 1) * 32]
            x, y = crops([xs[i] for i in idx], ys[idx], rng)
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f"epoch {epoch + 1}: loss {total / steps_per_epoch:.3f} held-out acc {accuracy(model, exs, eys):.3f}", flush=True)

    model.eval()
    os.makedirs(os.path.join(args.out, "onnx"), exist_ok=True)
    torch.onnx.export(
        model, torch.zeros(1, 32000), os.path.join(args.out, "onnx", "model.onnx"),
        input_names=["input_values"], output_names=["logits"],
        dynamic_axes={"input_values": {0: "batch_size", 1: "sequence_length"}, "logits": {0: "batch_size"}},
        opset_version=14,
    )
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump({
            "model_type": "wav2vec2",
            "architectures": ["Wav2Vec2ForSequenceClassification"],
            "id2label": {str(i): l for i, l in enumerate(LABELS)},
            "label2id": {l: i for i, l in enumerate(LABELS)},
            "num_parameters": sum(p.numel() for p in model.parameters()),
        }, f, indent=2)
        f.write("\n")
    with open(os.path.join(args.out, "preprocessor_config.json"), "w") as f:
        json.dump({
            "feature_extractor_type": "Wav2Vec2FeatureExtractor",
            "feature_size": 1,
            "sampling_rate": 16000,
            "padding_value": 0.0,
            "do_normalize": True,
            "return_attention_mask": False,
        }, f, indent=2)
        f.write("\n")
    print("exported to", os.path.abspath(args.out))


if __name__ == "__main__":
    main()
