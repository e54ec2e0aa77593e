// The child process of the crash test (conversationStore.crash.test.ts): streams one long turn
// against a fake OpenAI-compatible server, and prints `ACK <message id>` after each step is appended
// and fsync'd. The parent kills it with SIGKILL mid-turn.
// Usage: node --import tsx crashChild.ts <home> <conversationId> <baseUrl>
import { runChatTurn } from '../../src-main/core/agent/chatTurn';
import { ConversationStore } from '../../src-main/core/agent/conversationStore';
import { OpenAIProvider } from '../../src-main/core/agent/providers/openaiProvider';
import { inProcessRuntime } from './mcpRuntime';

const [home, conversationId, baseUrl] = process.argv.slice(2);
if (!home || !conversationId || !baseUrl) {
  process.stderr.write('usage: crashChild.ts <home> <conversationId> <baseUrl>\n');
  process.exit(2);
}

const store = ConversationStore.forHome(home);
const runtime = inProcessRuntime({
  echo: async (args) => {
    await new Promise((r) => setTimeout(r, 3));
    return { status: 'done', text: `echo ${JSON.stringify(args)}` };
  },
});

await runChatTurn({
  store,
  provider: new OpenAIProvider({ baseUrl, apiKey: 'sk-test' }),
  model: 'gpt-4o',
  runtime,
  conversationId,
  message: `run ${process.pid}`,
  maxToolIterations: 10_000,
  onEvent: (e) => {
    if (e.type === 'message-complete') process.stdout.write(`ACK ${e.message.id}\n`);
  },
});
process.stdout.write('DONE\n');
