/**
 * Two executions of the same node at once, each with its own credential, items and platform:
 * neither sees the other's items, results, requests or pacing. And the nodes' code keeps no
 * state between executions that could carry one into the other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import * as ts from 'typescript';

import type { Sandbox } from '../../sandbox';
import { SandboxClient, startSandbox } from '../../sandbox';
import type { RunResult } from '../harness';
import { USER, USER_NODE } from '../support/nodeTypes';
import { rowOf, statusOf, wordsOf } from '../support/nodeWords';
import { successStatus } from '../support/successWords';
import { runUserNode, trackEventParameters } from '../support/userRuns';
import { freshSecret, leakedSecrets } from './secrets';

const events = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => ({
		userId: `${prefix}-${i}`,
		event: `${prefix}_event`,
		time: '2026-11-01T12:00:00Z',
		properties: { n: i },
	}));

async function track(
	sandbox: Sandbox,
	apiKey: string,
	items: ReturnType<typeof events>,
	finished: string[],
	name: string,
): Promise<RunResult> {
	const result = await runUserNode({
		items,
		parameters: trackEventParameters(),
		endpoint: sandbox.url,
		apiKey,
		continueOnFail: true,
	});
	finished.push(name);
	return result;
}

describe('Two executions at once', () => {
	const sandboxes: Sandbox[] = [];
	afterAll(async () => await Promise.all(sandboxes.map(async (sandbox) => await sandbox.close())));

	test('keep their items, results, requests and pacing apart', async () => {
		const [slow, fast] = await Promise.all([startSandbox(), startSandbox()]);
		sandboxes.push(slow, fast);
		const [slowClient, fastClient] = [new SandboxClient(slow.url), new SandboxClient(fast.url)];
		const [slowKey, fastKey] = [freshSecret('key-a'), freshSecret('key-b')];
		await slowClient.addApiKey(slowKey, '*');
		await fastClient.addApiKey(fastKey, '*');
		// One platform allows a request every 2 seconds; the other enforces nothing. The slow run's 225
		// events are five requests of 50, so it waits at least three whole windows (6 s): with three
		// requests, 2 s, the fast run loading the node's code in a busy process could finish after it.
		await slowClient.configure({ rateLimits: { 'users.track': { limit: 1, windowMs: 2000 } } });
		await fastClient.configure({ rateLimits: { 'users.track': null } });

		const finished: string[] = [];
		const [slowRun, fastRun] = await Promise.all([
			track(slow, slowKey, events('slow', 225), finished, 'slow'),
			track(fast, fastKey, events('fast', 300), finished, 'fast'),
		]);

		// The first run's waits for its 2-second window never held the second one back.
		expect(finished).toEqual(['fast', 'slow']);
		expect(slowRun.logs.some((log) => log.message.includes('waiting'))).toBe(true);
		expect(fastRun.logs.some((log) => log.message.includes('waiting'))).toBe(false);

		for (const [run, prefix, count, client, key, otherKey] of [
			[slowRun, 'slow', 225, slowClient, slowKey, fastKey],
			[fastRun, 'fast', 300, fastClient, fastKey, slowKey],
		] as const) {
			const output = run.output(USER);
			expect(output).toHaveLength(count);
			// Each item tracked for its own user, its own row's fields exactly as they came.
			const tracked = successStatus(USER_NODE, trackEventParameters());
			expect(
				output.every(
					(item, index) => statusOf(item.json) === tracked && wordsOf(item.json).external_id === `${prefix}-${index}`,
				),
			).toBe(true);
			expect(output.map((item) => rowOf(item.json))).toEqual(events(prefix, count));
			const stored = (await client.state()).events;
			expect(stored).toHaveLength(count);
			expect(stored.every((event) => event.name === `${prefix}_event`)).toBe(true);
			expect(leakedSecrets(run, [key, otherKey])).toEqual([]);
		}
	});
});

describe('No state kept between executions', () => {
	const nodesRoot = path.resolve(__dirname, '../../nodes');
	const credentialsRoot = path.resolve(__dirname, '../../credentials');
	const sources = [...typeScriptFiles(nodesRoot), ...typeScriptFiles(credentialsRoot)];

	test('no module-level let or var, no module-level Map or Set that is not read-only, no writable static field', () => {
		const findings = sources.flatMap((file) =>
			moduleLevelState(file).map((finding) => `${path.relative(process.cwd(), file)}: ${finding}`),
		);

		expect(sources.length).toBeGreaterThan(50);
		expect(findings).toEqual([]);
	});
});

function typeScriptFiles(directory: string): string[] {
	return readdirSync(directory).flatMap((entry) => {
		const full = path.join(directory, entry);
		if (statSync(full).isDirectory()) return typeScriptFiles(full);
		return full.endsWith('.ts') ? [full] : [];
	});
}

const MUTABLE_CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/** Declarations at the top of a module (or static on a class) that one execution could change for the next. */
function moduleLevelState(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
	const findings: string[] = [];
	for (const statement of source.statements) {
		if (ts.isVariableStatement(statement)) {
			const flags = statement.declarationList.flags;
			for (const declaration of statement.declarationList.declarations) {
				const name = declaration.name.getText(source);
				if (!(flags & ts.NodeFlags.Const)) findings.push(`"${name}" is a module-level let or var`);
				const initializer = declaration.initializer;
				// A lookup table typed ReadonlySet or ReadonlyMap cannot be changed: the compiler refuses it.
				const readonlyType = declaration.type?.getText(source).startsWith('Readonly') === true;
				if (
					initializer &&
					!readonlyType &&
					ts.isNewExpression(initializer) &&
					MUTABLE_CONTAINERS.has(initializer.expression.getText(source))
				) {
					findings.push(`"${name}" is a module-level ${initializer.expression.getText(source)}`);
				}
			}
		}
		if (ts.isClassDeclaration(statement)) {
			for (const member of statement.members) {
				const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
				const isStatic = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword);
				const isReadonly = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ReadonlyKeyword);
				if (ts.isPropertyDeclaration(member) && isStatic && !isReadonly)
					findings.push(`static "${member.name.getText(source)}" is writable`);
			}
		}
	}
	return findings;
}
