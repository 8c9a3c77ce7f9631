// An engine thread's entry: like the CLI, it is TypeScript compiled by tsx on load, and a
// worker thread does not inherit the loader of the thread that started it.
const { register } = await import('tsx/esm/api');
register();
await import('./engine-thread-worker.ts');
