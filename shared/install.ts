// Install links (mooring://install, and Cursor's and VS Code's MCP install links) as the consent screen
// sees them: the parsed entry or why the link is wrong. The core parses (src-main/core/install/); these
// shapes cross the bridge.
import type { ServerConfig } from './config';

export type InstallLinkSource = 'mooring' | 'cursor' | 'vscode';

export type InstallLinkResult =
  | {
      ok: true;
      source: InstallLinkSource;
      /** The server entry, validated, defaults filled in. */
      server: ServerConfig;
      /** Set when the link's name was not a valid server name. */
      renamedFrom?: string;
      /** Fields the link carried that Mooring does not take, `${input:…}` it will ask for, and similar. */
      warnings: string[];
    }
  | { ok: false; error: string; hint: string };

export interface InstallLinkOffer {
  id: string;
  /** ISO time the link arrived. */
  receivedAt: string;
  /** The parsed link: a validated server entry, or why the link is wrong. The raw link is not kept. */
  result: InstallLinkResult;
}
