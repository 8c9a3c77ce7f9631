"""Export a Whisper-architecture torch model to the folder layout transformers.js loads.

  /usr/bin/python3 tools/models/export.py --ckpt .cache/train/run1/ckpt.pt --out tools/models/whisper-synth

Writes config.json, generation_config.json, preprocessor_config.json and
onnx/encoder_model.onnx, onnx/decoder_model_merged.onnx (a no-past and a with-past decoder
joined by an If on `use_cache_branch`, weights shared; on the with-past branch the encoder's
keys and values come back as empty constants, as in the hub's exports), and with --quantize their int8
variants onnx/*_quantized.onnx (MatMul with constant weights -> DynamicQuantizeLinear +
MatMulInteger, per-column scales; the tied embedding stored once as int8).
Tokenizer files are not written here: tools/models/stage.mjs adds them.
"""
import argparse
import copy
import hashlib
import json
import os
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from whisper_torch import load_trained  # noqa: E402
from wtok import shared_dir  # noqa: E402

OPSET = 14


# ---------------------------------------------------------------- torch wrappers
class EncoderWrap(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_features):
        return self.m.encode(input_features)


def _logits(m, h):
    # flattened to two axes so that the tied head exports as one Gemm
    b, t, d = h.shape
    return m.logits(h.reshape(b * t, d)).reshape(b, t, -1)


class DecoderNoPast(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, encoder_hidden_states):
        m = self.m
        t = input_ids.shape[1]
        x = m.embed_ids(input_ids) + m.dec_pos[:t]
        causal = torch.full((t, t), -1e9).triu(1)
        presents, crosses = [], []
        for layer in m.dec_layers:
            k, v = layer.self_kv(x)
            ck, cv = layer.cross_kv(encoder_hidden_states)
            x, p = layer(x, k, v, ck, cv, causal)
            presents += [k, v, ck, cv]
            crosses.append(p)
        return (_logits(m, m.dec_ln(x)), *presents, *crosses)


class DecoderWithPast(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, *past):
        m = self.m
        t = input_ids.shape[1]
        past_len = past[0].shape[2]
        x = m.embed_ids(input_ids) + m.dec_pos[past_len : past_len + t]
        # the new tokens see all past tokens and the earlier new tokens
        total = past_len + t
        causal = torch.full((t, total), -1e9).triu(1 + past_len) if t > 1 else torch.zeros(t, total)
        presents, crosses = [], []
        for i, layer in enumerate(m.dec_layers):
            pk, pv, ck, cv = past[4 * i : 4 * i + 4]
            k, v = layer.self_kv(x)
            k = torch.cat([pk, k], dim=2)
            v = torch.cat([pv, v], dim=2)
            x, p = layer(x, k, v, ck, cv, causal)
            presents += [k, v, ck, cv]
            crosses.append(p)
        return (_logits(m, m.dec_ln(x)), *presents, *crosses)


def kv_names(n_layers, prefix):
    out = []
    for i in range(n_layers):
        out += ["%s.%d.decoder.key" % (prefix, i), "%s.%d.decoder.value" % (prefix, i),
                "%s.%d.encoder.key" % (prefix, i), "%s.%d.encoder.value" % (prefix, i)]
    return out


def export_torch(model, cfg, tmpdir):
    """Exports encoder, no-past decoder and with-past decoder to separate ONNX files."""
    model.eval()
    L = cfg["decoder_layers"]
    H = cfg["decoder_attention_heads"]
    dh = cfg["d_model"] // H
    S = cfg["max_source_positions"]
    feats = torch.randn(1, cfg["num_mel_bins"], 2 * S)
    enc_path = os.path.join(tmpdir, "encoder.onnx")
    torch.onnx.export(EncoderWrap(model), (feats,), enc_path, input_names=["input_features"],
                      output_names=["last_hidden_state"], opset_version=OPSET,
                      dynamic_axes={"input_features": {0: "batch_size"}, "last_hidden_state": {0: "batch_size"}})
    with torch.no_grad():
        enc = model.encode(feats)
    ids = torch.tensor([[50258, 50259, 50359]], dtype=torch.long)
    present = kv_names(L, "present")
    cross = ["cross_attentions.%d" % i for i in range(L)]
    dyn = {"input_ids": {0: "batch_size", 1: "decoder_sequence_length"},
           "encoder_hidden_states": {0: "batch_size", 1: "encoder_sequence_length"},
           "logits": {0: "batch_size", 1: "decoder_sequence_length"}}
    for n in present:
        if ".decoder." in n:
            dyn[n] = {0: "batch_size", 2: "past_decoder_sequence_length + 1"}
        else:
            dyn[n] = {0: "batch_size", 2: "encoder_sequence_length_out"}
    for n in cross:
        dyn[n] = {0: "batch_size", 2: "decoder_sequence_length", 3: "encoder_sequence_length_out"}
    nopast_path = os.path.join(tmpdir, "decoder_nopast.onnx")
    torch.onnx.export(DecoderNoPast(model), (ids, enc), nopast_path,
                      input_names=["input_ids", "encoder_hidden_states"], output_names=["logits"] + present + cross,
                      opset_version=OPSET, dynamic_axes=dyn)
    with torch.no_grad():
        outs = DecoderNoPast(model)(ids, enc)
    past = [o for o in outs[1 : 1 + 4 * L]]
    pastn = kv_names(L, "past_key_values")
    dyn2 = {"input_ids": {0: "batch_size", 1: "decoder_sequence_length"},
            "logits": {0: "batch_size", 1: "decoder_sequence_length"}}
    for n in pastn:
        dyn2[n] = {0: "batch_size", 2: "past_decoder_sequence_length" if ".decoder." in n else "encoder_sequence_length_out"}
    for n in present:
        dyn2[n] = {0: "batch_size", 2: "past_decoder_sequence_length + 1" if ".decoder." in n else "encoder_sequence_length_out"}
    for n in cross:
        dyn2[n] = {0: "batch_size", 2: "decoder_sequence_length", 3: "encoder_sequence_length_out"}
    withpast_path = os.path.join(tmpdir, "decoder_withpast.onnx")
    torch.onnx.export(DecoderWithPast(model), (ids[:, -1:], *past), withpast_path,
                      input_names=["input_ids"] + pastn, output_names=["logits"] + present + cross,
                      opset_version=OPSET, dynamic_axes=dyn2)
    return enc_path, nopast_path, withpast_path


# ---------------------------------------------------------------- graph surgery
def _rename_graph(g, outer_names, prefix):
    """Prefix every value name of subgraph g except outer-scope names; returns nothing."""
    keep = set(outer_names)

    def rn(n):
        return n if (n == "" or n in keep) else prefix + n

    for node in g.node:
        node.input[:] = [rn(n) for n in node.input]
        node.output[:] = [rn(n) for n in node.output]
        node.name = prefix + node.name
    for init in g.initializer:
        init.name = rn(init.name)
    for vi in list(g.value_info) + list(g.output):
        vi.name = rn(vi.name)


def _hoist(graphs, outer):
    """Moves the subgraphs' initializers to the outer graph, sharing identical tensors."""
    by_hash = {}
    for g in graphs:
        mapping = {}
        for init in list(g.initializer):
            key = hashlib.sha1(init.raw_data if init.raw_data else init.SerializeToString()).hexdigest()
            key += str(init.data_type) + str(list(init.dims))
            if key not in by_hash:
                new = copy.deepcopy(init)
                new.name = "w%d" % len(by_hash)
                by_hash[key] = new.name
                outer.initializer.append(new)
            mapping[init.name] = by_hash[key]
        del g.initializer[:]
        for node in g.node:
            node.input[:] = [mapping.get(n, n) for n in node.input]


def _empty_encoder_presents(g, heads, head_size):
    """In the with-past branch, the encoder's keys and values come back as empty constants (shape
    [0, heads, 1, head_size]) instead of copies of the inputs, as in the hub's merged decoders:
    callers keep the first step's, and a copy costs a step as much again on onnxruntime-web."""
    for i, node in enumerate(g.node):
        out = node.output[0] if node.output else ""
        if node.op_type == "Identity" and ".encoder." in out and out.split("/", 1)[-1].startswith("present."):
            empty = helper.make_tensor("empty", TensorProto.FLOAT, [0, heads, 1, head_size], [])
            g.node[i].CopyFrom(helper.make_node("Constant", [], [out], name=node.name, value=empty))


def merge_decoders(nopast, withpast, L, heads, head_size):
    """One graph: If(use_cache_branch) then with-past else no-past."""
    pastn = kv_names(L, "past_key_values")
    outer_inputs = ["input_ids", "encoder_hidden_states"] + pastn + ["use_cache_branch"]
    a = nopast.graph
    b = withpast.graph
    # the branches reference outer inputs by name; drop their own input declarations
    inputs_by_name = {}
    for vi in list(a.input) + list(b.input):
        inputs_by_name.setdefault(vi.name, vi)
    _rename_graph(a, outer_inputs, "nopast/")
    _rename_graph(b, outer_inputs, "withpast/")
    _empty_encoder_presents(b, heads, head_size)
    out_names = [o.name for o in nopast.graph.output]
    then_g = helper.make_graph(list(b.node), "with_past", [], list(b.output), list(b.initializer))
    else_g = helper.make_graph(list(a.node), "no_past", [], list(a.output), list(a.initializer))
    outer = helper.make_graph([], "decoder_merged", [], [])
    _hoist([then_g, else_g], outer)
    # branch outputs are declared without shapes (dims differ between branches)
    for g in (then_g, else_g):
        for o in g.output:
            o.type.tensor_type.ClearField("shape")
    final_names = [n.split("/", 1)[1] for n in out_names]
    outer.node.append(helper.make_node("If", ["use_cache_branch"], final_names, name="optional_cache",
                                       then_branch=then_g, else_branch=else_g))
    # inputs
    for n in outer_inputs:
        if n == "use_cache_branch":
            outer.input.append(helper.make_tensor_value_info(n, TensorProto.BOOL, [1]))
        elif n in inputs_by_name:
            outer.input.append(inputs_by_name[n])
    # outputs with the shapes of the with-past branch's declared outputs
    wp_out = {o.name.split("/", 1)[1]: o for o in withpast.graph.output}
    for n in final_names:
        vi = helper.make_tensor_value_info(n, wp_out[n].type.tensor_type.elem_type, None)
        outer.output.append(vi)
    model = helper.make_model(outer, opset_imports=nopast.opset_import, producer_name="murmur-export")
    model.ir_version = nopast.ir_version
    return model


def set_output_shapes(model, shapes):
    for o in model.graph.output:
        if o.name in shapes:
            t = o.type.tensor_type
            t.ClearField("shape")
            for d in shapes[o.name]:
                dim = t.shape.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                else:
                    dim.dim_param = d


# ---------------------------------------------------------------- int8
def _tied_tables(g, found):
    """Names of the weights that a Gemm reads transposed (the tied output head), in g and its branches."""
    for node in g.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                _tied_tables(attr.g, found)
        if node.op_type == "Gemm" and any(a.name == "transB" and a.i == 1 for a in node.attribute):
            found.add(node.input[1])
    return found


def _quantize_graph(g, inits, tied):
    """Rewrites MatMul/Gemm/Gather on constant weights in g (recursing into If branches).
    inits: name -> numpy array of the outer graph's initializers (updated in place with
    the int8 tensors and scales that replace them); tied: the token tables."""
    new_nodes = []
    for node in g.node:
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                _quantize_graph(attr.g, inits, tied)
        if node.op_type == "MatMul" and node.input[1] in inits and inits[node.input[1]].ndim == 2:
            wname = node.input[1]
            qn, sn = _q_cols(inits, wname, transpose=False)
            new_nodes += _qmatmul(node.name, node.input[0], qn, sn, node.output[0])
            continue
        if (node.op_type == "Gemm" and node.input[1] in inits
                and any(a.name == "transB" and a.i == 1 for a in node.attribute)):
            # tied output head: logits = x @ E^T + bias with E [V, d]
            qn, sn = _q_cols(inits, node.input[1], transpose=True)
            tmp = node.output[0] + "/mm"
            new_nodes += _qmatmul(node.name, node.input[0], qn, sn, tmp)
            if len(node.input) > 2 and node.input[2]:
                new_nodes.append(helper.make_node("Add", [tmp, node.input[2]], [node.output[0]], name=node.name + "/bias"))
            else:
                new_nodes.append(helper.make_node("Identity", [tmp], [node.output[0]], name=node.name + "/id"))
            continue
        if node.op_type == "Gather" and node.input[0] in tied and inits[node.input[0]].ndim == 2:
            # token embedding read from the int8 table shared with the output head
            qn, sn = _q_cols(inits, node.input[0], transpose=True)
            o = node.output[0]
            new_nodes += [
                helper.make_node("Gather", [qn, node.input[1]], [o + "/q"], axis=1, name=node.name + "/q"),
                helper.make_node("Gather", [sn, node.input[1]], [o + "/s"], axis=0, name=node.name + "/s"),
                helper.make_node("Cast", [o + "/q"], [o + "/c"], to=TensorProto.FLOAT, name=node.name + "/cast"),
                helper.make_node("Sub", [o + "/c", "q8_zero_f"], [o + "/f"], name=node.name + "/center"),
                helper.make_node("Unsqueeze", [o + "/s", "q8_lastaxis"], [o + "/su"], name=node.name + "/unsq"),
                # [d, B, T] -> [B, T, d]
                helper.make_node("Transpose", [o + "/f"], [o + "/t"], perm=[1, 2, 0], name=node.name + "/tr"),
                helper.make_node("Mul", [o + "/t", o + "/su"], [o], name=node.name + "/scale"),
            ]
            continue
        new_nodes.append(node)
    del g.node[:]
    g.node.extend(new_nodes)


def _q_cols(inits, wname, transpose):
    """8-bit with one scale per output column. transpose=True: w is [N, K] (rows are columns
    of the product) and is stored transposed as [K, N]."""
    qn, sn = wname + "_q8", wname + "_q8scale"
    if qn not in inits:
        w = inits[wname].astype(np.float32)
        if transpose:
            w = w.T
        scale = np.maximum(np.abs(w).max(axis=0), 1e-8) / 127.0
        # stored as uint8 around a zero point of 128: u8 x u8 products do not saturate in
        # onnxruntime's x86 kernels the way u8 x s8 ones can
        q = (np.clip(np.round(w / scale[None, :]), -127, 127) + 128).astype(np.uint8)
        inits[qn] = np.ascontiguousarray(q)
        inits[sn] = scale.astype(np.float32)
    return qn, sn


def _qmatmul(name, a, qn, sn, out):
    return [
        helper.make_node("DynamicQuantizeLinear", [a], [out + "/aq", out + "/as", out + "/az"], name=name + "/dq"),
        helper.make_node("MatMulInteger", [out + "/aq", qn, out + "/az", "q8_zero"], [out + "/i32"], name=name + "/mmi"),
        helper.make_node("Cast", [out + "/i32"], [out + "/f"], to=TensorProto.FLOAT, name=name + "/cast"),
        helper.make_node("Mul", [out + "/as", sn], [out + "/sc"], name=name + "/scales"),
        helper.make_node("Mul", [out + "/f", out + "/sc"], [out], name=name + "/deq"),
    ]


def quantize(model):
    model = copy.deepcopy(model)
    g = model.graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    before = set(inits)
    _quantize_graph(g, inits, _tied_tables(g, set()))
    inits["q8_lastaxis"] = np.array([-1], dtype=np.int64)
    inits["q8_zero"] = np.array(128, dtype=np.uint8)
    inits["q8_zero_f"] = np.array(128.0, dtype=np.float32)
    # keep only initializers still referenced
    used = set()

    def collect(gr):
        for n in gr.node:
            used.update(n.input)
            for attr in n.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    collect(attr.g)

    collect(g)
    del g.initializer[:]
    for name, arr in inits.items():
        if name in used:
            g.initializer.append(numpy_helper.from_array(arr, name))
    del before
    return model


# ---------------------------------------------------------------- configs
def write_configs(cfg, out, base_gen, base_pre, chunk_length, alignment_heads, extra_gen=None):
    S = cfg["max_source_positions"]
    config = {
        "_name_or_path": cfg.get("name", "murmur/whisper"),
        "architectures": ["WhisperForConditionalGeneration"],
        "model_type": "whisper",
        "is_encoder_decoder": True,
        "activation_function": "gelu",
        "d_model": cfg["d_model"],
        "encoder_layers": cfg["encoder_layers"],
        "decoder_layers": cfg["decoder_layers"],
        "num_hidden_layers": cfg["encoder_layers"],
        "encoder_attention_heads": cfg["encoder_attention_heads"],
        "decoder_attention_heads": cfg["decoder_attention_heads"],
        "encoder_ffn_dim": cfg["encoder_ffn_dim"],
        "decoder_ffn_dim": cfg["decoder_ffn_dim"],
        "num_mel_bins": cfg["num_mel_bins"],
        "max_source_positions": S,
        "max_target_positions": cfg["max_target_positions"],
        "vocab_size": cfg["vocab_size"],
        "scale_embedding": False,
        "median_filter_width": 7,
        "bos_token_id": 50257,
        "eos_token_id": 50257,
        "pad_token_id": 50257,
        "decoder_start_token_id": 50258,
        "begin_suppress_tokens": base_gen["begin_suppress_tokens"],
        "suppress_tokens": base_gen["suppress_tokens"],
        "forced_decoder_ids": None,
        "use_cache": True,
        "torch_dtype": "float32",
        "transformers_version": "4.38.2",
    }
    gen = dict(base_gen)
    gen["alignment_heads"] = alignment_heads
    gen["max_length"] = 448
    if extra_gen:
        gen.update(extra_gen)
    pre = dict(base_pre)
    pre.update({"chunk_length": chunk_length, "n_samples": chunk_length * 16000, "nb_max_frames": chunk_length * 100,
                "feature_size": cfg["num_mel_bins"]})
    os.makedirs(out, exist_ok=True)
    for name, obj in (("config.json", config), ("generation_config.json", gen), ("preprocessor_config.json", pre)):
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=2, ensure_ascii=False)
            f.write("\n")


def export_model(model, cfg, out, quantize_too=True, keep_fp32=True):
    import tempfile
    L = cfg["decoder_layers"]
    H = cfg["decoder_attention_heads"]
    dh = cfg["d_model"] // H
    os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        enc_path, np_path, wp_path = export_torch(model, cfg, tmp)
        enc = onnx.load(enc_path)
        nopast = onnx.load(np_path)
        withpast = onnx.load(wp_path)
    merged = merge_decoders(nopast, withpast, L, H, dh)
    shapes = {"logits": ["batch_size", "decoder_sequence_length", cfg["vocab_size"]]}
    for n in kv_names(L, "present"):
        shapes[n] = ["batch_size", H, "past_decoder_sequence_length + 1" if ".decoder." in n else "encoder_sequence_length_out", dh]
    for i in range(L):
        shapes["cross_attentions.%d" % i] = ["batch_size", H, "decoder_sequence_length", "encoder_sequence_length_out"]
    set_output_shapes(merged, shapes)
    # past inputs: heads and head size static, batch named batch_size
    for vi in merged.graph.input:
        if vi.name.startswith("past_key_values"):
            t = vi.type.tensor_type
            t.ClearField("shape")
            for d in ["batch_size", H, "past_decoder_sequence_length" if ".decoder." in vi.name else "encoder_sequence_length_out", dh]:
                dim = t.shape.dim.add()
                if isinstance(d, int):
                    dim.dim_value = d
                else:
                    dim.dim_param = d
    onnx.checker.check_model(merged)
    files = {}
    if keep_fp32:
        files["encoder_model.onnx"] = enc
        files["decoder_model_merged.onnx"] = merged
    if quantize_too:
        files["encoder_model_quantized.onnx"] = quantize(enc)
        files["decoder_model_merged_quantized.onnx"] = quantize(merged)
    for name, m in files.items():
        onnx.save(m, os.path.join(out, "onnx", name))
    return files


def default_alignment_heads(cfg):
    L, H = cfg["decoder_layers"], cfg["decoder_attention_heads"]
    return [[l, h] for l in range(L // 2, L) for h in range(H)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--alignment-heads", default=None, help="JSON list of [layer, head]")
    ap.add_argument("--no-quantize", action="store_true")
    args = ap.parse_args()
    model, ck = load_trained(args.ckpt)
    cfg = dict(ck["config"])
    tokdir = os.path.join(shared_dir(), "models", "whisper-tokenizer")
    with open(os.path.join(tokdir, "generation_config.json"), encoding="utf-8") as f:
        gen = json.load(f)
    with open(os.path.join(tokdir, "preprocessor_config.json"), encoding="utf-8") as f:
        pre = json.load(f)
    n_ts = cfg["max_source_positions"] * 2 // 100 * 50  # timestamp steps inside the window
    ts0 = 50364
    extra = {
        # timestamps past the window's end can never be right
        "suppress_tokens": sorted(set(gen["suppress_tokens"]) | set(range(ts0 + n_ts + 1, ts0 + 1501))),
        # an empty transcript must be possible (a window without speech)
        "begin_suppress_tokens": [220],
        # utterances may start anywhere in the window
        "max_initial_timestamp_index": n_ts,
        "prev_sot_token_id": 50361,
    }
    heads = json.loads(args.alignment_heads) if args.alignment_heads else default_alignment_heads(cfg)
    cfg["name"] = "murmur-test/whisper-synth"
    write_configs(cfg, args.out, gen, pre, cfg["max_source_positions"] * 2 // 100, heads, extra)
    export_model(model, cfg, args.out, quantize_too=not args.no_quantize)
    for f in sorted(os.listdir(os.path.join(args.out, "onnx"))):
        print("%-40s %6.1f MB" % (f, os.path.getsize(os.path.join(args.out, "onnx", f)) / 1e6))


if __name__ == "__main__":
    main()
