"""Writes random-weight models with the inputs, outputs and about the sizes of the production
speaker models, for timing the diarization code (not for results):

  <out>/murmur-bench/segmentation-3.0-sized/   pyannote segmentation 3.0 layout: SincNet-like
      front end (80 learned filters, 60 channels), 4-layer bidirectional LSTM (hidden 128),
      two linear layers of 128 and 7 powerset classes (log-softmax); ~1.5M parameters
  <out>/murmur-bench/wespeaker-resnet34-sized/ WeSpeaker ResNet34 (32 base channels, blocks
      3-4-6-3) on 80 log-mel bins, mean+std pooling, 256-d embedding; ~6.6M parameters

Each folder gets config.json, preprocessor_config.json (copied from the test models) and
onnx/model.onnx (fp32).

  /usr/bin/python3 tools/models/diarization/make_bench_models.py --out .models
"""
import argparse
import json
import os
import shutil

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)


class SegmentationSized(nn.Module):
    def __init__(self):
        super().__init__()
        self.wav_norm = nn.InstanceNorm1d(1, affine=True)
        self.convs = nn.ModuleList([nn.Conv1d(1, 80, 251, stride=10), nn.Conv1d(80, 60, 5), nn.Conv1d(60, 60, 5)])
        self.norms = nn.ModuleList([nn.InstanceNorm1d(c, affine=True) for c in (80, 60, 60)])
        self.lstm = nn.LSTM(60, 128, num_layers=4, bidirectional=True, batch_first=True)
        self.linear = nn.ModuleList([nn.Linear(256, 128), nn.Linear(128, 128)])
        self.classifier = nn.Linear(128, 7)

    def forward(self, input_values):
        x = self.wav_norm(input_values)
        for i, (conv, norm) in enumerate(zip(self.convs, self.norms)):
            x = conv(x)
            x = F.max_pool1d(torch.abs(x) if i == 0 else x, 3)
            x = F.leaky_relu(norm(x))
        x, _ = self.lstm(x.transpose(1, 2))
        for lin in self.linear:
            x = F.leaky_relu(lin(x))
        return F.log_softmax(self.classifier(x), dim=-1)


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.short = nn.Sequential()
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(y)) + self.short(x))


class ResNet34Sized(nn.Module):
    def __init__(self, feat=80, base=32, dim=256):
        super().__init__()
        self.conv1 = nn.Conv2d(1, base, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(base)
        layers, cin = [], base
        for i, n in enumerate([3, 4, 6, 3]):
            cout = base * 2 ** i
            for j in range(n):
                layers.append(Block(cin, cout, 2 if (j == 0 and i > 0) else 1))
                cin = cout
        self.layers = nn.Sequential(*layers)
        self.embedding = nn.Linear(2 * cin * (feat // 8), dim)

    def forward(self, input_features):  # [B, T, 80]
        x = input_features.transpose(1, 2).unsqueeze(1)  # [B, 1, 80, T]
        x = self.layers(F.relu(self.bn1(self.conv1(x))))
        x = x.flatten(1, 2)  # [B, C * F', T']
        mean = x.mean(dim=2)
        std = torch.sqrt(torch.clamp((x * x).mean(dim=2) - mean * mean, min=1e-5))
        return self.embedding(torch.cat([mean, std], dim=1))


def write(folder, model, x, in_name, out_name, axes_in, axes_out, config, test_model):
    os.makedirs(os.path.join(folder, "onnx"), exist_ok=True)
    model.eval()
    torch.onnx.export(model, (x,), os.path.join(folder, "onnx", "model.onnx"), input_names=[in_name],
                      output_names=[out_name], opset_version=14,
                      dynamic_axes={in_name: axes_in, out_name: axes_out})
    shutil.copy(os.path.join(MODELS, test_model, "preprocessor_config.json"), folder)
    config["num_parameters"] = sum(p.numel() for p in model.parameters())
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    size = os.path.getsize(os.path.join(folder, "onnx", "model.onnx"))
    print("%s: %d parameters, %.1f MB" % (folder, config["num_parameters"], size / 1e6))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    torch.manual_seed(0)
    root = os.path.join(a.out, "murmur-bench")
    write(os.path.join(root, "segmentation-3.0-sized"), SegmentationSized(), 0.1 * torch.randn(1, 1, 160000),
          "input_values", "logits", {0: "batch_size", 2: "num_samples"}, {0: "batch_size", 1: "num_frames"},
          {"model_type": "pyannote", "architectures": ["PyAnnoteForAudioFrameClassification"], "num_labels": 7,
           "sampling_rate": 16000}, "segmentation-synth")
    write(os.path.join(root, "wespeaker-resnet34-sized"), ResNet34Sized(), torch.randn(1, 300, 80),
          "input_features", "embeddings", {0: "batch_size", 1: "num_frames"}, {0: "batch_size"},
          {"model_type": "wespeaker-resnet", "architectures": ["WeSpeakerResNetModel"], "embedding_size": 256,
           "murmur_clustering_threshold": 0.5}, "embedding-synth")


if __name__ == "__main__":
    main()
