// The Playground's arguments: the template it starts from for a tool, and the check before a call.
import { describe, expect, it } from 'vitest';
import { argsTemplate, checkArgs, describeExpectedArgs } from './toolArguments';

// server-everything's echo and get-sum, and a schema with the other kinds a template fills in.
const ECHO = {
  type: 'object',
  properties: { message: { type: 'string', description: 'Message to echo' } },
  required: ['message'],
};
const SUM = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

describe('argsTemplate', () => {
  it('lists each required property with an empty value of its type', () => {
    expect(JSON.parse(argsTemplate(ECHO))).toEqual({ message: '' });
    expect(JSON.parse(argsTemplate(SUM))).toEqual({ a: 0, b: 0 });
    expect(
      JSON.parse(
        argsTemplate({
          type: 'object',
          properties: {
            mode: { type: 'string', enum: ['fast', 'slow'] },
            depth: { type: 'integer', default: 3 },
            tags: { type: 'array', items: { type: 'string' } },
            opts: { type: 'object' },
            dry: { type: ['boolean', 'null'] },
            optional: { type: 'string' },
          },
          required: ['mode', 'depth', 'tags', 'opts', 'dry'],
        }),
      ),
    ).toEqual({ mode: 'fast', depth: 3, tags: [], opts: {}, dry: false });
  });

  it('is {} for a tool that needs nothing, or a schema it cannot read', () => {
    expect(argsTemplate({ type: 'object', properties: { x: { type: 'string' } } })).toBe('{}');
    expect(argsTemplate(undefined)).toBe('{}');
    expect(argsTemplate({ required: 'message' })).toBe('{}');
  });

  it('gives text the check accepts once the blanks are filled', () => {
    expect(checkArgs(argsTemplate(SUM), SUM)).toEqual({ ok: true, value: { a: 0, b: 0 } });
  });
});

describe('checkArgs', () => {
  it('names a required property that was left out', () => {
    expect(checkArgs('{}', ECHO)).toEqual({ ok: false, error: 'message is required (string)' });
  });

  it('says what is wrong with a value of the wrong type, and with text that is not JSON', () => {
    expect(checkArgs('{"message": 3}', ECHO)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^message: /),
    });
    expect(checkArgs('{"message": ', ECHO)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Not valid JSON/),
    });
    expect(checkArgs('[]', ECHO)).toMatchObject({
      ok: false,
      error: expect.stringContaining('one JSON object'),
    });
  });
});

describe('describeExpectedArgs', () => {
  it('names each property with its type, required ones first, and an example to start from', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['fast', 'slow'], description: 'How\nfast' },
        path: { type: 'string', description: 'Where' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['path'],
    };
    expect(describeExpectedArgs(schema)).toEqual({
      lines: [
        'path (string, required): Where',
        'mode (one of "fast", "slow"): How',
        'tags (array of string)',
      ],
      example: '{\n  "path": ""\n}',
    });
    expect(describeExpectedArgs({ type: 'object' })).toEqual({ lines: [], example: '{}' });
  });
});
