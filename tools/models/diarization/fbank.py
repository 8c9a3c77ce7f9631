"""The log-mel filterbank features of transformers.js' WeSpeakerFeatureExtractor, in numpy.

Same steps as feature_extraction_wespeaker.js and utils/audio.js `spectrogram`: waveform x 32768,
frames of 400 samples every 160 (no centre padding), per frame the mean removed, pre-emphasis
0.97 (first sample x 0.03), a non-periodic 400-sample Hamming window, a 512-point FFT, power,
80 kaldi mel filters from 20 to 8000 Hz built in mel space over 257 bins, a floor of
1.192092955078125e-7, natural log, then every bin minus its mean over the frames.
tools/models/diarization/fbank_parity.mjs compares this with the library.
"""
import numpy as np

FLOOR = 1.192092955078125e-7


def _mel(f):
    return 1127.0 * np.log(1.0 + np.asarray(f, dtype=np.float64) / 700.0)


def mel_filters(num_bins=257, num_mel=80, fmin=20.0, fmax=8000.0, sr=16000):
    mel_freqs = np.linspace(_mel(fmin), _mel(fmax), num_mel + 2)
    fft_mels = _mel(np.arange(num_bins) * (sr / ((num_bins - 1) * 2)))
    diff = np.diff(mel_freqs)
    slopes = mel_freqs[None, :] - fft_mels[:, None]  # [bins, num_mel + 2]
    down = -slopes[:, :-2] / diff[:-1]
    up = slopes[:, 2:] / diff[1:]
    return np.maximum(0, np.minimum(down, up)).T.astype(np.float32)  # [num_mel, bins]


MEL = mel_filters()
WINDOW = 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(400) / 399)


def raw_fbank(waveform):
    """Log-mel features [num_frames, 80] (float32) before the mean removal."""
    x = np.asarray(waveform, dtype=np.float32) * np.float32(32768)
    n = 1 + (len(x) - 400) // 160
    if n <= 0:
        return np.zeros((0, 80), dtype=np.float32)
    idx = np.arange(400)[None, :] + 160 * np.arange(n)[:, None]
    fr = x[idx].astype(np.float64)
    fr -= fr.mean(axis=1, keepdims=True)
    fr[:, 1:] -= 0.97 * fr[:, :-1].copy()
    fr[:, 0] *= 1 - 0.97
    fr *= WINDOW
    spec = np.fft.rfft(fr, n=512)
    power = (spec.real ** 2 + spec.imag ** 2).astype(np.float32)
    mel = power @ MEL.T
    return np.log(np.maximum(mel, np.float32(FLOOR))).astype(np.float32)


def fbank(waveform):
    """What the feature extractor returns as input_features[0]: [num_frames, 80]."""
    f = raw_fbank(waveform)
    return f - f.mean(axis=0, keepdims=True)
