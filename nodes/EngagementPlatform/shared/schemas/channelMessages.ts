import { z } from 'zod/v4';

/** The channel keys of `messages` in /messages/send; their objects' fields are not shown by the spec. */
export const CHANNEL_KEYS = [
	'android_push',
	'apple_push',
	'content_card',
	'email',
	'kindle_push',
	'web_push',
	'webhook',
	'whats_app',
	'sms',
] as const;

export const channelMessages = z
	.record(z.string(), z.record(z.string(), z.unknown(), { error: 'each channel must hold a message object' }))
	.superRefine((messages, ctx) => {
		const keys = Object.keys(messages);
		if (keys.length === 0) {
			ctx.addIssue({
				code: 'custom',
				message: 'holds no message',
				params: { fix: `Add a message under one of: ${CHANNEL_KEYS.join(', ')}.` },
			});
		}
		for (const key of keys) {
			if (!(CHANNEL_KEYS as readonly string[]).includes(key)) {
				ctx.addIssue({
					code: 'custom',
					path: [key],
					message: 'is not a channel the platform knows',
					params: { fix: `Use one of: ${CHANNEL_KEYS.join(', ')}.` },
				});
			}
		}
	});
