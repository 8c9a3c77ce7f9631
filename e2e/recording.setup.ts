import { mkdirSync } from 'node:fs';
import { test as setup } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { MICROPHONE_WAV, RECORDING_DIR, TAB_WAV } from './fixtures/recording-audio';

setup('generated speech for the fake microphone and tab', () => {
  mkdirSync(RECORDING_DIR, { recursive: true });
  // Seeded sentences of the test model's vocabulary, with pauses that leave room for the
  // moments the capture takes to start.
  spokenFile(
    RECORDING_DIR,
    'microphone',
    [
      { language: 'en', seed: 301, words: 6 },
      { language: 'en', seed: 302, words: 7 },
    ],
    1.5,
  );
  spokenFile(RECORDING_DIR, 'tab', [{ language: 'en', seed: 303, words: 7 }], 1);
  if (!MICROPHONE_WAV.endsWith('microphone.wav') || !TAB_WAV.endsWith('tab.wav')) {
    throw new Error('The fixture paths changed without the setup.');
  }
});
