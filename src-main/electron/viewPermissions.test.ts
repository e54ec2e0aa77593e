// The desktop shell's device-permission rule for MCP App views, with fakes of what Electron's permission
// handlers pass (Electron cannot run on the build machines): denied unless a view's page asks for what
// its resource declared and the person granted its server.
import { describe, expect, it } from 'vitest';
import type { ViewPermission, WireAppView } from '@shared/appViews';
import type { RegisteredView } from '../core/apps/appViews';
import { allowViewPermission, checkAsk, requestAsk, viewPermissionsFor } from './viewPermissions';

function registry(views: Record<string, { requested: ViewPermission[]; granted: ViewPermission[] }>) {
  return (viewId: string): RegisteredView | undefined => {
    const p = views[viewId];
    if (!p) return undefined;
    const view = { viewId, server: 'cam', tool: 'show', permissions: p } as unknown as WireAppView;
    return { view, conversationId: 'c1', workspace: undefined, frameAncestor: 'app://mooring' };
  };
}

const views = registry({
  v1: { requested: ['camera', 'microphone', 'geolocation'], granted: ['camera', 'geolocation'] },
  v2: { requested: ['clipboardWrite'], granted: [] },
  v3: { requested: [], granted: ['camera'] },
});
const at = (viewId: string) => `mooring-view://${viewId}/`;

describe('allowViewPermission', () => {
  it('grants a view what its resource declared and its server was allowed, and nothing more', () => {
    expect(
      allowViewPermission({ permission: 'media', requestingUrl: at('v1'), mediaTypes: ['video'] }, views),
    ).toBe(true);
    expect(allowViewPermission({ permission: 'geolocation', requestingUrl: at('v1') }, views)).toBe(true);
    // Declared but not granted; both asked at once while one is not granted.
    expect(
      allowViewPermission({ permission: 'media', requestingUrl: at('v1'), mediaTypes: ['audio'] }, views),
    ).toBe(false);
    expect(
      allowViewPermission(
        { permission: 'media', requestingUrl: at('v1'), mediaTypes: ['video', 'audio'] },
        views,
      ),
    ).toBe(false);
    expect(
      allowViewPermission({ permission: 'clipboard-sanitized-write', requestingUrl: at('v2') }, views),
    ).toBe(false);
    // Granted for the server but never declared by this view's resource.
    expect(
      allowViewPermission({ permission: 'media', requestingUrl: at('v3'), mediaTypes: ['video'] }, views),
    ).toBe(false);
  });

  it('refuses the app, unknown views, other pages and every other permission', () => {
    const camera = { permission: 'media', mediaTypes: ['video'] };
    expect(allowViewPermission({ ...camera, requestingUrl: 'app://mooring/' }, views)).toBe(false);
    expect(allowViewPermission({ ...camera, requestingUrl: at('gone') }, views)).toBe(false);
    expect(allowViewPermission({ ...camera, requestingUrl: 'about:srcdoc' }, views)).toBe(false);
    expect(allowViewPermission({ ...camera, requestingUrl: undefined }, views)).toBe(false);
    expect(allowViewPermission({ ...camera, requestingUrl: 'https://v1/' }, views)).toBe(false);
    for (const permission of [
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'display-capture',
    ])
      expect(allowViewPermission({ permission, requestingUrl: at('v1') }, views), permission).toBe(false);
    expect(allowViewPermission({ permission: 'media', requestingUrl: at('v1'), mediaTypes: [] }, views)).toBe(
      false,
    );
    expect(
      allowViewPermission({ permission: 'media', requestingUrl: at('v1'), mediaTypes: ['unknown'] }, views),
    ).toBe(false);
  });

  it('reads what both of the session’s handlers are given', () => {
    const request = requestAsk('media', { requestingUrl: at('v1'), mediaTypes: ['video'] });
    expect(allowViewPermission(request, views)).toBe(true);
    // A check names the origin; a check of the microphone for a view granted the camera only fails.
    expect(allowViewPermission(checkAsk('media', 'mooring-view://v1', { mediaType: 'video' }), views)).toBe(
      true,
    );
    expect(allowViewPermission(checkAsk('media', 'mooring-view://v1', { mediaType: 'audio' }), views)).toBe(
      false,
    );
    expect(allowViewPermission(checkAsk('geolocation', 'app://mooring', {}), views)).toBe(false);
  });

  it('maps Electron’s names to the extension’s', () => {
    expect(
      viewPermissionsFor({ permission: 'media', requestingUrl: '', mediaTypes: ['audio', 'video'] }),
    ).toEqual(['camera', 'microphone']);
    expect(viewPermissionsFor({ permission: 'clipboard-sanitized-write', requestingUrl: '' })).toEqual([
      'clipboardWrite',
    ]);
    expect(viewPermissionsFor({ permission: 'midi', requestingUrl: '' })).toBeUndefined();
  });
});
