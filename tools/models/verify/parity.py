"""Writes features and torch logits for tools/models/verify/onnx-io.mjs to compare with ONNX.

  /usr/bin/python3 tools/models/verify/parity.py <ckpt.pt> <out.json>
"""
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from whisper_torch import Whisper  # noqa: E402


def main():
    torch.backends.mkldnn.enabled = False
    ck = torch.load(sys.argv[1], map_location="cpu")
    m = Whisper(ck["config"])
    m.load_state_dict(ck["model"])
    m.eval()
    rng = np.random.default_rng(0)
    S = ck["config"]["max_source_positions"]
    feats = torch.from_numpy(rng.uniform(-1, 1, (1, 80, 2 * S)).astype(np.float32))
    with torch.no_grad():
        enc = m.encode(feats)
        h, _ = m.decode_hidden(torch.tensor([[50258, 50259, 50359, 50364]]), enc)
        lg = m.logits(h)[0]
    with open(sys.argv[2], "w") as f:
        json.dump(dict(features=feats.flatten().tolist(), logits_first=lg[2].tolist(), logits_next=lg[3].tolist()), f)


if __name__ == "__main__":
    main()
