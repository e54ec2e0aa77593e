// When a flow is strong (dataFlow.ts, docs/trust.md): untrusted or open-world content into an open-world
// tool, or any data into a server that itself gave the conversation content marked untrusted — the
// exfiltration in which a fetched page asks for a local file to be sent back through the page's own server,
// whatever that server's tool claims to be (found by the injection benchmark under YOLO,
// bench/lib/injectionScenarios.ts).
import { describe, expect, it } from 'vitest';
import { flowDestination, flowOf, type ReadOrigin } from './dataFlow';

const page: ReadOrigin = { server: 'web', tool: 'fetch', openWorld: true, untrusted: true };
const file: ReadOrigin = { server: 'files', tool: 'read_text_file', openWorld: false };
const to = (server: string, tool: string, openWorld: boolean, readOnly = true) =>
  flowDestination(server, tool, { readOnlyHint: readOnly, openWorldHint: openWorld });

describe('flowOf: strong flows', () => {
  it('a file sent back to the server whose page asked for it is strong, into any of its tools', () => {
    expect(flowOf([page, file], to('web', 'fetch', true))).toMatchObject({ from: [file], strong: true });
    expect(flowOf([page, file], to('web', 'save_note', false, false))?.strong).toBe(true);
  });

  it('a file sent to a server that gave nothing marked untrusted is a flow, not a strong one', () => {
    expect(flowOf([file], to('web', 'fetch', true))).toMatchObject({ from: [file], strong: false });
    const docs: ReadOrigin = { server: 'web', tool: 'read_doc', openWorld: false };
    expect(flowOf([docs, file], to('web', 'log', true))?.strong).toBe(false);
    // Open-world by default (no annotations) is not a mark: a trusted server's own tools stay as trusted.
    const unannotated: ReadOrigin = { server: 'engine', tool: 'list', openWorld: true };
    expect(flowOf([unannotated, file], to('engine', 'add_tool', true, false))?.strong).toBe(false);
  });

  it('untrusted content into another server: strong into an open-world tool only', () => {
    expect(flowOf([page], to('notes', 'log', true))?.strong).toBe(true);
    expect(flowOf([page], to('notes', 'save', false, false))?.strong).toBe(false);
  });

  it('an allowed pair lets the flow through; work inside one server is no flow', () => {
    const pairs = { allows: (from: string, dest: string) => from === 'files' && dest === 'web' };
    expect(flowOf([page, file], to('web', 'fetch', true), pairs)).toBeUndefined();
    expect(flowOf([page], to('web', 'log', true))).toBeUndefined();
  });
});
