import { describe, expect, it } from 'vitest';
import { useAppStore } from './app-store';
import { rememberSpeaker } from './voice-actions';

describe('remembering a voice', () => {
  it('says so when the speaker’s voice is no longer kept (another result came meanwhile)', async () => {
    useAppStore.setState({ resultVoices: { speakers: [], recognitions: [] } });
    expect(await rememberSpeaker('speaker_0', 'Anna')).toBe(
      'This speaker’s voice was not kept with the result.',
    );
  });
});
