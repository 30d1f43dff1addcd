/**
 * `npm run dev -- --screenshot`: docs/screenshot-node.jpg, the Support Ticket node open in the n8n editor.
 *
 * Uses Debian's Chromium (`apt-get install -y chromium`) driven by playwright-core (see
 * editorBrowser.tsx); it downloads no browser. Runs against `npm run dev`'s n8n when one answers on --url (default
 * http://127.0.0.1:5678), otherwise starts the same environment itself on a free port and stops
 * it afterwards.
 *
 *   npm run dev -- --screenshot [--url http://127.0.0.1:5678] [--workflow exCreateReplyUpd] [--node "Create Ticket"]
 */
import type { Page } from 'playwright-core';

import {
	chromiumMissing,
	editorEnvironment,
	logIn,
	saveDocsScreenshot,
	withBrowserPage,
} from '../test/e2e/editorBrowser';

interface ScreenshotOptions {
	url: string;
	workflow: string;
	node: string;
}

function parseArguments(argv: string[]): ScreenshotOptions {
	const options: ScreenshotOptions = {
		url: 'http://127.0.0.1:5678',
		workflow: 'exCreateReplyUpd',
		node: 'Create Ticket',
	};
	for (let i = 0; i < argv.length; i++) {
		const value = argv[i + 1];
		if (argv[i] === '--url' && value) options.url = value.replace(/\/$/, '');
		else if (argv[i] === '--workflow' && value) options.workflow = value;
		else if (argv[i] === '--node' && value) options.node = value;
		else
			throw new Error(`unknown option ${argv[i]} (options: --url URL, --workflow ID, --node NAME)`);
		i++;
	}
	return options;
}

async function openNode(
	page: Page,
	url: string,
	workflowId: string,
	nodeName: string,
): Promise<void> {
	await page.goto(`${url}/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).first();
	await node.waitFor({ timeout: 60_000 });
	await page.keyboard.press('Escape');
	await node.dblclick();
	// The parameter panel of the node: wait until its fields have rendered.
	await page.locator('[data-test-id="ndv"], .ndv-wrapper').first().waitFor({ timeout: 30_000 });
	await page
		.locator('[data-test-id="parameter-input-subject"], [data-test-id="node-parameters"]')
		.first()
		.waitFor({ timeout: 30_000 });
}

/** "Execute step": the node calls the sandbox, and its output panel shows what the service answered. */
async function executeStep(page: Page): Promise<void> {
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	await page
		.locator('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]')
		.first()
		.waitFor({ timeout: 60_000 });
	await page.locator('[data-test-id="output-panel"] table').first().waitFor({ timeout: 10_000 });
	// The panel's animations settled.
	await page.waitForTimeout(1000);
}

async function main(): Promise<void> {
	const missing = chromiumMissing();
	if (missing) throw new Error(missing);
	const options = parseArguments(process.argv.slice(2));
	const { url, env } = await editorEnvironment(options.url, (line) => console.log(line));
	try {
		await withBrowserPage('screenshot', async (page) => {
			await logIn(page, url);
			await openNode(page, url, options.workflow, options.node);
			await executeStep(page);
			console.log(`saved ${await saveDocsScreenshot(page, 'screenshot-node.jpg')}`);
		});
	} finally {
		await env?.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
