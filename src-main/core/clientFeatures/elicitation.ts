// Elicitation (spec 2025-11-25 "Elicitation"): a server asks the user for input, as a request (2025) or inside
// an input_required round (2026-07-28; the SDK calls this same handler).
// Form mode: the UI renders the requested schema; the broker validates the answer and applies the
// schema's defaults to omitted fields (SEP-1034). URL mode: the user sees the full URL and Mooring opens
// it only after consent, and only an https URL (never auto-open, never another scheme).
import { randomUUID } from 'node:crypto';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationFormSchema } from '@shared/interactions';
import type { LogLine } from '@shared/session';
import { MooringError } from '../errors';
import { isSafeExternalUrl } from '../safety/ssrfGuard';
import type { InteractionBroker } from './interactionBroker';

export type ElicitParams = ElicitRequest['params'];

export interface ElicitationDeps {
  broker: InteractionBroker;
  /** Opens a URL in the user's browser (Electron's shell.openExternal behind the host). */
  openExternal?: (url: string) => Promise<void>;
  log: (line: LogLine) => void;
}

/** Only https links leave Mooring: http could be read or rewritten on the way. */
export function isOpenableUrl(url: string): boolean {
  return isSafeExternalUrl(url) && new URL(url).protocol === 'https:';
}

export class ElicitationService {
  constructor(private readonly deps: ElicitationDeps) {}

  /** The `elicitation/create` handler for one server's client. */
  async handle(server: string, params: ElicitParams, signal: AbortSignal): Promise<ElicitResult> {
    if (params.mode === 'url') return this.url(server, params, signal);
    this.log(server, 'info', `asks for input: ${params.message.slice(0, 120)}`);
    const answer = await this.deps.broker.request(
      {
        kind: 'elicitation-form',
        server,
        message: params.message,
        requestedSchema: params.requestedSchema as ElicitationFormSchema,
      },
      { signal },
    );
    this.log(server, 'info', `input request answered: ${answer.action}`);
    return answer.action === 'accept'
      ? { action: 'accept', content: answer.content ?? {} }
      : { action: answer.action };
  }

  private async url(
    server: string,
    params: Extract<ElicitParams, { mode: 'url' }>,
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    if (!isOpenableUrl(params.url)) {
      // Not shown at all: a dialog offering a link Mooring will not open only teaches people to click.
      this.log(server, 'warning', `declined to open a link that is not https: ${params.url}`);
      return { action: 'decline' };
    }
    if (!this.deps.openExternal) {
      this.log(server, 'warning', `cannot open links in this host; declined ${params.url}`);
      return { action: 'decline' };
    }
    const answer = await this.deps.broker.request(
      {
        kind: 'elicitation-url',
        server,
        message: params.message,
        url: params.url,
        host: new URL(params.url).host,
        // A 2026-07-28 URL request (inside an input_required round) has no id: the round itself ties the
        // answer to the call (MCP 2026-07-28, "Elicitation"). The dialog and the relay to the app need one.
        elicitationId: params.elicitationId ?? `round-${randomUUID()}`,
      },
      { signal },
    );
    if (answer.action !== 'accept') {
      this.log(server, 'info', `link not opened (${answer.action}): ${params.url}`);
      return { action: answer.action };
    }
    try {
      await this.deps.openExternal(params.url);
    } catch (err) {
      throw new MooringError(
        'internal',
        `Could not open ${params.url}: ${(err as Error).message}`,
        'Copy the link into your browser yourself.',
      );
    }
    this.log(server, 'info', `opened ${params.url} with the user's consent`);
    return { action: 'accept' };
  }

  private log(server: string, level: LogLine['level'], text: string): void {
    this.deps.log({ server, at: Date.now(), source: 'host', level, text });
  }
}
