/** The owner account of a local n8n: created on first start, used to sign in to the editor. */
export const DEV_OWNER = {
	email: 'owner@engagement-platform.local',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'Local-owner-password-1',
};

/** Creates the owner account if this n8n has none yet (n8n asks for it on first start). */
export async function setUpOwner(editorUrl: string): Promise<void> {
	const response = await fetch(`${editorUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(DEV_OWNER),
	});
	// 400 means an owner exists already (a restarted dev folder): signing in works as before.
	if (!response.ok && response.status !== 400) {
		throw new Error(`owner setup failed: ${response.status} ${await response.text()}`);
	}
}

/** Signs in and returns the session cookie for REST calls and the browser. */
export async function signIn(editorUrl: string): Promise<{ name: string; value: string }> {
	const response = await fetch(`${editorUrl}/rest/login`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: DEV_OWNER.email, password: DEV_OWNER.password }),
	});
	if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
	const cookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('sign-in returned no n8n-auth cookie');
	const [pair] = cookie.split(';');
	const [name, ...value] = pair.split('=');
	return { name, value: value.join('=') };
}
