// Installing a server the way people find it (README, "Installing servers"; ARCHITECTURE.md, the install
// room): a registry name (`io.github.owner/server`, optionally `@version`), a `.mcpb` bundle file, or an
// install link. `plan` reads and checks the source and returns everything the consent shows (the exact
// command line or URL, the repository and version, the OSV verdict, the values it will ask for); nothing is
// written. `install` takes a plan by its id, unchanged since the user saw it, with the user's answers, and
// saves the server through the one add every other path uses (`core.servers.add`: keychain, file, the
// default safe set). A bundle is unpacked under the home only then.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_NAME_PATTERN, type ServerConfig, type ServerConfigInput } from '@shared/config';
import { confinementSummary, mergeSandbox, profileKindOf, sandboxProfile } from '@shared/confinement';
import type { ServerSourceKind } from '@shared/managedPolicy';
import type { InstallPlan, InstallResult, RegistrySearchPage } from '@shared/registry';
import { importGrants } from '../config/importConsent';
import { sanitizeServerName } from '../config/importEntry';
import { MooringError } from '../errors';
import { describeCommandLine } from '../safety/commandAllowlist';
import { createGuardedFetch } from '../safety/guardedFetch';
import { packagesOf } from '../safety/packageSpec';
import { maskConfig } from '../secrets/serverSecrets';
import { bundleDraft } from './bundleDraft';
import { draftCommandLine, materialize, type InstallDraft } from './installDraft';
import { linkDraft } from './linkDraft';
import { bundleDir, MAX_BUNDLE_BYTES, readBundle, unpackBundle, type McpbManifest } from './mcpbBundle';
import { osvVerdict } from './packageVerdict';
import { readCappedBytes } from '../safety/cappedBody';
import { RegistryClient } from './registryClient';
import { chooseOption, runOptions } from './registryDraft';
import { clip, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS, REGISTRY_NAME, safeLink, VERSION } from './serverJson';

/** Plans waiting for a decision; past this many the oldest is forgotten. */
export const MAX_PENDING_PLANS = 20;

export interface InstallServiceDeps {
  home: string;
  /** The registry to read (MOORING_REGISTRY_URL, the setting, or the official one). */
  registryUrl: () => string;
  osvEndpoint: () => string;
  /** The one add (services/configuredServers.ts). */
  add: (
    input: ServerConfigInput,
    opts: {
      start?: boolean;
      safeDefaults: true;
      inputValues: Record<string, string>;
      source: ServerSourceKind;
    },
  ) => Promise<ServerConfig & { safeDefaults: InstallResult['safeDefaults'] }>;
  existingNames: () => Promise<string[]>;
  /** For tests: the fetch for the registry and bundle downloads instead of a guarded one. */
  fetch?: (url: string, init?: RequestInit) => Promise<Response>;
}

interface Stored {
  plan: InstallPlan;
  draft?: InstallDraft;
  bundle?: { file: string; sha256: string; manifest: McpbManifest; downloaded: boolean };
}

const LINK = /^(mooring|cursor|vscode|vscode-insiders):/i;

/** Removes what an install unpacked for the server `name` under `home` (a bundle's folder); nothing when there is none. */
export async function removeInstalledFiles(home: string, name: string): Promise<void> {
  if (!SERVER_NAME_PATTERN.test(name)) return;
  await rm(bundleDir(home, name), { recursive: true, force: true });
}

export class InstallService {
  private readonly plans = new Map<string, Stored>();

  constructor(private readonly deps: InstallServiceDeps) {}

  registry(): RegistryClient {
    return new RegistryClient({
      baseUrl: this.deps.registryUrl(),
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
    });
  }

  search(opts: { query?: string; cursor?: string; limit?: number }): Promise<RegistrySearchPage> {
    return this.registry().search(opts);
  }

  /** Reads and checks `ref` and returns what the consent shows. Writes nothing but a downloaded bundle. */
  async plan(ref: string, opts: { name?: string; option?: number } = {}): Promise<InstallPlan> {
    const trimmed = ref.trim();
    const stored = LINK.test(trimmed)
      ? await this.planLink(trimmed)
      : /\.mcpb$/i.test(trimmed)
        ? await this.planBundleFile(trimmed)
        : await this.planRegistry(trimmed, opts.option);
    if (opts.name !== undefined) stored.plan.name = checkName(opts.name);
    if ((await this.deps.existingNames()).includes(stored.plan.name))
      stored.plan.warnings.push(
        `A server named "${stored.plan.name}" exists already; install it under another name.`,
      );
    if (stored.bundle) this.refreshBundleDraft(stored);
    this.keep(stored);
    return stored.plan;
  }

  /** Installs a plan the user consented to, with their answers. The plan is used once. */
  async install(
    id: string,
    opts: { inputs?: Record<string, string>; name?: string; start?: boolean } = {},
  ): Promise<InstallResult> {
    const stored = this.plans.get(id);
    if (!stored)
      throw new MooringError(
        'not_found',
        'This install is no longer pending; nothing was installed.',
        'Start the install again and consent to what it shows.',
      );
    const { plan } = stored;
    if (plan.osv.status === 'malicious')
      throw new MooringError(
        'vulnerable_package',
        `Not installed: ${plan.osv.text}.`,
        'Do not run this package.',
      );
    const name = opts.name !== undefined ? checkName(opts.name) : plan.name;
    if (name !== plan.name) {
      plan.name = name;
      if (stored.bundle) this.refreshBundleDraft(stored);
    }
    let unpacked: string | undefined;
    try {
      if (stored.bundle) unpacked = await this.unpack(stored.bundle, name);
      const { config, inputValues } = materialize(stored.draft!, opts.inputs ?? {}, name);
      const confined = installConfinement(
        stored.draft!,
        stored.bundle ? bundleDir(this.deps.home, name) : undefined,
      );
      const saved = await this.deps.add(
        { ...config, ...confined, origin: originOf(plan.source) },
        {
          safeDefaults: true,
          inputValues,
          source: plan.source.kind,
          ...(opts.start !== undefined ? { start: opts.start } : {}),
        },
      );
      this.forget(id);
      return {
        name: saved.name,
        commandLine: describeCommandLine(maskConfig(saved)),
        secrets: [...saved.secretEnv, ...saved.secretHeaders, ...Object.keys(inputValues)],
        warnings: plan.warnings,
        safeDefaults: saved.safeDefaults,
      };
    } catch (err) {
      if (unpacked) await rm(unpacked, { recursive: true, force: true });
      throw err;
    }
  }

  /** Forgets a plan the user declined (and a bundle downloaded for it). */
  decline(id: string): boolean {
    return this.forget(id);
  }

  /** Removes what an install unpacked for `name` (a bundle's folder); nothing when there is none. */
  removeFiles(name: string): Promise<void> {
    return removeInstalledFiles(this.deps.home, name);
  }

  // ---- sources -----------------------------------------------------------------------------------

  private async planRegistry(ref: string, option: number | undefined): Promise<Stored> {
    const at = ref.indexOf('@');
    const name = at > 0 ? ref.slice(0, at) : ref;
    const version = at > 0 ? ref.slice(at + 1) : 'latest';
    if (!REGISTRY_NAME.test(name) || (version !== 'latest' && !VERSION.test(version)))
      throw new MooringError(
        'usage',
        `"${ref}" is not a registry name (namespace/server, optionally @version), a .mcpb file or an install link.`,
        'Search the registry: mooring mcp search WORDS',
      );
    const client = this.registry();
    const server = await client.get(name, version);
    const chosen = chooseOption(server, option);
    const repository = safeLink(server.repository?.url);
    const websiteUrl = safeLink(server.websiteUrl);
    const title = clip(server.title, MAX_TITLE_CHARS);
    const base = {
      id: randomUUID(),
      source: {
        kind: 'registry' as const,
        registry: client.baseUrl,
        name: server.name,
        version: server.version,
      },
      name: sanitizeServerName(server.name.slice(server.name.indexOf('/') + 1)),
      ...(title ? { title } : {}),
      description: clip(server.description, MAX_DESCRIPTION_CHARS) ?? '',
      version: server.version,
      ...(repository ? { repository } : {}),
      ...(websiteUrl ? { websiteUrl } : {}),
      option: chosen.option,
      options: runOptions(server),
    };
    if (chosen.kind === 'bundle') {
      const file = await this.download(chosen.url, chosen.sha256, base.id, client.baseUrl);
      const info = await readBundle(file);
      return this.bundleStored(base, {
        file,
        sha256: info.sha256,
        manifest: info.manifest,
        downloaded: true,
      });
    }
    const osv = await osvVerdict(chosen.package ? [chosen.package] : [], {
      endpoint: this.deps.osvEndpoint(),
      notApplicable: 'a container image or a remote server: OSV checks npm and PyPI packages only',
    });
    return { plan: this.planOf(base, chosen.draft, osv), draft: chosen.draft };
  }

  private async planBundleFile(file: string): Promise<Stored> {
    const info = await readBundle(file);
    return this.bundleStored(
      { id: randomUUID(), source: { kind: 'bundle', file, sha256: info.sha256 }, name: '' },
      { file, sha256: info.sha256, manifest: info.manifest, downloaded: false },
    );
  }

  private async planLink(link: string): Promise<Stored> {
    const { draft, source, name, warnings } = linkDraft(link);
    const scan = draft.command
      ? packagesOf(
          draft.command,
          draft.args.flatMap((g) => g.tokens),
        )
      : { packages: [], notes: [] };
    const osv = await osvVerdict(scan.packages, { endpoint: this.deps.osvEndpoint() });
    const plan = this.planOf({ id: randomUUID(), source: { kind: 'link', link: source }, name }, draft, osv);
    plan.warnings.push(...warnings, ...scan.notes);
    return { plan, draft };
  }

  private bundleStored(
    base: Pick<InstallPlan, 'id' | 'source' | 'name'> & Partial<InstallPlan>,
    bundle: NonNullable<Stored['bundle']>,
  ): Stored {
    const m = bundle.manifest;
    const repository = safeLink(m.repository?.url) ?? base.repository;
    const websiteUrl = safeLink(m.homepage ?? undefined) ?? base.websiteUrl;
    const title = base.title ?? clip(m.display_name ?? undefined, MAX_TITLE_CHARS);
    const plan: InstallPlan = {
      ...base,
      name: base.name || sanitizeServerName(m.name),
      ...(title ? { title } : {}),
      description: clip(m.description, MAX_DESCRIPTION_CHARS) ?? '',
      version: base.version ?? m.version,
      ...(repository ? { repository } : {}),
      ...(websiteUrl ? { websiteUrl } : {}),
      transport: 'stdio',
      commandLine: '',
      inputs: [],
      confinement: '',
      osv: {
        status: 'not-applicable',
        text: `a bundle (SHA-256 ${bundle.sha256.slice(0, 16)}…): its files are checked, OSV checks npm and PyPI packages only`,
      },
      grants: [],
      warnings: [],
    };
    return { plan, bundle };
  }

  /** A bundle's draft depends on where it is unpacked, which depends on the name. */
  private refreshBundleDraft(stored: Stored): void {
    const dir = bundleDir(this.deps.home, stored.plan.name);
    const draft = bundleDraft(stored.bundle!.manifest, dir);
    const fresh = this.planOf(stored.plan, draft, stored.plan.osv, dir);
    stored.draft = draft;
    Object.assign(stored.plan, {
      commandLine: fresh.commandLine,
      inputs: fresh.inputs,
      grants: fresh.grants,
      confinement: fresh.confinement,
      transport: fresh.transport,
    });
    stored.plan.warnings = [...new Set([...stored.plan.warnings, ...draft.warnings])];
  }

  private planOf(
    base: Partial<InstallPlan> & Pick<InstallPlan, 'id' | 'source' | 'name'>,
    draft: InstallDraft,
    osv: InstallPlan['osv'],
    bundleFolder?: string,
  ): InstallPlan {
    // The same consent lines an import shows (config/importConsent.ts), names only.
    const grants = importGrants({
      env: Object.fromEntries(draft.env.map((e) => [e.key, ''])),
      headers: Object.fromEntries(draft.headers.map((h) => [h.key, ''])),
      policy: draft.extra?.policy ?? 'default',
      ...(draft.extra?.cwd ? { cwd: draft.extra.cwd } : {}),
    } as ServerConfig).map((g) => g.text);
    return {
      ...base,
      transport: draft.transport,
      commandLine: draftCommandLine(draft),
      inputs: draft.inputs,
      osv,
      grants,
      confinement: confinementSummary({
        transport: draft.transport,
        ...installConfinement(draft, bundleFolder),
      }),
      warnings: [...(base.warnings ?? []), ...draft.warnings],
    };
  }

  // ---- bundles on disk ---------------------------------------------------------------------------

  /** Downloads a registry's bundle (the registry's own host may serve it) and checks its fileSha256. */
  private async download(url: string, sha256: string, id: string, registry: string): Promise<string> {
    const guarded = this.deps.fetch ? undefined : createGuardedFetch({ typedUrl: registry });
    const doFetch = this.deps.fetch ?? guarded!;
    try {
      const res = await doFetch(url, { signal: AbortSignal.timeout(120_000) }).catch((err: unknown) => {
        if (err instanceof MooringError) throw err;
        throw new MooringError(
          'connect_failed',
          `Cannot download the bundle from ${url} (${(err as Error).message}).`,
          'Check your connection and try again.',
        );
      });
      if (!res.ok)
        throw new MooringError(
          'connect_failed',
          `Downloading the bundle from ${url} answered HTTP ${res.status}.`,
        );
      const bytes = await readCappedBytes(res, MAX_BUNDLE_BYTES);
      if (!bytes)
        throw new MooringError(
          'refused',
          `The bundle at ${url} is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB; nothing was installed.`,
        );
      const actual = createHash('sha256').update(bytes).digest('hex');
      if (actual !== sha256)
        throw new MooringError(
          'refused',
          `The bundle downloaded from ${url} is not the one the registry describes: its SHA-256 is ${actual}, the registry says ${sha256}. Nothing was installed.`,
          'Do not install it; tell the registry or the server’s author.',
        );
      const dir = join(this.deps.home, 'bundles', '.downloads');
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${id}.mcpb`);
      await writeFile(file, bytes, { mode: 0o600 });
      return file;
    } finally {
      await guarded?.close().catch(() => undefined);
    }
  }

  /** Unpacks the consented bundle into the server's folder, after checking it is the same file. */
  private async unpack(bundle: NonNullable<Stored['bundle']>, name: string): Promise<string> {
    const dir = bundleDir(this.deps.home, name);
    if (
      await stat(dir).then(
        () => true,
        () => false,
      )
    )
      throw new MooringError(
        'refused',
        `${dir} exists already; nothing was installed.`,
        'Install under another name, or remove that folder.',
      );
    const again = await readBundle(bundle.file);
    if (again.sha256 !== bundle.sha256)
      throw new MooringError(
        'refused',
        `${bundle.file} changed since you reviewed it; nothing was installed.`,
        'Start the install again.',
      );
    await unpackBundle(bundle.file, dir);
    return dir;
  }

  private keep(stored: Stored): void {
    this.plans.set(stored.plan.id, stored);
    for (const id of [...this.plans.keys()].slice(0, Math.max(0, this.plans.size - MAX_PENDING_PLANS)))
      this.forget(id);
  }

  private forget(id: string): boolean {
    const stored = this.plans.get(id);
    if (!stored) return false;
    this.plans.delete(id);
    if (stored.bundle?.downloaded) void rm(stored.bundle.file, { force: true }).catch(() => undefined);
    return true;
  }
}

/**
 * How an installed server starts confined (docs/confinement.md, "Profiles"): its runtime's profile (npx:
 * its npm cache and the npm registry; uvx: its caches and PyPI; a bundle: its own folder) plus what its
 * entry declares. A container image is not confined: its docker client needs the daemon's socket, and the
 * container is the daemon's to isolate.
 */
export function installConfinement(
  draft: InstallDraft,
  bundleFolder: string | undefined,
): Pick<ServerConfigInput, 'sandboxEnabled' | 'sandbox'> {
  if (draft.transport !== 'stdio' || draft.command === 'docker') return {};
  const args = draft.args.flatMap((g) => g.tokens);
  const kind = bundleFolder ? 'bundle' : profileKindOf(draft.command, args);
  const profile = sandboxProfile(kind, {
    platform: process.platform,
    ...(bundleFolder ? { bundleDir: bundleFolder } : {}),
  });
  return { sandboxEnabled: true, sandbox: mergeSandbox(profile, draft.extra?.sandbox) };
}

function originOf(source: InstallPlan['source']): NonNullable<ServerConfigInput['origin']> {
  if (source.kind === 'registry')
    return { kind: 'registry', name: source.name, registry: source.registry, version: source.version };
  return { kind: source.kind };
}

function checkName(name: string): string {
  if (!SERVER_NAME_PATTERN.test(name))
    throw new MooringError(
      'usage',
      `"${name}" is not a valid server name.`,
      'Use 1–64 letters, digits, "_" or "-".',
    );
  return name;
}
