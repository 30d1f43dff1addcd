// The editor in Debian's Chromium driven by playwright-core (which downloads no browser): for `npm run dev -- --screenshot`
// and `npm run test:e2e -- --ui`.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium, selectors, type Page } from 'playwright-core';

import { startDevEnvironment, type DevEnvironment } from './devEnvironment';
import { freePort } from './n8n/ports';
import { DEV_OWNER } from './n8n/restClient';
import { repoPath } from '../harness/repoPath';

export const CHROMIUM = '/usr/bin/chromium';
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

export function chromiumMissing(): string | undefined {
	return existsSync(CHROMIUM)
		? undefined
		: `No Chromium at ${CHROMIUM}. Install Debian's package first: apt-get install -y chromium`;
}

async function answers(url: string): Promise<boolean> {
	try {
		const response = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(3000) });
		return response.ok;
	} catch {
		return false;
	}
}

/** n8n at `url` when one answers there (e.g. `npm run dev`'s), else the dev environment on a free port. */
export async function editorEnvironment(
	url: string | undefined,
	log: (line: string) => void,
): Promise<{ url: string; env?: DevEnvironment }> {
	if (url && (await answers(url))) return { url };
	log(
		url
			? `No n8n on ${url}: starting the npm run dev environment …`
			: 'Starting the npm run dev environment …',
	);
	const env = await startDevEnvironment({
		port: await freePort(),
		log: (line) => log(`  ${line}`),
	});
	return { url: env.url, env };
}

export async function logIn(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/signin`);
	await page
		.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]')
		.first()
		.fill(DEV_OWNER.email);
	await page.locator('input[type="password"]').first().fill(DEV_OWNER.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((target) => !target.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** `use` with a fresh headless page; on failure the page is saved to .tmp/<name>-failed.png (it tells more than a timed-out selector). */
export async function withBrowserPage(
	name: string,
	use: (page: Page) => Promise<void>,
): Promise<void> {
	// n8n's editor marks its elements with data-test-id (page.getByTestId looks for these).
	selectors.setTestIdAttribute('data-test-id');
	const profile = mkdtempSync(path.join(tmpdir(), 'chromium-editor-'));
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
				await use(page);
			} catch (error) {
				const debug = repoPath('.tmp', `${name}-failed.png`);
				mkdirSync(path.dirname(debug), { recursive: true });
				await page.screenshot({ path: debug }).catch(() => undefined);
				console.error(`the page at the failure: ${path.relative(repoPath(), debug)}`);
				throw error;
			}
		} finally {
			await context.close();
		}
	} finally {
		rmSync(profile, { recursive: true, force: true });
	}
}

/** Saves the page as `folder/fileName` (default docs/), a JPEG: `n8n-node build` would ship every .png of the checkout. */
export async function saveDocsScreenshot(
	page: Page,
	fileName: string,
	folder = repoPath('docs'),
): Promise<string> {
	const output = path.join(folder, fileName);
	mkdirSync(path.dirname(output), { recursive: true });
	// Nothing hovered (hover shows extra controls).
	await page.mouse.move(1, 1);
	await page.screenshot({ path: output, type: 'jpeg', quality: 85 });
	return path.relative(repoPath(), output);
}
