// What agent/ loads on first use, and the only file of the room that may (docs/decisions/003-lazy-rooms.md):
// the model providers' client libraries are most of the core's code by size, and most processes never
// talk to a model (`mooring serve` relaying tools, `mooring mcp call`, the app before a chat). Each
// loader is memoised by the module system; a provider awaits it on its first request.
export const loadOpenAI = () => import('openai');
export const loadAnthropic = () => import('@anthropic-ai/sdk');
export const loadOllama = () => import('ollama');
