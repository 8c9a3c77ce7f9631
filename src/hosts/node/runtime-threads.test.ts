import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testEnginePorts } from '../../../tools/testing/ffmpeg-fixtures';

/** The threads of this process now (Linux: one entry per thread in /proc/self/task). */
const threadCount = () => readdirSync('/proc/self/task').length;

describe('the recognition model with a number of runtime threads', () => {
  it('runs on the threads it is given: none beside the caller for one, two more for three', async () => {
    // The runtime's own start (its environment, shared by every session) is not counted.
    await testEnginePorts({ threads: 2 }).recogniser({});
    const before = threadCount();
    await testEnginePorts({ threads: 1 }).recogniser({});
    expect(threadCount()).toBe(before);
    await testEnginePorts({ threads: 3 }).recogniser({});
    // The encoder's and the decoder's sessions each start a pool of two (the caller is the third).
    expect(threadCount()).toBe(before + 4);
  });
});
