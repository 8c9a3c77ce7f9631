"""Whisper (GPT-2 byte-level BPE) encoder and decoder read from the shared tokenizer files.

Only what the corpus needs: text made of letters, apostrophes and spaces, plus the special
and timestamp tokens. The result is checked against transformers.js' own tokenizer by
tools/models/check_tokenizer.mjs.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def shared_dir():
    return os.environ.get("MURMUR_SHARED") or os.path.join(os.path.dirname(REPO), "shared")


def tokenizer_dir():
    return os.path.join(shared_dir(), "models", "whisper-tokenizer")


def _byte_table():
    # printable bytes keep their code point, the others are moved above 255 in order
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    table = {}
    extra = 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


# GPT-2 pre-tokenisation: contractions, letter runs, digit runs, other runs, spaces
_PRE = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+|_+""")

LANGS = ["en", "fr", "de", "es"]


class WhisperTokenizer:
    def __init__(self, folder=None):
        folder = folder or tokenizer_dir()
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            self.vocab = json.load(f)
        with open(os.path.join(folder, "merges.txt"), encoding="utf-8") as f:
            lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#version")]
        self.ranks = {tuple(l.split(" ")): i for i, l in enumerate(lines)}
        with open(os.path.join(folder, "tokenizer.json"), encoding="utf-8") as f:
            added = json.load(f)["added_tokens"]
        self.special = {a["content"]: a["id"] for a in added}
        self.inv = {v: k for k, v in self.vocab.items()}
        for k, v in self.special.items():
            self.inv[v] = k
        self.bytes = _byte_table()
        self.unbytes = {v: k for k, v in self.bytes.items()}
        self.cache = {}
        s = self.special
        self.eot = s["<|endoftext|>"]
        self.sot = s["<|startoftranscript|>"]
        self.transcribe = s["<|transcribe|>"]
        self.translate = s["<|translate|>"]
        self.prev = s["<|startofprev|>"]
        self.nocaptions = s["<|nocaptions|>"]
        self.notimestamps = s["<|notimestamps|>"]
        self.ts0 = s["<|0.00|>"]
        self.lang = {l: s["<|%s|>" % l] for l in LANGS}
        self.vocab_size = 51865

    def _bpe(self, piece):
        if piece in self.cache:
            return self.cache[piece]
        word = [self.bytes[b] for b in piece.encode("utf-8")]
        while len(word) > 1:
            best = None
            for i in range(len(word) - 1):
                r = self.ranks.get((word[i], word[i + 1]))
                if r is not None and (best is None or r < best[0]):
                    best = (r, i)
            if best is None:
                break
            a, b = word[best[1]], word[best[1] + 1]
            merged = []
            i = 0
            while i < len(word):
                if i < len(word) - 1 and word[i] == a and word[i + 1] == b:
                    merged.append(a + b)
                    i += 2
                else:
                    merged.append(word[i])
                    i += 1
            word = merged
        ids = [self.vocab[w] for w in word]
        self.cache[piece] = ids
        return ids

    def encode(self, text):
        out = []
        for piece in _PRE.findall(text):
            out.extend(self._bpe(piece))
        return out

    def timestamp(self, seconds):
        return self.ts0 + int(round(seconds / 0.02))

    def decode(self, ids, keep_special=False):
        parts = []
        buf = []
        for i in ids:
            if i >= self.eot:
                if buf:
                    parts.append(bytes(self.unbytes[c] for c in "".join(buf)).decode("utf-8", "replace"))
                    buf = []
                if keep_special:
                    parts.append(self.inv.get(i, "<|%d|>" % i) if i < self.ts0 else "<|%.2f|>" % ((i - self.ts0) * 0.02))
            else:
                buf.append(self.inv[i])
        if buf:
            parts.append(bytes(self.unbytes[c] for c in "".join(buf)).decode("utf-8", "replace"))
        return "".join(parts)
