import { everything, openCore, openRawClient } from './lib/contenders';
process.env.MOORING_NO_SHELL_PATH ??= '1';
const N = Number(process.argv[2] ?? 3000);
const { core, dispose } = await openCore([everything()]);
await core.start();
const sdk = await openRawClient(everything());
const m = () => core.tools.call('mcp__everything__echo', { message: 'hi' }, { client: 'bench' });
const s = () => sdk.callTool({ name: 'echo', arguments: { message: 'hi' } });
for (let i = 0; i < 500; i++) { await m(); await s(); }
for (let r = 0; r < 3; r++) for (const [name, f] of [['mooring', m], ['sdk', s]] as const) {
  const c = process.cpuUsage(); const t = performance.now();
  for (let i = 0; i < N; i++) await f();
  const cu = process.cpuUsage(c);
  console.log(name.padEnd(8), 'user', (cu.user / N).toFixed(1), 'sys', (cu.system / N).toFixed(1), 'wall µs/call', (((performance.now() - t) * 1000) / N).toFixed(0));
}
await dispose(); await sdk.close();
