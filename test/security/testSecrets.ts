// The test-secret convention: a secret a test hands to Mooring is made with testSecret(), so it
// carries the marker scripts/scanSecrets.mjs looks for in every Mooring home and log after the suite.
import conventions from './testSecrets.json' with { type: 'json' };

export const TEST_SECRET_MARKER: string = conventions.marker;

/** A unique secret value for a test, e.g. testSecret('github-token') → 'mooring-test-secret-github-token-1234-…'. */
export function testSecret(name: string): string {
  return `${TEST_SECRET_MARKER}${name}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}
