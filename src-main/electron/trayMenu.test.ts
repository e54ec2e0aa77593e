// The tray's view of the servers: a tooltip that counts states by urgency and a menu that lists each server
// (names flattened: they come from the user's config or a server), plus the way back to the window.
import type { MenuItem, MenuItemConstructorOptions } from 'electron';
import type { SessionState, SessionStatus } from '@shared/session';
import { describe, expect, it, vi } from 'vitest';
import { trayMenuTemplate, trayTooltip } from './trayMenu';

const status = (name: string, state: SessionState, toolCount = 0): SessionStatus => ({
  name,
  state,
  toolCount,
  metrics: { calls: 0, errors: 0, p50Ms: null, p95Ms: null, reconnects: 0 },
});

describe('tray', () => {
  it('tooltip: counts per state, the urgent first', () => {
    expect(trayTooltip([])).toBe('Mooring: no servers');
    expect(
      trayTooltip([
        status('a', 'ready'),
        status('b', 'failed'),
        status('c', 'ready'),
        status('d', 'reconnecting'),
      ]),
    ).toBe('Mooring: 1 failed, 1 reconnecting, 2 ready');
  });

  it('menu: open, each server with its state (failed first), hide the icon, quit', () => {
    const o = { onShow: vi.fn(), onHideTray: vi.fn(), onQuit: vi.fn() };
    const t = trayMenuTemplate({
      ...o,
      statuses: [status('fs', 'ready', 14), status('bad\nname', 'failed')],
    });
    expect(t.map((i) => i.label ?? i.type)).toEqual([
      'Open Mooring',
      'separator',
      '✕ bad name: failed',
      '● fs: ready (14 tools)',
      'separator',
      'Hide This Icon',
      'Quit Mooring',
    ]);
    const byLabel = (l: string) => t.find((i) => i.label === l) as MenuItemConstructorOptions;
    for (const [label, fn] of [
      ['Open Mooring', o.onShow],
      ['Hide This Icon', o.onHideTray],
      ['Quit Mooring', o.onQuit],
    ] as const) {
      (byLabel(label).click as (i: MenuItem) => void)({} as MenuItem);
      expect(fn).toHaveBeenCalledTimes(1);
    }
    expect(t.filter((i) => i.label?.includes(':')).every((i) => i.enabled === false)).toBe(true);
  });

  it('no servers, and a long list is cut with a count', () => {
    const none = trayMenuTemplate({ statuses: [], onShow: vi.fn(), onHideTray: vi.fn(), onQuit: vi.fn() });
    expect(none.map((i) => i.label)).toContain('No servers configured');
    const many = trayMenuTemplate({
      statuses: Array.from({ length: 25 }, (_, i) => status(`s${String(i).padStart(2, '0')}`, 'ready')),
      onShow: vi.fn(),
      onHideTray: vi.fn(),
      onQuit: vi.fn(),
    });
    expect(many.map((i) => i.label)).toContain('… and 5 more');
  });
});
