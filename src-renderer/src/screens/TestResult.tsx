// The answer of Test in the server form: connected (time, server, tools) or the error with its stderr and
// hint. Kept compact: the tool names wrap in a box of their own so the form's Save stays in view.
import type { ConnectionTestResultView } from '@shared/wire';
import { ServerErrorBlock } from '../components/ServerErrorBlock';

export function TestResult({ result }: { result: ConnectionTestResultView }) {
  return (
    <div className={`test-result ${result.ok ? 'ok' : 'bad'}`} data-testid="test-result" role="status">
      {result.ok ? (
        <>
          <strong>
            Connected in {result.latency_ms} ms
            {result.server ? ` to ${result.server.name} ${result.server.version}` : ''}: {result.tool_count}{' '}
            tools
          </strong>
          <p className="muted small test-tools">{result.tools.join(', ')}</p>
        </>
      ) : (
        <ServerErrorBlock
          error={{ code: result.code, message: result.error, ...(result.hint ? { hint: result.hint } : {}) }}
        />
      )}
    </div>
  );
}
