// The variables an imported or project-folder server refers to, each with where its value would go, and a
// checkbox for each secret-looking one bound for a remote server's URL or headers: unticked, it is not sent
// (docs/config-variables.md). Names and places come from the file: shown escaped.
import { describeVariable, type ConfigVariable } from '@shared/importConsent';
import { escapeUntrusted as shown } from '@shared/untrustedText';

export function ConfigVariables(props: {
  server: string;
  variables: ConfigVariable[];
  /** The held variables the person ticked to allow for this server. */
  ticked: ReadonlySet<string>;
  onTick: (name: string, allow: boolean) => void;
  testId?: string;
}) {
  if (!props.variables.length) return null;
  return (
    <ul className="plain config-variables" data-testid={props.testId ?? 'config-variables'}>
      {props.variables.map((v) => (
        <li key={`${v.name}|${v.where}|${v.syntax}`} className={v.held ? 'warn-text' : undefined}>
          {v.held ? (
            <label className="inline">
              <input
                type="checkbox"
                aria-label={`Send ${v.name} to ${props.server}`}
                checked={props.ticked.has(v.name)}
                onChange={(e) => props.onTick(v.name, e.target.checked)}
              />
              <span>
                Variable {shown(describeVariable(v))}. Tick to send it to {shown(props.server)}.
              </span>
            </label>
          ) : (
            <>Variable {shown(describeVariable(v))}</>
          )}
        </li>
      ))}
    </ul>
  );
}
