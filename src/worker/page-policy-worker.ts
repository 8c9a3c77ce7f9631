/**
 * Module workers that hold the network policy of whoever starts them. A worker started from a
 * script's address holds the policy of that script's response (none, on a host that sends no
 * headers), never the page's; one started from a blob: address inherits its creator's. So each
 * worker starts from a small blob: module that imports the real script.
 *
 * Inside, `location` is the real script's address, as it would be without the wrapper (code
 * resolves the app's files against it), and messages that arrive while the script loads are
 * held and handed over once it has set its listeners.
 */
const wrappers = new Map<string, string>();

function wrapperSource(script: string): string {
  const url = JSON.stringify(script);
  return [
    'const held = [];',
    'const hold = (event) => { held.push(event); event.stopImmediatePropagation(); };',
    "self.addEventListener('message', hold);",
    `Object.defineProperty(self, 'location', { value: new URL(${url}), configurable: true });`,
    'try {',
    `  await import(${url});`,
    '} finally {',
    "  self.removeEventListener('message', hold);",
    '  for (const event of held)',
    "    self.dispatchEvent(new MessageEvent('message', { data: event.data, ports: [...event.ports] }));",
    '}',
  ].join('\n');
}

/**
 * The `blob:` address of a module worker that runs `script` (an address on this site) under its
 * creator's policy: for a library that starts its worker itself from an address it is given.
 */
export function policyWorkerUrl(script: string): string {
  const absolute = new URL(script, self.location.href).href;
  let wrapper = wrappers.get(absolute);
  if (wrapper === undefined) {
    const source = new Blob([wrapperSource(absolute)], { type: 'text/javascript' });
    wrapper = URL.createObjectURL(source);
    wrappers.set(absolute, wrapper);
  }
  return wrapper;
}

/** Starts the module worker at `script` (an address on this site) under its creator's policy. */
export function startWorker(script: string, options: { name?: string } = {}): Worker {
  return new Worker(policyWorkerUrl(script), { type: 'module', ...options });
}
