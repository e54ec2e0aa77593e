// The program's world (docs/code-mode.md, "The sandbox"): evaluated before the program, it takes the
// host's three functions into a closure and removes them from the global object, then defines `tools`
// (frozen, one async function per tool) and `print`. It keeps its own references to JSON and the
// functions it uses, so a program that replaces JSON.stringify or pollutes prototypes changes only what it
// sends itself; the host reads only strings.
export const PRELUDE = `(() => {
  const host = globalThis.__mooringHost;
  const names = JSON.parse(globalThis.__mooringTools);
  delete globalThis.__mooringHost;
  delete globalThis.__mooringTools;
  const call = host.call, out = host.print, finish = host.finish;
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze;
  const define = Object.defineProperty, create = Object.create, toText = String;
  const textOf = (v) => {
    if (typeof v === 'string') return v;
    try { const t = stringify(v); return t === undefined ? toText(v) : t; } catch { return toText(v); }
  };
  const tools = create(null);
  for (const [key, name] of names) {
    const fn = async (args) => {
      const text = stringify(args === undefined ? {} : args);
      if (typeof text !== 'string') throw new TypeError(name + ' takes one argument object');
      return parse(await call(name, text));
    };
    define(tools, key, { value: freeze(fn), enumerable: true });
  }
  freeze(tools);
  define(globalThis, 'tools', { value: tools, enumerable: false });
  define(globalThis, 'print', {
    value: freeze((...values) => { out(values.map(textOf).join(' ')); }),
    enumerable: false,
  });
  define(globalThis, '__mooringStart', {
    configurable: true,
    value: (program) => {
      delete globalThis.__mooringStart;
      program().then(
        (v) => { finish(true, v === undefined ? undefined : textOf(v)); },
        (e) => {
          let text;
          try { text = e instanceof Error ? e.name + ': ' + toText(e.message) : textOf(e); }
          catch { text = 'the program threw a value that cannot be shown'; }
          finish(false, text);
        },
      );
    },
  });
})();`;

/** The model's program as the body of an async function: it may `await` tools and `return` a value. */
export function wrapProgram(code: string): string {
  return `__mooringStart(async () => {\n${code}\n});`;
}
