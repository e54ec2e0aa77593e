// The chat's own small preferences: the default model as `provider:model`, and the model each
// conversation was last used with (the per-conversation picker). settings.json has a default *provider*
// but no model field yet (shared/settings.ts is strict), so the model lives here, in
// <home>/chat-preferences.json, a JsonFileStore (docs/data-on-disk.md, "Data on disk"): changed under its lock,
// written atomically, never overwritten while invalid. Nothing secret is kept here.
import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from '../config/jsonFileStore';
import { MooringError } from '../errors';

const PreferencesSchema = z.object({
  defaultModel: z.string().optional(),
  conversationModels: z.record(z.string(), z.string()).default({}),
  /** The conversations in code mode (docs/code-mode.md); off for every other. */
  codeMode: z.array(z.string()).default([]),
});
export type ChatPreferences = z.infer<typeof PreferencesSchema>;

export class ChatPreferencesFile {
  private readonly store: JsonFileStore<ChatPreferences, z.input<typeof PreferencesSchema>>;

  constructor(home: string) {
    this.store = new JsonFileStore({
      file: join(home, 'chat-preferences.json'),
      format: {
        schema: PreferencesSchema,
        empty: () => ({ conversationModels: {}, codeMode: [] }),
        fileHint: (f) =>
          `Fix ${f} by hand (Mooring has not changed it), or delete it: it only holds the models last picked.`,
        changeHint: 'Pick the model again.',
      },
    });
  }

  get file(): string {
    return this.store.file;
  }

  /**
   * The preferences as they are on disk now (another process may have picked a model). A damaged file
   * reads as the defaults: it only holds choices the user can make again, and the chat must still work.
   * It is not overwritten: `update` reports it.
   */
  async get(): Promise<ChatPreferences> {
    try {
      return await this.store.read();
    } catch (err) {
      if (err instanceof MooringError && err.code === 'config_invalid')
        return { conversationModels: {}, codeMode: [] };
      throw err;
    }
  }

  update(change: (p: ChatPreferences) => ChatPreferences): Promise<ChatPreferences> {
    return this.store.update(change);
  }
}
