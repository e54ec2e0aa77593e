// The four MCP annotation flags as badges (MCP spec, "Tool annotations"; the Tools screen and the approval
// dialog). They are hints from the server, shown as such.
import { Badge } from '../ui';

export interface Flags {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

export function AnnotationBadges({ flags }: { flags: Flags }) {
  return (
    <span className="badges">
      {flags.readOnly && <Badge tone="success">read-only</Badge>}
      {flags.destructive && <Badge tone="danger">destructive</Badge>}
      {flags.idempotent && <Badge>idempotent</Badge>}
      {flags.openWorld && <Badge>open-world</Badge>}
    </span>
  );
}
