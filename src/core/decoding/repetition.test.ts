import { describe, expect, it } from 'vitest';
import { comparedWords, phraseLoopCut, repeatsEarlierLine } from './repetition';

const words = (text: string) => text.split(' ');
const cut = (text: string) => {
  const w = words(text);
  return phraseLoopCut(w)
    .map((i) => w[i])
    .join(' ');
};

describe('phrase loops', () => {
  it('cuts a phrase said three times or more in a row to its first saying', () => {
    expect(cut('thank you thank you thank you thank you for watching')).toBe(
      'thank you for watching',
    );
    expect(cut('so so so so so we start')).toBe('so we start');
    expect(cut('we will go there now we will go there now we will go there now')).toBe(
      'we will go there now',
    );
  });

  it('keeps a phrase said twice, and text without loops, as it is', () => {
    expect(cut('no no that is not it')).toBe('no no that is not it');
    expect(cut('the cat sat on the mat by the door')).toBe('the cat sat on the mat by the door');
    expect(phraseLoopCut([])).toEqual([]);
  });
});

describe('repeated lines', () => {
  it('finds a line written before, whatever its case and punctuation', () => {
    expect(repeatsEarlierLine('Thank you for watching!', ['thank you for watching'], 3)).toBe(true);
    expect(repeatsEarlierLine('thank you for coming', ['thank you for watching'], 3)).toBe(false);
  });

  it('never takes a short line for a loop', () => {
    expect(repeatsEarlierLine('Yeah.', ['yeah'], 3)).toBe(false);
    expect(comparedWords(" It's  done, OK?")).toEqual(["it's", 'done', 'ok']);
  });
});
