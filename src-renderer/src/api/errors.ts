// Errors arrive as data (`shape.data.mooring`: code, message, hint); this reads them back for display.
import { TRPCClientError } from '@trpc/client';

export interface ShownError {
  code: string;
  message: string;
  hint?: string;
}

export function errorOf(err: unknown): ShownError | undefined {
  if (!err) return undefined;
  if (err instanceof TRPCClientError) {
    const m = (err.data as { mooring?: ShownError } | undefined)?.mooring;
    if (m) return m;
    return { code: 'internal', message: err.message };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}
