// LaTeX's own delimiters for math, `\(…\)` inline and `\[…\]` displayed, as the `$$` that remark-math
// reads (markdownPipeline.tsx: single dollars stay text, "$5 and $10" is a price). In Markdown `\(` is an
// escaped parenthesis, so the parser would drop the backslash before any plugin sees it: the delimiters
// are rewritten in the text first. Each is two characters, as `$$` is, so every offset into the text (the
// streaming split, markdownBlocks.ts) stays where it was. Code (fences and inline spans) is left as written.

const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))/gm;
const INLINE_CODE = /(`+)[^`][\s\S]*?\1/g;
/** An opening and its closing delimiter within one paragraph (no blank line between). */
const PAIRS = [/\\\(((?:(?!\n[ \t]*\n)[\s\S])+?)\\\)/g, /\\\[((?:(?!\n[ \t]*\n)[\s\S])+?)\\\]/g];

/** The ranges [start, end) of code in `text`, where nothing is math. */
function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const m of text.matchAll(FENCE)) ranges.push([m.index, m.index + m[0].length]);
  for (const m of text.matchAll(INLINE_CODE)) {
    const at = m.index;
    if (!ranges.some(([s, e]) => at >= s && at < e)) ranges.push([at, at + m[0].length]);
  }
  return ranges;
}

/** Whether the character at `at` is escaped (an odd run of backslashes before it). */
function escaped(text: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/** `text` with `\(…\)` and `\[…\]` outside code written as `$$…$$`; the same length. */
export function latexDelimitersAsDollars(text: string): string {
  if (!text.includes('\\(') && !text.includes('\\[')) return text;
  const code = codeRanges(text);
  const inCode = (at: number) => code.some(([s, e]) => at >= s && at < e);
  const chars = text.split('');
  for (const pair of PAIRS)
    for (const m of text.matchAll(pair)) {
      const open = m.index;
      const close = open + m[0].length - 2;
      if (escaped(text, open) || escaped(text, close) || inCode(open) || inCode(close)) continue;
      if (chars[open] !== '\\' || chars[close] !== '\\') continue; // taken by the other kind
      chars.splice(open, 2, '$', '$');
      chars.splice(close, 2, '$', '$');
    }
  return chars.join('');
}
