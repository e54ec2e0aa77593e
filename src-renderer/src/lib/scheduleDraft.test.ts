// The Schedules form's draft ↔ schedule mapping: what the screen saves is what the CLI would write.
import { describe, expect, it } from 'vitest';
import { ScheduleSchema } from '@shared/schedules';
import { draftOf, emptyDraft, inputOf, whenOf } from './scheduleDraft';

describe('schedule drafts', () => {
  it('turns a filled form into a valid schedule input', () => {
    const d = {
      ...emptyDraft('openai:gpt-4o'),
      name: 'Morning news',
      prompt: 'Summarise my inbox',
      kind: 'cron' as const,
      when: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
      allow: 'mcp__files__write_file, mcp__mail__*\n',
      timeLimit: '15m',
    };
    expect(inputOf(d)).toEqual({
      ok: true,
      input: expect.objectContaining({
        name: 'Morning news',
        when: { kind: 'cron', expr: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
        allow: ['mcp__files__write_file', 'mcp__mail__*'],
        timeLimitS: 900,
        workspace: null,
      }),
    });
  });

  it('names the wrong field and says why', () => {
    const base = { ...emptyDraft('openai:gpt-4o'), name: 'x', prompt: 'p' };
    expect(inputOf({ ...base, when: '30s' })).toMatchObject({
      ok: false,
      field: 'when',
      message: /at least one minute/,
    });
    expect(inputOf({ ...base, when: 'soon' })).toMatchObject({
      ok: false,
      field: 'when',
      message: /not a duration/,
    });
    expect(inputOf({ ...base, model: 'gpt-4o' })).toMatchObject({
      ok: false,
      field: 'model',
      message: /provider:model/,
    });
    expect(inputOf({ ...base, name: '' })).toMatchObject({ ok: false, field: 'name' });
    expect(inputOf({ ...base, timeLimit: 'long' })).toMatchObject({ ok: false, field: 'timeLimitS' });
  });

  it('gives back the same schedule when a saved one is edited and saved unchanged', () => {
    const saved = ScheduleSchema.parse({
      id: 's1',
      createdAt: 1,
      name: 'Every 90 minutes',
      prompt: 'Check the build',
      model: 'ollama:llama3.2',
      toolSet: 'Reviewer',
      codeMode: true,
      allow: ['mcp__ci__rerun'],
      workspace: '/tmp',
      when: { kind: 'every', everyMs: 90 * 60_000 },
      missed: 'skip',
      timeLimitS: 120,
      notify: false,
      paused: true,
    });
    const { id: _id, createdAt: _c, ...input } = saved;
    expect(inputOf(draftOf(saved))).toEqual({ ok: true, input });
    expect(whenOf({ kind: 'at', when: '2030-01-01T09:00', timezone: '' })).toEqual({
      kind: 'at',
      at: '2030-01-01T09:00',
    });
  });
});
