import { describe, expect, it } from 'vitest';
import type { ElicitationFormSchema } from '@shared/interactions';
import { choices, fieldKind, initialValues, validateForm } from './elicitationForm';

const schema: ElicitationFormSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', format: 'email' },
    agree: { type: 'boolean', default: true },
    count: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    color: { type: 'string', enum: ['red', 'blue'], enumNames: ['Red', 'Blue'], default: 'blue' },
    tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, maxItems: 2, default: ['a'] },
  },
  required: ['name', 'count'],
};

describe('the elicitation form model', () => {
  it('applies the schema defaults (SEP-1034) and picks a control per field', () => {
    expect(initialValues(schema)).toEqual({
      name: '',
      email: '',
      agree: true,
      count: '42',
      color: 'blue',
      tags: ['a'],
    });
    expect(Object.values(schema.properties).map(fieldKind)).toEqual([
      'text',
      'text',
      'checkbox',
      'number',
      'select',
      'multi',
    ]);
    expect(choices(schema.properties.color!)).toEqual([
      { value: 'red', label: 'Red' },
      { value: 'blue', label: 'Blue' },
    ]);
  });

  it('names every bad field, and sends typed content when all are good', () => {
    const bad = validateForm(schema, {
      ...initialValues(schema),
      name: 'x',
      email: 'nope',
      count: '101',
      tags: ['a', 'b', 'c'],
    });
    expect(bad).toEqual({
      ok: false,
      errors: {
        name: 'needs at least 2 characters',
        email: 'must be an email address like name@example.com',
        count: 'must be at most 100',
        tags: 'choose at most 2',
      },
    });
    expect(validateForm(schema, { ...initialValues(schema), count: '' })).toMatchObject({
      ok: false,
      errors: { name: 'required', count: 'required' },
    });
    expect(validateForm(schema, { ...initialValues(schema), name: 'Ada', count: '7.5' })).toMatchObject({
      errors: { count: 'must be a whole number' },
    });
    expect(validateForm(schema, { ...initialValues(schema), name: 'Ada', email: 'ada@example.com' })).toEqual(
      {
        ok: true,
        content: {
          name: 'Ada',
          email: 'ada@example.com',
          agree: true,
          count: 42,
          color: 'blue',
          tags: ['a'],
        },
      },
    );
  });
});
