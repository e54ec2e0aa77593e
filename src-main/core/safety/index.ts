// The safety room's public API (ARCHITECTURE.md, "The core, by room"). Other rooms import from here, not from the files inside.
export { decide, type DecideInput } from './approvalPolicy';
export {
  canonicalJson,
  diffTools,
  serverIdentity,
  sha256Hex,
  snapshotTool,
  toolFingerprint,
  type FingerprintedTool,
  type ServerIdentity,
  type ToolSnapshot,
} from './toolFingerprint';
export { ApprovalStore, approvalsPath, type ApprovalEntry } from './approvalStore';
export { newToolsToDisable, type ListedTool } from './newToolPolicy';
export {
  ApprovalBroker,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  type ApprovalBrokerEvents,
  type ApprovalBrokerOptions,
  type ApprovalResolved,
} from './approvalBroker';
export { authorizeCall, type GateCall, type GateDeps, type GateResult } from './approvalGate';
export { AuditLog, AuditEntrySchema, summariseArgs, type AuditEntry, type AuditInput } from './auditLog';
export {
  ALLOWED_RUNTIMES,
  checkCommandAllowed,
  checkRuntimeLocation,
  describeCommandLine,
  runtimeOf,
  type Runtime,
} from './commandAllowlist';
export {
  packagesOf,
  parseNpmSpec,
  parsePypiSpec,
  type Ecosystem,
  type PackageRef,
  type PackageScan,
} from './packageSpec';
export {
  checkServerPackages,
  queryOsv,
  DEFAULT_OSV_ENDPOINT,
  DEFAULT_OSV_TIMEOUT_MS,
  type OsvAdvisory,
  type OsvFinding,
  type OsvOptions,
  type OsvReport,
} from './osvCheck';
export { classifyAddress, isIpLiteral, type AddressClass, type AddressInfo } from './ipRanges';
export {
  checkAddresses,
  checkUrl,
  isLocalhostName,
  isSafeExternalUrl,
  METADATA_HOSTNAMES,
  normaliseHost,
  ssrfPolicyOf,
  systemResolver,
  type ResolverHook,
  type SsrfPolicy,
  type UrlCheck,
} from './ssrfGuard';
export {
  createGuardedFetch,
  createGuardedLookup,
  DEFAULT_MAX_REDIRECTS,
  type GuardedFetch,
  type GuardedFetchOptions,
} from './guardedFetch';
export { maskUrl, redactText, REDACTED, SecretRedactor } from './redact';
export { fetchFollowingRedirects, type Hop, type SendHop } from './redirects';
