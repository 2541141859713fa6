import type { INodeParameters } from 'n8n-workflow';

import { MESSAGE_NODE } from '../support/nodeTypes';
import { wordsOf } from '../support/nodeWords';
import type { RunShape } from '../support/nodeShapes';
import { describeShape, runNodeInShape } from '../support/nodeShapes';
import { useSandbox } from './sandboxLifecycle';

/**
 * A node run several times in one execution (Loop Over Items, both IF branches wired into it) meets
 * its items a few at a time: the External Send ID the node derives when the field is empty comes from
 * the email itself (the recipient and what the email holds), not from the run or the item's place in
 * it, so every customer's receipt goes out in whichever run meets it, each item answered `sent` names
 * an email the platform sent, and Retry On Fail (the same run tried again) sends nothing twice.
 */
const { sandbox, client, apiKey } = useSandbox();
const PATH = '/transactional/v1/campaigns/order-receipt/send';

const customers = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `crm-${i}` }));
const receipt: INodeParameters = {
	operation: 'sendTransactionalEmail',
	campaignId: 'order-receipt',
	identifyBy: 'external_id',
	externalId: '={{ $json.id }}',
};

beforeEach(async () => {
	await client().seed({
		profiles: customers(4).map(({ id }) => ({ external_id: id, email: `${id}@example.com` })),
		campaigns: [{ id: 'order-receipt', kind: 'transactional' }],
	});
});

async function sendReceipts(shape: RunShape, count: number) {
	const shaped = await runNodeInShape(
		MESSAGE_NODE,
		{ items: customers(count), parameters: receipt, endpoint: sandbox().url, apiKey, continueOnFail: true },
		shape,
	);
	const state = await client().state();
	const serviceIdOf = (externalId: string) =>
		state.profiles.find((profile) => profile.external_id === externalId)?.service_id;
	return { ...shaped, state, serviceIdOf };
}

const SHAPES: Array<[RunShape, number]> = [
	[{ kind: 'loop', batchSize: 1 }, 3],
	[{ kind: 'loop', batchSize: 2 }, 4],
	[{ kind: 'branches', branches: 2 }, 2],
	[{ kind: 'branches', branches: 3 }, 4],
];

describe.each(SHAPES)('Send Transactional Email without an External Send ID, %j', (shape, count) => {
	test(`in ${describeShape(shape)}: every customer gets their email, each "sent" names one the platform sent`, async () => {
		const { answers, runs, state, serviceIdOf } = await sendReceipts(shape, count);

		expect(runs).toBeGreaterThan(1);
		expect(answers.map(({ item }) => item).sort()).toEqual(customers(count).map((_, i) => i));
		for (const { item, json } of answers) {
			const words = wordsOf(json);
			expect(words.status).toBe('sent');
			const sent = state.transactionalSends.filter(
				(send) => send.dispatch_id === words.dispatch_id && send.service_id === serviceIdOf(`crm-${item}`),
			);
			expect(sent).toHaveLength(1);
		}
		const ids = answers.map(({ json }) => wordsOf(json).external_send_id);
		expect(new Set(ids).size).toBe(count);
		expect(state.transactionalSends).toHaveLength(count);
		expect(await client().requests({ path: PATH })).toHaveLength(count);
	});
});

test('Retry On Fail tries the same run again with the same IDs: the emails the first try sent go out once', async () => {
	// The first request's answer is lost (the email went out): that item is maybe_applied, an error item
	// first in the output, so n8n tries the node's run again; its resend carries the same ID.
	await client().injectFaults([{ path: PATH, kind: 'reset-after', times: 10 }]);
	const first = await sendReceipts({ kind: 'once', retryOnFail: true }, 3);
	const secondTryIds = first.answers.map(({ json }) => wordsOf(json).external_send_id ?? json.error);

	const requests = await client().requests({ path: PATH });
	const idsSent = new Set(requests.map((request) => (request.body as { external_send_id: string }).external_send_id));
	expect(idsSent.size).toBe(3);
	expect(requests.length).toBeGreaterThan(3);
	expect(first.state.transactionalSends).toHaveLength(3);
	expect(secondTryIds).toHaveLength(3);
});
