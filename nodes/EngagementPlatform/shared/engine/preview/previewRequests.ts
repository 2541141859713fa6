import type { IExecuteFunctions } from 'n8n-workflow';

import type { OperationSpec, Piece, PieceOutcome, PlannedRequest, RunSettings } from '../operation';
import type { SendReport } from '../send/sendRequests';

/**
 * Preview's stand-in for sending: every planned request stays here, and each of its pieces is answered
 * with the request it would travel in. Nothing reaches the platform, not even the credential.
 */
export async function previewRequests(
	_context: IExecuteFunctions,
	_spec: OperationSpec,
	_settings: RunSettings,
	requests: PlannedRequest[],
): Promise<SendReport> {
	const outcomes = new Map<Piece, PieceOutcome>();
	requests.forEach((request, index) => {
		for (const pieces of request.slots.values())
			for (const piece of pieces) outcomes.set(piece, { ok: true, preview: { request: index, piece } });
	});
	return { outcomes, requestsSent: 0, requestsSkipped: 0, planned: requests };
}
