"""Writes a benchmark model in whisper.cpp's model format (ggml), so that whisper.cpp runs on
the very weights Murmur's engine and transformers.js' pipeline run on.

  /usr/bin/python3 tools/models/bench-to-ggml.py --tokens-per-window 67 [--only tiny|base] [--models .models]

Writes <models>/murmur-bench/whisper-<name>/ggml/tokens-<N>.bin (float32, as the ONNX files).

The weights are rebuilt by bench_weights.py, the code make-bench-models.py exported; before
anything is written each of them is found, value for value, among the tensors of the staged
ONNX files, so a file is never written from weights other than the ones benchmarked.

Equal work: generated weights never end a window on their own, and whisper.cpp decodes at most
n_text_ctx / 2 - 4 tokens a window. The file therefore says n_text_ctx = 2 * (N + 4), and holds
the first n_text_ctx rows of the decoder's position table (the only rows a window that short
reads): whisper.cpp then decodes N tokens a window, as the pipeline's max_new_tokens caps it.

The file, as whisper.cpp's loader reads it (little-endian int32 unless said):
  magic 0x67676d6c; n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
  n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype (0: float32);
  mel filters: n_mels, n_bins, then float32 [n_mels][n_bins];
  vocabulary: count, then per token its byte length and bytes (ids 0..count-1; whisper.cpp
  numbers the special and timestamp tokens after them itself);
  tensors: n_dims, name length, type (0: float32), the dimensions innermost first, the name,
  the values.
"""
import argparse
import json
import os
import struct
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_weights import bench_whisper  # noqa: E402
from whisper_torch import N_FFT, mel_filters  # noqa: E402
from wtok import REPO, _byte_table  # noqa: E402

MAGIC = 0x67676D6C
# The GPT-2 byte-level tokens; the multilingual models' special tokens follow them.
BASE_VOCAB = 50257


def ggml_names(cfg):
    """Our parameter names -> whisper.cpp's (which are OpenAI's checkpoint names)."""
    out = {
        "conv1.weight": "encoder.conv1.weight", "conv1.bias": "encoder.conv1.bias",
        "conv2.weight": "encoder.conv2.weight", "conv2.bias": "encoder.conv2.bias",
        "enc_ln.weight": "encoder.ln_post.weight", "enc_ln.bias": "encoder.ln_post.bias",
        "embed.weight": "decoder.token_embedding.weight", "dec_pos": "decoder.positional_embedding",
        "dec_ln.weight": "decoder.ln.weight", "dec_ln.bias": "decoder.ln.bias",
    }
    attn = {"q.weight": "query.weight", "q.bias": "query.bias", "k.weight": "key.weight",
            "v.weight": "value.weight", "v.bias": "value.bias", "o.weight": "out.weight", "o.bias": "out.bias"}
    for i in range(cfg["encoder_layers"]):
        ours, theirs = "enc_layers.%d." % i, "encoder.blocks.%d." % i
        for a, b in attn.items():
            out[ours + "attn." + a] = theirs + "attn." + b
        for a, b in [("ln1", "attn_ln"), ("ln2", "mlp_ln"), ("fc1", "mlp.0"), ("fc2", "mlp.2")]:
            for p in ("weight", "bias"):
                out[ours + a + "." + p] = theirs + b + "." + p
    for i in range(cfg["decoder_layers"]):
        ours, theirs = "dec_layers.%d." % i, "decoder.blocks.%d." % i
        for a, b in attn.items():
            out[ours + "self_attn." + a] = theirs + "attn." + b
            out[ours + "cross_attn." + a] = theirs + "cross_attn." + b
        for a, b in [("ln1", "attn_ln"), ("ln2", "cross_attn_ln"), ("ln3", "mlp_ln"), ("fc1", "mlp.0"),
                     ("fc2", "mlp.2")]:
            for p in ("weight", "bias"):
                out[ours + a + "." + p] = theirs + b + "." + p
    return out


def onnx_tensors(path):
    """Every initializer and Constant tensor of a graph and its subgraphs, keyed by shape."""
    model = onnx.load(path)
    by_shape = {}

    def add(a):
        by_shape.setdefault(a.shape, []).append(a)

    def walk(g):
        for init in g.initializer:
            add(numpy_helper.to_array(init))
        for node in g.node:
            for a in node.attribute:
                if node.op_type == "Constant" and a.name == "value":
                    add(numpy_helper.to_array(a.t))
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)

    walk(model.graph)
    return by_shape


def check_against_onnx(params, onnx_dir):
    """Every parameter must equal one tensor of the exported files, or its transpose."""
    found = {}
    for f in ("encoder_model.onnx", "decoder_model_merged.onnx"):
        for shape, arrays in onnx_tensors(os.path.join(onnx_dir, f)).items():
            found.setdefault(shape, []).extend(arrays)
    for name, w in params.items():
        same = any(np.array_equal(w, a) for a in found.get(w.shape, []))
        if not same and w.ndim == 2:
            same = any(np.array_equal(w.T, a) for a in found.get(w.T.shape, []))
        if not same:
            raise SystemExit("%s: no tensor of %s holds these values; run npm run models:bench again" % (name, onnx_dir))


def vocabulary(model_dir):
    with open(os.path.join(model_dir, "vocab.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    by_id = {i: t for t, i in vocab.items() if i < BASE_VOCAB}
    if sorted(by_id) != list(range(BASE_VOCAB)):
        raise SystemExit("vocab.json lacks some of the ids 0..%d" % (BASE_VOCAB - 1))
    to_byte = {c: b for b, c in _byte_table().items()}
    return [bytes(to_byte[c] for c in by_id[i]) for i in range(BASE_VOCAB)]


def tensors_for_ggml(model, cfg, text_ctx):
    params = {k: v.detach().numpy().astype(np.float32) for k, v in model.named_parameters()}
    if np.any(model.logit_bias.numpy() != 0):
        raise SystemExit("the model has an output bias, which whisper.cpp's format cannot hold")
    names = ggml_names(cfg)
    if sorted(names) != sorted(params):
        raise SystemExit("unmapped parameters: %s" % sorted(set(params) ^ set(names)))
    out = {names[k]: v for k, v in params.items()}
    # whisper.cpp reads conv biases as [1, n_state]
    for conv in ("encoder.conv1.bias", "encoder.conv2.bias"):
        out[conv] = out[conv].reshape(-1, 1)
    out["decoder.positional_embedding"] = out["decoder.positional_embedding"][:text_ctx]
    out["encoder.positional_embedding"] = model.enc_pos.numpy().astype(np.float32)
    return params, out


def write(path, cfg, text_ctx, filters, words, tensors):
    with open(path, "wb") as f:
        f.write(struct.pack("<I", MAGIC))
        f.write(struct.pack("<11i", cfg["vocab_size"], cfg["max_source_positions"], cfg["d_model"],
                            cfg["encoder_attention_heads"], cfg["encoder_layers"], text_ctx, cfg["d_model"],
                            cfg["decoder_attention_heads"], cfg["decoder_layers"], cfg["num_mel_bins"], 0))
        f.write(struct.pack("<2i", *filters.shape))
        f.write(filters.astype("<f4").tobytes())
        f.write(struct.pack("<i", len(words)))
        for w in words:
            f.write(struct.pack("<i", len(w)))
            f.write(w)
        for name, a in tensors.items():
            raw = name.encode()
            f.write(struct.pack("<3i", a.ndim, len(raw), 0))
            f.write(struct.pack("<%di" % a.ndim, *reversed(a.shape)))
            f.write(raw)
            f.write(np.ascontiguousarray(a, dtype="<f4").tobytes())


def read_back(path):
    """The file parsed again: header, filters, vocabulary and tensors (for the check below)."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 0

    def ints(n):
        nonlocal pos
        v = struct.unpack_from("<%di" % n, data, pos)
        pos += 4 * n
        return v

    assert ints(1)[0] == MAGIC
    header = ints(11)
    n_mel, n_bins = ints(2)
    filters = np.frombuffer(data, "<f4", n_mel * n_bins, pos).reshape(n_mel, n_bins)
    pos += 4 * n_mel * n_bins
    words = []
    for _ in range(ints(1)[0]):
        n = ints(1)[0]
        words.append(data[pos:pos + n])
        pos += n
    tensors = {}
    while pos < len(data):
        n_dims, n_name, kind = ints(3)
        dims = ints(n_dims)
        name = data[pos:pos + n_name].decode()
        pos += n_name
        count = int(np.prod(dims))
        tensors[name] = np.frombuffer(data, "<f4", count, pos).reshape(tuple(reversed(dims)))
        pos += 4 * count
    return header, filters, words, tensors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=os.path.join(REPO, ".models"))
    ap.add_argument("--only", choices=["tiny", "base"], default="tiny")
    ap.add_argument("--tokens-per-window", type=int, required=True)
    args = ap.parse_args()
    torch.set_num_threads(2)
    torch.backends.mkldnn.enabled = False
    model_dir = os.path.join(args.models, "murmur-bench", "whisper-" + args.only)
    model, cfg = bench_whisper(args.only)
    text_ctx = 2 * (args.tokens_per_window + 4)
    if args.tokens_per_window < 1 or text_ctx > cfg["max_target_positions"]:
        raise SystemExit("--tokens-per-window: 1 to %d" % (cfg["max_target_positions"] // 2 - 4))
    params, tensors = tensors_for_ggml(model, cfg, text_ctx)
    check_against_onnx(params, os.path.join(model_dir, "onnx"))
    filters = mel_filters().T.astype(np.float32)  # [n_mels, n_fft // 2 + 1]
    assert filters.shape == (cfg["num_mel_bins"], N_FFT // 2 + 1)
    words = vocabulary(model_dir)
    out_dir = os.path.join(model_dir, "ggml")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "tokens-%d.bin" % args.tokens_per_window)
    write(path, cfg, text_ctx, filters, words, tensors)

    header, filters_back, words_back, tensors_back = read_back(path)
    assert header[5] == text_ctx and header[0] == cfg["vocab_size"]
    assert np.array_equal(filters_back, filters) and words_back == words
    assert list(tensors_back) == list(tensors)
    for name, a in tensors.items():
        if not np.array_equal(tensors_back[name], a):
            raise SystemExit("%s: read back differently" % name)
    print("%s: %d tensors (%.1f MB), %d tokens a window at most" % (
        path, len(tensors), os.path.getsize(path) / 1e6, args.tokens_per_window))


if __name__ == "__main__":
    main()
