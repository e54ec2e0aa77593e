// Test runtimes for the tool loop. `startMcpRuntime` runs a real MCP server from node_modules over
// stdio through the SDK Client; `inProcessRuntime` is a tiny runtime for the failure cases a real
// server cannot be made to produce on demand. Used by tests only; the product's runtime is
// src-main/core/agent/coreToolRuntime.ts.
import type { ToolCallEvent, ToolCallPhase } from '@shared/toolCall';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  AgentToolRuntime,
  ModelTool,
  ToolCall,
  ToolExecutionContext,
  ToolOutcome,
} from '../../src-main/core/agent/toolRuntime';

const require = createRequire(import.meta.url);

export function filesystemServerEntry(): string {
  const pkg = require.resolve('@modelcontextprotocol/server-filesystem/package.json');
  return join(dirname(pkg), 'dist', 'index.js');
}

export interface McpTestRuntime extends AgentToolRuntime {
  /** Every call that reached the server, in order. */
  calls: ToolCall[];
  close(): Promise<void>;
}

export async function startMcpRuntime(opts: { command: string; args: string[] }): Promise<McpTestRuntime> {
  const transport = new StdioClientTransport({ command: opts.command, args: opts.args, stderr: 'pipe' });
  const client = new Client({ name: 'mooring-agent-test', version: '0.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const modelTools: ModelTool[] = tools.map((t) => ({
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema as Record<string, unknown>,
  }));
  const calls: ToolCall[] = [];
  return {
    calls,
    tools: () => modelTools,
    async execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome> {
      calls.push(call);
      ctx.onPhase?.(phaseEvent(call, 'running'));
      const result = await client.callTool(
        { name: call.name, arguments: call.arguments },
        { signal: ctx.signal },
      );
      const text: string[] = [];
      const images: { mimeType: string; data: string }[] = [];
      for (const part of result.content ?? []) {
        if (part.type === 'text') text.push(part.text);
        else if (part.type === 'image') images.push({ mimeType: part.mimeType, data: part.data });
      }
      return {
        status: result.isError ? 'failed' : 'done',
        text: text.join('\n'),
        ...(images.length ? { images } : {}),
        ...(result.structuredContent ? { structured: result.structuredContent } : {}),
      };
    },
    close: () => client.close(),
  };
}

let seq = 0;
/** A lifecycle event of a test runtime's call (the server and tool are the call's name). */
export function phaseEvent(
  call: ToolCall,
  phase: ToolCallPhase,
  extra: Partial<ToolCallEvent> = {},
): ToolCallEvent {
  return {
    id: call.id,
    seq: ++seq,
    server: 'test',
    tool: call.name,
    modelName: call.name,
    friendlyName: call.name,
    phase,
    at: Date.now(),
    ...extra,
  };
}

export type InProcessHandler = (
  args: Record<string, unknown>,
  ctx: ToolExecutionContext & { call: ToolCall },
) => Promise<ToolOutcome> | ToolOutcome;

export function inProcessRuntime(
  handlers: Record<string, InProcessHandler>,
): AgentToolRuntime & { calls: ToolCall[] } {
  const calls: ToolCall[] = [];
  return {
    calls,
    tools: () =>
      Object.keys(handlers).map((name) => ({
        name,
        description: `test tool ${name}`,
        inputSchema: { type: 'object', properties: {}, additionalProperties: true },
      })),
    async execute(call, ctx) {
      calls.push(call);
      const handler = handlers[call.name];
      if (!handler) return { status: 'failed', text: `there is no tool named "${call.name}"` };
      ctx.onPhase?.(phaseEvent(call, 'running'));
      return handler(call.arguments, { ...ctx, call });
    },
  };
}
