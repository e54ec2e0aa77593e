// The stores a gate decision reads that can change without an event here (a file another process writes):
// what the call path's one revision polls (calls/callRevision.ts). A new such input implements
// `VerdictSource` and is listed in `gateSources`.

/** A store a decision reads that may change with no event here (a file another process writes). */
export interface VerdictSource {
  /** Goes up with every change (for a file: checked with one stat). */
  revision(): number;
}

/** The gate's own sources that change without an event: what the call path's revision polls. */
export function gateSources(deps: {
  store: VerdictSource;
  grants?: VerdictSource | undefined;
  pins?: VerdictSource | undefined;
  flows?: VerdictSource | undefined;
}): VerdictSource[] {
  return [
    deps.store,
    ...(deps.grants ? [deps.grants] : []),
    ...(deps.pins ? [deps.pins] : []),
    ...(deps.flows ? [deps.flows] : []),
  ];
}
