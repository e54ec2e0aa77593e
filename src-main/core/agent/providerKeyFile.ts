// Provider API keys where no OS keychain is (browser mode on a server, a desktop without a Secret
// Service), by the person's explicit choice in Settings > Models — never as a silent fallback:
//   - an environment reference, `${env:NAME}`: the file holds only the variable's name;
//   - the key itself, in plain text, in <home>/provider-keys.json, readable only by its owner (0600 in a
//     0700 home), and named as such wherever it is offered.
// A JsonFileStore (docs/data-on-disk.md, "Data on disk"): changed under its lock, written atomically.
import { join } from 'node:path';
import { z } from 'zod';
import { PROVIDER_IDS, type ProviderId } from '@shared/providers';
import { JsonFileStore } from '../config/jsonFileStore';
import { MooringError } from '../errors';

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const Entry = z.union([
  z.object({ envRef: z.string().regex(ENV_NAME) }),
  z.object({ key: z.string().min(1) }),
]);
const KeysSchema = z.partialRecord(z.enum(PROVIDER_IDS), Entry);
export type KeyEntry = z.infer<typeof Entry>;
type Keys = z.infer<typeof KeysSchema>;

/** `${env:NAME}` or a bare NAME → NAME; anything else is a usage error that says what fits. */
export function envRefName(input: string): string {
  const t = input.trim();
  const name = /^\$\{env:([^}]*)\}$/.exec(t)?.[1] ?? t;
  if (!ENV_NAME.test(name))
    throw new MooringError(
      'usage',
      `"${t.slice(0, 60)}" is not an environment variable reference`,
      'Write ${env:NAME} or just NAME, with letters, digits and _ only',
    );
  return name;
}

export class ProviderKeyFile {
  private readonly store: JsonFileStore<Keys, z.input<typeof KeysSchema>>;

  constructor(home: string) {
    this.store = new JsonFileStore({
      file: join(home, 'provider-keys.json'),
      format: {
        schema: KeysSchema,
        empty: () => ({}),
        fileHint: (f) =>
          `Fix ${f} by hand (Mooring has not changed it), or delete it and enter the keys again.`,
        changeHint: 'Enter the key again.',
      },
    });
  }

  get file(): string {
    return this.store.file;
  }

  async get(provider: ProviderId): Promise<KeyEntry | undefined> {
    return (await this.store.read())[provider];
  }

  async set(provider: ProviderId, entry: KeyEntry | undefined): Promise<void> {
    await this.store.update((keys) => {
      const { [provider]: _old, ...rest } = keys;
      return entry ? { ...rest, [provider]: entry } : rest;
    });
  }
}
