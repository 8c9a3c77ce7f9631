import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { CaptionLine } from '../../core/live/captions';
import { LiveTranscript } from '../components/LiveTranscript';
import { captionsProblem } from '../lib/recording/recording-wording';
import type { AppState } from './app-store';
import { createLiveCaptionsSlice } from './live-captions-slice';

const line = (text: string, start: number, channel = 0): CaptionLine => ({
  channel,
  start,
  end: start + 1,
  text,
});

function store() {
  const s = create<AppState>()((...a) => ({ ...createLiveCaptionsSlice(...a) }) as AppState);
  s.getState().startCaptions();
  return s;
}

/** The transcript as shown: the live region's text, and what follows it. */
function shown(s: ReturnType<typeof store>, names: string[] | null = null) {
  const { captions, captionsProblem: problem } = s.getState();
  const html = renderToStaticMarkup(
    createElement(LiveTranscript, { captions, channelNames: names, problem }),
  );
  const live = html.match(/<div aria-live="polite"[^>]*>(.*?)<\/div>/)?.[1] ?? null;
  const text = (part: string) =>
    part
      .replace(/<[^>]+>/g, '|')
      .split('|')
      .filter(Boolean);
  return {
    html,
    live: live === null ? null : text(live),
    after: text(html.split('</div>')[1] ?? ''),
  };
}

describe('live captions', () => {
  it('append settled lines and replace the provisional line', () => {
    const s = store();
    s.getState().receiveCaptions({
      settled: [],
      provisional: [line(' the cat', 0)],
      behindSeconds: 0,
    });
    s.getState().receiveCaptions({
      settled: [line(' the cat sat.', 0)],
      provisional: [line(' on the', 2)],
      behindSeconds: 0,
    });
    s.getState().receiveCaptions({
      settled: [line(' On the mat.', 2)],
      provisional: [null],
      behindSeconds: 0,
    });
    expect(s.getState().captions.settled.map((l) => l.text)).toEqual([
      ' the cat sat.',
      ' On the mat.',
    ]);
    expect(s.getState().captions.provisional).toEqual([null]);
    expect(shown(s).live).toEqual(['the cat sat.', 'On the mat.']);
  });

  it('keep the provisional line out of the live region, marked as provisional', () => {
    const s = store();
    s.getState().receiveCaptions({
      settled: [line(' Settled words.', 0)],
      provisional: [line(' still changing', 1)],
      behindSeconds: 0,
    });
    const view = shown(s);
    expect(view.live).toEqual(['Settled words.']);
    expect(view.after).toEqual(['Provisional: ', 'still changing']);
    expect(view.html).toContain('<section aria-label="Live transcript"');
  });

  it('name the channel of each line when there are two', () => {
    const s = store();
    s.getState().receiveCaptions({
      settled: [line(' Hello.', 0, 0), line(' Hi there.', 0.5, 1)],
      provisional: [null, line(' how', 2, 1)],
      behindSeconds: 0,
    });
    const view = shown(s, ['Microphone', 'Tab']);
    expect(view.live).toEqual(['Microphone: ', 'Hello.', 'Tab: ', 'Hi there.']);
    expect(view.after).toEqual(['Provisional: ', 'Tab: ', 'how']);
  });

  it('say when they lag more than two seconds, and not before', () => {
    const s = store();
    s.getState().receiveCaptions({ settled: [], provisional: [null], behindSeconds: 1.9 });
    expect(shown(s).html).not.toContain('behind');
    s.getState().receiveCaptions({ settled: [], provisional: [null], behindSeconds: 4.4 });
    expect(shown(s).after).toEqual([
      'Captions are 4 s behind while they start (the speech model loads first); they will catch up.',
    ]);
    s.getState().receiveCaptions({
      settled: [line(' Hello.', 0)],
      provisional: [null],
      behindSeconds: 3.6,
    });
    expect(shown(s).after).toEqual(['Captions are 4 s behind; they will catch up.']);
  });

  it('show why they stopped, and start afresh with the next recording', () => {
    const s = store();
    s.getState().receiveCaptions({
      settled: [line(' Old.', 0)],
      provisional: [null],
      behindSeconds: 0,
    });
    s.getState().failCaptions(captionsProblem(new Error('Live captions are not available yet.')));
    expect(shown(s).after).toEqual([
      'Live captions stopped: Live captions are not available yet. The recording goes on, and is transcribed when you press Stop.',
    ]);
    s.getState().startCaptions();
    expect(s.getState().captions.settled).toEqual([]);
    expect(s.getState().captionsProblem).toBeNull();
    expect(s.getState().captionsShown).toBe(true);
    s.getState().hideCaptions();
    expect(s.getState().captionsShown).toBe(false);
  });
});
