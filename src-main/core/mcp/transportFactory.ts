// Builds the transport for one connect attempt. The actor depends on the SDK's Transport interface
// only, so tests can hand it any (STYLE.md: depend on an interface, not a class).
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import { childEnvironment } from './childEnv';
import { StdioTransport } from './stdioTransport';

export interface TransportHooks {
  onStderr: (text: string) => void;
  onGarbage: (info: { reason: 'not-json-rpc' | 'oversized'; sample: string; bytes: number }) => void;
  /** A fetch for remote transports (the SSRF guard's, when the core wires one). */
  fetch?: FetchLike;
}

export type TransportFactory = (config: ServerConfig, hooks: TransportHooks) => Promise<Transport>;

export const createTransport: TransportFactory = async (config, hooks) => {
  switch (config.transport) {
    case 'stdio': {
      if (!config.command) throw new MooringError('config_invalid', `Server "${config.name}" has no command`);
      return new StdioTransport({
        command: config.command,
        args: config.args,
        env: await childEnvironment(config.env),
        ...(config.cwd ? { cwd: config.cwd } : {}),
        onStderr: hooks.onStderr,
        onGarbage: hooks.onGarbage,
      });
    }
    case 'http':
      return new StreamableHTTPClientTransport(new URL(config.url!), {
        requestInit: { headers: config.headers },
        ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
      });
    case 'sse':
      return new SSEClientTransport(new URL(config.url!), {
        requestInit: { headers: config.headers },
        ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
      });
  }
};
