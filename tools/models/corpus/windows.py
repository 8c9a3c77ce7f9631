"""Assemble 10-second training/evaluation windows from synthesised utterances and build their
targets in Whisper's token format.

Target conventions (the same as Whisper's):
  [<|startofprev|> previous text]  <|startoftranscript|> <|lang|> <|transcribe|>
  timestamp mode:  <|t0|> text<|t1|> <|t2|> text<|t3|> ... <|endoftext|>
  text mode:       <|notimestamps|> text text ... <|endoftext|>
- Times are quantised to 0.02 s; each segment is one utterance with its true extent.
- An utterance cut off by the window's end gets only its start timestamp, then <|endoftext|>
  (in text mode it is left out).
- A window without speech: the token after <|startoftranscript|> is taught to be
  <|nocaptions|> (Whisper's no-speech token); with the language and task forced the
  transcript is empty: <|0.00|> <|endoftext|> in timestamp mode, <|endoftext|> in text mode.
- A window whose utterances change language carries the first utterance's language token
  and transcribes every utterance in its own language.
"""
import glob
import json
import os

import numpy as np

WINDOW_S = 10.0
SR = 16000
N = int(WINDOW_S * SR)
IGNORE = -100


class UtterancePool:
    def __init__(self, folder, split, warp=0.0):
        self.folder = os.path.join(folder, split)
        # largest relative change of a picked utterance's rate (0: none); resampling moves
        # pitch and formants together, like a longer or shorter vocal tract, so the model meets
        # more voices than the synthesiser's variants
        self.warp = warp
        self.loaded = set()
        self.items = []  # (int16 array, meta)
        self.by_lang = {}
        self.reload()

    def reload(self):
        added = 0
        # in a corpus with phonemes, a shard whose phonemes are still being written waits for
        # them (it would otherwise teach the encoder's CTC head empty targets)
        with_phonemes = bool(glob.glob(os.path.join(self.folder, "*.phonemes.json")))
        for meta_path in sorted(glob.glob(os.path.join(self.folder, "*.json"))):
            name = meta_path[: -len(".json")]
            if name in self.loaded or not os.path.exists(name + ".offsets.npy"):
                continue
            if with_phonemes and not os.path.exists(name + ".phonemes.json"):
                continue
            try:
                with open(meta_path, encoding="utf-8") as f:
                    meta = json.load(f)
                audio = np.load(name + ".audio.npy", mmap_mode="r")
                offsets = np.load(name + ".offsets.npy")
                phones = None
                if os.path.exists(name + ".phonemes.json"):
                    with open(name + ".phonemes.json", encoding="utf-8") as f:
                        phones = json.load(f)
            except (ValueError, OSError, json.JSONDecodeError):
                continue
            for i, m in enumerate(meta):
                if phones is not None:
                    m["phonemes"] = phones[i]
                a = audio[offsets[i] : offsets[i + 1]]
                if len(a) < SR * 0.2:
                    continue
                self.by_lang.setdefault(m["lang"], []).append(len(self.items))
                self.items.append((a, m))
                added += 1
            self.loaded.add(name)
        return added

    def pick_text(self, rng, lang):
        """The text of a random utterance of lang (its audio is not read)."""
        idx = self.by_lang[lang]
        return self.items[idx[rng.integers(len(idx))]][1]["text"]

    def pick(self, rng, lang):
        idx = self.by_lang[lang]
        a, m = self.items[idx[rng.integers(len(idx))]]
        if self.warp > 0 and rng.random() < 0.6:
            r = rng.uniform(1.0 - self.warp, 1.0 + self.warp)
            x = np.arange(0.0, len(a) - 1, r)
            a = np.interp(x, np.arange(len(a)), a.astype(np.float32)).astype(np.float32)
        return a, m


def _noise(rng, n, kind):
    w = rng.standard_normal(n).astype(np.float32)
    if kind == "white":
        return w
    if kind == "pink" or kind == "brown":
        spec = np.fft.rfft(w)
        f = np.arange(len(spec), dtype=np.float32) + 1.0
        spec = spec / (np.sqrt(f) if kind == "pink" else f)
        x = np.fft.irfft(spec, n).astype(np.float32)
        return x / (x.std() + 1e-9)
    # mains hum with harmonics
    t = np.arange(n, dtype=np.float32) / SR
    f0 = rng.choice([50.0, 60.0])
    x = sum(np.sin(2 * np.pi * f0 * k * t + rng.uniform(0, 6.28)) / k for k in range(1, 6))
    return (x / (x.std() + 1e-9)).astype(np.float32) + 0.1 * w


# Whisper's rule: a prompt fills at most half of the 448-token decoder context, less one
MAX_PROMPT_TOKENS = 223


def build_window(rng, pool, tok, langs, kind=None, mode=None, prompt=None, noise=None, window_s=WINDOW_S,
                 lang_p=None):
    """Speech is placed in the first window_s seconds (the audio is always the full window).
    lang_p: the share of windows per language in `langs` (default: even).
    prompt: text after <|startofprev|>, or a function of the window's language that returns it.
    Returns dict(audio float32 [N], seq list[int], labels list[int] (next-token targets,
    IGNORE where not taught), segments [(start, end, text, lang, cut)], lang, kind, mode, chars)."""
    if kind is None:
        kind = rng.choice(["speech", "switch", "silence"], p=[0.82, 0.12, 0.06])
    if kind == "single":
        # one short utterance near the start, clean: the first lessons, where an encoder learns
        # sounds in minutes instead of hours (long, mixed windows stall it on a plateau)
        lang = langs[rng.choice(len(langs), p=lang_p)]
        audio = np.zeros(N, dtype=np.float32)
        for _ in range(200):
            a, m = pool.pick(rng, lang)
            s = round(rng.uniform(0.0, 0.15) / 0.02) * 0.02
            if s + len(a) / SR <= window_s - 0.04:
                break
        else:
            raise ValueError("no utterance of %s fits in %.1f s" % (lang, window_s))
        i0 = int(round(s * SR))
        audio[i0 : i0 + len(a)] = rng.uniform(0.5, 1.6) * a.astype(np.float32) / 32768.0
        e = round((s + len(a) / SR) / 0.02) * 0.02
        segments = [(s, e, m["text"], lang, False)]
        phones = [m.get("phonemes", "")]
        kind, noise = "speech", False
        if mode is None:
            mode = "ts" if rng.random() < 0.75 else "text"
        return _finish(rng, tok, audio, segments, phones, lang, kind, mode, prompt, noise)
    if mode is None:
        mode = "ts" if rng.random() < 0.75 else "text"
    lang = langs[rng.choice(len(langs), p=lang_p)]
    audio = np.zeros(N, dtype=np.float32)
    segments = []
    phones = []  # espeak-ng phonemes of each uncut utterance, when the corpus has them
    if kind != "silence":
        t = rng.uniform(0.0, 1.5) if rng.random() < 0.7 else rng.uniform(0.0, 0.3)
        cur = lang
        while True:
            a, m = pool.pick(rng, cur)
            dur = len(a) / SR
            s = round(t / 0.02) * 0.02
            i0 = int(round(s * SR))
            if s + dur <= window_s - 0.02:
                e = round((s + dur) / 0.02) * 0.02
                gain = rng.uniform(0.5, 1.6)
                audio[i0 : i0 + len(a)] += gain * a.astype(np.float32) / 32768.0
                segments.append((s, min(e, window_s), m["text"], cur, False))
                phones.append(m.get("phonemes", ""))
                t = s + dur + rng.uniform(0.15, 1.6)
                if t > window_s - 0.5 or (rng.random() < 0.25 and segments):
                    break
            else:
                if window_s - s >= 0.6 and rng.random() < 0.35:
                    gain = rng.uniform(0.5, 1.6)
                    part = a[: int(window_s * SR) - i0]
                    audio[i0 : i0 + len(part)] += gain * part.astype(np.float32) / 32768.0
                    segments.append((s, None, m["text"], cur, True))
                if segments:
                    break
                t = rng.uniform(0.0, 0.3)
                continue
            if kind == "switch":
                others = [l for l in langs if l != cur]
                cur = others[rng.integers(len(others))] if rng.random() < 0.7 else cur
        lang = segments[0][3]
    return _finish(rng, tok, audio, segments, phones, lang, kind, mode, prompt, noise)


def _finish(rng, tok, audio, segments, phones, lang, kind, mode, prompt, noise):
    peak = np.abs(audio).max()
    if peak > 0.99:
        audio *= 0.99 / peak
    if noise is None:
        noise = rng.random() < (0.7 if kind == "silence" else 0.45)
    if noise:
        nk = rng.choice(["white", "pink", "brown", "hum"])
        nz = _noise(rng, N, nk)
        if kind == "silence":
            level = 10 ** rng.uniform(-3.5, -1.5)
        else:
            speech_rms = np.sqrt(np.mean(audio[audio != 0] ** 2)) if np.any(audio) else 0.05
            level = speech_rms / (10 ** (rng.uniform(12, 40) / 20))
        audio = audio + level * nz
    # Whisper's features of the window
    seq, labels = [], []

    def add(tokens, taught):
        for x in tokens:
            seq.append(x)
            labels.append(x if taught else IGNORE)

    if callable(prompt):
        prompt = prompt(lang)
    if prompt:
        # at most the last 223 tokens: the prompt fills at most half the decoder's context
        add([tok.prev] + tok.encode(" " + prompt.strip())[-MAX_PROMPT_TOKENS:], False)
    add([tok.sot], False)
    add([tok.lang[lang]], kind != "silence")
    if kind == "silence":
        # teach <|nocaptions|> at the language position, keep the forced language in the input
        labels[-1] = tok.nocaptions
    add([tok.transcribe], True)
    chars = []
    if mode == "text":
        add([tok.notimestamps], True)
        for s, e, text, l, cut in segments:
            if not cut:
                add(tok.encode(" " + text), True)
                chars.append(text)
    else:
        if not segments:
            add([tok.ts0], True)
        for s, e, text, l, cut in segments:
            add([tok.timestamp(s)], True)
            if cut:
                break
            add(tok.encode(" " + text), True)
            add([tok.timestamp(e)], True)
            chars.append(text)
    add([tok.eot], True)
    # labels[i] is what position i-1 must predict: shift by one
    inputs = seq[:-1]
    targets = labels[1:]
    return dict(audio=audio, inputs=inputs, targets=targets, segments=segments, lang=lang, kind=kind, mode=mode,
                chars=" ".join(chars), phonemes=" ".join(phones))
