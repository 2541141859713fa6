import type { KnipConfig } from 'knip';

/**
 * Dead exports and files (`npm run lint:dead`): files nothing reaches from the entry points, and exports
 * and exported types no other file imports. Any finding fails the lint. Dependencies are not checked: the
 * devDependencies serve configs and CLIs, and the release check refuses runtime dependencies.
 */
const config: KnipConfig = {
	entry: [
		// What n8n loads: the nodes and credentials package.json names under `n8n`.
		'nodes/**/*.node.ts',
		'credentials/*.credentials.ts',
		// The tests (jest.config.js, jest.e2e.config.js) and the files they run in a child process.
		'test/**/*.test.ts',
		'test/e2e/**/*.e2e.ts',
		'test/release/{loadPackage,searchPackage}.js',
		'test/e2e/support/communityPackageScan.mjs',
		// package.json's scripts, the bench's child processes and the publish workflow's verdict.
		'bench/{run,tripFiles,appNights,storeCost,measureOne,longRunningProcess,concurrentExecution}.ts',
		'scripts/{demo,dev}.ts',
		'scripts/release/{check,scanVerdict}.ts',
		'sandbox/cli.ts',
		// The sandbox's routes, which sandbox/routes/index.ts requires by reading the folder.
		'sandbox/routes/*.ts',
		'gulpfile.js',
	],
	project: ['{nodes,credentials,sandbox,test,bench,scripts}/**/*.{ts,js,mjs}'],
	include: ['files', 'exports', 'types', 'nsExports', 'nsTypes', 'enumMembers', 'duplicates'],
};

export default config;
