/**
 * The credentials helper n8n-core calls for `this.getCredentials()` and
 * `this.helpers.httpRequestWithAuthentication()`. Modelled on n8n's own
 * (packages/cli/src/credentials-helper.ts): the data comes from the test instead of the database, the
 * credential type's defaults are applied, expressions in the data are resolved, and `authenticate` is
 * applied — the declarative `generic` form through the workflow's expression engine, a function form by
 * calling it.
 */
import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	ICredentialsEncrypted,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow, isExpression } from 'n8n-workflow';

export interface CredentialTypeSource {
	get(name: string): ICredentialType | undefined;
	known(): string[];
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		/** decrypted data per credential type name; updated in place by preAuthentication/OAuth updates */
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
		private readonly types: CredentialTypeSource,
	) {
		super();
	}

	private getType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) {
			throw new Error(
				`test harness: unknown credential type "${name}" (known: ${this.types.known().join(', ') || 'none'})`,
			);
		}
		return type;
	}

	getParentTypes(name: string): string[] {
		const type = this.types.get(name);
		if (!type?.extends) return [];
		const parents: string[] = [];
		for (const parent of type.extends) {
			parents.push(parent, ...this.getParentTypes(parent));
		}
		return parents;
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.types.get(credentialType);
		if (!type?.restrictToSupportedNodes) return true;
		const supported = type.supportedNodes ?? [];
		return supported.some((name) => nodeType === name || nodeType.endsWith(`.${name}`));
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions;
		const { authenticate } = this.getType(typeName);
		if (!authenticate) return requestOptions as IHttpRequestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}

		if (!workflow || !node) {
			throw new Error('test harness: workflow and node are required for declarative credential authentication');
		}
		requestOptions.headers ??= {};
		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<string, Record<string, unknown> | undefined>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = this.resolveValue(value as string, { $credentials: credentials }, workflow, node);
					target[outerKey] ??= {};
					target[outerKey]![keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const value = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!value) return '';
		return String(value);
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.getType(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		// "Persist" like n8n does, so later calls in this run reuse the fresh token.
		this.data[typeName] = { ...(this.data[typeName] ?? {}), ...(output as ICredentialDataDecryptedObject) };
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.getType(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return ((await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject) ?? undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const helper = this;
		const credentials = {
			id: nodeCredentials.id ?? undefined,
			name: nodeCredentials.name,
			type,
			data: undefined,
			async getData() {
				return { ...(helper.data[type] ?? {}) };
			},
			getDataToSave(): ICredentialsEncrypted {
				return { id: nodeCredentials.id ?? undefined, name: nodeCredentials.name, type, data: undefined };
			},
			async setData(data: ICredentialDataDecryptedObject) {
				helper.data[type] = { ...data };
			},
			async updateData(toUpdate: ICredentialDataDecryptedObject, toDelete: string[] = []) {
				const next = { ...(helper.data[type] ?? {}), ...toUpdate };
				for (const key of toDelete) delete next[key];
				helper.data[type] = next;
			},
		};
		return credentials as unknown as ICredentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.data[type];
		if (stored === undefined) {
			throw new Error(
				`test harness: no credentials of type "${type}" were passed to runWorkflow (options.credentials)`,
			);
		}
		// A copy: nodes (and authenticate) must not be able to change what the test passed in.
		const original: ICredentialDataDecryptedObject = { ...stored };
		if (raw === true) return original;

		const credentialType = this.types.get(type);
		let data = original;
		if (credentialType) {
			// Add the credential type's default values, as n8n does.
			data = (NodeHelpers.getNodeParameters(
				this.getCredentialsProperties(type),
				original as INodeParameters,
				true,
				false,
				null,
				null,
			) ?? {}) as ICredentialDataDecryptedObject;
			if (original.oauthTokenData !== undefined) data.oauthTokenData = original.oauthTokenData;
		}

		if (!Object.values(data).some((value) => isExpression(value))) return data;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		// Without a run to resolve in (a webhook's, a credential Test's), n8n resolves a credential's
		// expressions in a workflow of one mock node (CredentialsHelper.applyDefaultsAndOverwrites).
		if (!expressionResolveValues) {
			const workflow = new Workflow({
				nodes: [{ id: 'mock', name: '', typeVersion: 1, type: 'mock', position: [0, 0], parameters: {} }],
				connections: {},
				active: false,
				nodeTypes: MOCK_NODE_TYPES,
			});
			return workflow.expression.getComplexParameterValue(
				workflow.getNode('') as INode,
				data as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				data,
			) as ICredentialDataDecryptedObject;
		}
		try {
			return expressionResolveValues.workflow.expression.getParameterValue(
				data as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				data,
			) as ICredentialDataDecryptedObject;
		} catch (error) {
			(error as Error).message += ' [Error resolving credentials]';
			throw error;
		}
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[type] = { ...(this.data[type] ?? {}), oauthTokenData: data.oauthTokenData };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getType(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}

/** No node type is needed to resolve a credential's expressions. */
const MOCK_NODE_TYPES: INodeTypes = {
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getKnownTypes: () => ({}),
};
