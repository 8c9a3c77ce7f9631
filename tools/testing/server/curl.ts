import { execFile } from 'node:child_process';

/** What curl got: the final status line's code, the headers (lower-case names) and the body. */
export interface CurlAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: () => Record<string, unknown>;
}

/**
 * Runs curl as a client of the service would (`-s -i` plus the given arguments). An exit of
 * curl without an HTTP answer rejects with curl's own message.
 */
export function curl(args: readonly string[]): Promise<CurlAnswer> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-s', '-S', '-i', ...args],
      { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && stdout === '') return reject(new Error(`curl: ${stderr || error.message}`));
        let rest = stdout;
        // Interim answers (100 Continue) come first, each with its blank line.
        while (/^HTTP\/[\d.]+ 1\d\d/.test(rest)) rest = rest.slice(rest.indexOf('\r\n\r\n') + 4);
        const end = rest.indexOf('\r\n\r\n');
        const head = rest.slice(0, end).split('\r\n');
        const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head[0] ?? '')?.[1]);
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
        }
        const body = rest.slice(end + 4);
        resolve({ status, headers, body, json: () => JSON.parse(body) as Record<string, unknown> });
      },
    );
  });
}
