#!/usr/bin/env node
// `murmur serve` and `murmur worker` stop on SIGTERM or SIGINT by themselves (they finish the
// work in hand).
const serving = process.argv[2] === 'serve' || process.argv[2] === 'worker';

// Otherwise Ctrl-C or SIGTERM cancels: the `cancelled` error body is printed like any other
// failure, and the process then ends by the signal itself, so that the shell's status is the
// signal's (130 or 143). A second signal ends at once. The handlers come first, so that a signal
// while the CLI is still loading is answered too.
const interrupted = new AbortController();
/** The signal that interrupted the command, once one has. */
let caught = null;
const listeners = new Map();

/**
 * Ends the process by `signal`, as an interrupted program does. Not `process.exit`: that tears
 * down the engine's thread, and a model running on it at that moment aborts the whole process.
 */
function endBy(signal) {
  for (const [name, listener] of listeners) process.off(name, listener);
  process.kill(process.pid, signal);
  // Should the signal not end it (a platform without them), the status is the same.
  setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 143), 1000);
}

if (!serving) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    const listener = () => {
      if (caught !== null) endBy(signal);
      caught = signal;
      interrupted.abort();
    };
    listeners.set(signal, listener);
    process.on(signal, listener);
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
} else if (caught !== null) {
  // Model runs still under way would keep the process alive: leave once the output is written.
  process.stdout.write('', () => process.stderr.write('', () => endBy(caught)));
} else {
  process.exitCode = code;
}
