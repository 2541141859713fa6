const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why an endpoint URL must not receive a key, or undefined when it may. Keys travel only over
 * https; plain http is accepted for a platform on this machine (a local sandbox).
 */
export function endpointUrlProblem(endpoint: string): string | undefined {
	let url: URL;
	try {
		url = new URL(endpoint);
	} catch {
		return `The endpoint "${endpoint}" is not a URL`;
	}
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
	return `The endpoint "${url.origin}" does not use https, so the key would travel unencrypted: it was not sent`;
}
