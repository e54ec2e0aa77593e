// `mooring mcp prompts|resources|read|logs NAME`: a server's prompts, resources and log from a terminal, on
// the same core services as the app (core.prompts, core.resources, core.servers.logs). Arguments and
// template variables not given are asked with the server's completions (completionPrompt.ts); every
// string from the server is printed through `tty`, or `printJson` with --json.
import type { Command } from 'commander';
import { LOG_LEVELS, LogLevelSchema, type LogLevel } from '@shared/settings';
import type { LogLine } from '@shared/session';
import type { ResourceContentView } from '@shared/resources';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { askFields } from './completionPrompt';
import { startServer, type CoreRunner } from './coreRunner';
import { collect, parsePairs } from './output';
import { onStop } from './processGuards';
import { saveBlobs } from './resourceOutput';
import { interactive } from './terminalPrompt';
import { multiline, print, printJson, printJsonLine, tty } from './terminalText';

const started = (core: MooringCore, name: string): Promise<void> => startServer(core, name);

export function registerFeatureCommands(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('prompts')
    .description("list a server's prompts; with PROMPT, get it (missing arguments asked, with suggestions)")
    .argument('<name>', 'the server')
    .argument('[prompt]', 'a prompt to get')
    .option('--arg <K=V>', 'a prompt argument (repeatable)', collect)
    .option('--json', 'machine-readable output')
    .action(async (name: string, prompt: string | undefined, o) =>
      withCore(
        async (core) => {
          await started(core, name);
          const prompts = await core.prompts.list(name);
          if (!prompt) {
            if (o.json) return void printJson(prompts);
            if (!prompts.length) return void print(tty`${name} offers no prompts.\n`);
            for (const p of prompts) {
              const args = (p.arguments ?? []).map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ');
              print(tty`${p.name}${args ? ` ${args}` : ''}\n`);
              if (p.description) print(tty`    ${p.description.split('\n')[0]}\n`);
            }
            return;
          }
          const def = prompts.find((p) => p.name === prompt);
          if (!def)
            throw new MooringError(
              'not_found',
              `"${name}" has no prompt "${prompt}"`,
              `List them: mooring mcp prompts ${name}`,
            );
          const args = await askFields(
            (def.arguments ?? []).map((a) => ({
              name: a.name,
              ...(a.description ? { description: a.description } : {}),
              required: a.required === true,
            })),
            parsePairs(o.arg, '--arg'),
            {
              interactive: interactive() && !o.json,
              what: `The prompt "${prompt}"`,
              flag: '--arg',
              suggest: async (field, value, context) =>
                (
                  await core.prompts.complete(name, {
                    name: prompt,
                    argument: { name: field, value },
                    context,
                  })
                ).values,
            },
          );
          const result = await core.prompts.get(name, prompt, args);
          if (o.json) return void printJson(result);
          if (result.description) print(tty`${multiline(result.description)}\n\n`);
          for (const m of result.messages) {
            const c = m.content;
            const body =
              c.type === 'text'
                ? c.text
                : c.type === 'resource' && 'text' in c.resource
                  ? String(c.resource.text)
                  : `[${c.type} content]`;
            print(tty`${m.role}: ${multiline(body)}\n`);
          }
        },
        { json: o.json },
      ),
    );

  mcp
    .command('resources')
    .description("list a server's resources and resource templates")
    .argument('<name>', 'the server')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          await started(core, name);
          const [resources, templates] = await Promise.all([
            core.resources.list(name),
            core.resources.templates(name),
          ]);
          if (o.json) return void printJson({ resources, templates });
          if (!resources.length && !templates.length) return void print(tty`${name} offers no resources.\n`);
          for (const r of resources)
            print(tty`${r.uri}  ${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType})` : ''}\n`);
          if (templates.length) print('\ntemplates (read one with: mooring mcp read NAME TEMPLATE):\n');
          for (const t of templates)
            print(tty`${t.uriTemplate}  ${t.title ?? t.name}${t.mimeType ? ` (${t.mimeType})` : ''}\n`);
        },
        { json: o.json },
      ),
    );

  mcp
    .command('read')
    .description('read one resource; a template has its variables filled in (asked, with suggestions)')
    .argument('<name>', 'the server')
    .argument('<uri>', 'a resource URI, or a URI template such as demo://item/{id}')
    .option('--var <K=V>', 'a template variable (repeatable)', collect)
    .option('--save-dir <dir>', 'where binary contents are saved (default: a new temp folder)')
    .option('--json', 'print the contents as JSON (bytes as base64)')
    .action(async (name: string, given: string, o) =>
      withCore(
        async (core) => {
          await started(core, name);
          let uri = given;
          if (/\{[^}]+\}/.test(given)) {
            const templates = await core.resources.templates(name);
            const variables = templates.find((t) => t.uriTemplate === given)?.variables ?? [];
            const values = await askFields(
              variables.map((v) => ({ name: v, required: true })),
              parsePairs(o.var, '--var'),
              {
                interactive: interactive() && !o.json,
                what: `The template ${given}`,
                flag: '--var',
                suggest: async (field, value, context) =>
                  (
                    await core.resources.complete(name, {
                      ref: { type: 'ref/resource', uri: given },
                      argument: { name: field, value },
                      context,
                    })
                  ).values,
              },
            );
            uri = core.resources.expand(given, values);
          }
          const contents = await core.resources.read(name, uri);
          if (o.json) return void printJson({ uri, contents });
          printContents(await saveBlobs(contents, o.saveDir ? { dir: o.saveDir } : {}));
        },
        { json: o.json },
      ),
    );

  mcp
    .command('logs')
    .description("a server's log as this session sees it (stderr, its messages, Mooring's notes)")
    .argument('<name>', 'the server')
    .option('--level <level>', `the level it logs at this session (${LOG_LEVELS.join(', ')})`)
    .option('--follow', 'keep printing new lines until Ctrl-C')
    .option('--json', 'one JSON line per log line')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          const level = o.level === undefined ? undefined : parseLevel(o.level);
          await started(core, name);
          if (level) await core.setServerLogLevel(name, level);
          const show = (l: LogLine) =>
            o.json
              ? printJsonLine(l)
              : print(
                  tty`${new Date(l.at).toISOString()} ${l.source.padEnd(6)} ${l.level.padEnd(9)} ${l.text}\n`,
                );
          // What its confinement refused, in any process on this home (docs/confinement.md), then this session's log.
          for (const v of await core.confinement.listViolations(name))
            show({
              server: name,
              at: v.last,
              source: 'host',
              level: 'warning',
              text: `[sandbox] refused${v.count > 1 ? ` ${v.count} times` : ''}: ${v.operation} ${v.target}${v.allow?.write ? ` (allow: mooring mcp sandbox ${name} --allow-write ${v.allow.write})` : v.allow?.domain ? ` (allow: mooring mcp sandbox ${name} --allow-domain ${v.allow.domain})` : v.noAllowReason ? ` (${v.noAllowReason})` : ''}`,
            });
          for (const l of core.servers.logs(name)) show(l);
          if (!o.follow) return;
          const on = (l: LogLine) => {
            if (l.server === name) show(l);
          };
          core.on('log', on);
          await new Promise<void>((resolve) => {
            const stop = onStop(() => {
              stop();
              resolve();
            });
          });
          core.off('log', on);
        },
        { json: o.json, handlesSignals: Boolean(o.follow) },
      ),
    );
}

function parseLevel(raw: string): LogLevel {
  const r = LogLevelSchema.safeParse(raw);
  if (!r.success)
    throw new MooringError(
      'usage',
      `--level ${raw} is not a log level`,
      `Use one of ${LOG_LEVELS.join(', ')}.`,
    );
  return r.data;
}

function printContents(contents: Array<ResourceContentView & { file?: string }>): void {
  for (const c of contents) {
    if (c.kind === 'text') {
      if (contents.length > 1) print(tty`[${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''}]\n`);
      print(tty`${multiline(c.text)}\n`);
    } else
      print(
        tty`[${c.uri}: ${c.mimeType ?? 'binary'}, ${String(c.size)} bytes${c.file ? `, saved to ${c.file}` : ''}]\n`,
      );
  }
}
