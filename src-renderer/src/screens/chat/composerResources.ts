// The composer's resources (docs/chat.md, "A turn in the chat"): the `@` picker that follows the caret
// in the message box, the "Attach resource" button's picker with its own search field, a picked
// template's form, and the chips of what will be attached. The composer renders them; this keeps their
// state and the keys of the message box.
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { AttachedResource } from '@shared/chat';
import type { ResourceTemplateView } from '@shared/resources';
import { MAX_ATTACHED_RESOURCES, sameResource } from './ResourceAttach';
import { useResourcePicker } from './ResourcePicker';
import { atQueryAt, withoutAtQuery, type PickOption } from './resourceQuery';

export function useComposerResources(opts: {
  text: string;
  setText: (text: string) => void;
  area: RefObject<HTMLTextAreaElement | null>;
  /** Off while the `/` prompt list has the message box. */
  enabled: boolean;
  /** Says why a resource was not added. */
  onRefuse: (reason: string) => void;
}) {
  const { text, area } = opts;
  const [resources, setResources] = useState<AttachedResource[]>([]);
  const [caret, setCaret] = useState(0);
  const [focused, setFocused] = useState(false);
  /** Where the `@word` closed with Escape starts: it stays closed while that word is typed on. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [browsing, setBrowsing] = useState(false);
  const [search, setSearch] = useState('');
  const [template, setTemplate] = useState<{ server: string; template: ResourceTemplateView } | null>(null);
  // Where the caret goes once the text without the picked `@word` is in the box.
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !area.current) return;
    pendingCaret.current = null;
    area.current.focus();
    area.current.setSelectionRange(at, at);
    setCaret(at);
  }, [text, area]);

  const at = opts.enabled ? atQueryAt(text, caret) : null;
  const atOpen = !!at && focused && at.start !== dismissed && !browsing && !template;

  const add = (r: AttachedResource) => {
    if (resources.some((x) => sameResource(x, r))) return;
    if (resources.length >= MAX_ATTACHED_RESOURCES) {
      opts.onRefuse(`A message can carry at most ${MAX_ATTACHED_RESOURCES} resources.`);
      return;
    }
    setResources([...resources, r]);
  };
  const choose = (o: PickOption) => {
    if (o.kind === 'template') setTemplate({ server: o.server, template: o.template });
    else if (o.kind === 'skill') add({ server: o.server, uri: o.skill.uri, name: o.skill.name, skill: true });
    else add({ server: o.server, uri: o.resource.uri, name: o.resource.title ?? o.resource.name });
  };
  const atPicker = useResourcePicker({
    open: atOpen,
    query: at?.query ?? '',
    onPick: (o) => {
      if (at) {
        const left = withoutAtQuery(text, at);
        if (o.kind !== 'template') pendingCaret.current = left.caret;
        opts.setText(left.text);
      }
      choose(o);
    },
    onClose: () => setDismissed(at?.start ?? null),
  });
  const closeBrowser = () => {
    setBrowsing(false);
    setSearch('');
  };
  const browser = useResourcePicker({
    open: browsing,
    query: search,
    onPick: (o) => {
      closeBrowser();
      choose(o);
      if (o.kind !== 'template') area.current?.focus();
    },
    onClose: () => {
      closeBrowser();
      area.current?.focus();
    },
  });

  return {
    resources,
    remove: (i: number) => setResources(resources.filter((_, j) => j !== i)),
    clear: () => setResources([]),
    atPicker,
    browser,
    browsing,
    toggleBrowser: () => (browsing ? closeBrowser() : setBrowsing(true)),
    search,
    setSearch,
    template,
    closeTemplate: () => {
      setTemplate(null);
      area.current?.focus();
    },
    attachTemplate: (r: AttachedResource) => {
      add(r);
      setTemplate(null);
      area.current?.focus();
    },
    /** For the message box: the `@` picker's ARIA and the caret it follows. */
    areaProps: {
      ...(atOpen ? atPicker.fieldAria : {}),
      onSelect: () => setCaret(area.current?.selectionStart ?? 0),
      onFocus: () => setFocused(true),
      onBlur: () => setFocused(false),
    },
    /** After the message box changed: where the caret is now. */
    changed: (next: string, nextCaret: number) => {
      setCaret(nextCaret);
      if (!atQueryAt(next, nextCaret)) setDismissed(null);
    },
    /** The message box's keys the resources take (the `@` picker's; Backspace at the start removes a chip). */
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      if (atPicker.onKeyDown(e)) return true;
      const box = e.currentTarget;
      if (e.key === 'Backspace' && resources.length && box.selectionStart === 0 && box.selectionEnd === 0) {
        e.preventDefault();
        setResources(resources.slice(0, -1));
        return true;
      }
      return false;
    },
  };
}
