"""Synthesise single utterances with espeak-ng for the test model's corpus.

Each shard holds utterances of one split ("train" or "eval"): random sentences of 3 to 12
words drawn from the shared vocabularies, spoken by espeak-ng with a voice, a voice variant,
a speed, a pitch, an amplitude and a word gap. The eval split uses voice variants, speeds and
pitches that the train split never uses, and sentences that are not in the train split.

  /usr/bin/python3 tools/models/corpus/synth.py --split train --per-lang 3000 --shard 0
"""
import argparse
import json
import os
import random
import subprocess
import sys
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wtok import LANGS, REPO, shared_dir  # noqa: E402

VOICES = {
    "en": ["en-gb", "en-us", "en-gb-scotland", "en-gb-x-gbclan", "en-gb-x-rp", "en-gb-x-gbcwmd", "en-029", "en-us-nyc"],
    "fr": ["fr", "fr-be", "fr-ch"],
    "de": ["de"],
    "es": ["es", "es-419"],
}
ALL_VARIANTS = (
    "adam Alex Alicia Andrea Andy Annie antonio aunty belinda benjamin boris caleb david Denis Diogo ed edward "
    "edward2 Gene Gene2 gustave announcer Henrique Hugo iven iven2 iven3 iven4 Jacky john kaukovalta Lee linda "
    "marcelo Marco Mario max Michael michel miguel Mike Mr Nguyen pablo paul pedro quincy rob robert robosoft "
    "robosoft2 robosoft3 robosoft4 robosoft5 robosoft6 robosoft7 robosoft8 steph steph2 steph3 Storm Tweaky "
    "zac anika AnxiousAndy f1 f2 f3 f4 f5 grandpa klatt klatt2 klatt3 klatt4 klatt5 klatt6 m1 m2 m3 m4 m5 m6 m7 "
    "m8 norbert sandro shelby travis victor croak grandma"
).split()
# voice variants, speeds and pitches kept for evaluation only
EVAL_VARIANTS = ["m3", "f2", "klatt4", "Andy", "linda", "max", "steph2", "iven3", "Mike", "travis", "anika", "edward2"]
TRAIN_VARIANTS = [v for v in ALL_VARIANTS if v not in EVAL_VARIANTS]
TRAIN_SPEEDS = list(range(115, 141)) + list(range(150, 171)) + list(range(180, 211))
EVAL_SPEEDS = list(range(142, 149)) + list(range(172, 179))
TRAIN_PITCHES = list(range(15, 41)) + list(range(50, 71)) + list(range(80, 96))
EVAL_PITCHES = list(range(42, 49)) + list(range(72, 79))


def vocabulary(lang):
    path = os.path.join(shared_dir(), "test-corpus", "vocabulary.%s.txt" % lang)
    with open(path, encoding="utf-8") as f:
        return f.read().split()


def out_dir():
    return os.environ.get("MURMUR_CORPUS") or os.path.join(REPO, ".cache", "corpus")


def make_sentence(rng, words):
    n = rng.randint(3, 12)
    return " ".join(rng.choice(words) for _ in range(n))


def speak(job):
    text, lang, voice, variant, speed, pitch, amp, gap = job
    v = voice + ("+" + variant if variant else "")
    cmd = (
        ["espeak-ng", "-v", v, "-s", str(speed), "-p", str(pitch), "-a", str(amp), "-g", str(gap), "--stdout", text]
    )
    wav = subprocess.run(cmd, check=True, capture_output=True).stdout
    raw = subprocess.run(
        ["sox", "-t", "wav", "-", "-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", "-"],
        input=wav, check=True, capture_output=True,
    ).stdout
    audio = np.frombuffer(raw, dtype=np.int16)
    return trim(audio)


def trim(audio):
    """Cut leading and trailing silence; the kept part is the utterance's true extent."""
    x = audio.astype(np.float32) / 32768.0
    frame = 160
    n = len(x) // frame
    if n == 0:
        return audio
    e = np.sqrt((x[: n * frame].reshape(n, frame) ** 2).mean(axis=1) + 1e-12)
    thr = max(e.max() * 0.02, 1e-3)
    on = np.nonzero(e > thr)[0]
    if len(on) == 0:
        return audio[:0]
    a = max(0, on[0] * frame - 80)
    b = min(len(audio), (on[-1] + 1) * frame + 80)
    return audio[a:b]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=["train", "eval"], required=True)
    ap.add_argument("--per-lang", type=int, default=3000)
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    seed = (1000 if args.split == "eval" else 0) + args.shard
    rng = random.Random(seed)
    odir = os.path.join(out_dir(), args.split)
    os.makedirs(odir, exist_ok=True)

    # sentences of each split are remembered so that the other split's sentences are new
    seen_path = os.path.join(out_dir(), "train-sentences.txt")
    other_path = os.path.join(out_dir(), "eval-sentences.txt")
    seen = set()
    for p in ([seen_path] if args.split == "eval" else [other_path]):
        if os.path.exists(p):
            with open(p, encoding="utf-8") as f:
                seen |= set(l.rstrip("\n") for l in f)

    jobs = []
    for lang in LANGS:
        words = vocabulary(lang)
        order = []
        for i in range(args.per_lang):
            if args.split == "train" and i < len(words) // 3 + 1:
                # the first sentences of every shard walk through the whole vocabulary
                if not order:
                    order = words[:]
                    rng.shuffle(order)
                sent = " ".join(order[3 * i : 3 * i + rng.randint(3, 6)]) or make_sentence(rng, words)
            else:
                sent = make_sentence(rng, words)
                while (lang + "\t" + sent) in seen:
                    sent = make_sentence(rng, words)
            if args.split == "train":
                variant = rng.choice(TRAIN_VARIANTS) if rng.random() > 0.12 else ""
                speed, pitch = rng.choice(TRAIN_SPEEDS), rng.choice(TRAIN_PITCHES)
            else:
                variant = rng.choice(EVAL_VARIANTS)
                speed, pitch = rng.choice(EVAL_SPEEDS), rng.choice(EVAL_PITCHES)
            voice = rng.choice(VOICES[lang])
            amp = rng.randint(60, 160)
            gap = rng.choice([0, 0, 0, 1, 2, 4])
            jobs.append((sent, lang, voice, variant, speed, pitch, amp, gap))

    with Pool(args.jobs) as pool:
        audios = pool.map(speak, jobs, chunksize=16)

    meta = []
    offsets = [0]
    for job, a in zip(jobs, audios):
        sent, lang, voice, variant, speed, pitch, amp, gap = job
        meta.append(dict(text=sent, lang=lang, voice=voice, variant=variant, speed=speed, pitch=pitch, amp=amp, gap=gap))
        offsets.append(offsets[-1] + len(a))
    audio = np.concatenate(audios)
    name = "%s-%03d" % (args.split, args.shard)
    np.save(os.path.join(odir, name + ".audio.npy"), audio)
    np.save(os.path.join(odir, name + ".offsets.npy"), np.array(offsets, dtype=np.int64))
    with open(os.path.join(odir, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, ensure_ascii=False)
    with open(seen_path if args.split == "train" else other_path, "a", encoding="utf-8") as f:
        for m in meta:
            f.write(m["lang"] + "\t" + m["text"] + "\n")
    print("%s: %d utterances, %.1f hours" % (name, len(meta), len(audio) / 16000 / 3600))


if __name__ == "__main__":
    main()
