// `mooring mcp search QUERY` and `mooring mcp install REF` (README, "Installing servers"): the registry,
// bundles and install links from a terminal, on the core's install service. Nothing installs without
// consent: on a terminal the consent is asked, from a script it takes --yes (else exit 3).
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import type { CoreRunner } from './coreRunner';
import { collect, EXIT } from './output';
import { print, printJson } from './terminalText';
import {
  askInputs,
  consent,
  describeSearch,
  inputOptions,
  interactive,
  sayInstalled,
  sayPlan,
} from './installTerminal';

export function registerInstallCommands(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('search')
    .description('search the MCP registry (MOORING_REGISTRY_URL or the registryUrl setting for another one)')
    .argument('[query...]', 'words to look for')
    .option('--json', 'machine-readable output')
    .option('--limit <n>', 'how many servers, 1–100', '30')
    .option('--cursor <cursor>', 'the next page (printed at the end of a page)')
    .action(async (query: string[], o) =>
      withCore(
        async (core) => {
          const page = await core.install.search({
            query: query.join(' '),
            limit: Number(o.limit),
            ...(o.cursor ? { cursor: o.cursor } : {}),
          });
          if (o.json) printJson(page);
          else print(describeSearch(page));
        },
        { json: o.json },
      ),
    );

  mcp
    .command('install')
    .description('install a server from the registry (NAME[@VERSION]), a .mcpb bundle, or an install link')
    .argument('<ref>', 'io.github.owner/server[@1.2.3], ./file.mcpb, or mooring:// cursor:// vscode: link')
    .option('--name <name>', 'save it under this name')
    .option('--option <n>', 'which of the entry’s packages or remotes to install (as listed)')
    .option(
      '--input <ID[=VALUE]>',
      'a value the server asks for (repeatable); ID alone: asked hidden, or read from standard input',
      collect,
    )
    .option('--yes', 'consent to what is shown without asking')
    .option('--json', 'print the outcome as JSON on stdout')
    .action(async (ref: string, o) =>
      withCore(
        async (core) => {
          const plan = await core.install.plan(ref, {
            ...(o.name ? { name: o.name } : {}),
            ...(o.option ? { option: Number(o.option) } : {}),
          });
          sayPlan(plan);
          if (plan.osv.status === 'malicious')
            throw new MooringError(
              'vulnerable_package',
              `Not installed: ${plan.osv.text}.`,
              'Do not run this package.',
            );
          let inputs = await inputOptions(o.input, plan.inputs);
          if (!o.yes) {
            if (!interactive())
              throw new MooringError(
                'refused',
                'Installing runs what is shown above on your machine; nothing was installed.',
                'Review it, then re-run with --yes to consent (and --input ID=VALUE for each value it needs).',
              );
            if (!(await consent(`Install ${plan.name}?`))) {
              core.install.decline(plan.id);
              throw new MooringError('refused', 'Nothing was installed.');
            }
          }
          if (interactive()) inputs = await askInputs(plan.inputs, inputs);
          const done = await core.install.install(plan.id, { inputs, start: false });
          if (o.json) printJson({ ok: true, ...done });
          else sayInstalled(done);
          return EXIT.ok;
        },
        { json: o.json },
      ),
    );
}
