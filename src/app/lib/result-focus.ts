/** The id of the result's heading, which takes the focus when a transcription ends. */
export const RESULT_HEADING_ID = 'result-heading';

/**
 * Moves the focus to the result's heading once it is on the page, when the focus was lost
 * meanwhile: the Transcribe button is disabled while a job runs, which drops the focus to the
 * page itself. Focus the person moved elsewhere (a field of the form) stays where it is.
 */
export function focusResultIfLost(): void {
  // After the store's change has rendered the result.
  setTimeout(() => {
    const focus = document.activeElement;
    if (focus !== null && focus !== document.body) return;
    document.getElementById(RESULT_HEADING_ID)?.focus();
  });
}
