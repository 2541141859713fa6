import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

import type { RunResult } from '../harness';

/** A secret made up for one run: wherever it turns up, it cannot be there by chance. */
export const freshSecret = (prefix: string) => `${prefix}-${randomBytes(18).toString('hex')}`;

/**
 * Everything a run leaves behind that a user, a log collector or an execution viewer could see:
 * n8n's whole run record (output items, stored errors, hints), the thrown error with its
 * description and stack, and every line logged through n8n's logger.
 */
export function visibleTraces(result: RunResult): string {
	const error = result.error as (Error & { description?: string }) | undefined;
	return [
		traceOf(result.run),
		error ? `${error.message}\n${error.description ?? ''}\n${traceOf(error)}` : '',
		traceOf(result.logs),
	].join('\n');
}

/** All of a value, however deep, long or circular: its errors' own fields and causes included. */
const traceOf = (value: unknown) =>
	inspect(value, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: Infinity });

/** The secrets found in a run's traces (none, when all is well). */
export function leakedSecrets(result: RunResult, secrets: string[]): string[] {
	const traces = visibleTraces(result);
	return secrets.filter((secret) => traces.includes(secret));
}
