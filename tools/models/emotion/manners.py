"""Sentences spoken by espeak-ng in four manners, the classes of the emotion test model.

A manner is a range of pitch, rate and loudness: the cues speech-emotion models hear first.
Labels are written as IEMOCAP-style models write them (`neu`, `hap`, `sad`, `ang`), so that the
code mapping a model's labels to Murmur's list is exercised. The held-out voices (variants m3,
f2, klatt4, Andy, linda, max, as the other test models hold out) are never used for training.
"""
import os
import random
import subprocess
import tempfile

import numpy as np
import soundfile as sf

SHARED = os.environ.get("MURMUR_SHARED", os.path.join(os.path.dirname(__file__), "../../../../shared"))
LANGUAGES = {"en": "en-us", "fr": "fr", "de": "de", "es": "es"}
HELD_OUT_VARIANTS = ["m3", "f2", "klatt4", "Andy", "linda", "max"]
TRAIN_VARIANTS = ["m1", "m2", "m4", "m5", "m6", "m7", "f1", "f3", "f4", "f5", "klatt", "klatt2",
                  "klatt3", "Alex", "Annie", "Gene", "Michael", "Denis", "edward", "iven"]

# label -> (speed range, pitch range, amplitude range)
MANNERS = {
    "neu": ((145, 170), (40, 60), (90, 110)),
    "hap": ((175, 205), (78, 99), (120, 150)),
    "sad": ((90, 115), (5, 25), (50, 70)),
    "ang": ((200, 240), (25, 42), (170, 200)),
}
LABELS = list(MANNERS)


def vocabulary(language):
    with open(os.path.join(SHARED, "test-corpus", f"vocabulary.{language}.txt"), encoding="utf-8") as f:
        return f.read().split()


def sentence(rng, words, length):
    return " ".join(rng.choice(words) for _ in range(length))


def speak(text, language, variant, speed, pitch, amplitude):
    """16 kHz mono float32 samples of `text` (espeak-ng writes 22.05 kHz; sox resamples)."""
    with tempfile.TemporaryDirectory() as tmp:
        raw, out = os.path.join(tmp, "raw.wav"), os.path.join(tmp, "out.wav")
        subprocess.run(["espeak-ng", "-v", f"{LANGUAGES[language]}+{variant}", "-s", str(speed),
                        "-p", str(pitch), "-a", str(amplitude), "-w", raw, text], check=True)
        subprocess.run(["sox", "-V1", "-D", raw, "-r", "16000", "-c", "1", out], check=True)
        audio, _ = sf.read(out, dtype="float32")
    return audio


def example(rng, vocab, label, held_out=False):
    """(samples, label index) of one sentence spoken in `label`'s manner."""
    language = rng.choice(list(LANGUAGES))
    variant = rng.choice(HELD_OUT_VARIANTS if held_out else TRAIN_VARIANTS)
    (s0, s1), (p0, p1), (a0, a1) = MANNERS[label]
    text = sentence(rng, vocab[language], rng.randint(4, 10))
    audio = speak(text, language, variant, rng.randint(s0, s1), rng.randint(p0, p1), rng.randint(a0, a1))
    return audio, LABELS.index(label)


def dataset(n_per_class, seed, held_out=False):
    rng = random.Random(seed)
    vocab = {l: vocabulary(l) for l in LANGUAGES}
    xs, ys = [], []
    for _ in range(n_per_class):
        for label in LABELS:
            x, y = example(rng, vocab, label, held_out)
            xs.append(x)
            ys.append(y)
    return xs, np.array(ys)
