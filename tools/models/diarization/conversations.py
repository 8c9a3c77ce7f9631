"""Synthetic speakers, their utterances, and conversations built from them.

A speaker is an espeak-ng voice (language), a voice variant (one of the synthesiser's own or
one made up at random), a pitch, a speed and an amplitude. `synth` speaks a pool of random
sentences for every speaker of a split and caches it under .cache/diar/<split>.*:

  /usr/bin/python3 tools/models/diarization/conversations.py --split train --speakers 700 --per-speaker 10
  /usr/bin/python3 tools/models/diarization/conversations.py --split eval --per-speaker 8

The train split never uses the variants m3, m7, f3, f5 and klatt2, nor the eval pitches
and speeds; the eval split uses only those five variants, with the eval pitches and speeds.

`conversation` mixes utterances of 1-4 speakers into turns with pauses, overlaps and short
backchannels, and returns the audio with every speaker's active extents (utterances are
trimmed, so the extents are tight). `frame_labels` turns extents into per-frame activity on
the segmentation model's frame grid.
"""
import argparse
import json
import os
import random
import sys
from multiprocessing import Pool

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from corpus.synth import ALL_VARIANTS, VOICES, private_espeak_data, speak, vocabulary  # noqa: E402
from wtok import REPO  # noqa: E402

SR = 16000
HELD_OUT_VARIANTS = ["m3", "m7", "f3", "f5", "klatt2"]
TRAIN_VARIANTS = [v for v in ALL_VARIANTS if v not in HELD_OUT_VARIANTS]
EVAL_PITCHES = [30, 47, 64, 81]
EVAL_SPEEDS = [135, 170, 205]
TRAIN_PITCHES = [p for p in range(0, 100) if all(abs(p - e) > 1 for e in EVAL_PITCHES)]
TRAIN_SPEEDS = [s for s in range(120, 221) if all(abs(s - e) > 2 for e in EVAL_SPEEDS)]
FRAME_STEP, FRAME_SPAN = 270, 990


def cache_dir():
    return os.environ.get("MURMUR_DIAR_CACHE") or os.path.join(REPO, ".cache", "diar")


# other languages of the two families that the private data folders keep (private_espeak_data);
# their speakers read English sentences with their own letter-to-sound rules and rhythm
OTHER_VOICES = ["af", "nl", "lb", "it", "pt", "pt-br", "ro", "ca", "an"]


def train_speakers(rng, n, made_up, own_share=0.45, other_share=0.0):
    """`made_up` is a list of (variant, data folder) pairs; own_share of the speakers get one of
    espeak-ng's own variants, 8% none, the rest a made-up one. With other_share, that share of
    the speakers have a voice of OTHER_VOICES."""
    speakers = []
    for i in range(n):
        if other_share and rng.random() < other_share:
            lang, voice = "other", rng.choice(OTHER_VOICES)
        else:
            lang = "en" if rng.random() < 0.75 else rng.choice(["fr", "de", "es"])
            voice = rng.choice(["en-us", "en-gb"]) if lang == "en" and rng.random() < 0.6 else rng.choice(VOICES[lang])
        r = rng.random()
        variant, data = (rng.choice(TRAIN_VARIANTS), None) if r < own_share else (
            rng.choice(made_up) if r < 0.92 else ("", None))
        speakers.append(dict(id=i, lang=lang, voice=voice, variant=variant, pitch=rng.choice(TRAIN_PITCHES),
                             speed=rng.choice(TRAIN_SPEEDS), amp=rng.randint(70, 150), data=data))
    return speakers


def eval_speakers(rng):
    """Every held-out variant at every eval pitch and speed: two speakers of one variant
    differ in pitch by >= 17 or in speed by >= 35."""
    speakers = []
    for variant in HELD_OUT_VARIANTS:
        for pitch in EVAL_PITCHES:
            for speed in EVAL_SPEEDS:
                speakers.append(dict(id=len(speakers), lang="en", voice=rng.choice(["en-us", "en-gb"]),
                                     variant=variant, pitch=pitch, speed=speed, amp=rng.randint(70, 150)))
    return speakers


def safe_speak(job):
    try:
        return speak(job)
    except Exception:  # noqa: BLE001 - a voice espeak-ng refuses is left out
        return np.zeros(0, dtype=np.int16)


def sentence(rng, words, lo=3, hi=12):
    return " ".join(rng.choice(words) for _ in range(rng.randint(lo, hi)))


def synth(split, n_speakers, per_speaker, jobs, variant_sets=1, own_share=0.45, other_share=0.0):
    rng = random.Random(7 if split == "train" else 1007)
    out = cache_dir()
    os.makedirs(out, exist_ok=True)
    made_up = []
    if split == "train":
        # espeak-ng lists at most 349 voices: languages + its own variants + 180 made-up ones fit
        # in one data folder; more made-up variants take more folders
        for k in range(variant_sets):
            data_path = os.path.join(out, "espeak-train" + ("-%d" % k if k else ""))
            names = private_espeak_data(random.Random(5007 + k), 180, data_path)
            # a made-up variant that is only "klatt 2" plus formant changes is too close to klatt2
            vdir = os.path.join(data_path, "espeak-ng-data", "voices", "!v")
            for name in names:
                p = os.path.join(vdir, name)
                with open(p) as f:
                    text = f.read().replace("klatt 2\n", "klatt 3\n")
                with open(p, "w") as f:
                    f.write(text)
            made_up += [(name, data_path) for name in names]
        speakers = train_speakers(rng, n_speakers, made_up, own_share, other_share)
    else:
        speakers = eval_speakers(rng)
    words = {lang: vocabulary(lang) for lang in VOICES}
    job_list, owners = [], []
    for s in speakers:
        for _ in range(per_speaker):
            lang = s["lang"] if s["lang"] not in ("en", "other") and rng.random() < 0.5 else "en"
            text = sentence(rng, words[lang])
            data_path = s.get("data") or (made_up[0][1] if made_up else None)
            job_list.append((text, lang, s["voice"], s["variant"], s["speed"], s["pitch"], s["amp"],
                             rng.choice([0, 0, 0, 1, 2]), data_path))
            owners.append(s["id"])
    with Pool(jobs) as pool:
        audios = pool.map(safe_speak, job_list, chunksize=32)
    keep = [i for i, a in enumerate(audios) if len(a) >= SR // 4]
    offsets = np.cumsum([0] + [len(audios[i]) for i in keep]).astype(np.int64)
    np.save(os.path.join(out, split + ".audio.npy"), np.concatenate([audios[i] for i in keep]))
    np.save(os.path.join(out, split + ".offsets.npy"), offsets)
    np.save(os.path.join(out, split + ".speaker.npy"), np.array([owners[i] for i in keep], dtype=np.int64))
    with open(os.path.join(out, split + ".speakers.json"), "w") as f:
        json.dump(speakers, f)
    print("%s: %d speakers, %d utterances, %.2f hours" % (split, len(speakers), len(keep), offsets[-1] / SR / 3600))


class Pool_:
    """A split's utterances, by speaker, as float32 audio."""

    def __init__(self, split):
        d = cache_dir()
        self.audio = np.load(os.path.join(d, split + ".audio.npy"))
        self.offsets = np.load(os.path.join(d, split + ".offsets.npy"))
        self.speaker = np.load(os.path.join(d, split + ".speaker.npy"))
        with open(os.path.join(d, split + ".speakers.json")) as f:
            self.speakers = json.load(f)
        self.by_speaker = {}
        for i, s in enumerate(self.speaker):
            self.by_speaker.setdefault(int(s), []).append(i)
        self.speaker_ids = sorted(self.by_speaker)

    def utterance(self, i):
        return self.audio[self.offsets[i]: self.offsets[i + 1]].astype(np.float32) / 32768.0

    def __len__(self):
        return len(self.speaker)


def conversation(pool, rng, n_speakers=None, duration=12.0, speakers=None):
    """Audio (float32) and extents [(speaker_index, start, end)] in samples, speaker_index being
    the position in the returned speaker list."""
    if speakers is None:
        if n_speakers is None:
            n_speakers = rng.choices([1, 2, 3, 4], weights=[12, 45, 33, 10])[0]
        speakers = rng.sample(pool.speaker_ids, n_speakers)
    n = len(speakers)
    gains = [10 ** (rng.uniform(-10, 0) / 20) for _ in range(n)]
    total = int(duration * SR)
    pieces, extents = [], []
    t, prev_start, prev_spk = int(rng.uniform(0, 1.0) * SR), 0, -1
    while t < total:
        k = rng.randrange(n) if n == 1 or prev_spk < 0 else rng.choice([j for j in range(n) if j != prev_spk])
        u = pool.utterance(rng.choice(pool.by_speaker[speakers[k]]))
        if len(u) > 6 * SR:
            a = rng.randrange(0, len(u) - 6 * SR)
            u = u[a: a + 6 * SR]
        pieces.append((k, t, u * gains[k]))
        extents.append((k, t, t + len(u)))
        # a backchannel of another speaker inside a long turn
        if n > 1 and len(u) > 2 * SR and rng.random() < 0.12:
            b = rng.choice([j for j in range(n) if j != k])
            v = pool.utterance(rng.choice(pool.by_speaker[speakers[b]]))
            v = v[: int(rng.uniform(0.3, 0.8) * SR)]
            at = t + rng.randrange(SR // 2, len(u) - len(v) - SR // 4) if len(u) - len(v) - SR // 4 > SR // 2 else t
            pieces.append((b, at, v * gains[b]))
            extents.append((b, at, at + len(v)))
        prev_start, prev_spk, end = t, k, t + len(u)
        if n > 1 and rng.random() < 0.25:
            t = max(prev_start + SR // 5, end - int(rng.uniform(0.2, 1.5) * SR))
        else:
            t = end + int(rng.uniform(0.0, 1.5) * SR)
    length = max(total, max(e for _, _, e in extents))
    audio = np.zeros(length, dtype=np.float32)
    for _, at, x in pieces:
        audio[at: at + len(x)] += x
    if rng.random() < 0.4:
        audio += np.float32(10 ** (rng.uniform(-65, -40) / 20)) * np.random.default_rng(rng.randrange(1 << 30)).standard_normal(length).astype(np.float32)
    peak = np.abs(audio).max() + 1e-9
    audio *= np.float32(rng.uniform(0.3, 0.95) / peak)
    return audio, extents, speakers


def frame_labels(extents, start, num_samples, n_speakers):
    """Activity [num_frames, n_speakers] (0/1) of the window [start, start + num_samples):
    frame i is active for a speaker when the centre of its span (i*270 + 495) is inside one
    of the speaker's extents."""
    num_frames = num_frames_of(num_samples)
    centres = start + np.arange(num_frames) * FRAME_STEP + FRAME_SPAN // 2
    act = np.zeros((num_frames, n_speakers), dtype=np.float32)
    for k, a, b in extents:
        act[(centres >= a) & (centres < b), k] = 1
    return act


def num_frames_of(num_samples):
    n = (num_samples - 251) // 10 + 1
    for _ in range(3):
        n = n // 3
        n = n - 4 if _ < 2 else n
    return n


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=["train", "eval"], required=True)
    ap.add_argument("--speakers", type=int, default=700)
    ap.add_argument("--per-speaker", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variant-sets", type=int, default=1,
                    help="data folders of 180 made-up variants each (train split)")
    ap.add_argument("--own-share", type=float, default=0.45,
                    help="share of train speakers with one of espeak-ng's own variants (8%% have none)")
    ap.add_argument("--other-share", type=float, default=0.0,
                    help="share of train speakers with a voice of OTHER_VOICES")
    a = ap.parse_args()
    synth(a.split, a.speakers, a.per_speaker, a.jobs, a.variant_sets, a.own_share, a.other_share)
