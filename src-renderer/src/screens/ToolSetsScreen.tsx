// Tool sets ("agents"): a named selection of tools across servers, e.g. a "Code Reviewer" that may read
// files but not write them. A chat that uses one offers the model only those tools. Created, edited and
// removed here; kept in settings.json. The picker shows tools by friendly name, grouped by server,
// sorted, with search.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Layers, Pencil, Plus, Search, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { WireTool } from '@shared/wire';

/** A tool as the list query returns it (the schema is not needed here). */
type ToolView = Omit<WireTool, 'inputSchema'>;
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Button, Card, CardHeader, Dialog, EmptyState, Field, IconButton, PageHeader } from '../ui';
import { CliHint } from './CliHint';
import { titleOf } from '../shell/screens';

interface Editing {
  /** The name it had when editing started (null: a new set). */
  original: string | null;
  name: string;
  tools: string[];
}

export function ToolSetsScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const sets = useQuery(trpc.toolSets.list.queryOptions());
  const tools = useQuery(trpc.tools.list.queryOptions({}));
  const [editing, setEditing] = useState<Editing | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.toolSets.list.queryKey() });
  const remove = useMutation(trpc.toolSets.remove.mutationOptions({ onSuccess: refresh }));
  const friendly = new Map((tools.data ?? []).map((t) => [t.modelName, t]));
  return (
    <section aria-labelledby="toolsets-title" data-testid="toolsets">
      <PageHeader
        id="toolsets-title"
        title={titleOf('toolsets')}
        description="A tool set picks tools across servers for one kind of work. Choose it in the chat; the model then sees only those tools."
        actions={
          <Button
            variant="primary"
            icon={<Plus size={16} />}
            onClick={() => setEditing({ original: null, name: '', tools: [] })}
          >
            New tool set
          </Button>
        }
      />
      <ErrorNote error={sets.error ?? remove.error} />
      {sets.isSuccess && sets.data.length === 0 ? (
        <EmptyState
          icon={<Layers size={24} />}
          title="No tool sets yet"
          cli='mooring toolset add "Code Reviewer" mcp__files__read_text_file mcp__files__list_directory'
          actions={
            <Button variant="primary" onClick={() => setEditing({ original: null, name: '', tools: [] })}>
              Create a tool set
            </Button>
          }
        >
          <p>
            For example a “Code Reviewer” that may read files but not write them. Run a chat with it, or{' '}
            <code>mooring chat --tool-set NAME</code> from a terminal.
          </p>
        </EmptyState>
      ) : (
        <ul className="plain list">
          {(sets.data ?? []).map((s) => (
            <li key={s.name} data-testid={`toolset-${s.name}`}>
              <Card>
                <CardHeader
                  title={s.name}
                  sub={`${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`}
                  actions={
                    <>
                      <IconButton
                        size="sm"
                        label={`Edit ${s.name}`}
                        icon={<Pencil size={15} />}
                        onClick={() => setEditing({ original: s.name, name: s.name, tools: [...s.tools] })}
                      />
                      <IconButton
                        size="sm"
                        label={`Remove ${s.name}`}
                        icon={<Trash2 size={15} />}
                        onClick={() => remove.mutate({ name: s.name })}
                      />
                    </>
                  }
                />
                <div className="chips">
                  {s.tools.map((m) => {
                    const t = friendly.get(m);
                    return (
                      <span key={m} className="chip" title={m}>
                        {t ? `${t.server} · ${t.friendlyName}` : m}
                        <span className="sr-only"> ({m})</span>
                      </span>
                    );
                  })}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <ToolSetEditor
          key={editing.original ?? 'new'}
          initial={editing}
          tools={tools.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
      <CliHint commands={['mooring toolset list', 'mooring chat --tool-set NAME']} />
    </section>
  );
}

function ToolSetEditor(props: {
  initial: Editing;
  tools: ToolView[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const [name, setName] = useState(props.initial.name);
  const [picked, setPicked] = useState<string[]>(props.initial.tools);
  const [search, setSearch] = useState('');
  const save = useMutation(trpc.toolSets.save.mutationOptions());
  const remove = useMutation(trpc.toolSets.remove.mutationOptions());
  const groups = useMemo(() => {
    const q = search.trim().toLowerCase();
    const by = new Map<string, ToolView[]>();
    for (const t of props.tools) {
      if (q && !`${t.server} ${t.friendlyName} ${t.tool} ${t.description}`.toLowerCase().includes(q))
        continue;
      by.set(t.server, [...(by.get(t.server) ?? []), t]);
    }
    return [...by.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([server, list]) => ({
        server,
        list: list.sort((a, b) => a.friendlyName.localeCompare(b.friendlyName)),
      }));
  }, [props.tools, search]);
  const toggle = (m: string, on: boolean) =>
    setPicked((p) => (on ? [...new Set([...p, m])] : p.filter((x) => x !== m)));
  const onSave = async () => {
    const trimmed = name.trim();
    await save.mutateAsync({ name: trimmed, tools: picked });
    // A rename is a new entry and the old one removed.
    if (props.initial.original && props.initial.original !== trimmed)
      await remove.mutateAsync({ name: props.initial.original });
    props.onSaved();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && props.onClose()}
      title={props.initial.original ? `Edit ${props.initial.original}` : 'New tool set'}
      size="lg"
      testId="toolset-editor"
      footer={
        <>
          <span className="muted small">{picked.length} selected</span>
          <span className="spacer" />
          <Button onClick={props.onClose}>Cancel</Button>
          <Button
            variant="primary"
            disabled={!name.trim() || picked.length === 0}
            loading={save.isPending || remove.isPending}
            onClick={() => void onSave().catch(() => undefined)}
          >
            Save tool set
          </Button>
        </>
      }
    >
      <div className="stack-md">
        <Field label="Name">
          <input
            aria-label="Tool set name"
            value={name}
            placeholder="Code Reviewer"
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <div className="searchbox">
          <Search size={15} aria-hidden />
          <input
            type="search"
            aria-label="Search tools to add"
            placeholder="Search tools"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        {groups.map((g) => (
          <fieldset key={g.server} className="pick-group">
            <legend>{g.server}</legend>
            <div className="tool-picks">
              {g.list.map((t) => (
                <label key={t.modelName} className="pick">
                  <input
                    type="checkbox"
                    aria-label={`Include ${t.modelName}`}
                    checked={picked.includes(t.modelName)}
                    onChange={(e) => toggle(t.modelName, e.target.checked)}
                  />
                  <span>
                    <span className="pick-name">{t.friendlyName}</span>
                    {!t.enabled && <span className="muted small"> (off on its server)</span>}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        {groups.length === 0 && <p className="muted">No tool matches.</p>}
        <ErrorNote error={save.error ?? remove.error} />
      </div>
    </Dialog>
  );
}
