import type { StageProgress } from '../../engine/stage-context';

/**
 * `--progress`: a line on stderr when a stage starts, and at every tenth of it, so a long run is
 * not silent. Stages run
 * side by side (a model downloads while the media decodes): each stage's share is followed on
 * its own (each model of a stage on its own) and only ever rises, so lines of one stage never go
 * back between lines of another. A stage whose share is not known is told once for each thing
 * it does. Models read from a folder (`local`) are loaded, not downloaded, and are said so.
 */
export function progressLines(write: (text: string) => void, local: boolean): StageProgress {
  const reached = new Map<string, number>();
  return (stage, fraction, rawDetail) => {
    // The media is downloaded whatever the models are read from.
    const detail =
      local && stage !== 'download' ? rawDetail.replace(/^Downloading /, 'Loading ') : rawDetail;
    // What a stage does ("Loading org/model", "Decoding audio"): followed on its own, so that
    // two models loading under one stage each rise.
    const colon = detail.indexOf(':');
    const key = `${stage} ${(colon < 0 ? detail : detail.slice(0, colon)).replace(/[\d.,]+/g, '#')}`;
    const tenth = fraction === null ? -1 : Math.floor(Math.min(1, Math.max(0, fraction)) * 10);
    const seen = reached.get(key);
    if (seen !== undefined && tenth <= seen) return;
    reached.set(key, tenth);
    const share = fraction === null ? '' : ` ${Math.round(Math.min(1, fraction) * 100)}%`;
    write(`murmur: progress: ${stage}${share}: ${detail}\n`);
  };
}
