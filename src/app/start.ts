import { writePagePolicy } from './lib/page-policy';

// The page's only entry: the network policy is in place before the app's code (and its
// dependencies) is even evaluated, let alone makes a request.
writePagePolicy();
void import('./main');
