// The pieces of the chat's one-row header (chat.css, "The header"): the button that shows or hides the
// conversation list, and the conversation's project folder, tool set and code mode behind one button, so the
// header keeps its title and model picker on one row in a narrow window as well.
import { FolderOpen, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { Button, IconButton, Popover } from '../../ui';
import { useListPanel } from './listPanel';

export const LIST_ID = 'chat-list';
export const LIST_TOGGLE_ID = 'chat-list-toggle';

export function ListToggle() {
  const { shown, setShown } = useListPanel();
  return (
    <IconButton
      id={LIST_TOGGLE_ID}
      label="Conversation list"
      icon={shown ? <PanelLeftClose size={16} /> : <PanelLeftOpen size={16} />}
      aria-expanded={shown}
      aria-controls={LIST_ID}
      onClick={() => setShown(!shown)}
    />
  );
}

/** The last part of a path, for a button too small for the whole (the field has it whole). */
const lastPart = (path: string) =>
  path
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || path;

export function FolderAndTools(props: {
  folder: string;
  onFolderChange: (folder: string) => void;
  /** The popover closed: save what was typed (its field is gone before it could blur). */
  onFolderDone: () => void;
  toolSets: readonly { name: string }[];
  toolSet: string;
  onToolSet: (name: string) => void;
  /** The model may write one program that calls many tools (docs/code-mode.md). */
  codeMode: boolean;
  onCodeMode: (on: boolean) => void;
}) {
  const summary = [
    props.folder ? lastPart(props.folder) : 'No folder',
    props.toolSet,
    props.codeMode ? 'code mode' : '',
  ].filter(Boolean);
  return (
    <Popover
      label="Project folder and tools"
      testId="chat-context"
      onClose={props.onFolderDone}
      trigger={
        <Button
          size="sm"
          variant="ghost"
          className="chat-context-button"
          icon={<FolderOpen size={16} aria-hidden />}
          aria-label={`Project folder and tools: ${summary.join(', ')}`}
          title={props.folder || undefined}
        >
          <span className="chat-context-text">{summary.join(' · ')}</span>
        </Button>
      }
    >
      <label className="stack">
        Project folder
        <input
          aria-label="Project folder"
          className="folder-input"
          value={props.folder}
          placeholder="/path/to/project (optional)"
          onChange={(e) => props.onFolderChange(e.target.value)}
        />
        <span className="muted small">The servers see it as their root (MCP roots).</span>
      </label>
      {props.toolSets.length > 0 && (
        <label className="stack">
          Tools
          <select
            aria-label="Tool set"
            value={props.toolSet}
            onChange={(e) => props.onToolSet(e.target.value)}
          >
            <option value="">every enabled tool</option>
            {props.toolSets.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="row chat-code-mode">
        <input
          type="checkbox"
          aria-label="Code mode"
          checked={props.codeMode}
          onChange={(e) => props.onCodeMode(e.target.checked)}
        />
        <span className="stack">
          Code mode
          <span className="muted small">
            The model may write one short program that calls many tools, run in a sandbox. Each call still
            asks as usual.
          </span>
        </span>
      </label>
    </Popover>
  );
}
