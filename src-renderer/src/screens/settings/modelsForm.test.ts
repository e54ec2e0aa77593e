// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROVIDER_URLS } from '@shared/providers';
import { formUrl } from './ModelsScreen';

describe('a provider URL as Settings > Models compares it with what is saved', () => {
  it("is trimmed (the save trims it), and Ollama's default is the empty field", () => {
    // The setup saves Ollama's default URL; the form shows it empty: the same, so nothing is unsaved.
    expect(formUrl('ollama', DEFAULT_PROVIDER_URLS.ollama)).toBe('');
    expect(formUrl('ollama', ` ${DEFAULT_PROVIDER_URLS.ollama} `)).toBe('');
    expect(formUrl('ollama', 'http://127.0.0.1:9999')).toBe('http://127.0.0.1:9999');
    expect(formUrl('openai', ' http://127.0.0.1:1234/v1 ')).toBe('http://127.0.0.1:1234/v1');
  });
});
