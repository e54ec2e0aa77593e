// Device permissions in the desktop shell (docs/mcp-apps.md, "MCP Apps"; extension io.modelcontextprotocol/ui,
// spec 2026-01-26, `_meta.ui.permissions`). Every permission stays denied, with one exception the
// extension defines: a view whose resource declared camera, microphone, geolocation or clipboard-write,
// and whose server the person allowed it for (the card's "Allow for <server>", core.apps.setPermissions),
// gets exactly those — the same rule that builds the frame's `allow` attribute in browser mode. The
// request is judged by the frame that asks: only a page on the view scheme names a view; the app's own
// page, an unknown view and any other permission are refused. No `electron` import: the session's two
// handlers are thin calls into this, tested in plain Node with fakes of their arguments.
import type { ViewPermission } from '@shared/appViews';
import type { RegisteredView } from '../core/apps/appViews';
import { VIEW_SCHEME } from './viewScheme';

/** What Electron's permission handlers say about a request or a check (the narrow part used here). */
export interface PermissionAsk {
  /** Electron's permission name ('media', 'geolocation', 'clipboard-sanitized-write', …). */
  permission: string;
  /** The asking frame's URL (request handler: `details.requestingUrl`; check handler: the requesting origin). */
  requestingUrl: string | undefined;
  /** For 'media': what the page asks for (request: `mediaTypes`; check: `[mediaType]`). */
  mediaTypes?: readonly string[];
}

/** A permission request as the request handler gets it (`details`: Electron's PermissionRequest and kin). */
export function requestAsk(
  permission: string,
  details: { requestingUrl: string } | { requestingUrl: string; mediaTypes?: readonly string[] },
): PermissionAsk {
  const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
  return { permission, requestingUrl: details.requestingUrl, ...(mediaTypes ? { mediaTypes } : {}) };
}

/** A permission check as the check handler gets it (`details`: PermissionCheckHandlerHandlerDetails). */
export function checkAsk(
  permission: string,
  requestingOrigin: string,
  details: { requestingUrl?: string; mediaType?: string },
): PermissionAsk {
  return {
    permission,
    requestingUrl: details.requestingUrl ?? requestingOrigin,
    ...(details.mediaType ? { mediaTypes: [details.mediaType] } : {}),
  };
}

/** The view permissions an ask needs, or undefined when it is none a view may ever get. */
export function viewPermissionsFor(ask: PermissionAsk): ViewPermission[] | undefined {
  switch (ask.permission) {
    case 'geolocation':
      return ['geolocation'];
    case 'clipboard-sanitized-write':
      return ['clipboardWrite'];
    case 'media': {
      const types = ask.mediaTypes ?? [];
      if (!types.length || types.some((t) => t !== 'video' && t !== 'audio')) return undefined;
      return [
        ...(types.includes('video') ? (['camera'] as const) : []),
        ...(types.includes('audio') ? (['microphone'] as const) : []),
      ];
    }
    default:
      return undefined;
  }
}

/** The view id an asking URL names (`mooring-view://<view id>/…`), or undefined for any other page. */
export function viewIdOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === `${VIEW_SCHEME}:` && u.host ? u.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether to grant: only to a registered view's page, only what its resource declared and the person
 * granted its server when the view was opened (the `granted` list its frame's `allow` was built from).
 */
export function allowViewPermission(
  ask: PermissionAsk,
  registered: (viewId: string) => RegisteredView | undefined,
): boolean {
  const viewId = viewIdOf(ask.requestingUrl);
  if (!viewId) return false;
  const needs = viewPermissionsFor(ask);
  const reg = registered(viewId);
  if (!needs?.length || !reg) return false;
  const { requested, granted } = reg.view.permissions;
  return needs.every((p) => requested.includes(p) && granted.includes(p));
}
