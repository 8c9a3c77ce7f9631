import { describe, expect, it } from 'vitest';
import { downloadProgress } from './download-progress';

function recorder() {
  const seen: { fraction: number | null; detail: string }[] = [];
  return {
    seen,
    listener: (fraction: number | null, detail: string) => seen.push({ fraction, detail }),
  };
}

describe('downloadProgress', () => {
  it('gives no fraction until the weights are listed, then one that never goes backwards', () => {
    const { seen, listener } = recorder();
    const on = downloadProgress('org/model', listener, () => 0);
    // the tokenizer finishes before the weights are requested
    on({ status: 'progress', file: 'tokenizer.json', loaded: 2e6, total: 2e6 });
    expect(seen.at(-1)).toEqual({ fraction: null, detail: 'Downloading org/model: 2.0 MB' });
    // the model lists its weights, none of them started yet
    const listed = {
      'onnx/encoder_model.onnx': { loaded: 0, total: 10e6 },
      'onnx/decoder_model_merged.onnx': { loaded: 0, total: 8e6 },
    };
    on({ status: 'progress_total', files: listed });
    expect(seen.at(-1)!.fraction).toBeCloseTo(2 / 20);
    on({ status: 'progress', file: 'onnx/encoder_model.onnx', loaded: 5e6, total: 10e6 });
    expect(seen.at(-1)!.fraction).toBeCloseTo(7 / 20);
    // a file that appears only now (a side file of the weights) grows the total: held, not lowered
    on({ status: 'progress', file: 'onnx/encoder_model.onnx_data', loaded: 0, total: 20e6 });
    expect(seen.at(-1)!.fraction).toBeCloseTo(7 / 20);
    on({ status: 'progress', file: 'onnx/encoder_model.onnx', loaded: 10e6, total: 10e6 });
    on({ status: 'progress', file: 'onnx/encoder_model.onnx_data', loaded: 20e6, total: 20e6 });
    on({ status: 'progress', file: 'onnx/decoder_model_merged.onnx', loaded: 8e6, total: 8e6 });
    expect(seen.at(-1)).toEqual({ fraction: 1, detail: 'Downloading org/model: 40.0 of 40.0 MB' });
    const fractions = seen.map((s) => s.fraction).filter((f): f is number => f !== null);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('says the bytes, the speed and the time left once they are known', () => {
    const { seen, listener } = recorder();
    let now = 10;
    const on = downloadProgress('org/model', listener, () => now);
    on({ status: 'progress_total', files: { 'onnx/model.onnx': { loaded: 0, total: 30e6 } } });
    expect(seen.at(-1)!.detail).toBe('Downloading org/model: 0.0 of 30.0 MB');
    now = 12;
    on({ status: 'progress', file: 'onnx/model.onnx', loaded: 6e6, total: 30e6 });
    expect(seen.at(-1)!.detail).toBe(
      'Downloading org/model: 6.0 of 30.0 MB · 3.0 MB/s · about 8 s left',
    );
  });

  it('ignores events that carry no bytes', () => {
    const { seen, listener } = recorder();
    const on = downloadProgress('org/model', listener);
    on({ status: 'initiate', file: 'config.json' });
    on({ status: 'done', file: 'config.json' });
    on({ status: 'ready' });
    expect(seen).toEqual([]);
  });
});
