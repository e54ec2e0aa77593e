// eachParked (pendingRequests.ts): an asker that comes after a quick client still answers what was parked
// before it, each request once, and nothing after it stops.
import { describe, expect, it } from 'vitest';
import { eachParked, PendingRequests, type Stamped } from './pendingRequests';

interface Question extends Stamped {
  text: string;
}

const parked = () =>
  new PendingRequests<Question, string>({
    noun: 'question',
    timeoutMs: 60_000,
    parse: (_, answer) => String(answer),
    answerHint: 'Answer it.',
  });

describe('eachParked', () => {
  it('hands over what was parked before and what is parked later, each once, until stopped', async () => {
    const questions = parked();
    const early = questions.ask({ text: 'early' }, { label: 'a' });
    const seen: string[] = [];
    const stop = eachParked(questions, (q) => {
      seen.push(q.text);
      questions.answer(q.id, `${q.text} answered`);
    });
    expect(seen).toEqual(['early']);
    const later = questions.ask({ text: 'later' }, { label: 'b' });
    await expect(early).resolves.toBe('early answered');
    await expect(later).resolves.toBe('later answered');
    expect(seen).toEqual(['early', 'later']);

    stop();
    const after = questions.ask({ text: 'after stop' }, { label: 'c' });
    expect(seen).toEqual(['early', 'later']);
    expect(questions.pending().map((q) => q.text)).toEqual(['after stop']);
    questions.dispose();
    await expect(after).rejects.toThrow(/cancelled/);
  });
});
