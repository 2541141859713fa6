import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

/**
 * The tarball leg of n8n's `@n8n/scan-community-package` (0.32.0, `buildScanConfig` in
 * scanner/scanner.mjs), run on our built `dist/**\/*.js` and `package.json` (`npm run lint:dist`).
 * The scanner's `n8n-nodes-base` nodes and credentials rule sets are scoped to `**\/*.ts`, which the
 * compiled output never matches, so they are left out here; `npm run lint` applies them to the sources.
 * The scanner lints with inline config off: `lint:dist` passes `--no-inline-config`.
 */
export default [
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: { ...n8nNodesBase.configs.community.rules } },
	// The package.json rules walk the object expression the TypeScript parser gives for JSON.
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
];
