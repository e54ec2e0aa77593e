// Sign in to remote servers with OAuth from the UI (issue 7). `begin` starts the flow and returns the
// authorization URL and its host as soon as the core has them; the UI shows the host and opens the URL
// only after the user agrees. The flow finishes in the background on the loopback callback; the
// server's session restarts and its status event tells the UI.
import { z } from 'zod';
import { MooringError, toErrorData } from '../errors';
import { isSafeAuthorizationUrl } from '../auth';
import { publicProcedure, router } from './trpc';

const Name = z.object({ name: z.string() });

export const authRouter = router({
  state: publicProcedure.input(Name).query(async ({ ctx, input }) => {
    const config = await ctx.core.servers.get(input.name);
    if (config.transport === 'stdio') return { remote: false as const };
    return { remote: true as const, ...(await ctx.core.oauth.signInState(config)) };
  }),

  begin: publicProcedure.input(Name).mutation(async ({ ctx, input }) => {
    const core = ctx.core;
    return new Promise<{ url: string; host: string }>((resolve, reject) => {
      let handedOver = false;
      core
        .signIn(input.name, {
          opener: async ({ url, host }) => {
            if (!isSafeAuthorizationUrl(url.toString()))
              throw new MooringError(
                'refused',
                `Refusing to open ${url.protocol} URL ${host}`,
                'Only https (or loopback http) sign-in pages are opened.',
              );
            handedOver = true;
            resolve({ url: url.toString(), host });
          },
        })
        .then(
          () => {
            if (!handedOver) resolve({ url: '', host: '' }); // already signed in: nothing to open
          },
          (err: unknown) => {
            if (!handedOver) reject(err);
            else
              core.emit('log', {
                server: input.name,
                at: Date.now(),
                source: 'host',
                level: 'error',
                text: `sign-in failed: ${toErrorData(err).message}`,
              });
          },
        );
    });
  }),

  signOut: publicProcedure.input(Name).mutation(({ ctx, input }) => ctx.core.signOut(input.name)),
});
