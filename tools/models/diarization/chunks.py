"""10-s training and evaluation chunks of generated conversations, with frame activity of at
most 3 local speakers in random order."""
import numpy as np

from conversations import conversation, frame_labels

CHUNK = 160000


def chunk(pool, rng, max_speakers=3, with_speakers=False):
    """(audio [160000], activity [589, 3]) and, with_speakers, the speaker ids of the 3 slots."""
    while True:
        audio, extents, speakers = conversation(pool, rng, duration=rng.uniform(10.5, 16.0))
        start = rng.randrange(0, len(audio) - CHUNK + 1)
        act = frame_labels(extents, start, CHUNK, len(speakers))
        active = [k for k in range(len(speakers)) if act[:, k].any()]
        if len(active) > max_speakers:
            continue
        order = active[:]
        rng.shuffle(order)
        out = np.zeros((act.shape[0], 3), dtype=np.float32)
        for slot, k in enumerate(order):
            out[:, slot] = act[:, k]
        x = audio[start: start + CHUNK].copy()
        return (x, out, [speakers[k] for k in order]) if with_speakers else (x, out)


def batch(pool, rng, n):
    xs, ys = zip(*(chunk(pool, rng) for _ in range(n)))
    return np.stack(xs)[:, None, :], np.stack(ys)
