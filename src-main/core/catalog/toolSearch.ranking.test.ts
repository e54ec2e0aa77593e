// tool_search ranking without servers (toolSearch.ts says why function words are dropped):
// words like "in" or "the" must neither decide nor slow a ranking, tool verbs like "get" must count.
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ToolHandle } from '../mcp/types';
import { ToolCatalog } from './catalog';
import { ToolSearchIndex } from './toolSearch';

class FixedHandle implements ToolHandle {
  removed = false;
  constructor(
    readonly server: string,
    readonly definition: Tool,
  ) {}
  get name() {
    return this.definition.name;
  }
  async call() {
    return { content: [] };
  }
}

const defs: [string, string, string][] = [
  ['github', 'get_issue', 'Get an issue in a repository by its number.'],
  ['github', 'create_issue', 'Create a new issue in the repository.'],
  ['github', 'list_pull_requests', 'List the pull requests of a repository.'],
  ['drive', 'find_file', 'Find a file in the drive by name.'],
  ['drive', 'upload_file', 'Upload a file to the drive.'],
  ['calendar', 'create_event', 'Create a calendar event in the calendar.'],
];

function index(): ToolSearchIndex {
  const inputs = ['github', 'drive', 'calendar'].map((server) => ({
    server,
    tools: defs
      .filter(([s]) => s === server)
      .map(
        ([, name, description]) =>
          new FixedHandle(server, { name, description, inputSchema: { type: 'object' } }),
      ),
  }));
  return new ToolSearchIndex(new ToolCatalog(inputs).active());
}

const top = (idx: ToolSearchIndex, q: string, n = 1) => idx.search(q, n).map((e) => e.modelName);

describe('tool_search ranking', () => {
  it('ranks by the words that mean something, whatever function words surround them', () => {
    const idx = index();
    expect(top(idx, 'create event in calendar')).toEqual(['mcp__calendar__create_event']);
    expect(top(idx, 'create an event for the calendar')).toEqual(['mcp__calendar__create_event']);
    expect(top(idx, 'pull requests')).toEqual(['mcp__github__list_pull_requests']);
    expect(top(idx, 'issues', 2).sort()).toEqual(['mcp__github__create_issue', 'mcp__github__get_issue']);
  });

  it('keeps tool verbs that general stop-word lists drop', () => {
    const idx = index();
    expect(top(idx, 'get issue')).toEqual(['mcp__github__get_issue']);
    expect(top(idx, 'find file')).toEqual(['mcp__drive__find_file']);
  });

  it('matches nothing for a query of function words only, instead of every tool', () => {
    expect(index().search('in the', 5)).toEqual([]);
  });
});
