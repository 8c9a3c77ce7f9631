"""Writes espeak-ng's phoneme transcription (its -x mnemonics) of every utterance in a corpus
split, next to each shard as <shard>.phonemes.json. Training can take them as the encoder's CTC
targets: the encoder learns sounds before spellings, which it does far faster than learning the
four languages' spellings directly.

  /usr/bin/python3 tools/models/corpus/phonemes.py --split train
"""
import argparse
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wtok import REPO  # noqa: E402


def phonemes(voice, texts):
    # one sentence per line: the full stop makes espeak-ng end a line of output per sentence
    out = subprocess.run(["espeak-ng", "-v", voice, "-q", "-x", "--stdin"], input="".join(t + ".\n" for t in texts),
                         capture_output=True, text=True, check=True).stdout
    lines = [l.strip() for l in out.split("\n") if l.strip()]
    if len(lines) != len(texts):
        raise RuntimeError("espeak-ng gave %d lines for %d sentences (%s)" % (len(lines), len(texts), voice))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(REPO, ".cache", "corpus"))
    ap.add_argument("--split", default="train")
    args = ap.parse_args()
    for meta_path in sorted(glob.glob(os.path.join(args.corpus, args.split, "*.json"))):
        if meta_path.endswith(".phonemes.json"):
            continue
        out_path = meta_path[: -len(".json")] + ".phonemes.json"
        if os.path.exists(out_path):
            continue
        meta = json.load(open(meta_path, encoding="utf-8"))
        by_voice = {}
        for i, m in enumerate(meta):
            by_voice.setdefault(m["voice"], []).append(i)
        result = [None] * len(meta)
        for voice, idx in by_voice.items():
            for i, p in zip(idx, phonemes(voice, [meta[i]["text"] for i in idx])):
                result[i] = p
        with open(out_path + ".tmp", "w", encoding="utf-8") as f:
            json.dump(result, f, ensure_ascii=False)
        os.replace(out_path + ".tmp", out_path)
        print(out_path, len(result), flush=True)


if __name__ == "__main__":
    main()
