// The Skills screen end to end (docs/skills.md): a real `mooring web` child with two copies of the skills
// fixture (test/fixtures/servers/skillsServer.ts), driven in Chromium at 1280×800. Each server's skills
// show with their origin; approving one shows its files, sizes and the allowed-tools it asks for; the
// other server's skill at the same URI stays unapproved; a verified file is viewed; Permissions lists the
// approval and revokes it. Axe checks the screen and the dialog; screenshots go to test-results.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './a11y';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { openaiView } from '../test/helpers/wireViews';
import { startWebWithOpenAI } from './chatHarness';
import { ROOT, type RunningWeb } from './harness';
import { openScreen, runTool } from './uiFlows';

const SHOTS = process.env.MOORING_SHOTS ?? join(import.meta.dirname, '../test-results/screenshots');
// acme asks as usual (its tools ask unless something grants them); globex trusts all.
const fixture = (name: string, flavour: string, policy: 'default' | 'trust-all') => ({
  name,
  policy,
  command: 'node',
  args: [join(ROOT, 'test/fixtures/runTs.mjs'), join(ROOT, 'test/fixtures/servers/skillsServer.ts')],
  env: { SKILLS_FLAVOUR: flavour },
});

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let model: FakeProviderServer;
let page: Page;
const REFUNDS = 'skill://refunds/SKILL.md';
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'mooring-e2e-skills-'));
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [fixture('acme', 'acme', 'default'), fixture('globex', 'globex', 'trust-all')],
    }),
  );
  // The chat's scripted model (the OpenAI wire): it loads the refunds skill, then answers; in a second
  // conversation it loads it again, then calls a tool the skill's allowed-tools lists and one it does not.
  const loadRefunds = { toolCalls: [{ name: 'load_skill', arguments: { server: 'acme', uri: REFUNDS } }] };
  model = await startOpenAIServer([
    loadRefunds,
    { text: 'Following the refunds skill from acme.' },
    loadRefunds,
    { toolCalls: [{ name: 'mcp__acme__issue_refund', arguments: { order: '42' } }] },
    { toolCalls: [{ name: 'mcp__acme__close_account', arguments: { order: '42' } }] },
    { text: 'Refund issued; the account stays open.' },
    { text: 'Using the refunds skill you attached.' },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  for (const name of ['acme', 'globex'])
    await expect(page.getByTestId(`server-${name}`).getByTestId('server-state')).toHaveText('ready');
});

/** The fixture's hook, run from the Playground; acme asks, so the person allows it once. */
async function changeSkillFile(text: string) {
  await runTool(page, 'acme / change_skill_file', { path: 'examples/email.md', text });
  await page.getByTestId('approval-dialog').getByRole('button', { name: 'Allow once' }).click();
}

test.afterAll(async () => {
  await page?.close();
  await web?.stop();
  await model?.close();
  expect(pageErrors).toEqual([]);
});

test('each server’s skills are listed with their origin; approving one shows what is approved', async () => {
  await openScreen(page, 'Skills');
  const refunds = page.getByTestId('skill-acme-refunds');
  await expect(refunds).toContainText('acme: refunds');
  await expect(refunds).toContainText('skill://refunds/SKILL.md · from acme');
  await expect(refunds).toContainText('not approved');
  await expect(refunds).toContainText('asks for allowed-tools issue_refund, send_email (not granted)');
  await expect(page.getByTestId('skill-acme-escalation')).toContainText('nested in skill://refunds/SKILL.md');
  await expectAccessible(page, 'Skills');
  await page.screenshot({ path: join(SHOTS, 'skills-1-list.png') });

  await refunds.getByRole('button', { name: 'Approve skill acme: refunds' }).click();
  const dialog = page.getByTestId('skill-approve');
  await expect(dialog).toContainText('examples/email.md');
  await expect(dialog).toContainText('Also grant allowed-tools: issue_refund, send_email');
  await expect(dialog.getByRole('switch')).not.toBeChecked();
  await expectAccessible(page, 'the skill approval');
  await page.screenshot({ path: join(SHOTS, 'skills-2-approve.png') });
  await dialog.getByRole('button', { name: 'Approve these files' }).click();
  await expect(dialog).toBeHidden();
  await expect(refunds).toContainText('approved');

  // The same URI on another server is another skill.
  await page.getByRole('tab', { name: /globex/ }).click();
  await expect(page.getByTestId('skill-globex-refunds')).toContainText('not approved');
});

test('a changed file revokes the approval: the skill asks again, showing what changed', async () => {
  await changeSkillFile('Changed text.\n');
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await openScreen(page, 'Skills');
  await page.getByRole('button', { name: 'Refresh' }).click();
  const refunds = page.getByTestId('skill-acme-refunds');
  await expect(refunds).toContainText('changed: asks again');
  await refunds.getByRole('button', { name: 'Approve skill acme: refunds' }).click();
  const dialog = page.getByTestId('skill-approve');
  await expect(dialog.getByTestId('skill-diff')).toContainText('examples/email.md changed (54 → 14 bytes)');
  await expectAccessible(page, 'the changed skill');
  await page.screenshot({ path: join(SHOTS, 'skills-3-changed.png') });
  await dialog.getByRole('button', { name: 'Approve these files' }).click();
  await expect(refunds).toContainText('approved');
});

test('a skill’s file is viewed as verified; Permissions lists the approval and revokes it', async () => {
  await page.getByRole('tab', { name: /acme/ }).click();
  await page.getByRole('button', { name: 'View skill acme: refunds', exact: true }).click();
  const view = page.getByTestId('skill-view');
  await expect(view.getByTestId('skill-file-text')).toContainText('# Refunds');
  await expect(view).toContainText('digest verified');
  await page.screenshot({ path: join(SHOTS, 'skills-4-view.png') });
  await view.getByRole('button', { name: 'Close', exact: true }).click();

  await openScreen(page, 'Permissions');
  const perm = page.getByTestId('perm-skill-acme-refunds');
  await expect(perm).toContainText('skill://refunds/SKILL.md');
  await perm.getByRole('button', { name: 'Revoke skill refunds from acme' }).click();
  await expect(perm).toBeHidden();
});

test('in the chat, a changed skill asks again with the diff; its content reaches the model tagged with acme', async () => {
  await openScreen(page, 'Skills');
  await page.getByRole('button', { name: 'Approve skill acme: refunds', exact: true }).click();
  await page.getByTestId('skill-approve').getByRole('button', { name: 'Approve these files' }).click();
  await expect(page.getByTestId('skill-acme-refunds')).toContainText('approved');
  await changeSkillFile('Changed again.\n');
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');

  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Message').fill('Refund order 42');
  await page.getByLabel('Message').press('Enter');
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toContainText('This skill changed since you approved it');
  await expect(dialog.getByTestId('approval-diff')).toContainText('examples/email.md changed');
  await expectAccessible(page, 'the skill approval in the chat');
  await page.screenshot({ path: join(SHOTS, 'skills-5-chat-approval.png') });
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByText('Following the refunds skill from acme.').first()).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'skills-6-chat-loaded.png') });
  // The request after the call (the app also asks the model for a title and lists its models).
  const after = model.requests.find((r) => r.body?.messages && openaiView.toolResults(r.body).length);
  const [result] = openaiView.toolResults(after!.body);
  expect(result!.text.startsWith(`<tool_result origin="acme/${REFUNDS}">`)).toBe(true);
  expect(result!.text).toContain('# Refunds');
});

test('allowed-tools ask unless the grant is ticked; ticked, the listed tools of acme run unasked', async () => {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Message').fill('Refund order 42 and close the account');
  await page.getByLabel('Message').press('Enter');
  const dialog = page.getByTestId('approval-dialog');
  const grant = dialog.getByTestId('approval-skill-tools');
  await expect(grant).toContainText('Also grant its allowed-tools: let issue_refund, send_email of acme');
  await expect(grant.getByRole('checkbox')).not.toBeChecked();
  await expectAccessible(page, 'the skill approval with its allowed-tools grant');
  await page.screenshot({ path: join(SHOTS, 'skills-7-grant.png') });
  await grant.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Allow for this conversation' }).click();
  // issue_refund is granted: the next question is close_account's, which the skill does not list.
  await expect(dialog).toContainText('close_account');
  await expect(dialog).not.toContainText('issue_refund');
  await dialog.getByTestId('approval-deny').click();
  await expect(page.getByText('Refund issued; the account stays open.').first()).toBeVisible();
  const cards = page.getByTestId('call-card');
  await expect(cards.filter({ hasText: 'issue_refund' }).first()).toHaveAttribute('data-phase', 'done');
  await page.screenshot({ path: join(SHOTS, 'skills-8-granted-call.png') });
});

test('the person attaches a skill with @: the message shows it with its server, the model gets it tagged', async () => {
  const box = page.getByLabel('Message');
  await box.fill('Next order, with @refu');
  const option = page.getByTestId('resource-picker').locator('[role="option"][data-kind="skill"]');
  // acme's and globex's refunds, disambiguated (and each server's nested escalation, under refunds/).
  const named = (label: string) =>
    option.filter({ has: page.locator('.resource-option-name', { hasText: new RegExp(`^${label}$`) }) });
  await expect(named('globex: refunds')).toHaveCount(1);
  const acme = named('acme: refunds');
  await expect(acme).toHaveCount(1);
  await expectAccessible(page, 'the @ picker with skills');
  await page.screenshot({ path: join(SHOTS, 'skills-9-picker.png') });
  await acme.click();
  await expect(page.getByTestId('resource-chip')).toHaveText('acme · skill refunds');
  await box.press('Enter');
  // Approved with its grant for this conversation: no question; the sent message shows the skill.
  await expect(page.getByText('Using the refunds skill you attached.').first()).toBeVisible();
  const sent = page.getByTestId('resource-chips').last();
  await expect(sent).toContainText('acme · skill refunds');
  await page.screenshot({ path: join(SHOTS, 'skills-10-attached.png') });
  const last = model.requests.filter((r) => r.body?.messages).at(-1)!;
  const user = JSON.stringify(last.body.messages.at(-1));
  expect(user).toContain('Skill skill://refunds/SKILL.md from server \\"acme\\", attached by the user');
  expect(user).toContain('# Refunds');
});
