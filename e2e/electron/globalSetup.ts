// Builds the app when out/ is stale (as the browser suite does), or says in one line why the suite is skipped.
import { resolve } from 'node:path';
import buildIfStale from '../../test/globalSetup';
import { electronSuitePlan } from './electronSuite';

export default function globalSetup(): void {
  const root = resolve(import.meta.dirname, '../..');
  const before = electronSuitePlan({ root, env: process.env, platform: process.platform });
  if (!before.run && !/not built/.test(before.reason)) {
    console.log(before.reason);
    return;
  }
  buildIfStale();
}
