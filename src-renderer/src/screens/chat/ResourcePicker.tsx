// The composer's resource picker (docs/chat.md, "A turn in the chat"): every connected server's
// resources and templates (MCP 2025-11-25 "Resources") and skills (docs/skills.md), grouped by server, filtered by the `@word` typed in
// the message box or by its own search field (the "Attach resource" button). The ARIA combobox pattern:
// focus stays in the field that is typed in, which names the active option with aria-activedescendant;
// ↑/↓ move, Enter or Tab pick, Escape closes. Names, URIs and descriptions are server text: rendered as
// text, cut with an ellipsis, whole in their tooltip.
import { useQueries, useQuery } from '@tanstack/react-query';
import { FolderOpen, X } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { errorOf } from '../../api/errors';
import { useTRPC } from '../../api/trpc';
import { useUi } from '../../stores/uiStore';
import { Badge, IconButton } from '../../ui';
import { matchOffers, optionLabel, optionUri, type PickOption, type ServerOffer } from './resourceQuery';

/** What the connected servers offer to attach, asked only while the picker is open. */
function useResourceOffers(enabled: boolean) {
  const trpc = useTRPC();
  const servers = useQuery({ ...trpc.resources.servers.queryOptions(), enabled });
  const names = (servers.data ?? []).filter((s) => s.resources).map((s) => s.server);
  const lists = useQueries({
    queries: names.map((server) => ({ ...trpc.resources.list.queryOptions({ server }), enabled })),
  });
  const templates = useQueries({
    queries: names.map((server) => ({ ...trpc.resources.templates.queryOptions({ server }), enabled })),
  });
  // The servers' skills (docs/skills.md): a picked one is loaded when the message is sent, asking first.
  const skills = useQuery({ ...trpc.skills.servers.queryOptions(), enabled });
  const skillsOf = (server: string) =>
    skills.data
      ?.find((s) => s.server === server)
      ?.skills.map((k) => ({ uri: k.uri, name: k.name, label: k.label, description: k.description })) ?? [];
  const skillServers = (skills.data ?? []).filter((s) => s.skills.length && !names.includes(s.server));
  const offers: ServerOffer[] = [
    ...names.map((server, i) => ({
      server,
      resources: lists[i]?.data ?? [],
      templates: templates[i]?.data ?? [],
      skills: skillsOf(server),
    })),
    ...skillServers.map((s) => ({
      server: s.server,
      resources: [],
      templates: [],
      skills: skillsOf(s.server),
    })),
  ];
  const failures = names.flatMap((server, i) => {
    const e = errorOf(lists[i]?.error ?? templates[i]?.error);
    return e ? [{ server, message: e.message }] : [];
  });
  const loading =
    servers.isLoading ||
    skills.isLoading ||
    lists.some((q) => q.isLoading) ||
    templates.some((q) => q.isLoading);
  const none = servers.isSuccess && skills.isFetched && names.length === 0 && skillServers.length === 0;
  return { offers, failures, loading, none };
}

export type ResourcePicker = ReturnType<typeof useResourcePicker>;

/**
 * The picker's state for a query: its options and the active one, and the keys of the field typed in
 * (`onKeyDown` answers true when it took the key).
 */
export function useResourcePicker(opts: {
  open: boolean;
  query: string;
  onPick: (option: PickOption) => void;
  onClose: () => void;
}) {
  const listId = useId();
  const offered = useResourceOffers(opts.open);
  const groups = useMemo(() => matchOffers(offered.offers, opts.query), [offered.offers, opts.query]);
  const flat = groups.flatMap((g) => g.options);
  const [active, setActive] = useState(0);
  useEffect(() => setActive(0), [opts.query]);
  const current = flat.length ? Math.min(active, flat.length - 1) : -1;
  const optionId = (i: number) => `${listId}-${i}`;
  // The active option stays in view as the arrow keys move through a list that scrolls.
  useEffect(() => {
    if (opts.open && current >= 0)
      document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
  }, [opts.open, current]);

  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!opts.open) return false;
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && flat.length) {
      e.preventDefault();
      const n = flat.length;
      setActive((current + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
      return true;
    }
    if (((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') && current >= 0) {
      e.preventDefault();
      opts.onPick(flat[current]!);
      return true;
    }
    if (e.key === 'Escape') {
      // Taken here, so the chat's Escape (stop the answer) does not run too.
      e.preventDefault();
      opts.onClose();
      return true;
    }
    return false;
  };

  return {
    ...offered,
    open: opts.open,
    query: opts.query,
    groups,
    count: flat.length,
    listId,
    optionId,
    current,
    /** For the field typed in: what it controls and which option is active (absent when none shows). */
    fieldAria: {
      'aria-autocomplete': 'list' as const,
      ...(flat.length ? { 'aria-controls': listId } : {}),
      ...(current >= 0 ? { 'aria-activedescendant': optionId(current) } : {}),
    },
    setActive,
    onKeyDown,
    pick: opts.onPick,
    close: opts.onClose,
  };
}

/**
 * The popover. With `search`, it has its own field (the "Attach resource" button's picker, which takes
 * focus); without, the message box is the field (the `@` picker).
 */
export function ResourcePickerPopover(props: {
  picker: ResourcePicker;
  search?: { value: string; onChange: (value: string) => void };
}) {
  const { picker: p } = props;
  const navigate = useUi((s) => s.navigate);
  // A click in the popover must not take focus from the field typed in (the `@` picker closes on blur).
  const keepFocus = (e: { preventDefault: () => void }) => e.preventDefault();
  let index = 0;
  return (
    <div className="resource-picker" data-testid="resource-picker">
      <div className="resource-picker-head">
        <span className="small muted">Attach a resource or skill</span>
        {props.search ? (
          <input
            className="resource-picker-search"
            role="combobox"
            aria-label="Find a resource"
            aria-expanded={p.count > 0}
            {...p.fieldAria}
            // The button opened the picker to be typed in: focus moves here at once.
            autoFocus
            autoComplete="off"
            placeholder="Filter by name or URI"
            value={props.search.value}
            onChange={(e) => props.search!.onChange(e.target.value)}
            onKeyDown={(e) => p.onKeyDown(e)}
          />
        ) : (
          <span className="small muted resource-picker-query">
            {p.query ? `matching “${p.query}”` : 'type to filter'}
          </span>
        )}
        <IconButton
          label="Close"
          size="sm"
          icon={<X size={14} />}
          onMouseDown={keepFocus}
          onClick={p.close}
        />
      </div>
      {p.loading && p.count === 0 && (
        <p className="muted small resource-picker-note" role="status">
          Loading the servers' resources…
        </p>
      )}
      {p.none && (
        <div className="resource-picker-note" data-testid="resource-picker-empty">
          <FolderOpen size={16} aria-hidden />
          <span>No connected server offers resources or skills.</span>
          <button
            type="button"
            className="link"
            onMouseDown={keepFocus}
            onClick={() => {
              p.close();
              navigate('resources');
            }}
          >
            Open Resources
          </button>
        </div>
      )}
      {!p.loading && !p.none && p.count === 0 && (
        <p className="muted small resource-picker-note">No resource or template matches “{p.query}”.</p>
      )}
      {p.count > 0 && (
        <div role="listbox" id={p.listId} aria-label="Resources to attach" className="resource-picker-list">
          {p.groups.map((g) => (
            <div role="group" key={g.server} aria-labelledby={`${p.listId}-server-${g.server}`}>
              <div
                id={`${p.listId}-server-${g.server}`}
                className="resource-picker-server"
                role="presentation"
              >
                {g.server}
              </div>
              {g.options.map((o) => {
                const i = index++;
                const label = optionLabel(o);
                const uri = optionUri(o);
                const description =
                  o.kind === 'resource'
                    ? o.resource.description
                    : o.kind === 'skill'
                      ? o.skill.description
                      : o.template.description;
                return (
                  <div
                    key={`${o.kind}:${uri}`}
                    id={p.optionId(i)}
                    role="option"
                    data-kind={o.kind}
                    aria-selected={i === p.current}
                    className={i === p.current ? 'resource-option active' : 'resource-option'}
                    title={[label, uri, description].filter(Boolean).join('\n')}
                    onMouseDown={keepFocus}
                    onMouseMove={() => i !== p.current && p.setActive(i)}
                    onClick={() => p.pick(o)}
                  >
                    <span className="resource-option-name">{label}</span>
                    <code className="resource-option-uri">{uri}</code>
                    {o.kind === 'template' && <Badge>template</Badge>}
                    {o.kind === 'skill' && <Badge>skill</Badge>}
                  </div>
                );
              })}
              {g.more > 0 && (
                <div role="presentation" className="muted small resource-picker-more">
                  {g.more} more from {g.server}: type to narrow
                </div>
              )}
            </div>
          ))}
        </div>
      )}
      {p.failures.map((f) => (
        <p key={f.server} className="danger-text small resource-picker-note">
          {f.server}: {f.message}
        </p>
      ))}
      <p className="muted small resource-picker-foot" aria-hidden>
        ↑↓ choose · Enter or Tab attach · Esc close
      </p>
    </div>
  );
}
