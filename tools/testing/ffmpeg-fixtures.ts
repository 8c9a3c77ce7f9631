/**
 * Media for tests and benchmarks: the shared recordings by path, and files generated with
 * Debian's ffmpeg and sox into a temporary folder (nothing generated is committed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  requestWithDefaults,
  type MediaFile,
  type TranscriptionRequest,
} from '../../src/core/contract/request';
import type { EnginePorts, ModelFiles } from '../../src/engine/ports';
import {
  diskFile,
  nodeEnginePorts,
  nodeModelFiles,
  type DiskFile,
  type NodeEngineSettings,
} from '../../src/hosts/node';

export const REPO = resolve(import.meta.dirname, '..', '..');
export const SHARED = resolve(process.env.MURMUR_SHARED ?? join(REPO, '..', 'shared'));
export const sharedMedia = (path: string) => join(SHARED, 'media', path);

/** The local model id of Silero VAD as `tools/models/stage.mjs` stages it. */
export const TEST_VAD_MODEL_ID = 'murmur-test/silero-vad';

/**
 * Silero VAD for tests: the staged model folder when it is there, otherwise the shared weights
 * read directly under the same model id.
 */
export function testModelFiles(): ModelFiles {
  const staged = join(REPO, '.models');
  if (existsSync(join(staged, TEST_VAD_MODEL_ID, 'onnx', 'model.onnx')))
    return nodeModelFiles(staged);
  const weights = join(SHARED, 'models', 'silero-vad', 'silero_vad.onnx');
  return {
    host: weights,
    async get(modelId, path) {
      if (modelId !== TEST_VAD_MODEL_ID || path !== 'onnx/model.onnx') {
        throw new Error(`No test model file ${modelId}/${path}.`);
      }
      return new Uint8Array(readFileSync(weights));
    },
  };
}

/** The trained test recogniser, as `tools/models/stage.mjs` stages it. */
export const TEST_WHISPER_ID = 'murmur-test/whisper-synth';

/**
 * The Node host's engine on the test models (the staged recogniser and Silero VAD); settings
 * given replace those (other model files, ffmpeg options).
 */
export function testEnginePorts(settings: Partial<NodeEngineSettings> = {}): EnginePorts {
  return nodeEnginePorts({
    models: join(REPO, '.models'),
    model: TEST_WHISPER_ID,
    vadModel: TEST_VAD_MODEL_ID,
    // Models from elsewhere bring their own VAD; the staged one otherwise.
    ...(settings.models ? {} : { modelFiles: testModelFiles() }),
    ...settings,
  });
}

/** A request for the media stage with the spec's defaults. */
export function mediaRequest<F extends MediaFile>(
  media: TranscriptionRequest<F>['media'],
  overrides: Partial<TranscriptionRequest<F>> = {},
): TranscriptionRequest<F> {
  const { endpoint = 'audio', ...options } = overrides;
  return requestWithDefaults(endpoint, media, options);
}

/** A temporary folder that files are generated into. */
export class FixtureDir {
  readonly dir = mkdtempSync(join(tmpdir(), 'murmur-media-'));

  path(name: string): string {
    return join(this.dir, name);
  }

  /** Runs Debian's ffmpeg quietly, writing `name`; returns its path. */
  ffmpeg(name: string, args: readonly string[]): string {
    const out = this.path(name);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
    return out;
  }

  write(name: string, data: string | Uint8Array): string {
    const out = this.path(name);
    writeFileSync(out, data);
    return out;
  }

  async file(path: string): Promise<DiskFile> {
    const file = await diskFile(path);
    if (file === null) throw new Error(`No fixture at ${path}.`);
    return file;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
