const RECORDING_TITLE = '● Recording — Murmur';

/** The tab's title says it records, so that the recording tab is found among others. */
export function showRecordingInTitle(): () => void {
  const before = document.title;
  document.title = RECORDING_TITLE;
  return () => {
    if (document.title === RECORDING_TITLE) document.title = before;
  };
}
