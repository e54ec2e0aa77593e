// Renderer entry: one query client, one tRPC client (IPC in Electron, HTTP + SSE in browser mode).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from './api/client';
import { TRPCProvider } from './api/trpc';
import { App } from './App';
import { applyTheme } from './shell/theme';
import './ui/tokens.css';
import './ui/ui.css';
import './styles.css';
import './screens/screens.css';

function Root() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 2_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  const [trpcClient] = useState(() => createClient());
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <App />
      </TRPCProvider>
    </QueryClientProvider>
  );
}

// The OS's colours until settings.json's choice arrives (shell/theme.ts).
applyTheme('system');
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
