"""Measures the test model on held-out speech through transformers.js' own pipeline.

The held-out set is made from the eval split of the corpus (tools/models/corpus/synth.py
--split eval): sentences that are not in the training text, spoken with voice variants, speeds
and pitches that training never used. It holds
  - per language, windows of 1-3 utterances separated by pauses (WER, segment and word timing),
  - every held-out utterance alone in a window (language identification),
  - silence-only windows (digital silence and noise: no words expected).

  /usr/bin/python3 tools/models/eval.py --models .models --model murmur-test/whisper-synth \
      --dtype fp32 --tjs-dir <folder whose node_modules has @huggingface/transformers>

With --engine, the same ASR windows go through Murmur's own engine instead (manual language,
its VAD and decoding loop; the model loads as the CLI loads it). With --engine --long, each
language's windows are joined into one recording: later windows are decoded after the earlier
text, as in any recording longer than a window.

Prints a markdown table and writes .cache/eval/<dtype or engine>/results.json.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
import wave

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))
from windows import N, SR, UtterancePool, build_window  # noqa: E402
from wtok import LANGS, REPO, WhisperTokenizer  # noqa: E402


def write_wav(path, audio):
    a = np.clip(audio, -1, 1)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes((a * 32767).astype("<i2").tobytes())


def normalize(text):
    text = unicodedata.normalize("NFC", text.lower())
    text = re.sub(r"[^\w\s]", "", text)
    return text.split()


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = d[j]
            d[j] = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev = cur
    return d[len(b)]


def build_set(folder, per_lang, n_silence, seed):
    tok = WhisperTokenizer()
    pool = UtterancePool(os.path.join(REPO, ".cache", "corpus"), "eval")
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    asr, langid, refs = [], [], {}
    for lang in LANGS:
        for i in range(per_lang):
            w = build_window(rng, pool, tok, [lang], kind="speech", mode="ts", noise=False)
            segs = [s for s in w["segments"] if not s[4]]
            if not segs:
                continue
            # the eval audio holds complete utterances only
            audio = np.zeros(N, dtype=np.float32)
            audio[: int(segs[-1][1] * SR)] = w["audio"][: int(segs[-1][1] * SR)]
            wid = "%s-%03d" % (lang, i)
            path = os.path.join(folder, wid + ".wav")
            write_wav(path, audio)
            asr.append(dict(id=wid, wav=path, language=lang))
            refs[wid] = dict(lang=lang, segments=[dict(start=s, end=e, text=t) for s, e, t, l, c in segs])
    for i in range(n_silence):
        w = build_window(rng, pool, tok, LANGS, kind="silence", mode="ts", noise=i % 2 == 1)
        wid = "silence-%02d" % i
        path = os.path.join(folder, wid + ".wav")
        write_wav(path, w["audio"])
        lang = LANGS[i % 4]
        asr.append(dict(id=wid, wav=path, language=lang))
        refs[wid] = dict(lang=lang, segments=[])
    for k, (a, m) in enumerate(pool.items):
        audio = np.zeros(N, dtype=np.float32)
        off = int(rng.uniform(0.0, 1.0) * SR)
        a = a.astype(np.float32) / 32768.0
        n = min(len(a), N - off)
        audio[off : off + n] = a[:n]
        wid = "utt-%04d" % k
        path = os.path.join(folder, wid + ".wav")
        write_wav(path, audio)
        langid.append(dict(id=wid, wav=path))
        refs[wid] = dict(lang=m["lang"], text=m["text"], voice=m["voice"], variant=m["variant"], speed=m["speed"],
                         pitch=m["pitch"])
    with open(os.path.join(folder, "list.json"), "w") as f:
        json.dump(dict(asr=asr, langid=langid), f)
    with open(os.path.join(folder, "refs.json"), "w") as f:
        json.dump(refs, f, ensure_ascii=False)


def metrics(refs, results):
    rows = {}
    seg_err, words_in, words_all, silence_words, silence_n = [], 0, 0, 0, 0
    langid = {l: [0, 0] for l in LANGS}
    per_lang = {l: dict(err=0, n=0, seg=[], seg_n=0, seg_ref=0) for l in LANGS}
    timing = []
    for r in results:
        ref = refs[r["id"]]
        if r["id"].startswith("utt-"):
            langid[ref["lang"]][0] += r["lang"] == ref["lang"]
            langid[ref["lang"]][1] += 1
            continue
        if r["id"].startswith("silence"):
            silence_n += 1
            for key in ("text", "segments", "words"):
                out = r[key]
                silence_words += len(normalize(out.get("text", "x")))
            continue
        p = per_lang[ref["lang"]]
        hyp = normalize(r["text"].get("text", ""))
        truth = normalize(" ".join(s["text"] for s in ref["segments"]))
        p["err"] += edit_distance(truth, hyp)
        p["n"] += len(truth)
        timing.append(r["text_ms"])
        chunks = r["segments"].get("chunks", [])
        p["seg_ref"] += len(ref["segments"])
        if len(chunks) == len(ref["segments"]):
            p["seg_n"] += len(chunks)
            for c, s in zip(chunks, ref["segments"]):
                ts = c["timestamp"]
                if ts[0] is not None:
                    p["seg"].append(abs(ts[0] - s["start"]))
                if ts[1] is not None:
                    p["seg"].append(abs(ts[1] - s["end"]))
        for wd in r["words"].get("chunks", []):
            a, b = wd["timestamp"]
            if a is None or b is None:
                continue
            words_all += 1
            words_in += any(a >= s["start"] - 0.1 and b <= s["end"] + 0.1 for s in ref["segments"])
    table = []
    for l in LANGS:
        p = per_lang[l]
        seg = np.array(p["seg"]) if p["seg"] else np.array([np.nan])
        table.append(dict(
            lang=l,
            words=p["n"],
            wer=p["err"] / max(1, p["n"]),
            seg_matched="%d/%d" % (p["seg_n"], p["seg_ref"]),
            seg_mean=float(np.nanmean(seg)),
            seg_p95=float(np.nanpercentile(seg, 95)),
            seg_within=float(np.mean(seg <= 0.3)),
            langid=langid[l][0] / max(1, langid[l][1]),
            langid_n=langid[l][1],
        ))
    return dict(table=table, words_in_segments=words_in / max(1, words_all), words_total=words_all,
                silence_words=silence_words, silence_windows=silence_n,
                ms_per_window_text=float(np.mean(timing)) if timing else None)


def print_table(m, dtype):
    print("| language | words | WER | segments matched | segment bound error mean / p95 (s) | bounds within 0.3 s | language ID |")
    print("|---|---|---|---|---|---|---|")
    for r in m["table"]:
        print("| %s (%s) | %d | %.1f%% | %s | %.3f / %.3f | %.1f%% | %.1f%% of %d |" % (
            r["lang"], dtype, r["words"], 100 * r["wer"], r["seg_matched"], r["seg_mean"], r["seg_p95"],
            100 * r["seg_within"], 100 * r["langid"], r["langid_n"]))
    print()
    print("words with timestamps inside a true segment (+-0.1 s): %.1f%% of %d" % (100 * m["words_in_segments"], m["words_total"]))
    print("silence-only windows: %d words in %d windows (3 modes each)" % (m["silence_words"], m["silence_windows"]))
    print("mean pipeline time per window (text mode): %.0f ms" % m["ms_per_window_text"])


def read_wav(path):
    with wave.open(path, "rb") as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32767


def run_engine(args, listing, out):
    """Murmur's engine (verify/engine.ts) on every ASR item of `listing`, results to `out`."""
    subprocess.run(["npx", "tsx", os.path.join(HERE, "verify", "engine.ts"), os.path.abspath(args.models),
                    args.model, listing, out], check=True, cwd=REPO)


def run_long(args, folder, refs):
    """WER of the engine on one long recording per language: the language's windows in order."""
    items, truth = [], {}
    for lang in LANGS:
        ids = sorted(k for k, r in refs.items() if r["lang"] == lang and re.match(r"^[a-z]{2}-\d+$", k))
        audio = np.concatenate([read_wav(os.path.join(folder, k + ".wav")) for k in ids])
        path = os.path.join(folder, "long-%s.wav" % lang)
        write_wav(path, audio)
        items.append(dict(id="long-" + lang, wav=path, language=lang))
        truth[lang] = normalize(" ".join(s["text"] for k in ids for s in refs[k]["segments"]))
    out_dir = os.path.join(REPO, ".cache", "eval", "engine-long")
    os.makedirs(out_dir, exist_ok=True)
    listing = os.path.join(out_dir, "list.json")
    with open(listing, "w") as f:
        json.dump(dict(asr=items), f)
    out = os.path.join(out_dir, "out.jsonl")
    run_engine(args, listing, out)
    print("| language | words | WER (engine, one long recording) | seconds of audio | time per audio second |")
    print("|---|---|---|---|---|")
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            lang = r["id"][len("long-"):]
            hyp = normalize(r["text"]["text"])
            seconds = len(read_wav(os.path.join(folder, r["id"] + ".wav"))) / SR
            print("| %s | %d | %.1f%% | %.0f | %.0f ms |" % (
                lang, len(truth[lang]), 100 * edit_distance(truth[lang], hyp) / len(truth[lang]), seconds,
                r["text_ms"] / seconds))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=os.path.join(REPO, ".models"))
    ap.add_argument("--model", default="murmur-test/whisper-synth")
    ap.add_argument("--dtype", default="fp32")
    ap.add_argument("--tjs-dir", default=REPO, help="folder whose node_modules holds @huggingface/transformers")
    ap.add_argument("--per-lang", type=int, default=40)
    ap.add_argument("--silence", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--engine", action="store_true",
                    help="run Murmur's own engine (manual language) instead of transformers.js' pipeline; "
                         "language ID is not measured")
    ap.add_argument("--long", action="store_true",
                    help="with --engine: each language's windows joined into one recording of about 400 s, so"
                         " that the decoder is conditioned on the earlier text as in any long recording")
    args = ap.parse_args()
    folder = os.path.join(REPO, ".cache", "eval", "set")
    if args.rebuild or not os.path.exists(os.path.join(folder, "refs.json")):
        build_set(folder, args.per_lang, args.silence, args.seed)
    with open(os.path.join(folder, "refs.json")) as f:
        refs = json.load(f)
    if args.engine and args.long:
        run_long(args, folder, refs)
        return
    out_dir = os.path.join(REPO, ".cache", "eval", "engine" if args.engine else args.dtype)
    os.makedirs(out_dir, exist_ok=True)
    if args.engine:
        out = os.path.join(out_dir, "out.jsonl")
        run_engine(args, os.path.join(folder, "list.json"), out)
        with open(out) as f:
            results = [json.loads(l) for l in f]
        m = metrics(refs, results)
        with open(os.path.join(out_dir, "results.json"), "w") as f:
            json.dump(m, f, indent=1)
        print_table(m, "engine")
        return
    script = os.path.join(HERE, "verify", "transcribe.mjs")
    if os.path.abspath(args.tjs_dir) != REPO:
        dst = os.path.join(args.tjs_dir, "murmur-transcribe.mjs")
        shutil.copy(script, dst)
        script = dst
    out = os.path.join(out_dir, "out.jsonl")
    subprocess.run(["node", script, os.path.abspath(args.models), args.model, args.dtype,
                    os.path.join(folder, "list.json"), out], check=True)
    with open(out) as f:
        results = [json.loads(l) for l in f]
    m = metrics(refs, results)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(m, f, indent=1)
    print_table(m, args.dtype)


if __name__ == "__main__":
    main()
