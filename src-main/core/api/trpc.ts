// The tRPC instance for the one router between the core and any UI (ARCHITECTURE.md, `api/`).
// Errors cross as data: every error shape carries `{ code, message, hint }` from MooringError
// (never a thrown exception that Electron's IPC flattens to a string).
import { initTRPC } from '@trpc/server';
import { ZodError } from 'zod';
import type { ErrorData } from '@shared/errors';
import { MooringError, toErrorData } from '../errors';
import type { ApiContext } from './context';

/** What `shape.data.mooring` holds on every error the router returns. */
export type ApiErrorData = ErrorData;

function mooringErrorOf(error: { cause?: unknown; message: string; code: string }): ErrorData {
  const cause = error.cause;
  if (cause instanceof MooringError) return cause.toData();
  if (cause instanceof ZodError) {
    const issue = cause.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'input';
    return {
      code: 'usage',
      message: `Invalid ${where}: ${issue?.message ?? 'not accepted'}`,
      hint: 'Correct the highlighted field and try again.',
    };
  }
  if (error.code === 'NOT_FOUND') return { code: 'not_found', message: error.message };
  return toErrorData(cause ?? error);
}

const t = initTRPC.context<ApiContext>().create({
  errorFormatter({ shape, error }) {
    const mooring = mooringErrorOf(error);
    return { ...shape, message: mooring.message, data: { ...shape.data, stack: undefined, mooring } };
  },
  sse: {
    // Keep idle SSE streams alive through proxies and let the client notice a dead server.
    ping: { enabled: true, intervalMs: 15_000 },
    client: { reconnectAfterInactivityMs: 40_000 },
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
