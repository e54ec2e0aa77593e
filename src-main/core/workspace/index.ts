// The workspace room: per-project servers, project config discovery with pinned approvals,
// quick config from the environment, and safe retries of read-only or idempotent tools.
export { approveWorkspaceServer, approvedServers, canonicalWorkspace, scanWorkspace } from './discovery';
export {
  describeEnvServer,
  envServer,
  ENV_SERVER_NAME,
  ENV_STDIO,
  ENV_URL,
  logMasker,
  maskForLog,
} from './envServer';
export {
  WorkspaceApprovals,
  workspaceApprovalsPath,
  workspacePin,
  type WorkspaceApproval,
} from './workspaceApprovals';
export {
  inputAccount,
  referencedInputs,
  resolveWorkspaceInputs,
  substituteStartVariables,
  type AskInput,
} from './workspaceInputs';
export {
  describeWorkspaceErrors,
  effectiveServers,
  type EffectiveServers,
  type ServerOverride,
} from './workspaceServers';
export * from './workspaceTypes';
export { formatWorkspaceScan } from './workspaceReport';
