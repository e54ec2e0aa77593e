// Bearer tokens for `mooring serve --http`: each token has a label (the client's identity in the
// audit log and the approval dialog) and a scope. Either one token is generated and printed once, or the
// tokens come from a file the user keeps (`--token-file`), so several clients can each get their own.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { MooringError } from '../errors';
import { ClientScopeSchema, type ClientIdentity, type ClientScope } from './clientScope';

export const MIN_TOKEN_LENGTH = 24;

const TokenSchema = z
  .object({
    label: z.string().regex(/^[\w.@ -]{1,64}$/, 'must be 1–64 letters, digits, spaces or . @ _ -'),
    token: z.string().min(MIN_TOKEN_LENGTH, `must be at least ${MIN_TOKEN_LENGTH} characters`),
    scope: ClientScopeSchema.optional(),
  })
  .strict();

export const TokenFileSchema = z
  .object({ tokens: z.array(TokenSchema).min(1, 'needs at least one token') })
  .strict();

export interface ServerToken {
  label: string;
  token: string;
  scope: ClientScope;
}

export const generateToken = (): string => randomBytes(32).toString('base64url');

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The tokens one HTTP server accepts; lookups compare digests in constant time. */
export class TokenRing {
  private readonly entries: { digest: Buffer; identity: ClientIdentity }[];

  constructor(tokens: ServerToken[]) {
    this.entries = tokens.map((t) => ({
      digest: digest(t.token),
      identity: { name: t.label, scope: t.scope },
    }));
  }

  /** The identity for an `Authorization` header value, or undefined when it is missing or unknown. */
  identify(header: string | null | undefined): ClientIdentity | undefined {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m) return undefined;
    const presented = digest(m[1]!);
    let found: ClientIdentity | undefined;
    for (const e of this.entries) if (timingSafeEqual(e.digest, presented)) found = e.identity;
    return found;
  }
}

export function parseTokenFile(text: string, file: string): ServerToken[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new MooringError(
      'config_invalid',
      `${file} is not valid JSON: ${(e as Error).message}`,
      'Write it as {"tokens": [{"label": "cursor", "token": "<32+ random characters>", "scope": {"readOnly": true}}]}.',
    );
  }
  const parsed = TokenFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MooringError(
      'config_invalid',
      `${file}: ${issue.path.join('.') || 'file'} ${issue.message}`,
      'Each token needs a label and a token of at least 24 characters; scope is optional ({"readOnly": true} and/or {"tools": [...]}).',
    );
  }
  const tokens = parsed.data.tokens.map((t) => ({ label: t.label, token: t.token, scope: t.scope ?? {} }));
  const seen = new Set<string>();
  for (const t of tokens) {
    if (seen.has(t.label))
      throw new MooringError(
        'config_invalid',
        `${file}: the label "${t.label}" is used twice`,
        'Give each client its own label.',
      );
    seen.add(t.label);
  }
  if (new Set(tokens.map((t) => t.token)).size !== tokens.length)
    throw new MooringError(
      'config_invalid',
      `${file}: two entries share one token`,
      'Give each client its own token.',
    );
  return tokens;
}

export async function readTokenFile(file: string): Promise<ServerToken[]> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new MooringError(
      'config_not_found',
      `Cannot read the token file ${file}: ${e.code ?? e.message}`,
      'Check the path given to --token-file.',
    );
  });
  return parseTokenFile(text, file);
}
