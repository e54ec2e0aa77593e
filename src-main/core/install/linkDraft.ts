// An install link (installLink.ts parses it, through the import's checks) as an install draft: the link's
// server entry, each VS Code `${input:ID}` it uses as a value to ask for (a link cannot declare its inputs,
// so each is asked as a secret and kept in the keychain), and the settings a link may carry. A web page
// never reads Mooring's own environment: a `${env:NAME}` reference would hand Mooring's variables to the
// server, so such a link is refused.
import type { ServerConfig } from '@shared/config';
import type { InstallLinkSource } from '@shared/install';
import type { InstallInput } from '@shared/registry';
import { MooringError } from '../errors';
import { configVariables } from '../secrets/configVariables';
import { inputReferences } from '../secrets/serverSecrets';
import type { InstallDraft } from './installDraft';
import { parseInstallLink } from './installLink';

export interface LinkDraft {
  draft: InstallDraft;
  source: InstallLinkSource;
  name: string;
  warnings: string[];
}

export function linkDraft(link: string): LinkDraft {
  const result = parseInstallLink(link);
  if (!result.ok)
    throw new MooringError(
      'config_invalid',
      `This install link cannot be used: ${result.error}.`,
      result.hint,
    );
  const s: ServerConfig = result.server;
  // The import's reader of variables (secrets/configVariables.ts): a link may refer to none it would expand.
  if (configVariables(s).some((v) => v.expanded))
    throw new MooringError(
      'refused',
      'This install link refers to Mooring’s own environment (${env:…}), which would hand your environment variables to the server. Nothing was installed.',
      'Add the server by hand if you trust it, and give it only the values it needs.',
    );
  const warnings = [...result.warnings];
  if (s.trust) warnings.push('The link asked to trust its command; a link never sets that.');
  if (s.policy === 'trust-all')
    warnings.push('The link asked to run every tool without asking; a link never sets that.');
  if (s.sandboxEnabled === false)
    warnings.push(
      'The link asked to run unconfined; an installed server starts confined (turn it off later if you must).',
    );
  if (s.allowPrivateNetwork || s.allowLinkLocalHosts?.length)
    warnings.push('The link asked to reach private or link-local addresses; a link never sets that.');
  const inputs: InstallInput[] = inputReferences(s).map((id) => ({
    id,
    label: `input ${id}`,
    secret: true,
    required: true,
  }));
  const draft: InstallDraft = {
    transport: s.transport,
    ...(s.command ? { command: s.command } : {}),
    args: s.args.map((a) => ({ tokens: [a] })),
    env: Object.entries(s.env).map(([key, value]) => ({ key, value })),
    headers: Object.entries(s.headers).map(([key, value]) => ({ key, value })),
    ...(s.url ? { url: s.url } : {}),
    inputs,
    warnings: [],
    extra: {
      ...(s.cwd ? { cwd: s.cwd } : {}),
      timeoutSeconds: s.timeoutSeconds,
      maxMessageMB: s.maxMessageMB,
      ...(s.includeTools ? { includeTools: s.includeTools } : {}),
      excludeTools: s.excludeTools,
      ...(s.policy !== 'trust-all' ? { policy: s.policy } : {}),
      // What the link's entry declares for its confinement; it runs confined whatever the link says.
      ...(s.sandbox ? { sandbox: s.sandbox } : {}),
    },
  };
  return { draft, source: result.source, name: s.name, warnings };
}
