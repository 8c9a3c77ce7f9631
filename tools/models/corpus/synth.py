"""Synthesise single utterances with espeak-ng for the test model's corpus.

Each shard holds utterances of one split ("train" or "eval"): random sentences of 3 to 12
words drawn from the shared vocabularies, spoken by espeak-ng with a voice, a voice variant,
a speed, a pitch, an amplitude and a word gap. The eval split uses voice variants, speeds and
pitches that the train split never uses, and sentences that are not in the train split.

  /usr/bin/python3 tools/models/corpus/synth.py --split train --per-lang 3000 --shard 0

With --random-variants K (train split only), a share of the utterances (--random-share) is
spoken by one of K voice variants made up for the shard (random pitch, formants, tone,
roughness, breath, consonant strength; see random_variant), written into a private copy of
espeak-ng's data folder. The synthesiser's own variants are a few dozen voices; a held-out
variant with unusual formants (travis' first formant at half its usual frequency) is then
far from all of them, while random variants fill the space between and around them.
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


ESPEAK_DATA = "/usr/lib/x86_64-linux-gnu/espeak-ng-data"


def random_variant(rng, name, silent_share=0.0):
    """The text of an espeak-ng voice variant file with random settings, within the ranges the
    synthesiser's own variants span (formant frequencies 50-130% of the voice's, pitch 60-300 Hz).
    In `silent_share` of them one of formants 3-5 is silenced (amplitude 0), and in half of
    those formants 6-8 too, as in some of the synthesiser's own variants (Andy and AnxiousAndy
    have no third formant; most that silence one silence 6-8)."""
    female = rng.random() < 0.5
    base = rng.randint(140, 250) if female else rng.randint(60, 150)
    lines = ["language variant", "name " + name, "gender " + ("female" if female else "male"),
             "pitch %d %d" % (base, base + rng.randint(15, 120))]
    scale = rng.uniform(0.85, 1.2) if female else rng.uniform(0.8, 1.1)
    odd = rng.randint(1, 5) if rng.random() < 0.3 else -1  # one formant far off, as in travis
    for k in range(9):
        freq = scale * rng.uniform(0.9, 1.1) * 100
        if k == odd:
            freq = rng.choice([rng.uniform(50, 65), rng.uniform(120, 130)])
        lines.append("formant %d %d %d %d" % (k, freq, rng.randint(50, 180), rng.randint(60, 160)))
    if rng.random() < 0.5:
        points = sorted(rng.sample(range(200, 4000, 100), 4))
        lines.append("tone " + " ".join("%d %d" % (f, rng.randint(10, 255)) for f in points))
    lines.append("flutter %d" % rng.randint(0, 10))
    lines.append("roughness %d" % rng.randint(0, 4))
    lines.append("voicing %d" % rng.randint(30, 200))
    lines.append("consonants %d %d" % (rng.randint(50, 190), rng.randint(40, 190)))
    if rng.random() < 0.3:
        lines.append("breath " + " ".join(str(rng.randint(0, 3)) for _ in range(8)))
    if rng.random() < 0.2:
        lines.append("echo %d %d" % (rng.randint(20, 140), rng.randint(5, 15)))
    if rng.random() < 0.15:
        lines.append("klatt %d" % rng.choice([1, 2, 3, 5, 6]))
    # drawn last, so that without it every variant is the one earlier shards were made with
    if silent_share and rng.random() < silent_share:
        silent = [rng.randint(3, 5)] + ([6, 7, 8] if rng.random() < 0.5 else [])
        for k in silent:
            at = next(i for i, line in enumerate(lines) if line.startswith("formant %d " % k))
            lines[at] = "formant %d %s 0 100" % (k, lines[at].split()[2])
    return "\n".join(lines) + "\n"


def private_espeak_data(rng, count, folder, silent_share=0.0):
    """A copy of espeak-ng's data folder holding `count` random variants named rv0, rv1, ..."""
    import shutil
    data = os.path.join(folder, "espeak-ng-data")
    if os.path.exists(data):
        shutil.rmtree(data)
    shutil.copytree(ESPEAK_DATA, data)
    # espeak-ng lists at most 349 voices: keep only the language families spoken here
    # (English and German are West Germanic, French and Spanish Romance) and no mbrola voices
    shutil.rmtree(os.path.join(data, "voices", "mb"), ignore_errors=True)
    for family in os.listdir(os.path.join(data, "lang")):
        path = os.path.join(data, "lang", family)
        if family not in ("gmw", "roa"):
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    names = []
    for i in range(count):
        name = "rv%d" % i
        with open(os.path.join(data, "voices", "!v", name), "w") as f:
            f.write(random_variant(rng, name, silent_share))
        names.append(name)
    return names


def speak(job):
    text, lang, voice, variant, speed, pitch, amp, gap, data_path = job
    v = voice + ("+" + variant if variant else "")
    cmd = (
        ["espeak-ng"] + (["--path=" + data_path] if data_path else [])
        + ["-v", v, "-s", str(speed), "-p", str(pitch), "-a", str(amp), "-g", str(gap), "--stdout", text]
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
    ap.add_argument("--random-variants", type=int, default=0)
    ap.add_argument("--random-share", type=float, default=0.7)
    ap.add_argument("--silent-formant-share", type=float, default=0.0,
                    help="share of the made-up variants with a silenced formant (see random_variant)")
    args = ap.parse_args()

    seed = (1000 if args.split == "eval" else 0) + args.shard
    rng = random.Random(seed)
    odir = os.path.join(out_dir(), args.split)
    os.makedirs(odir, exist_ok=True)
    data_path, made_up = None, []
    if args.random_variants and args.split == "train":
        data_path = os.path.join(out_dir(), "espeak-%s-%03d" % (args.split, args.shard))
        made_up = private_espeak_data(random.Random(seed + 5000), args.random_variants, data_path,
                                       args.silent_formant_share)

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
                if made_up and rng.random() < args.random_share:
                    variant = rng.choice(made_up)
                speed, pitch = rng.choice(TRAIN_SPEEDS), rng.choice(TRAIN_PITCHES)
            else:
                variant = rng.choice(EVAL_VARIANTS)
                speed, pitch = rng.choice(EVAL_SPEEDS), rng.choice(EVAL_PITCHES)
            voice = rng.choice(VOICES[lang])
            amp = rng.randint(60, 160)
            gap = rng.choice([0, 0, 0, 1, 2, 4])
            jobs.append((sent, lang, voice, variant, speed, pitch, amp, gap, data_path))

    with Pool(args.jobs) as pool:
        audios = pool.map(speak, jobs, chunksize=16)

    meta = []
    offsets = [0]
    for job, a in zip(jobs, audios):
        sent, lang, voice, variant, speed, pitch, amp, gap, _ = job
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
