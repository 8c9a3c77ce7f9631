"""Writes 3 clips and their numpy features (fbank.py) for fbank_parity.mjs to compare with
transformers.js' WeSpeakerFeatureExtractor.

  /usr/bin/python3 tools/models/diarization/fbank_parity.py .cache/diar/parity.json
  node tools/models/diarization/fbank_parity.mjs .cache/diar/parity.json
"""
import json
import sys

import numpy as np

from conversations import Pool_
from fbank import fbank

pool = Pool_("eval")
rng = np.random.default_rng(3)
clips = [pool.utterance(0), pool.utterance(100)[:16000 * 2 + 123], pool.utterance(200) * 0.05
         + 0.001 * rng.standard_normal(len(pool.utterance(200))).astype(np.float32)]
clips = [np.asarray(c, dtype=np.float32) for c in clips]
out = {"clips": [c.tolist() for c in clips], "features": [fbank(c).tolist() for c in clips]}
with open(sys.argv[1], "w") as f:
    json.dump(out, f)
print("wrote", [len(c) for c in clips])
