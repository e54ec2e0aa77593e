// Why a server failed, readable: the one-line reason, the last lines of its stderr as a monospace block,
// what to do (the hint), a copy button for a bug report, and Retry. Everything in it came from the server
// or its process and is rendered as text.
import { RotateCcw } from 'lucide-react';
import type { ErrorData } from '@shared/errors';
import { splitErrorDetails } from '@shared/errors';
import { Button, CodeBlock } from '../ui';

export function ServerErrorBlock(props: { error: ErrorData; onRetry?: () => void; retrying?: boolean }) {
  const { summary, details } = splitErrorDetails(props.error.message);
  return (
    <div className="server-error" data-testid="server-error" role="group" aria-label="Why it failed">
      <div className="server-error-head">
        <strong className="server-error-summary">{summary}</strong>
        {props.onRetry && (
          <Button
            size="sm"
            variant="secondary"
            icon={<RotateCcw size={14} />}
            loading={props.retrying}
            onClick={props.onRetry}
          >
            Retry
          </Button>
        )}
      </div>
      {details && (
        <CodeBlock code={details} label="stderr" wrap maxHeight={180} tone="danger" testId="server-stderr" />
      )}
      {props.error.hint && <p className="server-error-hint">{props.error.hint}</p>}
    </div>
  );
}
