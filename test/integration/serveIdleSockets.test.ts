// `mooring serve --http` under a low file limit (serve/httpServer.ts, HEADERS_DEADLINE_MS): connections that
// never send a request head are closed after a few seconds, so hundreds of them cannot hold every file
// descriptor and starve the one client with the token. The real CLI, its limit lowered with `ulimit -n`.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/servers';
import { initializeBody, postMcp, serveCommandLine } from './serverHelpers';

const FILE_LIMIT = 256;
const IDLE_SOCKETS = 400;

describe('serve --http and idle sockets', () => {
  const children: { kill: (s: NodeJS.Signals) => boolean }[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGTERM')));

  it('closes sockets that send nothing, and the token holder is served after them', async () => {
    const home = tempDir('mooring-idle-sockets-');
    const cmd = [process.execPath, ...serveCommandLine(), 'serve', '--http', '0', '--json']
      .map((a) => `'${a}'`)
      .join(' ');
    const child = spawn('bash', ['-c', `ulimit -n ${FILE_LIMIT} && exec ${cmd}`], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const first = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      child.on('close', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
    });
    const { url, token } = JSON.parse(first) as { url: string; token: string };
    const port = Number(new URL(url).port);

    // More sockets than the server has file descriptors, none sending a byte.
    const closed = Array.from({ length: IDLE_SOCKETS }, () => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      return new Promise<void>((resolve) => socket.once('close', () => resolve()));
    });
    await Promise.all(closed); // each one closed by the server: at once when it had no descriptor, else at its deadline

    const reply = await postMcp(url, initializeBody(1), { authorization: `Bearer ${token}` });
    expect(reply.status, stderr).toBe(200);
  });
});
