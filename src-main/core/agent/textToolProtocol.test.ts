import { describe, expect, it } from 'vitest';
import {
  correctiveMessage,
  parseTextToolCall,
  ProtocolLineFilter,
  textProtocolSystemPrompt,
} from './textToolProtocol';

const names = ['list_directory', 'read_file'];

describe('parseTextToolCall', () => {
  it('finds one MCP line among prose', () => {
    expect(parseTextToolCall('Sure.\nMCP: list_directory {"path": "/tmp"}\n', names)).toEqual({
      kind: 'call',
      name: 'list_directory',
      arguments: { path: '/tmp' },
    });
    expect(parseTextToolCall('  MCP: read_file', names)).toEqual({
      kind: 'call',
      name: 'read_file',
      arguments: {},
    });
  });
  it('says none when there is no MCP line', () => {
    expect(parseTextToolCall('The answer is 4. MCP: is not at the line start', names)).toEqual({
      kind: 'none',
    });
  });
  it.each([
    ['MCP:', 'the tool name is missing'],
    ['MCP: delete_everything {}', 'there is no tool named "delete_everything"'],
    ['MCP: read_file {path: x}', 'the arguments are not valid JSON'],
    ['MCP: read_file [1]', 'the arguments must be one JSON object'],
    ['MCP: read_file "x"', 'the arguments must be one JSON object'],
  ])('reports %s as malformed', (line, reason) => {
    const parsed = parseTextToolCall(line, names);
    expect(parsed.kind).toBe('malformed');
    if (parsed.kind === 'malformed') {
      expect(parsed.reason).toContain(reason);
      expect(correctiveMessage(parsed)).toContain(line);
    }
  });
});

describe('textProtocolSystemPrompt', () => {
  it('names every tool with its schema and the one-line format', () => {
    const prompt = textProtocolSystemPrompt([
      {
        name: 'read_file',
        description: 'Reads a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ]);
    expect(prompt).toContain('MCP: <tool_name> <arguments as one JSON object>');
    expect(prompt).toContain('- read_file: Reads a file');
    expect(prompt).toContain('"path":{"type":"string"}');
  });
});

describe('ProtocolLineFilter', () => {
  const run = (chunks: string[]) => {
    let shown = '';
    const f = new ProtocolLineFilter((t) => (shown += t));
    chunks.forEach((c) => f.push(c));
    f.end();
    return shown;
  };
  it('passes prose through and hides protocol lines, however they are chunked', () => {
    const text = 'Let me check.\nMCP: read_file {"path":"/a"}\nDone';
    expect(run([text])).toBe('Let me check.\nDone');
    expect(run(text.split(''))).toBe('Let me check.\nDone');
    expect(run(['Let me check.\nM', 'C', 'P: read', '_file {}\nDone'])).toBe('Let me check.\nDone');
  });
  it('releases a held-back prefix that turns out to be prose', () => {
    expect(run(['MC', 'Donald farms'])).toBe('MCDonald farms');
    expect(run(['MC'])).toBe('MC');
  });
});
