// Install links that reached the app (the desktop shell hands over each mooring:// link it is opened with)
// and wait for the user's decision on the install consent screen. Kept until dismissed, so a link that
// launched the app is still there when the window's event stream connects. Nothing here installs anything.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { InstallLinkOffer } from '@shared/install';
import { parseInstallLink } from './installLink';

export type { InstallLinkOffer };

/** More than this many undecided links means something is sending them in a loop: the oldest go. */
export const MAX_PENDING_INSTALL_LINKS = 10;

export class InstallLinkInbox extends EventEmitter<{ offer: [InstallLinkOffer] }> {
  private readonly offers: InstallLinkOffer[] = [];

  /** Parses a link, keeps it for the consent screen and announces it. */
  offer(link: string, now: Date = new Date()): InstallLinkOffer {
    const offer = { id: randomUUID(), receivedAt: now.toISOString(), result: parseInstallLink(link) };
    this.offers.push(offer);
    this.offers.splice(0, Math.max(0, this.offers.length - MAX_PENDING_INSTALL_LINKS));
    this.emit('offer', offer);
    return offer;
  }

  pending(): InstallLinkOffer[] {
    return [...this.offers];
  }

  /** The user decided (installed through the consent screen, or declined). True when it was pending. */
  dismiss(id: string): boolean {
    const i = this.offers.findIndex((o) => o.id === id);
    if (i >= 0) this.offers.splice(i, 1);
    return i >= 0;
  }
}
