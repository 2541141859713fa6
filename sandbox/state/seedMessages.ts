import type { CanvasStepView, MessageChannel, MessageView, SeedCanvasStep, SeedMessage } from '../adminApiTypes';
import { isPlainObject, isUuid } from '../formats';

const CHANNELS: readonly MessageChannel[] = ['email', 'push', 'sms', 'in_app', 'content_card', 'webhook', 'whatsapp'];

/** What is wrong with a seeded campaign's `messages` (or a step's), or undefined. */
export function messagesSeedProblem(path: string, messages: unknown): string | undefined {
	if (!Array.isArray(messages))
		return `${path} must be an array of { message_variation_id, channel, multi_language?, translations? }`;
	for (const [i, message] of messages.entries()) {
		const at = `${path}[${i}]`;
		if (!isPlainObject(message) || !isUuid(message.message_variation_id))
			return `${at}.message_variation_id must be a UUID`;
		if (!CHANNELS.includes(message.channel as MessageChannel))
			return `${at}.channel must be one of ${CHANNELS.join(', ')}`;
		if (message.multi_language !== undefined && typeof message.multi_language !== 'boolean')
			return `${at}.multi_language must be a boolean`;
		const problem = translationsProblem(`${at}.translations`, message.translations);
		if (problem) return problem;
	}
	return undefined;
}

/** What is wrong with a seeded canvas's `steps`, or undefined. */
export function stepsSeedProblem(path: string, steps: unknown): string | undefined {
	if (!Array.isArray(steps)) return `${path} must be an array of { step_id, messages }`;
	for (const [i, step] of steps.entries()) {
		if (!isPlainObject(step) || !isUuid(step.step_id)) return `${path}[${i}].step_id must be a UUID`;
		const problem = messagesSeedProblem(`${path}[${i}].messages`, step.messages);
		if (problem) return problem;
	}
	return undefined;
}

function translationsProblem(path: string, translations: unknown): string | undefined {
	if (translations === undefined) return undefined;
	if (!isPlainObject(translations)) return `${path} must be an object: locale id → translation_map`;
	for (const [localeId, map] of Object.entries(translations)) {
		if (!isUuid(localeId)) return `${path}: '${localeId}' is not a locale id (a UUID)`;
		if (!isPlainObject(map) || !Object.values(map).every((text) => typeof text === 'string')) {
			return `${path}.${localeId} must be a translation_map: string id → translated text`;
		}
	}
	return undefined;
}

export function messageView({ message_variation_id, channel, multi_language, translations }: SeedMessage): MessageView {
	// Only email messages can be translated: multi-language defaults to on for them, off for the rest.
	return {
		message_variation_id,
		channel,
		multi_language: multi_language ?? channel === 'email',
		translations: structuredClone(translations ?? {}),
	};
}

export function stepView({ step_id, messages }: SeedCanvasStep): CanvasStepView {
	return { step_id, messages: messages.map(messageView) };
}
