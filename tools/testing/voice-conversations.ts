/**
 * Conversations among the same people, for remembering voices in one recording and recognising
 * them in others: each person keeps one espeak-ng voice across recordings, while what they say,
 * their turns and the people beside them change.
 */
import { join } from 'node:path';
import type { SpeakerTurn } from '../../src/core/evaluation/rttm';
import { conversation, writeConversationWav, writeRttm } from './conversation';
import type { Voice } from './speech';

export interface Person {
  name: string;
  voice: Voice;
}

/**
 * People to remember, and people nobody remembers. Each voice (espeak-ng variant and pitch) was
 * chosen far from every other for the test embedding model, which merges voices that sound
 * alike: the centroids of their utterances lie at cosine distances of 0.8 or more apart (two
 * halves of one voice's utterances lie within 0.07). Conversations among nearer voices measure
 * the model, not the recognition of voices.
 */
export const KNOWN_PEOPLE: readonly Person[] = [
  { name: 'Anna', voice: { variant: 'f5', pitch: 60, speed: 170 } },
  { name: 'Bruno', voice: { variant: 'm1', pitch: 25, speed: 155 } },
  { name: 'Chloe', voice: { variant: 'Andy', pitch: 60, speed: 180 } },
];

export const UNKNOWN_PEOPLE: readonly Person[] = [
  { name: 'Dmitri', voice: { variant: 'klatt4', pitch: 25, speed: 160 } },
  { name: 'Emil', voice: { variant: 'm5', pitch: 25, speed: 165 } },
  { name: 'Eve', voice: { variant: 'f1', pitch: 95, speed: 175 } },
];

export interface PeopleConversation {
  /** The WAV file (16 kHz mono). */
  media: string;
  /** Its reference RTTM, speakers under the people's names. */
  rttm: string;
  turns: SpeakerTurn[];
}

/**
 * A conversation among `people` (2 to 5), about `seconds` long, written as `<name>.wav` and
 * `<name>.rttm` in `dir`; the same arguments give the same files.
 */
export function writePeopleConversation(
  dir: string,
  name: string,
  people: readonly Person[],
  options: { seed: number; seconds: number },
): PeopleConversation {
  const spoken = conversation({
    speakers: people.length,
    voices: people.map((p) => p.voice),
    seconds: options.seconds,
    seed: options.seed,
  });
  // The generator names speakers A, B, C, ... in the order of `people`.
  const turns = spoken.turns.map((t) => ({
    ...t,
    speaker: people[t.speaker.charCodeAt(0) - 65]!.name,
  }));
  const media = writeConversationWav(join(dir, `${name}.wav`), spoken);
  const rttm = writeRttm(join(dir, `${name}.rttm`), turns, media);
  return { media, rttm, turns };
}
