"""The benchmark models' torch weights: seeded random values at the exact dimensions of a real
Whisper configuration. make-bench-models.py exports them to ONNX; to-ggml.py writes the same
values in whisper.cpp's format, so that every contender of the benchmark computes with them."""
import json
import os

import torch

from whisper_torch import Whisper
from wtok import shared_dir

KEYS = ["d_model", "encoder_layers", "decoder_layers", "encoder_attention_heads", "decoder_attention_heads",
        "encoder_ffn_dim", "decoder_ffn_dim", "num_mel_bins", "max_source_positions", "max_target_positions",
        "vocab_size"]


def bench_whisper(name):
    """(model, cfg) for `tiny` or `base`, in eval mode; the same values on every call."""
    src = os.path.join(shared_dir(), "models", "whisper-configs", name)
    with open(os.path.join(src, "config.json")) as f:
        real = json.load(f)
    cfg = {k: real[k] for k in KEYS}
    torch.manual_seed({"tiny": 1, "base": 2}.get(name, 3))
    model = Whisper(cfg)
    model.eval()
    return model, cfg
