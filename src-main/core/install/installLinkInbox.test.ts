// The inbox keeps each link until the user decides, announces it once, and caps a flood.
import { describe, expect, it } from 'vitest';
import { InstallLinkInbox, MAX_PENDING_INSTALL_LINKS, type InstallLinkOffer } from './installLinkInbox';

const link = (name: string) =>
  `mooring://install?name=${name}&config=${Buffer.from(JSON.stringify({ command: 'node' })).toString('base64')}`;

describe('InstallLinkInbox', () => {
  it('parses, keeps and announces a link; dismiss removes it once', () => {
    const inbox = new InstallLinkInbox();
    const seen: InstallLinkOffer[] = [];
    inbox.on('offer', (o) => seen.push(o));
    const offer = inbox.offer(link('one'), new Date('2026-01-02T03:04:05Z'));
    expect(offer.receivedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(offer.result).toMatchObject({ ok: true, server: { name: 'one', command: 'node' } });
    expect(seen).toEqual([offer]);
    expect(inbox.pending()).toEqual([offer]);
    expect(inbox.dismiss(offer.id)).toBe(true);
    expect(inbox.dismiss(offer.id)).toBe(false);
    expect(inbox.pending()).toEqual([]);
  });

  it('a wrong link is kept too, with its error, so the user learns why nothing happened', () => {
    const inbox = new InstallLinkInbox();
    expect(inbox.offer('mooring://install?name=x').result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/config=/),
    });
    expect(inbox.pending()).toHaveLength(1);
  });

  it(`keeps the newest ${MAX_PENDING_INSTALL_LINKS} of a flood`, () => {
    const inbox = new InstallLinkInbox();
    for (let i = 0; i < MAX_PENDING_INSTALL_LINKS + 5; i++) inbox.offer(link(`s${i}`));
    const names = inbox.pending().map((o) => (o.result.ok ? o.result.server.name : ''));
    expect(names).toHaveLength(MAX_PENDING_INSTALL_LINKS);
    expect(names[0]).toBe('s5');
    expect(names.at(-1)).toBe(`s${MAX_PENDING_INSTALL_LINKS + 4}`);
  });

  it('keeps each link for its install plan, never on the wire; a dismissed or evicted one is gone', () => {
    const inbox = new InstallLinkInbox();
    const first = inbox.offer(link('first'));
    expect(inbox.linkOf(first.id)).toBe(link('first'));
    expect(JSON.stringify(inbox.pending())).not.toContain('mooring://');
    inbox.dismiss(first.id);
    expect(() => inbox.linkOf(first.id)).toThrow(/no longer pending/);
    const oldest = inbox.offer(link('old'));
    for (let i = 0; i < MAX_PENDING_INSTALL_LINKS; i++) inbox.offer(link(`n${i}`));
    expect(() => inbox.linkOf(oldest.id)).toThrow(/no longer pending/);
  });
});
