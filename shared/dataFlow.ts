// Where a conversation's data may go (docs/trust.md, "Conversations remember what they read"). Every tool
// result carries its origin: the server and tool, whether the tool is open-world (MCP spec, "Tool
// annotations": openWorldHint, true unless false), and the trust labels the server put in the result's
// `_meta` under the `io.modelcontextprotocol/trust-annotations` extension (`untrusted`, `sensitive`; a
// content block's labels add to the result's, never take away). A call that can carry what the
// conversation read from one server to another is a flow; the gate asks about it, naming it.

/** The `_meta` key of the trust-annotations extension. */
export const TRUST_ANNOTATIONS = 'io.modelcontextprotocol/trust-annotations';

export interface TrustLabels {
  untrusted?: true;
  sensitive?: true;
}

/** What one result the conversation read came from. */
export interface ReadOrigin {
  server: string;
  tool: string;
  /** The tool reaches an open world (openWorldHint not false). */
  openWorld: boolean;
  untrusted?: true;
  sensitive?: true;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The labels of a result: its own `_meta`'s and every content block's, united. */
export function trustLabelsOf(result: { _meta?: unknown; content?: unknown }): TrustLabels {
  const out: TrustLabels = {};
  const add = (meta: unknown) => {
    const labels = isObject(meta) ? meta[TRUST_ANNOTATIONS] : undefined;
    if (!isObject(labels)) return;
    if (labels.untrusted === true) out.untrusted = true;
    if (labels.sensitive === true) out.sensitive = true;
  };
  add(result._meta);
  if (Array.isArray(result.content))
    for (const block of result.content) if (isObject(block)) add(block._meta);
  return out;
}

/** The call a flow goes to: the server and tool, and what its annotations say. */
export interface FlowDestination {
  server: string;
  tool: string;
  readOnly: boolean;
  openWorld: boolean;
}

/** A tool as a flow's destination, from its annotations (MCP spec defaults; contradictory ones count as writing). */
export function flowDestination(
  server: string,
  tool: string,
  a: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean } | undefined,
): FlowDestination {
  return {
    server,
    tool,
    readOnly: a?.readOnlyHint === true && a.destructiveHint !== true,
    openWorld: a?.openWorldHint !== false,
  };
}

/** A flow the gate asks about. */
export interface DataFlow {
  /** What the conversation read from other servers, one entry per server and tool. */
  from: ReadOrigin[];
  to: { server: string; tool: string };
  /**
   * From content marked untrusted or read from the open world, into an open-world tool; or into any tool of
   * a server that itself gave the conversation content marked untrusted (the instruction to send may have
   * come with it): "always allow", YOLO, trust-all and --yes do not skip it unless the person allowed that
   * pair of servers.
   */
  strong: boolean;
}

/** The pairs of servers the person allowed (Permissions); `*` as `from` marks a trusted destination. */
export interface FlowPairs {
  allows(from: string, to: string): boolean;
}

/**
 * The flow a call makes, or undefined when it makes none: content read from another server, into a tool
 * of a server not marked a trusted destination, or an open-world or non-read-only tool. A pair the person
 * allowed lets its sources through; a trusted destination only the flows that are not strong.
 */
export function flowOf(
  read: readonly ReadOrigin[],
  to: FlowDestination,
  pairs?: FlowPairs,
): DataFlow | undefined {
  const seen = new Set<string>();
  const from: ReadOrigin[] = [];
  for (const o of read) {
    if (o.server === to.server) continue;
    const key = `${o.server}\u0000${o.tool}`;
    if (seen.has(key)) {
      const prev = from.find((f) => f.server === o.server && f.tool === o.tool)!;
      if (o.untrusted) prev.untrusted = true;
      if (o.sensitive) prev.sensitive = true;
      continue;
    }
    seen.add(key);
    from.push({ ...o });
  }
  const unallowed = from.filter((o) => !pairs?.allows(o.server, to.server));
  if (!unallowed.length) return undefined;
  const fromDestination = read.some((o) => o.server === to.server && o.untrusted);
  const strong = fromDestination || (to.openWorld && unallowed.some((o) => o.untrusted || o.openWorld));
  const trustedDestination = pairs?.allows('*', to.server) ?? false;
  if (!strong && trustedDestination && to.readOnly && !to.openWorld) return undefined;
  return { from: unallowed, to: { server: to.server, tool: to.tool }, strong };
}

/** "This conversation has read content from files (read_text_file). This call sends data to weather (log)." */
export function describeFlow(flow: DataFlow): string {
  const byServer = new Map<string, ReadOrigin[]>();
  for (const o of flow.from) byServer.set(o.server, [...(byServer.get(o.server) ?? []), o]);
  const sources = [...byServer].map(([server, list]) => {
    const marks = [
      list.some((o) => o.untrusted) ? 'marked untrusted' : '',
      list.some((o) => o.sensitive) ? 'marked sensitive' : '',
      list.some((o) => o.openWorld) ? 'from the open world' : '',
    ].filter(Boolean);
    return `${server} (${list.map((o) => o.tool).join(', ')})${marks.length ? `, ${marks.join(', ')}` : ''}`;
  });
  return `This conversation has read content from ${sources.join('; ')}. This call sends data to ${flow.to.server} (${flow.to.tool}).`;
}
