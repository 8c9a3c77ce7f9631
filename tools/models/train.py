"""Train the small Whisper-architecture test model on the synthetic corpus.

  OMP_WAIT_POLICY=PASSIVE nohup /usr/bin/python3 tools/models/train.py --out .cache/train/run1 \
      > .cache/train/run1/log.txt 2>&1 &

Windows are assembled on the fly from the utterance shards in .cache/corpus/train (new shards
are picked up while training runs). The learning-rate schedule follows wall-clock time so that
the run ends, fully annealed, after --minutes. A checkpoint is written every few minutes.
Training starts on single short utterances, then short windows, then full ones (an encoder
started on long mixed windows stays on the CTC plateau for hours here). Training-only extras,
not exported: a CTC head on the encoder (espeak-ng's phonemes, or the spelling) that makes the
encoder learn sounds quickly, and an output softmax restricted to the tokens the corpus can produce; all other
tokens get a large negative output bias in the exported model.
"""
import argparse
import math
import os
import shutil
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))
from whisper_torch import LogMel, Whisper  # noqa: E402
from windows import IGNORE, UtterancePool, build_window  # noqa: E402
from wtok import LANGS, REPO, WhisperTokenizer, shared_dir  # noqa: E402

CONFIG = dict(
    d_model=120,
    encoder_layers=4,
    decoder_layers=3,
    encoder_attention_heads=2,
    decoder_attention_heads=2,
    encoder_ffn_dim=480,
    decoder_ffn_dim=480,
    num_mel_bins=80,
    max_source_positions=500,
    max_target_positions=448,
    vocab_size=51865,
)


def vocab_words():
    out = {}
    for l in LANGS:
        with open(os.path.join(shared_dir(), "test-corpus", "vocabulary.%s.txt" % l), encoding="utf-8") as f:
            out[l] = f.read().split()
    return out


def token_subset(tok):
    """Every token the corpus' targets and prompts can contain."""
    ids = set()
    for words in vocab_words().values():
        for w in words:
            ids.update(tok.encode(" " + w))
            ids.update(tok.encode(w))
    ids.update([tok.eot, tok.sot, tok.transcribe, tok.translate, tok.prev, tok.nocaptions, tok.notimestamps])
    ids.update(tok.lang.values())
    ids.update(range(tok.ts0, tok.ts0 + 501))
    return sorted(ids)


def char_table():
    chars = set(" ")
    for words in vocab_words().values():
        for w in words:
            chars.update(w)
    return {c: i + 1 for i, c in enumerate(sorted(chars))}


# espeak-ng's stress, syllable and pause marks are not sounds of their own
PHONEME_MARKS = set("',_|!#-;")


def phoneme_table(corpus):
    import glob
    import json
    chars = set(" ")
    for path in glob.glob(os.path.join(corpus, "train", "*.phonemes.json")):
        for p in json.load(open(path, encoding="utf-8")):
            chars.update(c for c in p if c not in PHONEME_MARKS)
    return {c: i + 1 for i, c in enumerate(sorted(chars))}


class Windows(torch.utils.data.IterableDataset):
    """Batches of windows. With window_s < 10 the speech lies in the first window_s seconds and
    the features are cut to that length (a cheaper first phase of training); the features are
    still those of the full padded window."""

    def __init__(self, corpus, batch, seed, window_s=10.0, ctc_target="chars", kind=None, warp=0.0, lang_p=None,
                 context_share=0.0, mask_share=0.0):
        self.corpus, self.batch, self.seed, self.window_s = corpus, batch, seed, window_s
        self.mask_share = mask_share
        self.warp, self.lang_p = warp, lang_p
        self.context_share = context_share
        self.ctc_target, self.kind = ctc_target, kind

    @staticmethod
    def earlier_text(rng, pool):
        count = int(rng.integers(1, 17))
        return lambda lang: " ".join(pool.pick_text(rng, lang) for _ in range(count))

    def __iter__(self):
        torch.set_num_threads(1)
        tok = WhisperTokenizer()
        pool = UtterancePool(self.corpus, "train", warp=self.warp)
        rng = np.random.default_rng(self.seed)
        mel = LogMel()
        chars = char_table() if self.ctc_target == "chars" else phoneme_table(self.corpus)
        n = 0
        while True:
            if n % 100 == 0:
                pool.reload()
            n += 1
            items = []
            # what a long recording gives the decoder: the text of the speech before the window,
            # in its language, from a few words up to the 223-token cap. A whole batch is
            # prompted with as many utterances each, or none is: a batch is as long as its
            # longest sequence, and one long prompt among short windows made every step slow.
            earlier = self.earlier_text(rng, pool) if rng.random() < self.context_share else None
            for _ in range(self.batch):
                prompt = earlier
                if earlier is None and rng.random() < 0.15:
                    # an unrelated prompt: one utterance of any language
                    _, m = pool.pick(rng, LANGS[rng.integers(4)])
                    prompt = m["text"]
                w = build_window(rng, pool, tok, LANGS, kind=self.kind, prompt=prompt, window_s=self.window_s,
                                 lang_p=self.lang_p)
                items.append(w)
            audio = torch.from_numpy(np.stack([w["audio"] for w in items]))
            feats = mel(audio)[:, :, : int(round(self.window_s * 100))]
            for i in range(len(items)):
                if rng.random() < self.mask_share:
                    mask_features(rng, feats[i])
            T = max(len(w["inputs"]) for w in items)
            inp = torch.full((len(items), T), tok.eot, dtype=torch.long)
            tgt = torch.full((len(items), T), IGNORE, dtype=torch.long)
            for i, w in enumerate(items):
                inp[i, : len(w["inputs"])] = torch.tensor(w["inputs"])
                tgt[i, : len(w["targets"])] = torch.tensor(w["targets"])
            ctc = [torch.tensor([chars[c] for c in w[self.ctc_target] if c in chars], dtype=torch.long) for w in items]
            yield feats, inp, tgt, ctc


def mask_features(rng, feats, bands=2, band_max=10, spans=2, span_max=8):
    """Hides a few bands of mel channels and a few short spans of frames (SpecAugment), in place.
    A voice unlike any in training moves its energy to other channels (formants, pitch): a
    model that must hear words with some channels missing leans less on any one of them. The
    spans stay under 0.1 s so that no word is hidden whole while its text stays in the target."""
    fill = float(feats.mean())
    n_mels, n_frames = feats.shape
    for _ in range(bands):
        width = int(rng.integers(0, band_max + 1))
        first = int(rng.integers(0, n_mels - width + 1))
        feats[first : first + width, :] = fill
    for _ in range(spans):
        width = int(rng.integers(0, span_max + 1))
        first = int(rng.integers(0, n_frames - width + 1))
        feats[:, first : first + width] = fill


def collate(x):
    return x[0]


def extend_positions(pos, first, period=32):
    """Positions from `first` on start as periodic copies of the `period` trained ones before it.
    Targets that follow a long prompt sit at positions that short training sequences never
    reached; their random initial embeddings are far smaller than trained ones and put every
    later token out of distribution (a 200-token prompt made the model drop or garble most
    words). Copies are in distribution from the first step, and training then sets them apart."""
    for p in range(first, pos.shape[0]):
        pos[p] = pos[first - period + (p - first) % period]


def ctc_loss(ctc_head, enc, ctc):
    """The encoder's CTC loss per target symbol, averaged over the batch."""
    lp = F.log_softmax(ctc_head(enc), dim=-1).transpose(0, 1)
    tl = torch.tensor([len(c) for c in ctc])
    flat = torch.cat(ctc) if sum(len(c) for c in ctc) else torch.zeros(0, dtype=torch.long)
    loss = F.ctc_loss(lp, flat, torch.full((len(ctc),), lp.shape[0], dtype=torch.long), tl,
                      reduction="none", zero_infinity=True)
    return (loss / tl.clamp(min=1)).mean()


def fit_ctc_head(model, ctc_head, loader, steps, lr=2e-3):
    """A new CTC head on a trained encoder learns alone first: its gradients would otherwise swamp
    the encoder's (norm 500 against 1 at the start) and undo what the encoder has learned."""
    opt = torch.optim.Adam(ctc_head.parameters(), lr=lr)
    model.eval()
    for i in range(steps):
        feats, _, _, ctc = next(loader)
        with torch.no_grad():
            enc = model.encode(feats)
        loss = ctc_loss(ctc_head, enc, ctc)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if (i + 1) % 50 == 0:
            print("ctc head step %d  ctc %.3f" % (i + 1, loss.item()), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=90)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--corpus", default=os.path.join(REPO, ".cache", "corpus"))
    ap.add_argument("--out", default=os.path.join(REPO, ".cache", "train", "run1"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--ckpt-minutes", type=float, default=5)
    ap.add_argument("--keep-checkpoints", action="store_true",
                    help="keep every periodic checkpoint as ckpt-<step>.pt (to average the last few)")
    ap.add_argument("--single-window", type=float, default=2.5,
                    help="seconds of the first phase's windows: one short clean utterance each")
    ap.add_argument("--single-batch", type=int, default=16)
    ap.add_argument("--single-until", type=float, default=0.25, help="fraction of the run spent on single utterances")
    ap.add_argument("--short-window", type=float, default=5.0, help="seconds of speech in the second phase")
    ap.add_argument("--short-batch", type=int, default=8)
    ap.add_argument("--short-until", type=float, default=0.5, help="fraction of the run until full windows")
    ap.add_argument("--ctc-weight", type=float, default=1.0, help="weight of the encoder's CTC loss on short windows")
    ap.add_argument("--ctc-weight-full", type=float, default=0.3, help="weight of the encoder's CTC loss on full windows")
    ap.add_argument("--ctc-target", choices=["chars", "phonemes"], default="phonemes",
                    help="the encoder's CTC targets: spelling, or espeak-ng's phonemes (corpus/phonemes.py)")
    ap.add_argument("--warp", type=float, default=0.0,
                    help="largest relative rate change of training utterances (pitch and formants together)")
    ap.add_argument("--ctc-head-steps", type=int, default=300,
                    help="with --init from a checkpoint without a CTC head of this size: batches on which the new"
                         " head learns alone, on the encoder's output, before training starts")
    ap.add_argument("--init", help="checkpoint whose weights start the run (optimizer and schedule start afresh)")
    ap.add_argument("--bf16", action="store_true",
                    help="the encoder's and decoder's products in bfloat16 (weights, optimizer, output layer"
                         " and losses stay float32): 2-3x faster on a CPU with AVX512-BF16, with --threads 2")
    ap.add_argument("--threads", type=int, default=1,
                    help="compute threads; two threads are no faster than one at these matrix sizes, and the"
                         " window builder needs the other core")
    ap.add_argument("--context-share", type=float, default=0.0,
                    help="share of batches prompted with earlier text of their language (1-16 utterances), as"
                         " the decoder is conditioned on a long recording's earlier text")
    ap.add_argument("--pos-lr-mult", type=float, default=1.0,
                    help="learning-rate multiplier of the decoder's learned positions")
    ap.add_argument("--extend-positions", type=int, default=0,
                    help="with --init: decoder positions from this one on, never reached by the earlier"
                         " training, start as copies of the trained ones before them (see extend_positions)")
    ap.add_argument("--decoder-only", action="store_true",
                    help="train the decoder alone (token table, positions, layers) on a trained, frozen encoder"
                         " (no CTC loss): what the encoder hears cannot get worse while the decoder learns to read"
                         " long prompts")
    ap.add_argument("--keep-positions", type=int, default=0,
                    help="the decoder's first positions, which every window reads, stay as they are (with"
                         " --pos-lr-mult the others can then learn fast without moving them)")
    ap.add_argument("--mask-share", type=float, default=0.0,
                    help="share of windows whose features lose a few mel bands and short spans of frames"
                         " (see mask_features)")
    ap.add_argument("--lang-share", default=None,
                    help="share of windows per language, e.g. en=0.33,fr=0.33,de=0.12,es=0.22 (default: even);"
                         " the languages a model hears worst can be given more")
    args = ap.parse_args()
    lang_p = None
    if args.lang_share:
        share = {k: float(v) for k, v in (kv.split("=") for kv in args.lang_share.split(","))}
        if sorted(share) != sorted(LANGS):
            raise SystemExit("--lang-share names every language once: %s" % ", ".join(LANGS))
        lang_p = [share[lang] / sum(share.values()) for lang in LANGS]
    torch.set_num_threads(args.threads)
    torch.set_flush_denormal(True)
    # bfloat16 products go through oneDNN; float32 ones through BLAS, as they always have
    torch.backends.mkldnn.enabled = args.bf16
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)

    tok = WhisperTokenizer()
    subset = token_subset(tok)
    remap = torch.full((CONFIG["vocab_size"],), IGNORE, dtype=torch.long)
    remap[torch.tensor(subset)] = torch.arange(len(subset))
    subset_t = torch.tensor(subset)
    chars = char_table() if args.ctc_target == "chars" else phoneme_table(args.corpus)

    ckpt_path = os.path.join(args.out, "ckpt.pt")
    # a run started from a checkpoint takes its architecture (grow.py makes larger ones)
    start = args.init if not (args.resume and os.path.exists(ckpt_path)) else ckpt_path
    config = dict(torch.load(start, map_location="cpu")["config"]) if start else dict(CONFIG)
    if config.get("token_subset") is not None and list(config["token_subset"]) != subset:
        raise SystemExit("the checkpoint's token table was made for another vocabulary")
    model = Whisper(config)
    ctc_head = nn.Linear(config["d_model"], len(chars) + 1)
    if args.decoder_only:
        decoder = [model.embed, model.dec_layers, model.dec_ln]
        params = [p for m in decoder for p in m.parameters()] + [model.dec_pos]
        model.requires_grad_(False)
        ctc_head.requires_grad_(False)
        for p in params:
            p.requires_grad_(True)
    else:
        params = list(model.parameters()) + list(ctc_head.parameters())
    own_rate = args.pos_lr_mult != 1.0 or args.keep_positions > 0
    decay = [p for p in params if p.dim() >= 2 and not (own_rate and p is model.dec_pos)]
    no_decay = [p for p in params if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}]
    if own_rate:
        # the decoder's learned positions past what earlier runs' short sequences reached start
        # untrained and must catch up within a run; kept ones must not shrink by weight decay
        groups.append({"params": [model.dec_pos], "weight_decay": 0.0 if args.keep_positions else 0.01,
                       "lr_mult": args.pos_lr_mult})
    if args.keep_positions:
        kept = args.keep_positions
        model.dec_pos.register_hook(lambda g: torch.cat([torch.zeros_like(g[:kept]), g[kept:]]))
    opt = torch.optim.AdamW(groups, lr=args.lr, betas=(0.9, 0.98), eps=1e-8)
    step = 0
    spent = 0.0
    head_steps = 0
    if args.resume and os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path)
        model.load_state_dict(ck["model"])
        ctc_head.load_state_dict(ck["ctc_head"])
        opt.load_state_dict(ck["opt"])
        step, spent = ck["step"], ck["spent"]
    elif args.init:
        ck = torch.load(args.init)
        model.load_state_dict(ck["model"])
        # a checkpoint rebuilt from an export (from_onnx.py) has no CTC head: a new one starts
        if "weight" in ck["ctc_head"] and ck["ctc_head"]["weight"].shape == ctc_head.weight.shape:
            ctc_head.load_state_dict(ck["ctc_head"])
        elif not args.decoder_only and max(args.ctc_weight, args.ctc_weight_full) > 0:
            head_steps = args.ctc_head_steps
        if args.extend_positions:
            extend_positions(model.dec_pos.data, args.extend_positions)
    print("params: %.2fM (embedding %.2fM), subset %d tokens" % (
        sum(p.numel() for p in model.parameters()) / 1e6, model.embed.weight.numel() / 1e6, len(subset)), flush=True)

    def phase_at(frac):
        if frac < args.single_until:
            return "single"
        return "short" if frac < args.short_until and args.short_window < 10 else "full"

    def make_loader(phase):
        batch, window, kind = dict(single=(args.single_batch, args.single_window, "single"),
                                   short=(args.short_batch, args.short_window, None),
                                   full=(args.batch, 10.0, None))[phase]
        ds = Windows(args.corpus, batch, args.seed + step, window, args.ctc_target, kind, args.warp, lang_p,
                     args.context_share, args.mask_share)
        return torch.utils.data.DataLoader(ds, batch_size=1, num_workers=1, collate_fn=collate, prefetch_factor=4)

    budget = args.minutes * 60
    mpath0 = os.path.join(args.out, "minutes.txt")
    if os.path.exists(mpath0):
        budget = float(open(mpath0).read()) * 60
    phase = phase_at(spent / budget)
    loader = iter(make_loader(phase))
    t0 = time.time() - spent
    last_ck = time.time()
    avg = None

    def save():
        if not model.compact:
            bias = torch.full((config["vocab_size"],), -100.0)
            bias[subset_t] = 0.0
            model.logit_bias.copy_(bias)
        tmp = ckpt_path + ".tmp"
        torch.save(dict(model=model.state_dict(), ctc_head=ctc_head.state_dict(), opt=opt.state_dict(), step=step,
                        spent=time.time() - t0, config=config, subset=subset), tmp)
        os.replace(tmp, ckpt_path)

    if head_steps:
        fit_ctc_head(model, ctc_head, loader, head_steps)
    model.train()
    while True:
        feats, inp, tgt, ctc = next(loader)
        elapsed = time.time() - t0
        if phase_at(elapsed / budget) != phase:
            phase = phase_at(elapsed / budget)
            del loader
            loader = iter(make_loader(phase))
            print("%s windows from step %d" % (phase, step), flush=True)
        # the run's length can be changed while it runs: write minutes to <out>/minutes.txt
        mpath = os.path.join(args.out, "minutes.txt")
        if step % 10 == 0 and os.path.exists(mpath):
            try:
                budget = float(open(mpath).read()) * 60
            except ValueError:
                pass
        frac = min(1.0, elapsed / budget)
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * (0.03 + 0.97 * 0.5 * (1 + math.cos(math.pi * frac)))
        for g in opt.param_groups:
            g["lr"] = lr * g.get("lr_mult", 1.0)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
            with torch.set_grad_enabled(not args.decoder_only):
                enc = model.encode(feats)
            h, _ = model.decode_hidden(inp, enc)
        enc, h = enc.float(), h.float()
        # the softmax runs over the tokens the corpus can produce (a compact table holds only those)
        logits = F.linear(h, model.embed.weight[:-1] if model.compact else model.embed.weight[subset_t])
        loss_ce = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), remap[tgt.clamp(min=0)].masked_fill(tgt < 0, IGNORE).reshape(-1),
                                  ignore_index=IGNORE)
        ctc_weight = 0.0 if args.decoder_only else args.ctc_weight_full if phase == "full" else args.ctc_weight
        loss_ctc = ctc_loss(ctc_head, enc, ctc) if ctc_weight > 0 else torch.zeros(())
        loss = loss_ce + ctc_weight * loss_ctc
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(params, 1.0)
        if torch.isfinite(gn) and gn < 1e6:
            opt.step()
        else:
            print("skipped step with gradient norm %s" % gn.item(), flush=True)
        step += 1
        v = (loss_ce.item(), loss_ctc.item())
        avg = v if avg is None else tuple(0.95 * a + 0.05 * b for a, b in zip(avg, v))
        if step % 10 == 0:
            print("step %d  t %.1fm  lr %.2e  ce %.3f  ctc %.3f  gn %.2f  %.2fs/step" % (
                step, elapsed / 60, lr, avg[0], avg[1], gn, elapsed / max(1, step)), flush=True)
        if time.time() - last_ck > args.ckpt_minutes * 60:
            save()
            if args.keep_checkpoints:
                shutil.copyfile(ckpt_path, os.path.join(args.out, "ckpt-%d.pt" % step))
            last_ck = time.time()
            print("checkpoint at step %d" % step, flush=True)
        if frac >= 1.0:
            break
    save()
    print("done: %d steps in %.1f minutes" % (step, (time.time() - t0) / 60), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
