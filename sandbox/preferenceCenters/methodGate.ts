import type { PreferenceCenterMethod, SandboxConfigView } from '../adminApiTypes';
import type { RouteResult } from '../core/route';

/**
 * The gateway's answer to a preference center update by a method the configuration turns off: 405 with
 * an Allow header naming the accepted ones (RFC 9110), before credentials and rate limit. The body is
 * ours: a gateway refusal is not a platform error body.
 */
export function preferenceCenterMethodGate(method: PreferenceCenterMethod) {
	return (config: Readonly<SandboxConfigView>): RouteResult | undefined => {
		if (config.preferenceCenterMethods.includes(method)) return undefined;
		return {
			status: 405,
			body: { message: 'Method Not Allowed' },
			headers: { Allow: config.preferenceCenterMethods.join(', ') },
		};
	};
}
