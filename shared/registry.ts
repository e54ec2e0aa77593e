// Installing a server the way people find it (README, "Installing servers"): from an MCP registry, a
// `.mcpb` bundle or an install link. The core reads and checks every source (src-main/core/install/); these
// shapes cross the bridge to the Browse screen and the install consent. Every string in them that came from
// a registry, a bundle or a link is untrusted: the UI shows it as text, escaped, never as markup.
import type { InstallLinkSource } from './install';

/** How one option of a registry entry runs. */
export type RunKind = 'npm' | 'pypi' | 'oci' | 'mcpb' | 'streamable-http' | 'sse';

/** One way an entry can run (a package or a remote), or why Mooring cannot use it. */
export interface RunOption {
  kind: RunKind | 'unsupported';
  /** e.g. "npm @scope/pkg 1.2.0", "remote https://example.com/mcp", "cargo (not supported)". */
  label: string;
  /** Set when Mooring cannot install this option, saying why. */
  unsupported?: string;
}

/** One server in a registry's search results. */
export interface RegistryServerSummary {
  /** The registry name, e.g. `io.github.owner/server` (validated). */
  name: string;
  title?: string;
  /** At most a few hundred characters; the details carry no more (a registry description is short). */
  description: string;
  version: string;
  options: RunOption[];
  repository?: string;
  websiteUrl?: string;
}

export interface RegistrySearchPage {
  /** The registry asked (its base URL). */
  registry: string;
  servers: RegistryServerSummary[];
  nextCursor?: string;
  /** Entries the registry returned that Mooring did not list, each with why. */
  skipped: string[];
}

/** A value the install asks for: an environment variable, a header, an argument, a URL or bundle setting. */
export interface InstallInput {
  /** Unique within the plan, e.g. `env.API_KEY`, `header.Authorization`, `arg.2`, `url.tenant`, `user_config.root`. */
  id: string;
  /** What it is, for the label: "environment variable API_KEY", "header Authorization". */
  label: string;
  description?: string;
  /** Kept in the keychain, never in a file or a log. */
  secret: boolean;
  required: boolean;
  default?: string;
  /** The value must be one of these. */
  choices?: string[];
  format?: 'string' | 'number' | 'boolean' | 'filepath' | 'directory' | 'file';
}

/** What the OSV package check says about the package an install runs. */
export interface OsvVerdict {
  status: 'clean' | 'vulnerable' | 'malicious' | 'unchecked' | 'not-applicable';
  /** One line for the consent, e.g. "no known vulnerabilities in @scope/pkg@1.2.0 (npm)". */
  text: string;
}

export type InstallSource =
  | { kind: 'registry'; registry: string; name: string; version: string }
  | { kind: 'bundle'; file: string; sha256: string }
  | { kind: 'link'; link: InstallLinkSource };

/** Everything the consent shows before anything is written; installed only by its id, unchanged. */
export interface InstallPlan {
  id: string;
  source: InstallSource;
  /** The server name it will be saved under (a valid Mooring name). */
  name: string;
  title?: string;
  description?: string;
  version?: string;
  repository?: string;
  websiteUrl?: string;
  /** The option of a registry entry this plan runs, and the others it offers. */
  option?: RunOption;
  options?: RunOption[];
  transport: 'stdio' | 'http' | 'sse';
  /** The exact command line or URL; values still to be given appear as `${input:ID}`. */
  commandLine: string;
  inputs: InstallInput[];
  osv: OsvVerdict;
  /** Settings it asks for beyond its command line (working directory, environment and header names). */
  grants: string[];
  /** What it will be able to write and reach once installed, or that it runs unconfined (shared/confinement.ts). */
  confinement: string;
  warnings: string[];
}

/** What an install did. */
export interface InstallResult {
  name: string;
  /** The command line or URL as saved (secrets masked). */
  commandLine: string;
  /** Keychain entries written: environment variables, headers and other values kept secret. */
  secrets: string[];
  warnings: string[];
  /**
   * What the default safe set did, as for every add (README, "Safety"): its destructive tools turned off
   * ("3 destructive tools disabled by default"), or pending until the server first connects.
   */
  safeDefaults: { disabledCount: number; message?: string; pending?: boolean };
}
