// The editor's REST API of a running `n8n start`, as the browser uses it (a session cookie bound to a browser-id header).
import type { CredentialImport } from './cli';

/** The owner the end-to-end tests and `npm run dev` create (password meets n8n's rules). */
export const DEV_OWNER = {
	email: 'owner@example.com',
	password: 'Sandbox-owner-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};
export type Owner = typeof DEV_OWNER;

/** One row of the executions list. */
export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	workflowId: string;
	/** ISO times; stoppedAt is null while it runs. */
	startedAt?: string;
	stoppedAt?: string | null;
}

type RestResponse<T> = { status: number; body: T };

/** `text` parsed where it is JSON, else the text as it is. */
export function jsonOrText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

export class N8nRestClient {
	private cookie = '';
	/** Who logged in, to log in again if n8n drops the session (a 401 clears its cookie; seen once in queue mode). */
	private owner: Owner | undefined;

	constructor(
		readonly baseUrl: string,
		private readonly browserId = 'n8n-nodes-support-ticket-e2e',
	) {}

	async request<T = unknown>(
		method: string,
		path: string,
		body?: unknown,
	): Promise<RestResponse<T>> {
		const answer = await this.send<T>(method, path, body);
		if (answer.status !== 401 || !this.owner || path === '/login') return answer;
		console.log(`  n8n answered 401 to ${method} /rest${path}: logging in again`);
		await this.login(this.owner);
		return await this.send<T>(method, path, body);
	}

	private async send<T>(method: string, path: string, body?: unknown): Promise<RestResponse<T>> {
		const response = await fetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers: {
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		const auth = response.headers.getSetCookie().find((line) => line.startsWith('n8n-auth='));
		if (auth && auth !== 'n8n-auth=' && !auth.startsWith('n8n-auth=;'))
			this.cookie = auth.split(';')[0];
		return { status: response.status, body: jsonOrText(await response.text()) as T };
	}

	/** A request that must answer 200; returns the answer's `data`. */
	async expectOk<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.request<{ data: T }>(method, path, body);
		if (response.status !== 200)
			throw new Error(
				`${method} /rest${path} answered ${response.status}: ${JSON.stringify(response.body)}`,
			);
		return response.body.data;
	}

	/** Claims a fresh instance (what the "Set up owner account" screen does) and logs in as the owner. */
	async setupOwner(owner: Owner): Promise<void> {
		await this.expectOk('POST', '/owner/setup', owner);
		this.owner = owner;
	}

	async login(owner: Owner): Promise<void> {
		// 1.x before LDAP support named the field `email`; 2.x and late 1.x take `emailOrLdapLoginId`.
		await this.expectOk('POST', '/login', {
			emailOrLdapLoginId: owner.email,
			email: owner.email,
			password: owner.password,
		});
		this.owner = owner;
	}

	/** Owner account set up on a fresh instance, or logged into on one that has it already. */
	async ensureOwner(owner: Owner): Promise<void> {
		// `/rest/settings` needs no login.
		const settings = await this.expectOk<{ userManagement?: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/settings',
		);
		if (settings.userManagement?.showSetupOnFirstLoad === false) await this.login(owner);
		else await this.setupOwner(owner);
	}

	/** The editor's "Test" button of a credential: the server runs the credential type's `test` request. */
	testCredential(credential: CredentialImport): Promise<{ status: string; message: string }> {
		return this.expectOk('POST', '/credentials/test', { credentials: credential });
	}

	/** Executions of one workflow, newest first (the editor's Executions tab). */
	async listExecutions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.expectOk<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return data.results.map((row) => ({ ...row, id: String(row.id) }));
	}

	/** One execution with its run data, `flatted`-serialized (executionData.tsx). */
	getExecution(id: string): Promise<ExecutionSummary & { data: string }> {
		return this.expectOk('GET', `/executions/${id}`);
	}

	/** A stored workflow as the editor loads it. */
	getWorkflow(id: string): Promise<Record<string, unknown> & { id: string }> {
		return this.expectOk('GET', `/workflows/${id}`);
	}

	// "Execute workflow" from a trigger: 1.x takes the workflow from the body, 2.x from its database; this body suits both.
	// `pinData` stands in for nodes' output (a trigger's is not run).
	async runManually(
		workflowId: string,
		triggerName: string,
		pinData?: Record<string, Array<{ json: unknown }>>,
	): Promise<string> {
		if (pinData) await this.expectOk('PATCH', `/workflows/${workflowId}`, { pinData });
		const workflowData = await this.getWorkflow(workflowId);
		const started = await this.expectOk<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${workflowId}/run`,
			{
				workflowData: pinData ? { ...workflowData, pinData } : workflowData,
				triggerToStartFrom: { name: triggerName },
			},
		);
		if (!started.executionId)
			throw new Error(
				`manual run of ${workflowId} started no execution: ${JSON.stringify(started)}`,
			);
		return String(started.executionId);
	}
}
