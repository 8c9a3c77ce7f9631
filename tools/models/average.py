"""Average the weights of checkpoints of one model (the same architecture, one training lineage).

  /usr/bin/python3 tools/models/average.py --out .cache/train/avg.pt A.pt B.pt [C.pt ...]

Checkpoints taken along one run, or a run and its continuation, lie in the same basin of the
loss; their mean usually generalises better than any one of them, at no training cost. The
result carries the first checkpoint's config and token subset and no optimizer state, so it
can be exported (export.py) or start a run (train.py --init), not resumed.
"""
import argparse

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--first-only", default="",
                    help="comma-separated parameters taken from the first checkpoint, not averaged (e.g. dec_pos"
                         " when only the first has trained positions that the others never reached)")
    ap.add_argument("ckpts", nargs="+")
    args = ap.parse_args()
    loaded = [torch.load(p, map_location="cpu") for p in args.ckpts]
    first = loaded[0]
    for path, ck in zip(args.ckpts, loaded):
        if ck["config"] != first["config"] or list(ck["subset"]) != list(first["subset"]):
            raise SystemExit("%s: not the same model as %s" % (path, args.ckpts[0]))

    keep = set(filter(None, args.first_only.split(",")))

    def mean(part):
        out = {}
        for name, w in first[part].items():
            # a checkpoint rebuilt from an export (from_onnx.py) has no CTC head to average
            if torch.is_floating_point(w) and name not in keep and all(name in ck[part] for ck in loaded):
                out[name] = sum(ck[part][name] for ck in loaded) / len(loaded)
            else:
                out[name] = w.clone()
        return out

    torch.save(dict(model=mean("model"), ctc_head=mean("ctc_head"), config=first["config"],
                    subset=first["subset"], step=0, spent=0.0), args.out)
    print("averaged %d checkpoints into %s" % (len(loaded), args.out))


if __name__ == "__main__":
    main()
