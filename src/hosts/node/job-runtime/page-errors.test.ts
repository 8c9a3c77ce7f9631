import { describe, expect, it } from 'vitest';
import type { YtDlpRun } from '../yt-dlp';
import { proxyStopError, ytDlpFailure } from './page-errors';

const LIMITS = { maxBytes: 1024 * 1024, idleSeconds: 30 };

/** A run of yt-dlp that failed with `lines` on stderr. */
const failedWith = (...lines: string[]): YtDlpRun => ({
  status: 1,
  stdout: '',
  stderr: `[generic] Extracting URL\n${lines.join('\n')}\n`,
  missing: false,
});

const answer = (run: YtDlpRun) => {
  const error = ytDlpFailure('video_url', run, '2023.03.04');
  return { status: error.status, message: error.message };
};

describe("the proxy's stops, as the service says them", () => {
  it('a link that leads to a name that does not resolve', () => {
    const target = 'https://cdn.media.invalid:443/';
    const error = proxyStopError('audio_url', { kind: 'unresolved', target }, LIMITS);
    expect(error.status).toBe(502);
    expect(error.message).toBe(
      'The media at audio_url could not be fetched: it leads to "https://cdn.media.invalid:443/", whose host name does not resolve.',
    );
  });
});

describe("yt-dlp's failures, as the service says them", () => {
  it('a page behind a sign-in', () => {
    expect(
      answer(
        failedWith(
          'ERROR: [youtube] abc: Sign in to confirm your age. This video may be inappropriate for some users.',
        ),
      ),
    ).toEqual({
      status: 502,
      message:
        'The page at video_url needs a sign-in, which this service does not do. Download the media and send the file itself.',
    });
    expect(answer(failedWith('ERROR: [vimeo] 1: This video is private')).status).toBe(502);
  });

  it('a page with nothing yt-dlp reads', () => {
    expect(answer(failedWith('ERROR: Unsupported URL: https://example.com/about'))).toEqual({
      status: 415,
      message:
        'The page at video_url holds no media yt-dlp can read. Link to the media file itself.',
    });
  });

  it("its server's answer, or a server out of reach, without its words", () => {
    expect(
      answer(
        failedWith(
          'ERROR: [generic] Unable to download webpage: HTTP Error 404: Not Found (caused by <HTTPError 404>)',
        ),
      ),
    ).toEqual({
      status: 502,
      message: 'The media at video_url could not be fetched: its server answered 404.',
    });
    expect(
      answer(
        failedWith(
          'ERROR: [generic] Unable to download webpage: <urlopen error [Errno 111] Connection refused>',
        ),
      ).message,
    ).toBe('The media at video_url could not be fetched: its server could not be reached.');
  });

  it('anything else, as a page this yt-dlp may be too old for, naming its version', () => {
    expect(
      answer(
        failedWith(
          'WARNING: [youtube] abc: nsig extraction failed',
          'ERROR: [youtube] abc: Unable to extract uploader id; please report this issue',
        ),
      ),
    ).toEqual({
      status: 502,
      message:
        'The page at video_url could not be read by yt-dlp 2023.03.04; a newer yt-dlp may read it: update yt-dlp.',
    });
  });

  it('a yt-dlp that does not start, as one not installed', () => {
    const run: YtDlpRun = { status: null, stdout: '', stderr: '', missing: true };
    expect(answer(run)).toEqual({
      status: 501,
      message:
        'video_url is a web page: media is read from web pages with yt-dlp, which is not installed here. Install yt-dlp (or name it with --yt-dlp PATH), or link to the media file itself.',
    });
  });
});
