// The chat's live region: a screen reader hears each tool step as it completes and the answer when the
// turn ends, without moving focus (WAI-ARIA `status`, polite). Only what arrives while the conversation
// is open is announced; loading a conversation announces nothing.
import { useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '@shared/chat';

const STATUS_WORDS = { done: 'done', failed: 'failed', refused: 'refused' } as const;

/**
 * What to say about the steps that just arrived, and, when the turn ended, its answer (`turn`: the
 * messages the turn brought); null when nothing is worth a word.
 */
export function announcementOf(steps: readonly ChatMessage[], turn?: readonly ChatMessage[]): string | null {
  const said: string[] = [];
  for (const m of steps) {
    if (m.role === 'tool') said.push(`Tool ${m.target?.friendlyName ?? m.name}: ${STATUS_WORDS[m.status]}.`);
    if (m.role === 'note' && m.level === 'warning') said.push(m.text);
  }
  if (turn) {
    const answer = [...turn].reverse().find((m) => m.role === 'assistant' && m.text.trim());
    if (answer?.role === 'assistant') {
      const text = answer.text.replace(/\s+/g, ' ').trim();
      said.push(`Answer: ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`);
    } else said.push('The answer ended.');
  }
  return said.length ? said.join(' ') : null;
}

export function ChatAnnouncer({ messages, running }: { messages: readonly ChatMessage[]; running: boolean }) {
  const [text, setText] = useState('');
  const seen = useRef(messages.length);
  const pending = useRef<ChatMessage[]>([]);
  const wasRunning = useRef(running);
  useEffect(() => {
    if (messages.length < seen.current) seen.current = messages.length; // a branch
    const arrived = messages.slice(seen.current);
    seen.current = messages.length;
    // Tool steps now; the answer's text when the turn ends (it is the turn's last step).
    const tools = arrived.filter((m) => m.role === 'tool' || m.role === 'note');
    pending.current.push(...arrived);
    const ended = wasRunning.current && !running;
    wasRunning.current = running;
    const said = announcementOf(tools, ended ? pending.current : undefined);
    if (ended) pending.current = [];
    if (said) setText(said);
  }, [messages, running]);
  return (
    <div className="sr-only" role="status" aria-live="polite" data-testid="chat-announcer">
      {text}
    </div>
  );
}
