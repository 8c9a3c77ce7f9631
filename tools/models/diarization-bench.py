"""Benchmark speaker models: generated (seeded random) weights at the sizes of the production
models, with their inputs and outputs: pyannote segmentation 3.0 (a SincNet-sized front end of
80 filters of 251 samples, three convolution and pooling steps, a 4-layer bidirectional LSTM
of 128, two linear layers of 128 and 7 powerset classes; about 1.5 M parameters) and WeSpeaker
ResNet34 (32 base channels, 80-bin fbank in, 256-d embedding out; about 6.6 M parameters).
They find no speakers; their cost per window and per embedding equals the production models'.

  /usr/bin/python3 tools/models/diarization-bench.py [--out .models]

Writes <out>/murmur-bench/segmentation-3.0-sized/ and <out>/murmur-bench/wespeaker-resnet34-sized/
(config, preprocessor config, onnx/model.onnx). Not committed: the benchmark makes them when
missing (npm run bench:diarization).
"""
import argparse
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Segmentation(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.ModuleList([nn.Conv1d(1, 80, 251, stride=10), nn.Conv1d(80, 60, 5), nn.Conv1d(60, 60, 5)])
        self.norm = nn.ModuleList([nn.InstanceNorm1d(c, affine=True) for c in (80, 60, 60)])
        self.lstm = nn.LSTM(60, 128, num_layers=4, bidirectional=True, batch_first=True)
        self.linear = nn.ModuleList([nn.Linear(256, 128), nn.Linear(128, 128)])
        self.classifier = nn.Linear(128, 7)

    def forward(self, x):
        for i, (conv, norm) in enumerate(zip(self.conv, self.norm)):
            x = conv(x)
            if i == 0:
                x = torch.abs(x)
            x = F.leaky_relu(norm(F.max_pool1d(x, 3)))
        x, _ = self.lstm(x.transpose(1, 2))
        for linear in self.linear:
            x = F.leaky_relu(linear(x))
        return F.log_softmax(self.classifier(x), dim=-1)


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.short = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                      if stride != 1 or cin != cout else nn.Identity())

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(y)) + self.short(x))


class ResNet34(nn.Module):
    def __init__(self, m=32, dim=256, bins=80):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, m, 3, 1, 1, bias=False), nn.BatchNorm2d(m), nn.ReLU())
        layers, cin = [], m
        for cout, n, stride in ((m, 3, 1), (2 * m, 4, 2), (4 * m, 6, 2), (8 * m, 3, 2)):
            for i in range(n):
                layers.append(Block(cin, cout, stride if i == 0 else 1))
                cin = cout
        self.layers = nn.Sequential(*layers)
        self.embed = nn.Linear(8 * m * (bins // 8) * 2, dim)

    def forward(self, feats):
        x = self.layers(self.stem(feats.transpose(1, 2).unsqueeze(1)))
        x = x.flatten(1, 2)
        stats = torch.cat([x.mean(-1), torch.sqrt(x.var(-1) + 1e-5)], dim=1)
        return self.embed(stats)


def write(folder, model, example, names, axes, config, preprocessor):
    os.makedirs(os.path.join(folder, "onnx"), exist_ok=True)
    model.eval()
    torch.onnx.export(model, (example,), os.path.join(folder, "onnx", "model.onnx"), input_names=[names[0]],
                      output_names=[names[1]], dynamic_axes=axes, opset_version=14)
    for name, body in (("config.json", config), ("preprocessor_config.json", preprocessor)):
        with open(os.path.join(folder, name), "w") as f:
            json.dump(body, f, indent=2)
    params = sum(p.numel() for p in model.parameters())
    size = os.path.getsize(os.path.join(folder, "onnx", "model.onnx"))
    print("%s: %d parameters, %.1f MB" % (folder, params, size / 1e6))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(REPO, ".models"))
    out = os.path.join(ap.parse_args().out, "murmur-bench")
    torch.manual_seed(5)
    torch.set_num_threads(2)
    write(os.path.join(out, "segmentation-3.0-sized"), Segmentation(), 0.1 * torch.randn(1, 1, 160000),
          ("input_values", "logits"), {"input_values": {0: "batch_size", 2: "num_samples"},
                                        "logits": {0: "batch_size", 1: "num_frames"}},
          {"model_type": "pyannote", "architectures": ["PyAnnoteForAudioFrameClassification"], "num_labels": 7},
          {"feature_extractor_type": "PyAnnoteFeatureExtractor", "processor_class": "PyAnnoteProcessor",
           "sampling_rate": 16000, "feature_size": 1, "offset": 990, "step": 270, "padding_side": "right",
           "padding_value": 0.0, "return_attention_mask": False})
    write(os.path.join(out, "wespeaker-resnet34-sized"), ResNet34(), torch.randn(1, 300, 80),
          ("input_features", "embeddings"), {"input_features": {0: "batch_size", 1: "num_frames"},
                                             "embeddings": {0: "batch_size"}},
          {"model_type": "wespeaker-resnet", "architectures": ["WeSpeakerResNetModel"]},
          {"feature_extractor_type": "WeSpeakerFeatureExtractor", "feature_size": 80, "num_mel_bins": 80,
           "sampling_rate": 16000, "fbank_centering_span": None, "min_num_frames": None, "padding_side": "right",
           "padding_value": 0.0, "return_attention_mask": False})


if __name__ == "__main__":
    main()
