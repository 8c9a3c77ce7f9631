import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tools/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // Hooks make fixtures (speech synthesis, encodes) as tests do, and take as long as they do
    // on a loaded machine: vitest's 10-s default assumes an idle one.
    hookTimeout: 60_000,
  },
});
