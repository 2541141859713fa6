import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PostOutcome {
	/** The answer's status; null when none came. */
	status: number | null;
	error?: string;
}

/**
 * POSTs a JSON body and reports how it went. Never rejects and never throws: an unreachable,
 * slow or broken receiver is an outcome, not a sandbox failure. No keep-alive (each POST its own
 * connection), so nothing lingers when the sandbox or the receiver closes.
 */
export function postJson(
	url: string,
	headers: Record<string, string>,
	body: unknown,
	options: { signal: AbortSignal; timeoutMs: number },
): Promise<PostOutcome> {
	return new Promise((resolve) => {
		let settled = false;
		const finish = (outcome: PostOutcome): void => {
			if (settled) return;
			settled = true;
			resolve(outcome);
		};
		try {
			const target = new URL(url);
			const text = JSON.stringify(body);
			const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
			const request = send(
				target,
				{
					method: 'POST',
					agent: false,
					signal: options.signal,
					timeout: options.timeoutMs,
					headers: {
						...headers,
						'Content-Type': 'application/json',
						'Content-Length': String(Buffer.byteLength(text)),
					},
				},
				(response) => {
					response.on('error', () => undefined);
					response.resume();
					finish({ status: response.statusCode ?? null });
				},
			);
			request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
			request.on('error', (error) => finish({ status: null, error: error.message }));
			request.end(text);
		} catch (error) {
			finish({ status: null, error: error instanceof Error ? error.message : String(error) });
		}
	});
}
