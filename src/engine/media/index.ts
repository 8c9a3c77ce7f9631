export { decodeChannels, probeMedia, type DecodedAudio, type DecodeOptions } from './decode';
export { fetchMedia, mediaSource } from './media-input';
export { DENOISE_FILTER, denoiseChannel } from './noise-reduction';
export { prepareAudio, warmMediaStage, type PrepareAudioOptions } from './prepare-audio';
export * from './prepared-audio';
export { loadSileroVad, VAD_WINDOW, type SpeechDetector } from './silero-vad';
