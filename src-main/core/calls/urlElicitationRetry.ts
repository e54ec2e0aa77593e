// A call the server will not run until the person finished a browser flow (MCP 2025-11-25 "Elicitation",
// URL Elicitation Required Error, -32042): instead of failing the call, Mooring asks consent for each
// flow's link (https only), waits until each is complete, and runs the call again ("Client MAY retry the
// original request"). A server that keeps asking is stopped after a few rounds.
import type { UrlElicitationWait } from '@shared/toolCall';
import { MooringError } from '../errors';
import { requiredUrlElicitations, type RequiredUrlElicitation } from '../mcp/urlElicitationError';

/** Consent, open, and wait for completion (clientFeatures/urlElicitations.ts implements it). */
export interface UrlElicitationPort {
  satisfy(
    server: string,
    flows: RequiredUrlElicitation[],
    opts: { signal?: AbortSignal; onWaiting: (waits: UrlElicitationWait[]) => void },
  ): Promise<void>;
}

/** Flows one call may ask for before Mooring stops running it again. */
export const MAX_URL_ELICITATION_ROUNDS = 3;

export interface UrlElicitationOptions {
  server: string;
  tool: string;
  port?: UrlElicitationPort | undefined;
  signal?: AbortSignal | undefined;
  onWaiting: (waits: UrlElicitationWait[]) => void;
}

export async function withUrlElicitation<T>(run: () => Promise<T>, opts: UrlElicitationOptions): Promise<T> {
  let failure: unknown;
  try {
    return await run();
  } catch (err) {
    failure = err;
  }
  return afterUrlElicitationError(failure, run, opts);
}

/**
 * What `withUrlElicitation` does once a first run failed with `err`: for a caller that made the first
 * run itself (the tool-call runner, which makes no closure for a call that succeeds). Not a -32042 error:
 * `err` is thrown as it is.
 */
export async function afterUrlElicitationError<T>(
  err: unknown,
  run: () => Promise<T>,
  opts: UrlElicitationOptions,
): Promise<T> {
  for (let round = 1; ; round++) {
    const flows = requiredUrlElicitations(err);
    if (!flows) throw err;
    const where = `${opts.server}/${opts.tool}`;
    if (!opts.port)
      throw new MooringError(
        'refused',
        `${where} needs you to finish a step in a browser first, at ${hostsOf(flows)}, which this host cannot open`,
        'Use the Mooring app or `mooring web`, where the link can be opened with your consent.',
        { cause: err },
      );
    if (round > MAX_URL_ELICITATION_ROUNDS)
      throw new MooringError(
        'protocol_error',
        `${where} asked again for a step in the browser after ${MAX_URL_ELICITATION_ROUNDS} rounds; Mooring stopped running it`,
        'Finish the step in your browser, then call the tool again.',
        { cause: err },
      );
    await opts.port.satisfy(opts.server, flows, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      onWaiting: opts.onWaiting,
    });
    try {
      return await run();
    } catch (again) {
      err = again;
    }
  }
}

/** Where the flows send the person, by host: what a person judges a link by. */
function hostsOf(flows: RequiredUrlElicitation[]): string {
  const hosts = flows.map((f) => {
    try {
      return new URL(f.url).host;
    } catch {
      return 'an address that is not a valid URL';
    }
  });
  return [...new Set(hosts)].join(', ');
}
