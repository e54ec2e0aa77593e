import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ViewCallTickets } from './viewCallTickets';

describe('ViewCallTickets', () => {
  it('answers at once, says when the outcome is ready, and hands it over once, to its view only', async () => {
    const tickets = new ViewCallTickets();
    let finish!: () => void;
    const ticket = tickets.start(
      'view-a',
      () => new Promise((resolve) => (finish = () => resolve({ content: [{ type: 'text', text: 'ok' }] }))),
    );
    expect(tickets.take('view-a', ticket)).toEqual({ done: false });
    const done = once(tickets, 'done');
    finish();
    expect(await done).toEqual([{ ticket, viewId: 'view-a' }]);
    expect(() => tickets.take('view-b', ticket)).toThrow(/unknown or was already answered/);
    expect(tickets.take('view-a', ticket)).toEqual({
      done: true,
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
    expect(() => tickets.take('view-a', ticket)).toThrow(/unknown or was already answered/);
    expect(tickets.size).toBe(0);
  });

  it('a call that throws comes back as the error the view gets', async () => {
    const tickets = new ViewCallTickets();
    const ticket = tickets.start('v', () => Promise.reject(new Error('No tool "x".')));
    await once(tickets, 'done');
    expect(tickets.take('v', ticket)).toEqual({ done: true, error: 'No tool "x".' });
  });

  it('drops outcomes nobody took after ten minutes', async () => {
    let now = 0;
    const tickets = new ViewCallTickets(() => now);
    tickets.start('v', () => Promise.resolve({ content: [] }));
    await once(tickets, 'done');
    now = 10 * 60_000 + 1;
    tickets.start('v', () => new Promise(() => undefined));
    expect(tickets.size).toBe(1);
  });
});
