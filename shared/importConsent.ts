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
