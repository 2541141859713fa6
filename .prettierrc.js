/** n8n's own Prettier settings (the n8n repository's .prettierrc.js). */
module.exports = {
	singleQuote: true,
	useTabs: true,
	trailingComma: 'all',
	printWidth: 120,
};
