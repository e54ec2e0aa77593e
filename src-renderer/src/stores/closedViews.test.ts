// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { closedViewKey, useClosedViews } from './closedViews';

const KEY = 'mooring.apps.closedViews';

describe('the closed MCP App views', () => {
  it("are kept for a reload, and one tab's close does not undo another's", () => {
    const mine = closedViewKey('c1', 'call-1');
    useClosedViews.getState().setClosed(mine, true);
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual([mine]);
    // Another tab of the origin closed a view after this one loaded.
    const theirs = closedViewKey('c2', 'call-9');
    localStorage.setItem(KEY, JSON.stringify([mine, theirs]));
    const next = closedViewKey('c1', 'call-2');
    useClosedViews.getState().setClosed(next, true);
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual([mine, theirs, next]);
    // Opened again here: gone from what is kept, the others stay.
    useClosedViews.getState().setClosed(mine, false);
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual([theirs, next]);
    expect(useClosedViews.getState().closed).toEqual([theirs, next]);
  });
});
