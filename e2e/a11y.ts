// axe-core over the page as it is now: no serious or critical violation (WCAG 2.1 A/AA rules).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** `exclude`: selectors left out, e.g. an MCP App view's frame, whose page is a server's, not Mooring's. */
export async function expectAccessible(page: Page, where: string, exclude: string[] = []): Promise<void> {
  let axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of exclude) axe = axe.exclude(selector);
  const result = await axe.analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
  expect(bad, `axe on ${where}`).toEqual([]);
}
