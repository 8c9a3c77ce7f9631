/** Stages of one transcription, in the order they run, for progress reports. */
export type Stage = 'validate' | 'models' | 'decode' | 'vad' | 'recognise' | 'assemble';
