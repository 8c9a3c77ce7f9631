/** The two transcription endpoints; they differ only in their media fields. */
export const ENDPOINTS = {
  audio: {
    path: '/audio/text/audio-transcription/',
    fileField: 'audio',
    urlField: 'audio_url',
  },
  video: {
    path: '/video/text/video-transcription/',
    fileField: 'video',
    urlField: 'video_url',
  },
} as const;

export type Endpoint = keyof typeof ENDPOINTS;

export function isEndpoint(value: string): value is Endpoint {
  return value === 'audio' || value === 'video';
}
