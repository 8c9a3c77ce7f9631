#!/usr/bin/env node
// A stand-in for a yt-dlp that a page leads to another address (`PAGE_LEADS_TO`): it asks the
// proxy it is given for that address, as yt-dlp asks for a page's media, and says what yt-dlp
// would. With the address guard on, the proxy must refuse a private address; were the request
// let through, this prints the media's details as yt-dlp does and the server goes on with them.
import { request } from 'node:http';

const args = process.argv.slice(2);
if (args[0] === '--version') {
  process.stdout.write('2023.03.04\n');
  process.exit(0);
}
const proxy = new URL(args[args.indexOf('--proxy') + 1]);
const target = process.env.PAGE_LEADS_TO ?? '';
const asked = request({ host: proxy.hostname, port: proxy.port, path: target }, (answer) => {
  answer.resume();
  if (answer.statusCode !== 200) {
    process.stderr.write(`ERROR: Unable to download webpage: HTTP Error ${answer.statusCode}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ title: 'Reached', url: target })}\n`);
  process.exit(0);
});
asked.on('error', () => {
  process.stderr.write('ERROR: Unable to download webpage: Connection refused\n');
  process.exit(1);
});
asked.end();
