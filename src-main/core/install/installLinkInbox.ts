// Install links that reached the app (the desktop shell hands over each mooring:// link it is opened with)
// and wait for the user's decision on the install consent screen. Kept until dismissed, so a link that
// launched the app is still there when the window's event stream connects. Nothing here installs anything.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { InstallLinkOffer } from '@shared/install';
import { MooringError } from '../errors';
import { parseInstallLink } from './installLink';

export type { InstallLinkOffer };

/** More than this many undecided links means something is sending them in a loop: the oldest go. */
export const MAX_PENDING_INSTALL_LINKS = 10;

export class InstallLinkInbox extends EventEmitter<{ offer: [InstallLinkOffer] }> {
  private readonly offers: InstallLinkOffer[] = [];
  /** The links themselves, for the install plan once the user opens one; they never cross the bridge. */
  private readonly links = new Map<string, string>();

  /** Parses a link, keeps it for the consent screen and announces it. */
  offer(link: string, now: Date = new Date()): InstallLinkOffer {
    const offer = { id: randomUUID(), receivedAt: now.toISOString(), result: parseInstallLink(link) };
    this.offers.push(offer);
    this.links.set(offer.id, link);
    for (const old of this.offers.splice(0, Math.max(0, this.offers.length - MAX_PENDING_INSTALL_LINKS)))
      this.links.delete(old.id);
    this.emit('offer', offer);
    return offer;
  }

  /** The link of a pending offer (to plan its install); `not_found` once it was dismissed. */
  linkOf(id: string): string {
    const link = this.links.get(id);
    if (link === undefined)
      throw new MooringError('not_found', 'This install link is no longer pending.', 'Open the link again.');
    return link;
  }

  pending(): InstallLinkOffer[] {
    return [...this.offers];
  }

  /** The user decided (installed through the consent screen, or declined). True when it was pending. */
  dismiss(id: string): boolean {
    const i = this.offers.findIndex((o) => o.id === id);
    if (i >= 0) this.offers.splice(i, 1);
    this.links.delete(id);
    return i >= 0;
  }
}
