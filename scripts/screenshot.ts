/**
 * `npm run screenshot`: docs/screenshot-node.png, the Support Ticket node open in the n8n editor.
 *
 * Uses Debian's Chromium (`apt-get install -y chromium`) driven by playwright-core; it downloads
 * no browser. Runs against `npm run dev`'s n8n when one answers on --url (default
 * http://127.0.0.1:5678), otherwise starts the same environment itself on a free port and stops
 * it afterwards.
 *
 *   npm run screenshot [-- --url http://127.0.0.1:5678] [--workflow exCreateReplyUpd] [--node "Create Ticket"]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium, type Page } from 'playwright-core';

import { startDevEnvironment, type DevEnvironment } from '../test/e2e/devEnvironment';
import { freePort } from '../test/e2e/n8n/ports';
import { DEV_OWNER } from '../test/e2e/n8n/restClient';
import { repoPath } from '../test/harness/repoPath';

const CHROMIUM = '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps dialling hosts this network refuses.
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const OUTPUT = repoPath('docs', 'screenshot-node.png');

interface ScreenshotOptions {
	url: string;
	workflow: string;
	node: string;
}

function parseArguments(argv: string[]): ScreenshotOptions {
	const options: ScreenshotOptions = { url: 'http://127.0.0.1:5678', workflow: 'exCreateReplyUpd', node: 'Create Ticket' };
	for (let i = 0; i < argv.length; i++) {
		const value = argv[i + 1];
		if (argv[i] === '--url' && value) options.url = value.replace(/\/$/, '');
		else if (argv[i] === '--workflow' && value) options.workflow = value;
		else if (argv[i] === '--node' && value) options.node = value;
		else throw new Error(`unknown option ${argv[i]} (options: --url URL, --workflow ID, --node NAME)`);
		i++;
	}
	return options;
}

async function answers(url: string): Promise<boolean> {
	try {
		const response = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(3000) });
		return response.ok;
	} catch {
		return false;
	}
}

async function logIn(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/signin`);
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(DEV_OWNER.email);
	await page.locator('input[type="password"]').first().fill(DEV_OWNER.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'), { timeout: 30_000 });
}

async function openNode(page: Page, url: string, workflowId: string, nodeName: string): Promise<void> {
	await page.goto(`${url}/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).first();
	await node.waitFor({ timeout: 60_000 });
	await page.keyboard.press('Escape');
	await node.dblclick();
	// The parameter panel of the node: wait until its fields have rendered.
	await page.locator('[data-test-id="ndv"], .ndv-wrapper').first().waitFor({ timeout: 30_000 });
	await page.locator('[data-test-id="parameter-input-subject"], [data-test-id="node-parameters"]').first().waitFor({ timeout: 30_000 });
}

/** "Execute step": the node calls the sandbox, and its output panel shows what the service answered. */
async function executeStep(page: Page): Promise<void> {
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	await page.locator('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]').first().waitFor({ timeout: 60_000 });
	await page.locator('[data-test-id="output-panel"] table').first().waitFor({ timeout: 10_000 });
	// Nothing hovered (hover shows extra controls), and the panel's animations settled.
	await page.mouse.move(1, 1);
	await page.waitForTimeout(1000);
}

async function main(): Promise<void> {
	if (!existsSync(CHROMIUM)) {
		console.error(`No Chromium at ${CHROMIUM}. Install Debian's package first: apt-get install -y chromium`);
		process.exitCode = 1;
		return;
	}
	const options = parseArguments(process.argv.slice(2));
	let env: DevEnvironment | undefined;
	let url = options.url;
	if (!(await answers(url))) {
		console.log(`No n8n on ${url}: starting the npm run dev environment for this screenshot …`);
		env = await startDevEnvironment({ port: await freePort(), log: (line) => console.log(`  ${line}`) });
		url = env.url;
	}
	const profile = mkdtempSync(path.join(tmpdir(), 'chromium-screenshot-'));
	try {
		const context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_FLAGS,
			viewport: { width: 1440, height: 900 },
		});
		try {
			const page = context.pages()[0] ?? (await context.newPage());
			try {
				await logIn(page, url);
				await openNode(page, url, options.workflow, options.node);
				await executeStep(page);
			} catch (error) {
				// What the browser showed when a step failed tells more than the selector that timed out.
				const debug = repoPath('.tmp', 'screenshot-failed.png');
				mkdirSync(path.dirname(debug), { recursive: true });
				await page.screenshot({ path: debug }).catch(() => undefined);
				console.error(`the page at the failure: ${path.relative(repoPath(), debug)}`);
				throw error;
			}
			mkdirSync(path.dirname(OUTPUT), { recursive: true });
			await page.screenshot({ path: OUTPUT });
			console.log(`saved ${path.relative(repoPath(), OUTPUT)}`);
		} finally {
			await context.close();
		}
	} finally {
		rmSync(profile, { recursive: true, force: true });
		await env?.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
