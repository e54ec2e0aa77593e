// VS Code's inputs in an imported file (`${input:ID}`, docs/install.md "Installing a server"): each one the
// file declares or a server uses, with the servers that use it, asked for before those servers can start.
import type { ServerConfig } from '@shared/config';
import { isObject } from './importEntry';
import type { JsonPath } from './jsonDiagnostics';

/** A VS Code input (`${input:ID}`) the UI must ask for before the server can start. */
export interface ImportInput {
  id: string;
  type: string;
  description?: string;
  password: boolean;
  /** Servers whose values refer to it. */
  usedBy: string[];
  /** False when a server refers to it but the file's `inputs` do not declare it. */
  declared: boolean;
}

function valueAt(doc: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], doc);
}

const INPUT_REF = /\$\{input:([^}]+)\}/g;

function referencedInputs(server: ServerConfig): Set<string> {
  const values = [
    server.command,
    server.url,
    server.cwd,
    ...server.args,
    ...Object.values(server.env),
    ...Object.values(server.headers),
  ];
  const ids = new Set<string>();
  for (const v of values) if (typeof v === 'string') for (const m of v.matchAll(INPUT_REF)) ids.add(m[1]!);
  return ids;
}

export function collectInputs(
  doc: Record<string, unknown>,
  inputsPath: JsonPath,
  servers: ServerConfig[],
  warnings: string[],
): ImportInput[] {
  const raw = valueAt(doc, inputsPath);
  const inputs = new Map<string, ImportInput>();
  if (Array.isArray(raw))
    for (const item of raw) {
      if (!isObject(item) || typeof item.id !== 'string') continue;
      inputs.set(item.id, {
        id: item.id,
        type: typeof item.type === 'string' ? item.type : 'promptString',
        ...(typeof item.description === 'string' ? { description: item.description } : {}),
        password: item.password === true,
        usedBy: [],
        declared: true,
      });
    }
  for (const server of servers)
    for (const id of referencedInputs(server)) {
      let input = inputs.get(id);
      if (!input) {
        input = { id, type: 'promptString', password: false, usedBy: [], declared: false };
        inputs.set(id, input);
        warnings.push(`"\${input:${id}}" is used by "${server.name}" but not declared in "inputs"`);
      }
      input.usedBy.push(server.name);
    }
  return [...inputs.values()];
}
