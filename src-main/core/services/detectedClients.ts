// Detected clients: the MCP configs of the other apps on this machine (config/clientConfigs.ts finds
// them), each with the servers it holds (config/importFormats.ts reads them), offered for import with the
// usual consent. Only files at the documented locations are ever read here, never a path from the UI.
import { readFile } from 'node:fs/promises';
import { describeCommandLine } from '@shared/commandLine';
import type { DetectedClient } from '@shared/wire';
import {
  clientConfigLocations,
  findClientConfigs,
  type ClientEnvironment,
  type ClientLocation,
} from '../config/clientConfigs';
import { parseImport } from '../config/importFormats';
import { MooringError, toErrorData } from '../errors';

export interface DetectedClientsDeps {
  environment: () => ClientEnvironment;
  /** The names of the servers Mooring already has (shown as such, not offered twice). */
  existing: () => Promise<string[]>;
}

/** A config larger than this is not a client config anyone wrote by hand; it is named, not read. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export class DetectedClients {
  constructor(private readonly deps: DetectedClientsDeps) {}

  /** Where each client documents its config on this platform, whether or not the file exists (for a hint). */
  locations(): ClientLocation[] {
    return clientConfigLocations(this.deps.environment());
  }

  async detect(): Promise<DetectedClient[]> {
    const [found, existing] = await Promise.all([
      findClientConfigs(this.deps.environment()),
      this.deps.existing(),
    ]);
    const have = new Set(existing);
    return Promise.all(
      found.map(async (l): Promise<DetectedClient> => {
        try {
          const text = await this.readText(l.path);
          const parsed = parseImport(text, { fileName: l.path });
          return {
            ...l,
            servers: parsed.servers.map((s) => ({
              name: s.name,
              commandLine: describeCommandLine(s),
              exists: have.has(s.name),
            })),
          };
        } catch (err) {
          return { ...l, servers: [], error: toErrorData(err).message.split('\n')[0]! };
        }
      }),
    );
  }

  /** The text of one detected config, for the import consent; only a path detection found. */
  async read(path: string): Promise<{ text: string; fileName: string }> {
    const found = await findClientConfigs(this.deps.environment());
    if (!found.some((l) => l.path === path))
      throw new MooringError(
        'not_found',
        `${path} is not a client config Mooring found on this machine`,
        'Look for other apps again, or import the file by choosing it.',
      );
    return { text: await this.readText(path), fileName: path };
  }

  private async readText(path: string): Promise<string> {
    const buf = await readFile(path);
    if (buf.byteLength > MAX_CONFIG_BYTES)
      throw new MooringError(
        'config_invalid',
        `${path} is larger than 4 MB`,
        'Import the servers you need by hand.',
      );
    return buf.toString('utf8');
  }
}
