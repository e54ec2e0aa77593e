// The composer's tools control (docs/chat.md, "The tools of a conversation"): what this conversation's model
// is offered, server by server, with why the rest are off, and whether the tools go whole with each message
// or load on demand; the screens that change each of these are a click away. Server names come from the
// config and are shown as text.
import { useQuery } from '@tanstack/react-query';
import { Wrench } from 'lucide-react';
import { useTRPC } from '../../api/trpc';
import { useUi } from '../../stores/uiStore';
import { Button, Popover } from '../../ui';
import type { ToolOffReason } from '@shared/wire';

/** Why tools are off, as a person reads it (shared/wire.ts, ToolOffReason). */
const OFF_WORDS: Record<ToolOffReason['kind'], string> = {
  'safe-default': 'destructive, off until you turn them on',
  'new-tool': 'new since the server was set up, held back',
  'turned-off': 'turned off',
  'not-included': 'not in the server’s included tools',
  'server-disabled': 'the server is off',
  other: 'not offered (tool set or schema)',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function ConversationTools(props: { model: string; toolSet: string; folder: string }) {
  const trpc = useTRPC();
  const ui = useUi();
  const overview = useQuery(
    trpc.chat.toolsOverview.queryOptions({
      model: props.model,
      ...(props.toolSet ? { toolSet: props.toolSet } : {}),
      ...(props.folder ? { workspace: props.folder } : {}),
    }),
  );
  const o = overview.data;
  const servers = o?.servers.filter((s) => s.total > 0) ?? [];
  const label = o
    ? `Tools for this conversation: ${plural(o.offered, 'tool')}${o.mode === 'deferred' ? ', loaded on demand' : ''}`
    : 'Tools for this conversation';
  return (
    <Popover
      label="Tools for this conversation"
      testId="chat-tools"
      align="start"
      trigger={
        <Button
          size="sm"
          variant="ghost"
          className="chat-tools-button"
          icon={<Wrench size={16} aria-hidden />}
          aria-label={label}
          title={label}
        >
          {o ? o.offered : ''}
        </Button>
      }
    >
      <div className="stack chat-tools">
        {o && (
          <p data-testid="chat-tools-mode">
            {o.mode === 'direct'
              ? `${plural(o.offered, 'tool')} from ${plural(servers.filter((s) => s.offered).length, 'server')} go with each message${props.toolSet ? ` (tool set ${props.toolSet})` : ''}.`
              : `${plural(o.offered, 'tool')} load on demand: the model gets their names and looks up the ones it needs, because there are more than ${o.thresholds.tools} tools or ${o.thresholds.tokens} tokens of them.`}
          </p>
        )}
        {o && servers.length === 0 && <p className="muted">No server offers tools yet.</p>}
        <ul className="chat-tools-servers">
          {servers.map((s) => (
            <li key={s.server} data-testid={`chat-tools-${s.server}`}>
              <strong>{s.server}</strong>{' '}
              <span>
                {s.offered} of {s.total} on
              </span>
              {s.off.map((off) => (
                <span key={off.kind} className="muted small">
                  {' '}
                  · {off.count} {OFF_WORDS[off.kind]}
                </span>
              ))}
            </li>
          ))}
        </ul>
        <p className="muted small">
          A tool turned on or off in Tools, and a server added, reach this conversation at its next message.
        </p>
        <div className="row">
          <Button size="sm" onClick={() => ui.navigate('tools')}>
            Turn tools on or off
          </Button>
          {o?.mode === 'deferred' && (
            <Button size="sm" onClick={() => ui.navigate('limits')}>
              Change when tools load on demand
            </Button>
          )}
        </div>
      </div>
    </Popover>
  );
}
