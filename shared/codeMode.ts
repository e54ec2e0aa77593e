// Code mode's step, as the conversation keeps it and the chat shows it (docs/code-mode.md): the program
// the model wrote, each tool call it made (a nested row: arguments, result, duration, outcome), what it
// printed and returned, and how it ended.
import type { ReadOrigin } from './dataFlow';

/** The built-in tool whose argument is a program over the conversation's tools. */
export const RUN_CODE_TOOL = 'run_code';

export interface ProgramCall {
  /** The call's id (the run_code call's id, a dot, its number): its lifecycle events carry it. */
  id: string;
  /** The name the program called. */
  name: string;
  target?: { server: string; tool: string; friendlyName: string };
  arguments: Record<string, unknown>;
  status: 'done' | 'failed' | 'refused';
  /** The result's text, or why it failed or was refused (cut at PROGRAM_CALL_TEXT characters). */
  text: string;
  ms: number;
  /** The arguments it ran with, edited by the person before approving. */
  editedArguments?: Record<string, unknown>;
  /** Where its result came from: later calls' flows count it (docs/trust.md). */
  origin?: ReadOrigin;
  /**
   * How many images it returned: they are kept on the step (`ToolChatMessage.images`, for the gallery) in
   * the order of the calls, so the card shows each call's own.
   */
  images?: number;
}

export interface ProgramStep {
  code: string;
  calls: ProgramCall[];
  printed: string;
  /** The program's return value as text (strings as they are, the rest as JSON). */
  returned?: string;
  /** How it ended when it did not finish: a limit, an exception, a cancel. */
  error?: { kind: string; message: string };
  /** Time the program itself ran, tools excluded. */
  cpuMs: number;
}

/** Characters of one nested call's result kept in the step (the model never reads these). */
export const PROGRAM_CALL_TEXT = 4_000;
