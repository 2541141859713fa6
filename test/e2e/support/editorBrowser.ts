import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Chromium (Debian's, never a downloaded one) driving the n8n editor. Chromium's own background
 * traffic is switched off and every request of a page to anything but this machine is aborted:
 * the editor asks registry.npmjs.org about community packages, for example.
 */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export const VIEWPORT = { width: 1440, height: 900 };

function isLoopback(url: string): boolean {
	try {
		const { protocol, hostname } = new URL(url);
		if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
		return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
	} catch {
		return false;
	}
}

export class EditorBrowser {
	/** Hosts a page tried to reach and was refused (for the log; not a failure). */
	readonly blockedHosts = new Set<string>();

	private constructor(
		readonly browser: Browser,
		readonly context: BrowserContext,
	) {}

	/** Launches Chromium with the n8n session cookie set for the editor's origin. */
	static async launch(editorUrl: string, cookie: { name: string; value: string }): Promise<EditorBrowser> {
		const browser = await chromium.launch({
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: CHROMIUM_ARGS,
		});
		try {
			const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US', timezoneId: 'UTC' });
			await context.addCookies([{ name: cookie.name, value: cookie.value, url: editorUrl }]);
			const editor = new EditorBrowser(browser, context);
			await context.route('**/*', async (route) => {
				const url = route.request().url();
				if (isLoopback(url)) return await route.continue();
				editor.blockedHosts.add(new URL(url).host);
				return await route.abort('blockedbyclient');
			});
			context.setDefaultTimeout(15_000);
			context.setDefaultNavigationTimeout(30_000);
			return editor;
		} catch (error) {
			await browser.close();
			throw error;
		}
	}

	async newPage(): Promise<Page> {
		return await this.context.newPage();
	}

	async close(): Promise<void> {
		await this.browser.close();
	}
}
