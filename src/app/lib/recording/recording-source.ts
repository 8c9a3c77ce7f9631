/** Where a recording's sound comes from. */
export type RecordingSource = 'microphone' | 'tab' | 'both';

export const RECORDING_SOURCES: readonly { value: RecordingSource; label: string }[] = [
  { value: 'microphone', label: 'Microphone' },
  { value: 'tab', label: 'A tab or screen' },
  { value: 'both', label: 'Both' },
];

/** Channels a source records: with both, channel 0 is the microphone and channel 1 the tab. */
export function sourceChannels(source: RecordingSource): number {
  return source === 'both' ? 2 : 1;
}

/** What each channel's level meter is called. */
export function channelNames(source: RecordingSource): string[] {
  if (source === 'both') return ['Microphone', 'Tab'];
  return [source === 'tab' ? 'Tab' : 'Microphone'];
}
