// The app's icons, generated from the two SVG sources in resources/ (icon.svg, tray.svg): the PNG sizes the
// platforms need, macOS ICNS, Windows ICO and the tray images. Each size is rendered from the vector
// source, not scaled down from a large bitmap, so 16 px stays crisp. Output is byte-for-byte repeatable;
// `--check` regenerates in memory and fails when a checked-in file differs (the test suite runs it).
//
// Usage: node scripts/generateIcons.mjs [--check]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Resvg } from '@resvg/resvg-js';
import { IconIcns, IconIco } from '@shockpkg/icon-encoder';

const root = resolve(import.meta.dirname, '..');
const RES = join(root, 'resources');

/** Linux (electron-builder reads resources/icons/NxN.png) and the window icon. */
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Windows ICO entries; 256 is stored as PNG, the small ones as BMP (what older shells read). */
const ICO_SIZES = [256, 128, 64, 48, 32, 24, 16];
/** ICNS OSType per pixel size, in iconutil's order (@2x entries are the doubled size). */
const ICNS_TYPES = [
  [64, ['ic12']],
  [128, ['ic07']],
  [256, ['ic13']],
  [256, ['ic08']],
  [16, ['ic04']],
  [512, ['ic14']],
  [512, ['ic09']],
  [32, ['ic05']],
  [1024, ['ic10']],
  [32, ['ic11']],
];

function render(svg, size) {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng());
}

/** Every generated file: path relative to the repo → bytes. */
export async function generateIcons() {
  const icon = readFileSync(join(RES, 'icon.svg'), 'utf8');
  const tray = readFileSync(join(RES, 'tray.svg'), 'utf8');
  const png = new Map(PNG_SIZES.map((s) => [s, render(icon, s)]));
  const files = new Map();
  for (const [s, data] of png) files.set(`resources/icons/${s}x${s}.png`, data);
  files.set('resources/icon.png', png.get(1024));

  const icns = new IconIcns();
  icns.toc = true;
  for (const [size, types] of ICNS_TYPES) await icns.addFromPng(png.get(size), types);
  files.set('resources/icon.icns', Buffer.from(icns.encode()));

  const ico = new IconIco();
  for (const s of ICO_SIZES) await ico.addFromPng(png.get(s), s >= 256);
  files.set('resources/icon.ico', Buffer.from(ico.encode()));

  // macOS menu bar: a template image (black + alpha, tinted by the system), 16 pt at 1x and 2x.
  files.set('resources/trayTemplate.png', render(tray, 16));
  files.set('resources/trayTemplate@2x.png', render(tray, 32));
  return files;
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  const files = await generateIcons();
  const stale = [];
  for (const [rel, data] of files) {
    const path = join(root, rel);
    if (values.check) {
      let old;
      try {
        old = readFileSync(path);
      } catch {
        old = undefined;
      }
      if (!old || !old.equals(data)) stale.push(rel);
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, data);
    }
  }
  if (values.check && stale.length) {
    console.error(
      `icons out of date with resources/*.svg: ${stale.join(', ')}; run: node scripts/generateIcons.mjs`,
    );
    process.exit(1);
  }
  console.log(
    `${values.check ? 'checked' : 'wrote'} ${files.size} icon files under ${relative(process.cwd(), RES) || '.'}`,
  );
}
