// When to notify, and what the notification says: only when the window is not in front of the user, and
// with a server's untrusted names flattened to one bounded line.
import type { ApprovalRequest } from '@shared/approval';
import type { Interaction } from '@shared/interactions';
import { describe, expect, it } from 'vitest';
import { installLinksFromArgv } from './deepLinks';
import { notificationFor, plainText, type WindowFacts } from './desktopNotifications';

const front: WindowFacts = { exists: true, visible: true, minimized: false, focused: true };
const approval = {
  id: 'a1',
  server: 'fs',
  tool: 'write_file',
  friendlyName: 'Write file',
  annotations: {},
  arguments: {},
  fingerprint: 'x',
  reason: 'destructive',
  requestedAt: 0,
  expiresAt: 1,
} satisfies ApprovalRequest;
const base = { id: 'i1', server: 'everything', requestedAt: 0, expiresAt: 1 };
const interactions: Interaction[] = [
  { ...base, kind: 'sampling', request: {} as never, budget: {} as never },
  {
    ...base,
    kind: 'elicitation-form',
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: {} },
  },
  {
    ...base,
    kind: 'elicitation-url',
    message: 'Sign in',
    url: 'https://example.com/a',
    host: 'example.com',
    elicitationId: 'e',
  },
];

describe('notificationFor', () => {
  it('nothing while the window is in front of the user', () => {
    expect(notificationFor({ kind: 'approval', request: approval }, front)).toBeNull();
    for (const request of interactions)
      expect(notificationFor({ kind: 'interaction', request }, front)).toBeNull();
  });

  it.each([
    ['closed to the tray', { ...front, exists: false, visible: false }],
    ['hidden', { ...front, visible: false }],
    ['minimized', { ...front, minimized: true }],
    ['behind another app', { ...front, focused: false }],
  ])('an approval while the window is %s', (_label, w) => {
    expect(notificationFor({ kind: 'approval', request: approval }, w)).toEqual({
      title: 'Mooring: approval needed',
      body: 'fs wants to run “Write file”. Click to review it.',
    });
  });

  it('sampling, a form and a link each say what the server asks', () => {
    const away = { ...front, focused: false };
    const [sampling, form, url] = interactions.map((request) =>
      notificationFor({ kind: 'interaction', request }, away),
    );
    expect(sampling?.body).toBe('everything asks to use your model. Click to review it.');
    expect(form?.body).toBe('everything: Your name?');
    expect(url?.body).toBe('everything asks you to open a page on example.com. Click to review it.');
  });

  it("a scheduled run's outcome while away, its model-written summary flattened to one bounded line", () => {
    const done = {
      kind: 'schedule' as const,
      title: 'Schedule “Report”: done',
      body: 'All\n\u001b[2Jquiet.',
    };
    expect(notificationFor(done, front)).toBeNull();
    expect(notificationFor(done, { ...front, minimized: true })).toEqual({
      title: 'Schedule “Report”: done',
      body: 'All [2Jquiet.',
    });
    const long = notificationFor({ ...done, body: 'z'.repeat(1000) }, { ...front, focused: false });
    expect(long!.body.length).toBe(200);
  });

  it('untrusted text is one bounded line without control or direction-override characters', () => {
    expect(plainText('evil\n\u001b[31mred\u202eoverride\tx')).toBe('evil [31mred override x');
    expect(plainText('x'.repeat(500), 10)).toBe(`${'x'.repeat(9)}…`);
    const n = notificationFor(
      { kind: 'approval', request: { ...approval, server: 'a\nb', friendlyName: 'y'.repeat(300) } },
      { ...front, focused: false },
    );
    expect(n!.body).not.toMatch(/\n/);
    expect(n!.body.length).toBeLessThan(160);
  });
});

describe('installLinksFromArgv', () => {
  it('picks mooring: links from a launch or a second launch, nothing else', () => {
    expect(
      installLinksFromArgv([
        '/opt/Mooring/mooring',
        '--no-sandbox',
        'MOORING://install?name=a&config=e30',
        'mooring://install?name=b&config=e30',
        'cursor://anysphere.cursor-deeplink/mcp/install?name=c',
        'https://example.com',
      ]),
    ).toEqual(['MOORING://install?name=a&config=e30', 'mooring://install?name=b&config=e30']);
    expect(installLinksFromArgv([])).toEqual([]);
  });
});
