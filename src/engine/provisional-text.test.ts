/**
 * The text not posted yet (the window being decoded, before its fallback checks; segments held
 * back until the language is sure) changes nothing of the response: the same segments come
 * with and without a listener for it. It comes before the segments, says on clean speech what
 * the segments after those posted will say, and is withdrawn in the end.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ProvisionalSegment } from '../core/assemble/provisional-segment';
import type { LanguageBehaviour } from '../core/contract/request';
import type { Segment, TranscriptionResponse } from '../core/contract/response';
import { runPipeline } from './pipeline';
import { conversation, writeConversationWav } from '../../tools/testing/conversation';
import { FixtureDir, mediaRequest, testEnginePorts } from '../../tools/testing/ffmpeg-fixtures';

const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

type Event = { provisional: ProvisionalSegment[] } | { segment: Segment };

/** The response without its timings, which differ from run to run. */
function comparable(response: TranscriptionResponse) {
  const { metadata, transcription } = response.prediction_raw;
  const untimed = Object.fromEntries(
    Object.entries(metadata).filter(([key]) => !key.endsWith('_time')),
  );
  return { prediction: response.prediction, transcription, metadata: untimed };
}

async function transcribe(path: string, behaviour: LanguageBehaviour, listen: boolean) {
  const events: Event[] = [];
  const request = mediaRequest(
    { kind: 'file', file: await fixtures.file(path) },
    { language_behaviour: behaviour, language: behaviour === 'manual' ? 'en' : null },
  );
  const response = await runPipeline(request, testEnginePorts(), {
    // Windows one at a time: those decoded together show no provisional text (their segments
    // come together, once their batch is decoded).
    settings: { recognition: { batchWindows: 1 } },
    onSegment: (segment) => events.push({ segment }),
    ...(listen ? { onProvisional: (provisional) => events.push({ provisional }) } : {}),
  });
  return { response, events };
}

describe('provisional text while a file is transcribed', () => {
  it.each(['manual', 'automatic single language'] as const)(
    'leaves the response as it is and comes before the segments it foretells (%s)',
    async (behaviour) => {
      // Over 30 s of speech: more than one model window.
      const path = writeConversationWav(
        fixtures.path(`talk-${behaviour.length}.wav`),
        conversation({ speakers: 2, seconds: 45, seed: 7 }),
      );
      const without = await transcribe(path, behaviour, false);
      const withText = await transcribe(path, behaviour, true);
      expect(comparable(withText.response)).toEqual(comparable(without.response));
      expect(without.events.every((e) => 'segment' in e)).toBe(true);

      const { events } = withText;
      const finals = events.flatMap((e) => ('segment' in e ? [e.segment] : []));
      expect(finals).toEqual(withText.response.prediction_raw.transcription);
      expect(finals.length).toBeGreaterThan(1);

      // The first thing posted is provisional text, before any segment.
      const first = events[0]!;
      expect('provisional' in first && first.provisional.length > 0).toBe(true);

      // What the segments say was shown before they came: a window's text is shown as each of its
      // segments closes, in every attempt of the decode, so the attempt that was chosen was seen.
      const foretold = finals.filter((final) => {
        const postedAt = events.findIndex((e) => 'segment' in e && e.segment === final);
        return events.slice(0, postedAt).some(
          (e) =>
            'provisional' in e &&
            e.provisional.some(
              (s) =>
                s.text === final.transcription.trim() &&
                // Times from the tokens alone, without the words' alignment: about the same.
                Math.abs(s.start - final.time_begin) < 0.25 &&
                Math.abs(s.end - final.time_end) < 0.25,
            ),
        );
      });
      expect(foretold).toEqual(finals);
      // The first text shown is the start of the first window's.
      const firstShown = (first as { provisional: ProvisionalSegment[] }).provisional[0]!;
      expect(firstShown.text).toBe(finals[0]!.transcription.trim());
      // Every window's provisional text was withdrawn.
      expect(events.at(-1)).toEqual({ provisional: [] });
    },
    240_000,
  );
});
