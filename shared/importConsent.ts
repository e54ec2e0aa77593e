// What the consent to an import shows for each server (README, "Safety"): beside its command line or URL,
// every setting that widens what it may do (by name, never a value), and the settings the file had that an
// import never carries. The CLI prints these; the app's import dialog renders them.

/** A setting of an imported server that widens what it may do beyond running its command. */
export interface ImportGrant {
  field: 'cwd' | 'workspaceFolder' | 'env' | 'headers' | 'policy' | 'trust' | 'allowPrivateNetwork';
  /** One line for the consent, e.g. "environment variables: API_URL, NODE_OPTIONS". */
  text: string;
}

/** A setting the file had that an import drops; the user turns it on afterwards, one server at a time. */
export interface ImportDropped {
  field: string;
  /** One line for the consent, e.g. 'policy "trust-all" (every tool runs without asking)'. */
  text: string;
}

/**
 * A variable an imported or project-folder server refers to, with where its value would go
 * (docs/config-variables.md). Shown at consent, never with its value.
 */
export interface ConfigVariable {
  name: string;
  /** `env`: `${env:NAME}`, which Mooring expands at start; `braced` `${NAME}` and `bare` `$NAME` are sent as written. */
  syntax: 'env' | 'braced' | 'bare';
  /** Where the value goes: "header Authorization, sent to docs.example.com", "argument 2 of the command node". */
  where: string;
  /** Mooring puts the variable's value there at start. */
  expanded: boolean;
  /** Its name looks secret (or it is a `*_URL` whose value carries credentials). */
  secret: boolean;
  /** A secret bound for a remote server's URL or headers, not allowed: the server does not start with it. */
  held: boolean;
  /** A secret bound for a remote server that the person allowed for it. */
  allowed?: boolean;
}

/** One line for a consent: "GITHUB_TOKEN (${env:…}) → header Authorization, sent to docs.example.com: held back". */
export function describeVariable(v: ConfigVariable): string {
  const form =
    v.syntax === 'env' ? `\${env:${v.name}}` : v.syntax === 'braced' ? `\${${v.name}}` : `$${v.name}`;
  const state = v.held
    ? ': held back (looks secret; not sent unless you allow it for this server)'
    : v.allowed
      ? ': allowed for this server'
      : !v.expanded
        ? ' (sent as written: Mooring does not expand this form)'
        : v.secret
          ? ' (looks secret)'
          : '';
  return `${v.name} (${form}) → ${v.where}${state}`;
}
