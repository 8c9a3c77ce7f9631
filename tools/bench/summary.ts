/**
 * The last step of `npm run bench`: one table of the headline figures that the benchmarks
 * wrote to `bench-results/` (their own output above it is unchanged).
 * usage: tsx tools/bench/summary.ts
 */
import { readBenchResults, readRunStart } from './bench-result';
import { summaryTable } from './summary-table';

console.log(`\n${summaryTable(readBenchResults(), readRunStart())}`);
