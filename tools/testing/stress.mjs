#!/usr/bin/env node
// Runs the unit and browser tests while other processes keep every core busy, several times in
// a row, and says which runs passed. Tests that assume an idle machine (a fixed sleep, a race
// that a busy core opens, a time-out sized for an idle machine) fail here first.
//   npm run test:stress [-- --runs N] [-- --burners N]
// Defaults: 3 runs, one busy process per core. Exit status 0 only when every run passed.
import { spawn } from 'node:child_process';
import os from 'node:os';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number`);
  return value;
}

const runs = option('runs', 3);
const burnerCount = option('burners', os.availableParallelism());

/** A process that spins one core until it is ended. */
function burner() {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const burners = Array.from({ length: burnerCount }, burner);
const stop = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});
process.on('exit', stop);

const results = [];
for (let n = 1; n <= runs; n++) {
  console.log(`\nstress run ${n} of ${runs}, ${burnerCount} busy processes beside it`);
  const started = Date.now();
  const unit = await run('npm', ['run', 'test:unit']);
  const browser = await run('npm', ['run', 'test:e2e']);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  results.push({ n, unit, browser, minutes });
}
stop();
console.log('\nstress runs:');
for (const { n, unit, browser, minutes } of results) {
  const verdict = (code) => (code === 0 ? 'passed' : `failed (${code})`);
  console.log(
    `  run ${n}: unit tests ${verdict(unit)}, browser tests ${verdict(browser)}, ${minutes} min`,
  );
}
const passed = results.filter((r) => r.unit === 0 && r.browser === 0).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
