"""Vocabulary, tokenizer and training pairs of the translation test model (murmur-test/m2m100-synth).

The tokenizer is M2M100's kind (a Unigram model behind a Metaspace pre-tokenizer, language
tokens `__xx__` as special tokens, a template `__src__ A </s>`), with a small vocabulary: one
piece per word of ../shared/test-corpus (parallel rows and vocabularies) and single characters,
so that a word it does not know (a recognition error) falls back to characters instead of <unk>.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SHARED = os.path.abspath(os.environ.get("MURMUR_SHARED") or os.path.join(REPO, "..", "shared"))
CORPUS = os.path.join(SHARED, "test-corpus")
LANGS = ["en", "fr", "de", "es"]
SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]
BOS, PAD, EOS, UNK = 0, 1, 2, 3
SP = "\u2581"
WORD_SCORE = -2.0
CHAR_SCORE = -8.0


def read_rows():
    with open(os.path.join(CORPUS, "parallel.tsv"), encoding="utf-8") as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    head, body = lines[0], lines[1:]
    return [dict(zip(head, r)) for r in body]


def read_vocabulary(lang):
    with open(os.path.join(CORPUS, "vocabulary.%s.txt" % lang), encoding="utf-8") as f:
        return f.read().split()


def build_pieces(rows):
    words = set()
    for r in rows:
        for l in LANGS:
            w = r[l]
            words.update([w, w.lower(), w[:1].upper() + w[1:]])
    for l in LANGS:
        for w in read_vocabulary(l):
            words.update([w, w.lower(), w[:1].upper() + w[1:]])
    chars = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:!?'-\"()")
    for w in words:
        chars.update(w)
    pieces = [(SP + w, WORD_SCORE) for w in sorted(words)]
    pieces += [(c, CHAR_SCORE) for c in sorted(chars)] + [(SP, CHAR_SCORE)]
    return pieces


def build_vocab(rows):
    """Token list: specials, pieces, then the language tokens (as M2M100 orders them)."""
    pieces = build_pieces(rows)
    vocab = [(t, 0.0) for t in SPECIALS] + pieces + [("__%s__" % l, 0.0) for l in LANGS]
    return vocab


def tokenizer_json(vocab):
    ids = {t: i for i, (t, _) in enumerate(vocab)}
    specials = SPECIALS + ["__%s__" % l for l in LANGS]
    added = [{"id": ids[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for t in specials]
    meta = {"type": "Metaspace", "replacement": SP, "prepend_scheme": "always", "split": True,
            "add_prefix_space": True}
    special_map = {t: {"id": t, "ids": [ids[t]], "tokens": [t]} for t in ["__en__", "</s>"]}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": meta,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "__en__", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "__en__", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "special_tokens": special_map,
        },
        "decoder": dict(meta),
        "model": {"type": "Unigram", "unk_id": UNK, "vocab": [[t, s] for t, s in vocab], "byte_fallback": False},
    }


class Tokenizer:
    """The same segmentation transformers.js' Unigram model finds (best-scoring lattice path):
    the longest known word piece at the start of each space-separated word, then characters."""

    def __init__(self, vocab):
        self.ids = {t: i for i, (t, _) in enumerate(vocab)}
        self.scores = {t: s for t, s in vocab}
        self.tokens = [t for t, _ in vocab]
        self.maxlen = max(len(t) for t, _ in vocab)
        self.unk_score = min(s for _, s in vocab) - 10

    def _word(self, w):
        n = len(w)
        best = [(-1e18, None)] * (n + 1)
        best[0] = (0.0, None)
        for i in range(n):
            if best[i][0] <= -1e17:
                continue
            single = False
            for j in range(i + 1, min(n, i + self.maxlen) + 1):
                p = w[i:j]
                if p in self.ids and p not in SPECIALS and not p.startswith("__"):
                    if j - i == 1:
                        single = True
                    s = best[i][0] + self.scores[p]
                    if s > best[j][0]:
                        best[j] = (s, (i, self.ids[p]))
            if not single:
                s = best[i][0] + self.unk_score
                if s > best[i + 1][0]:
                    best[i + 1] = (s, (i, UNK))
        out, j = [], n
        while j > 0:
            i, t = best[j][1]
            out.append(t)
            j = i
        return out[::-1]

    def encode(self, text):
        ids = []
        for w in text.split():
            ids += self._word(SP + w)
        return ids

    def decode(self, ids):
        s = "".join(self.tokens[i] for i in ids if i >= 4 and not self.tokens[i].startswith("__"))
        return s.replace(SP, " ").strip()


def _typo(w, rng, alphabet):
    if len(w) < 3:
        return w
    i = rng.randrange(len(w))
    k = rng.random()
    if k < 0.35:
        return w[:i] + w[i + 1:]
    if k < 0.7:
        return w[:i] + rng.choice(alphabet) + w[i + 1:]
    return w[:i] + w[i] + w[i:]


def sample_pair(rows, rng, fillers, noisy_share=0.4, max_rows=12):
    """A sentence of rows in a source language and the same rows in a target language. Noisy
    sources (misspelt words, a stray word of the vocabulary, capitals and punctuation as a
    recogniser writes them) keep the clean target, so that small recognition errors do not
    derail the translation."""
    n = rng.randint(1, max_rows)
    pick = [rng.choice(rows) for _ in range(n)]
    src, tgt = rng.choice(LANGS), rng.choice(LANGS)
    words = [r[src] for r in pick]
    if rng.random() < noisy_share:
        alphabet = "abcdefghijklmnopqrstuvwxyzéèàçñüöä"
        out = []
        for w in words:
            k = rng.random()
            if k < 0.07:
                w = _typo(w, rng, alphabet)
            elif k < 0.12:
                out.append(rng.choice(fillers[src]))
            elif k < 0.15 and src == "de":
                w = w.lower()
            out.append(w)
        words = out
        if rng.random() < 0.5:
            words[0] = words[0][:1].upper() + words[0][1:]
        if rng.random() < 0.5:
            words[-1] = words[-1] + rng.choice([".", ".", ",", "?", "!"])
    return src, " ".join(words), tgt, " ".join(r[tgt] for r in pick)


def fillers_by_lang(rows):
    out = {}
    for l in LANGS:
        known = {r[l].lower() for r in rows}
        out[l] = [w for w in read_vocabulary(l) if w.lower() not in known]
    return out


def write_tokenizer_files(out, vocab):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(vocab), f, ensure_ascii=False)
    langs = ["__%s__" % l for l in LANGS]
    cfg = {"tokenizer_class": "M2M100Tokenizer", "model_max_length": 256, "bos_token": "<s>", "eos_token": "</s>",
           "sep_token": "</s>", "pad_token": "<pad>", "unk_token": "<unk>", "src_lang": "en", "tgt_lang": "fr",
           "additional_special_tokens": langs, "clean_up_tokenization_spaces": True,
           "language_codes": "m2m100"}
    with open(os.path.join(out, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, ensure_ascii=False, indent=2)
    smap = {"bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "pad_token": "<pad>",
            "unk_token": "<unk>", "additional_special_tokens": langs}
    with open(os.path.join(out, "special_tokens_map.json"), "w", encoding="utf-8") as f:
        json.dump(smap, f, ensure_ascii=False, indent=2)


if __name__ == "__main__":
    rows = read_rows()
    vocab = build_vocab(rows)
    tok = Tokenizer(vocab)
    rng = random.Random(0)
    fil = fillers_by_lang(rows)
    print(len(vocab), "tokens")
    for _ in range(5):
        s, a, t, b = sample_pair(rows, rng, fil)
        print(s, a, tok.encode(a), "->", t, b, tok.encode(b), tok.decode(tok.encode(a)))
