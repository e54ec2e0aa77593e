import { everything, openCore } from './lib/contenders';
process.env.MOORING_NO_SHELL_PATH ??= '1';
const { core, dispose } = await openCore([everything()]);
await core.start();
const m = () => core.tools.call('mcp__everything__echo', { message: 'hi' }, { client: 'bench' });
for (let i = 0; i < 6000; i++) await m();
await dispose();
