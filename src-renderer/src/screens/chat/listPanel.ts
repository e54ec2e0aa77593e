// Whether the conversation list is shown beside the chat. Like the chat apps people know (Claude Desktop,
// ChatGPT), it folds away: a wide window shows it by default and a narrow one hides it, and a person's own
// choice is remembered for each of the two, across reloads. In a narrow window the shown list lies over
// the conversation instead of squeezing it.
import { useEffect } from 'react';
import { create } from 'zustand';

/** Below this width the window is narrow (the app's sidebar plus the chat leave no room for the list). */
export const NARROW_QUERY = '(max-width: 1099px)';
const KEY = { wide: 'mooring.chat.list.wide', narrow: 'mooring.chat.list.narrow' } as const;
type Size = keyof typeof KEY;

const sizeNow = (): Size =>
  typeof matchMedia !== 'undefined' && matchMedia(NARROW_QUERY).matches ? 'narrow' : 'wide';

/** The remembered choice for this size, else the default: shown when wide, hidden when narrow. */
function remembered(size: Size): boolean {
  try {
    const saved = localStorage.getItem(KEY[size]);
    if (saved === 'shown' || saved === 'hidden') return saved === 'shown';
  } catch {
    // Storage can be off (a locked-down browser): the default then.
  }
  return size === 'wide';
}

interface ListPanel {
  size: Size;
  shown: boolean;
  /** Shows or hides the list and remembers it for this window size. */
  setShown(shown: boolean): void;
  /** The window crossed the breakpoint: take that size's choice. */
  resized(size: Size): void;
}

export const useListPanel = create<ListPanel>((set, get) => ({
  size: sizeNow(),
  shown: remembered(sizeNow()),
  setShown: (shown) => {
    try {
      localStorage.setItem(KEY[get().size], shown ? 'shown' : 'hidden');
    } catch {
      // Not remembered, still applied.
    }
    set({ shown });
  },
  resized: (size) => set({ size, shown: remembered(size) }),
}));

/** Follows the window across the breakpoint while the chat is shown. */
export function useListPanelFollowsWindow(): void {
  const resized = useListPanel((s) => s.resized);
  useEffect(() => {
    const query = matchMedia(NARROW_QUERY);
    const onChange = () => resized(query.matches ? 'narrow' : 'wide');
    onChange();
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [resized]);
}
