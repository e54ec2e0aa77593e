import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolQuarantine } from './toolQuarantine';

const home = () => mkdtempSync(join(tmpdir(), 'mooring-quarantine-'));
const ro = (name: string) => ({ name, annotations: { readOnlyHint: true } });

describe('tool quarantine', () => {
  it('takes the first listing as the baseline and quarantines later non-read-only tools', async () => {
    const q = await ToolQuarantine.open(home());
    expect(q.observe('s', [ro('read'), { name: 'write' }])).toEqual([]);
    expect(q.observe('s', [ro('read'), { name: 'write' }, { name: 'wipe' }, ro('peek')])).toEqual(['wipe']);
    expect(q.quarantined('s')).toEqual(['wipe']);
    q.release('s', 'wipe');
    expect(q.quarantined('s')).toEqual([]);
  });

  it('survives a restart: a tool that appeared while closed is still new', async () => {
    const dir = home();
    const q1 = await ToolQuarantine.open(dir);
    q1.observe('s', [ro('read')]);
    await q1.flush();
    const q2 = await ToolQuarantine.open(dir);
    expect(q2.observe('s', [ro('read'), { name: 'drop_table' }])).toEqual(['drop_table']);
    await q2.flush();
    expect(JSON.parse(readFileSync(join(dir, 'known_tools.json'), 'utf8')).servers.s.quarantined).toEqual([
      'drop_table',
    ]);
  });

  it("follows another process's release (refresh), and says when what it holds back changed", async () => {
    const dir = home();
    const app = await ToolQuarantine.open(dir);
    const serve = await ToolQuarantine.open(dir);
    serve.observe('s', [ro('read')]);
    serve.observe('s', [ro('read'), { name: 'wipe' }]);
    await serve.flush();
    expect(app.refresh()).toBe(true);
    expect(app.quarantined('s')).toEqual(['wipe']);
    expect(app.refresh()).toBe(false); // nothing changed since: one stat, no rebuild
    app.release('s', 'wipe');
    await app.flush();
    expect(serve.quarantined('s')).toEqual(['wipe']);
    expect(serve.refresh()).toBe(true);
    expect(serve.quarantined('s')).toEqual([]);
  });
});
