// Tool filters and tool sets (ARCHITECTURE.md, `catalog/`). Per server: `includeTools` (when
// set, only those run) and `excludeTools` (always wins), bare tool names as in shared/config.ts.
// Tool sets: a named selection of model names across servers.

import type { Tool } from '@modelcontextprotocol/client';
import { hintsReadOnly } from '@shared/approval';
import { isAppOnly } from './toolVisibility';

export interface ServerToolFilter {
  includeTools?: string[] | undefined;
  excludeTools?: string[] | undefined;
}

/** A named selection of tools across servers, e.g. "Code Reviewer". */
export interface ToolSet {
  name: string;
  /** Model names (`mcp__server__tool`). */
  tools: string[];
}

/** Why a tool is off, or undefined when the server's filter lets it run. */
export function serverFilterReason(tool: string, filter: ServerToolFilter): string | undefined {
  if (filter.excludeTools?.includes(tool)) return 'listed in excludeTools';
  if (filter.includeTools && !filter.includeTools.includes(tool)) return 'not listed in includeTools';
  return undefined;
}

/**
 * Why the server's own config keeps a tool off (the server disabled, the new-tool quarantine, its filter),
 * and what to do about it: each hint names the command that turns the tool on (it also ends a quarantine).
 */
export function serverExclusion(
  server: string,
  tool: string,
  filter: ServerToolFilter & { enabled?: boolean | undefined; held?: readonly string[] | undefined },
): { reason: string; hint: string } | undefined {
  if (filter.enabled === false)
    return {
      reason: 'the server is disabled',
      hint: `Enable the server: mooring mcp enable ${server} (in the app: Servers).`,
    };
  const turnOn = `mooring mcp tools ${server} --enable ${tool}`;
  if (filter.held?.includes(tool))
    return {
      reason:
        'it is new since the server was first seen and not marked read-only, so it is held back until you turn it on',
      hint: `Review it, then turn it on: ${turnOn} (in the app: Tools).`,
    };
  const filtered = serverFilterReason(tool, filter);
  if (filtered) return { reason: filtered, hint: `Turn it on: ${turnOn} (in the app: Tools).` };
  return undefined;
}

export function toolSetReason(modelName: string, set: ToolSet | undefined): string | undefined {
  if (!set || set.tools.includes(modelName)) return undefined;
  return `not in tool set "${set.name}"`;
}

export interface AnnotationFlags {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/**
 * Annotation hints with the spec's defaults (MCP 2025-11-25, ToolAnnotations): readOnlyHint
 * false, destructiveHint true, idempotentHint false, openWorldHint true. destructive and idempotent
 * are only meaningful for a tool that is not read-only.
 */
export function annotationFlags(tool: Pick<Tool, 'annotations'>): AnnotationFlags {
  const a = tool.annotations ?? {};
  const readOnly = hintsReadOnly(a);
  return {
    readOnly,
    destructive: !readOnly && a.destructiveHint !== false,
    idempotent: readOnly || a.idempotentHint === true,
    openWorld: a.openWorldHint !== false,
  };
}

export interface DefaultSafeSet {
  /** The initial `excludeTools` for the server's config. */
  excludeTools: string[];
  disabledCount: number;
  /** "3 destructive tools disabled by default", or undefined when none are. */
  message: string | undefined;
}

/**
 * The default safe set for a newly enabled server (README.md, Safety): read-only tools on, tools that may be
 * destructive off. A tool without hints counts as possibly destructive (spec defaults); a tool that
 * says `readOnlyHint: false, destructiveHint: false` only adds things and stays on.
 */
export function defaultExcludeTools(
  tools: readonly Pick<Tool, 'name' | 'annotations' | '_meta'>[],
): DefaultSafeSet {
  // A tool for views only is never offered to a model, so a switch for models means nothing to it: each
  // view's call of it goes through the gate (apps/appViews.ts, docs/mcp-apps.md, "MCP Apps", Act).
  const excludeTools = tools
    .filter((t) => annotationFlags(t).destructive && !isAppOnly(t))
    .map((t) => t.name);
  const n = excludeTools.length;
  return {
    excludeTools,
    disabledCount: n,
    message: n ? `${n} destructive tool${n === 1 ? '' : 's'} disabled by default` : undefined,
  };
}
