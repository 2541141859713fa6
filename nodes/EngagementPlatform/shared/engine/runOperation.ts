import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { itemError } from './itemErrors';
import type { ItemFailure } from './itemResults';
import { collectItemResults, inputFailure } from './itemResults';
import type { OperationSpec, Piece } from './operation';
import { planRequests } from './planner';
import { readItems } from './readItems';
import { readRunSettings } from './runOptions';
import type { SendReport } from './sendRequests';
import { sendRequests } from './sendRequests';
import { checkSentBefore } from './sentBefore';

/**
 * Runs one operation declaration over all input items: validate every item, plan the fewest
 * requests, send them paced, and give every item its own result or error, paired to it.
 */
export async function runOperation(context: IExecuteFunctions, spec: OperationSpec): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const continueOnFail = context.continueOnFail();
	const settings = readRunSettings(context, spec);

	const { pieces, inputErrors } = readItems(context, spec, itemCount);
	if (inputErrors.size > 0 && !continueOnFail) {
		const itemIndex = Math.min(...inputErrors.keys());
		throw invalidInputError(context, inputFailure(itemIndex, inputErrors.get(itemIndex)!), inputErrors.size);
	}

	const sentBefore = settings.sentBefore
		? await checkSentBefore(context, spec, pieces, settings.sentBefore)
		: undefined;
	const unchanged = sentBefore?.unchanged ?? new Set<Piece>();
	const toSend = unchanged.size > 0 ? pieces.filter((piece) => !unchanged.has(piece)) : pieces;

	const requests = planRequests(toSend, spec.shape, settings.lowered);
	let report: SendReport | undefined;
	try {
		report = await sendRequests(context, spec, settings, requests, !continueOnFail);
	} finally {
		const settled = await sentBefore?.settle(report?.outcomes);
		if (settled?.forgotten) {
			context.logger.warn(
				`Engagement Platform ${spec.endpoint.path}: an earlier run of this node did not finish, so Send Only Changes forgot what was sent and sent every item`,
			);
		}
	}
	for (const piece of unchanged) report.outcomes.set(piece, { ok: true, unchanged: true });
	// "Continue (using error output)": failed items carry n8n's error, which sends them down the
	// error branch. "Continue (regular output)" keeps the error json alone, which n8n would
	// otherwise replace with the error's message.
	const errorOutput = context.getNode().onError === 'continueErrorOutput';
	const results = collectItemResults(
		spec,
		itemCount,
		pieces,
		report.outcomes,
		inputErrors,
		errorOutput ? (failure) => itemError(context, failure) : undefined,
	);

	const summary =
		`${itemCount} items → ${report.requestsSent} requests: ${results.succeeded} succeeded, ` +
		`${results.failures.length} failed` +
		(results.unchanged > 0 ? `, ${results.unchanged} unchanged and not sent` : '') +
		(report.requestsSkipped > 0 ? `, ${report.requestsSkipped} requests not sent` : '');
	context.logger.info(`Engagement Platform ${spec.endpoint.path}: ${summary}`);
	if (results.withWarnings > 0) {
		context.addExecutionHints({
			message: `${results.withWarnings} items succeeded with a warning from the platform: see "warnings" on those items.`,
			type: 'warning',
			location: 'outputPane',
		});
	}

	if (results.unchanged > 0) {
		context.addExecutionHints({
			message: `${results.unchanged} items were not sent: their user and values are what this node last sent and the platform accepted (Send Only Changes).`,
			type: 'info',
			location: 'outputPane',
		});
	}

	if (results.failures.length > 0 && !continueOnFail) {
		const cause = results.failures.find((failure) => failure.delivery !== 'not_sent') ?? results.failures[0];
		throw sendError(context, cause, summary);
	}
	return [results.output];
}

function invalidInputError(
	context: IExecuteFunctions,
	failure: ItemFailure,
	invalidCount: number,
): NodeOperationError | NodeApiError {
	const others = invalidCount > 1 ? ` ${invalidCount - 1} more items are invalid too.` : '';
	return itemError(
		context,
		failure,
		` Nothing was sent.${others} Turn on "Continue On Fail" to send the valid items and get an error item for each invalid one.`,
	);
}

function sendError(
	context: IExecuteFunctions,
	failure: ItemFailure,
	summary: string,
): NodeOperationError | NodeApiError {
	return itemError(
		context,
		failure,
		` (${summary}.) Turn on "Continue On Fail" to get a result or an error for every item.`,
	);
}
