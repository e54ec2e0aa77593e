// How many times each subscribed resource changed on its server since this window opened
// (notifications/resources/updated, relayed by the core as `resourceUpdated`): the Resources screen's live
// badge, and its viewer reads the resource again when the count moves. Counts only, never contents.
import { create } from 'zustand';

export const updateKey = (server: string, uri: string): string => `${server}\u0000${uri}`;

export interface ResourceUpdatesState {
  counts: Record<string, number>;
  bump(server: string, uri: string): void;
}

export const useResourceUpdates = create<ResourceUpdatesState>((set) => ({
  counts: {},
  bump: (server, uri) =>
    set((s) => {
      const key = updateKey(server, uri);
      return { counts: { ...s.counts, [key]: (s.counts[key] ?? 0) + 1 } };
    }),
}));
