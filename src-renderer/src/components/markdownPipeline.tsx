// The one Markdown pipeline of the app (docs/untrusted-text.md, "Untrusted text"), built once: react-markdown's
// steps (remark-parse, remark-rehype, raw nodes as text, its URL transform, hast to React) with our
// plugins, on two frozen unified processors instead of one new processor per render (which re-registered
// the highlighter's grammars every time). Everything here came from a model or a server, so it is
// untrusted: raw HTML in the text is turned into text before anything renders (a `<script>` or
// `<img onerror>` in a reply shows as typed), rehype-sanitize then drops any attribute or URL scheme outside
// GitHub's own allowlist, and only after that do KaTeX and highlight.js add their own (trusted) markup —
// and only in the full pipeline, for finished text: the light one (the open block of a streaming answer)
// stops after the sanitiser. Images written in Markdown are shown as links, not fetched: a reply must not
// make the app load a remote URL on its own.
import type { Element, Root as HastRoot } from 'hast';
import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime';
import { urlAttributes } from 'html-url-attributes';
import type { Root, RootContent } from 'mdast';
import { Check, Copy } from 'lucide-react';
import { Fragment, useRef, useState, type ReactNode } from 'react';
import { jsx, jsxs } from 'react/jsx-runtime';
import { defaultUrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type PluggableList } from 'unified';
import { visit } from 'unist-util-visit';
import { copyText, IconButton } from '../ui';

/** GitHub's schema, plus the two classes remark-math marks its code with (so KaTeX can find it). */
const schema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** Raw HTML in the text becomes text: the reader sees what the model or tool wrote, and nothing runs. */
function remarkHtmlAsText() {
  const walk = (node: MdNode): void => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return walk;
}

// Math needs `$$`: a single dollar is a price far more often than math ("$5 and $10"), in a model's answer and
// in a tool's text alike.
const remarkPlugins: PluggableList = [
  remarkGfm,
  [remarkMath, { singleDollarTextMath: false }],
  remarkHtmlAsText,
];
/** Sanitise what the text produced (both pipelines stop here or go on from here). */
const sanitize: PluggableList = [[rehypeSanitize, schema]];
/** Then the renderers' own markup, on finished text only. */
const renderers: PluggableList = [
  [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false }],
  [rehypeHighlight, { detect: false }],
];
// react-markdown's remark-rehype option: raw nodes are kept, then turned into text below (post).
const toHast = { allowDangerousHtml: true };

const full = unified()
  .use(remarkParse)
  .use(remarkPlugins)
  .use(remarkRehype, toHast)
  .use(sanitize)
  .use(renderers)
  .freeze();
const light = unified().use(remarkParse).use(remarkPlugins).use(remarkRehype, toHast).use(sanitize).freeze();

/** Markdown parsed as the pipelines parse it (for the streaming split, markdownBlocks.ts). */
export const parseMarkdown = (text: string): Root => light.parse(text);

function CodeFence({ children }: { children?: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  return (
    // The copy button sits in a bar of its own above the code: laid over the block, it covered the text
    // a long line scrolled under it.
    <div className="md-code">
      <div className="md-code-bar">
        <IconButton
          className="md-code-copy"
          size="sm"
          label={copied ? 'Copied' : 'Copy code'}
          icon={copied ? <Check size={14} /> : <Copy size={14} />}
          onClick={async () => {
            if (await copyText(pre.current?.textContent ?? '')) {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            }
          }}
        />
      </div>
      <pre ref={pre} tabIndex={0}>
        {children}
      </pre>
    </div>
  );
}

/**
 * Whether a `pre` holds displayed math rather than code: remark-math's `$$`/`\[ \]` (`code.math-display`) or
 * a math fence (`code.language-math`); KaTeX renders both in the full pipeline.
 */
function isDisplayMath(pre: Element | undefined): boolean {
  const code = pre?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const classes = code?.properties.className;
  return Array.isArray(classes) && (classes.includes('math-display') || classes.includes('language-math'));
}

const components: Partial<Components> = {
  // Displayed math is a pre of its own until KaTeX renders it (the open block of a streaming answer): its
  // TeX shows as a plain block, not as code with a copy button that goes once the block finishes.
  pre: ({ children, node }) =>
    isDisplayMath(node) ? (
      <pre className="md-math-source" tabIndex={0}>
        {children}
      </pre>
    ) : (
      <CodeFence>{children}</CodeFence>
    ),
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noopener noreferrer" className="md-image-link">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  // Tables scroll on their own rather than widening the whole conversation.
  table: ({ children }) => (
    <div className="md-table" tabIndex={0}>
      <table>{children}</table>
    </div>
  ),
};

/** react-markdown's last step (`post`, react-markdown 10 with skipHtml off): raw nodes as text, URLs checked. */
function toReact(tree: HastRoot): ReactNode {
  visit(tree, (node, index, parent) => {
    if (node.type === 'raw' && parent && typeof index === 'number') {
      parent.children[index] = { type: 'text', value: node.value };
      return index;
    }
    if (node.type === 'element')
      for (const key in urlAttributes) {
        if (!Object.hasOwn(urlAttributes, key) || !Object.hasOwn(node.properties, key)) continue;
        const test = urlAttributes[key];
        if (test === null || test?.includes(node.tagName))
          node.properties[key] = defaultUrlTransform(String(node.properties[key] || ''));
      }
    return undefined;
  });
  return toJsxRuntime(tree, {
    Fragment,
    components,
    ignoreInvalidStyle: true,
    jsx,
    jsxs,
    passKeys: true,
    passNode: true,
  });
}

/** Finished text's elements, kept for the texts rendered last (a block scrolled away and back, a remount). */
const cache = new Map<string, ReactNode>();
const CACHE_ENTRIES = 400;

/** The finished text's elements when they were rendered already. */
export function keptFinished(text: string): ReactNode | undefined {
  return cache.get(text);
}

/** Finished Markdown with math and highlighting, rendered once per text. */
export function renderFinished(text: string): ReactNode {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const out = toReact(full.runSync(full.parse(text)));
  cache.set(text, out);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return out;
}

/** The open block of a streaming answer, from its parsed nodes: sanitised, without math or highlighting. */
export function renderOpen(nodes: RootContent[]): ReactNode {
  return toReact(light.runSync({ type: 'root', children: nodes }));
}
