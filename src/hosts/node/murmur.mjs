#!/usr/bin/env node
// `murmur serve` and `murmur worker` stop on SIGTERM or SIGINT by themselves (they finish the
// work in hand).
const serving = process.argv[2] === 'serve' || process.argv[2] === 'worker';

// Otherwise Ctrl-C or SIGTERM cancels: the `cancelled` error body is printed like any other
// failure, and the exit status is the shell's for the signal (128 + its number). A second signal
// ends at once. The handlers come first, so that a signal while the CLI is still loading is
// answered too.
const interrupted = new AbortController();
let exitStatus = null;
if (!serving) {
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.on(signal, () => {
      if (exitStatus !== null) process.exit(status);
      exitStatus = status;
      interrupted.abort();
    });
  }
}

// The CLI is written in TypeScript; tsx compiles it on load so no build step is needed.
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('./cli.ts');
const code = await main(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
  { signal: interrupted.signal },
);
if (serving) {
  // A stopped server or worker has finished its work; fetch's connection pool (or a Redis
  // client) may still hold sockets open, which would delay the exit a process manager waits for.
  process.exit(code);
} else if (exitStatus !== null) {
  // Model runs still under way would keep the process alive: leave once the output is written.
  process.stdout.write('', () => process.exit(exitStatus));
} else {
  process.exitCode = code;
}
