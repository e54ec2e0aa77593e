// Prompts (MCP 2025-11-25 "Prompts"): each server's prompts become slash commands in the
// composer; choosing one calls `prompts/get` with the arguments the user filled in.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import { completeArgument } from './resources';
import { offers, runningSession, type ServerSession } from './serverSession';

export interface SlashCommand {
  /** What the user types after `/`: the prompt's name, or `server.name` when two servers share it. */
  command: string;
  server: string;
  prompt: Prompt;
}

/** The server's prompts; none when it does not offer prompts. */
export async function listPrompts(session: ServerSession): Promise<Prompt[]> {
  if (!offers(session).prompts) return [];
  return (await session.requests.listPrompts()).prompts;
}

/** Every ready session's prompts as slash commands; a session that fails to list is skipped. */
export async function slashCommands(sessions: ServerSession[]): Promise<SlashCommand[]> {
  const lists = await Promise.all(
    sessions
      .filter((s) => s.requests.capabilities())
      .map(async (s) => ({ server: s.name, prompts: await listPrompts(s).catch(() => [] as Prompt[]) })),
  );
  const seen = new Map<string, number>();
  for (const l of lists) for (const p of l.prompts) seen.set(p.name, (seen.get(p.name) ?? 0) + 1);
  return lists.flatMap((l) =>
    l.prompts.map((prompt) => ({
      command: (seen.get(prompt.name) ?? 0) > 1 ? `${l.server}.${prompt.name}` : prompt.name,
      server: l.server,
      prompt,
    })),
  );
}

/** `prompts/get` with the user's arguments; a missing required argument is named before the server sees it. */
export async function getPrompt(
  session: ServerSession,
  name: string,
  args: Record<string, string> = {},
): Promise<GetPromptResult> {
  const prompt = (await listPrompts(session)).find((p) => p.name === name);
  if (!prompt)
    throw new MooringError(
      'not_found',
      `"${session.name}" has no prompt named "${name}".`,
      'Type / in the composer to see the prompts each server offers.',
    );
  const missing = (prompt.arguments ?? [])
    .filter((a) => a.required && !args[a.name]?.trim())
    .map((a) => a.name);
  if (missing.length)
    throw new MooringError(
      'usage',
      `The prompt "${name}" needs ${missing.map((m) => `"${m}"`).join(', ')}.`,
      'Fill in the required fields of the prompt form.',
    );
  return session.requests.getPrompt({ name, arguments: args });
}

/** The composer's prompts over the live sessions: one object the core hands out. */
export class PromptsService {
  constructor(
    private readonly sessions: { list(): ServerSession[]; get(name: string): ServerSession | undefined },
  ) {}

  /** Every ready server's prompts, as `/command`s. */
  commands(): Promise<SlashCommand[]> {
    return slashCommands(this.sessions.list());
  }

  /** Suggestions for one argument of a prompt's form (MCP 2025-11-25 "Completion", `ref/prompt`). */
  complete(
    server: string,
    input: { name: string; argument: { name: string; value: string }; context?: Record<string, string> },
  ): Promise<{ values: string[]; hasMore: boolean }> {
    return completeArgument(this.session(server), {
      ref: { type: 'ref/prompt', name: input.name },
      argument: input.argument,
      ...(input.context ? { context: input.context } : {}),
    });
  }

  /** `prompts/get` on one server with the form's arguments. */
  async get(server: string, name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return getPrompt(this.session(server), name, args);
  }

  /** One server's prompts, for `mooring mcp prompts NAME` and a server's page. */
  list(server: string): Promise<Prompt[]> {
    return listPrompts(this.session(server));
  }

  private session(server: string): ServerSession {
    return runningSession(this.sessions, server);
  }
}
