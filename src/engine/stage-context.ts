import { stageOrder, type Stage } from '../core/stages';
import type { Clock, EnginePorts, ProgressListener } from './ports';

/** What every stage's `run(input, context)` is given besides its input. */
export interface StageContext {
  signal: AbortSignal | undefined;
  clock: Clock;
  ports: EnginePorts;
  /** This stage's progress, reported under its own name. */
  progress: ProgressListener;
}

export type StageProgress = (stage: Stage, fraction: number | null, detail: string) => void;

/**
 * One context per stage over the same ports and signal. Stages overlap (speech is found while
 * the media is decoded, and recognised while it is still being found), so a report from a
 * stage earlier in the line than one already heard from is not passed on: the status never goes
 * back from "Recognising speech" to "Decoding media". Model loading is the exception while
 * recognition has not started: it is what recognition waits for.
 */
export function stageContexts(
  ports: EnginePorts,
  signal: AbortSignal | undefined,
  report: StageProgress = () => {},
): (stage: Stage) => StageContext {
  let latest = -1;
  const recognising = stageOrder('recognise');
  const progress =
    (stage: Stage): ProgressListener =>
    (fraction, detail) => {
      const order = stageOrder(stage);
      const passed = stage === 'models' ? latest < recognising : order >= latest;
      if (!passed) return;
      if (stage !== 'models') latest = order;
      report(stage, fraction, detail);
    };
  return (stage) => ({ signal, clock: ports.clock, ports, progress: progress(stage) });
}
