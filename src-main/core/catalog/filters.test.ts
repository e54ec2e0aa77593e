import { describe, expect, it } from 'vitest';
import { annotationFlags, defaultExcludeTools, serverFilterReason, toolSetReason } from './filters';

describe('filters', () => {
  it('include lists select, exclude lists always win', () => {
    expect(serverFilterReason('a', {})).toBeUndefined();
    expect(serverFilterReason('a', { includeTools: ['a'] })).toBeUndefined();
    expect(serverFilterReason('b', { includeTools: ['a'] })).toBe('not listed in includeTools');
    expect(serverFilterReason('a', { includeTools: ['a'], excludeTools: ['a'] })).toBe(
      'listed in excludeTools',
    );
  });

  it('tool sets select model names across servers', () => {
    const set = { name: 'Code Reviewer', tools: ['mcp__fs__read_text_file', 'mcp__gh__get_pr'] };
    expect(toolSetReason('mcp__fs__read_text_file', set)).toBeUndefined();
    expect(toolSetReason('mcp__fs__write_file', set)).toBe('not in tool set "Code Reviewer"');
    expect(toolSetReason('mcp__fs__write_file', undefined)).toBeUndefined();
  });

  it('applies the spec defaults to annotations', () => {
    expect(annotationFlags({})).toEqual({
      readOnly: false,
      destructive: true,
      idempotent: false,
      openWorld: true,
    });
    // Contradictory hints count as destructive: the cautious reading of an untrusted server's word.
    expect(annotationFlags({ annotations: { readOnlyHint: true, destructiveHint: true } })).toMatchObject({
      readOnly: false,
      destructive: true,
      idempotent: false,
    });
    expect(annotationFlags({ annotations: { readOnlyHint: true } })).toMatchObject({
      readOnly: true,
      destructive: false,
      idempotent: true,
    });
    expect(annotationFlags({ annotations: { destructiveHint: false, openWorldHint: false } })).toMatchObject({
      destructive: false,
      openWorld: false,
    });
  });

  it('computes the default safe set for a new server', () => {
    const r = defaultExcludeTools([
      { name: 'read', annotations: { readOnlyHint: true } },
      { name: 'delete', annotations: { destructiveHint: true } },
      { name: 'unannotated' },
      { name: 'titled_only', annotations: { title: 'Has a title, no hints' } },
      { name: 'append', annotations: { readOnlyHint: false, destructiveHint: false } },
    ]);
    expect(r.excludeTools).toEqual(['delete', 'unannotated', 'titled_only']);
    expect(r.message).toBe('3 destructive tools disabled by default');
    expect(defaultExcludeTools([{ name: 'x' }]).message).toBe('1 destructive tool disabled by default');
    expect(defaultExcludeTools([]).message).toBeUndefined();
  });

  it('leaves tools for views only out of the safe set: a model never gets them, each view call is gated', () => {
    const r = defaultExcludeTools([
      { name: 'poll', _meta: { ui: { resourceUri: 'ui://x/view.html', visibility: ['app'] } } },
      { name: 'both', _meta: { ui: { resourceUri: 'ui://x/view.html', visibility: ['model', 'app'] } } },
    ]);
    expect(r.excludeTools).toEqual(['both']);
  });
});
