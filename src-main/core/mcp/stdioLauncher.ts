// The seam a stdio server's spawn goes through (ARCHITECTURE.md, "Rooms and what they may import"): a
// launcher may wrap the command line (the confine room runs it inside its sandbox) and owns what it started
// for that run until the process has exited. Declared here, by the session room that spawns; the confine
// room implements it, so sessions never import it.
import type { ServerConfig } from '@shared/config';

/** What a stdio server is started with. */
export interface StdioCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** The command line to spawn, and the end of what the launcher set up for it. */
export interface LaunchedCommand extends StdioCommand {
  /** Called once, when the process has exited (or was never started) and the transport is done with it. */
  release(): void;
}

export interface StdioLauncher {
  /**
   * The command line to spawn for one start of `config`, or a MooringError saying why it may not start.
   * `note` adds a line to the server's log next to its stderr (what the launcher refused, and why).
   */
  launch(config: ServerConfig, command: StdioCommand, note: (line: string) => void): Promise<LaunchedCommand>;
}
