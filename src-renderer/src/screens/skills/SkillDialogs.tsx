// The Skills screen's two dialogs (docs/skills.md): View, a skill's files with sizes and digests and one
// file's text as verified against its digest (an inspection, not a load); Approve, what the person
// approves — name, description, origin, files and sizes, the `allowed-tools` it asks for (granted only by
// the switch), and, for a skill that changed, what changed. Every string came from a server: text only.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { SkillView } from '@shared/skills';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Badge, Button, Callout, CodeBlock, Dialog, Switch } from '../../ui';

const bytes = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

function Files({ skill, onPick }: { skill: SkillView; onPick?: (path: string) => void }) {
  if (!skill.files)
    return <p className="muted small">Dynamic: the server publishes no file list or digests.</p>;
  return (
    <table className="skill-files">
      <caption className="sr-only">Files of {skill.name}</caption>
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Size</th>
          <th scope="col">Digest</th>
        </tr>
      </thead>
      <tbody>
        {skill.files.map((f) => (
          <tr key={f.uri}>
            <td>
              {onPick ? (
                <Button size="sm" variant="ghost" onClick={() => onPick(f.path)}>
                  {f.path}
                </Button>
              ) : (
                f.path
              )}
            </td>
            <td>{bytes(f.size)}</td>
            <td className="mono" title={f.digest}>
              {f.digest.slice(7, 19)}…
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ViewSkillDialog({ skill, onClose }: { skill: SkillView; onClose: () => void }) {
  const trpc = useTRPC();
  const read = useMutation(trpc.skills.file.mutationOptions());
  const [file, setFile] = useState<string | undefined>(undefined);
  const { mutate } = read;
  useEffect(() => {
    mutate({ server: skill.server, uri: skill.uri, ...(file ? { file } : {}) });
  }, [mutate, skill.server, skill.uri, file]);
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      testId="skill-view"
      title={`Skill ${skill.label}`}
      description={`From server “${skill.server}” · ${skill.uri}`}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <p>{skill.description}</p>
      <Files skill={skill} onPick={(p) => setFile(p === 'SKILL.md' ? undefined : p)} />
      <ErrorNote error={read.error} />
      {read.data && (
        <>
          <h3 className="section-title">
            {read.data.uri}{' '}
            <Badge tone={read.data.verified ? 'success' : 'warning'}>
              {read.data.verified ? 'digest verified' : 'unverified (dynamic)'}
            </Badge>
          </h3>
          <CodeBlock code={read.data.text} label="skill file" wrap maxHeight={320} testId="skill-file-text" />
        </>
      )}
    </Dialog>
  );
}

export function ApproveSkillDialog({
  skill,
  onClose,
  onApproved,
}: {
  skill: SkillView;
  onClose: () => void;
  onApproved: () => void;
}) {
  const trpc = useTRPC();
  const [grantTools, setGrantTools] = useState(false);
  const approve = useMutation(trpc.skills.approve.mutationOptions({ onSuccess: onApproved }));
  const changed = skill.approval.state === 'changed';
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      size="lg"
      testId="skill-approve"
      title={changed ? `Approve the changed skill ${skill.label}?` : `Approve skill ${skill.label}?`}
      description={`From server “${skill.server}” · ${skill.uri}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={approve.isPending}
            onClick={() =>
              approve.mutate({ server: skill.server, uri: skill.uri, scope: 'always', grantTools })
            }
          >
            Approve these files
          </Button>
        </>
      }
    >
      <p>{skill.description}</p>
      <Callout tone="warning" title="Its text is instructions written by the server">
        The model will read it as untrusted data from “{skill.server}”. Mooring never runs its scripts. If any
        file changes, the approval lapses and loading it asks you again.
      </Callout>
      {changed && (
        <Callout tone="danger" title="Changed since you approved it" testId="skill-diff">
          <ul className="plain">
            {skill.approval.diff?.map((d) => (
              <li key={d.uri}>{d.summary}</li>
            ))}
          </ul>
        </Callout>
      )}
      {skill.nestedIn && <p className="muted small">Nested in {skill.nestedIn}: approved on its own.</p>}
      <Files skill={skill} />
      {skill.allowedTools.length > 0 && (
        <Switch
          checked={grantTools}
          onCheckedChange={setGrantTools}
          label={`Also grant allowed-tools: ${skill.allowedTools.join(', ')}`}
          description="Off by default. When granted, these tools of this server run without asking in a conversation while the skill is loaded there (a flow between servers or a changed tool still asks); without it they ask as usual."
        />
      )}
      <ErrorNote error={approve.error} />
    </Dialog>
  );
}
