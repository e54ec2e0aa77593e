// Monospace text the user may want to copy: a command line, a stderr tail, a JSON snippet. The text is
// rendered as text (never HTML), so a server's output cannot inject markup.
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { IconButton } from './Button';
import { cx } from './cx';

/** Copies text; the Clipboard API where the page may use it, else a hidden textarea and execCommand. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CodeBlock(props: {
  code: string;
  /** What the text is, for the copy button's name: "Copy command". */
  label?: string;
  /** Wrap long lines (stderr) instead of scrolling sideways (a command line). */
  wrap?: boolean;
  /** Cap the height and scroll inside (long logs). */
  maxHeight?: number;
  tone?: 'neutral' | 'danger';
  className?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  const label = props.label ?? 'text';
  return (
    <div className={cx('code-block', props.tone === 'danger' && 'code-block-danger', props.className)}>
      <pre
        className={cx('code-block-pre', props.wrap && 'wrap')}
        style={props.maxHeight ? { maxHeight: props.maxHeight } : undefined}
        data-testid={props.testId}
        // It may scroll (a long command line, a stderr tail): keyboard users must be able to reach it.
        tabIndex={0}
      >
        {props.code}
      </pre>
      <IconButton
        className="code-block-copy"
        size="sm"
        label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
        icon={copied ? <Check size={14} /> : <Copy size={14} />}
        onClick={async () => {
          if (await copyText(props.code)) {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          }
        }}
      />
    </div>
  );
}
