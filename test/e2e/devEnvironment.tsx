import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';

import { startSandbox, type Sandbox } from '../../sandbox';
import {
	exampleWorkflows,
	hasNode,
	SANDBOX_CREDENTIAL_ID,
	sandboxCredentials,
	triggerWebhookPath,
	type WorkflowFile,
} from './fixtures';
import { activateWorkflow, importCredentials, importWorkflows } from './n8n/cli';
import { ensureN8n, PRIMARY_N8N_VERSION } from './n8n/n8nInstall';
import { DEV_OWNER, N8nRestClient, type Owner } from './n8n/restClient';
import { startN8n, type RunningN8n } from './n8n/server';
import {
	createUserFolder,
	installCommunityPackage,
	removeUserFolder,
	type N8nUserFolder,
} from './n8n/userFolder';
import { packPackage, removePackedPackage } from './packPackage';

export interface DevEnvironmentOptions {
	n8nVersion?: string;
	/** n8n's port (default 5678, n8n's own default). */
	port?: number;
	/** A persistent user folder (the database survives restarts); default a fresh temp folder. */
	userFolder?: string;
	/** Wipe `userFolder` first. */
	fresh?: boolean;
	log?: (line: string) => void;
	echo?: boolean;
}

/** A real n8n editor with this package installed, a seeded sandbox and the examples imported. */
export interface DevEnvironment {
	url: string;
	sandbox: Sandbox;
	owner: Owner;
	folder: N8nUserFolder;
	workflows: WorkflowFile[];
	/** Production URLs of the activated trigger workflows; the sandbox delivers every event to them. */
	webhookUrls: string[];
	/** Packs dist/ again, installs it and restarts n8n (n8n loads community packages at start). */
	reloadPackage(): Promise<void>;
	stop(): Promise<void>;
}

function portInUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** On 4010, the address the README's steps show, or on a free port when 4010 is taken (binding tells, a probe first would race). */
async function startSeededSandbox(seed: number): Promise<Sandbox> {
	return startSandbox({ port: 4010, seed }).catch((error: NodeJS.ErrnoException) => {
		if (error.code !== 'EADDRINUSE') throw error;
		return startSandbox({ seed });
	});
}

const DEV_ENCRYPTION_KEY = 'n8n-nodes-support-ticket-dev';

export async function startDevEnvironment(
	options: DevEnvironmentOptions = {},
): Promise<DevEnvironment> {
	const log = options.log ?? (() => undefined);
	const port = options.port ?? 5678;
	if (await portInUse(port))
		throw new Error(`port ${port} is in use (another n8n?): stop it or pass another port`);
	const install = await ensureN8n(options.n8nVersion ?? PRIMARY_N8N_VERSION, log);
	if (options.userFolder) {
		if (options.fresh) rmSync(options.userFolder, { recursive: true, force: true });
		mkdirSync(options.userFolder, { recursive: true });
	}
	const isNewFolder =
		!options.userFolder || !existsSync(`${options.userFolder}/.n8n/database.sqlite`);
	const folder = createUserFolder(install, {
		root: options.userFolder,
		encryptionKey: DEV_ENCRYPTION_KEY,
	});
	const sandbox = await startSeededSandbox(1050);
	let running: RunningN8n | undefined;
	const stop = async (): Promise<void> => {
		await running?.stop();
		running = undefined;
		await sandbox.stop();
		// A temp folder is this run's alone; a folder the caller named is kept for the next run.
		if (!options.userFolder) removeUserFolder(folder);
	};
	try {
		log(`sandbox on ${sandbox.baseUrl} with ${sandbox.store.ticketCount} tickets`);
		const installPackage = async (): Promise<void> => {
			const packed = await packPackage();
			try {
				await installCommunityPackage(folder, packed.tarball, packed.version);
			} finally {
				removePackedPackage(packed);
			}
		};
		await installPackage();
		log(
			`${isNewFolder ? 'new' : 'existing'} n8n user folder ${folder.root}; importing the credential and examples …`,
		);
		// Re-imported on every start: the sandbox's port may differ, and the examples are the repository's.
		const credentials = sandboxCredentials(sandbox).filter((c) => c.id === SANDBOX_CREDENTIAL_ID);
		await importCredentials(folder, credentials);
		const workflows = exampleWorkflows();
		const documents = workflows.map((workflow) => workflow.json);
		await importWorkflows(folder, documents);
		// The sandbox delivers to the activated webhook examples, so a ticket created in the editor shows up as an execution;
		// the PostgreSQL editions stay inactive (they need the user's own database credential).
		const webhookPaths: string[] = [];
		for (const workflow of workflows) {
			const path = triggerWebhookPath(workflow);
			if (!path || hasNode(workflow, 'postgres')) continue;
			await activateWorkflow(folder, workflow.id);
			webhookPaths.push(path);
		}
		const start = async (): Promise<RunningN8n> => {
			log(`starting n8n ${install.version} …`);
			running = await startN8n(folder, { port, echo: options.echo });
			return running;
		};
		const { url } = await start();
		await new N8nRestClient(url).ensureOwner(DEV_OWNER);
		const webhookUrls = webhookPaths.map((path) => `${url}${path}`);
		for (const webhookUrl of webhookUrls) sandbox.addWebhook({ url: webhookUrl });
		return {
			url,
			webhookUrls,
			sandbox,
			owner: DEV_OWNER,
			folder,
			workflows,
			reloadPackage: async () => {
				await running?.stop();
				running = undefined;
				await installPackage();
				await start();
			},
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
