"""Exports the translation test model to the layout transformers.js loads as M2M100:

  /usr/bin/python3 tools/models/translation/export_mt.py --ckpt .cache/mt/run1/ckpt.pt --out tools/models/m2m100-synth

Writes config.json, generation_config.json, the tokenizer files, onnx/encoder_model.onnx
(input_ids, attention_mask -> last_hidden_state) and onnx/decoder_model_merged.onnx (a no-past
and a with-past decoder joined by an If on use_cache_branch, weights shared; inputs input_ids,
encoder_attention_mask, encoder_hidden_states, past_key_values.*, use_cache_branch; outputs
logits, present.*), and their 8-bit variants onnx/*_quantized.onnx (the browser's default).
"""
import argparse
import json
import os
import sys
import tempfile

import onnx
import torch
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import mt_corpus as C  # noqa: E402
from export import _hoist, _rename_graph, kv_names, quantize, set_output_shapes  # noqa: E402
from mt_torch import M2M  # noqa: E402

OPSET = 14


class Encoder(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask):
        return self.m.encode(input_ids, attention_mask)


class DecoderNoPast(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, encoder_attention_mask, encoder_hidden_states):
        m = self.m
        t = input_ids.shape[1]
        x = m.embed_ids(input_ids) + m.pos[2 : 2 + t]
        causal = torch.full((t, t), -1e9).triu(1)
        emask = (1.0 - encoder_attention_mask[:, None, None, :].to(torch.float)) * -1e9
        presents = []
        for layer in m.dec_layers:
            k, v = layer.self_kv(x)
            ck, cv = layer.cross_kv(encoder_hidden_states)
            x = layer(x, k, v, ck, cv, causal, emask)
            presents += [k, v, ck, cv]
        return (m.logits(m.dec_ln(x)), *presents)


class DecoderWithPast(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, encoder_attention_mask, *past):
        m = self.m
        t = input_ids.shape[1]
        past_len = past[0].shape[2]
        x = m.embed_ids(input_ids) + m.pos[2 + past_len : 2 + past_len + t]
        total = past_len + t
        causal = torch.full((t, total), -1e9).triu(1 + past_len)
        emask = (1.0 - encoder_attention_mask[:, None, None, :].to(torch.float)) * -1e9
        presents = []
        for i, layer in enumerate(m.dec_layers):
            pk, pv, ck, cv = past[4 * i : 4 * i + 4]
            k, v = layer.self_kv(x)
            k = torch.cat([pk, k], dim=2)
            v = torch.cat([pv, v], dim=2)
            x = layer(x, k, v, ck, cv, causal, emask)
            presents += [k, v, ck, cv]
        return (m.logits(m.dec_ln(x)), *presents)


def export_parts(model, cfg, tmp):
    L = cfg["decoder_layers"]
    ids = torch.tensor([[cfg["murmur_languages"]["en"], 5, 6, 7, 2]], dtype=torch.long)
    mask = torch.ones_like(ids)
    enc_path = os.path.join(tmp, "encoder.onnx")
    torch.onnx.export(Encoder(model), (ids, mask), enc_path, input_names=["input_ids", "attention_mask"],
                      output_names=["last_hidden_state"], opset_version=OPSET,
                      dynamic_axes={"input_ids": {0: "batch_size", 1: "encoder_sequence_length"},
                                    "attention_mask": {0: "batch_size", 1: "encoder_sequence_length"},
                                    "last_hidden_state": {0: "batch_size", 1: "encoder_sequence_length"}})
    with torch.no_grad():
        enc = model.encode(ids, mask)
    dec_ids = torch.tensor([[2, cfg["murmur_languages"]["fr"]]], dtype=torch.long)
    present = kv_names(L, "present")
    dyn = {"input_ids": {0: "batch_size", 1: "decoder_sequence_length"},
           "encoder_attention_mask": {0: "batch_size", 1: "encoder_sequence_length"},
           "encoder_hidden_states": {0: "batch_size", 1: "encoder_sequence_length"},
           "logits": {0: "batch_size", 1: "decoder_sequence_length"}}
    for n in present:
        dyn[n] = {0: "batch_size", 2: "past_decoder_sequence_length + 1" if ".decoder." in n else "encoder_sequence_length_out"}
    nopast_path = os.path.join(tmp, "nopast.onnx")
    torch.onnx.export(DecoderNoPast(model), (dec_ids, mask, enc), nopast_path,
                      input_names=["input_ids", "encoder_attention_mask", "encoder_hidden_states"],
                      output_names=["logits"] + present, opset_version=OPSET, dynamic_axes=dyn)
    with torch.no_grad():
        outs = DecoderNoPast(model)(dec_ids, mask, enc)
    past = list(outs[1:])
    pastn = kv_names(L, "past_key_values")
    dyn2 = {"input_ids": {0: "batch_size", 1: "decoder_sequence_length"},
            "encoder_attention_mask": {0: "batch_size", 1: "encoder_sequence_length"},
            "logits": {0: "batch_size", 1: "decoder_sequence_length"}}
    for n in pastn:
        dyn2[n] = {0: "batch_size", 2: "past_decoder_sequence_length" if ".decoder." in n else "encoder_sequence_length_out"}
    for n in present:
        dyn2[n] = dyn[n]
    withpast_path = os.path.join(tmp, "withpast.onnx")
    torch.onnx.export(DecoderWithPast(model), (dec_ids[:, -1:], mask, *past), withpast_path,
                      input_names=["input_ids", "encoder_attention_mask"] + pastn, output_names=["logits"] + present,
                      opset_version=OPSET, dynamic_axes=dyn2)
    return onnx.load(enc_path), onnx.load(nopast_path), onnx.load(withpast_path)


def merge(nopast, withpast, L):
    """One graph: If(use_cache_branch) then with-past else no-past (as export.merge_decoders,
    with the encoder's attention mask among the inputs)."""
    pastn = kv_names(L, "past_key_values")
    outer_inputs = ["input_ids", "encoder_attention_mask", "encoder_hidden_states"] + pastn + ["use_cache_branch"]
    a, b = nopast.graph, withpast.graph
    inputs_by_name = {}
    for vi in list(a.input) + list(b.input):
        inputs_by_name.setdefault(vi.name, vi)
    _rename_graph(a, outer_inputs, "nopast/")
    _rename_graph(b, outer_inputs, "withpast/")
    out_names = [o.name for o in a.output]
    then_g = helper.make_graph(list(b.node), "with_past", [], list(b.output), list(b.initializer))
    else_g = helper.make_graph(list(a.node), "no_past", [], list(a.output), list(a.initializer))
    outer = helper.make_graph([], "decoder_merged", [], [])
    _hoist([then_g, else_g], outer)
    for g in (then_g, else_g):
        for o in g.output:
            o.type.tensor_type.ClearField("shape")
    final_names = [n.split("/", 1)[1] for n in out_names]
    outer.node.append(helper.make_node("If", ["use_cache_branch"], final_names, name="optional_cache",
                                       then_branch=then_g, else_branch=else_g))
    for n in outer_inputs:
        if n == "use_cache_branch":
            outer.input.append(helper.make_tensor_value_info(n, TensorProto.BOOL, [1]))
        else:
            outer.input.append(inputs_by_name[n])
    wp_out = {o.name.split("/", 1)[1]: o for o in b.output}
    for n in final_names:
        outer.output.append(helper.make_tensor_value_info(n, wp_out[n].type.tensor_type.elem_type, None))
    model = helper.make_model(outer, opset_imports=nopast.opset_import, producer_name="murmur-export")
    model.ir_version = nopast.ir_version
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    ck = torch.load(a.ckpt, map_location="cpu")
    cfg = ck["cfg"]
    model = M2M(cfg, drop=0.0)
    model.load_state_dict(ck["model"])
    model.eval()
    L, H, d = cfg["decoder_layers"], cfg["decoder_attention_heads"], cfg["d_model"]
    dh = d // H
    os.makedirs(os.path.join(a.out, "onnx"), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        enc, nopast, withpast = export_parts(model, cfg, tmp)
    merged = merge(nopast, withpast, L)
    shapes = {"logits": ["batch_size", "decoder_sequence_length", cfg["vocab_size"]]}
    for n in kv_names(L, "present"):
        shapes[n] = ["batch_size", H, "past_decoder_sequence_length + 1" if ".decoder." in n else "encoder_sequence_length_out", dh]
    set_output_shapes(merged, shapes)
    for vi in merged.graph.input:
        if vi.name.startswith("past_key_values"):
            t = vi.type.tensor_type
            t.ClearField("shape")
            for dim_v in ["batch_size", H, "past_decoder_sequence_length" if ".decoder." in vi.name else "encoder_sequence_length_out", dh]:
                dim = t.shape.dim.add()
                if isinstance(dim_v, int):
                    dim.dim_value = dim_v
                else:
                    dim.dim_param = dim_v
    onnx.checker.check_model(merged)
    files = {"encoder_model.onnx": enc, "decoder_model_merged.onnx": merged,
             "encoder_model_quantized.onnx": quantize(enc), "decoder_model_merged_quantized.onnx": quantize(merged)}
    for name, m in files.items():
        onnx.save(m, os.path.join(a.out, "onnx", name))
    config = {k: v for k, v in cfg.items() if k != "murmur_languages"}
    config["transformers_version"] = "4.36.0"
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    gen = {"bos_token_id": 0, "decoder_start_token_id": 2, "eos_token_id": 2, "pad_token_id": 1,
           "max_length": 200, "num_beams": 1, "early_stopping": True}
    with open(os.path.join(a.out, "generation_config.json"), "w") as f:
        json.dump(gen, f, indent=2)
    C.write_tokenizer_files(a.out, C.build_vocab(C.read_rows()))
    for name in sorted(os.listdir(os.path.join(a.out, "onnx"))):
        print(name, os.path.getsize(os.path.join(a.out, "onnx", name)))


if __name__ == "__main__":
    main()
