// A server's, tool's or prompt's icon as the UI may show it (safety/icons.ts: a checked data: URI, or
// nothing), and the policy of where an https icon may come from: a remote server's icon is fetched with that
// server's own SSRF policy (from its host only), a stdio server's with a public-only guarded fetch. An
// icon fetched in the background shows once it arrives (`onResolved`).
import { isRemoteServer, type ServerConfig } from '@shared/config';
import type { Disposable } from '../disposable';
import type { FetchLike } from '@modelcontextprotocol/client';
import { createGuardedFetch, type GuardedFetch } from '../safety/guardedFetch';
import { IconResolver, type Icon } from '../safety/icons';

export interface ServerIconsDeps {
  /** The config of the server's running session, if it runs. */
  configOf: (server: string) => ServerConfig | undefined;
  /** A remote server's own guarded fetch (services/serverPreparation.ts). */
  fetchFor: (config: ServerConfig) => FetchLike;
  /** An https icon arrived: the UI lists servers and tools again. */
  onResolved: () => void;
}

export class ServerIcons implements Disposable {
  private readonly resolver = new IconResolver();
  /** The fetch for a stdio server's https icons: the SSRF guard, public addresses only; made on first use. */
  private publicFetch?: GuardedFetch;
  private readonly onResolved = () => this.deps.onResolved();

  constructor(private readonly deps: ServerIconsDeps) {
    this.resolver.on('resolved', this.onResolved);
  }

  /** The icon as a checked data: URI, or undefined; an https one shows once fetched (`onResolved`). */
  iconOf(server: string, icons: readonly Icon[] | undefined): string | undefined {
    if (!icons?.length) return undefined;
    const config = this.deps.configOf(server);
    if (config && isRemoteServer(config))
      return this.resolver.dataUri(icons, {
        serverUrl: config.url,
        fetch: this.deps.fetchFor(config) as unknown as typeof fetch,
      });
    this.publicFetch ??= createGuardedFetch();
    return this.resolver.dataUri(icons, { fetch: this.publicFetch });
  }

  async dispose(): Promise<void> {
    this.resolver.off('resolved', this.onResolved);
    await this.publicFetch?.close().catch(() => undefined);
  }
}
