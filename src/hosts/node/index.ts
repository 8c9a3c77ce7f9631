/**
 * The Node host's public face: what a caller outside the host (a benchmark, a script) needs to
 * run the engine on Node as the CLI does. Everything else in src/hosts/node/ is the host's own.
 */
import type { CliIo, CliOptions } from './cli';

/** The engine's ports on Node: ffmpeg, the ONNX runtime, model files and spill files. */
export { nodeEnginePorts, type NodeEngineSettings } from './engine-ports';

/** A file on disk as a request's media file, or null when it cannot be opened. */
export { diskFile, type DiskFile } from './media-file';

/** Points transformers.js at the model source: the hub, a model host URL or a folder. */
export { configureModelSource } from './transformers-setup';

/** Model files read from a folder or downloaded from a model host, as the engine asks for them. */
export { nodeModelFiles } from './model-files';

/** The ONNX runtime of Node, for loading a model outside the engine's ports. */
export { nodeOnnxRuntime } from './onnx-runtime';

/** ffmpeg.wasm on Node, for running a filter on its own. */
export { nodeFfmpeg, type NodeFfmpegOptions } from './ffmpeg-core';
/** The kept word lists (sentiment), read from the installed packages. */
export { nodeWordLists } from './word-lists';

export type { CliIo, CliOptions };

/** What `GET /v2/transcription/<id>` answers, for a client of the HTTP service reading a job. */
export type { JobView } from './job-runtime/job-queue';

/**
 * Runs the `murmur` command line and returns its exit status. The CLI (with the server and the
 * queue's workers) is loaded on the first call, so that a caller that only opens files and runs
 * the engine does not carry them in its memory.
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  const cli = await import('./cli');
  return cli.main(argv, io, options);
}
