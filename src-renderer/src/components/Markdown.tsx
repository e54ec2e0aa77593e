// The model's answers and a tool's text as people expect to read them: Markdown with GitHub's extensions
// (tables, task lists, strikethrough, autolinks), highlighted code blocks with a copy button, and math,
// through the one pipeline (markdownPipeline.tsx: untrusted text, sanitised before anything renders).
// An answer that is still streaming renders in blocks (markdownBlocks.ts, docs/decisions/010-streaming-
// markdown.md): only the open last block again as text arrives, without math and highlighting; a block
// that finishes shows at once as it was parsed, and gets its math and highlighting once, when the main
// thread is idle. The complete text renders as those same blocks, so the end of a stream re-renders only
// its last block.
import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import type { RootContent } from 'mdast';
import { completeBlocks, splitBlocks, type Block, type BlockSplit } from './markdownBlocks';
import { keptFinished, parseMarkdown, renderFinished, renderOpen } from './markdownPipeline';
import { latexDelimitersAsDollars } from './mathDelimiters';
import './markdown.css';
import 'katex/dist/katex.min.css';

/** The blocks of the texts that finished streaming last, for a view of the same text mounted again. */
const streamedBlocks = new Map<string, string[]>();
const STREAMED_KEPT = 32;

function keepBlocks(text: string, blocks: Block[]): void {
  streamedBlocks.set(
    text,
    blocks.map((b) => b.text),
  );
  if (streamedBlocks.size > STREAMED_KEPT) streamedBlocks.delete(streamedBlocks.keys().next().value!);
}

/** Work for idle time, first come first served (a timeout so a busy page still gets to it). */
const idleWork: (() => void)[] = [];
function whenIdle(work: () => void): () => void {
  const run = () => work();
  idleWork.push(run);
  if (idleWork.length === 1) scheduleIdle();
  return () => {
    const i = idleWork.indexOf(run);
    if (i >= 0) idleWork.splice(i, 1);
  };
}
function scheduleIdle() {
  const step = (deadline?: IdleDeadline) => {
    do idleWork.shift()?.();
    while (idleWork.length && deadline && deadline.timeRemaining() > 8);
    if (idleWork.length) scheduleIdle();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(step, { timeout: 300 });
  else setTimeout(step, 1);
}

/**
 * A finished block: as it was parsed (a block cut while streaming) until its math and highlighting are
 * ready, then those, rendered once per text (and kept, markdownPipeline.tsx). A block with no parsed
 * nodes (a text that did not stream) renders whole at once.
 */
const FinishedBlock = memo(function FinishedBlock({ block }: { block: Block }) {
  const [full, setFull] = useState<ReactNode | undefined>(() =>
    block.nodes ? keptFinished(block.text) : renderFinished(block.text),
  );
  useEffect(() => {
    if (full !== undefined) return;
    return whenIdle(() => setFull(renderFinished(block.text)));
  }, [block, full]);
  return <>{full ?? renderOpen(block.nodes!)}</>;
});

function OpenBlock({ nodes }: { nodes: RootContent[] }) {
  return <>{renderOpen(nodes)}</>;
}

/**
 * Markdown text, rendered safely. `streaming`: the text grows (each render continues the last one's
 * split); a text that stops growing keeps the blocks it streamed in.
 */
export const Markdown = memo(function Markdown({
  text: written,
  testId,
  streaming = false,
}: {
  text: string;
  testId?: string;
  streaming?: boolean;
}) {
  // `\(…\)` and `\[…\]` are math as well as `$$` (mathDelimiters.ts).
  const text = latexDelimitersAsDollars(written);
  const last = useRef<{ text: string; split: BlockSplit } | null>(null);
  const held = last.current && text.startsWith(last.current.text) ? last.current.split : undefined;
  let blocks: Block[];
  let open: RootContent[] | null = null;
  if (streaming) {
    const split = splitBlocks(text, parseMarkdown, held);
    last.current = { text, split };
    blocks = split.finished;
    open = split.open.length ? split.open : null;
  } else if (held) {
    // The stream ended here: the open block is finished now (one block renders, not the whole answer).
    blocks = completeBlocks(
      text,
      last.current!.text === text ? held : splitBlocks(text, parseMarkdown, held),
    );
    keepBlocks(text, blocks);
  } else blocks = (streamedBlocks.get(text) ?? [text]).map((t) => ({ text: t }));
  return (
    <div className="md" data-testid={testId}>
      {blocks.map((b, i) => (
        // A block's text never changes at its place while it streams; the whole text, which replaces
        // them all when it holds a definition, is a new block.
        <FinishedBlock key={`${i}:${b.text.length}`} block={b} />
      ))}
      {open && <OpenBlock nodes={open} />}
    </div>
  );
});

/**
 * Whether a tool's text is written in Markdown (a heading, a list, a fence, a table, emphasis or a link).
 * Anything else keeps its lines and spaces as sent (a listing, a log, JSON): Markdown would fold them.
 */
export function looksLikeMarkdown(text: string): boolean {
  return MARKDOWN_SIGNS.some((re) => re.test(text));
}

const MARKDOWN_SIGNS = [
  /^#{1,6} \S/m,
  /^\s{0,3}(?:[-*+]|\d+\.) \S/m,
  /^\s{0,3}```/m,
  /^\s*\|?.+\|.+\n\s*\|?\s*:?-{3,}/m,
  /\*\*\S.*?\*\*/,
  /\[[^\]\n]+\]\([^)\s]+\)/,
];
