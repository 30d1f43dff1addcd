import { Credentials } from 'n8n-core';
import {
	ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestOptions,
	type INodeCredentialsDetails,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

/** n8n's server for a function-style `authenticate()`: stored values over defaults, authenticate on every request, again on its output after a 401. */
export class CredentialsHelper extends ICredentialsHelper {
	/** Every options object handed to and returned by `authenticate()`, for tests to inspect. */
	readonly authenticated: Array<{ input: IHttpRequestOptions; output: IHttpRequestOptions }> = [];

	/** How often a credential was read (n8n's server decrypts it from the database each time). */
	decryptedReads = 0;

	constructor(
		private readonly types: Map<string, ICredentialType>,
		private readonly stored: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	getCredentialsProperties(type: string) {
		return this.type(type).properties;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const type = this.type(typeName);
		if (typeof type.authenticate !== 'function') return requestOptions;
		// A shallow copy is enough: authenticate() must not mutate its input (tested separately).
		const input = { ...requestOptions, headers: { ...requestOptions.headers } };
		const output = await type.authenticate(credentials, requestOptions);
		this.authenticated.push({ input, output });
		return output;
	}

	/** Nothing to refresh for a signing credential; n8n still re-authenticates once after a 401. */
	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.decryptedReads++;
		return this.withDefaults(type);
	}

	/** Stored values over the property defaults, as n8n's applyDefaultsAndOverwrites does. */
	withDefaults(type: string): ICredentialDataDecryptedObject {
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of this.type(type).properties) {
			defaults[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
		const stored = this.stored[type];
		if (!stored) throw new Error(`No credentials of type ${type} were given to the harness`);
		return { ...defaults, ...stored };
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	private type(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}
}
