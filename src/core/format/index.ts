export * from './json';
export * from './prediction';
export * from './srt';
export * from './timecode';
export * from './txt';
export * from './vtt';
