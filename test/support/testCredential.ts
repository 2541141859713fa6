import type { ICredentialTestRequest, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { runWorkflow } from '../harness';

/**
 * Runs a credential's declarative test the way n8n's credentials tester does: a temporary
 * node whose only property routes the test request, then the rules on the answer's status.
 */
export async function testCredential(
	test: ICredentialTestRequest,
	credentials: Record<string, string>,
	credentialType = 'engagementPlatformApi',
) {
	const tester: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Credential Test' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: test.request } },
			],
		},
	};
	const result = await runWorkflow({
		nodes: [{ name: 'Test', type: 'credentialTest', parameters: {} }],
		connections: { Start: { main: [[{ node: 'Test', type: 'main', index: 0 }]] } },
		nodeTypes: { credentialTest: tester },
		credentials: { [credentialType]: credentials },
	});
	if (!result.error) return { status: 'OK' };
	const statusCode = Number((result.error as { httpCode?: string }).httpCode);
	const rule = test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === statusCode);
	return { status: 'Error', message: rule?.properties.message ?? result.error.message };
}
