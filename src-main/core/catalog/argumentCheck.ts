// Arguments typed by a person for one tool (`mooring mcp call`) are checked against the tool's input schema
// before the call, after the repairs the call itself makes (catalog.ts, `prepareArguments`): a missing or
// mistyped argument is named with what the tool expects, instead of whatever the server answers.
import { checkArgValues, describeExpectedArgs } from '@shared/toolArguments';
import { MooringError } from '../errors';
import { prepareArguments, type CatalogEntry } from './catalog';

/** Throws `usage` saying what is wrong and what the tool takes (each property, an example) when they do not fit. */
export function checkCallArguments(entry: CatalogEntry, args: Record<string, unknown>): void {
  const check = checkArgValues(prepareArguments(entry, args).args, entry.serverSchema);
  if (check.ok) return;
  const expected = describeExpectedArgs(entry.serverSchema);
  const example = JSON.stringify(JSON.parse(expected.example));
  throw new MooringError(
    'usage',
    [
      `The arguments for ${entry.tool} on "${entry.server}" do not fit its input schema: ${check.error}.`,
      ...(expected.lines.length ? ['It takes:', ...expected.lines.map((l) => `  ${l}`)] : []),
      `For example: ${example}`,
    ].join('\n'),
    `mooring mcp call ${entry.server} ${entry.tool} '${example}'`,
  );
}
