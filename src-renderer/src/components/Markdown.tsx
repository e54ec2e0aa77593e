// The model's answers and a tool's text as people expect to read them: Markdown with GitHub's extensions
// (tables, task lists, strikethrough, autolinks), highlighted code blocks with a copy button, and math.
// Everything here came from a model or a server, so it is untrusted (ARCHITECTURE.md, "Untrusted text"):
// raw HTML in the text is turned into text before anything renders (a `<script>` or `<img onerror>` in
// a reply shows as typed), rehype-sanitize then drops any attribute or URL scheme outside GitHub's own allowlist, and only
// after that do KaTeX and highlight.js add their own (trusted) markup. Images written in Markdown are
// shown as links, not fetched: a reply must not make the app load a remote URL on its own.
import 'katex/dist/katex.min.css';
import { Check, Copy } from 'lucide-react';
import { memo, useRef, useState, type ComponentProps, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { copyText, IconButton } from '../ui';
import './markdown.css';

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

const remarkPlugins = [remarkGfm, remarkMath, remarkHtmlAsText];
// Order matters: sanitise what the text produced, then add the renderers' own markup.
const rehypePlugins: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [
  [rehypeSanitize, schema],
  [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false }],
  [rehypeHighlight, { detect: false }],
];

function CodeFence({ children }: { children?: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  return (
    <div className="md-code">
      <pre ref={pre} tabIndex={0}>
        {children}
      </pre>
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
  );
}

const components: Components = {
  pre: ({ children }) => <CodeFence>{children}</CodeFence>,
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

/**
 * Markdown text, rendered safely. Memoised on its text: a finished message is parsed once, and while an
 * answer streams only the growing draft is parsed again.
 */
export const Markdown = memo(function Markdown({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="md" data-testid={testId}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
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
