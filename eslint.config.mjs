import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

/**
 * The package's own sources (nodes, credentials, package.json) under both n8n rule sets:
 * the community-nodes plugin (flat) and n8n-nodes-base (legacy configs, wired by hand).
 * The sandbox, tests and scripts never ship and are checked by the type checker only.
 */
const nodesBase = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{
		// .n8n-dev holds the editor bundle of `npm run dev`: hundreds of files that are not ours.
		ignores: [
			'dist/**',
			'node_modules/**',
			'coverage/**',
			'.n8n-dev/**',
			'screenshots/**',
			'sandbox/**',
			'test/**',
			'scripts/**',
			'bench/**',
			'*.js',
			'*.mjs',
		],
	},
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
	},
	{ files: ['nodes/**/*.ts', 'credentials/**/*.ts'], ...n8nCommunityNodesPlugin.configs.recommended },
	{
		files: ['package.json'],
		// Both rule sets read package.json as one JavaScript object expression, as the TypeScript parser gives it.
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { ...nodesBase, ...n8nCommunityNodesPlugin.configs.recommended.plugins },
		rules: { ...n8nCommunityNodesPlugin.configs.recommended.rules, ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: nodesBase,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// By its own description "only applicable to nodes in the main repository": community credentials link a URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: nodesBase,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These ask for ['main']; current n8n-workflow and the community-nodes plugin want NodeConnectionTypes.Main.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
];
