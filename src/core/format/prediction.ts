import type { OutputFormat } from '../contract/request';
import type { Segment } from '../contract/response';
import { renderJson } from './json';
import { renderSrt } from './srt';
import { renderTxt } from './txt';
import { renderVtt } from './vtt';

/** The `prediction` string for an output format (spec 2.1, 2.8). */
export function renderPrediction(segments: readonly Segment[], format: OutputFormat): string {
  switch (format) {
    case 'json':
      return renderJson(segments);
    case 'srt':
      return renderSrt(segments);
    case 'vtt':
      return renderVtt(segments);
    case 'txt':
      return renderTxt(segments);
  }
}
