// A streaming answer's Markdown cut into blocks (docs/decisions/010-streaming-markdown.md): the text before a
// cut never changes how it renders whatever follows, so a finished block renders once, and only the open
// last block is parsed again as text arrives. The cuts are found by the renderer's own parser (so never
// inside a code fence, a $$ math block or an HTML block), and only where a top-level node starts at the
// beginning of a line after a blank line with a character that cannot continue what came before (not
// indented, not a list marker, not a quote marker): there every container of the text before is closed,
// and what follows cannot reach back (no lazy continuation after a blank line). Link reference and
// footnote definitions are the exception (a definition further on changes a reference before it): an
// answer that holds one renders as one block once it is complete.
import type { Root, RootContent } from 'mdast';

/** Parses Markdown the way the renderer does (remark-parse with GFM and math). */
export type ParseMarkdown = (text: string) => Root;

export interface Block {
  text: string;
  /** Its top-level nodes as the split parsed them (a block cut while streaming), so it shows at once. */
  nodes?: RootContent[];
}

export interface BlockSplit {
  /** Finished blocks, in order: their text concatenated is the text up to `openFrom`. */
  finished: Block[];
  /** Where the open last block starts in the text. */
  openFrom: number;
  /** The open last block's top-level nodes, parsed (positions relative to `openFrom`); empty when none. */
  open: RootContent[];
  /** A definition (link reference or footnote) was seen: the complete text renders as one block. */
  definitions: boolean;
}

const DEFINITIONS = new Set(['definition', 'footnoteDefinition']);

/** Whether a node starting at `at` in `text` begins a block nothing before it can reach into. */
export function isCut(text: string, at: number): boolean {
  if (at <= 0 || text[at - 1] !== '\n') return false;
  // The line before is blank: it ends every paragraph, and lazy continuation needs none between.
  const before = text.lastIndexOf('\n', at - 2);
  if (text.slice(before + 1, at - 1).trim() !== '') return false;
  // Not indented (a list item's or a code block's content), not a list or quote marker (a list
  // continues across blank lines with its next item), not a digit (an ordered item's number).
  return /^[^\s\-*+>0-9]/.test(text.slice(at, at + 1));
}

/**
 * Splits `text`, going on from `from` (a split of an earlier, shorter text of which `text` is the
 * continuation): the text before `from.openFrom` is not parsed again.
 */
export function splitBlocks(text: string, parse: ParseMarkdown, from?: BlockSplit): BlockSplit {
  const start = from?.openFrom ?? 0;
  const finished = from ? [...from.finished] : [];
  let definitions = from?.definitions ?? false;
  const tail = text.slice(start);
  const nodes = parse(tail).children;
  let cutIndex = 0;
  let cutAt = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (DEFINITIONS.has(node.type)) definitions = true;
    const at = node.position?.start.offset;
    if (i === 0 || at === undefined || !isCut(tail, at)) continue;
    finished.push({ text: tail.slice(cutAt, at), nodes: nodes.slice(cutIndex, i) });
    cutIndex = i;
    cutAt = at;
  }
  return { finished, openFrom: start + cutAt, open: nodes.slice(cutIndex), definitions };
}

/**
 * The blocks of a complete text (`split` is of this very text): the finished ones and the last, or the
 * whole text when it holds a definition.
 */
export function completeBlocks(text: string, split: BlockSplit): Block[] {
  if (split.definitions) return [{ text }];
  const last = text.slice(split.openFrom);
  return last ? [...split.finished, { text: last, nodes: split.open }] : split.finished;
}
