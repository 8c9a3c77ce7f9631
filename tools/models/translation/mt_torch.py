"""A small M2M100-architecture translation model in torch (the layout transformers.js runs as
M2M100ForConditionalGeneration): scaled token embedding shared by encoder, decoder and output
head; sinusoidal positions offset by 2 (M2M100's padding_idx + 1); pre-norm blocks with ReLU
feed-forward; a final layer norm on each side; attention with biases."""
import math

import torch
import torch.nn.functional as F
from torch import nn


def sinusoids(n, d):
    # M2M100SinusoidalPositionalEmbedding: first half sin, second half cos
    half = d // 2
    emb = math.log(10000) / (half - 1)
    freq = torch.exp(torch.arange(half, dtype=torch.float) * -emb)
    pos = torch.arange(n, dtype=torch.float)[:, None] * freq[None, :]
    table = torch.cat([torch.sin(pos), torch.cos(pos)], dim=1)
    table[1] = 0  # padding_idx
    return table


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dh = h, d // h
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def split(self, x):
        b, t, _ = x.shape
        return x.reshape(b, t, self.h, self.dh).transpose(1, 2)

    def kv(self, x):
        return self.split(self.k(x)), self.split(self.v(x))

    def attend(self, x, k, v, mask):
        q = self.split(self.q(x)) * (self.dh ** -0.5)
        w = q @ k.transpose(2, 3) + mask
        p = torch.softmax(w, dim=-1)
        y = (p @ v).transpose(1, 2)
        b, t = y.shape[0], y.shape[1]
        return self.o(y.reshape(b, t, self.h * self.dh))


class EncoderLayer(nn.Module):
    def __init__(self, d, h, ff, drop):
        super().__init__()
        self.ln1, self.att = nn.LayerNorm(d), Attention(d, h)
        self.ln2, self.fc1, self.fc2 = nn.LayerNorm(d), nn.Linear(d, ff), nn.Linear(ff, d)
        self.drop = nn.Dropout(drop)

    def forward(self, x, mask):
        y = self.ln1(x)
        k, v = self.att.kv(y)
        x = x + self.drop(self.att.attend(y, k, v, mask))
        return x + self.drop(self.fc2(F.relu(self.fc1(self.ln2(x)))))


class DecoderLayer(nn.Module):
    def __init__(self, d, h, ff, drop):
        super().__init__()
        self.ln1, self.att = nn.LayerNorm(d), Attention(d, h)
        self.ln2, self.cross = nn.LayerNorm(d), Attention(d, h)
        self.ln3, self.fc1, self.fc2 = nn.LayerNorm(d), nn.Linear(d, ff), nn.Linear(ff, d)
        self.drop = nn.Dropout(drop)

    def self_kv(self, x):
        return self.att.kv(self.ln1(x))

    def cross_kv(self, enc):
        return self.cross.kv(enc)

    def forward(self, x, k, v, ck, cv, causal, enc_mask):
        x = x + self.drop(self.att.attend(self.ln1(x), k, v, causal))
        x = x + self.drop(self.cross.attend(self.ln2(x), ck, cv, enc_mask))
        return x + self.drop(self.fc2(F.relu(self.fc1(self.ln3(x)))))


class M2M(nn.Module):
    def __init__(self, cfg, drop=0.1):
        super().__init__()
        d, h, ff = cfg["d_model"], cfg["encoder_attention_heads"], cfg["encoder_ffn_dim"]
        self.cfg = cfg
        self.embed = nn.Embedding(cfg["vocab_size"], d, padding_idx=cfg["pad_token_id"])
        nn.init.normal_(self.embed.weight, std=d ** -0.5)
        self.scale = math.sqrt(d)
        self.register_buffer("pos", sinusoids(cfg["max_position_embeddings"] + 2, d), persistent=False)
        self.enc_layers = nn.ModuleList([EncoderLayer(d, h, ff, drop) for _ in range(cfg["encoder_layers"])])
        self.dec_layers = nn.ModuleList([DecoderLayer(d, h, cfg["decoder_ffn_dim"], drop)
                                         for _ in range(cfg["decoder_layers"])])
        self.enc_ln, self.dec_ln = nn.LayerNorm(d), nn.LayerNorm(d)
        self.drop = nn.Dropout(drop)

    def embed_ids(self, ids):
        return self.embed(ids) * self.scale

    def encode(self, ids, attention_mask):
        t = ids.shape[1]
        x = self.drop(self.embed_ids(ids) + self.pos[2 : 2 + t])
        mask = (1.0 - attention_mask[:, None, None, :].to(torch.float)) * -1e9
        for layer in self.enc_layers:
            x = layer(x, mask)
        return self.enc_ln(x)

    def logits(self, h):
        # rank 2 so that the tied head exports as a MatMul/Gemm on the shared table
        b, t, d = h.shape
        return F.linear(h.reshape(b * t, d), self.embed.weight).reshape(b, t, -1)

    def decode(self, ids, enc, enc_attention_mask):
        t = ids.shape[1]
        x = self.drop(self.embed_ids(ids) + self.pos[2 : 2 + t])
        causal = torch.full((t, t), -1e9).triu(1)
        emask = (1.0 - enc_attention_mask[:, None, None, :].to(torch.float)) * -1e9
        for layer in self.dec_layers:
            k, v = layer.self_kv(x)
            ck, cv = layer.cross_kv(enc)
            x = layer(x, k, v, ck, cv, causal, emask)
        return self.logits(self.dec_ln(x))


def make_config(vocab_size, lang_ids, d=128, layers=2, heads=4, ff=512, max_pos=128):
    return {
        "_name_or_path": "murmur-test/m2m100-synth",
        "architectures": ["M2M100ForConditionalGeneration"],
        "model_type": "m2m_100",
        "is_encoder_decoder": True,
        "vocab_size": vocab_size,
        "d_model": d,
        "encoder_layers": layers,
        "decoder_layers": layers,
        "encoder_attention_heads": heads,
        "decoder_attention_heads": heads,
        "encoder_ffn_dim": ff,
        "decoder_ffn_dim": ff,
        "activation_function": "relu",
        "max_position_embeddings": max_pos,
        "scale_embedding": True,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "decoder_start_token_id": 2,
        "dropout": 0.1,
        "use_cache": True,
        "tie_word_embeddings": True,
        "murmur_languages": lang_ids,
    }
