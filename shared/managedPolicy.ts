// The managed policy as the app and the CLI show it (docs/managed-policy.md); the core reads and enforces
// it (src-main/core/confine/managedPolicy.ts).

/** How a server came to be added: the managed policy's `registryOnly` lets only `registry` through. */
export type ServerSourceKind = 'form' | 'cli' | 'import' | 'link' | 'registry' | 'bundle' | 'workspace';

export interface ManagedPolicyView {
  /** Where the policy file is looked for. */
  file: string;
  /** A policy file is there (valid or not). */
  active: boolean;
  managedBy?: string;
  /** Why the file cannot be used (then nothing is added or started). */
  error?: string;
  /** Each rule in one sentence. */
  rules: string[];
  /** Settings the policy fixes: the app shows them locked. */
  locks?: { yolo?: boolean; alwaysAllow?: boolean; confinementRequired?: boolean; registryUrl?: string };
}
