#!/usr/bin/env node
// The CLI is written in TypeScript; tsx compiles it on load so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
// A stopped server has finished its work; fetch's connection pool may still hold sockets open
// for a few seconds, which would delay the exit that a process manager waits for.
if (process.argv[2] === 'serve') process.exit();
