/**
 * No function of the nodes is longer than 80 lines, from the line it starts on to the line it ends on: a
 * longer one is split into named steps a reader can follow (CONTRIBUTING.md, Layout).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

import { sourcesUnder } from '../support/sourceFiles';

const ROOT = path.resolve(__dirname, '../..');
const MAX_LINES = 80;

/** A function with a body: declarations, methods, constructors, accessors, arrows and function expressions. */
function isFunctionWithBody(node: ts.Node): node is ts.FunctionLikeDeclaration {
	return (
		(ts.isFunctionDeclaration(node) ||
			ts.isMethodDeclaration(node) ||
			ts.isConstructorDeclaration(node) ||
			ts.isGetAccessorDeclaration(node) ||
			ts.isSetAccessorDeclaration(node) ||
			ts.isArrowFunction(node) ||
			ts.isFunctionExpression(node)) &&
		node.body !== undefined
	);
}

/** What a function is called where it is written: its own name, or the name it is given. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
	if (node.name) return node.name.getText();
	const parent = node.parent;
	if (
		(ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
		parent.initializer === node
	)
		return parent.name.getText();
	return '(anonymous)';
}

interface FunctionSpan {
	/** `file:line name`, the file relative to the project. */
	where: string;
	lines: number;
}

function functionsOf(file: string): FunctionSpan[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
	const found: FunctionSpan[] = [];
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
	const visit = (node: ts.Node) => {
		if (isFunctionWithBody(node)) {
			const start = lineOf(node.getStart(source));
			found.push({
				where: `${path.relative(ROOT, file)}:${start} ${nameOf(node)}`,
				lines: lineOf(node.getEnd()) - start + 1,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

test(`no function of the nodes is longer than ${MAX_LINES} lines`, () => {
	const files = sourcesUnder(path.join(ROOT, 'nodes'));
	expect(files.length).toBeGreaterThan(50);
	const functions = files.flatMap(functionsOf);
	// The functions are found: a walk that found none would find none too long either.
	expect(functions.length).toBeGreaterThan(files.length);
	const tooLong = functions
		.filter(({ lines }) => lines > MAX_LINES)
		.map(({ where, lines }) => `${where}: ${lines} lines`);
	expect(tooLong).toEqual([]);
});
