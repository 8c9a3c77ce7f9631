"""Make a larger model that computes what a trained one computes, to train on from there.

  /usr/bin/python3 tools/models/grow.py --ckpt .cache/train/runI/ckpt.pt --out .cache/train/wide.pt
  /usr/bin/python3 tools/models/grow.py --ckpt A.pt --out deep.pt --encoder-after 1,3 --decoder-after 2

Wider (the default): every width doubles (model, heads, feed-forward) by tiling: each activation becomes [x, x].
Weights that read a tiled input are halved; the final decoder norm is halved so that the tied
token table, tiled too, gives the same logits. Layer norms of [x, x] equal [norm(x), norm(x)],
and duplicated heads attend as the originals did. A little noise then lets the copies part.
The token table keeps only the rows of the tokens the corpus can produce (compact table).

Deeper (--encoder-after, --decoder-after): a new layer follows each named layer, a copy of it
whose output projections (attention out, second feed-forward) are zero, so that the block adds
nothing yet and the model computes what it did. The copied projections give those zeroed
weights useful gradients from the first step.
"""
import argparse
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from whisper_torch import Whisper  # noqa: E402


def tile(name, w):
    """The tiled counterpart of parameter `name` with value w."""
    if name == "dec_ln.weight" or name == "dec_ln.bias":
        return w.repeat(2) / 2
    if w.dim() == 1:
        return w.repeat(2)
    if name.startswith("conv1."):
        return w.repeat(2, 1, 1)
    if name.startswith("conv2."):
        return w.repeat(2, 2, 1) / 2
    if name == "embed.weight" or name == "dec_pos":
        return w.repeat(1, 2)
    # a linear layer reads [x, x] and writes [y, y]
    return w.repeat(2, 2) / 2


def deepen(src, cfg, encoder_after, decoder_after):
    """State and config with a silent copy inserted after each named layer."""
    state = {k: v for k, v in src.items() if not k.startswith(("enc_layers.", "dec_layers."))}
    new = dict(cfg)
    for prefix, key, after, silent in (
        ("enc_layers", "encoder_layers", encoder_after, ("attn.o.", "fc2.")),
        ("dec_layers", "decoder_layers", decoder_after, ("self_attn.o.", "cross_attn.o.", "fc2.")),
    ):
        order = []
        for i in range(cfg[key]):
            order.append((i, False))
            if i in after:
                order.append((i, True))
        for j, (i, copy) in enumerate(order):
            old = "%s.%d." % (prefix, i)
            for name, w in src.items():
                if name.startswith(old):
                    rest = name[len(old):]
                    state["%s.%d.%s" % (prefix, j, rest)] = w.clone() * (0 if copy and rest.startswith(silent) else 1)
        new[key] = len(order)
    if "num_hidden_layers" in new:
        new["num_hidden_layers"] = new["encoder_layers"]
    return state, new


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--encoder-after", default="", help="comma-separated encoder layers each followed by a new one")
    ap.add_argument("--decoder-after", default="", help="comma-separated decoder layers each followed by a new one")
    ap.add_argument("--noise", type=float, default=0.02, help="noise added, relative to each weight's spread")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    ck = torch.load(args.ckpt, map_location="cpu")
    cfg = dict(ck["config"])
    subset = list(ck["subset"])
    src = dict(ck["model"])
    src.pop("logit_bias", None)
    if args.encoder_after or args.decoder_after:
        ints = lambda text: {int(x) for x in text.split(",") if x}  # noqa: E731
        state, new = deepen(src, cfg, ints(args.encoder_after), ints(args.decoder_after))
        model = Whisper(new)
        model.load_state_dict(state)
        torch.save(dict(model=model.state_dict(), ctc_head=ck.get("ctc_head") or {}, config=new, subset=subset,
                        step=0, spent=0.0), args.out)
        print("%d encoder and %d decoder layers, %.2fM parameters" % (
            new["encoder_layers"], new["decoder_layers"], sum(p.numel() for p in model.parameters()) / 1e6))
        return
    if "token_subset" not in cfg:
        # keep the rows of the subset, plus the zero row every other id reads
        e = src["embed.weight"]
        src["embed.weight"] = torch.cat([e[torch.tensor(subset)], torch.zeros(1, e.shape[1])])
    new = dict(cfg)
    for k in ("d_model", "encoder_attention_heads", "decoder_attention_heads", "encoder_ffn_dim", "decoder_ffn_dim"):
        new[k] = cfg[k] * 2
    new["enc_pos_tiles"] = cfg.get("enc_pos_tiles", 1) * 2
    new["token_subset"] = subset
    state = {}
    for name, w in src.items():
        t = tile(name, w)
        if t.dim() >= 2 and name != "embed.weight":
            t = t + torch.randn_like(t) * args.noise * w.std()
        state[name] = t
    model = Whisper(new)
    model.load_state_dict(state)
    ctc = ck["ctc_head"]
    ctc_new = {"weight": ctc["weight"].repeat(1, 2) / 2, "bias": ctc["bias"].clone()}
    torch.save(dict(model=model.state_dict(), ctc_head=ctc_new, config=new, subset=subset, step=0, spent=0.0), args.out)
    print("%.2fM parameters (was %.2fM)" % (sum(p.numel() for p in model.parameters()) / 1e6,
                                            sum(v.numel() for v in src.values()) / 1e6))


if __name__ == "__main__":
    main()
