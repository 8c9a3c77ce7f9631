/**
 * What `npm run bench` needs beyond npm, and the message that names what a machine lacks and
 * the command that installs it (built from what the preflight found, so it is tested alone).
 */

export interface Requirement {
  /** As the message names it: `espeak-ng`, `Chromium at /usr/bin/chromium`. */
  name: string;
  /** What needs it, completing "needed for ...". */
  neededFor: string;
  found: boolean;
  /** The Debian packages that provide it. */
  apt?: readonly string[];
  /** What to do where no package provides it. */
  fix?: string;
}

/**
 * Null when nothing is missing; otherwise one line per missing thing, then the apt-get
 * command for all the packages at once (with sudo unless `root`).
 */
export function missingToolsMessage(
  requirements: readonly Requirement[],
  root: boolean,
): string | null {
  const missing = requirements.filter((r) => !r.found);
  if (missing.length === 0) return null;
  const packages = [...new Set(missing.flatMap((r) => r.apt ?? []))];
  const lines = [
    `npm run bench cannot start: ${missing.length === 1 ? 'this is' : 'these are'} missing.`,
    ...missing.map((r) => `- ${r.name}, needed for ${r.neededFor}${r.fix ? `: ${r.fix}` : ''}`),
  ];
  if (packages.length > 0) {
    lines.push(
      `Install ${packages.length === 1 ? 'it' : 'them'} with:`,
      `  ${root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`,
    );
  }
  lines.push('Then run npm run bench again.');
  return lines.join('\n');
}
