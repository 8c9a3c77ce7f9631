import { useMemo } from 'react';
import type { TranscriptionResponse } from '../../core/contract/response';
import { namedResponse } from '../../core/edit/speaker-names';
import { editedResponse, predictionFormatOf } from '../../core/edit/transcript-edits';
import { useAppStore } from '../store/app-store';
import { currentNames, currentSegments } from '../store/editor-slice';

/**
 * The result as corrected so far, with the speakers' names in place of their labels: what
 * every download, the captions and the panels show.
 */
export function useEditedResponse(): TranscriptionResponse | null {
  const result = useAppStore((s) => s.result);
  const segments = useAppStore(currentSegments);
  const names = useAppStore(currentNames);
  const format = useMemo(() => (result ? predictionFormatOf(result) : 'json'), [result]);
  return useMemo(() => {
    if (!result || !segments) return result;
    // Uncorrected (or every correction undone): the response exactly as it came.
    const edited =
      segments === result.prediction_raw.transcription
        ? result
        : editedResponse(result, segments, format);
    return namedResponse(edited, names, format);
  }, [result, segments, names, format]);
}
