/**
 * The words a run's errors and hints share, in n8n's own terms: its node settings call the choice
 * "On Error" (n8n 1.x and 2.x alike), and its editor names an item of an error by itself ("[item 2]"),
 * so a message names the item only where n8n does not.
 */

/** "1 item", "3 items", "1 request". */
export function counted(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** "1 item was", "3 items were". */
export function countedWas(count: number, noun: string): string {
	return `${counted(count, noun)} ${count === 1 ? 'was' : 'were'}`;
}

/** Where n8n's node settings let a run go on past failed items, each with its own error item. */
export const ON_ERROR_CONTINUE = 'Settings → On Error → "Continue (using error output)"';
