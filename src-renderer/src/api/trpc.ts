// The router through TanStack Query: `useTRPC()` gives query/mutation/subscription options.
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from './routerTypes';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
