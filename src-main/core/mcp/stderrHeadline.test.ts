// The reason a server stopped, picked from its last stderr lines, and where it shows: the exit before the
// handshake names it in the error's one-line summary; the lines follow as details.
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { splitErrorDetails } from '@shared/errors';
import { connectError } from './sessionErrors';
import { looksLikeError, stderrHeadline } from './stderrHeadline';

describe('stderrHeadline', () => {
  it('prefers the last error-like line over a later notice', () => {
    expect(
      stderrHeadline([
        'Secure MCP Filesystem Server running on stdio',
        'FATAL: cannot open /data/index',
        'No valid root directories provided by the client',
      ]),
    ).toBe('FATAL: cannot open /data/index');
  });

  it('takes the exception line of a Python traceback and never a stack frame', () => {
    const py = ['Traceback (most recent call last):', '  File "server.py", line 3', 'ValueError: bad port'];
    expect(stderrHeadline(py)).toBe('ValueError: bad port');
    expect(looksLikeError('    at Object.<anonymous> (/srv/index.js:3:9) error')).toBe(false);
  });

  it('falls back to the last line, and to nothing without lines', () => {
    expect(stderrHeadline(['listening', 'ready on stdio', '  '])).toBe('ready on stdio');
    expect(stderrHeadline([])).toBeUndefined();
  });
});

describe('an exit before the handshake', () => {
  it('names the error-like line in the summary; the stderr tail stays the details', () => {
    const config = ServerConfigSchema.parse({ name: 's', command: 'node', args: ['x.js'] });
    const tail = 'Error: EADDRINUSE :::8080\nNo valid root directories provided by the client';
    const err = connectError(new Error('closed'), {
      config,
      stderrTail: tail,
      exit: { code: 1, signal: null },
    });
    const { summary, details } = splitErrorDetails(err.message);
    expect(summary).toBe(
      'The server process exited (code 1) before the MCP handshake finished: Error: EADDRINUSE :::8080',
    );
    expect(details).toBe(tail);
  });
});
