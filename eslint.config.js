import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import edges of the layout: core is a leaf; engine sees core only; worker/ (the protocols and
 * the page's client) sees core only; hosts see everything but the app; the app sees no engine.
 */
const forbid = (folders, extra = []) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...folders.map((folder) => ({
          group: [`**/${folder}`, `**/${folder}/**`],
          message: `This layer may not import from ${folder}/ (see the layout in docs/architecture.md).`,
        })),
        ...extra,
      ],
    },
  ],
});

/**
 * What engine/ may not import. The stage blocks below say it again: a later block's
 * `no-restricted-imports` replaces an earlier one's for the files it covers.
 */
const ENGINE_LAYERS = ['hosts', 'worker', 'app'];
const ENGINE_UI = { group: ['react', 'react-dom', 'zustand'], message: 'engine/ has no UI.' };

/**
 * The engine's rules for the files under `folder`. Its tests run the engine on a host's ports
 * (the Node host's ffmpeg, ONNX runtime and files) as a host does, so they alone may import
 * hosts/; every other rule holds for them as for the code they test.
 */
const engineRules = (folder, extra) => [
  {
    files: [`${folder}/**/*.ts`],
    ignores: [`${folder}/**/*.test.ts`],
    rules: forbid(ENGINE_LAYERS, extra),
  },
  {
    files: [`${folder}/**/*.test.ts`],
    rules: forbid(
      ENGINE_LAYERS.filter((layer) => layer !== 'hosts'),
      extra,
    ),
  },
];

/** The folders of src/engine/stages/, read from disk so that a new stage is covered at once. */
const STAGES = readdirSync(new URL('src/engine/stages/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What tools/ may not import of a stage: anything but its index.ts, its public face. */
const TOOLS_STAGE_IMPORTS = {
  group: ['**/stages/*/**', '!**/stages/*/index'],
  message:
    "tools/ reaches a stage only through its index.ts (the stage's public face), as the pipeline does.",
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.models', '.cache', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(['engine', 'hosts']),
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: forbid(['engine', 'hosts', 'worker', 'app']),
  },
  {
    // Tests of core may read fixtures from disk; the code under test may not.
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: forbid(
      ['engine', 'hosts', 'worker', 'app'],
      [
        {
          group: [
            'react',
            'react-dom',
            'zustand',
            '@huggingface/*',
            '@ffmpeg/*',
            'onnxruntime-*',
            'node:*',
          ],
          message: 'core/ is pure TypeScript: no UI, model runtime or host modules.',
        },
      ],
    ),
  },
  ...engineRules('src/engine', [ENGINE_UI]),
  // A stage does not reach into another: stages talk through src/engine/streams/ and the
  // pipeline, which alone runs them in turn.
  ...STAGES.flatMap((stage) => {
    const others = STAGES.filter((other) => other !== stage);
    return engineRules(`src/engine/stages/${stage}`, [
      ENGINE_UI,
      {
        group: others.flatMap((other) => [
          `../${other}`,
          `../${other}/**`,
          `**/stages/${other}`,
          `**/stages/${other}/**`,
        ]),
        message: `The ${stage} stage does not import another stage's code: stages talk through src/engine/streams/ and the pipeline.`,
      },
    ]);
  }),
  // Live captions decide what to decode when, as the pipeline does for a file: they reach a stage
  // only through its index.ts, its public face, as the pipeline does.
  ...engineRules('src/engine/live', [
    ENGINE_UI,
    {
      group: ['**/stages/*/**', '!**/stages/*/index'],
      message:
        "live/ reaches a stage only through its index.ts (the stage's public face), as the pipeline does.",
    },
  ]),
  {
    files: ['src/worker/**/*.ts'],
    rules: forbid(
      ['engine', 'hosts', 'app'],
      [
        {
          group: ['react', 'react-dom', 'zustand', '@huggingface/*', '@ffmpeg/*', 'onnxruntime-*'],
          message: 'worker/ holds the messages and the page-side client only.',
        },
      ],
    ),
  },
  // Each host is wired once, by its own composition root; neither reaches into the other.
  ...['browser', 'node'].map((host) => {
    const other = host === 'node' ? 'browser' : 'node';
    return {
      files: [`src/hosts/${host}/**/*.ts`],
      rules: forbid(
        ['app'],
        [
          { group: ['react', 'react-dom', 'zustand'], message: 'hosts/ has no UI.' },
          {
            group: [`../${other}`, `../${other}/**`, `**/hosts/${other}/**`],
            message: `The ${host} host does not use the ${other} host's code.`,
          },
        ],
      ),
    };
  }),
  // The server and the queue's workers share the job runtime below them, and nothing of each
  // other. The host's own rules are said again: this block's rule replaces the one above.
  ...['jobs', 'server'].map((side) => {
    const other = side === 'jobs' ? 'server' : 'jobs';
    return {
      files: [`src/hosts/node/${side}/**/*.ts`],
      ignores: ['src/hosts/node/**/*.test.ts'],
      rules: forbid(
        ['app'],
        [
          { group: ['react', 'react-dom', 'zustand'], message: 'hosts/ has no UI.' },
          {
            group: ['../../browser', '../../browser/**', '**/hosts/browser/**'],
            message: "The node host does not use the browser host's code.",
          },
          {
            group: [`../${other}`, `../${other}/**`, `**/node/${other}/**`],
            message: `${side}/ does not import ${other}/: what both need lives in src/hosts/node/job-runtime/.`,
          },
        ],
      ),
    };
  }),
  // Benchmarks, evaluations and model checks measure the product as a host runs it: they reach
  // the Node host only through its index.ts (its public face) and a stage only through its
  // index.ts, as the pipeline does.
  {
    files: ['tools/bench/**/*.ts', 'tools/eval/**/*.ts', 'tools/models/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/hosts/*/**', '!**/hosts/node/index'],
              message:
                "A benchmark, evaluation or model check reaches the product only as a host does: through src/hosts/node/index.ts, the Node host's public face.",
            },
            TOOLS_STAGE_IMPORTS,
          ],
        },
      ],
    },
  },
  // Test support drives the engine as its tests do, and a stage as the pipeline does: only
  // through the stage's index.ts.
  {
    files: ['tools/testing/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TOOLS_STAGE_IMPORTS] }] },
  },
  // Test support (fixtures, fake servers, receivers, process helpers) lives in tools/testing/ and
  // the product never imports it, nor anything else of tools/: only tests do. A rule of its own
  // name, so that it holds beside each layer's no-restricted-imports rather than replacing it.
  {
    files: ['src/**/*.{ts,tsx,mjs}'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/tools', '**/tools/**'],
              message:
                'Product code does not import tools/ (test support lives in tools/testing/, for tests only).',
            },
          ],
        },
      ],
    },
  },
);
