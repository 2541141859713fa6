import type { IHttpRequestMethods } from 'n8n-workflow';

import type { Endpoint } from './operation';
import type { ApiResponse } from './transport';

/**
 * The method a run uses for an endpoint. Where the endpoint names a fallback, a 405 Method Not
 * Allowed switches the run to it: the refused request is sent again at once with the fallback
 * (a 405 means nothing was processed), and every later request uses it from the start.
 */
export class MethodChoice {
	private method: IHttpRequestMethods;

	constructor(
		private readonly endpoint: Pick<Endpoint, 'method' | 'fallbackMethod'>,
		private readonly log: (message: string) => void,
	) {
		this.method = endpoint.method;
	}

	async send(sendWith: (method: IHttpRequestMethods) => Promise<ApiResponse>): Promise<ApiResponse> {
		const used = this.method;
		const response = await sendWith(used);
		const fallback = this.endpoint.fallbackMethod;
		if (response.statusCode !== 405 || !fallback || used === fallback) return response;
		if (this.method === used) {
			this.method = fallback;
			this.log(`the platform answered 405 to ${used}; using ${fallback} for the rest of this run`);
		}
		return await sendWith(this.method);
	}
}
