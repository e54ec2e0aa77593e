// A bundle's files under the home (docs/install.md, "Installing a server"): a registry's bundle downloaded
// into `bundles/.downloads/` while it waits for consent, checked against the registry's `fileSha256`; the
// consented bundle unpacked into `bundles/<server name>/` after checking it is still the file the person
// reviewed; and that folder removed with its server.
import { createHash } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_NAME_PATTERN } from '@shared/config';
import { MooringError } from '../errors';
import { readCappedBytes } from '../safety/cappedBody';
import { createGuardedFetch } from '../safety/guardedFetch';
import { bundleDir, MAX_BUNDLE_BYTES, readBundle, unpackBundle } from './mcpbBundle';

/** A bundle file as the person reviewed it. */
export interface ConsentedBundle {
  file: string;
  sha256: string;
}

/** How long a registry's bundle may take to download. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** Downloads a registry's bundle (the registry's own host may serve it) and checks its fileSha256. */
export async function downloadBundle(opts: {
  home: string;
  url: string;
  sha256: string;
  /** The plan's id: the file's name while it waits. */
  id: string;
  registry: string;
  /** For tests: the fetch to use instead of a guarded one. */
  fetch?: (url: string, init?: RequestInit) => Promise<Response>;
}): Promise<string> {
  const { url, sha256 } = opts;
  const guarded = opts.fetch ? undefined : createGuardedFetch({ typedUrl: opts.registry });
  const doFetch = opts.fetch ?? guarded!;
  try {
    const res = await doFetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) }).catch(
      (err: unknown) => {
        if (err instanceof MooringError) throw err;
        throw new MooringError(
          'connect_failed',
          `Cannot download the bundle from ${url} (${(err as Error).message}).`,
          'Check your connection and try again.',
        );
      },
    );
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
    const dir = join(opts.home, 'bundles', '.downloads');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${opts.id}.mcpb`);
    await writeFile(file, bytes, { mode: 0o600 });
    return file;
  } finally {
    await guarded?.close().catch(() => undefined);
  }
}

/** Unpacks the consented bundle into the server's folder, after checking it is the same file. */
export async function unpackConsented(home: string, bundle: ConsentedBundle, name: string): Promise<string> {
  const dir = bundleDir(home, name);
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

/** Removes what an install unpacked for the server `name` under `home` (a bundle's folder); nothing when there is none. */
export async function removeInstalledFiles(home: string, name: string): Promise<void> {
  if (!SERVER_NAME_PATTERN.test(name)) return;
  await rm(bundleDir(home, name), { recursive: true, force: true });
}
