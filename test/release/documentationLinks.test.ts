/**
 * Every documentation link resolves: each node's codex (primaryDocumentation, credentialDocumentation),
 * each credential's documentationUrl, and the links of README.md, CONTRIBUTING.md, CHANGELOG.md and
 * docs/. A link to this repository on GitHub, or to the package's npm page (its README), must name a
 * file the repository has and, after `#`, a heading of that file as GitHub and npm make its anchor.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import path from 'path';

import type { ICredentialType } from 'n8n-workflow';

const PROJECT_ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
	name: string;
	repository: { url: string };
};
const GITHUB = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const NPM_PAGE = `https://www.npmjs.com/package/${manifest.name}`;

/** A heading's anchor as GitHub (and npm, which renders the README the same way) makes it. */
function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const anchor = anchorOf(heading[1]);
		const count = seen.get(anchor) ?? 0;
		anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
		seen.set(anchor, count + 1);
	}
	return anchors;
}

interface Link {
	from: string;
	url: string;
}

/** Where a link leads in this repository (a file and maybe an anchor), or undefined when it leads elsewhere. */
function target(link: Link): { file: string; anchor?: string } | undefined {
	const [address, anchor] = link.url.split('#') as [string, string | undefined];
	if (address === NPM_PAGE || address === GITHUB || address === `${GITHUB}/`)
		return { file: path.join(PROJECT_ROOT, 'README.md'), anchor };
	const blob = new RegExp(`^${GITHUB.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:blob|tree)/main/(.+)$`).exec(address);
	if (blob) return { file: path.join(PROJECT_ROOT, blob[1]), anchor };
	if (/^[a-z]+:/i.test(address)) return undefined;
	const base = path.dirname(path.join(PROJECT_ROOT, link.from));
	return { file: address === '' ? path.join(PROJECT_ROOT, link.from) : path.resolve(base, address), anchor };
}

const markdownFiles = [
	'README.md',
	'CONTRIBUTING.md',
	'CHANGELOG.md',
	...readdirSync(path.join(PROJECT_ROOT, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.map((file) => `docs/${file}`),
];

function markdownLinks(file: string): Link[] {
	const text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
	return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, url]) => ({ from: file, url }));
}

const codexFiles = readdirSync(path.join(PROJECT_ROOT, 'nodes/EngagementPlatform'))
	.map((folder) => path.join('nodes/EngagementPlatform', folder))
	.flatMap((folder) =>
		existsSync(path.join(PROJECT_ROOT, folder)) && !folder.endsWith('shared')
			? readdirSync(path.join(PROJECT_ROOT, folder))
					.filter((file) => file.endsWith('.node.json'))
					.map((file) => path.join(folder, file))
			: [],
	);

function codexLinks(file: string, kind: 'primaryDocumentation' | 'credentialDocumentation'): Link[] {
	const codex = JSON.parse(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')) as {
		resources?: Record<string, Array<{ url: string }>>;
	};
	return (codex.resources?.[kind] ?? []).map(({ url }) => ({ from: file, url }));
}

const credentialFiles = readdirSync(path.join(PROJECT_ROOT, 'credentials'))
	.filter((file) => file.endsWith('.credentials.ts'))
	.map((file) => `credentials/${file}`);

function credentialLink(file: string): Link {
	const module = require(path.join(PROJECT_ROOT, file)) as Record<string, new () => ICredentialType>;
	const credential = new (Object.values(module)[0])();
	return { from: file, url: credential.documentationUrl ?? '' };
}

/** What is wrong with a link, or undefined when it resolves. */
function problemOf(link: Link): string | undefined {
	const leads = target(link);
	if (!leads) return undefined;
	const shown = `${link.from}: ${link.url}`;
	if (!existsSync(leads.file)) return `${shown} names a file the repository does not have`;
	if (leads.anchor === undefined || !leads.file.endsWith('.md')) return undefined;
	if (!anchorsOf(leads.file).has(leads.anchor))
		return `${shown} names #${leads.anchor}, which is no heading of ${path.relative(PROJECT_ROOT, leads.file)}`;
	return undefined;
}

test('every node has a primary documentation link and a credential documentation link, and each resolves', () => {
	expect(codexFiles.length).toBe(8);
	for (const file of codexFiles) {
		expect(codexLinks(file, 'primaryDocumentation')).toHaveLength(1);
		expect(codexLinks(file, 'credentialDocumentation')).toHaveLength(1);
	}
	const links = codexFiles.flatMap((file) => [
		...codexLinks(file, 'primaryDocumentation'),
		...codexLinks(file, 'credentialDocumentation'),
	]);
	expect(links.map(problemOf).filter(Boolean)).toEqual([]);
	// Each leads into this repository, where the test can follow it.
	expect(links.filter((link) => !target(link))).toEqual([]);
});

test("every credential's documentation link resolves to its own section", () => {
	expect(credentialFiles).toHaveLength(3);
	const links = credentialFiles.map(credentialLink);
	expect(links.map(problemOf).filter(Boolean)).toEqual([]);
	expect(links.filter((link) => !target(link) || target(link)?.anchor === undefined)).toEqual([]);
});

test('every link of the README, CONTRIBUTING, CHANGELOG and docs/ that leads into the repository resolves', () => {
	const links = markdownFiles.flatMap(markdownLinks);
	expect(links.length).toBeGreaterThan(40);
	expect(links.map(problemOf).filter(Boolean)).toEqual([]);
});

test('the anchors are made as GitHub and npm make them', () => {
	expect(anchorOf('Engagement Platform Dashboard User (SCIM 2.0)')).toBe('engagement-platform-dashboard-user-scim-20');
	expect(anchorOf('Nightly: a sheet’s contacts → attributes, sending only what changed')).toBe(
		'nightly-a-sheets-contacts--attributes-sending-only-what-changed',
	);
	expect(anchorOf('Preview (send nothing)')).toBe('preview-send-nothing');
});

test('every image of the README renders on npm: an absolute URL of a file the repository has', () => {
	const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
	const sources = [
		...[...readme.matchAll(/<img\s[^>]*src="([^"]+)"/g)].map(([, source]) => source),
		...[...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map(([, source]) => source),
	];
	expect(sources.length).toBeGreaterThan(0);
	const raw = GITHUB.replace('https://github.com/', 'https://raw.githubusercontent.com/');
	for (const source of sources) {
		expect(source.startsWith(`${raw}/main/`)).toBe(true);
		expect(existsSync(path.join(PROJECT_ROOT, source.slice(`${raw}/main/`.length)))).toBe(true);
	}
});
