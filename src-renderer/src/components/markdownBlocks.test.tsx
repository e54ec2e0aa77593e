// @vitest-environment happy-dom
// The streaming split (markdownBlocks.ts): whatever the pieces a text arrives in, its blocks rendered one
// by one show exactly what the whole text rendered at once shows, and a finished block never changes.
import { Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { markdownAnswer } from '../../../test/fixtures/markdownAnswer';
import { TooltipProvider } from '../ui';
import { completeBlocks, isCut, splitBlocks, type Block, type BlockSplit } from './markdownBlocks';
import { parseMarkdown, renderFinished } from './markdownPipeline';

const html = (blocks: (Block | string)[]) =>
  renderToStaticMarkup(
    <TooltipProvider>
      {blocks.map((b, i) => (
        <Fragment key={i}>{renderFinished(typeof b === 'string' ? b : b.text)}</Fragment>
      ))}
    </TooltipProvider>,
  )
    // The whole text's root puts a newline between its top-level nodes; blocks side by side do not (it
    // shows as nothing: white space beside a block's edge).
    .replace(/>\n+/g, '>')
    .replace(/\n+</g, '<');

/** Streams `text` in pieces of 1 to `most` characters (the same pieces for the same seed). */
function stream(text: string, most: number, seed = 7): { split: BlockSplit; history: Block[][] } {
  let split: BlockSplit | undefined;
  let at = 0;
  let r = seed;
  const history: Block[][] = [];
  while (at < text.length) {
    r = (r * 48271) % 2147483647;
    at = Math.min(text.length, at + 1 + (r % most));
    split = splitBlocks(text.slice(0, at), parseMarkdown, split);
    history.push(split.finished);
  }
  return { split: split!, history };
}

function expectSameAsWhole(text: string, most: number) {
  const { split, history } = stream(text, most);
  // A finished block is never taken back or changed.
  for (let i = 1; i < history.length; i++)
    expect(history[i]!.slice(0, history[i - 1]!.length)).toEqual(history[i - 1]);
  const blocks = completeBlocks(text, split);
  expect(blocks.map((b) => b.text).join('')).toBe(text);
  expect(html(blocks)).toBe(html([text]));
  return blocks;
}

describe('where a streaming answer is cut into blocks', () => {
  it('cuts only after a blank line, before a line nothing before can reach into', () => {
    const t = 'para\n\n# Head\n\n- a\n\n- b\n\n  indented\n\n> quote\n\n2. item\n\ntext';
    expect(isCut(t, t.indexOf('# Head'))).toBe(true);
    expect(isCut(t, t.indexOf('text'))).toBe(true);
    expect(isCut(t, t.indexOf('- b'))).toBe(false); // the list goes on
    expect(isCut(t, t.indexOf('  indented'))).toBe(false);
    expect(isCut(t, t.indexOf('> quote'))).toBe(false);
    expect(isCut(t, t.indexOf('2. item'))).toBe(false);
    expect(isCut('para\nnext', 5)).toBe(false); // no blank line: a lazy continuation
  });

  it('renders a long answer (tables, code in six languages, math, lists) the same in blocks as whole', () => {
    const blocks = expectSameAsWhole(markdownAnswer(3 * 1024), 40);
    expect(blocks.length).toBeGreaterThan(20);
  });

  it('never cuts inside a code fence, a $$ block, an HTML block or a list with blank lines in it', () => {
    const text = [
      'Intro.',
      '',
      '```python',
      'def f():',
      '',
      'Not a paragraph: still code.',
      '',
      '    return 1',
      '```',
      '',
      '$$',
      'a = b',
      '',
      'c = d',
      '$$',
      '',
      '<!--',
      '',
      'Inside a comment.',
      '',
      '-->',
      '',
      '1. one',
      '',
      '2. two',
      '',
      '   still two',
      '',
      '- [x] done',
      '',
      '- [ ] open',
      '',
      'Title',
      '=====',
      '',
      '~~~',
      'tilde fence',
      '',
      'More.',
      '~~~',
      '',
      'The end.',
    ].join('\n');
    const blocks = expectSameAsWhole(text, 1);
    expect(blocks.some((b) => b.text.includes('def f()') && b.text.includes('return 1'))).toBe(true);
    expect(blocks.some((b) => b.text.includes('1. one') && b.text.includes('still two'))).toBe(true);
  });

  it('renders an answer with a link reference or a footnote as one block once it is complete', () => {
    const text =
      'See [the guide][g] and a note[^1].\n\nMore text.\n\n[g]: https://example.com/g\n\n[^1]: The note.';
    const blocks = expectSameAsWhole(text, 5);
    expect(blocks).toEqual([{ text }]);
  });

  it('keeps what a person sees safe in blocks too: raw HTML stays text', () => {
    const text =
      'Hi\n\n<script>window.pwned = 1</script>\n\nand <img src=x onerror="window.pwned = 2">\n\nBye';
    const blocks = expectSameAsWhole(text, 4);
    expect(html(blocks)).not.toMatch(/<script|<img/);
    expect(html(blocks)).toContain('&lt;script&gt;');
  });
});
