import { unknownFieldsProblem } from '../badRequest';
import { isNonEmptyString, isPlainObject } from '../formats';
import { accept, refuse, type Checked } from '../track/checked';

export interface Attachment {
	file_name: string;
	url: string;
}

/**
 * The `attachments` of /campaigns/trigger/send: file_name and url required, url an http(s) URL. The
 * sandbox fetches nothing, so the 2 MB size and the Content-Type the URL must answer with are not checked.
 */
export function readAttachments(value: unknown): Checked<Attachment[]> {
	if (!Array.isArray(value)) return refuse('attachments must be an array of {file_name, url}');
	const attachments: Attachment[] = [];
	for (const [i, item] of value.entries()) {
		const path = `attachments[${i}]`;
		if (!isPlainObject(item)) return refuse(`${path} must be an object {file_name, url}`);
		const unknown = unknownFieldsProblem(item, ['file_name', 'url']);
		if (unknown) return refuse(`${path}: ${unknown}`);
		if (!isNonEmptyString(item.file_name))
			return refuse(`${path}.file_name is required: a non-empty string (the name without extension)`);
		if (!isHttpUrl(item.url)) return refuse(`${path}.url is required: an http(s) URL of the file`);
		attachments.push({ file_name: item.file_name, url: item.url as string });
	}
	return accept(attachments);
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		return ['http:', 'https:'].includes(new URL(value).protocol);
	} catch {
		return false;
	}
}
