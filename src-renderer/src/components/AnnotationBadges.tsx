// The four MCP annotation flags as badges (issue 5, Tool selection and the approval dialog).
export interface Flags {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

export function AnnotationBadges({ flags }: { flags: Flags }) {
  return (
    <span className="badges">
      {flags.readOnly && <span className="badge ok">read-only</span>}
      {flags.destructive && <span className="badge danger">destructive</span>}
      {flags.idempotent && <span className="badge">idempotent</span>}
      {flags.openWorld && <span className="badge">open-world</span>}
    </span>
  );
}
