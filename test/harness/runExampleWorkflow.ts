import type { ICredentialDataDecryptedObject, IConnections, INodeParameters } from 'n8n-workflow';

import { BASE_NODE_STAND_INS } from './baseNodeStandIns';
import type { HarnessNode, RunResult } from './index';
import { START_NODE_NAME, runWorkflow } from './index';

export interface WorkflowFile {
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		typeVersion: number;
		parameters: INodeParameters;
		onError?: HarnessNode['onError'];
	}>;
	connections: IConnections;
}

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/**
 * Runs an n8n workflow file in-process: its manual trigger becomes the harness's Start node
 * (both emit one empty item), sticky notes are left out, and the base nodes it uses run as
 * stand-ins.
 */
export async function runExampleWorkflow(
	workflow: WorkflowFile,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<RunResult> {
	const trigger = workflow.nodes.find((node) => node.type === MANUAL_TRIGGER);
	if (!trigger) throw new Error(`"${workflow.name}" has no manual trigger to start from`);
	const connections: IConnections = {};
	for (const [from, outputs] of Object.entries(workflow.connections)) {
		connections[from === trigger.name ? START_NODE_NAME : from] = outputs;
	}
	return await runWorkflow({
		nodes: workflow.nodes
			.filter((node) => node.type !== MANUAL_TRIGGER && node.type !== STICKY_NOTE)
			.map(({ name, type, typeVersion, parameters, onError }) => ({ name, type, typeVersion, parameters, onError })),
		connections,
		nodeTypes: BASE_NODE_STAND_INS,
		credentials,
	});
}
