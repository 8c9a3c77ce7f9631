import { describe, expect, it } from 'vitest';
import { endedProblem, startProblem } from './recording-wording';

const named = (name: string, message = 'browser words') => new DOMException(message, name);

describe("why recording stopped, in the user's words", () => {
  it('names what was refused', () => {
    expect(startProblem(named('NotAllowedError'), 'tab')).toBe(
      "The browser was not allowed to share a tab or screen, so nothing is recorded. Allow it for this site (in the address bar's site settings) and press Record again.",
    );
    expect(startProblem(named('NotAllowedError'), 'both')).toBe(
      "The browser was not allowed to use the microphone, so nothing is recorded. Allow it for this site (in the address bar's site settings) and press Record again.",
    );
  });

  it('tells a busy microphone from a missing one', () => {
    expect(startProblem(named('NotReadableError'), 'microphone')).toBe(
      'The microphone is in use by another program or could not be opened. Close that program and press Record again.',
    );
    expect(startProblem(named('OverconstrainedError'), 'microphone')).toBe(
      'No microphone was found. Plug one in (or choose another in the list) and press Record again.',
    );
  });

  it("gives the browser's own words for anything else", () => {
    expect(startProblem(new Error('Audio worklet failed.'), 'microphone')).toBe(
      'Recording could not start: Audio worklet failed.',
    );
  });

  it('says that a tab no longer shared keeps what was recorded', () => {
    expect(endedProblem('tab')).toBe(
      'The tab or screen is no longer shared. What was recorded until then is kept.',
    );
  });
});
