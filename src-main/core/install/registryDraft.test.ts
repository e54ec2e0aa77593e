// A registry entry's arguments, variables and environment as the command line that runs (registryDraft.ts,
// installDraft.ts): what is fixed stays, what is asked is filled in or left out, secrets stay references.
import { describe, expect, it } from 'vitest';
import { materialize } from './installDraft';
import { chooseOption } from './registryDraft';
import { readServerJson, type ServerJson } from './serverJson';

const entry = (pkg: Record<string, unknown>): ServerJson => {
  const r = readServerJson({
    name: 'io.github.x/y',
    description: 'd',
    version: '1.0.0',
    packages: [
      { registryType: 'npm', identifier: 'pkg', version: '1.0.0', transport: { type: 'stdio' }, ...pkg },
    ],
  });
  if (!r.ok) throw new Error(r.error);
  return r.server;
};

const draftOf = (server: ServerJson) => {
  const p = chooseOption(server);
  if (p.kind !== 'draft') throw new Error('not a draft');
  return p.draft;
};

describe('registry arguments', () => {
  it('positional values, hints, named values and switches; optional ones left out when not given', () => {
    const draft = draftOf(
      entry({
        runtimeArguments: [{ type: 'named', name: '--prefer-offline', format: 'boolean' }],
        packageArguments: [
          { type: 'positional', value: 'serve' },
          { type: 'positional', valueHint: 'root', isRequired: true },
          { type: 'named', name: '--port', default: '8080' },
          { type: 'named', name: '--label' },
          { type: 'named', name: '-v', value: '{level}', variables: { level: { default: '2' } } },
        ],
      }),
    );
    expect(draft.inputs.map((i) => i.id)).toEqual([
      'arg.prefer-offline',
      'arg.root',
      'arg.port',
      'arg.label',
      'arg.v.level',
    ]);
    const bare = materialize(draft, { 'arg.root': '/data' }, 'y');
    expect(bare.config.args).toEqual(['-y', 'pkg@1.0.0', 'serve', '/data', '--port=8080', '-v', '2']);
    const full = materialize(
      draft,
      { 'arg.root': '/d', 'arg.prefer-offline': 'true', 'arg.label': 'a b' },
      'y',
    );
    expect(full.config.args).toEqual([
      '--prefer-offline',
      '-y',
      'pkg@1.0.0',
      'serve',
      '/d',
      '--port=8080',
      '--label=a b',
      '-v',
      '2',
    ]);
  });

  it('checks choices and formats, and refuses a value that is not one line', () => {
    const draft = draftOf(
      entry({
        packageArguments: [
          { type: 'named', name: '--mode', choices: ['a', 'b'], isRequired: true },
          { type: 'named', name: '--n', format: 'number' },
          { type: 'named', name: '--text' },
        ],
      }),
    );
    expect(() => materialize(draft, { 'arg.mode': 'c' }, 'y')).toThrow(/must be one of "a", "b"/);
    expect(() => materialize(draft, { 'arg.mode': 'a', 'arg.n': 'x' }, 'y')).toThrow(/must be a number/);
    expect(() => materialize(draft, { 'arg.mode': 'a', 'arg.text': 'a\n--evil' }, 'y')).toThrow(/one line/);
    expect(() => materialize(draft, { 'arg.mode': 'a', nope: '1' }, 'y')).toThrow(
      /asks for no value named "nope"/,
    );
  });

  it('a secret inside an argument stays a reference; its value is returned for the keychain', () => {
    const draft = draftOf(
      entry({ packageArguments: [{ type: 'named', name: '--token', isSecret: true, isRequired: true }] }),
    );
    const m = materialize(draft, { 'arg.token': 's3' }, 'y');
    expect(m.config.args).toEqual(['-y', 'pkg@1.0.0', '--token=${input:arg.token}']);
    expect(m.inputValues).toEqual({ 'arg.token': 's3' });
  });

  it('refuses flags, variables and names that are not plain', () => {
    for (const arg of [
      { type: 'named', name: '--x; rm -rf ~' },
      { type: 'named', name: '--ok', value: '{a b}', variables: { 'a b': {} } },
      { type: 'unknown' },
    ])
      expect(() => chooseOption(entry({ packageArguments: [arg] }))).toThrow(/cannot install/);
    expect(() => chooseOption(entry({ environmentVariables: [{ name: 'A=B' }] }))).toThrow(
      /name is not valid/,
    );
    expect(() => chooseOption(entry({ version: 'latest' }))).toThrow(/not an exact version/);
    expect(() => chooseOption(entry({ registryBaseUrl: 'https://evil.example.com' }))).toThrow(
      /other than registry\.npmjs\.org/,
    );
  });
});
