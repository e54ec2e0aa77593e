// The renderer's table of live events (ARCHITECTURE.md, "The path of an event"): one handler per `UiEvent`
// type, derived from the one declaration (shared/wire.ts, LIVE_EVENTS). The compiler asks for a handler for
// every event there is, and hands each handler its own event's fields.
import type { UiEvent } from '@shared/wire';

export type UiEventType = UiEvent['type'];
export type UiEventOf<T extends UiEventType> = Extract<UiEvent, { type: T }>;
type UiEventMap = { [T in UiEventType]: UiEventOf<T> };

/** What the renderer does with each live event. */
export type UiEventHandlers = { [T in UiEventType]: (e: UiEventMap[T]) => void };

/** Hands `e` to its handler. */
export function dispatchUiEvent<T extends UiEventType>(handlers: UiEventHandlers, e: UiEventMap[T]): void {
  const handle: (e: UiEventMap[T]) => void = handlers[e.type];
  handle(e);
}
