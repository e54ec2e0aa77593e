// The protocol-era fixture (test/fixtures/servers/eraServer.ts): one server per era, over stdio or HTTP.
import { spawn } from 'node:child_process';
import type { ServerConfig } from '../../shared/config';
import { cfg, fixturePath, fixtureStdio, RUN_TS } from './servers';

export type Era = 'modern' | 'legacy';
export const ERA_VERSION: Record<Era, string> = { modern: '2026-07-28', legacy: '2025-11-25' };

export const eraStdio = (era: Era, name = `${era}-stdio`, env: Record<string, string> = {}) =>
  fixtureStdio('eraServer.ts', name, { ERA: era, ...env });

/** Starts the fixture over HTTP on 127.0.0.1 (port 0); resolves with its URL once it listens. */
export async function startEraHttp(
  era: Era,
  env: Record<string, string> = {},
): Promise<{ url: string; config: (name?: string) => ServerConfig; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [RUN_TS, fixturePath('eraServer.ts')], {
    env: { ...process.env, ERA: era, TRANSPORT: 'http', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`era fixture exited (${code}): ${stderr}`)));
  });
  return {
    url,
    config: (name = `${era}-http`) => cfg({ name, transport: 'http', url }),
    stop: () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', () => res());
        child.kill('SIGKILL');
      }),
  };
}
