// The limits a message can name ("raise the limit in Settings > Limits"), each a key of settings.json
// (shared/settings.ts) with the words the Limits screen shows and the command that sets it from a terminal.
export interface LimitSetting {
  key: (typeof LIMIT_KEYS)[number];
  label: string;
  help: string;
  /** Number inputs; `url` a text input; `optional` may be left empty (unset). */
  kind: 'integer' | 'decimal' | 'url';
  optional?: boolean;
}

export const LIMIT_KEYS = [
  'maxToolIterations',
  'deferredToolThreshold.tools',
  'deferredToolThreshold.tokens',
  'largeResults.share',
  'largeResults.maxChars',
  'webSessionHours',
  'registryUrl',
] as const;

export const LIMIT_SETTINGS: LimitSetting[] = [
  {
    key: 'maxToolIterations',
    label: 'Tool steps per message',
    help: 'An answer stops after this many rounds of tool calls and asks you to continue.',
    kind: 'integer',
  },
  {
    key: 'deferredToolThreshold.tools',
    label: 'Tools listed before they load on demand',
    help: 'With more tools than this, the model gets tool_search and loads each tool when it needs it. Small local models do better with every tool listed: raise it for them.',
    kind: 'integer',
  },
  {
    key: 'deferredToolThreshold.tokens',
    label: 'Tool tokens before they load on demand',
    help: 'The same switch by size: the tools’ descriptions and schemas in tokens.',
    kind: 'integer',
  },
  {
    key: 'largeResults.share',
    label: 'Largest tool result, as a share of the context window',
    help: 'Past it the model gets the first part and pages through the rest with read_result; you always see the whole result.',
    kind: 'decimal',
  },
  {
    key: 'largeResults.maxChars',
    label: 'Largest tool result, in characters',
    help: 'A fixed limit instead of the share. Empty: the share decides.',
    kind: 'integer',
    optional: true,
  },
  {
    key: 'webSessionHours',
    label: 'Browser-mode sign-in lasts (hours)',
    help: 'After it the page asks for a new link: `mooring web --link` prints one. Applies to the next sign-in.',
    kind: 'integer',
  },
  {
    key: 'registryUrl',
    label: 'MCP registry',
    help: 'The registry Browse servers and `mooring mcp search` read. Empty: the official registry. MOORING_REGISTRY_URL wins over it.',
    kind: 'url',
    optional: true,
  },
];

/** The terminal's way to set a limit, shown beside it. */
export const limitCommand = (key: string, value: string): string =>
  value === '' ? `mooring settings unset ${key}` : `mooring settings set ${key} ${value}`;
