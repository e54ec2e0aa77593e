// @vitest-environment happy-dom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TooltipProvider } from '../ui';
import { END_MARK, markdownAnswer } from '../../../test/fixtures/markdownAnswer';
import { looksLikeMarkdown, Markdown } from './Markdown';

afterEach(cleanup);

const md = (text: string) =>
  render(
    <TooltipProvider>
      <Markdown text={text} testId="md" />
    </TooltipProvider>,
  ).getByTestId('md');

describe('Markdown', () => {
  it('renders a table, a task list, a list and a highlighted code block with a copy button', () => {
    const el = md(
      [
        '| name | size |',
        '| --- | ---: |',
        '| alpha.txt | 10 |',
        '',
        '- [x] done',
        '- [ ] to do',
        '',
        '1. **first**',
        '2. second',
        '',
        '```ts',
        'const answer: number = 42; // the answer',
        '```',
      ].join('\n'),
    );
    expect(el.querySelector('table td')?.textContent).toBe('alpha.txt');
    const boxes = el.querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
    expect([...boxes].map((b) => b.checked)).toEqual([true, false]);
    expect(el.querySelector('ol li strong')?.textContent).toBe('first');
    expect(el.querySelector('pre code .hljs-keyword')?.textContent).toBe('const');
    expect(el.querySelector('pre code .hljs-comment')?.textContent).toBe('// the answer');
    expect(el.querySelector('button[aria-label="Copy code"]')).not.toBeNull();
  });

  it('renders math with KaTeX, inline and as a block', () => {
    const el = md('Euler: $$e^{i\\pi} + 1 = 0$$\n\n$$\n\\int_0^1 x\\,dx\n$$');
    expect(el.querySelectorAll('.katex').length).toBe(2);
    expect(el.querySelector('.katex-display')).not.toBeNull();
  });

  it('renders math between \\( \\) and \\[ \\], and leaves them as written in code', () => {
    const el = md(
      'Inline \\(a^2 + b^2\\) here.\n\n\\[\n\\int_0^1 x\\,dx\n\\]\n\nCode: `\\(x\\)`, an escaped \\\\(y\\).',
    );
    expect(el.querySelectorAll('.katex').length).toBe(2);
    expect(el.querySelector('.katex-display')).not.toBeNull();
    expect(el.querySelector('code')?.textContent).toBe('\\(x\\)');
    expect(el.textContent).not.toContain('$$');
  });

  it('keeps single dollars as text: prices are not math', () => {
    const el = md('It costs $5 and $10 with tax.');
    expect(el.querySelector('.katex')).toBeNull();
    expect(el.textContent).toContain('It costs $5 and $10 with tax.');
  });

  it('shows raw HTML from a model or a tool as text, never as elements', () => {
    const el = md('Hi <script>window.pwned = 1</script> and <img src=x onerror="window.pwned = 2">');
    expect(el.querySelector('script')).toBeNull();
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toContain('<script>');
    expect(el.textContent).toContain('<img src=x onerror=');
  });

  it('drops javascript: links and shows Markdown images as links instead of loading them', () => {
    const el = md('[click](javascript:alert(1)) and ![a chart](https://example.invalid/track.png)');
    expect(el.querySelector('a[href^="javascript"]')).toBeNull();
    expect(el.querySelector('img')).toBeNull();
    const link = el.querySelector<HTMLAnchorElement>('a.md-image-link');
    expect(link?.getAttribute('href')).toBe('https://example.invalid/track.png');
    expect(link?.textContent).toBe('a chart');
    expect(link?.rel).toContain('noopener');
  });
});

describe('Markdown that streams', () => {
  it('keeps a finished block as it was, shows the open one, and gets math and highlighting once a block is done', async () => {
    const text = markdownAnswer(2048);
    const view = (t: string, streaming: boolean) => (
      <TooltipProvider>
        <Markdown text={t} testId="md" streaming={streaming} />
      </TooltipProvider>
    );
    const { getByTestId, rerender } = render(view(text.slice(0, 400), true));
    const heading = getByTestId('md').querySelector('h1');
    expect(heading?.textContent).toBe('The plan, step by step');
    rerender(view(text.slice(0, 1500), true));
    expect(getByTestId('md').querySelector('h1')).toBe(heading);
    // Math and highlighting are not on the way of the text: none yet, the formulas show as TeX.
    expect(getByTestId('md').querySelector('.katex')).toBeNull();
    expect(getByTestId('md').textContent).toContain('\\varepsilon');
    rerender(view(text, false));
    expect(getByTestId('md').querySelector('h1')).toBe(heading);
    expect(getByTestId('md').textContent).toContain(END_MARK);
    // Math and highlighting come to the finished blocks when the page is idle.
    await waitFor(() =>
      expect(getByTestId('md').querySelectorAll('.katex-display').length).toBeGreaterThan(0),
    );
    expect(getByTestId('md').querySelector('pre code .hljs-keyword')).not.toBeNull();
  });
});

describe('Markdown that streams, piece by piece', () => {
  it.each([
    ['\\[ \\]', '\\[\n\\int_0^1 x\\,dx\n\\]'],
    ['a math fence', '```math\n\\int_0^1 x\\,dx\n```'],
  ])('shows displayed math (%s) as its TeX until it renders, never as code with a copy button', (_, math) => {
    const text = `Code:\n\n\`\`\`js\nconst a = 1;\n\`\`\`\n\nDisplayed:\n\n${math}\n\nThe end.`;
    const view = (t: string, streaming: boolean) => (
      <TooltipProvider>
        <Markdown text={t} testId="md" streaming={streaming} />
      </TooltipProvider>
    );
    const { getByTestId, rerender } = render(view(text.slice(0, 1), true));
    // Once the math's first line is whole (before it, "```ma" is a code block in language "ma").
    const known = text.indexOf(math) + math.indexOf('\n') + 1;
    let sawSource = false;
    for (let at = 2; at <= text.length; at++) {
      rerender(view(text.slice(0, at), at < text.length));
      const el = getByTestId('md');
      // One code block, one copy button.
      if (at >= known)
        expect(el.querySelectorAll('button[aria-label="Copy code"]').length).toBeLessThanOrEqual(1);
      sawSource ||= el.querySelector('pre.md-math-source')?.textContent?.includes('\\int_0^1') ?? false;
    }
    expect(sawSource).toBe(true);
  });
});

describe('looksLikeMarkdown', () => {
  it('tells Markdown from a listing, a log or JSON (which keep their lines as sent)', () => {
    expect(looksLikeMarkdown('# Report\nAll good')).toBe(true);
    expect(looksLikeMarkdown('Files:\n- a\n- b')).toBe(true);
    expect(looksLikeMarkdown('| a | b |\n|---|---|\n| 1 | 2 |')).toBe(true);
    expect(looksLikeMarkdown('[FILE] alpha.txt\n[FILE] beta.md')).toBe(false);
    expect(looksLikeMarkdown('{"a": 1}')).toBe(false);
    expect(looksLikeMarkdown('Echo: hello')).toBe(false);
  });
});
