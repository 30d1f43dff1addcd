// `npm run test:e2e -- --ui [--url URL --sandbox URL] [--update-screenshots]`: the editor in
// Chromium as a user meets it (CONTRIBUTING.md); each step saves build/screenshots/ui-<step>.jpg
// (docs/ with --update-screenshots), and assertions read the page, never pixels.
import { parseArgs } from 'node:util';

import type { Locator, Page } from 'playwright-core';

import type { Sandbox } from '../../sandbox';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../../sandbox';
import { repoPath } from '../harness/repoPath';
import { waitUntil } from '../harness/wait';
import {
	chromiumMissing,
	editorEnvironment,
	logIn,
	saveDocsScreenshot,
	withBrowserPage,
} from './editorBrowser';
import { reportTotals } from './suite';

/** build/screenshots/, or docs/ with --update-screenshots (set once from the arguments), so a run leaves the checkout as is. */
let screenshotFolder = repoPath('build', 'screenshots');
const saveScreenshot = (page: Page, fileName: string) =>
	saveDocsScreenshot(page, fileName, screenshotFolder);

const STEP_TIMEOUT = 60_000;

function expectText(actual: string, expected: RegExp, what: string): void {
	if (!expected.test(actual))
		throw new Error(
			`${what}: expected ${String(expected)}, the page shows "${actual.trim().slice(0, 300)}"`,
		);
}

/** Modals n8n opens by itself (surveys, what's new) would cover what the test clicks. */
async function dismissPopups(page: Page): Promise<void> {
	for (const id of ['nps-survey-modal', 'version-updates-panel']) {
		const popup = page.getByTestId(id);
		if (await popup.isVisible().catch(() => false)) await page.keyboard.press('Escape');
	}
}

/** For what a locator's auto-wait cannot express. */
function until(what: string, check: () => Promise<boolean>): Promise<true> {
	return waitUntil(what, async () => ((await check()) ? true : undefined), STEP_TIMEOUT, {
		intervalMs: 250,
	});
}

async function fillParameter(scope: Locator, name: string, value: string): Promise<void> {
	const input = scope.getByTestId(`parameter-input-${name}`).locator('input, textarea').first();
	await input.fill(value);
}

/** Step 2: the credential form, its automatic connection test, then a wrong secret. */
async function createCredential(page: Page, url: string, sandboxUrl: string): Promise<string[]> {
	await page.goto(`${url}/home/credentials`);
	await dismissPopups(page);
	await page.getByTestId('add-resource-credential').click();
	await page.getByTestId('new-credential-type-select').locator('input').fill('Support Ticket');
	await page.getByRole('option', { name: 'Support Ticket API' }).click();
	await page.getByTestId('new-credential-type-button').click();
	const modal = page.getByTestId('editCredential-modal');
	await fillParameter(modal, 'baseUrl', sandboxUrl);
	await fillParameter(modal, 'apiKey', DEFAULT_API_KEY);
	await fillParameter(modal, 'apiSecret', DEFAULT_API_SECRET);
	await modal.getByTestId('credential-save-button').click();
	// n8n tests a credential when it is saved.
	const success = modal.getByTestId('credentials-config-container-test-success');
	await success.waitFor({ timeout: STEP_TIMEOUT });
	const shots = [await saveScreenshot(page, 'ui-credential-test.jpg')];

	await fillParameter(modal, 'apiSecret', `${DEFAULT_API_SECRET}-wrong`);
	await modal.getByTestId('credential-save-button').click();
	// The banner, then its "More details": the reason as the service gave it.
	const failure = modal.getByText(/Couldn.t connect with these settings/i);
	await failure.waitFor({ timeout: STEP_TIMEOUT });
	await modal.getByText('More details').click();
	const reason = modal.getByText(/Check the API Key and API Secret/);
	await reason.waitFor({ timeout: STEP_TIMEOUT });
	expectText(await reason.innerText(), /signature/, 'the reason the wrong secret failed');
	shots.push(await saveScreenshot(page, 'ui-credential-wrong-secret.jpg'));

	// Back to the right secret, so the node below runs with this credential.
	await fillParameter(modal, 'apiSecret', DEFAULT_API_SECRET);
	await modal.getByTestId('credential-save-button').click();
	await success.waitFor({ timeout: STEP_TIMEOUT });
	await page.keyboard.press('Escape');
	await modal.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
	return shots;
}

/** The node panel's item with exactly this name. */
const clickItem = (page: Page, name: string) =>
	page.getByTestId('node-creator-item-name').getByText(name, { exact: true }).first().click();

/** The node panel's search, then the item with exactly this name. */
async function pickFromNodePanel(page: Page, search: string, itemName: string): Promise<void> {
	await page.getByTestId('node-creator-search-bar').fill(search);
	await clickItem(page, itemName);
}

async function newWorkflow(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/workflow/new`);
	await dismissPopups(page);
	await page.getByTestId('canvas-plus-button').first().click({ timeout: STEP_TIMEOUT });
}

/** Step 3: Ticket → Get with the ticket picked "From list", executed, the ticket in the output. */
async function getTicketFromList(page: Page, url: string): Promise<string[]> {
	await newWorkflow(page, url);
	// An action node needs a trigger before it: the one a user picks to try a step, first in the panel's list.
	// (A search renames it "Manual Trigger" once its results show: a click can land between the two.)
	await clickItem(page, 'Trigger manually');
	await page.keyboard.press('Escape');
	await page.getByTestId('node-creator-plus-button').click();
	await pickFromNodePanel(page, 'Support Ticket', 'Support Ticket');
	await clickItem(page, 'Get a ticket');
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('resource-locator-ticketId').waitFor({ timeout: STEP_TIMEOUT });
	const valueOf = (name: string) => ndv.getByTestId(`parameter-input-${name}`).locator('input');
	expectText(await valueOf('resource').inputValue(), /^Ticket$/, 'resource');
	expectText(await valueOf('operation').inputValue(), /^Get$/, 'operation');

	await ndv.getByTestId('rlc-input').click();
	const items = page.getByTestId('rlc-item');
	await items.first().waitFor({ timeout: STEP_TIMEOUT });
	// The service lists 100 tickets a page; scrolling to the end of the list loads the next page.
	const loaded = await items.count();
	await items.nth(loaded - 1).scrollIntoViewIfNeeded();
	await until(
		'the next page of tickets after scrolling',
		async () => (await items.count()) > loaded,
	);
	console.log(`  list: ${loaded} tickets, ${await items.count()} after scrolling to the end`);

	await page
		.locator('input[data-test-id="rlc-search"], [data-test-id="rlc-search"] input')
		.first()
		.fill('Two-factor');
	await until('only tickets matching "Two-factor"', async () => {
		const texts = await items.allInnerTexts();
		return texts.length > 0 && texts.every((text) => text.includes('Two-factor'));
	});
	const chosen = (await items.first().innerText()).trim();
	const ticketId = /\((tkt_\d+)\)/.exec(chosen)?.[1];
	if (!ticketId) throw new Error(`the list entry "${chosen}" names no ticket id`);
	console.log(`  filtered by "Two-factor": ${await items.count()} tickets, picking "${chosen}"`);
	const shots = [await saveScreenshot(page, 'ui-ticket-from-list.jpg')];
	await items.first().click();

	await ndv.getByTestId('node-execute-button').first().click();
	const output = ndv.getByTestId('output-panel');
	await output
		.getByTestId('node-run-status-success')
		.first()
		.waitFor({ timeout: STEP_TIMEOUT })
		.catch(async () => {
			throw new Error(`the step did not succeed: ${(await output.innerText()).slice(0, 400)}`);
		});
	await output.getByText(ticketId, { exact: true }).first().waitFor({ timeout: STEP_TIMEOUT });
	await output.getByText('Two-factor codes rejected').first().waitFor({ timeout: STEP_TIMEOUT });
	shots.push(await saveScreenshot(page, 'ui-get-ticket-output.jpg'));
	return shots;
}

/** The same step run again while the service asks to wait (429): the hint under the output says so. */
async function hintUnderOutput(page: Page, sandbox: Sandbox): Promise<string[]> {
	sandbox.setFaults({ next: [429] });
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('node-execute-button').first().click();
	const output = ndv.getByTestId('output-panel');
	await output
		.getByText(/Waited [\d.]+ s in all for the service's rate limit/)
		.first()
		.waitFor({ timeout: STEP_TIMEOUT });
	const shots = [await saveScreenshot(page, 'ui-hint-rate-limit.jpg')];
	await page.keyboard.press('Escape');
	return shots;
}

/** Steps 5 and 6: the triggers' panels. */
const TRIGGERS = [
	{
		step: 'webhook trigger: production URL notice',
		item: 'Support Ticket',
		event: 'On any event',
		shows: /copy the Production URL above/i,
		screenshot: 'ui-webhook-trigger.jpg',
	},
	{
		step: 'poll trigger',
		item: 'Support Ticket Poll',
		event: 'On new ticket',
		shows: /Poll Times/,
		screenshot: 'ui-poll-trigger.jpg',
	},
];

async function openTrigger(
	page: Page,
	url: string,
	{ item, event, shows, screenshot }: (typeof TRIGGERS)[number],
): Promise<string[]> {
	await newWorkflow(page, url);
	await pickFromNodePanel(page, 'Support Ticket', item);
	const ndv = page.getByTestId('ndv');
	// A trigger with events lists them in the panel first ("On any event", …).
	await page.getByTestId('node-creator').getByText(event, { exact: true }).first().click();
	await ndv.getByTestId('node-parameters').waitFor({ timeout: STEP_TIMEOUT });
	await until(`the panel to show ${String(shows)}`, async () => shows.test(await ndv.innerText()));
	return [await saveScreenshot(page, screenshot)];
}

async function main(): Promise<void> {
	const missing = chromiumMissing();
	if (missing) throw new Error(missing);
	const { values: options } = parseArgs({
		options: {
			url: { type: 'string' },
			sandbox: { type: 'string', default: 'http://127.0.0.1:4010' },
			'update-screenshots': { type: 'boolean' },
		},
	});
	if (options['update-screenshots']) screenshotFolder = repoPath('docs');
	const noSlash = (url?: string) => url?.replace(/\/$/, '');
	const { url, env } = await editorEnvironment(noSlash(options.url), (line) => console.log(line));
	const sandboxUrl = env?.sandbox.baseUrl ?? String(noSlash(options.sandbox));
	let passed = 0;
	// Each step needs the one before: the first failure ends the run.
	const step = async (name: string, run: () => Promise<string[] | void>): Promise<void> => {
		const started = Date.now();
		try {
			const shots = (await run()) ?? [];
			passed++;
			console.log(
				`✓ ${name} (${Math.round((Date.now() - started) / 1000)} s)${shots.length ? `: ${shots.join(', ')}` : ''}`,
			);
		} catch (error) {
			console.error(`✗ ${name}: ${error instanceof Error ? error.message : String(error)}`);
			throw error;
		}
	};
	try {
		await withBrowserPage('ui-test', async (page) => {
			await step('sign in', () => logIn(page, url));
			await step('credential: test succeeds, a wrong secret fails', () =>
				createCredential(page, url, sandboxUrl),
			);
			await step('node panel → Ticket → Get, ticket from list, execute', () =>
				getTicketFromList(page, url),
			);
			await step('a run that waited for the rate limit: the hint under the output', async () =>
				env ? hintUnderOutput(page, env.sandbox) : undefined,
			);
			for (const trigger of TRIGGERS)
				await step(trigger.step, () => openTrigger(page, url, trigger));
		});
	} finally {
		await env?.stop();
		// A step that never ran after a failure counts as failed too.
		reportTotals({ passed, failed: 4 + TRIGGERS.length - passed }, 'the editor in Chromium');
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
