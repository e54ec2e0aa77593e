// Static checks of the Electron shell's hardening (ARCHITECTURE.md), read from the TypeScript
// syntax tree of src-main/electron/main.ts. The Electron runtime cannot run on these machines
// so the settings are checked where they are written; each check returns a problem
// string, and the tests feed weakened copies of main.ts to prove every check can fail.
import ts from 'typescript';

type Fn = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration;

function parse(source: string): ts.SourceFile {
  return ts.createSourceFile('main.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function all<T extends ts.Node>(root: ts.Node, pick: (n: ts.Node) => n is T): T[] {
  const found: T[] = [];
  const visit = (n: ts.Node): void => {
    if (pick(n)) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(root);
  return found;
}

const isFn = (n: ts.Node | undefined): n is Fn =>
  !!n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isFunctionDeclaration(n));
/** The function literals among call arguments (a handler passed by name is not followed). */
const fns = (xs: readonly (ts.Node | undefined)[]): Fn[] => xs.filter(isFn);

/** `x.name(...)` calls, e.g. calls(sf, 'setWindowOpenHandler'). */
function calls(root: ts.Node, name: string): ts.CallExpression[] {
  return all(root, ts.isCallExpression).filter(
    (c) => ts.isPropertyAccessExpression(c.expression) && c.expression.name.text === name,
  );
}

/** The handler of `x.on('event', handler)` / `x.once(...)`. */
function eventHandlers(root: ts.Node, event: string): Fn[] {
  const handlers = [...calls(root, 'on'), ...calls(root, 'once')]
    .filter((c) => {
      const first = c.arguments[0];
      return !!first && ts.isStringLiteralLike(first) && first.text === event;
    })
    .map((c) => c.arguments[1]);
  return fns(handlers);
}

function prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of obj.properties) {
    if (
      ts.isPropertyAssignment(p) &&
      (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) &&
      p.name.text === name
    ) {
      return p.initializer;
    }
  }
  return undefined;
}

function literal(e: ts.Expression | undefined): boolean | string | undefined {
  if (!e) return undefined;
  if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isStringLiteralLike(e)) return e.text;
  return undefined;
}

function paramName(fn: Fn, index: number): string | undefined {
  const p = fn.parameters[index];
  return p && ts.isIdentifier(p.name) ? p.name.text : undefined;
}

/** What a function returns: its expression body, or each `return` not inside a nested function. */
function returned(fn: Fn): (ts.Expression | undefined)[] {
  if (fn.body && !ts.isBlock(fn.body)) return [fn.body];
  const out: (ts.Expression | undefined)[] = [];
  const visit = (n: ts.Node): void => {
    if (isFn(n)) return;
    if (ts.isReturnStatement(n)) out.push(n.expression);
    ts.forEachChild(n, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  return out;
}

const unwrap = (e: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(e) ? unwrap(e.expression) : e;

function callsMethodOn(fn: Fn, receiver: string | undefined, method: string): boolean {
  return (
    !!receiver &&
    calls(fn, method).some((c) => {
      const target = (c.expression as ts.PropertyAccessExpression).expression;
      return ts.isIdentifier(target) && target.text === receiver;
    })
  );
}

// contextIsolation, sandbox, no Node in the page, webSecurity on; plus the flags that quietly undo them.
const REQUIRED: Record<string, boolean> = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
  webviewTag: false,
};
const NEVER_TRUE = [
  'nodeIntegrationInWorker',
  'nodeIntegrationInSubFrames',
  'allowRunningInsecureContent',
  'experimentalFeatures',
];

function webPreferenceProblems(sf: ts.SourceFile): string[] {
  const problems: string[] = [];
  const windows = all(sf, ts.isNewExpression).filter(
    (n) =>
      ts.isIdentifier(n.expression) &&
      ['BrowserWindow', 'BrowserView', 'WebContentsView'].includes(n.expression.text),
  );
  if (windows.length === 0) problems.push('no new BrowserWindow(...) found: the checks would prove nothing');
  for (const w of windows) {
    const opts = w.arguments?.[0];
    const prefs = opts && ts.isObjectLiteralExpression(opts) ? prop(opts, 'webPreferences') : undefined;
    if (!prefs || !ts.isObjectLiteralExpression(prefs)) {
      problems.push('a window without a literal webPreferences object');
      continue;
    }
    if (prefs.properties.some(ts.isSpreadAssignment))
      problems.push('webPreferences spreads another object (could override the settings)');
    for (const [name, want] of Object.entries(REQUIRED)) {
      const got = literal(prop(prefs, name));
      if (got !== want)
        problems.push(`webPreferences.${name} must be the literal ${want} (found ${got ?? 'nothing'})`);
    }
    for (const name of NEVER_TRUE) {
      if (prop(prefs, name) && literal(prop(prefs, name)) !== false)
        problems.push(`webPreferences.${name} must be absent or false`);
    }
    if (prop(prefs, 'enableBlinkFeatures'))
      problems.push('webPreferences.enableBlinkFeatures must be absent');
    const disabled = literal(prop(prefs, 'disableBlinkFeatures'));
    if (typeof disabled !== 'string' || !disabled.split(',').includes('Auxclick')) {
      problems.push(
        "webPreferences.disableBlinkFeatures must include 'Auxclick' (middle-click opens windows)",
      );
    }
  }
  return problems;
}

function navigationProblems(sf: ts.SourceFile): string[] {
  const problems: string[] = [];
  const nav = eventHandlers(sf, 'will-navigate');
  if (nav.length === 0 || !nav.every((h) => callsMethodOn(h, paramName(h, 0), 'preventDefault'))) {
    problems.push("a 'will-navigate' handler that calls event.preventDefault() is missing");
  }
  const webview = eventHandlers(sf, 'will-attach-webview');
  const unconditional = (h: Fn): boolean => {
    const ev = paramName(h, 0);
    const stmts =
      h.body && ts.isBlock(h.body)
        ? h.body.statements.map((s) => (ts.isExpressionStatement(s) ? s.expression : s))
        : [h.body];
    return stmts.some(
      (s) =>
        !!s &&
        ts.isCallExpression(s) &&
        ts.isPropertyAccessExpression(s.expression) &&
        s.expression.name.text === 'preventDefault' &&
        ts.isIdentifier(s.expression.expression) &&
        s.expression.expression.text === ev,
    );
  };
  if (webview.length === 0 || !webview.every(unconditional))
    problems.push("'will-attach-webview' must always preventDefault()");

  const open = fns(calls(sf, 'setWindowOpenHandler').map((c) => c.arguments[0]));
  if (open.length === 0) problems.push('setWindowOpenHandler is missing');
  for (const h of open) {
    const results = returned(h);
    const denies = (e: ts.Expression | undefined): boolean => {
      const v = e && unwrap(e);
      return (
        !!v &&
        ts.isObjectLiteralExpression(v) &&
        literal(prop(v, 'action')) === 'deny' &&
        v.properties.length === 1
      );
    };
    if (results.length === 0 || !results.every(denies))
      problems.push("setWindowOpenHandler must always return { action: 'deny' }");
  }

  // The lock-down must reach every webContents the app creates, not just the first window.
  const locker = [...nav, ...open]
    .map((h) => h.parent)
    .map((n) => {
      let p: ts.Node | undefined = n;
      while (p && !ts.isFunctionDeclaration(p)) p = p.parent;
      return p?.name?.text;
    });
  const created = eventHandlers(sf, 'web-contents-created');
  const lockName = locker[0];
  const applied = created.some((h) =>
    all(h, ts.isCallExpression).some((c) => ts.isIdentifier(c.expression) && c.expression.text === lockName),
  );
  if (!lockName || !locker.every((n) => n === lockName) || !applied) {
    problems.push(
      "navigation and window-open handlers must live in one function applied on app 'web-contents-created'",
    );
  }

  for (const c of calls(sf, 'loadURL')) {
    const arg = c.arguments[0];
    const local =
      !!arg &&
      ((ts.isTemplateExpression(arg) &&
        arg.head.text === '' &&
        ts.isIdentifier(arg.templateSpans[0]!.expression) &&
        arg.templateSpans[0]!.expression.text === 'APP_ORIGIN') ||
        (ts.isStringLiteralLike(arg) && arg.text.startsWith('app://mooring/')));
    if (!local)
      problems.push(
        `loadURL(${arg?.getText() ?? ''}) is not our app:// origin: no remote content in the app window`,
      );
  }
  return problems;
}

/**
 * A permission answer that denies, or asks the one rule that may grant an MCP App view what its server was
 * allowed (src-main/electron/viewPermissions.ts): `false`, `allowViewPermission(...)`, or a condition whose
 * every branch is one of those.
 */
function deniesOrAsksViewRule(e: ts.Expression | undefined): boolean {
  if (!e) return false;
  const x = unwrap(e);
  if (literal(x) === false) return true;
  if (ts.isConditionalExpression(x))
    return deniesOrAsksViewRule(x.whenTrue) && deniesOrAsksViewRule(x.whenFalse);
  return (
    ts.isCallExpression(x) && ts.isIdentifier(x.expression) && x.expression.text === 'allowViewPermission'
  );
}

function permissionProblems(sf: ts.SourceFile): string[] {
  const problems: string[] = [];
  const request = fns(calls(sf, 'setPermissionRequestHandler').map((c) => c.arguments[0]));
  const denyAll = request.every((h) => {
    const cb = paramName(h, 2);
    const uses = all(h, ts.isCallExpression).filter(
      (c) => ts.isIdentifier(c.expression) && c.expression.text === cb,
    );
    return uses.length > 0 && uses.every((c) => deniesOrAsksViewRule(c.arguments[0]));
  });
  if (request.length === 0 || !denyAll)
    problems.push(
      'setPermissionRequestHandler must answer callback(false) to every request, or allowViewPermission(...)',
    );
  const check = fns(calls(sf, 'setPermissionCheckHandler').map((c) => c.arguments[0]));
  if (check.length === 0 || !check.every((h) => returned(h).every((e) => deniesOrAsksViewRule(e)))) {
    problems.push('setPermissionCheckHandler must return false, or allowViewPermission(...)');
  }
  return problems;
}

function boundaryProblems(sf: ts.SourceFile): string[] {
  const problems: string[] = [];
  const spreadsHeaders = all(sf, ts.isSpreadAssignment).some(
    (s) => ts.isIdentifier(s.expression) && s.expression.text === 'SECURITY_HEADERS',
  );
  if (!spreadsHeaders) problems.push('app:// responses must carry SECURITY_HEADERS (the CSP)');
  const ipc = [...calls(sf, 'on'), ...calls(sf, 'handle'), ...calls(sf, 'handleOnce')].filter((c) => {
    const target = (c.expression as ts.PropertyAccessExpression).expression;
    return ts.isIdentifier(target) && target.text === 'ipcMain';
  });
  // Every path to the system browser checks the URL first, in the same function (CVE-2025-6514).
  for (const c of calls(sf, 'openExternal')) {
    const target = (c.expression as ts.PropertyAccessExpression).expression;
    if (!ts.isIdentifier(target) || target.text !== 'shell') continue;
    let fn: ts.Node | undefined = c.parent;
    while (fn && !isFn(fn)) fn = fn.parent;
    const guarded =
      !!fn &&
      all(fn, ts.isCallExpression).some(
        (x) =>
          ts.isIdentifier(x.expression) && x.expression.text === 'isAllowedExternalLink' && x.pos < c.pos,
      );
    if (!guarded)
      problems.push(`shell.openExternal without an isAllowedExternalLink check first: ${c.getText()}`);
  }
  if (ipc.length === 0) problems.push('no ipcMain handler found');
  for (const c of ipc) {
    const h = c.arguments[1];
    const checked =
      isFn(h) &&
      all(h, ts.isCallExpression).some(
        (x) => ts.isIdentifier(x.expression) && x.expression.text === 'isTrustedSender',
      );
    if (!checked) problems.push('every ipcMain handler must check isTrustedSender');
  }
  return problems;
}

/** Every weakness found in the Electron main process source; [] when the shell is locked down. */
export function shellProblems(source: string): string[] {
  const sf = parse(source);
  return [
    ...webPreferenceProblems(sf),
    ...navigationProblems(sf),
    ...permissionProblems(sf),
    ...boundaryProblems(sf),
  ];
}

/** Parses a CSP into directive → sources. */
export function parseCsp(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

/** Scripts from our own origin only: no inline, no eval, no other source. */
export function cspProblems(policy: string): string[] {
  const csp = parseCsp(policy);
  const problems: string[] = [];
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  if (!scripts || scripts.join(' ') !== "'self'")
    problems.push(`script-src must be exactly 'self' (found ${scripts?.join(' ') ?? 'nothing'})`);
  if (csp.get('default-src')?.join(' ') !== "'self'") problems.push("default-src must be 'self'");
  if (csp.get('object-src')?.join(' ') !== "'none'") problems.push("object-src must be 'none'");
  if (csp.get('base-uri')?.join(' ') !== "'none'") problems.push("base-uri must be 'none'");
  if (/'unsafe-eval'|'wasm-unsafe-eval'/.test(policy)) problems.push('no eval of any kind');
  return problems;
}

/** The policy in an HTML file's <meta http-equiv="Content-Security-Policy">, if any. */
export function metaCsp(html: string): string | undefined {
  const m = /<meta\s+[^>]*http-equiv=["']Content-Security-Policy["'][^>]*content="([^"]*)"/i.exec(html);
  return m?.[1];
}

/** The Electron fuses electron-builder will flip when packaging (RunAsNode off, OnlyLoadAppFromAsar,
 * asar integrity, no NODE_OPTIONS), from the configuration as electron-builder itself loads it. */
export function fuseProblems(config: { asar?: unknown; electronFuses?: object | null }): string[] {
  const fuses = (config.electronFuses ?? {}) as Record<string, unknown>;
  const want: Record<string, boolean> = {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    onlyLoadAppFromAsar: true,
    enableEmbeddedAsarIntegrityValidation: true,
  };
  const problems = Object.entries(want)
    .filter(([k, v]) => fuses[k] !== v)
    .map(([k, v]) => `electronFuses.${k} must be ${v} (found ${String(fuses[k])})`);
  if (config.asar === false) problems.push('asar must stay on (onlyLoadAppFromAsar needs it)');
  return problems;
}
