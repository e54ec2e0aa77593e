// The order in which a view hears about its tool call (extension io.modelcontextprotocol/ui, "Lifecycle").
import { describe, expect, it } from 'vitest';
import { ToolFeed, type ToolCallState } from './toolFeed';

const methods = (feed: ToolFeed, ...states: ToolCallState[]) =>
  states.flatMap((s) => feed.next(s).map((m) => m.method.replace('ui/notifications/', '')));

describe('ToolFeed', () => {
  it('sends each new partial input, then the input once, then the result, then nothing', () => {
    const feed = new ToolFeed();
    expect(
      methods(
        feed,
        { partial: { a: 'N' } },
        { partial: { a: 'N' } },
        { partial: { a: 'New' } },
        { partial: { a: 'New' }, input: { a: 'New York' } },
        { input: { a: 'New York' } },
        { input: { a: 'New York' }, result: { content: [] } },
        { input: { a: 'New York' }, result: { content: [] }, cancelled: 'late' },
      ),
    ).toEqual(['tool-input-partial', 'tool-input-partial', 'tool-input', 'tool-result']);
  });

  it('gives a view that starts late only the latest state', () => {
    const feed = new ToolFeed();
    const out = feed.next({ partial: { a: 1 }, input: { a: 2 }, result: { content: [], isError: true } });
    expect(out.map((m) => m.method)).toEqual(['ui/notifications/tool-input', 'ui/notifications/tool-result']);
    expect(out[0]!.params).toEqual({ arguments: { a: 2 } });
  });

  it('cancels after partial input (a stopped turn) or after the input (a denied call), and only once', () => {
    const stopped = new ToolFeed();
    expect(methods(stopped, { partial: { a: 'N' } }, { partial: { a: 'Ne' }, cancelled: 'stopped' })).toEqual(
      ['tool-input-partial', 'tool-cancelled'],
    );
    expect(methods(stopped, { partial: { a: 'Ne' }, cancelled: 'stopped' })).toEqual([]);
    const denied = new ToolFeed();
    expect(methods(denied, { input: { a: 1 } }, { input: { a: 1 }, cancelled: 'the user declined' })).toEqual(
      ['tool-input', 'tool-cancelled'],
    );
  });

  it('holds a result until the complete input is known', () => {
    const feed = new ToolFeed();
    expect(methods(feed, { partial: { a: 1 }, result: { content: [] } })).toEqual(['tool-input-partial']);
    expect(methods(feed, { input: { a: 1 }, result: { content: [] } })).toEqual([
      'tool-input',
      'tool-result',
    ]);
  });
});
