import { normalisedSecret } from '../../shared/engine';

/**
 * What the trigger leaves out around a postback secret (comparedSecret), in words a credential Test
 * can show: "a line break at its end", "a tab at its start and 2 line breaks at its end". Only the
 * kinds of characters are named, never the secret.
 */
export interface SecretPadding {
	/** "a space at its start and a line break at its end" */
	words: string;
	/** How many characters that is (a Windows line break counts as one): "it" or "them". */
	count: number;
	/** Whether each is a space, a tab or a line break, all of which HTTP leaves out of a header. */
	onlyWhatHttpDrops: boolean;
}

/** The padding normalisedSecret takes off `raw`, or undefined when it takes none. */
export function secretPadding(raw: string | undefined): SecretPadding | undefined {
	if (raw === undefined) return undefined;
	const kept = normalisedSecret(raw);
	if (kept === raw || kept === '') return undefined;
	const startsAt = raw.length - raw.trimStart().length;
	const before = kindsIn(raw.slice(0, startsAt));
	const after = kindsIn(raw.slice(startsAt + kept.length));
	const parts = [
		...(before.length ? [`${listed(before)} at its start`] : []),
		...(after.length ? [`${listed(after)} at its end`] : []),
	];
	const all = [...before, ...after];
	return {
		words: parts.join(' and '),
		count: all.reduce((sum, run) => sum + run.count, 0),
		onlyWhatHttpDrops: all.every((run) => HTTP_DROPS.has(run.kind)),
	};
}

/** A run of one kind of character: "2 line breaks". */
interface Run {
	kind: string;
	count: number;
}

const HTTP_DROPS: ReadonlySet<string> = new Set(['space', 'tab', 'line break']);

/** What a character taken off is called; a Windows line break (\r\n) is one line break. */
function kindOf(char: string): string {
	if (char === ' ') return 'space';
	if (char === '\t') return 'tab';
	if (/^(?:\r\n|[\r\n\u2028\u2029\u0085])$/.test(char)) return 'line break';
	if (char === '\u00a0') return 'non-breaking space';
	if (char === '\ufeff') return 'byte order mark';
	return `blank character (U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')})`;
}

/** The characters of `text` in runs of one kind, in order. */
function kindsIn(text: string): Run[] {
	const runs: Run[] = [];
	for (const char of text.match(/\r\n|[\s\S]/g) ?? []) {
		const kind = kindOf(char);
		const last = runs[runs.length - 1];
		if (last?.kind === kind) last.count++;
		else runs.push({ kind, count: 1 });
	}
	return runs;
}

const article = (kind: string) => (/^[aeiou]/.test(kind) ? 'an' : 'a');
/** "line break" → "line breaks", "blank character (U+000B)" → "blank characters (U+000B)" */
const plural = (kind: string) => kind.replace(/^([^(]*?)( \(.*)?$/, '$1s$2');
const named = ({ kind, count }: Run) => (count === 1 ? `${article(kind)} ${kind}` : `${count} ${plural(kind)}`);

/** "a space", "a space and a tab", "a tab, a space and 2 line breaks" */
function listed(runs: Run[]): string {
	const words = runs.map(named);
	return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
