// The app's navigation: grouped entries with icons; the current screen is marked for assistive tech
// (aria-current) as well as by colour. The Servers entry counts servers that failed, so a broken server
// is seen from any screen.
import { useQuery } from '@tanstack/react-query';
import { Anchor } from 'lucide-react';
import { useTRPC } from '../api/trpc';
import { useUi } from '../stores/uiStore';
import { cx } from '../ui';
import { NAV } from './nav';
import { MAIN_ID } from './mainRegion';

export function Sidebar() {
  const { route, navigate } = useUi();
  const trpc = useTRPC();
  const servers = useQuery(trpc.servers.list.queryOptions());
  const failed = (servers.data ?? []).filter((r) => r.config.enabled && r.status?.state === 'failed').length;
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <span className="brand-mark" aria-hidden>
          <Anchor size={16} />
        </span>
        Mooring
      </div>
      {NAV.map((group, i) => (
        <div className="nav-group" key={group.label ?? i}>
          {group.label && (
            <div className="nav-group-label" aria-hidden>
              {group.label}
            </div>
          )}
          <ul className="plain">
            {group.entries.map(({ route: r, label, icon: Icon }) => (
              <li key={r}>
                <button
                  type="button"
                  className={cx('nav-item', route === r && 'active')}
                  aria-current={route === r ? 'page' : undefined}
                  onClick={() => {
                    navigate(r);
                    // Focus goes where the chosen page is, not back to the sidebar (App.tsx's <main>).
                    document.getElementById(MAIN_ID)?.focus({ preventScroll: true });
                  }}
                >
                  <Icon size={16} aria-hidden />
                  <span className="nav-label">{label}</span>
                  {r === 'servers' && failed > 0 && (
                    <span className="nav-count" aria-label={`${failed} failed`}>
                      {failed}
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
