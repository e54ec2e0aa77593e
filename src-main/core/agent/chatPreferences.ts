// The chat's own small preferences (issue 5 "Chat", issue 6 "Providers"): the default model as
// `provider:model`, and the model each conversation was last used with (the per-conversation picker).
// settings.json has a default *provider* but no model field yet (shared/settings.ts is strict), so the
// model lives here, in <home>/chat-preferences.json, written atomically. Nothing secret is kept here.
import { join } from 'node:path';
import { z } from 'zod';
import { readTextIfExists, writeJsonAtomic } from '../config/atomicJson';

const PreferencesSchema = z.object({
  defaultModel: z.string().optional(),
  conversationModels: z.record(z.string(), z.string()).default({}),
});
export type ChatPreferences = z.infer<typeof PreferencesSchema>;

export class ChatPreferencesFile {
  readonly file: string;
  private cached?: ChatPreferences;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(home: string) {
    this.file = join(home, 'chat-preferences.json');
  }

  async get(): Promise<ChatPreferences> {
    if (this.cached) return this.cached;
    const text = await readTextIfExists(this.file).catch(() => null);
    let parsed: ChatPreferences = { conversationModels: {} };
    try {
      // A damaged file is not fatal: it only holds choices the user can make again.
      if (text) parsed = PreferencesSchema.parse(JSON.parse(text));
    } catch {
      /* start from the defaults */
    }
    this.cached = parsed;
    return parsed;
  }

  update(change: (p: ChatPreferences) => ChatPreferences): Promise<ChatPreferences> {
    const run = this.queue.then(async () => {
      const next = change(structuredClone(await this.get()));
      await writeJsonAtomic(this.file, next);
      this.cached = next;
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
