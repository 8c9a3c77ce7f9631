import { useMemo } from 'react';
import type { TranscriptionResponse } from '../../core/contract/response';
import { editedResponse, predictionFormatOf } from '../../core/edit/transcript-edits';
import { useAppStore } from '../store/app-store';
import { currentSegments } from '../store/editor-slice';

/** The result as corrected so far: what every download, the captions and the panels show. */
export function useEditedResponse(): TranscriptionResponse | null {
  const result = useAppStore((s) => s.result);
  const segments = useAppStore(currentSegments);
  const format = useMemo(() => (result ? predictionFormatOf(result) : 'json'), [result]);
  return useMemo(() => {
    // Uncorrected (or every correction undone): the response exactly as it came.
    if (!result || !segments || segments === result.prediction_raw.transcription) return result;
    return editedResponse(result, segments, format);
  }, [result, segments, format]);
}
