"""A small Whisper-architecture model in torch, its log-mel features, and helpers shared by
training, evaluation and export."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 80


def _hz_to_mel(f):
    # Slaney scale: linear below 1 kHz, logarithmic above
    f = np.asarray(f, dtype=np.float64)
    mel = 3.0 * f / 200.0
    logstep = np.log(6.4) / 27.0
    return np.where(f >= 1000.0, 15.0 + np.log(np.maximum(f, 1e-10) / 1000.0) / logstep, mel)


def _mel_to_hz(m):
    m = np.asarray(m, dtype=np.float64)
    f = 200.0 * m / 3.0
    logstep = np.log(6.4) / 27.0
    return np.where(m >= 15.0, 1000.0 * np.exp(logstep * (m - 15.0)), f)


def mel_filters(n_mels=N_MELS, n_fft=N_FFT, sr=SAMPLE_RATE):
    """Triangular Slaney-normalised filters, [n_fft//2+1, n_mels]."""
    n_bins = n_fft // 2 + 1
    fft_freqs = np.linspace(0, sr / 2, n_bins)
    mels = np.linspace(_hz_to_mel(0.0), _hz_to_mel(8000.0), n_mels + 2)
    pts = _mel_to_hz(mels)
    diff = np.diff(pts)
    slopes = pts[None, :] - fft_freqs[:, None]
    down = -slopes[:, :-2] / diff[:-1]
    up = slopes[:, 2:] / diff[1:]
    fb = np.maximum(0.0, np.minimum(down, up))
    fb *= (2.0 / (pts[2 : n_mels + 2] - pts[:n_mels]))[None, :]
    return fb


class LogMel(nn.Module):
    """Whisper log-mel of windows already padded to the full length: [B, N] -> [B, 80, N/160]."""

    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(N_FFT, periodic=True, dtype=torch.float64), persistent=False)
        self.register_buffer("filters", torch.from_numpy(mel_filters()), persistent=False)

    @torch.no_grad()
    def forward(self, audio):
        x = audio.to(torch.float64)
        spec = torch.stft(x, N_FFT, HOP, window=self.window, center=True, pad_mode="reflect", return_complex=True)
        power = spec.abs() ** 2
        power = power[..., :-1]
        mel = torch.einsum("fm,bft->bmt", self.filters, power)
        logm = torch.log10(torch.clamp(mel, min=1e-10))
        mx = logm.amax(dim=(1, 2), keepdim=True)
        logm = torch.maximum(logm, mx - 8.0)
        return ((logm + 4.0) / 4.0).to(torch.float32)


def gelu_erf(x):
    """GELU (the exact, erf form that F.gelu computes) from elementwise operations. oneDNN's GELU
    backward in Debian's torch 1.13 is wrong when the incoming gradient is not contiguous, as it
    is behind the stem's transpose; these operations take any strides."""
    return 0.5 * x * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))


def sinusoids(length, channels, max_timescale=10000):
    inc = math.log(max_timescale) / (channels // 2 - 1)
    inv = torch.exp(-inc * torch.arange(channels // 2, dtype=torch.float32))
    t = torch.arange(length, dtype=torch.float32)[:, None] * inv[None, :]
    return torch.cat([torch.sin(t), torch.cos(t)], dim=1)


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.h, self.dh).transpose(1, 2)

    def attend(self, q, k, v, mask=None):
        # q, k, v: [B, H, T, Dh]; returns output [B, T, D] and probabilities [B, H, Tq, Tk]
        w = torch.matmul(q * (self.dh ** -0.5), k.transpose(-1, -2))
        if mask is not None:
            w = w + mask
        p = torch.softmax(w, dim=-1)
        o = torch.matmul(p, v)
        b, h, t, dh = o.shape
        return self.o(o.transpose(1, 2).reshape(b, t, h * dh)), p


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, ffn):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = Attention(d, heads)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ffn)
        self.fc2 = nn.Linear(ffn, d)

    def forward(self, x):
        h = self.ln1(x)
        a = self.attn
        o, _ = a.attend(a.split(a.q(h)), a.split(a.k(h)), a.split(a.v(h)))
        x = x + o
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads, ffn):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.self_attn = Attention(d, heads)
        self.ln2 = nn.LayerNorm(d)
        self.cross_attn = Attention(d, heads)
        self.ln3 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, ffn)
        self.fc2 = nn.Linear(ffn, d)

    def cross_kv(self, enc):
        c = self.cross_attn
        return c.split(c.k(enc)), c.split(c.v(enc))

    def forward(self, x, self_k, self_v, cross_k, cross_v, mask):
        """self_k/self_v: keys/values of all positions so far (past + current), already
        computed by the caller via self_kv(); returns output and cross-attention probabilities."""
        h = self.ln1(x)
        s = self.self_attn
        o, _ = s.attend(s.split(s.q(h)), self_k, self_v, mask)
        x = x + o
        h = self.ln2(x)
        c = self.cross_attn
        o, p = c.attend(c.split(c.q(h)), cross_k, cross_v)
        x = x + o
        return x + self.fc2(F.gelu(self.fc1(self.ln3(x)))), p

    def self_kv(self, x):
        h = self.ln1(x)
        s = self.self_attn
        return s.split(s.k(h)), s.split(s.v(h))


class Whisper(nn.Module):
    """cfg["token_subset"] (optional): the ids the model can read and write. The token table then
    holds only their rows plus one zero row that every other id reads; every other id's logit
    is -100. Without it the table holds all vocab_size rows (the benchmark models, whose cost
    must equal the production models')."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        d = cfg["d_model"]
        self.conv1 = nn.Conv1d(cfg["num_mel_bins"], d, 3, padding=1)
        self.conv2 = nn.Conv1d(d, d, 3, stride=2, padding=1)
        # a model widened by tiling (grow.py) keeps the positions it learned with, tiled too
        tiles = cfg.get("enc_pos_tiles", 1)
        pos = sinusoids(cfg["max_source_positions"], d // tiles).repeat(1, tiles)
        self.register_buffer("enc_pos", pos, persistent=False)
        self.enc_layers = nn.ModuleList(
            [EncoderLayer(d, cfg["encoder_attention_heads"], cfg["encoder_ffn_dim"]) for _ in range(cfg["encoder_layers"])]
        )
        self.enc_ln = nn.LayerNorm(d)
        subset = cfg.get("token_subset")
        self.compact = subset is not None
        if self.compact:
            n = len(subset)
            index = torch.full((cfg["vocab_size"],), n, dtype=torch.long)
            index[torch.tensor(subset)] = torch.arange(n)
            self.register_buffer("token_index", index, persistent=False)
            self.embed = nn.Embedding(n + 1, d)
            # the last row's logit: the one every id outside the subset gets
            bias = torch.zeros(n + 1)
            bias[n] = -100.0
            self.register_buffer("logit_bias", bias, persistent=False)
        else:
            self.embed = nn.Embedding(cfg["vocab_size"], d)
            # output bias: zero for tokens the model was trained to produce, very low for the rest
            self.register_buffer("logit_bias", torch.zeros(cfg["vocab_size"]))
        self.dec_pos = nn.Parameter(torch.zeros(cfg["max_target_positions"], d))
        self.dec_layers = nn.ModuleList(
            [DecoderLayer(d, cfg["decoder_attention_heads"], cfg["decoder_ffn_dim"]) for _ in range(cfg["decoder_layers"])]
        )
        self.dec_ln = nn.LayerNorm(d)
        nn.init.normal_(self.embed.weight, std=0.02)
        nn.init.normal_(self.dec_pos, std=0.01)
        if self.compact:
            with torch.no_grad():
                self.embed.weight[-1].zero_()

    def embed_ids(self, ids):
        return self.embed(self.token_index[ids] if self.compact else ids)

    def encode(self, feats):
        x = gelu_erf(self.conv1(feats))
        x = gelu_erf(self.conv2(x))
        x = x.transpose(1, 2) + self.enc_pos[: x.shape[2]]
        for layer in self.enc_layers:
            x = layer(x)
        return self.enc_ln(x)

    def decode_hidden(self, ids, enc, pad_mask=None):
        """Training/reference path without cache. ids [B, T]; returns hidden [B, T, D] and the
        cross-attention probabilities per layer."""
        t = ids.shape[1]
        x = self.embed_ids(ids) + self.dec_pos[:t]
        causal = torch.full((t, t), float("-inf"), device=ids.device).triu(1)
        crosses = []
        for layer in self.dec_layers:
            k, v = layer.self_kv(x)
            ck, cv = layer.cross_kv(enc)
            x, p = layer(x, k, v, ck, cv, causal)
            crosses.append(p)
        return self.dec_ln(x), crosses

    def logits(self, h):
        out = F.linear(h, self.embed.weight, self.logit_bias)
        # compact table: every id's logit is its row's (ids outside the subset read the last)
        return out.index_select(-1, self.token_index) if self.compact else out


def load_trained(path, threads=2):
    """A training checkpoint as an eval-mode model (with its output bias), and the checkpoint.
    oneDNN stays off, as in every float32 script here: float32 products go through BLAS, as they
    did when these weights were measured (oneDNN is for train.py --bf16)."""
    torch.set_num_threads(threads)
    torch.backends.mkldnn.enabled = False
    ck = torch.load(path, map_location="cpu")
    model = Whisper(dict(ck["config"]))
    model.load_state_dict(ck["model"])
    model.eval()
    return model, ck
