import type { ICredentialDataDecryptedObject, IConnections, INodeParameters } from 'n8n-workflow';

import { BASE_NODE_STAND_INS } from './baseNodeStandIns';
import type { HarnessNode, RunResult } from './index';
import { START_NODE_NAME, runWorkflow } from './index';

export interface WorkflowFile {
	id?: string;
	name: string;
	nodes: Array<{
		id?: string;
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
/** Other ways into the workflow (a nightly schedule beside the manual trigger): not run in-process. */
const OTHER_TRIGGERS = ['n8n-nodes-base.scheduleTrigger'];

/**
 * Runs an n8n workflow file in-process: its manual trigger becomes the harness's Start node
 * (both emit one empty item), sticky notes and other triggers are left out, and the base nodes it
 * uses run as stand-ins. The workflow and its nodes keep their ids, as a saved workflow does.
 */
export async function runExampleWorkflow(
	workflow: WorkflowFile,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<RunResult> {
	const trigger = workflow.nodes.find((node) => node.type === MANUAL_TRIGGER);
	if (!trigger) throw new Error(`"${workflow.name}" has no manual trigger to start from`);
	const leftOut = new Set(
		workflow.nodes
			.filter((node) => [MANUAL_TRIGGER, STICKY_NOTE, ...OTHER_TRIGGERS].includes(node.type))
			.map((node) => node.name),
	);
	const connections: IConnections = {};
	for (const [from, outputs] of Object.entries(workflow.connections)) {
		if (from === trigger.name) connections[START_NODE_NAME] = outputs;
		else if (!leftOut.has(from)) connections[from] = outputs;
	}
	return await runWorkflow({
		workflowId: workflow.id,
		nodes: workflow.nodes
			.filter((node) => !leftOut.has(node.name))
			.map(({ id, name, type, typeVersion, parameters, onError }) => ({
				id,
				name,
				type,
				typeVersion,
				parameters,
				onError,
			})),
		connections,
		nodeTypes: BASE_NODE_STAND_INS,
		credentials,
	});
}
